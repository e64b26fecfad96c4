"""Running a session: replay its answers, ask the rest, score and save at the end.

While a terminal drives a session, the clock runs: a ``meta:start`` mark is
saved when it starts and a ``meta:stop`` mark when the players pause, press
Ctrl-C or stop (a closed terminal leaves none, see :mod:`companion.analysis.clock`).

The runner is handed the session to drive, a
:class:`~companion.history.sessions.Session` the caller opened (the terminal's
``play``, ``resume`` and ``score``, :mod:`companion.cli.sessions`): every read
and write of its log, and its hold, go through that one object.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from companion import events
from companion.analysis.clock import Timing, duration_text, measure, so_far
from companion.events import LOCATION, META_PREFIX, START, TIME
from companion.history import sessions
from companion.history.errors import HistoryError
from companion.history.saving import Saved, save_game
from companion.history.sessions import Session
from companion.play.common import Outcome
from companion.play.table import Pause, Prompter, ReplayError, Table, Undo
from companion.wording import plural

if TYPE_CHECKING:
    from scorers import Result

Flow = Callable[[Table], Outcome]
NO_SAVE = META_PREFIX + "no-save"
"""A fact of a score entry begun with ``--no-save``: it is scored, never recorded."""
ShowHelp = Callable[[], None]


class Abandoned(Exception):
    """The players set the game aside (after a saved answer could not be replayed)."""


class Stopped(Exception):
    """The players chose to stop and change nothing."""


@dataclass(frozen=True)
class Finished:
    """A session played to its end and saved (or, begun with ``--no-save``, scored only).

    Attributes:
        saved: What was saved (:class:`~companion.history.saving.Saved`).
        result: The scored result.
        timing: How long a played-along game took (``None`` for a score entry).
    """

    saved: Saved
    result: Result
    timing: Timing | None = None

    @property
    def play_id(self) -> int | None:
        """The game's number in the history (the session's own), or ``None`` when not saved."""
        return self.saved.play_id

    @property
    def status(self) -> str:
        """``final`` or ``interim``."""
        return self.saved.status

    @property
    def location(self) -> str:
        """Where it was played (empty when not said)."""
        return self.saved.location

    @property
    def score_file(self) -> str:
        """The score file it was scored from (JSON text)."""
        return self.saved.score_file


class UnknownSession(HistoryError):
    """A saved game whose record names no game or kind of ours (a damaged record)."""


def flow_for(game: str, kind: str) -> Flow:
    """The game's whole flow (``play``) or its score entry (``score``).

    The game comes from the database: it is checked against the registry
    before any module is imported.

    Raises:
        UnknownSession: ``game`` is not one of ours, or ``kind`` is neither.
    """
    from scorers import SCORERS

    if not isinstance(game, str) or game not in SCORERS:
        raise UnknownSession(
            f"its game {str(game)[:40]!r} is not one of ours ({', '.join(SCORERS)}); "
            "the record is damaged"
        )
    if kind not in ("play", "score"):
        raise UnknownSession(f"its kind {str(kind)[:40]!r} is neither play nor score")
    from companion.kits import KITS

    module = KITS[game].flows()
    return module.flow if kind == "play" else module.score_only  # type: ignore[no-any-return]


def rules_text(game: str, topic_id: str, columns: int | None = None) -> str:
    """The rules topic ``topic_id`` of ``game`` as ``companion rules`` shows it, in plain text.

    The Markdown marks are gone (no ``**`` or backticks), paragraphs and list
    items are wrapped at whole words to ``columns`` (default: the terminal's
    width) and tables are lined up, as :func:`companion.rules.render.plain_text`
    draws them.
    """
    from companion.rules import load_topics
    from companion.rules.render import plain_text, width, wrap

    columns = columns or width()
    topic = next((t for t in load_topics(game) if t.id == topic_id), None)
    if topic is None:
        return "\n".join(
            wrap(f"No rules topic for this part; see: companion rules {game}", columns)
        )
    more = f"(More: companion rules {game}; companion rules {game} {topic.id})"
    lines = ["", *wrap(topic.title, columns), "", plain_text(topic.body, columns), ""]
    return "\n".join([*lines, *wrap(more, columns), ""])


def time_so_far(session: Session, table: Table) -> str:
    """What ``:time`` shows: the time at the table so far, and in the current round."""
    found = so_far(session.timeline(), table.rounds, table.current_round, now=sessions.now())
    if found is None:
        return "No time was recorded for this game (it was started by an older companion)."
    total, in_round = found
    return (
        f"Time at the table: {duration_text(total)} (pauses left out); "
        f"this round ({table.current_round}): {duration_text(in_round)}."
    )


def run(
    session: Session,
    *,
    prompter_for: Callable[[ShowHelp, ShowHelp], Prompter],
    out: Callable[[str], None],
    heading: Callable[[str], str] | None = None,
) -> Finished:
    """Play a session to its end and save it, holding it so no other terminal drives it.

    Args:
        session: The session to run (new or resumed); the finished game is
            saved in its history.
        prompter_for: Builds the prompter, given how to show the rules and the time.
        out: Prints a line for the players.
        heading: Given the part of the game the players go on at (the first
            question asked after the replay), the line said once before it:
            a resume's header names where the game stands now.

    Returns:
        The saved game.

    Raises:
        SessionHeld: Another live terminal drives this game.
        SessionLost: Another terminal took the game over while it ran.
        Pause: The players asked to stop (everything is saved).
        Abandoned: The players set the game aside.
        Stopped: The players stopped at an answer that could not be replayed.
        KeyboardInterrupt: Ctrl-C (everything answered is saved).
    """
    try:
        flow_for(session.game, session.kind)
    except UnknownSession as error:
        raise UnknownSession(f"game #{session.id} cannot be resumed: {error}") from None
    with session.held():
        try:
            session.append(START, None)
            flow = flow_for(session.game, session.kind)
            names = session.history.known_names()
            current: dict[str, Table] = {}
            prompter = prompter_for(
                lambda: out(rules_text(session.game, current["table"].asking)),
                lambda: out(time_so_far(session, current["table"])),
            )

            def save(key: str, value: Any, where: str) -> None:
                session.append(key, value, note=where)

            headed: list[str] = []

            def head(where: str) -> str | None:
                if heading is None or headed:
                    return None
                headed.append(where)
                return heading(where)

            undone: tuple[str, Any] | None = None
            while True:
                table = Table(
                    session.game,
                    session.events(),
                    save=save,
                    prompter=prompter,
                    out=out,
                    known_names=names,
                    undone=undone,
                    heading=head,
                    asked=session.note,
                )
                current["table"] = table
                try:
                    outcome = flow(table)
                    table.done()
                except Undo:
                    if not table.answers:
                        out("Nothing to undo yet.")
                    else:
                        undone = table.answers[-1]
                        session.truncate(len(table.answers) - 1)
                        out("Undone: the last answer is asked again, offered for editing.")
                    continue
                except ReplayError as error:
                    undone = None
                    said = head(table.where)
                    if said:
                        out(said)
                    settle(session, len(table.answers), error, prompter, out)
                    continue
                break
            return finish(session, outcome, table=table)
        except (Pause, KeyboardInterrupt, Stopped):
            # The clock stops here; a mark that cannot be saved only loses the last seconds.
            with suppress(HistoryError):
                session.append(events.STOP, None)
            raise


UNDO_TO = "Undo to that point: keep the {kept} before it, drop it and the {dropped} after it"
ABANDON = "Abandon the game: set it aside (its answers stay in the history)"
STOP = "Stop here and change nothing"


def settle(
    session: Session,
    saved: int,
    error: ReplayError,
    prompter: Prompter,
    out: Callable[[str], None],
) -> None:
    """Tell the players which saved answer cannot be replayed and let them decide.

    Nothing is deleted unless they choose to undo to that point.

    Raises:
        Abandoned: They set the game aside.
        Stopped: They stopped without changing anything.
    """
    out(
        f"Game #{session.id} ({session.game}): saved answer {error.position + 1} of {saved} "
        "cannot be used."
    )
    out(f"  Question: {error.question}")
    out(f"  Problem: {error.reason}")
    out("Nothing has been changed.")
    undo = UNDO_TO.format(
        kept=plural(error.position, "answer"), dropped=max(0, saved - error.position - 1)
    )
    choice = prompter.select("What now?", [undo, ABANDON, STOP], STOP, controls=False)
    if choice == undo:
        session.truncate(error.position)
        out(f"Answers {error.position + 1} to {saved} dropped; the game goes on from there.")
        return
    if choice == ABANDON:
        session.abandon()
        raise Abandoned
    raise Stopped


def finish(session: Session, outcome: Outcome, *, table: Table | None = None) -> Finished:
    """Score the outcome and save it as the session's game, closing the session.

    A played-along game (the session's kind ``play``) is saved with its time at the
    table (pauses left out) as its duration, and the time of each round as a
    ``meta:time`` fact of its log; a score entry gets no duration (the time
    spent typing the scores is not the length of the game). The place given
    when the game began is saved as its location.

    A session begun with ``--no-save`` (its :data:`NO_SAVE` fact) is scored
    and then removed with its answers: nothing of it stays in the history.

    Args:
        session: The session (its game and kind: ``play`` or ``score``).
        outcome: What the flow ended with.
        table: The table it was played at (for the time of each round).

    Returns:
        The saved game; what is shown after it is read by the caller
        (:func:`companion.history.saving.after_saving`).
    """
    from scorers import SCORERS

    game = session.game
    text = json.dumps(outcome.score_file, indent=2, ensure_ascii=False)
    result = SCORERS[game].score_json(outcome.score_file)
    if session.fact(NO_SAVE):
        saved = save_game(
            session.history,
            game,
            text,
            result.to_json(),
            session=session.id,
            keep=False,
            status=outcome.status,
            after=False,
        )
        return Finished(saved, result)
    ended = sessions.now()
    timing = None
    if session.kind == "play":
        timing = measure(session.timeline(), table.rounds if table else [], ended_at=ended)
    place = session.fact(LOCATION)
    saved = save_game(
        session.history,
        game,
        text,
        result.to_json(),
        session=session.id,
        location=place if isinstance(place, str) else "",
        played_at=ended,
        duration_min=timing.minutes if timing is not None and timing.seconds else None,
        start_player=outcome.start_player,
        status=outcome.status,
        facts=[(TIME, timing.to_json())] if timing is not None else [],
        after=False,
    )
    return Finished(saved, result, timing)
