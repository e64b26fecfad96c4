"""Where a game was played: the one rule for a typed place, and the places the history knows.

A place is user text like a name: surrounding blanks are trimmed, inner runs
of blanks become one space, and it holds no control or invisible character
(no tab, line break or escape sequence). It has at most :data:`MAX_PLACE`
characters. A lone ``-`` (or nothing) means no place.
"""

from __future__ import annotations

import unicodedata
from typing import TYPE_CHECKING

from companion.history.user_text import clean_text

if TYPE_CHECKING:
    from companion.history.store import History

__all__ = ["NONE", "InvalidPlace", "clean_place", "clean_text", "known_places", "place_problem"]

MAX_PLACE = 100
"""The most characters a typed place may have."""
NONE = "-"
"""Typed for "no place"."""


class InvalidPlace(ValueError):
    """A place that breaks the rule; the message says why, in a player's words."""


def clean_place(text: str) -> str:
    """``text`` as a stored place; ``""`` for none (empty or ``-``).

    Raises:
        InvalidPlace: Too long, or holding a control or invisible character.
    """
    from scorers.names import name_problem

    stripped = text.strip()
    if stripped in ("", NONE):
        return ""
    hidden = next((c for c in stripped if unicodedata.category(c) in _FORBIDDEN), None)
    if hidden is not None:
        # The name rule says what a character is, in a player's words.
        problem = name_problem(f"x{hidden}x", what="place")
        raise InvalidPlace(problem or "the place holds a hidden character")
    place = unicodedata.normalize("NFC", " ".join(stripped.split()))
    if len(place) > MAX_PLACE:
        raise InvalidPlace(f"the place is {len(place)} characters long (at most {MAX_PLACE})")
    return place


# As in the name rule: control, format, surrogate, line and paragraph separators.
_FORBIDDEN = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})


def place_problem(text: str) -> str | None:
    """What is wrong with ``text`` as a place, or ``None`` when it is fine."""
    try:
        clean_place(text)
    except InvalidPlace as error:
        return str(error)
    return None


def known_places(history: History, limit: int = 8) -> list[str]:
    """Places games were played at, the most recently used first."""
    with history.guard("read the history"):
        rows = history._db.execute(
            "SELECT location FROM plays WHERE location != '' GROUP BY location "
            "ORDER BY max(played_at) DESC, location LIMIT ?",
            (limit,),
        ).fetchall()
    return [str(row[0]) for row in rows]
