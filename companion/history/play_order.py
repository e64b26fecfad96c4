"""Play order: the one order of the plays every table of a club agrees on.

Plays are ordered by when they were played (``played_at``, to the second),
then by their uuid. The uuid is the play's identity everywhere (it travels with
the play through a club sync, an export and an import), while the id is only
this history's own number for it: two tables that saved a game each in the same
second number them differently, and an order that broke the tie by id would
give them different streaks, records and ratings. Every query and sort that
walks the plays in order takes the order from here; a sort in Python takes
:func:`companion.analysis.played_game.in_play_order` (time, uuid, then the id,
which only plays of no history need), or sorts by ``(played_at, uuid)``.

A game saved here gets a time-ordered uuid (:func:`new_uuid`, version 7 of RFC
9562: the time in milliseconds first, then random bits), so games saved at one
table in the same second keep the order they were saved in, and every other
table sees that same order. A play that came with a uuid of its own (an import,
another app) keeps it: its place among plays of its second is its uuid's.
"""

from __future__ import annotations

import secrets
import threading
import time
import uuid

__all__ = ["PERSON_UUID", "after", "before", "new_uuid", "order_by"]

_last = (0, 0)  # the time and the random bits of the last uuid made here
_lock = threading.Lock()
_RANDOM_BITS = 74


def new_uuid() -> str:
    """A new play's uuid: version 7, greater than any this process made before.

    The first 48 bits are the Unix time in milliseconds, then the version (7),
    74 random bits around the variant. One made in the same millisecond as the
    one before (or after the clock went back) takes that one's bits plus one, so
    within a process each is greater than the last, as text too (lower-case hex
    of a fixed length sorts as the number).
    """
    global _last
    with _lock:
        made = (time.time_ns() // 1_000_000, secrets.randbits(_RANDOM_BITS))
        if made <= _last:
            ms, bits = _last[0], _last[1] + 1
            made = (ms + 1, 0) if bits >> _RANDOM_BITS else (ms, bits)
        _last = made
    ms, bits = made
    value = ms << 80 | 0x7 << 76 | (bits >> 62) << 64 | 0x2 << 62 | (bits & ((1 << 62) - 1))
    return str(uuid.UUID(int=value))


PERSON_UUID = "(SELECT uuid FROM plays WHERE plays.id = play_people.play_id)"
"""The uuid of a ``play_people`` row's play (that table keeps the time, not the uuid)."""


def order_by(table: str = "", *, descending: bool = False, uuid: str | None = None) -> str:
    """The columns of an ``ORDER BY`` in play order.

    Args:
        table: The table (or alias) of the plays, if the query names it.
        descending: Latest first.
        uuid: The expression of the uuid, when it is not a column of ``table``.
    """
    prefix = f"{table}." if table else ""
    way = " DESC" if descending else ""
    return f"{prefix}played_at{way}, {uuid or prefix + 'uuid'}{way}"


def before(table: str = "", *, uuid: str | None = None, inclusive: bool = False) -> str:
    """A condition: the play comes before ``(?, ?)`` (a time and a uuid) in play order."""
    prefix = f"{table}." if table else ""
    sign = "<=" if inclusive else "<"
    return f"({prefix}played_at, {uuid or prefix + 'uuid'}) {sign} (?, ?)"


def after(table: str = "") -> str:
    """A condition: the play comes after ``(?, ?)`` (a time and a uuid) in play order."""
    prefix = f"{table}." if table else ""
    return f"({prefix}played_at, {prefix}uuid) > (?, ?)"
