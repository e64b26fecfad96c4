"""Ratings kept in the history between calls, so a long history is not rated again each time.

Rating every play of a long history from the start takes seconds (100,000
plays: about 5 s on a small machine), and the ratings only ever move on by the
game just saved. So the history keeps them (migration 7): everyone's rating in
every scope, which plays they cover, and a log of every change to the plays
since, written by triggers whoever makes the change (see
:mod:`companion.schema`). Asking for the ratings then:

- nothing changed since they were kept: they are read back as they are;
- only plays added, all later in play order than the last rated play (a game
  just saved): the kept ratings are rated on by those plays alone;
- anything else (an edit, a deletion, a play added earlier in play order, an
  import of older games, ratings never kept, another rating model): every play
  is rated again from the start.

The three give the same numbers, to the last bit (a float survives SQLite's
REAL exactly, and rating on from a point repeats exactly the steps a rating
from the start takes after it); the tests hold them equal. After the second or
third, the new ratings are written back when the file can be written at once
(a command that only reads writes them too, in its own short transaction,
skipping the write when another process holds the file or the file is
read-only: the kept ratings are only ever a shortcut).

Kept ratings that do not read back as ratings (a table changed by hand) are
ignored and rated again.
"""

from __future__ import annotations

import json
import math
import sqlite3
from collections.abc import Callable
from dataclasses import asdict
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from companion.history import History
    from companion.played import PlayedGame
    from companion.ratings import Ratings, Snapshot

__all__ = ["ratings"]

Loader = Callable[[list[int] | None], "list[PlayedGame]"]
"""Reads the plays that count, in play order: all of them (``None``) or those ids."""

MAX_KEPT_CHANGES = 1_000_000
"""Beyond this many changes since the ratings were kept, they are rated again
from the start without reading the changes (a bound on what a damaged or
hostile log can cost)."""


def ratings(history: History, load: Loader, *, keep: bool = True) -> Ratings:
    """Everyone's ratings from every play that counts, kept ratings used where they can be.

    Args:
        history: The history (open for reading or writing).
        load: Reads the plays that count, in play order (all, or those ids).
        keep: Write the ratings back when they were worked out anew.
    """
    from companion.ratings import Ratings, model, rate

    params = json.dumps(asdict(model()), sort_keys=True)
    db = history._db
    with history.guard("read the history"):
        began = not db.in_transaction
        if began:
            db.execute("BEGIN")  # one snapshot: the changes and the plays agree
        try:
            seq = _current(db)
            kept = _kept(db, params) if seq is not None else None
            result: Ratings | None = None
            if kept is not None:
                kept_seq, last, scopes, slots = kept
                result = Ratings.resume(scopes, slots, last, lambda: load(None))
                if kept_seq == seq:
                    return result
                result = _rated_on(db, result, kept_seq, load)
            if result is None:
                result = rate(load(None))
        finally:
            if began and db.in_transaction:
                db.execute("COMMIT")
    if keep and seq is not None:
        _write(history, result, seq, kept[0] if kept is not None else None, params)
    return result


def _current(db: sqlite3.Connection) -> int | None:
    """The last change noted; ``None`` for a history without kept ratings (an older schema)."""
    try:
        row = db.execute(
            "SELECT coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'play_changes'), 0)"
        ).fetchone()
        db.execute("SELECT 1 FROM rating_state LIMIT 0")
    except sqlite3.OperationalError:
        return None
    return int(row[0])


def _kept(
    db: sqlite3.Connection, params: str
) -> (
    tuple[
        int, tuple[str, int] | None, list[tuple[str | None, int]], list[tuple[str | None, Snapshot]]
    ]
    | None
):
    """The kept ratings: ``(seq, last, scopes, slots)``, or ``None`` if none (or unreadable)."""
    state = db.execute(
        "SELECT seq, model, last_played_at, last_id FROM rating_state WHERE id = 1"
    ).fetchone()
    if state is None or state[1] != params or type(state[0]) is not int:
        return None
    seq, _, played_at, play_id = state
    if (played_at is None) != (play_id is None):
        return None
    if played_at is not None and (type(played_at) is not str or type(play_id) is not int):
        return None
    last = None if played_at is None else (played_at, play_id)
    scopes: list[tuple[str | None, int]] = []
    for scope, _position, count in db.execute(
        "SELECT scope, position, plays FROM rating_scopes ORDER BY position"
    ):
        if type(scope) is not str or type(count) is not int or count < 0:
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
    return seq, last, scopes, slots


def _rated_on(db: sqlite3.Connection, kept: Ratings, since: int, load: Loader) -> Ratings | None:
    """The kept ratings rated on by the plays added since change ``since``; ``None``
    when anything else changed (then every play must be rated again)."""
    pending = db.execute(
        "SELECT count(*), min(added) FROM play_changes WHERE seq > ?", (since,)
    ).fetchone()
    if pending[0] > MAX_KEPT_CHANGES or pending[1] != 1:
        return None
    added = [
        row[0] for row in db.execute("SELECT play_id FROM play_changes WHERE seq > ?", (since,))
    ]
    try:
        return kept.more(load(added), lambda: load(None))
    except ValueError:  # a play added before the last rated one
        return None


def _write(history: History, rated: Ratings, seq: int, was: int | None, params: str) -> None:
    """Keep ``rated`` as the ratings up to change ``seq``, if the file can be written now.

    Skipped (silently) when the history is a copy in memory, read-only, held
    by another process, or the kept ratings were replaced meanwhile (``was``
    is the change they were at when read).
    """
    if history._in_memory:
        return
    db = history._db
    scopes, slots = rated.snapshot()
    last = rated.last
    (busy,) = db.execute("PRAGMA busy_timeout").fetchone()
    db.execute("PRAGMA busy_timeout = 0")
    try:
        db.execute("BEGIN IMMEDIATE")
        try:
            row = db.execute("SELECT seq FROM rating_state WHERE id = 1").fetchone()
            if (row[0] if row else None) != was:
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
                "INSERT OR REPLACE INTO rating_state (id, seq, model, last_played_at, last_id) "
                "VALUES (1, ?, ?, ?, ?)",
                (seq, params, *(last or (None, None))),
            )
            db.execute("DELETE FROM play_changes WHERE seq <= ?", (seq,))
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
    except sqlite3.Error:
        return  # read-only, busy, full: the ratings were worked out all the same
    finally:
        db.execute(f"PRAGMA busy_timeout = {int(busy)}")
