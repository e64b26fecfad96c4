"""Running a session: replay its answers, ask the rest, score and save at the end."""

from __future__ import annotations

import importlib
import json
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from companion.history import History, Play, now_utc
from companion.play.common import Outcome
from companion.play.table import Prompter, ReplayError, Table, Undo
from companion.sessions import SessionStore

if TYPE_CHECKING:
    from scorers import Result

Flow = Callable[[Table], Outcome]


class Abandoned(Exception):
    """The players set the game aside (after a saved answer could not be replayed)."""


class Stopped(Exception):
    """The players chose to stop and change nothing."""


@dataclass(frozen=True)
class Finished:
    """A session played to its end and saved.

    Attributes:
        play_id: The game's number in the history (the session's own).
        result: The scored result.
        status: ``final`` or ``interim``.
    """

    play_id: int
    result: Result
    status: str


def flow_for(game: str, kind: str) -> Flow:
    """The game's whole flow (``play``) or its score entry (``score``)."""
    module = importlib.import_module(f"companion.play.{game}")
    return module.flow if kind == "play" else module.score_only  # type: ignore[no-any-return]


def known_names(history: History) -> list[str]:
    """Player names already in the history, most frequent first."""
    with history.guard("read the history"):
        rows = history._db.execute(
            "SELECT name FROM play_players GROUP BY name ORDER BY count(*) DESC, name LIMIT 50"
        ).fetchall()
    return [row[0] for row in rows]


def rules_text(game: str, topic_id: str) -> str:
    """The rules topic ``topic_id`` of ``game``, as plain text."""
    from companion.rules import load_topics

    topic = next((t for t in load_topics(game) if t.id == topic_id), None)
    if topic is None:
        return f"No rules topic for this part; see: companion rules {game}"
    return (
        f"\n{topic.title}\n\n{topic.body}\n\n(More: companion rules {game}; "
        f"companion rules {game} {topic.id})\n"
    )


def run(
    history: History,
    session_id: int,
    *,
    prompter_for: Callable[[Callable[[], None]], Prompter],
    out: Callable[[str], None],
) -> Finished:
    """Play a session to its end and save it, holding it so no other terminal drives it.

    Args:
        history: Where the session and the finished game live.
        session_id: The session to run (new or resumed).
        prompter_for: Builds the prompter, given how to show the rules.
        out: Prints a line for the players.

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
    store = SessionStore(history)
    info = store.get(session_id)
    assert info is not None
    token = store.acquire(session_id)
    try:
        flow = flow_for(info.game, info.kind)
        names = known_names(history)
        current: dict[str, Table] = {}
        prompter = prompter_for(lambda: out(rules_text(info.game, current["table"].asking)))

        def save(key: str, value: Any, where: str) -> None:
            store.append(session_id, key, value, note=where, token=token)

        while True:
            table = Table(
                info.game,
                store.events(session_id),
                save=save,
                prompter=prompter,
                out=out,
                known_names=names,
            )
            current["table"] = table
            try:
                outcome = flow(table)
                table.done()
            except Undo:
                if not table.answers:
                    out("Nothing to undo yet.")
                else:
                    store.truncate(session_id, len(table.answers) - 1)
                    out("Undone: the last answer is asked again.")
                continue
            except ReplayError as error:
                settle(store, session_id, info.game, len(table.answers), error, prompter, out)
                continue
            break
        return finish(store, session_id, info.game, outcome)
    finally:
        store.release(session_id, token)


UNDO_TO = (
    "Undo to that point: keep the {kept} answer(s) before it, drop it and the {dropped} after it"
)
ABANDON = "Abandon the game: set it aside (its answers stay in the history)"
STOP = "Stop here and change nothing"


def settle(
    store: SessionStore,
    session_id: int,
    game: str,
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
        f"Game #{session_id} ({game}): saved answer {error.position + 1} of {saved} cannot be used."
    )
    out(f"  Question: {error.question}")
    out(f"  Problem: {error.reason}")
    out("Nothing has been changed.")
    undo = UNDO_TO.format(kept=error.position, dropped=max(0, saved - error.position - 1))
    choice = prompter.select("What now?", [undo, ABANDON, STOP], STOP, controls=False)
    if choice == undo:
        store.truncate(session_id, error.position)
        out(f"Answers {error.position + 1} to {saved} dropped; the game goes on from there.")
        return
    if choice == ABANDON:
        store.abandon(session_id)
        raise Abandoned
    raise Stopped


def finish(store: SessionStore, session_id: int, game: str, outcome: Outcome) -> Finished:
    """Score the outcome and save it as the session's game, closing the session."""
    from scorers import SCORERS

    text = json.dumps(outcome.score_file, indent=2, ensure_ascii=False)
    result = SCORERS[game].score_json(outcome.score_file)
    play = Play(
        id=session_id,
        uuid=str(uuid.uuid4()),
        played_at=now_utc(),
        game=game,
        score_file=text,
        result=result.to_json(),
        start_player=outcome.start_player,
        status=outcome.status,
    )
    return Finished(store.finish(session_id, play), result, outcome.status)
