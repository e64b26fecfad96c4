"""``companion history check``: the history's own checks, then every played-along game replayed.

:func:`check_history` is the whole check: :func:`companion.history.check.check_records`
(SQLite's integrity, every game's seats and score file), then, when the file is
whole, the fourth check, which needs the games' flows and so lives here:

4. Every played-along game replays from its saved answers through the game's
   flow without asking anything: a finished one to the end, an unfinished one
   up to its next question. A prompter that fails when asked makes sure of it.

:func:`report_text` is what ``companion history check`` prints.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from companion.events import is_answer
from companion.history.check import (
    Finding,
    Report,
    Session,
    check_records,
    first_difference,
    saved_sessions,
)
from companion.history.model import Play
from companion.history.sessions import Unreadable
from companion.history.store import History
from companion.play.runner import UnknownSession, flow_for
from companion.play.table import ReplayError, Table
from companion.terminal.safe_text import line
from companion.wording import plural
from scorers import Problem

__all__ = [
    "check_history",
    "check_session",
    "imported_problems",
    "logged_problems",
    "replay",
    "replay_problems",
    "report_text",
]


def check_history(history: History) -> Report:
    """Run every check on ``history`` (reading only).

    Raises:
        HistoryError: The database cannot be read at all (locked, say).
    """
    report = check_records(history)
    if report.damaged:
        return report  # the rest would read damaged pages
    with history.guard("check the history"):
        for session in saved_sessions(history):
            report.sessions += 1
            problem, note = check_session(session)
            report.problems.extend(problem)
            report.notes.extend(note)
    return report


def imported_problems(
    plays: Sequence[Play], events: Mapping[str, list[dict[str, Any]]]
) -> list[Problem]:
    """The problems of the played-along games of an import: their saved answers must
    replay to the end and give the game recorded with them, as ``history check`` asks.

    Args:
        plays: The plays read from the file, in its order (``plays[k]`` of the file).
        events: Their event logs, by play uuid.

    Returns:
        One problem per game that does not replay, at ``plays[k].events``.
    """
    found = []
    for k, play in enumerate(plays):
        found += replay_problems(k, play, events.get(play.uuid))
    return found


def logged_problems(plays: Iterable[tuple[Play, list[dict[str, Any]] | None]]) -> list[Problem]:
    """:func:`imported_problems` of plays read one by one, each with its event log
    (:meth:`~companion.history.formats.bounded.Parsed.logged`): at most
    :data:`~companion.history.formats.bounded.MAX_PROBLEMS` are listed, then how many more
    there are (as for the other problems of an import)."""
    from companion.history.formats.bounded import MAX_PROBLEMS

    found: list[Problem] = []
    more = 0
    for k, (play, log) in enumerate(plays):
        if log:
            for problem in replay_problems(k, play, log):
                if len(found) < MAX_PROBLEMS:
                    found.append(problem)
                else:
                    more += 1
    if more:
        found.append(Problem("$", f"... and {more} more problems"))
    return found


def replay_problems(k: int, play: Play, log: list[dict[str, Any]] | None) -> list[Problem]:
    """The problems of one played-along game of an import (see :func:`imported_problems`),
    ``plays[k]`` of its file, with its event log (``None`` or empty: none to replay)."""
    found: list[Problem] = []
    if log:
        session = Session(
            play.id,
            play.game,
            "play",
            "finished",
            [(str(e["key"]), e["value"]) for e in log],
            {"id": play.id, "score_file": play.score_file, "result": json.dumps(play.result)},
        )
        problems, _ = check_session(session)  # (a note: the game was edited since; kept)
        prefix = f"played-along game #{play.id} ({play.game}): "
        for finding in problems:
            found.append(Problem(f"plays[{k}].events", str(finding).removeprefix(prefix)))
    return found


def report_text(report: Report, path: Path, *, missing: bool = False) -> str:
    """What ``companion history check`` prints about the history at ``path``.

    Args:
        report: What the check found.
        path: The history file.
        missing: There is no file there yet (it read as an empty history).
    """
    lines = [
        f"History {path}" + (" (no file there yet)" if missing else ""),
        f"  SQLite integrity check: {'damaged' if report.damaged else 'ok'}",
    ]
    if report.damaged:
        lines.append("  The games are checked once the file is whole (see Backups in the README).")
    else:
        lines.append(
            f"  {plural(report.games, 'game')}, {report.rescored} re-scored from their score files"
        )
        lines.append(
            f"  {plural(report.sessions, 'played-along game')} replayed from their answers"
        )
    lines.extend(f"  Note: {line(note)}" for note in report.notes)
    if report.ok:
        return "\n".join([*lines, "No problems found."])
    lines.append(f"{plural(len(report.problems), 'problem')}:")
    lines.extend(f"  {line(problem)}" for problem in report.problems)
    return "\n".join(lines)


class _Asked(Exception):
    """The flow wanted a new answer: the saved ones are used up."""


PAD_STEPS = ("review", "fix")
"""The answers given on a score pad (``review1``, ``fix1.B3``...): the keys a game finished
with an earlier companion's pad may hold that today's pad no longer asks."""


class _Diverged(Exception):
    """A saved answer no longer fits the flow at this place."""

    def __init__(self, keep: int, reason: str) -> None:
        super().__init__(reason)
        self.keep = keep
        self.reason = reason


class _RefusingPrompter:
    """A prompter for replays: being asked anything means the saved answers ran out."""

    def select(
        self,
        message: str,
        choices: Sequence[str],
        default: str | None,
        *,
        controls: bool = True,
        unavailable: Any = None,
    ) -> str:
        raise _Asked(message)

    def text(
        self,
        message: str,
        validate: Any,
        default: str,
        suggestions: Sequence[str],
        *,
        complete: Any = None,
        preview: Any = None,
    ) -> str:
        raise _Asked(message)


def replay(game: str, kind: str, events: list[tuple[str, Any]]) -> tuple[Any, int]:
    """Run a session's flow over its saved answers, reading only.

    Returns:
        ``(outcome, used)``: the flow's :class:`~companion.play.common.Outcome`
        (``None`` when it stopped to ask a new question) and how many saved
        answers (draw seeds aside) it used.

    Raises:
        _Diverged: A saved answer no longer fits the flow.
        Exception: Whatever the flow raised on a saved answer it cannot use.
    """

    def refuse_save(key: str, value: Any, where: str) -> None:
        raise _Asked(key)

    table = Table(
        game, list(events), save=refuse_save, prompter=_RefusingPrompter(), out=lambda text: None
    )
    try:
        outcome = flow_for(game, kind)(table)
        table.done()
    except _Asked:
        return None, table.position
    except ReplayError as error:
        raise _Diverged(error.position, str(error)) from error
    return outcome, table.position


def check_session(session: Session) -> tuple[list[Finding], list[Finding]]:
    """Problems and notes of one played-along game."""
    where = f"played-along game #{session.id} ({session.game})"
    from companion.kits import KitMissing

    try:
        flow_for(session.game, session.kind)
    except (UnknownSession, KitMissing) as error:
        return [Finding(where, str(error))], []
    for k, (key, value) in enumerate(session.events, 1):
        if isinstance(value, Unreadable):
            return [Finding(where, f"saved answer {k} ({key}) is not readable JSON")], []
    answers = [key for key, _ in session.events if is_answer(key)]
    try:
        outcome, used = replay(session.game, session.kind, session.events)
    except _Diverged as error:
        failed = answers[error.keep] if error.keep < len(answers) else ""
        recorded = session.status != "active" and session.play is not None
        if recorded and failed.startswith(PAD_STEPS):
            # A score pad of an earlier companion (its rows were numbered and named
            # otherwise): every answer up to the pad replays; the game is kept as recorded.
            said = f"its score pad was corrected with an earlier companion's pad ({error.reason})"
            return [], [Finding(where, f"{said}; the recorded game is kept as it is")]
        return [Finding(where, f"it no longer replays: {error.reason}")], []
    except Exception as error:  # a flow failing on a saved answer is what we look for
        return [Finding(where, f"replaying it fails: {type(error).__name__}: {error}")], []
    if used < len(answers):
        return [Finding(where, f"{len(answers) - used} saved answers are never used")], []
    if session.status == "active":
        if outcome is not None:
            return [Finding(where, "it replays to its end but is not finished")], []
        return [], []
    if outcome is None:
        return [Finding(where, "it is finished but its saved answers stop before the end")], []
    if session.play is None:
        return [Finding(where, "it is finished but is linked to no recorded game")], []
    return [], _compare(where, session, outcome)


def _names(result: Any) -> list[str]:
    """The names of a result's players and of their members, in order."""
    found: list[str] = []
    players = result.get("players") if isinstance(result, dict) else None
    for player in players if isinstance(players, list) else []:
        if isinstance(player, dict):
            found.append(str(player.get("name")))
            members = player.get("members")
            if isinstance(members, list):
                found.extend(str(m) for m in members)
    return found


def _as_renamed(scored: Any, stored: Any) -> Any:
    """``scored`` with its people named as in ``stored`` (a rename is no edit of the game).

    ``history rename`` changes a name in the recorded game, never in its saved
    answers: the names are matched seat by seat and member by member.
    """
    before, after = _names(scored), _names(stored)
    if len(before) != len(after):
        return scored
    renamed = {old: new for old, new in zip(before, after, strict=True) if old != new}
    if not renamed:
        return scored

    def walk(node: Any) -> Any:
        if isinstance(node, str):
            return renamed.get(node, node)
        if isinstance(node, list):
            return [walk(item) for item in node]
        if isinstance(node, dict):
            return {key: walk(value) for key, value in node.items()}
        return node

    return walk(scored)


def _compare(where: str, session: Session, outcome: Any) -> list[Finding]:
    """A note when the recorded game is not what the answers give (it was edited, say)."""
    from scorers import SCORERS, ScoreFileError

    assert session.play is not None
    game = f"game #{session.play['id']}"
    try:
        scored = SCORERS[session.game].score_json(outcome.score_file).to_json()
    except ScoreFileError as error:
        return [Finding(where, f"its answers no longer score ({error.problems[0]})")]
    try:
        stored = json.loads(session.play["result"])
    except ValueError:
        return []  # reported with the game itself
    difference = first_difference(stored, _as_renamed(scored, stored))
    if difference is None:
        return []
    return [
        Finding(where, f"{game} differs from what its answers give, edited since? ({difference})")
    ]
