"""Running a session: replay its answers, ask the rest, score and save at the end."""

from __future__ import annotations

import importlib
import json
import uuid
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from companion.history import History, Play, now_utc
from companion.play.common import Outcome
from companion.play.table import Prompter, Table, Undo, undo_point
from companion.sessions import SessionStore

if TYPE_CHECKING:
    from scorers import Result

Flow = Callable[[Table], Outcome]


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


def rules_text(game: str, phase: str) -> str:
    """The rules topic for the current part of the game, as plain text."""
    from companion.rules import topic_for_phase

    topic = topic_for_phase(game, phase) or topic_for_phase(game, "overview")
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
) -> tuple[int, Result]:
    """Play a session to its end and save it.

    Args:
        history: Where the session and the finished game live.
        session_id: The session to run (new or resumed).
        prompter_for: Builds the prompter, given how to show the rules.
        out: Prints a line for the players.

    Returns:
        The saved game's id and its result.

    Raises:
        Pause: The players asked to stop (everything is saved).
        KeyboardInterrupt: Ctrl-C (everything answered is saved).
    """
    store = SessionStore(history)
    info = store.get(session_id)
    assert info is not None
    flow = flow_for(info.game, info.kind)
    names = known_names(history)
    current: dict[str, Table] = {}
    prompter = prompter_for(lambda: out(rules_text(info.game, current["table"].phase)))

    def save(key: str, value: Any, where: str) -> None:
        store.append(session_id, key, value, note=where)

    while True:
        table = Table(
            info.game,
            store.events(session_id),
            save=save,
            forget=lambda keep: store.truncate(session_id, keep),
            prompter=prompter,
            out=out,
            known_names=names,
        )
        current["table"] = table
        try:
            outcome = flow(table)
        except Undo:
            keep = undo_point(table.events)
            if not table.events:
                out("Nothing to undo yet.")
            else:
                store.truncate(session_id, keep)
                out("Undone: the last answer is asked again.")
            continue
        break
    return finish(store, session_id, info.game, outcome)


def finish(store: SessionStore, session_id: int, game: str, outcome: Outcome) -> tuple[int, Result]:
    """Score the outcome and save it as a finished game, closing the session."""
    from scorers import SCORERS

    text = json.dumps(outcome.score_file, indent=2, ensure_ascii=False)
    result = SCORERS[game].score_json(outcome.score_file)
    play = Play(
        id=0,
        uuid=str(uuid.uuid4()),
        played_at=now_utc(),
        game=game,
        score_file=text,
        result=result.to_json(),
        start_player=outcome.start_player,
    )
    return store.finish(session_id, play), result
