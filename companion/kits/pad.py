"""The one description of a game's score pad, which the terminal pad and the web pad draw.

A pad is rows (the fields of the score file, in the order shown) and columns
(the players, or sides). Each :class:`PadRow` says, once, what both faces show
and check: its label, the field of the score file it fills, its bounds (read
from the scorer's ``INFO.bounds``, never typed again), its rules topic, and how
a value is typed: one whole number (the default), a choice, or the parts of a
small structure (:class:`Part`), with an entry code for the terminal
(:class:`Codec`).

The value of a cell is always the JSON value its field holds in the score
file, so the score file is assembled the same way by both faces
(:func:`document`). A kit may also give a :class:`LineEntry`: some rows of a
column typed in one line of codes (Shimoda's street of seven cards), pure
functions over those cell values that the web pad draws as one more box.

Example:
    >>> row = PadRow("journey", "Score track", "journey", low=0, high=300)
    >>> row.path(1)
    'players[1].journey'
    >>> document(PadSpec([row]), "tokaido", ["Aki", "Ben"], {"journey.0": 12, "journey.1": 9})
    {'game': 'tokaido', 'players': [{'name': 'Aki', 'journey': 12}, {'name': 'Ben', 'journey': 9}]}
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any, Protocol

from scorers import SCORERS

NUMBER = "number"
TEXT = "text"
CHOICE = "choice"
LETTER = "letter"
FLAG = "flag"
KINDS = (NUMBER, TEXT, CHOICE, LETTER, FLAG)
"""How a part is typed: a whole number, free text, one of a list, a capital letter, a tick."""


class Codec(Protocol):
    """A row's entry code at the terminal: one line of text for one cell's value.

    Attributes:
        hint: What to type, shown in the question (``e.g. 3 1 0 2; - for none``).
    """

    hint: str

    def read(self, text: str) -> tuple[Any, str | None]:
        """The value a line means, or ``(None, problem)`` saying what is wrong."""
        ...

    def write(self, value: Any) -> str:
        """The line that reads back as ``value`` (the answer offered when asked again)."""
        ...


@dataclass(frozen=True)
class Part:
    """One control of a cell that holds a small structure (a region's four counts).

    Attributes:
        key: Where its value goes inside the cell's value (``tourists.blue``,
            ``[0]``, ``scoring.type``); empty for the value itself.
        words: What it is called, after the cell's name (``blue tourists``).
        kind: One of :data:`KINDS`.
        options: For a choice: ``(shown, value)`` pairs, the first the empty one.
        width: Its width on the web pad.
        placeholder: Shown in an empty box.
        shown_when: ``(other part's key, values)``: the part is used only when
            that part holds one of the values.
        css: A class for the web pad's style (a tourist's colour).
        low: Its least value (numbers).
        high: Its most value (numbers), ``None`` for no bound but the scorer's.
        heading: Its short name above a grid of such parts (``prov``).
    """

    key: str
    words: str
    kind: str = NUMBER
    options: tuple[tuple[str, str], ...] = ()
    width: str = "3em"
    placeholder: str = ""
    shown_when: tuple[str, tuple[str, ...]] | None = None
    css: str = ""
    low: int = 0
    high: int | None = None
    heading: str = ""


@dataclass(frozen=True)
class PadRow:
    """One row of the score pad: one field of the score file, for each player or for the table.

    Attributes:
        id: Short id, part of each cell's key (``journey``; ``journey.2`` for seat 2).
        label: The row's heading, the same on the terminal and the web pad.
        field: Its path in a player's entry (``journey``, ``street[2].card``),
            or in the file for a shared row (``tours``).
        topic: The rules topic that explains it.
        shared: One value for the whole table instead of one per player.
        low: Its least value (a number row).
        high: Its most value (a number row; from the scorer's ``INFO.bounds``).
        options: A choice row's ``(shown, value)`` pairs, the first the empty one
            (``""``): a placeholder when its words end with "…" (``traveller…``),
            else a choice of its own that leaves the field out (``not said``).
        parts: The controls of a structured value (empty: one number, or a choice).
        base: The value the parts are written into (``{"tourists": {}}``).
        repeat: For a list: the most entries (0: one value, not a list).
        add: A list's "add" button.
        codec: The terminal's entry code for a structured value.
        finish: Completes a structured value from its parts (a derived key).
        show: The value as the terminal pad shows it.
        seat_words: The row's name in a question to one seat, where the label
            alone would mislead (Shimoda's second street: ``Shop 1, your space 7``).
        question: The words of the question that asks the whole row at once
            (every player's value in one answer), when the flow asks so.
        required: The pad asks for it even where the score file may leave it out.
        heading: The web pad shows the parts' names above the row (a grid of counts).
        css: A class for the web pad's style (``region``, ``card``).
        width: The width of a choice row's dropdown on the web pad.
    """

    id: str
    label: str
    field: str
    topic: str | None = None
    shared: bool = False
    low: int = 0
    high: int | None = None
    options: tuple[tuple[str, Any], ...] = ()
    parts: tuple[Part, ...] = ()
    base: Any = None
    repeat: int = 0
    add: str = "+"
    codec: Codec | None = None
    finish: Callable[[Any], Any] | None = None
    show: Callable[[Any], str] | None = None
    seat_words: Callable[[int], str] | None = None
    question: str = ""
    required: bool = False
    heading: bool = False
    css: str = ""
    width: str = "100%"

    @property
    def kind(self) -> str:
        """``number``, ``choice`` or ``parts`` (a structured value, or a list of them)."""
        if self.parts or self.repeat:
            return "parts"
        if self.options:
            return CHOICE
        return NUMBER

    def path(self, seat: int | None = None) -> str:
        """The JSON path this row fills for ``seat`` (a shared row: its field)."""
        if self.shared or seat is None:
            return self.field
        return f"players[{seat}].{self.field}"

    def shown(self, value: Any) -> str:
        """The value as the terminal pad shows it."""
        if self.show is not None:
            return self.show(value)
        if self.codec is not None:
            return self.codec.write(value) or "-"
        if value is None:
            return "-"
        if self.options:
            return next((shown for shown, v in self.options if v == value), str(value))
        return str(value)


@dataclass(frozen=True)
class LineReading:
    """What a line typed in a :class:`LineEntry` means for its rows.

    Attributes:
        fill: The values to put into the rows' cells (row id → the JSON value of its
            field), as if chosen there; ``None`` when the line does not read whole
            (half typed, or wrong): then no cell changes.
        partial: The rows of ``fill`` of which only the parts given are set (a space's
            chairs: its tourists stay as they are).
        waiting: The line names a value of the other column that is not on the pad
            yet: it is read again when the other column's rows change.
    """

    fill: Mapping[str, Any] | None = None
    partial: frozenset[str] = frozenset()
    waiting: bool = False


class LineEntry(Protocol):
    """A quicker way to fill some rows of a player's column: one line of text typed in codes.

    The web pad shows one box per player (``Aki: Shop cards``) and a few lines below
    it saying what the line reads; a line that reads whole fills the rows' cells, and
    a change made in those cells is written back into the line. Every method is pure:
    it reads and gives cell values (the JSON values of the rows' fields for one seat,
    keyed by row id; a row left empty is not there), never widgets.

    Attributes:
        label: The entry's row heading on the web pad (``Shop cards``).
        key: The last part of the entry's path (``players[0].shop_cards``), which the
            web pad's draft keeps; never a field of the score file.
        placeholder: Shown in the empty box.
        after: The id of the row after which the entry shows (``""``: first).
        rows: The ids of the rows it fills.
    """

    label: str
    key: str
    placeholder: str
    after: str
    rows: tuple[str, ...]

    def read(self, text: str, own: Mapping[str, Any], other: Mapping[str, Any]) -> LineReading:
        """What ``text`` means for the rows of its column.

        Args:
            text: The line typed.
            own: The values the column's rows hold now.
            other: The same of the other column (the opponent's in a game of two;
                empty when there is none), for a line that repeats its values.
        """
        ...

    def write(self, own: Mapping[str, Any]) -> str | None:
        """The line the rows hold now, or ``None`` when they do not hold a whole line."""
        ...

    def said(
        self,
        text: str,
        own: Mapping[str, Any],
        other: Mapping[str, Any],
        seat: int,
        names: Sequence[str],
    ) -> list[tuple[str, str]]:
        """The lines shown below the box: ``(words, kind)``, plain text (never markup).

        ``kind`` is the line's CSS class: ``hint``, ``ok``, ``problem``, ``typing``,
        ``note``, or ``""`` for a plain line.

        Args:
            text: The line typed.
            own: The values the column's rows hold now.
            other: The same of the other column.
            seat: The column's seat.
            names: The columns' names, in seat order (a placeholder where none is typed).
        """
        ...


Extra = Callable[[dict[str, Any]], list[tuple[str, list[str]]]]
"""Cross-field checks of a whole score file: ``(message, paths of the values involved)``."""


@dataclass(frozen=True)
class PadSpec:
    """A game's score pad for one table.

    Attributes:
        rows: In the order shown: player rows, then shared rows.
        top: Fields the file always holds (``{"mode": "final"}``).
        entry: Fields every player's entry always holds (``{"regions": {}}``).
        extra: The game's cross-field checks, before the scorer's.
    """

    rows: list[PadRow]
    top: Mapping[str, Any] = field(default_factory=dict)
    entry: Mapping[str, Any] = field(default_factory=dict)
    extra: Extra | None = None

    @property
    def player_rows(self) -> list[PadRow]:
        """The rows with a value per player, in order."""
        return [r for r in self.rows if not r.shared]

    @property
    def shared_rows(self) -> list[PadRow]:
        """The rows with one value for the table, in order."""
        return [r for r in self.rows if r.shared]


def bound(game: str, name: str) -> tuple[int, int]:
    """The least and most value of a number field, as the game's scorer checks it.

    Args:
        game: The game id.
        name: The field's name in the scorer's ``INFO.bounds`` (``journey``).

    Raises:
        KeyError: The scorer states no bounds for that field.
    """
    return SCORERS[game].info.bounds[name]


def number_row(
    game: str, field_name: str, label: str, topic: str | None = None, **more: Any
) -> PadRow:
    """A row of one whole number, its bounds read from the scorer.

    Args:
        game: The game id.
        field_name: The field in a player's entry, also its name in ``INFO.bounds``.
        label: The row's heading.
        topic: Its rules topic.
        **more: Any other :class:`PadRow` attribute (``id``, ``question``...).
    """
    low, high = bound(game, more.pop("bound", field_name))
    row_id = more.pop("id", field_name)
    return PadRow(row_id, label, field_name, topic, low=low, high=high, **more)


def key(row: str, seat: int | None = None) -> str:
    """A cell's key: ``journey.2`` (a row's value for seat 2) or ``tours`` (a shared row)."""
    return row if seat is None else f"{row}.{seat}"


TOKEN = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


def set_path(document: Any, path: str, value: Any) -> None:
    """Put ``value`` at ``path`` (``players[0].street[2].chairs``), creating what is missing.

    Two objects at one path are merged (a space's card and its tourists are two cells).
    """
    tokens: list[str | int] = [name if name else int(index) for name, index in TOKEN.findall(path)]
    node: Any = document
    for token, following in pairwise(tokens):
        empty: Any = [] if isinstance(following, int) else {}
        if isinstance(token, int):
            while len(node) <= token:
                node.append([] if isinstance(following, int) else {})
            node = node[token]
        else:
            node = node.setdefault(token, empty)
    last = tokens[-1]
    if isinstance(last, int):
        while len(node) <= last:
            node.append(None)
    elif last not in node:
        node[last] = None
    if isinstance(node[last], dict) and isinstance(value, dict):
        node[last].update(value)
    else:
        node[last] = value


def get_path(document: Any, path: str, default: Any = None) -> Any:
    """The value at ``path`` inside ``document`` (``""``: the document itself), or ``default``.

    The inverse of :func:`set_path`: ``get_path({"scoring": {"points": 3}}, "scoring.points")``
    is 3.
    """
    node = document
    for name, index in TOKEN.findall(path):
        if name:
            if not isinstance(node, Mapping) or name not in node:
                return default
            node = node[name]
        else:
            if not isinstance(node, list) or int(index) >= len(node):
                return default
            node = node[int(index)]
    return node


def document(
    spec: PadSpec,
    game: str,
    names: Sequence[str],
    values: Mapping[str, Any],
    *,
    members: Sequence[Sequence[str]] | None = None,
) -> dict[str, Any]:
    """The score file a pad holds: its values (cell key → JSON value) at their fields.

    A cell missing from ``values`` (or ``None``) leaves its field out, for the
    scorer to report.
    """
    doc: dict[str, Any] = {"game": game, **copy.deepcopy(dict(spec.top))}
    players = []
    for seat, name in enumerate(names):
        entry: dict[str, Any] = {"name": name}
        if members is not None:
            entry["members"] = list(members[seat])
        entry.update(copy.deepcopy(dict(spec.entry)))
        players.append(entry)
    for row in spec.shared_rows:
        value = values.get(key(row.id))
        if value is not None:
            set_path(doc, row.field, copy.deepcopy(value))
    doc["players"] = players
    for row in spec.player_rows:
        for seat in range(len(names)):
            value = values.get(key(row.id, seat))
            if value is not None:
                set_path(players[seat], row.field, copy.deepcopy(value))
    return doc


def cell_of(spec: PadSpec, count: int, path: str) -> str | None:
    """The cell key a JSON path of the score file comes from (the longest field that holds it)."""
    best: tuple[str, str] | None = None
    for row in spec.rows:
        for seat in [None] if row.shared else range(count):
            known = row.path(seat)
            inside = path == known or path.startswith((known + ".", known + "["))
            if inside and (best is None or len(known) > len(best[0])):
                best = (known, key(row.id, seat))
    return best[1] if best else None


def pad_problems(spec: PadSpec, count: int, values: Mapping[str, Any]) -> list[tuple[str, str]]:
    """``(path, message)`` for each required cell left empty (the file may leave it out)."""
    found = []
    for row in spec.player_rows:
        if row.required:
            for seat in range(count):
                if values.get(key(row.id, seat)) is None:
                    found.append((row.path(seat), "missing (type 0 when there is none)"))
    return found


# How the web pad builds a cell's value from its controls (companion.widgets draws them;
# the kits only describe):
#
# - a row without parts or options: one number box; its whole number (or the text
#   typed, for the scorer to report); empty leaves the field out;
# - a row with options: a dropdown; the value "" leaves the field out;
# - a row with parts: a copy of ``base`` (or {}), each part that is shown and not
#   empty written at its key (a part with the key "" is the value itself); nothing
#   typed and no ``base`` leaves the field out; then ``finish`` if the row has one;
# - a row with ``repeat``: a list of such entries (the add button adds one, at most
#   ``repeat``); an entry of one part with the key "" that is empty is "".
#
# Part values: number → int (or the text typed); text → the text, stripped; letter →
# the text, stripped and in capitals; choice → the option's value; flag → True/False.
#
# A value is put back into the controls the other way round (a line entry's fill):
# each part's value at its key; number, text, letter → its text (empty for none);
# choice → the option of that value (or of that value as text: "3" for 3), else the
# empty one; flag → ticked or not.
