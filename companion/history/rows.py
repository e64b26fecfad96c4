"""Play rows: writing a play with its sides and people, reading one back, and game numbers."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import replace
from typing import Any

from companion.history.model import Expansion, Person, Play, fold_uuid
from companion.history.user_text import clean_text
from scorers.names import name_key

PLAY_COLUMNS = (
    "id, uuid, played_at, game, score_file, result, location, notes, duration_min, source, "
    "ignored, expansions, start_player, status"
)


def insert(db: sqlite3.Connection, play: Play, *, keep_id: bool, exact: bool = False) -> int:
    """Insert ``play``, its sides and its people; inside the caller's transaction.

    Args:
        db: The connection, in a write transaction.
        play: The play.
        keep_id: Keep ``play.id`` when no play and no game in progress has it.
        exact: Keep ``play.id`` whatever holds it (an edited play, put back).

    Returns:
        The id it was stored under (its own when ``keep_id`` and free).
    """
    wanted = play.id if keep_id and play.id > 0 else None
    if wanted is None or (not exact and number_taken(db, wanted)):
        wanted = next_number(db)
    else:
        claim_number(db, wanted)
    batch = _Rows()
    batch.add(play, wanted)
    batch.write(db)
    return wanted


_PLAYS_INSERT = (
    f"INSERT INTO plays ({PLAY_COLUMNS}, top_score, winning_score, margin) "
    f"VALUES ({', '.join('?' * 17)})"
)


_PLAYERS_INSERT = (
    "INSERT INTO play_players (play_id, seat, name, total, rank, winner, start_player, scored) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
)


_PEOPLE_INSERT = (
    "INSERT INTO play_people "
    "(play_id, position, side, name, name_key, anonymous, game, played_at, winner, total) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


_PAIRS_INSERT = (
    "INSERT INTO play_pairs (play_id, a_key, b_key, a_position, b_position, a_above, b_above) "
    "VALUES (?, ?, ?, ?, ?, ?, ?)"
)


_JSON = json.JSONEncoder(ensure_ascii=False)


class _Rows:
    """The rows of plays to insert, written together (``executemany``).

    With each play go what the statistics read (see :data:`schema.DERIVED`,
    which works out the same for the plays of an older history): its top
    score, winning score and margin of victory; each person's game, time and
    side's result; every two people on different sides, and who finished above.
    """

    def __init__(self) -> None:
        self.plays: list[tuple[Any, ...]] = []
        self.players: list[tuple[Any, ...]] = []
        self.people: list[tuple[Any, ...]] = []
        self.pairs: list[tuple[Any, ...]] = []
        self.extras: list[tuple[Any, ...]] = []

    def add(self, play: Play, play_id: int) -> None:
        """Add the rows of ``play``, stored under ``play_id`` (its notes and place
        cleaned by :func:`~companion.history.places.clean_text`)."""
        notes, location = clean_text(play.notes, lines=True), clean_text(play.location, lines=False)
        if notes != play.notes or location != play.location:
            play = replace(play, notes=notes, location=location)
        people = play.persons
        sides = play.result["players"]
        winners = set(play.result["winners"])
        won = [side["name"] in winners for side in sides]
        totals = [side["total"] for side in sides]
        scored = [t for t in totals if t is not None]
        winning = max(
            (t for t, w in zip(totals, won, strict=True) if w and t is not None), default=None
        )
        other = max(
            (t for t, w in zip(totals, won, strict=True) if not w and t is not None), default=None
        )
        if winning is None:
            margin = None
        elif other is not None:
            margin = winning - other
        else:
            margin = 0 if all(won) else None
        self.plays.append(
            (
                play_id,
                play.uuid,
                play.played_at,
                play.game,
                play.score_file,
                _JSON.encode(play.result),
                play.location,
                play.notes,
                play.duration_min,
                play.source,
                int(play.ignored),
                _JSON.encode([e.to_json() for e in play.expansions]) if play.expansions else "[]",
                play.start_player,
                play.status,
                max(scored, default=None),
                winning,
                margin,
            )
        )
        if play.extras is not None:
            app = json.loads(play.extras).get("app", "")
            self.extras.append((play_id, app, content_key(play), play.extras))
        start = play.start_player
        starter = people[start].side if start is not None and 0 <= start < len(people) else None
        self.players.extend(
            (
                play_id,
                seat,
                side["name"],
                side["total"] if side["total"] is not None else 0,
                side["rank"] or 0,
                won[seat],
                starter == seat,
                side["total"] is not None,
            )
            for seat, side in enumerate(sides)
        )
        keys = [name_key(p.name) for p in people]
        # A person of no side (never written by the companion) has no result.
        result = [
            (int(won[p.side]), totals[p.side]) if 0 <= p.side < len(sides) else (None, None)
            for p in people
        ]
        self.people.extend(
            (play_id, k, p.side, p.name, keys[k], int(p.anonymous), play.game, play.played_at)
            + result[k]
            for k, p in enumerate(people)
        )
        ranks = [side["rank"] or 0 for side in sides]
        for a, first in enumerate(people):
            for b in range(a + 1, len(people)):
                second = people[b]
                if first.anonymous or second.anonymous or first.side == second.side:
                    continue
                if result[a][0] is None or result[b][0] is None:
                    continue
                if keys[a] == keys[b]:
                    continue
                x, y = (a, b) if keys[a] < keys[b] else (b, a)
                side_x, side_y = people[x].side, people[y].side
                if ranks[side_x] > 0 and ranks[side_y] > 0:
                    x_above, y_above = ranks[side_x] < ranks[side_y], ranks[side_y] < ranks[side_x]
                else:
                    x_above = won[side_x] and not won[side_y]
                    y_above = won[side_y] and not won[side_x]
                self.pairs.append((play_id, keys[x], keys[y], x, y, x_above, y_above))

    def write(self, db: sqlite3.Connection) -> None:
        """Insert the rows; then start empty."""
        if self.plays:
            db.executemany(_PLAYS_INSERT, self.plays)
            db.executemany(_PLAYERS_INSERT, self.players)
            db.executemany(_PEOPLE_INSERT, self.people)
            db.executemany(_PAIRS_INSERT, self.pairs)
            db.executemany(
                "INSERT OR REPLACE INTO play_extras (play_id, app, content, record) "
                "VALUES (?, ?, ?, ?)",
                self.extras,
            )
        self.plays, self.players, self.people, self.pairs = [], [], [], []
        self.extras = []


def number_taken(db: sqlite3.Connection, number: int) -> bool:
    """Whether a play, or a game in progress, already has ``number``."""
    return bool(
        db.execute(
            "SELECT 1 FROM plays WHERE id = ? UNION ALL "
            "SELECT 1 FROM sessions WHERE id = ? AND status = 'active'",
            (number, number),
        ).fetchone()
    )


def next_number(db: sqlite3.Connection) -> int:
    """Hand out the next game number, shared by games in progress and plays.

    Inside the caller's write transaction. A game keeps its number from its
    first question to the history, so ``companion resume 10`` and "game #10"
    are the same game; numbers are never handed out twice.
    """
    number = int(
        db.execute(
            "SELECT max(coalesce((SELECT last FROM game_numbers), 0), "
            "coalesce((SELECT max(id) FROM plays), 0), "
            "coalesce((SELECT max(id) FROM sessions), 0)) + 1"
        ).fetchone()[0]
    )
    claim_number(db, number)
    return number


def claim_number(db: sqlite3.Connection, number: int) -> None:
    """Record that ``number`` is used (a kept id), so it is never handed out again."""
    db.execute(
        "INSERT INTO game_numbers (id, last) VALUES (1, ?) "
        "ON CONFLICT (id) DO UPDATE SET last = max(last, excluded.last)",
        (number,),
    )


def _present_plays(db: sqlite3.Connection, wanted: list[str]) -> dict[str, tuple[Play, str | None]]:
    """The plays of ``wanted`` the history already has, by folded uuid (:func:`fold_uuid`),
    each with what it said when it came from another app (its :func:`content_key` then,
    ``None`` when it did not)."""
    found: dict[str, tuple[Play, str | None]] = {}
    for chunk in range(0, len(wanted), 500):
        part = wanted[chunk : chunk + 500]
        marks = ",".join("?" * len(part))
        rows = db.execute(
            f"SELECT {PLAY_COLUMNS}, (SELECT content FROM play_extras WHERE play_id = plays.id) "
            f"FROM plays WHERE uuid COLLATE NOCASE IN ({marks})",
            part,
        ).fetchall()
        people: dict[int, list[Person]] = {}
        ids = [row[0] for row in rows]
        if ids:
            for play_id, name, side, anonymous in db.execute(
                "SELECT play_id, name, side, anonymous FROM play_people "
                f"WHERE play_id IN ({','.join('?' * len(ids))}) ORDER BY play_id, position",
                ids,
            ):
                people.setdefault(play_id, []).append(Person(name, side, bool(anonymous)))
        for row in rows:
            play = _play(row[:-1], tuple(people.get(row[0], ())))
            found[fold_uuid(row[1])] = (play, row[-1])
    return found


def content_key(play: Play) -> str:
    """What an import compares to tell a corrected play from the same one again:
    everything another app says of a play (not its number, uuid or score file, nor
    the rank of a side not scored)."""
    sides = [
        (side["name"], side["total"], (side["rank"] or None) if side["total"] is not None else None)
        for side in play.result["players"]
    ]
    return json.dumps(
        [
            play.played_at,
            play.game,
            sides,
            sorted(play.result["winners"]),
            [(p.name, p.side, p.anonymous) for p in play.persons],
            play.start_player,
            clean_text(play.location, lines=False),
            clean_text(play.notes, lines=True),
            play.duration_min,
            play.ignored,
            play.status,
            [(e.name, e.bgg_id) for e in play.expansions],
        ],
        ensure_ascii=False,
    )


class _Numbers:
    """Game numbers handed out to a batch of plays, as :func:`next_number` and
    :func:`number_taken` would one play at a time, claimed together."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db
        self.last = int(
            db.execute(
                "SELECT max(coalesce((SELECT last FROM game_numbers), 0), "
                "coalesce((SELECT max(id) FROM plays), 0), "
                "coalesce((SELECT max(id) FROM sessions), 0))"
            ).fetchone()[0]
        )
        self.taken: set[int] = set()

    def take(self, wanted: int | None) -> int:
        """``wanted`` when no play and no game in progress has it, else the next number."""
        if wanted is None or wanted in self.taken or number_taken(self.db, wanted):
            wanted = self.last + 1
        self.last = max(self.last, wanted)
        self.taken.add(wanted)
        return wanted

    def claim(self) -> None:
        """Record the numbers handed out, so that they are never handed out again."""
        if self.taken:
            claim_number(self.db, self.last)


def _insert_log(db: sqlite3.Connection, play_id: int, game: str, log: list[dict[str, Any]]) -> None:
    """Store an imported event log as the finished session of ``play_id`` (same number)."""
    free = not db.execute("SELECT 1 FROM sessions WHERE id = ?", (play_id,)).fetchone()
    cursor = db.execute(
        "INSERT INTO sessions (id, game, kind, started_at, updated_at, status, play_id) "
        "VALUES (?, ?, 'play', ?, ?, 'finished', ?)",
        (play_id if free else None, game, log[0]["at"], log[-1]["at"], play_id),
    )
    db.executemany(
        "INSERT INTO session_events (session_id, seq, at, key, value) VALUES (?, ?, ?, ?, ?)",
        [
            (cursor.lastrowid, seq, e["at"], e["key"], json.dumps(e["value"]))
            for seq, e in enumerate(log, 1)
        ],
    )


def _play(row: tuple[Any, ...], people: tuple[Person, ...]) -> Play:
    (play_id, uuid, played_at, game, score_file, result, location, notes, duration, source) = row[
        :10
    ]
    ignored, expansions, start_player = row[10:13]
    return Play(
        play_id,
        uuid,
        played_at,
        game,
        score_file,
        json.loads(result),
        location,
        notes,
        duration,
        source,
        start_player,
        people,
        bool(ignored),
        tuple(Expansion(e["name"], e["bgg_id"]) for e in json.loads(expansions)),
        row[13],
    )
