"""``companion history check``: is the history whole, and does every record still add up?

Four checks, each reading only:

1. SQLite's ``integrity_check`` of every page and index.
2. Every recorded game's seats (the rows the stats read) match its result.
3. Every game with a score file re-scores, by today's scorer, to its stored
   result.
4. Every played-along game replays from its saved answers through the game's
   flow without asking anything: a finished one to the end, an unfinished one
   up to its next question. A prompter that fails when asked makes sure of it.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.history.rescoring import rescore
from companion.history.store import History

MAX_INTEGRITY_LINES = 20
"""SQLite's integrity check stops after this many problems."""


@dataclass(frozen=True)
class Finding:
    """One thing wrong.

    Attributes:
        where: ``SQLite``, ``game #5`` or ``played-along game #3``.
        message: What is wrong, in one line.
    """

    where: str
    message: str

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"


@dataclass
class Report:
    """What ``check`` found.

    Attributes:
        games: Recorded games looked at.
        rescored: Of those, games re-scored from their score file.
        sessions: Played-along games (finished or unfinished) replayed.
        problems: What is wrong; empty when the history is whole.
        notes: What is worth knowing but not wrong (a game edited after it
            was played along, say).
    """

    games: int = 0
    rescored: int = 0
    sessions: int = 0
    problems: list[Finding] = field(default_factory=list)
    notes: list[Finding] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Whether nothing is wrong."""
        return not self.problems


def check(history: History) -> Report:
    """Run every check on ``history`` (reading only).

    Raises:
        HistoryError: The database cannot be read at all (locked, say).
    """
    report = Report()
    with history.guard("check the history"):
        damage = integrity(history._db)
    report.problems.extend(Finding("SQLite", line) for line in damage)
    if damage:
        return report  # the rest would read damaged pages
    with history.guard("check the history"):
        for play in _plays(history._db):
            report.games += 1
            report.rescored += play["score_file"] is not None
            report.problems.extend(check_play(play))
        for session in _sessions(history._db):
            report.sessions += 1
            problem, note = check_session(session)
            report.problems.extend(problem)
            report.notes.extend(note)
    return report


def integrity(db: sqlite3.Connection) -> list[str]:
    """SQLite's integrity check, one line per problem (empty when whole)."""
    try:
        rows = db.execute(f"PRAGMA integrity_check({MAX_INTEGRITY_LINES})").fetchall()
    except sqlite3.DatabaseError as error:
        return [f"the file cannot be read ({error})"]
    lines = [
        " ".join(line.split())
        for (row,) in rows
        for line in str(row).splitlines()
        if line.strip() and not line.startswith("***")
    ]
    return [] if lines == ["ok"] else lines


def _plays(db: sqlite3.Connection) -> Iterator[dict[str, Any]]:
    """Every play with its seats, one at a time (bounded memory)."""
    cursor = db.execute("SELECT id, game, score_file, result FROM plays ORDER BY id")
    seats = db.cursor()
    for play_id, game, score_file, result in cursor:
        rows = seats.execute(
            "SELECT seat, name, CASE WHEN scored THEN total END, nullif(rank, 0), winner "
            "FROM play_players "
            "WHERE play_id = ? ORDER BY seat",
            (play_id,),
        ).fetchall()
        yield {
            "id": play_id,
            "game": game,
            "score_file": score_file,
            "result": result,
            "seats": rows,
        }


def check_play(play: dict[str, Any]) -> list[Finding]:
    """The problems of one stored game (its result, its seats, its score file)."""
    where = f"game #{play['id']}"
    try:
        result = json.loads(play["result"])
        players = result["players"]
        expected = [
            # A seat not scored is stored with total 0 and scored 0; an unknown rank as 0.
            (seat, p["name"], p["total"], p["rank"] or None, int(p["name"] in result["winners"]))
            for seat, p in enumerate(players)
        ]
    except (ValueError, TypeError, KeyError) as error:
        return [Finding(where, f"its stored result cannot be read ({error})")]
    found: list[Finding] = []
    if [tuple(row) for row in play["seats"]] != expected:
        found.append(Finding(where, "its players (as the stats read them) differ from its result"))
    if play["score_file"] is not None:
        found.extend(_rescore_findings(where, play["game"], play["score_file"], result))
    return found


def _rescore_findings(where: str, game: str, text: str, stored: dict[str, Any]) -> list[Finding]:
    """The problems of a stored score file: it no longer scores, or not to its stored result."""
    from scorers import SCORERS, ScoreFileError

    if game not in SCORERS:
        return [Finding(where, f"it has a score file but {game!r} is not a game we score")]
    try:
        _, scored = rescore(game, text)
    except ScoreFileError as error:
        more = len(error.problems) - 1
        return [
            Finding(
                where,
                f"its score file no longer scores ({error.problems[0]}"
                + (f", and {more} more)" if more else ")"),
            )
        ]
    difference = first_difference(stored, scored)
    if difference is None:
        return []
    return [Finding(where, f"its stored result differs from its score file's ({difference})")]


def first_difference(stored: Any, scored: Any, path: str = "") -> str | None:
    """Where two JSON documents first differ, as ``path: stored X, scored Y``; ``None`` if equal."""
    if isinstance(stored, dict) and isinstance(scored, dict):
        for key in [*stored, *(k for k in scored if k not in stored)]:
            inner = f"{path}.{key}" if path else str(key)
            if key not in stored or key not in scored:
                return f"{inner}: only in the {'scored' if key in scored else 'stored'} result"
            found = first_difference(stored[key], scored[key], inner)
            if found:
                return found
        return None
    if isinstance(stored, list) and isinstance(scored, list) and len(stored) == len(scored):
        for k, (a, b) in enumerate(zip(stored, scored, strict=True)):
            found = first_difference(a, b, f"{path}[{k}]")
            if found:
                return found
        return None
    if stored == scored and type(stored) is type(scored):
        return None
    from scorers._validate import show

    return f"{path or '$'}: stored {show(stored)}, scored {show(scored)}"


# --- played-along games ---------------------------------------------------


@dataclass(frozen=True)
class Session:
    """A played-along game as stored: its answers, and its recorded game if finished."""

    id: int
    game: str
    kind: str
    status: str
    events: list[tuple[str, Any]]
    play: dict[str, Any] | None


def _sessions(db: sqlite3.Connection) -> Iterator[Session]:
    rows = db.execute(
        "SELECT id, game, kind, status, play_id FROM sessions "
        "WHERE status IN ('active', 'finished') ORDER BY id"
    ).fetchall()
    for session_id, game, kind, status, play_id in rows:
        events: list[tuple[str, Any]] = []
        for key, value in db.execute(
            "SELECT key, value FROM session_events WHERE session_id = ? ORDER BY seq",
            (session_id,),
        ):
            try:
                events.append((key, json.loads(value)))
            except ValueError:
                events.append((key, _Unreadable(value)))
        play = None
        if play_id is not None:
            row = db.execute(
                "SELECT score_file, result FROM plays WHERE id = ?", (play_id,)
            ).fetchone()
            if row is not None:
                play = {"id": play_id, "score_file": row[0], "result": row[1]}
        yield Session(session_id, game, kind, status, events, play)


@dataclass(frozen=True)
class _Unreadable:
    """A saved answer that is not JSON."""

    text: str


class _Asked(Exception):
    """The flow wanted a new answer: the saved ones are used up."""


class _Diverged(Exception):
    """A saved answer no longer fits the flow at this place."""

    def __init__(self, keep: int, reason: str) -> None:
        super().__init__(reason)
        self.keep = keep
        self.reason = reason


class _RefusingPrompter:
    """A prompter for replays: being asked anything means the saved answers ran out."""

    def select(
        self, message: str, choices: Sequence[str], default: str | None, *, controls: bool = True
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
    from companion.play.runner import flow_for
    from companion.play.table import ReplayError, Table

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
    from companion.play.table import is_answer

    where = f"played-along game #{session.id} ({session.game})"
    for k, (key, value) in enumerate(session.events, 1):
        if isinstance(value, _Unreadable):
            return [Finding(where, f"saved answer {k} ({key}) is not readable JSON")], []
    answers = [key for key, _ in session.events if is_answer(key)]
    try:
        outcome, used = replay(session.game, session.kind, session.events)
    except _Diverged as error:
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
    difference = first_difference(stored, scored)
    if difference is None:
        return []
    return [
        Finding(where, f"{game} differs from what its answers give, edited since? ({difference})")
    ]
