"""Shimoda's shop cards in one line per street, typed in the terminal's card codes.

Each player's column of the Shimoda pad has a *Shop cards* box above the
spaces. The seven cards go in it one after another, in the codes that
``companion play shimoda`` takes (``ry33 btwo35c1 y rp 5 3 =5 …``; see
:func:`companion.play.shimoda.read_street_cards`), space 1 to space 7 as the
pad numbers them. The line below spells out each card as it is typed, or says
exactly what is wrong and where. Once all seven read, they go into that
player's card cells (and the chairs boxes) as if chosen there, so the scorer
checks them like any other value; a line half typed, or wrong, changes no cell.
A line that names a card of the other street not on the pad yet (both players
typing at once) is read again when that street's cards arrive.

The cards stay in the cells below, for the full detail and for fixing one
space: a card changed there is written back into the line when the street's
seven cards are whole. Each player's box is a cell of its own, so two phones
at the table fill both streets at once.
"""

from __future__ import annotations

import html
import re
from typing import Any, Protocol

import ipywidgets as w
from ipywidgets.widgets.widget_string import TextStyle

from companion.kits.shimoda.codes import (
    SPACES,
    StreetCards,
    card_code,
    compact_code,
    describe_card,
    parse_card,
    read_street_cards,
)
from companion.widgets.cells import OMIT, Cell, clip, label, number, shared_layout, shared_style

LABEL = "Shop cards"
"""The row's name on the pad (the box is called ``Aki: Shop cards``)."""
KEY = "shop_cards"
"""The last part of the box's path (``players[0].shop_cards``): never in the score file."""
ENTRY = re.compile(rf"players\[(\d+)\]\.{KEY}")
SPACE = re.compile(r"players\[(\d+)\]\.street\[(\d+)\](\.card)?")


def entry_path(seat: int) -> str:
    """The path of a player's street entry."""
    return f"players[{seat}].{KEY}"


class StreetEntry(Cell):
    """The box of one player's street and the line below it that says what it reads.

    Its value is never in the score file: what it reads goes into the card cells.
    """

    def __init__(self, path: str) -> None:
        # Two lines that wrap: the whole street shows as it is typed, on a phone too.
        box = w.Textarea(
            value="",
            placeholder="ry33 bany15 … (=5: as the other's 5)",
            rows=2,
            continuous_update=True,
            layout=shared_layout("100%"),
            style=shared_style(TextStyle),
        )
        box.add_class("txt")
        super().__init__(path, {"t": box}, lambda raw: OMIT, css="street-entry")
        self.said = label()
        self.said.add_class("street-said")
        self.widget.children = [self.box, self.said, self.message]

    @property
    def text(self) -> str:
        """What is typed (at most the cell's limit)."""
        return clip(self.controls["t"].value)


def put_card(cell: Cell, space: dict[str, Any]) -> None:
    """Choose a card in a card cell's controls (``space`` as the play layer reads it)."""
    card = space["card"]
    scoring = card["scoring"]
    colours = scoring.get("colors", [scoring.get("color", ""), ""])
    values = {
        "color": card["color"],
        "type": scoring["type"],
        "points": str(scoring["points"]),
        "range": str(scoring["range"]),
        "scored": colours[0],
        "second": colours[1],
    }
    for key, value in values.items():
        cell.controls[key].value = value


def chairs_of(cell: Cell) -> Any:
    """The chairs a space's cell holds: a number (0 when empty) or the text typed."""
    value = number(clip(cell.controls["chairs"].value))
    return 0 if value is OMIT else value


class Form(Protocol):
    """What a street entry needs of the score form that holds it."""

    cells: dict[str, Cell]
    players: int
    quiet: bool  # set while cells are filled: no change is reported for them
    touched: set[str]


class ShopStreets:
    """Both players' street entries on a Shimoda pad and the cells they fill."""

    def __init__(self, form: Form) -> None:
        self.form = form
        self.entries = [form.cells[entry_path(seat)] for seat in range(form.players)]
        # A line that waits for the other street: it names a card there (=5) not on the
        # pad when it was typed; it is read again when the other street's cards change.
        self.waiting = [False] * form.players

    def entry(self, seat: int) -> StreetEntry:
        """The street entry of ``seat``."""
        entry = self.entries[seat]
        assert isinstance(entry, StreetEntry)
        return entry

    def card_cell(self, seat: int, k: int) -> Cell:
        """The card cell of space ``k`` (0-based) of ``seat``."""
        return self.form.cells[f"players[{seat}].street[{k}].card"]

    def space_cell(self, seat: int, k: int) -> Cell:
        """The tourists-and-chairs cell of space ``k`` (0-based) of ``seat``."""
        return self.form.cells[f"players[{seat}].street[{k}]"]

    def pad_spaces(self, seat: int) -> list[dict[str, Any] | None]:
        """Per space, the whole card the pad holds (as the play layer reads cards), or
        ``None`` where it holds no whole card."""
        found: list[dict[str, Any] | None] = []
        for k in range(SPACES):
            space = {
                "card": self.card_cell(seat, k).value(),
                "chairs": chairs_of(self.space_cell(seat, k)),
            }
            try:
                read = parse_card(compact_code(space))[0]
            except (KeyError, TypeError, IndexError, AttributeError):
                read = None  # a card not chosen whole yet
            found.append(read if read == space else None)
        return found

    def reading(self, seat: int, other: list[dict[str, Any] | None] | None = None) -> StreetCards:
        """What the street entry of ``seat`` reads (``=N`` from the other street's cells,
        ``other`` when they were read already)."""
        if other is None:
            other = self.pad_spaces(1 - seat)
        return read_street_cards(self.entry(seat).text, other)

    def changed(self, path: str) -> None:
        """A cell was changed by someone: a street entry fills its cells; a card cell
        or chairs box writes its street back into the entry."""
        entry = ENTRY.fullmatch(path)
        if entry is not None:
            self.fill(int(entry.group(1)))
            return
        space = SPACE.fullmatch(path)
        if space is not None:
            seat = int(space.group(1))
            self.waiting[seat] = False  # its own cards changed by hand: they count now
            self.follow(seat)
            self.retry(1 - seat)

    def retry(self, seat: int) -> None:
        """Read a line again that was waiting for a card of the other street."""
        if 0 <= seat < len(self.entries) and self.waiting[seat]:
            self.fill(seat)

    def fill(self, seat: int) -> None:
        """Put a street entry that reads whole into its card cells and chairs boxes."""
        reading = self.reading(seat)
        self.waiting[seat] = not reading.complete and "=" in self.entry(seat).text
        if not reading.complete:
            return  # half typed or wrong: every cell stays as it is
        quiet, self.form.quiet = self.form.quiet, True
        try:
            for k, space in enumerate(reading.spaces):
                card, room = self.card_cell(seat, k), self.space_cell(seat, k)
                put_card(card, space)
                if chairs_of(room) != space["chairs"]:
                    room.controls["chairs"].value = str(space["chairs"] or "")
                self.form.touched.update((card.path, room.path))
        finally:
            self.form.quiet = quiet
        self.retry(1 - seat)

    def follow(self, seat: int) -> None:
        """Write the pad's seven cards into the entry, when they are whole and differ."""
        spaces = self.pad_spaces(seat)
        if any(space is None for space in spaces):
            return
        reading = self.reading(seat)
        if reading.complete and list(reading.spaces) == spaces:
            return
        codes = " ".join(compact_code(space) for space in spaces if space is not None)
        quiet, self.form.quiet = self.form.quiet, True
        try:
            self.entry(seat).controls["t"].value = codes
        finally:
            self.form.quiet = quiet

    def show(self, names: list[str]) -> None:
        """Each entry's line: its cards in words, or what is wrong."""
        pads = [self.pad_spaces(seat) for seat in range(len(self.entries))]
        for seat in range(len(self.entries)):
            own = names[seat] if seat < len(names) else f"Player {seat + 1}"
            other = names[1 - seat] if 1 - seat < len(names) else "the other player"
            reading = self.reading(seat, pads[1 - seat])
            self.entry(seat).said.value = said_html(reading, pads[seat], own, other, seat, names[0])


def said_html(
    reading: StreetCards,
    pad: list[dict[str, Any] | None],
    own: str,
    other: str,
    seat: int,
    first: str,
) -> str:
    """The line below a street entry, escaped."""
    if not reading.spaces and not reading.rest and reading.problem is None:
        order = (
            f"from {own}'s left"
            if seat == 0
            else f"as the pad numbers them (space 1 faces {first}'s space 1)"
        )
        return line(
            f"{own}'s 7 cards, space 1 to 7 {order}, in the terminal's codes: "
            f"by33 bany15 … (=5: the card on {other}'s space 5)",
            "hint",
        )
    lines = []
    for k, (space, typed) in enumerate(zip(reading.spaces, reading.typed, strict=True), 1):
        words = describe_card(card_code(space)).strip()
        if typed.startswith("="):
            words = f"as {other}'s space {typed.lstrip('=').strip()}: {words}"
        lines.append(line(f"Space {k}: {words}"))
    number = len(reading.spaces) + 1
    if reading.problem is not None:
        lines.append(line(reading.problem[0].upper() + reading.problem[1:], "problem"))
    elif reading.rest and number <= SPACES:
        words = describe_card(reading.rest).strip()
        if reading.rest.startswith("="):
            words = f"as {other}'s space …"
        lines.append(line(f"Space {number}: {words}", "typing"))
    elif reading.complete:
        differ = [
            str(k) for k, (a, b) in enumerate(zip(reading.spaces, pad, strict=True), 1) if a != b
        ]
        if differ:
            lines.append(
                line(
                    f"The pad holds other cards at space {', '.join(differ)}: change this "
                    "line to put these back, or fix them below.",
                    "note",
                )
            )
        else:
            lines.append(line("All 7 cards are on the pad.", "ok"))
    if not reading.complete and reading.problem is None:
        left = SPACES - len(reading.spaces)
        lines.append(line(f"{left} more card{'s' if left != 1 else ''} to type.", "hint"))
    return "".join(lines)


def line(text: str, css: str = "") -> str:
    """One escaped line of the entry's description."""
    return (
        f"<div class='{css}'>{html.escape(text, quote=False)}</div>"
        if css
        else (f"<div>{html.escape(text, quote=False)}</div>")
    )
