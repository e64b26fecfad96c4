"""The history's own checks for ``companion history check``: is it whole, do its records add up?

Three checks, each reading only (:func:`check_records`):

1. SQLite's ``integrity_check`` of every page and index.
2. Every recorded game's seats (the rows the stats read) match its result.
3. Every game with a score file re-scores, by today's scorer, to its stored
   result.

The fourth, replaying every played-along game from its saved answers, needs
the games' flows: :mod:`companion.play.replay_check` runs it over the sessions
read here (:func:`saved_sessions`), and the whole check
(:func:`companion.play.replay_check.check_history`).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from companion.history.rescoring import rescore
from companion.history.sessions import Unreadable, parse_value
from companion.history.store import History

MAX_INTEGRITY_LINES = 20
"""SQLite's integrity check stops after this many problems."""
SQLITE = "SQLite"
"""Where the problems SQLite's integrity check finds are said to be."""


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
        sessions: Played-along games (finished or unfinished) replayed (by
            :func:`companion.play.replay_check.check_history`).
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

    @property
    def damaged(self) -> bool:
        """Whether SQLite's integrity check found damage (then nothing else was checked)."""
        return any(problem.where == SQLITE for problem in self.problems)


def check_records(history: History) -> Report:
    """Check the file and every recorded game (checks 1 to 3, reading only).

    The games are checked only when the file is whole: the rest would read
    damaged pages. Played-along games are not replayed here (``sessions``
    stays 0; see :mod:`companion.play.replay_check`).

    Raises:
        HistoryError: The database cannot be read at all (locked, say).
    """
    report = Report()
    with history.guard("check the history"):
        damage = integrity(history._db)
    report.problems.extend(Finding(SQLITE, line) for line in damage)
    if damage:
        return report  # the rest would read damaged pages
    with history.guard("check the history"):
        for play in _plays(history._db):
            report.games += 1
            report.rescored += play["score_file"] is not None
            report.problems.extend(check_play(play))
        report.notes.extend(recorded_twice(history._db))
    return report


def recorded_twice(db: sqlite3.Connection) -> list[Finding]:
    """Games that look recorded twice: the same game on the same day (this computer's
    local date), with the same people and the same scores; one note per later copy,
    saying how to delete it (two real games can match: so a note, not a problem)."""
    from companion.history.formats.shared import local_date
    from scorers import title

    people: dict[int, list[tuple[str, int, int | None]]] = {}
    for play_id, key, side, total, anonymous in db.execute(
        "SELECT play_id, name_key, side, total, anonymous FROM play_people "
        "ORDER BY play_id, position"
    ):
        people.setdefault(play_id, []).append((f"\0{side}" if anonymous else key, side, total))
    first: dict[tuple[Any, ...], int] = {}
    found: list[Finding] = []
    for play_id, game, played_at in db.execute("SELECT id, game, played_at FROM plays ORDER BY id"):
        seats = people.get(play_id)
        if not seats:
            continue
        day = local_date(played_at)[:10]
        key = (game, day, tuple(sorted((name, total) for name, _, total in seats)))
        if key not in first:
            first[key] = play_id
            continue
        found.append(
            Finding(
                f"game #{play_id}",
                f"looks recorded twice: {title(game)} on {day} with the same people and scores "
                f"as game #{first[key]}; `companion history delete {play_id}` deletes this one",
            )
        )
    return found


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


def saved_sessions(history: History) -> Iterator[Session]:
    """Every played-along game not set aside (unfinished or finished), in number order.

    Read one at a time; use it inside ``history.guard(...)``. A saved answer
    that is not JSON is an :class:`~companion.history.sessions.Unreadable`.
    """
    db = history._db
    rows = db.execute(
        "SELECT id, game, kind, status, play_id FROM sessions "
        # A web page's draft is one state replaced at each change, not answers to replay.
        "WHERE status IN ('active', 'finished') AND kind <> 'web' ORDER BY id"
    ).fetchall()
    for session_id, game, kind, status, play_id in rows:
        events: list[tuple[str, Any]] = []
        for key, value in db.execute(
            "SELECT key, value FROM session_events WHERE session_id = ? ORDER BY seq",
            (session_id,),
        ):
            try:
                events.append((key, parse_value(value)))
            except ValueError:
                events.append((key, Unreadable(str(value))))
        play = None
        if play_id is not None:
            row = db.execute(
                "SELECT score_file, result FROM plays WHERE id = ?", (play_id,)
            ).fetchone()
            if row is not None:
                play = {"id": play_id, "score_file": row[0], "result": row[1]}
        yield Session(session_id, game, kind, status, events, play)
