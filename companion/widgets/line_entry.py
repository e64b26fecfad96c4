"""A kit's line entry on the web pad: some rows of a column typed in one line of codes.

A kit may give a :class:`companion.kits.pad.LineEntry` (Shimoda's street of
seven shop cards in card codes). Each player's column then shows one more box,
right after the entry's ``after`` row, named as the other cells are
(``Aki: Shop cards``), with the lines below it that say what it reads. A line
that reads whole fills the entry's rows, as if chosen there (so the scorer
checks them like any other value); a line half typed, or wrong, changes no
cell. A line waiting for a value of the other column is read again when that
column's rows change. A change made in the rows' cells is written back into
the line when they hold a whole one.

Each player's box is a cell of the form of its own (``players[0].shop_cards``),
never in the score file: the draft keeps what is typed, and two phones at the
table fill two columns at once. Nothing here knows a game: what a line means
is the kit's, given and taken as the cells' values.
"""

from __future__ import annotations

import html
from typing import Any, Protocol

import ipywidgets as w
from ipywidgets.widgets.widget_string import TextStyle

from companion.kits.pad import LineEntry, PadSpec
from companion.widgets.cells import OMIT, Cell, clip, label, shared_layout, shared_style


def entry_path(entry: LineEntry, seat: int) -> str:
    """The path of a player's box (``players[0].shop_cards``): never in the score file."""
    return f"players[{seat}].{entry.key}"


class LineBox(Cell):
    """One player's box and the lines below it that say what it reads.

    Its value is never in the score file: what it reads goes into the rows' cells.
    """

    def __init__(self, path: str, placeholder: str) -> None:
        # Two lines that wrap: the whole line shows as it is typed, on a phone too.
        box = w.Textarea(
            value="",
            placeholder=placeholder,
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


class Form(Protocol):
    """What the line entries need of the score form that holds them."""

    spec: PadSpec
    rows: list[list[tuple[str, Cell]]]  # each seat's (label, cell), in the order shown
    players: int
    quiet: bool  # set while cells are filled: no change is reported for them
    touched: set[str]


class LineEntries:
    """Every player's box of a kit's line entry, and the cells it fills.

    Made before the form gathers its cells: each box goes into its seat's rows,
    right after the row ``entry.after`` (first when that is ``""``).

    Raises:
        ValueError: The pad has no row ``entry.after``.
    """

    def __init__(self, entry: LineEntry, form: Form) -> None:
        self.entry = entry
        self.form = form
        self.boxes: list[LineBox] = []
        self.cells: list[dict[str, Cell]] = []  # per seat: the rows' cells, by row id
        self.seats: dict[str, int] = {}  # a box's path → its seat
        self.owners: dict[str, int] = {}  # a row cell's path → its seat
        rows = {row.id: row for row in form.spec.player_rows}
        for seat, drawn in enumerate(form.rows):
            by_path = {cell.path: cell for _, cell in drawn if cell.path}
            cells = {rid: by_path[rows[rid].path(seat)] for rid in entry.rows if rid in rows}
            self.cells.append(cells)
            self.owners.update((cell.path, seat) for cell in cells.values())
            box = LineBox(entry_path(entry, seat), entry.placeholder)
            self.boxes.append(box)
            self.seats[box.path] = seat
            drawn.insert(self._place(drawn, seat), (entry.label, box))
        # A line waiting for the other column: it names a value there not on the pad when
        # it was typed; it is read again when the other column's rows change.
        self.waiting = [False] * len(self.boxes)

    def _place(self, drawn: list[tuple[str, Cell]], seat: int) -> int:
        """Where the box goes among a seat's cells: right after the row ``after``."""
        if not self.entry.after:
            return 0
        after = next((r for r in self.form.spec.player_rows if r.id == self.entry.after), None)
        path = after.path(seat) if after is not None else None
        for index, (_, cell) in enumerate(drawn):
            if cell.path and cell.path == path:
                return index + 1
        raise ValueError(f"the line entry follows the row {self.entry.after!r}: not on the pad")

    def own(self, seat: int) -> dict[str, Any]:
        """The values the rows of ``seat`` hold, by row id (empty cells left out)."""
        found = {}
        for rid, cell in self.cells[seat].items():
            value = cell.value()
            if value is not OMIT:
                found[rid] = value
        return found

    def other_seat(self, seat: int) -> int | None:
        """The other column a line may take values from (the next one), if any."""
        count = len(self.boxes)
        return (seat + 1) % count if count > 1 else None

    def other(self, seat: int) -> dict[str, Any]:
        """The values of the other column's rows (empty when there is none)."""
        found = self.other_seat(seat)
        return {} if found is None else self.own(found)

    def changed(self, path: str) -> None:
        """A cell was changed by someone: a box fills its rows; a row's cell writes its
        column back into the box, and lines waiting for that column are read again."""
        if path in self.seats:
            self.fill(self.seats[path])
            return
        seat = self.owners.get(path)
        if seat is not None:
            self.waiting[seat] = False  # its own rows changed by hand: they count now
            self.follow(seat)
            self.retry(seat)

    def retry(self, changed: int) -> None:
        """Read again the lines waiting for the rows of column ``changed``."""
        for seat in range(len(self.boxes)):
            if seat != changed and self.waiting[seat] and self.other_seat(seat) == changed:
                self.fill(seat)

    def fill(self, seat: int) -> None:
        """Put a line that reads whole into its rows' cells."""
        reading = self.entry.read(self.boxes[seat].text, self.own(seat), self.other(seat))
        self.waiting[seat] = reading.waiting
        if reading.fill is None:
            return  # half typed or wrong: every cell stays as it is
        cells = self.cells[seat]
        quiet, self.form.quiet = self.form.quiet, True
        try:
            for rid, value in reading.fill.items():
                if rid in cells:
                    cells[rid].put(value, partial=rid in reading.partial)
            self.form.touched.update(cell.path for cell in cells.values())
        finally:
            self.form.quiet = quiet
        self.retry(seat)

    def follow(self, seat: int) -> None:
        """Write the line the rows hold into the box, when they hold a whole one that the
        box does not say already (in its own words: ``=5``, a card spaced out)."""
        own, other = self.own(seat), self.other(seat)
        line = self.entry.write(own)
        if line is None:
            return
        typed = self.entry.read(self.boxes[seat].text, own, other).fill
        if typed is not None and typed == self.entry.read(line, own, other).fill:
            return
        quiet, self.form.quiet = self.form.quiet, True
        try:
            self.boxes[seat].controls["t"].value = line
        finally:
            self.form.quiet = quiet

    def show(self, names: list[str]) -> None:
        """Each box's lines: what it reads, or what is wrong."""
        values = [self.own(seat) for seat in range(len(self.boxes))]
        for seat, box in enumerate(self.boxes):
            other = self.other_seat(seat)
            said = self.entry.said(
                box.text, values[seat], {} if other is None else values[other], seat, names
            )
            box.said.value = "".join(said_line(text, css) for text, css in said)


def said_line(text: str, css: str = "") -> str:
    """One escaped line below a box, of class ``css`` (none when empty)."""
    words = html.escape(text, quote=False)
    return f"<div class='{html.escape(css)}'>{words}</div>" if css else f"<div>{words}</div>"
