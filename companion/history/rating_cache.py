"""Ratings kept in the history between calls, so a long history is not rated again each time.

Rating every play of a long history from the start takes seconds (100,000
plays: about 5 s on a small machine), and the ratings usually move on only by
the games saved since. So the history keeps them (migration 7): everyone's
rating in every scope, the last play rated, how many plays that count came up
to it, and how many changes other than additions the plays had seen (a count
kept by triggers, whoever makes the change; see :mod:`companion.history.schema`).
Asking for the ratings then:

- no change counted, and as many plays that count up to the last rated play:
  the kept ratings are rated on by the plays that count after it (none, most
  of the time: they are read back as they are);
- anything else (an edit, a deletion, a play added earlier in play order, such
  as an import of older games, ratings never kept, another rating model):
  every play is rated again from the start.

Both give the same numbers, to the last bit (a float survives SQLite's REAL
exactly, and rating on from a point repeats exactly the steps a rating from the
start takes after it); the tests hold them equal. New ratings are written back
when the file can be written at once: a command that only reads writes them
too, in its own short transaction, and skips the write when another process
holds the file or the file is read-only (kept ratings are only a shortcut).

Kept ratings that do not read back as ratings (a table changed by hand) are
ignored and rated again.

The last rated play is kept as its time and id, and read back with its uuid:
play order breaks ties of time by uuid (see :mod:`companion.history.play_order`).
Ratings kept before play order did so (by id) name another order in their
model, so they are rated again once, with no migration.
"""

from __future__ import annotations

import json
import math
import sqlite3
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING

from companion.history.play_order import before, order_by
from companion.history.schema import COUNTED

if TYPE_CHECKING:
    from companion.analysis.played_game import PlayedGame, Position
    from companion.analysis.ratings import Ratings, Snapshot
    from companion.history.store import History

__all__ = ["ratings"]

Loader = Callable[["Position | None"], "list[PlayedGame]"]
"""Reads the plays that count, in play order: all (``None``), or those after
the play of this key in play order."""

ORDER = order_by()
"""Play order, as kept with the ratings' model: ratings kept in another order
(before ties of time were broken by uuid) are rated again."""


@dataclass(frozen=True)
class _Kept:
    """Kept ratings as read back: what they were kept from, and the ratings."""

    edits: int
    counted: int
    last: Position | None
    scopes: list[tuple[str | None, int]]
    slots: list[tuple[str | None, Snapshot]]


def ratings(history: History, load: Loader, *, keep: bool = True) -> Ratings:
    """Everyone's ratings from every play that counts, kept ratings used where they can be.

    Args:
        history: The history (open for reading or writing).
        load: Reads the plays that count, in play order.
        keep: Write the ratings back when they moved on or were rated again.
    """
    from companion.analysis.ratings import Ratings, model, rate

    params = json.dumps({**asdict(model()), "order": ORDER}, sort_keys=True)
    db = history._db
    with history.guard("read the history"):
        began = not db.in_transaction
        if began:
            db.execute("BEGIN")  # one snapshot: the counts and the plays agree
        try:
            edits = _edits(db)
            kept = _kept(db, params) if edits is not None else None
            if (
                kept is not None
                and kept.edits == edits
                and _counted_through(db, kept.last) == kept.counted
            ):
                before = Ratings.resume(kept.scopes, kept.slots, kept.last, lambda: load(None))
                later = load(kept.last)
                if not later:
                    return before
                result = before.more(later, lambda: load(None))
                if result.last == kept.last:
                    return result  # only plays no one is rated in
            else:
                kept = None
                result = rate(load(None))
            counted = _counted_through(db, result.last)
        finally:
            if began and db.in_transaction:
                db.execute("COMMIT")
    if keep and edits is not None:
        _write(history, result, edits, counted, kept, params)
    return result


def _edits(db: sqlite3.Connection) -> int | None:
    """The changes counted; ``None`` for a history without kept ratings (an older schema)."""
    try:
        row = db.execute("SELECT count FROM play_edits WHERE id = 1").fetchone()
    except sqlite3.OperationalError:
        return None
    return row[0] if row is not None and type(row[0]) is int else None


def _counted_through(db: sqlite3.Connection, last: Position | None) -> int:
    """How many plays that count come at or before ``last`` in play order."""
    if last is None:
        return 0
    row = db.execute(
        f"SELECT count(*) FROM plays WHERE {COUNTED} AND {before(inclusive=True)}",
        last[:2],
    ).fetchone()
    return int(row[0])


def _kept(db: sqlite3.Connection, params: str) -> _Kept | None:
    """The kept ratings, or ``None`` if none were kept (or they do not read back)."""
    state = db.execute(
        "SELECT edits, counted, model, last_played_at, last_id FROM rating_state WHERE id = 1"
    ).fetchone()
    if state is None:
        return None
    edits, counted, model, played_at, play_id = state
    if model != params or type(edits) is not int or type(counted) is not int:
        return None
    if played_at is None and play_id is None:
        last = None
    elif type(played_at) is str and type(play_id) is int:
        found = db.execute(
            "SELECT uuid FROM plays WHERE id = ? AND played_at = ?", (play_id, played_at)
        ).fetchone()
        if found is None:
            return None  # the last rated play is gone or moved (then the edits say so too)
        last = (played_at, found[0], play_id)
    else:
        return None
    scopes: list[tuple[str | None, int]] = []
    for scope, count in db.execute("SELECT scope, plays FROM rating_scopes ORDER BY position"):
        if type(scope) is not str or type(count) is not int or count <= 0:
            return None
        scopes.append((scope or None, count))
    slots: list[tuple[str | None, Snapshot]] = []
    for scope, key, name, mu, sigma, rated in db.execute(
        "SELECT scope, key, name, mu, sigma, plays FROM rating_slots"
    ):
        if not (
            type(scope) is str
            and type(key) is str
            and type(name) is str
            and type(mu) is float
            and type(sigma) is float
            and type(rated) is int
            and math.isfinite(mu)
            and math.isfinite(sigma)
            and sigma > 0
            and rated > 0
        ):
            return None
        slots.append((scope or None, (key, name, mu, sigma, rated)))
    known = {scope for scope, _ in scopes}
    if (last is None) != (not scopes) or any(scope not in known for scope, _ in slots):
        return None
    return _Kept(edits, counted, last, scopes, slots)


def _sound(db: sqlite3.Connection) -> bool:
    """Whether SQLite's quick check passes (any failure to run it counts as damage)."""
    try:
        return [row[0] for row in db.execute("PRAGMA quick_check(1)").fetchall()] == ["ok"]
    except sqlite3.Error:
        return False


def _write(
    history: History,
    rated: Ratings,
    edits: int,
    counted: int,
    was: _Kept | None,
    params: str,
) -> None:
    """Keep ``rated`` (as of ``edits`` changes, ``counted`` plays up to its last), if the
    file can be written now.

    Skipped (silently) when the history is a copy in memory, read-only, held
    by another process, damaged (SQLite's quick check fails: a damaged file is
    never written into), or its plays or kept ratings changed since they were
    read (``was``: the kept ratings read, if any).
    """
    if history._in_memory:
        return
    db = history._db
    if not history._write and not _sound(db):
        return  # a damaged file is never written into (a writer's open checked it already)
    scopes, slots = rated.snapshot()
    last = rated.last
    (busy,) = db.execute("PRAGMA busy_timeout").fetchone()
    db.execute("PRAGMA busy_timeout = 0")
    try:
        db.execute("BEGIN IMMEDIATE")
        try:
            state = db.execute(
                "SELECT edits, counted, last_played_at, last_id FROM rating_state WHERE id = 1"
            ).fetchone()
            kept = (None, None) if was is None or was.last is None else was.last[::2]
            then = None if was is None else (was.edits, was.counted, *kept)
            if (state != then and was is not None) or _edits(db) != edits:
                db.execute("ROLLBACK")
                return
            db.execute("DELETE FROM rating_slots")
            db.execute("DELETE FROM rating_scopes")
            db.executemany(
                "INSERT INTO rating_scopes (scope, position, plays) VALUES (?, ?, ?)",
                [(scope or "", k, count) for k, (scope, count) in enumerate(scopes)],
            )
            db.executemany(
                "INSERT INTO rating_slots (scope, key, name, mu, sigma, plays) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                [(scope or "", *slot) for scope, slot in slots],
            )
            db.execute(
                "INSERT OR REPLACE INTO rating_state "
                "(id, edits, counted, model, last_played_at, last_id) VALUES (1, ?, ?, ?, ?, ?)",
                (edits, counted, params, *(last[::2] if last else (None, None))),
            )
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
    except sqlite3.Error:
        return  # read-only, busy, full: the ratings were worked out all the same
    finally:
        db.execute(f"PRAGMA busy_timeout = {int(busy)}")
