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
"""

from __future__ import annotations

__all__ = ["PERSON_UUID", "after", "before", "order_by"]

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
