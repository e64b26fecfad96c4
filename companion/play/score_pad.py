"""The score pad at the terminal: every value of the end count in one table, checked before saving.

The pad is drawn from the game's one description of it (:mod:`companion.kits.pad`):
rows are the fields, columns the players (by name, with a letter), like a paper
score pad; values for the whole table (a tour card, the board side) sit in a
second, smaller table. The web pad is drawn from the same description, so both
show the same rows, in the same order, with the same names and bounds. The
players read it, then press Enter to save or type a value's place (``B3``:
column B, row 3) to correct that one value.

Before the table is offered for saving, the score file it makes is checked by
the game's own cross-field checks and then by its scorer. Problems are listed
with the player and the field named, the values involved are marked, and only
those are asked again, each with its current value ready to keep; every other
answer stays as it is. When several values are marked, the players first say
which one is wrong (its place), and only that one is asked again (Enter asks
every marked value in turn).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.kits.pad import PadRow, PadSpec, cell_of, document, key
from companion.play.table import Refusal, Table
from companion.voice import question_for

MAX_ROUNDS = 1000


@dataclass
class Pad:
    """The rows of a game's end count and their values.

    Attributes:
        game: The game id.
        names: Player (or side) names, one column each.
        spec: The game's description of the pad.
        values: Cell key (``row.seat``, or ``row`` for a shared row) → the
            JSON value of its field.
        members: A team game's members of each side.
    """

    game: str
    names: list[str]
    spec: PadSpec
    values: dict[str, Any] = field(default_factory=dict)
    members: list[list[str]] | None = None

    @property
    def rows(self) -> list[PadRow]:
        """Every row, in the order shown."""
        return self.spec.rows

    @staticmethod
    def key(row: str, seat: int | None = None) -> str:
        """The cell key of ``row`` for ``seat``."""
        return key(row, seat)

    def get(self, row: str, seat: int | None = None) -> Any:
        """A cell's value (``None`` when not given)."""
        return self.values.get(key(row, seat))

    def put(self, row: str, seat: int | None, value: Any) -> None:
        """Set a cell's value."""
        self.values[key(row, seat)] = value

    def cells(self) -> list[tuple[PadRow, int | None]]:
        """Every cell, in the order the pad shows them."""
        return [(r, s) for r in self.spec.player_rows for s in range(len(self.names))] + [
            (r, None) for r in self.spec.shared_rows
        ]

    def numbered(self) -> tuple[list[PadRow], list[PadRow]]:
        """The player rows and the shared rows, numbered 1.. in that order."""
        return self.spec.player_rows, self.spec.shared_rows

    def name_of(self, cell: str) -> str:
        """``Ben · Shop 3`` (or the row's label for a shared row)."""
        row, seat = self.find(cell)
        return row.label if seat is None else f"{self.names[seat]} · {row.label}"

    def find(self, cell: str) -> tuple[PadRow, int | None]:
        """The row and seat of a cell key."""
        for row, seat in self.cells():
            if key(row.id, seat) == cell:
                return row, seat
        raise KeyError(cell)

    def document(self) -> dict[str, Any]:
        """The score file the pad holds."""
        return document(self.spec, self.game, self.names, self.values, members=self.members)

    def locate(self, path: str) -> str | None:
        """The cell a JSON path of the score file comes from (longest match)."""
        return cell_of(self.spec, len(self.names), path)

    def ask(self, t: Table, answer_key: str, cell: str) -> None:
        """Ask one cell again (its current value offered) and keep the answer."""
        row, seat = self.find(cell)
        who = row.label if seat is None else self.names[seat]
        self.values[cell] = ask_cell(
            t, answer_key, row, who, self.values.get(cell), seat, names=self.names
        )


def question(row: PadRow, who: str, seat: int | None = None) -> str:
    """The question for one cell: ``Aki: score track?``."""
    words = row.label
    if seat is not None and row.seat_words is not None:
        words = row.seat_words(seat)
    if row.shared:
        return f"{words}?"
    lowered = f"{words[:1].lower()}{words[1:]}"
    return f"{who}'s {lowered}?" if row.options else f"{who}: {lowered}?"


def ask_cell(
    t: Table,
    answer_key: str,
    row: PadRow,
    who: str,
    current: Any,
    seat: int | None = None,
    *,
    names: Sequence[str] = (),
) -> Any:
    """One cell's value, asked as the row says: a number, a choice or an entry code.

    A number or an entry code may also be said aloud (:mod:`companion.voice`): the
    grammar is the row's own (its bounds, its entry code) with the table's ``names``.
    """
    message = question(row, who, seat)
    table = list(names)
    if seat is not None and len(table) <= seat:
        table = [*table, *[""] * (seat + 1 - len(table))]
        table[seat] = who
    voice = question_for(row, table, seat) if t.phase == "scoring" else None
    if row.codec is not None:
        codec = row.codec

        def check(text: str) -> str | None:
            problem = codec.read(text)[1]
            if not problem or row.shared:
                return problem
            said = f"{who} · {problem}"  # whose value it is, as a refused row says
            return Refusal(said, problem.span) if isinstance(problem, Refusal) else said

        asked = message[:-1]
        hinted = (
            f"{asked[:-1]}; {codec.hint})" if asked.endswith(")") else f"{asked} ({codec.hint})"
        )
        text = t.text(
            answer_key,
            f"{hinted}?",
            check=check,
            default=codec.write(current) if current is not None else "",
            topic=row.topic,
            voice=voice,
        )
        return codec.read(text)[0]
    if row.options:
        # The empty choice is offered when it means something ("not said"), not a placeholder.
        shown = {
            value: words for words, value in row.options if value != "" or not words.endswith("…")
        }
        back = {words: value for value, words in shown.items()}
        answer = t.choose(
            answer_key,
            message,
            list(back),
            shown.get(current) if current else None,
            topic=row.topic,
        )
        return back[answer]
    if row.kind != "number":
        raise LookupError(f"{row.id}: a structured row needs an entry code (codec) at the terminal")
    return t.number(
        answer_key,
        message,
        low=row.low,
        high=row.high,
        default=current,
        topic=row.topic,
        voice=voice,
    )


def letters(count: int) -> str:
    """Column letters ``A``, ``B``, ..."""
    return "ABCDEFGH"[:count]


def render(pad: Pad, marks: Mapping[str, Sequence[str]], title: str) -> str:
    """The pad as text (rich table), marked cells flagged with ``!``."""
    from rich import box
    from rich.console import Console, Group
    from rich.table import Table as RichTable
    from rich.text import Text

    player_rows, shared = pad.numbered()
    grid = RichTable(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    grid.add_column("#", justify="right")
    grid.add_column("")
    for letter, name in zip(letters(len(pad.names)), pad.names, strict=True):
        grid.add_column(Text(f"{letter} {name}"), overflow="fold")

    def cell_text(cell: str, shown: str) -> Text:
        if cell in marks:
            return Text(f"{shown} !", style="bold red")
        return Text(shown)

    for number, row in enumerate(player_rows, 1):
        grid.add_row(
            str(number),
            Text(row.label),
            *(
                cell_text(key(row.id, s), row.shown(pad.get(row.id, s)))
                for s in range(len(pad.names))
            ),
        )
    parts: list[Any] = [Text(title, style="bold"), grid]
    if shared:
        # The rows for the whole table flow several to a line (``5 Card I: pink 4``), so
        # that on a 24-line terminal the players' rows stay in view above the question.
        items = [
            Text.assemble(f"{number} {row.label}: ", cell_text(row.id, row.shown(pad.get(row.id))))
            for number, row in enumerate(shared, len(player_rows) + 1)
        ]
        lines: list[Text] = [Text("For the whole table", style="bold")]
        current = Text()
        for item in items:
            if current.plain and len(current.plain) + 4 + len(item.plain) > _width():
                lines.append(current)
                current = Text()
            current = Text.assemble(current, "    " if current.plain else "", item)
        lines.append(current)
        parts.extend(lines)
    console = Console(width=_width(), highlight=False, color_system=None)
    with console.capture() as capture:
        console.print(Group(*parts))
    return "\n".join(line.rstrip() for line in capture.get().splitlines())


def _width() -> int:
    import shutil

    return max(60, min(shutil.get_terminal_size((100, 24)).columns, 140))


REF = re.compile(r"^\s*(?:([A-Ha-h])\s*(\d+)|(\d+)\s*([A-Ha-h])|(\d+))\s*$")


def parse_ref(pad: Pad, text: str) -> tuple[str | None, str | None]:
    """``(cell key, None)`` for ``B3``, ``3b``, ``Ben 3`` or ``12``; else ``(None, problem)``."""
    player_rows, shared = pad.numbered()
    total = len(player_rows) + len(shared)
    columns = letters(len(pad.names))
    words = text.split()
    if len(words) == 2 and not REF.match(text):
        by_name = {n.casefold(): k for k, n in enumerate(pad.names)}
        for who, row in (words, words[::-1]):
            if who.casefold() in by_name and row.isdigit():
                text = f"{columns[by_name[who.casefold()]]}{row}"
    match = REF.match(text)
    if not match:
        return None, "type a place like B3 (column letter, row number), or Enter to go on"
    letter = (match.group(1) or match.group(4) or "").upper()
    number = int(match.group(2) or match.group(3) or match.group(5))
    if not 1 <= number <= total:
        return None, f"no row {number}: rows 1 to {total}"
    if number > len(player_rows):
        return shared[number - len(player_rows) - 1].id, None
    if not letter:
        return None, f"row {number} has a value per player: add the column ({columns[0]}{number})"
    if letter not in columns:
        return None, f"no column {letter}: columns {columns[0]} to {columns[-1]}"
    return key(player_rows[number - 1].id, columns.index(letter)), None


def place_of(pad: Pad, cell: str) -> str:
    """A cell's place as the pad numbers it: ``B3``, or ``12`` for a shared row."""
    player_rows, shared = pad.numbered()
    row_id, _, seat = cell.rpartition(".")
    for number, row in enumerate(player_rows, 1):
        if row.id == row_id and seat.isdigit():
            return f"{letters(len(pad.names))[int(seat)]}{number}"
    for number, row in enumerate(shared, len(player_rows) + 1):
        if row.id == cell:
            return str(number)
    return cell


def ask_which(t: Table, answer_key: str, pad: Pad, marked: list[str]) -> list[str]:
    """Which of several marked values is wrong: that one, or every one on Enter."""
    places = {place_of(pad, cell): cell for cell in marked}

    def check(text: str) -> str | None:
        if not text:
            return None
        cell, problem = parse_ref(pad, text)
        if problem:
            return problem
        if cell not in marked:
            return f"not a marked value: type one of {', '.join(places)}, or Enter for all"
        return None

    answer = t.text(
        answer_key,
        f"Which marked value is wrong ({', '.join(places)})? Enter asks each of them again",
        check=check,
    )
    if not answer:
        return marked
    cell, _ = parse_ref(pad, answer)
    assert cell is not None
    return [cell]


def problems(pad: Pad, file: dict[str, Any]) -> list[tuple[str, list[str]]]:
    """What does not fit: the game's own cross-field checks first, else the scorer's.

    Each problem comes with the cells of the values involved.
    """
    from scorers import SCORERS, ScoreFileError

    found: list[tuple[str, list[str]]] = []
    if pad.spec.extra is not None:
        for message, paths in pad.spec.extra(file):
            cells = [c for c in (pad.locate(p) for p in paths) if c is not None]
            found.append((message, list(dict.fromkeys(cells))))
    if not found:
        try:
            SCORERS[pad.game].score_json(file)
        except ScoreFileError as error:
            for problem in error.problems:
                cell = pad.locate(problem.path)
                found.append((problem.message, [cell] if cell else []))
    return found


def totals_line(pad: Pad, file: dict[str, Any]) -> str:
    """``Totals: Aki 23, Ben 19`` for the pad's values as they stand."""
    from scorers import SCORERS

    try:
        players = SCORERS[pad.game].score_json(file).to_json()["players"]
    except (ValueError, KeyError, TypeError):  # not a file the scorer takes: no totals said
        return ""
    return "Totals: " + ", ".join(f"{p['name']} {p['total']}" for p in players)


def review(
    t: Table,
    pad: Pad,
    *,
    title: str = "Score pad",
    done: str = "save the game",
    totals: bool = False,
) -> dict[str, Any]:
    """Show the pad, fix what does not fit, let the players correct any value, then return.

    Args:
        t: The table.
        pad: The values of the first pass.
        title: Shown above the pad.
        done: What Enter does, in words.
        totals: Show each player's total below the pad (when its values fit),
            so the table sees them before Enter (a scoring mid-game).

    Returns:
        The score file the scorer accepts, once the players go on.
    """
    for step in range(1, MAX_ROUNDS):
        file = pad.document()
        found = problems(pad, file)
        marks: dict[str, list[str]] = {}
        for message, cells in found:
            for cell in cells:
                marks.setdefault(cell, []).append(message)
        # One block, so that a resumed game shows only the latest pad as its context.
        shown = ["", render(pad, marks, title)]
        if found:
            shown.append("These answers do not fit together:")
            for message, cells in found:
                named = ", ".join(pad.name_of(c) for c in cells)
                shown.append(f"  {named}: {message}" if named else f"  {message}")
        if marks:
            shown.append("The marked values are asked again (Enter keeps one as it is).")
        elif totals:
            shown.append(totals_line(pad, file))
        t.say("\n".join(shown), kind="pad")
        if marks:
            order = [key(r.id, s) for r, s in pad.cells()]
            marked = sorted(marks, key=order.index)
            which = f"fix{step}.which"
            if len(marked) > 1 and t.next_saved() in (None, which):
                marked = ask_which(t, which, pad, marked)
            for cell in marked:
                pad.ask(t, f"fix{step}.{cell}", cell)
            continue

        def check(text: str, blocked: bool = bool(found)) -> str | None:
            if not text:
                return (
                    "first change a value that does not fit (type its place)" if blocked else None
                )
            return parse_ref(pad, text)[1]

        answer = t.text(
            f"review{step}",
            f"Enter to {done}, or the place of a value to change (e.g. B3)?",
            check=check,
        )
        if not answer:
            return file
        chosen, _ = parse_ref(pad, answer)
        assert chosen is not None
        pad.ask(t, f"fix{step}.{chosen}", chosen)
    raise RuntimeError("the score pad was changed too many times")
