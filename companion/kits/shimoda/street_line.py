"""Shimoda's street in one line: a player's seven shop cards typed in card codes.

The web pad's *Shop cards* box (a :class:`companion.kits.pad.LineEntry`): the
seven cards go in it one after another, in the codes that ``companion play
shimoda`` takes (``ry33 btwo35c1 y rp 5 3 =5 …``; see
:func:`companion.kits.shimoda.codes.read_street_cards`), space 1 to space 7 as
the pad numbers them. The lines below spell out each card as it is typed, or
say exactly what is wrong and where. Once all seven read, they go into the
player's card cells and chairs boxes, so the scorer checks them like any other
value; a line half typed, or wrong, changes no cell. A line naming a card of
the other street not on the pad yet (both players typing at once) waits, and
is read again when that street's cards change. A card changed in the cells is
written back into the line once the street's seven cards are whole.

Everything here is pure: it reads and gives the values of the pad's cells
(row id → the JSON value of its field), never a widget.

Example:
    >>> line = STREET_LINE.read("by33 " * 7, {}, {})
    >>> line.fill["shop1"]
    {'color': 'blue', 'scoring': {'type': 'color', 'color': 'yellow', 'points': 3, 'range': 3}}
    >>> STREET_LINE.write({row: value for row, value in line.fill.items() if row in CARD_ROWS})
    'by33 by33 by33 by33 by33 by33 by33'
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from companion.kits.pad import LineReading
from companion.kits.shimoda.codes import (
    SPACES,
    StreetCards,
    card_code,
    compact_code,
    describe_card,
    parse_card,
    read_street_cards,
)

CARD_ROWS = tuple(f"shop{k + 1}" for k in range(SPACES))
"""The pad's rows of the shop cards, space 1 to 7 (a card: ``street[k].card``)."""
SPACE_ROWS = tuple(f"tourists{k + 1}" for k in range(SPACES))
"""The pad's rows of the spaces, space 1 to 7 (tourists and chairs: ``street[k]``)."""

Values = Mapping[str, Any]
Space = dict[str, Any]


def chairs_of(space: Any) -> Any:
    """The chair icons a space's value holds: a number (0 when none) or the text typed."""
    return space.get("chairs", 0) if isinstance(space, Mapping) else 0


def pad_spaces(values: Values) -> list[Space | None]:
    """Per space, the whole card the pad holds (``{"card": ..., "chairs": n}``, as the
    card codes read it), or ``None`` where it holds no whole card."""
    found: list[Space | None] = []
    for k in range(SPACES):
        space = {"card": values.get(CARD_ROWS[k]), "chairs": chairs_of(values.get(SPACE_ROWS[k]))}
        try:
            read = parse_card(compact_code(space))[0]
        except (KeyError, TypeError, IndexError, AttributeError):
            read = None  # a card not chosen whole yet
        found.append(read if read == space else None)
    return found


class StreetLine:
    """A Shimoda street's seven shop cards in one line (:class:`companion.kits.pad.LineEntry`).

    Attributes:
        label: The row's heading (the box is called ``Aki: Shop cards``).
        key: The last part of the box's path (``players[0].shop_cards``).
        placeholder: Shown in the empty box.
        after: The box shows after the merchant's points.
        rows: The card rows and the space rows (of which only the chairs are set).
    """

    label = "Shop cards"
    key = "shop_cards"
    placeholder = "ry33 bany15 … (=5: as the other's 5)"
    after = "points"
    rows = (*CARD_ROWS, *SPACE_ROWS)

    def reading(self, text: str, other: Values) -> StreetCards:
        """The cards ``text`` reads (``=N`` from the other street's values)."""
        return read_street_cards(text, pad_spaces(other))

    def read(self, text: str, own: Values, other: Values) -> LineReading:
        """The seven cards and the chairs that differ, once the line reads whole.

        A line half typed or wrong fills nothing; one naming the other street (``=5``)
        waits for it.
        """
        reading = self.reading(text, other)
        if not reading.complete:
            return LineReading(None, waiting="=" in text)
        fill: dict[str, Any] = {}
        for k, space in enumerate(reading.spaces):
            fill[CARD_ROWS[k]] = copy.deepcopy(space["card"])
            if chairs_of(own.get(SPACE_ROWS[k])) != space["chairs"]:
                fill[SPACE_ROWS[k]] = {"chairs": space["chairs"] or None}  # none: an empty box
        return LineReading(fill, frozenset(SPACE_ROWS))

    def write(self, own: Values) -> str | None:
        """The pad's seven cards as run-together codes, or ``None`` while one is not whole."""
        spaces = pad_spaces(own)
        if any(space is None for space in spaces):
            return None
        return " ".join(compact_code(space) for space in spaces if space is not None)

    def said(
        self, text: str, own: Values, other: Values, seat: int, names: Sequence[str]
    ) -> list[tuple[str, str]]:
        """Each card in words as it is typed, or what is wrong; a hint when nothing is typed."""
        mine = names[seat] if seat < len(names) else f"Player {seat + 1}"
        theirs = names[1 - seat] if 0 <= 1 - seat < len(names) else "the other player"
        first = names[0] if names else "Player 1"
        reading = self.reading(text, other)
        if not reading.spaces and not reading.rest and reading.problem is None:
            order = (
                f"from {mine}'s left"
                if seat == 0
                else f"as the pad numbers them (space 1 faces {first}'s space 1)"
            )
            return [
                (
                    f"{mine}'s 7 cards, space 1 to 7 {order}, in the terminal's codes: "
                    f"by33 bany15 … (=5: the card on {theirs}'s space 5)",
                    "hint",
                )
            ]
        lines: list[tuple[str, str]] = []
        for k, (space, typed) in enumerate(zip(reading.spaces, reading.typed, strict=True), 1):
            words = describe_card(card_code(space)).strip()
            if typed.startswith("="):
                words = f"as {theirs}'s space {typed.lstrip('=').strip()}: {words}"
            lines.append((f"Space {k}: {words}", ""))
        number = len(reading.spaces) + 1
        if reading.problem is not None:
            lines.append((reading.problem[0].upper() + reading.problem[1:], "problem"))
        elif reading.rest and number <= SPACES:
            words = describe_card(reading.rest).strip()
            if reading.rest.startswith("="):
                words = f"as {theirs}'s space …"
            lines.append((f"Space {number}: {words}", "typing"))
        elif reading.complete:
            pad = pad_spaces(own)
            differ = [
                str(k)
                for k, (a, b) in enumerate(zip(reading.spaces, pad, strict=True), 1)
                if a != b
            ]
            if differ:
                lines.append(
                    (
                        f"The pad holds other cards at space {', '.join(differ)}: change this "
                        "line to put these back, or fix them below.",
                        "note",
                    )
                )
            else:
                lines.append(("All 7 cards are on the pad.", "ok"))
        if not reading.complete and reading.problem is None:
            left = SPACES - len(reading.spaces)
            lines.append((f"{left} more card{'s' if left != 1 else ''} to type.", "hint"))
        return lines


STREET_LINE = StreetLine()
"""Shimoda's street entry, as the kit gives it."""
