"""The web score pad's cells, drawn from the game's description of its pad.

Every row of :mod:`companion.kits.pad` becomes a cell per player (or one for
the table): a number box, a dropdown, or the controls of its parts (a list of
them, for a row that repeats). What is typed goes into the score file at the
row's field and is checked by the scorer itself. Nothing here knows a game:
the terminal pad is drawn from the same rows, so both show the same labels, in
the same order, with the same bounds.
"""

from __future__ import annotations

import copy
import html
from typing import Any

import ipywidgets as w
from ipywidgets.widgets.widget_string import HTMLStyle

from companion.kits.pad import CHOICE, FLAG, LETTER, NUMBER, PadRow, Part, get_path, set_path
from companion.widgets.cells import (
    OMIT,
    Cell,
    ListCell,
    choice,
    clip,
    number,
    shared_layout,
    shared_style,
    text_input,
)


def control(part: Part) -> w.ValueWidget:
    """The widget of one part: a box, a dropdown or a tick box."""
    own = part.shown_when is not None  # shown and hidden: a layout of its own
    made: w.ValueWidget
    if part.kind == CHOICE:
        made = choice(list(part.options), part.width, own_layout=own)
    elif part.kind == FLAG:
        made = w.Checkbox(value=False, description=part.words, indent=False)
    else:
        made = text_input(
            part.width, numeric=part.kind == NUMBER, placeholder=part.placeholder, own_layout=own
        )
    for name in part.css.split():
        made.add_class(name)
    return made


def part_value(part: Part, raw: Any) -> Any:
    """A part's JSON value from what its control holds (:data:`OMIT` when empty)."""
    if part.kind == NUMBER:
        return number(clip(raw))
    if part.kind == FLAG:
        return bool(raw)
    if part.kind == CHOICE:
        return OMIT if raw == "" else raw
    cleaned = clip(raw).strip()
    if part.kind == LETTER:
        cleaned = cleaned.upper()
    return cleaned or OMIT


def shown(part: Part, raw: dict[str, Any]) -> bool:
    """Whether a part is in use (its ``shown_when`` holds)."""
    if part.shown_when is None:
        return True
    other, values = part.shown_when
    return raw.get(other) in values


def entry_value(row: PadRow, raw: dict[str, Any]) -> Any:
    """One value of a row with parts, as :mod:`companion.kits.pad` says it is built."""
    if len(row.parts) == 1 and not row.parts[0].key:
        single = part_value(row.parts[0], raw.get(""))
        finished = row.finish is not None and single is not OMIT
        return row.finish(single) if finished and row.finish is not None else single
    value: Any = copy.deepcopy(row.base) if row.base is not None else {}
    filled = False
    for part in row.parts:
        if part.key in raw and shown(part, raw):
            typed = part_value(part, raw[part.key])
            if typed is not OMIT:
                set_path(value, part.key, typed)
                filled = True
    if not filled and row.base is None:
        return OMIT
    return row.finish(value) if row.finish is not None else value


def option_for(options: tuple[tuple[str, Any], ...], value: Any) -> Any:
    """The option of a dropdown that stands for ``value`` (compared as text too: the option
    ``"3"`` for 3); the first (the empty one) when none does."""
    if value is not None:
        for _, option in options:
            if option == value:
                return option
        for _, option in options:
            if str(option) == str(value):
                return option
    return options[0][1] if options else ""


def part_raw(part: Part, value: Any) -> Any:
    """What a part's control holds for its JSON value (the inverse of :func:`part_value`)."""
    if part.kind == FLAG:
        return bool(value)
    if part.kind == CHOICE:
        return option_for(part.options, value)
    return "" if value is None else str(value)


MISSING = object()  # no value at a part's key


def raw_of(row: PadRow, value: Any, partial: bool = False) -> dict[str, Any]:
    """The controls' values of one cell (or list entry) of ``row`` that build ``value``.

    The inverse of how :func:`entry_value` (and a plain number box or dropdown) builds
    a value: each part gets the value at its key, an empty control where there is none.

    Args:
        row: The cell's row.
        value: A JSON value of the row's field (``None``: empty).
        partial: Only the parts whose key ``value`` holds (the others are left out, so
            their controls stay as they are).
    """
    if not row.parts:
        if row.options:
            return {"c": option_for(row.options, value)}
        return {"n": "" if value is None else str(value)}
    raw: dict[str, Any] = {}
    for part in row.parts:
        found = get_path(value, part.key, MISSING)
        if found is MISSING and partial:
            continue
        raw[part.key] = part_raw(part, None if found is MISSING else found)
    return raw


def controls_of(row: PadRow) -> dict[str, w.ValueWidget]:
    """The controls of one entry of a row with parts, shown and hidden by their parts."""
    controls = {part.key: control(part) for part in row.parts}
    dependent = [p for p in row.parts if p.shown_when is not None]

    def show(_: Any = None) -> None:
        raw = {k: c.value for k, c in controls.items()}
        for part in dependent:
            controls[part.key].layout.display = "" if shown(part, raw) else "none"

    for other in {p.shown_when[0] for p in dependent if p.shown_when}:
        if other in controls:
            controls[other].observe(show, names="value")
    show()
    return controls


def cell_for(row: PadRow, seat: int | None) -> Cell:
    """The cell of ``row`` for ``seat`` (``None``: the table's)."""
    path = row.path(seat)
    made: Cell

    def unbuild(value: Any, partial: bool) -> dict[str, Any]:
        return raw_of(row, value, partial)

    if row.repeat:

        def build_item(raw: dict[str, Any]) -> Any:
            value = entry_value(row, raw)
            if value is not OMIT:
                return value
            return "" if len(row.parts) == 1 and not row.parts[0].key else {}

        made = ListCell(
            path,
            lambda: controls_of(row),
            build_item,
            row.add,
            limit=row.repeat,
            css=row.css,
            unbuild_item=unbuild,
        )
    elif row.parts:
        made = Cell(
            path, controls_of(row), lambda raw: entry_value(row, raw), css=row.css, unbuild=unbuild
        )
    elif row.options:
        options = list(row.options)
        made = Cell(
            path,
            {"c": choice(options, row.width)},
            lambda raw: OMIT if raw["c"] == "" else raw["c"],
            css=row.css,
            unbuild=unbuild,
        )
    else:
        made = Cell(
            path,
            {"n": text_input("100%", numeric=True)},
            lambda raw: number(clip(raw["n"])),
            css=row.css,
            unbuild=unbuild,
        )
    made.parts = {part.key: part.words for part in row.parts}
    return made


def heading(row: PadRow) -> Cell:
    """The column headings above a grid of rows with parts (a region's four counts)."""
    # Each as wide as its boxes below (the same width, in the boxes' font size).
    labels = [
        w.HTML(
            f"<span>{html.escape(part.heading or part.words)}</span>",
            layout=shared_layout(part.width),
            style=shared_style(HTMLStyle),
        )
        for part in row.parts
    ]
    for each in labels:
        each.add_class("minihead")
    cell = Cell("", {}, lambda raw: OMIT, css="heading")
    cell.box.children = labels
    return cell


Drawn = list[tuple[str, Cell]]
"""``(label, cell)`` in the order the pad shows them."""


def player_cells(rows: list[PadRow], seat: int) -> Drawn:
    """The pad's cells for the player (or side) in ``seat``, a heading before a grid of counts."""
    drawn: Drawn = []
    before: PadRow | None = None
    for row in rows:
        if row.heading and not (before is not None and before.heading):
            drawn.append(("", heading(row)))
        drawn.append((row.label, cell_for(row, seat)))
        before = row
    return drawn


def shared_cells(rows: list[PadRow]) -> Drawn:
    """The cells that belong to the whole game, not to one player."""
    return [(row.label, cell_for(row, None)) for row in rows]
