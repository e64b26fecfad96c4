"""The statistics of a history, read with SQL: seat rows, and the figures SQLite adds up.

Two ways to the same :class:`~companion.analysis.stats.Stats`, both over the
plays that count (final, not ignored):

- :func:`seat_rows` reads every side of every play, for the pure
  :func:`companion.analysis.stats.compute` to add up in Python;
- :func:`stat_tables` has SQLite add them up from what each play keeps for the
  statistics (migration 6), which :func:`of_history` turns into the stats
  with :func:`companion.analysis.stats.summarize`. This is what
  ``companion history stats`` and the history page show: 100,000 plays take a
  fraction of a second.
"""

from __future__ import annotations

import heapq
from typing import TYPE_CHECKING, Any

from companion.analysis.played_game import FINAL
from companion.analysis.stats import Stats, Tables, summarize
from companion.history.model import Filter
from companion.history.play_order import PERSON_UUID, order_by
from companion.history.schema import COUNTED, NOT_COUNTED

if TYPE_CHECKING:
    import sqlite3

    from companion.history.store import History

__all__ = ["of_history", "seat_rows", "stat_tables"]


def of_history(history: History, where: Filter | None = None) -> Stats:
    """The stats of the plays of ``history`` that ``where`` selects (SQLite adds them up)."""
    return summarize(stat_tables(history, where))


def seat_rows(history: History, where: Filter | None = None) -> list[tuple[Any, ...]]:
    """Every side of every play that counts in statistics, with its people.

    Plays marked ignored are left out, and so are interim scorings (a
    scoring that did not end its game).
    One row per person, and one row with no person for a side whose
    members are not known::

        (play_id, game, side, side_name, total, rank, winner,
         person_key, person_name, anonymous)

    ``total`` is ``None`` for a side that was not scored, ``rank`` ``None``
    when unknown; ``person_key`` is :func:`name_key` of the name. Ordered by
    time, then play, then side, then seat: the raw material of
    :func:`companion.analysis.stats.compute`.
    """
    condition, params = (where or Filter()).where()
    counted = f"plays.ignored = 0 AND plays.status = '{FINAL}'"
    condition = f"{condition} AND {counted}" if condition else f" WHERE {counted}"
    with history.guard("read the history"):
        return history._db.execute(
            "SELECT plays.id, plays.game, pp.seat, pp.name, "
            "CASE WHEN pp.scored THEN pp.total END, nullif(pp.rank, 0), pp.winner, "
            "people.name_key, people.name, coalesce(people.anonymous, 0) "
            "FROM plays JOIN play_players AS pp ON pp.play_id = plays.id "
            "LEFT JOIN play_people AS people "
            "ON people.play_id = plays.id AND people.side = pp.seat"
            f"{condition} ORDER BY {order_by('plays')}, pp.seat, people.position",
            params,
        ).fetchall()


def stat_tables(history: History, where: Filter | None = None) -> Tables:
    """What :func:`companion.analysis.stats.summarize` makes the stats of, aggregated by SQLite.

    The same figures :func:`companion.analysis.stats.compute` works out from
    :func:`seat_rows`, read from what each play keeps for the statistics
    (migration 6), so that 100,000 plays take a fraction of a second.
    """
    clauses, params = (where or Filter()).clauses()
    counted = f" WHERE {' AND '.join([*clauses, COUNTED])}"
    db = history._db
    with history.guard("read the history"):
        if clauses:
            in_set = f"IN (SELECT plays.id FROM plays{counted})"
        elif db.execute(f"SELECT 1 FROM plays WHERE {NOT_COUNTED} LIMIT 1").fetchone():
            in_set = f"NOT IN (SELECT id FROM plays WHERE {NOT_COUNTED})"
        else:
            in_set = "IS NOT NULL"  # every play counts
        records = db.execute(
            "SELECT name_key, game, count(*), sum(winner), count(total), "
            "coalesce(sum(total), 0), max(total), min(played_at) "
            f"FROM play_people WHERE anonymous = 0 AND play_id {in_set} "
            "GROUP BY name_key, game",
            params,
        ).fetchall()
        records = _first_seen(db, records, in_set, params)
        games = db.execute(
            "SELECT game, count(*), max(top_score), coalesce(sum(winning_score), 0), "
            "count(winning_score), coalesce(sum(margin), 0), count(margin) "
            f"FROM plays{counted} GROUP BY game",
            params,
        ).fetchall()
        pairs = db.execute(
            "SELECT a_key, b_key, count(*), sum(a_above), sum(b_above) "
            f"FROM play_pairs WHERE play_id {in_set} GROUP BY a_key, b_key",
            params,
        ).fetchall()
        people = _latest(db, records, clauses, params, where or Filter())
        high = {
            game: _high_scorers(db, game, top, counted, params)
            for game, _, top, *_ in games
            if top is not None
        }
    return Tables(
        [tuple(row[:7]) for row in records],
        people,
        [(game, plays, top, high.get(game, []), *rest) for game, plays, top, *rest in games],
        pairs,
    )


def _first_seen(
    db: sqlite3.Connection, records: list[tuple[Any, ...]], in_set: str, params: list[Any]
) -> list[tuple[Any, ...]]:
    """``records`` in the order of each person's first play of each game.

    Their first time in a game is the last column; when two of a person's
    games start at the same time, the play's uuid decides (as in play order).
    """
    firsts: dict[tuple[str, str], str] = {}
    seen: dict[tuple[str, str], list[str]] = {}
    for key, game, *_, first in records:
        seen.setdefault((key, first), []).append(game)
    for (key, first), games in seen.items():
        if len(games) > 1:
            for game in games:
                firsts[(key, game)] = db.execute(
                    f"SELECT min({PERSON_UUID}) FROM play_people WHERE name_key = ? AND game = ? "
                    f"AND anonymous = 0 AND played_at = ? AND play_id {in_set}",
                    [key, game, first, *params],
                ).fetchone()[0]
    return sorted(records, key=lambda r: (r[-1], firsts.get((r[0], r[1]), "")))


def _latest(
    db: sqlite3.Connection,
    records: list[tuple[Any, ...]],
    clauses: list[str],
    params: list[Any],
    where: Filter,
) -> dict[str, tuple[str, int]]:
    """Each person's latest name and current streak, reading back from their last play."""
    if clauses:
        counted = f" WHERE {' AND '.join([*clauses, COUNTED])}"
        allowed = {row[0] for row in db.execute(f"SELECT plays.id FROM plays{counted}", params)}
        keep: Any = allowed.__contains__
    else:
        left_out = {row[0] for row in db.execute(f"SELECT id FROM plays WHERE {NOT_COUNTED}")}
        keep = lambda play_id: play_id not in left_out  # noqa: E731
    since = " AND played_at >= ?" if where.since else ""
    games_of: dict[str, list[str]] = {}
    for key, game, *_ in records:
        games_of.setdefault(key, []).append(game)
    found: dict[str, tuple[str, int]] = {}
    for key, games in games_of.items():
        cursors = [
            db.execute(
                f"SELECT played_at, {PERSON_UUID}, play_id, winner, name FROM play_people "
                "WHERE name_key = ? AND game = ? AND anonymous = 0"
                f"{since} ORDER BY {order_by(uuid=PERSON_UUID, descending=True)}",
                [key, game, *([where.since] if where.since else [])],
            )
            for game in games
        ]
        name: str | None = None
        streak = 0
        for _, _, play_id, winner, shown in heapq.merge(*cursors, reverse=True):
            if not keep(play_id):
                continue
            if name is None:
                name = shown
            if not winner:
                break
            streak += 1
        for cursor in cursors:
            cursor.close()
        if name is not None:
            found[key] = (name, streak)
    return found


def _high_scorers(
    db: sqlite3.Connection, game: str, top: int, counted: str, params: list[Any]
) -> list[str]:
    """Who made the high score ``top`` of ``game``, in the order they first made it."""
    names: dict[str, None] = {}
    for side, person, anonymous in db.execute(
        "SELECT pp.name, people.name, people.anonymous FROM plays INDEXED BY plays_counted "
        "JOIN play_players AS pp ON pp.play_id = plays.id "
        "LEFT JOIN play_people AS people "
        "ON people.play_id = plays.id AND people.side = pp.seat"
        f"{counted} AND plays.game = ? AND plays.top_score = ? "
        "AND pp.scored AND pp.total = ? "
        f"ORDER BY {order_by('plays')}, pp.seat, people.position",
        [*params, game, top, top],
    ):
        if not anonymous:  # BG Stats' anonymous player is nobody
            names.setdefault(person if person is not None else side)
    return list(names)
