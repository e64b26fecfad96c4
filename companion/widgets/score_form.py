"""The score form, laid out like a paper score pad, checked by the scorer as it is typed.

One column per player with the name on top, one row per field, the totals
and ranks live at the bottom. Each problem the scorer reports is shown beside
the cell its path points to. A problem in a cell nobody has filled in yet
(a required cell still empty) is marked once someone leaves the cell or
presses Save. Save records the game once: it is disabled while saving, and
afterwards the form says "Saved as game #N" and offers a new game; a failed
save says why, beside the button.

A valid pad shows why the game is being won as it is typed; once saved, the
form shows why it was won and the records it set, read back from the history
by the same functions as the CLI. It saves, and says so, through
:mod:`companion.history.saving` as every other way of scoring does. Every
name and sentence is escaped: what players type is data, never markup.
"""

from __future__ import annotations

import functools
import html
import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import ipywidgets as w

from companion.kits import KITS, PadOptions
from companion.kits.pad import document as pad_document
from companion.kits.pad import key, pad_problems
from companion.widgets.cells import OMIT, Cell, ListCell, css_name, label
from companion.widgets.line_entry import LineEntries
from companion.widgets.pads import player_cells, shared_cells

if TYPE_CHECKING:
    from companion.history.after_game import AfterGame
    from companion.history.saving import Saved
    from companion.widgets.listen import Voice
    from scorers import Result

NO_START = -1
"""The start player's choice when nobody was noted."""
SaveHook = Callable[[dict[str, Any], dict[str, Any]], "Saved"]


def owner(path: str, fields: list[str]) -> str | None:
    """The field whose path is ``path`` or contains it."""
    best = None
    for candidate in fields:
        inside = path == candidate or path.startswith((candidate + ".", candidate + "["))
        if inside and (best is None or len(candidate) > len(best)):
            best = candidate
    return best


def is_missing(message: str) -> bool:
    """A problem that only says a value was not given yet."""
    return message.startswith("missing")


ALREADY = "This game is already saved"
HEARD_NOTE = "<div class='heard-note'>heard: check it</div>"
"""Said under a cell that voice filled until someone looks at it (screen readers too)."""


class ScoreForm:
    """A score pad for one game and player count.

    Args:
        game: The game id.
        players: How many columns (sides, for Shibuya).
        teams: Shibuya with four players in two teams.
        db: The history file (default: ``COMPANION_DB`` or the user's).
        names: The column headings and the names written into the score file;
            the page keeps them (names are typed once, at the top).
        members: Shibuya teams: each side's two people.
        voice: Show the Listen button beside the pad (the served page: its front end
            records; :mod:`companion.widgets.listen`).
    """

    def __init__(
        self,
        game: str,
        players: int,
        *,
        teams: bool = False,
        db: Path | None = None,
        names: list[str] | None = None,
        members: list[list[str]] | None = None,
        voice: bool = False,
    ) -> None:
        self.game = game
        self.db = db
        self.players = players
        self.teams = teams
        self.names = list(names or [f"Player {k + 1}" for k in range(players)])
        self.shown_names = list(self.names)  # the headings (a placeholder for a missing name)
        self.members = members
        self.name_problems: dict[int, str] = {}
        self.kit = KITS[game]
        self.spec = self.kit.pad(PadOptions(players, tuple(self.names), teams))
        self.shared = shared_cells(self.spec.shared_rows)
        self.rows: list[list[tuple[str, Cell]]] = [
            player_cells(self.spec.player_rows, seat) for seat in range(players)
        ]
        self.touched: set[str] = set()
        self.heard: set[str] = set()  # cells filled by voice that nobody has looked at yet
        self.hearing = False
        self.quiet = False
        # A kit's line entry (Shimoda's street in card codes): one more box per column,
        # a cell of the form (kept in the draft) that is never in the score file.
        self.lines: LineEntries | None = None
        if self.kit.line_entry is not None:
            self.lines = LineEntries(self.kit.line_entry, self)
        self.cells: dict[str, Cell] = {}
        self.keys: dict[str, str] = {}  # a cell's path → its key in the pad's description
        for row in self.spec.rows:
            for seat in [None] if row.shared else range(players):
                self.keys[row.path(seat)] = key(row.id, seat)
        for _, cell in self.shared:
            self.cells[cell.path] = cell
        for seat_rows in self.rows:
            for _, cell in seat_rows:
                if cell.path:
                    self.cells[cell.path] = cell
        self.saving = False
        self.saved_id: int | None = None
        self.saved_raw: dict[str, Any] = {}
        self.saved_start = NO_START
        self.on_save: SaveHook | None = None
        self.on_change: Callable[[], None] | None = None
        self.on_cell: Callable[[], None] | None = None  # a cell changed (not the start player)
        self.on_new_game: Callable[[], None] | None = None
        self.on_tried: Callable[[], None] | None = None
        self.start_choice = w.Dropdown(
            options=[("not noted", NO_START)], value=NO_START, tooltip="Start player"
        )
        self.start_choice.add_class("start-choice")
        self.start_choice.observe(lambda _: self._start_chosen(), names="value")
        self.summary = w.HTML()
        self.summary.add_class("summary")
        self.preview = w.HTML()
        self.status = w.HTML()
        self.status.add_class("save-status")
        self.save_button = w.Button(description="Save the game", button_style="success")
        self.save_button.add_class("save")
        self.save_button.on_click(self.save)
        self.new_button = w.Button(description="New game", layout=w.Layout(display="none"))
        self.new_button.add_class("new-game")
        self.new_button.on_click(lambda _: self.new_game())
        self.after = w.HTML()
        self.after.add_class("after-game")
        self.drawing = w.HTML()
        self.head_labels = [label() for _ in range(players)]
        self.total_labels = [label("–") for _ in range(players)]
        self.rank_labels = [label("") for _ in range(players)]
        for path, cell in self.cells.items():
            cell.observe(functools.partial(self._changed, path))
        self.voice: Voice | None = None
        if voice:
            from companion.widgets.listen import Voice

            self.voice = Voice(self)
        self.widget = self._layout()
        self.set_names(self.names, members)

    # layout --------------------------------------------------------------

    def _layout(self) -> w.VBox:
        shared = []
        for text, cell in self.shared:
            row = w.HBox([w.HTML(f"<b>{html.escape(text)}</b>"), cell.widget])
            row.add_class("shared-row")
            shared.append(row)
        children: list[w.Widget] = [self._corner("")]
        for head in self.head_labels:
            head.add_class("head")
            children.append(head)
        for index, (text, _) in enumerate(self.rows[0] if self.rows else []):
            children.append(self._corner(text))
            children += [self.rows[seat][index][1].widget for seat in range(self.players)]
        children.append(self._corner("Total", "total-label"))
        for total in self.total_labels:
            total.add_class("total")
            children.append(total)
        children.append(self._corner("Rank", "total-label"))
        for rank in self.rank_labels:
            rank.add_class("total")
            children.append(rank)
        # The label column and the columns' least width come from the style sheet's
        # variables where it sets them (narrower on a phone), these widths otherwise.
        label_width = self.kit.label_width
        width = self.kit.pad_width
        grid = w.GridBox(
            children,
            layout=w.Layout(
                grid_template_columns=f"minmax(6em, {label_width}) repeat({self.players}, "
                f"minmax(var(--companion-col, {width}), 1fr))",
                width="100%",
            ),
        )
        grid.add_class("grid")
        scroller = w.Box([grid])
        scroller.add_class("padscroll")
        buttons = w.HBox([self.save_button, self.new_button, self.status])
        buttons.add_class("save-row")
        start = w.HBox([w.HTML("<b>Start player</b>"), self.start_choice])
        start.add_class("shared-row")
        parts: list[w.Widget] = [*shared, start]
        if self.kit.drawing is not None:
            parts.append(self.drawing)
        if self.voice is not None:
            parts.append(self.voice.widget)
        parts += [scroller, self.summary, buttons, self.after, self.preview]
        box = w.VBox(parts)
        box.add_class("scorepad")
        box.add_class(f"pad-{self.game}")
        return box

    def _start_chosen(self) -> None:
        if self.quiet:
            return
        if self.saved_id is not None:
            self._refuse_after_save()
            return
        if self.on_change:
            self.on_change()

    @staticmethod
    def _corner(text: str, css: str = "rowlabel") -> w.HTML:
        corner = label(html.escape(text))
        corner.add_class(css)
        corner.add_class("rowlabel")
        return corner

    def set_names(
        self,
        names: list[str],
        members: list[list[str]] | None = None,
        shown: list[str] | None = None,
    ) -> None:
        """Write ``names`` into the score file and show ``shown`` (else ``names``) on top
        of the columns. Each heading and name is set once: every change of a widget is
        a message to every device at the table."""
        self.names = list(names)
        self.members = members
        headings = self.names if shown is None else list(shown)
        for head, name in zip(self.head_labels, headings, strict=False):
            head.value = f"<b>{html.escape(name)}</b>"
        self.name_cells(headings)
        if not self.quiet:
            self.check()

    def name_cells(self, shown: list[str]) -> None:
        """Give every control its accessible name: ``Aki: Score track`` (``shown``: the
        column headings, a placeholder where no name is typed yet)."""
        self.shown_names = list(shown)
        for text, cell in self.shared:
            cell.set_name(text)
        for seat, seat_rows in enumerate(self.rows):
            who = shown[seat] if seat < len(shown) and shown[seat].strip() else f"Player {seat + 1}"
            for text, cell in seat_rows:
                if cell.path:
                    cell.set_name(f"{who}: {text}")

    def set_start_people(self, people: list[str]) -> None:
        """Offer ``people`` (seat order) as the start player; the chosen seat stays."""
        options = [("not noted", NO_START), *((name, k) for k, name in enumerate(people))]
        if [tuple(o) for o in self.start_choice.options] == options:
            return
        seat = self.start_choice.value
        quiet, self.quiet = self.quiet, True
        try:
            self.start_choice.options = options
            self.start_choice.value = seat if -1 <= seat < len(people) else NO_START
        finally:
            self.quiet = quiet

    @property
    def start_player(self) -> int | None:
        """The seat chosen as the start player, if any."""
        seat = int(self.start_choice.value)
        return None if seat == NO_START else seat

    # values --------------------------------------------------------------

    def values(self) -> dict[str, Any]:
        """Each filled cell's JSON value, by its key in the pad's description."""
        found = {}
        for path, cell in self.cells.items():
            value = cell.value()
            if value is not OMIT and path in self.keys:
                found[self.keys[path]] = value
        return found

    def document(self, values: dict[str, Any] | None = None) -> dict[str, Any]:
        """The score file the form holds now (``values``: :meth:`values`, when read already)."""
        names = [self.names[seat] if seat < len(self.names) else "" for seat in range(self.players)]
        members = self.members if self.teams and self.members else None
        held = self.values() if values is None else values
        return pad_document(self.spec, self.game, names, held, members=members)

    def raw(self) -> dict[str, Any]:
        """What every cell holds, for the draft."""
        return {path: cell.raw() for path, cell in self.cells.items()}

    def restore(self, raw: dict[str, Any], touched: list[str] | None = None) -> None:
        """Put back :meth:`raw` (cells of seats that are gone are ignored)."""
        self.quiet = True
        try:
            for path, value in raw.items():
                if path in self.cells:
                    self.cells[path].restore(value)
            self.touched = {p for p in (touched or []) if p in self.cells}
        finally:
            self.quiet = False
        self.check()

    def problems(self) -> list[tuple[str, str]]:
        """``(path, message)`` for everything wrong, as the scorer says it."""
        from scorers import SCORERS, ScoreFileError

        values = self.values()
        found: list[tuple[str, str]] = []
        try:
            SCORERS[self.game].score_json(self.document(values))
        except ScoreFileError as error:
            found += [(p.path, p.message) for p in error.problems]
        return found + pad_problems(self.spec, self.players, values)

    def _refuse_after_save(self) -> None:
        """A change after Save: put the saved values back and say so (never dropped silently)."""
        self.quiet = True
        try:
            for path, raw in self.saved_raw.items():
                if path in self.cells:
                    self.cells[path].restore(raw)
            self.start_choice.value = self.saved_start
        finally:
            self.quiet = False
        if self.lines is not None:
            self.lines.show(self.shown_names)
        self.status.value = (
            f"<span class='problem'>Game #{self.saved_id} is saved: that change was not kept. "
            "Press New game for the next game, or change the saved one with "
            f"'companion history edit {self.saved_id}'.</span>"
        )

    def _changed(self, path: str) -> None:
        if self.quiet:
            return
        if self.saved_id is not None:
            self._refuse_after_save()
            return
        self.touched.add(path)
        if path in self.heard and not self.hearing:
            self._unmark(path)  # changed by hand: looked at
        if self.lines is not None:
            self.lines.changed(path)  # a line entry fills its cells, and back
        self.status.value = ""
        self.check()
        if self.on_cell:
            self.on_cell()
        if self.on_change:
            self.on_change()

    def check(self, *, tried: bool = False) -> list[tuple[str, str]]:
        """Show each problem beside its cell and the totals when there is none.

        Args:
            tried: Save was pressed: every problem is shown, empty cells too.
        """
        if tried:
            self.widget.add_class("tried")
            if self.on_tried is not None:
                self.on_tried()
        shown_all = tried or "tried" in self.widget._dom_classes
        found = self.problems()
        paths = list(self.cells)
        beside: dict[str, list[tuple[str, bool]]] = {}
        general: list[tuple[str, str]] = []
        unnamed = 0
        for path, message in found:
            if re.fullmatch(r"players\[\d+\]\.name", path) and "empty" in message:
                unnamed += 1  # shown beside the name at the top
                continue
            target = owner(path, paths)
            name_seat = re.fullmatch(r"players\[(\d+)\]\.(name|members.*)", path)
            if target is None or name_seat:
                general.append((path, message))
                continue
            where = "" if path == target else f"{path[len(target) :].lstrip('.')}: "
            pending = is_missing(message) and target not in self.touched
            beside.setdefault(target, []).append((where + message, pending))
        for path, cell in self.cells.items():
            messages = beside.get(path, [])
            note = HEARD_NOTE if path in self.heard else ""
            cell.message.value = note + "".join(
                f"<div class='{'pending' if pending else 'problem'}'>"
                f"{html.escape(text, quote=False)}</div>"
                for text, pending in messages
            )
            flagged = any(not pending for _, pending in messages)
            waiting = bool(messages) and not flagged
            for css, on in (("bad", flagged), ("waiting", waiting)):
                if on:
                    cell.widget.add_class(css)
                else:
                    cell.widget.remove_class(css)
        lines = [
            f"{self._place(path)}: {html.escape(message, quote=False)}" for path, message in general
        ]
        scored = None if found else self.scored()
        result = None if scored is None else scored.to_json()
        if found:
            visible = sum(
                1 for m in beside.values() for _, pending in m if shown_all or not pending
            )
            visible += len(general) + (unnamed if shown_all else 0)
            to_fill = len(found) - visible
            if shown_all and unnamed:
                lines.append(f"{unnamed} player name{'s' if unnamed != 1 else ''} to fill in")
            head = []
            if visible:
                head.append(f"{visible} thing{'s' if visible != 1 else ''} to fix")
            if to_fill:
                head.append(f"{to_fill} cell{'s' if to_fill != 1 else ''} to fill in")
            self.summary.value = (
                "<div class='problem'>"
                + ", ".join(head)
                + ".</div>"
                + "".join(f"<div class='problem'>{line}</div>" for line in lines)
            )
            self.preview.value = ""
        else:
            self.summary.value = "<div class='ok'>Every cell is filled in and valid.</div>"
            self.preview.value = result_html(result or {}, tie=scored.tie if scored else None)
            if self.saved_id is None and result is not None:
                self.preview.value += self._why(result)
        self._totals(result)
        self._columns(found)
        if self.kit.drawing is not None:
            self.drawing.value = self.kit.drawing(self.document(), self.shown_names)
        if self.lines is not None:
            self.lines.show(self.shown_names)
        return found

    # voice ---------------------------------------------------------------

    def fill_heard(self, values: dict[str, Any]) -> None:
        """Put values that voice heard in their cells (by path), each marked as heard."""
        self.hearing = True
        try:
            for path, value in values.items():
                cell = self.cells.get(path)
                if cell is None:
                    continue
                self.heard.add(path)
                cell.widget.add_class("heard")
                cell.put(value)
        finally:
            self.hearing = False
        self.check()

    def _unmark(self, path: str) -> None:
        self.heard.discard(path)
        if path in self.cells:
            self.cells[path].widget.remove_class("heard")

    def seen(self, path: str) -> None:
        """Someone looked at a heard cell: its mark goes."""
        if path in self.heard:
            self._unmark(path)
            self.check()

    def seen_css(self, name: str) -> None:
        """:meth:`seen` for the cell the page names by its CSS class."""
        for path in list(self.heard):
            if css_name(path) == name:
                self.seen(path)

    def _place(self, path: str) -> str:
        seat = re.match(r"players\[(\d+)\]", path)
        if seat and int(seat.group(1)) < len(self.names):
            rest = path[seat.end() :].lstrip(".")
            name = self.names[int(seat.group(1))]
            return html.escape(f"{name}{' (' + rest + ')' if rest else ''}")
        return html.escape(path)

    def open_columns(self, found: list[tuple[str, str]]) -> set[int]:
        """The columns with a cell still to fill in or fix (the names typed at the top
        and the cells of no one column left out): the others are valid."""
        seats = set()
        for path, _ in found:
            seat = re.match(r"players\[(\d+)\](?:$|\.(?!name$|members))", path)
            if seat:
                seats.add(int(seat.group(1)))
        return seats

    def _columns(self, found: list[tuple[str, str]]) -> None:
        """Each column's heading says whether the column is valid (``column-done``) or
        not yet (``column-open``): what "My column" lists as still being filled in."""
        open_seats = self.open_columns(found)
        for seat, head in enumerate(self.head_labels):
            done = seat not in open_seats
            head.add_class("column-done" if done else "column-open")
            head.remove_class("column-open" if done else "column-done")

    def _totals(self, result: dict[str, Any] | None) -> None:
        for seat in range(self.players):
            if result is None:
                self.total_labels[seat].value = "–"
                self.rank_labels[seat].value = ""
            else:
                player = result["players"][seat]
                self.total_labels[seat].value = f"<b>{player['total']}</b>"
                self.rank_labels[seat].value = str(player["rank"])

    def _why(self, result: dict[str, Any]) -> str:
        """Why the game is being won, as ``companion score`` says it for this pad."""
        import json

        from companion.analysis.explain import explain_result

        return sentences_html(explain_result(result, json.dumps(self.document())), "why")

    def scored(self) -> Result:
        """The scorer's result of a valid form, with the tie its tie-break broke."""
        from scorers import SCORERS

        return SCORERS[self.game].score_json(self.document())

    def result(self) -> dict[str, Any]:
        """The scored result of a valid form."""
        return self.scored().to_json()

    # saving --------------------------------------------------------------

    def save(self, _: Any = None) -> int | None:
        """Record the game once; returns its number (the same one on a second tap)."""
        if self.saved_id is not None and ALREADY not in self.status.value:
            # Save pressed on another device (or a second tap): nothing more is recorded.
            note = f"{ALREADY} as game #{self.saved_id}: nothing more recorded."
            self.status.value += f" <span class='note'>{note}</span>"
        if self.saved_id is not None or self.saving:
            return self.saved_id
        self.saving = True
        self.save_button.disabled = True
        self.save_button.description = "Saving…"
        try:
            if self.check(tried=True):
                self.status.value = (
                    "<span class='problem'>Not saved: fix the cells marked in red first.</span>"
                )
                return None
            saved = self._record()
        except Exception as error:  # every failure is said beside the button
            self.status.value = (
                f"<span class='problem'>Not saved: {html.escape(reason(error), quote=False)}</span>"
            )
            return None
        finally:
            self.saving = False
            if self.saved_id is None:
                self.save_button.disabled = False
                self.save_button.description = "Save the game"
        assert saved.play_id is not None
        self.saved_id = saved.play_id
        self.saved_raw = self.raw()
        self.saved_start = int(self.start_choice.value)
        self.lock(True)
        self.save_button.layout.display = "none"
        self.new_button.layout.display = ""
        headline, note = saved.page_message()
        self.status.value = (
            f"<b class='saved result-focus' tabindex='-1'>{html.escape(headline, quote=False)}</b>"
            + (f" {html.escape(note, quote=False)}" if note else "")
        )
        self.show_after(saved)
        return saved.play_id

    def show_after(self, saved: Saved) -> None:
        """Why the saved game was won and the records it set, read back from the history."""
        from companion.history.errors import HistoryError
        from companion.history.saving import after_saving, after_unread
        from companion.widgets.drafts import reading

        try:
            with reading(self.db) as history:
                after = after_saving(history, saved)
        except HistoryError as error:
            self.after.value = problem_line(after_unread(error))
            return
        scored = self.scored()
        self.preview.value = result_html(scored.to_json(), tie=scored.tie)
        self.after.value = after_html(after)

    def _record(self) -> Saved:
        import json

        document = self.document()
        result = self.result()
        if self.on_save is not None:
            return self.on_save(document, result)
        from companion.history.saving import save_game
        from companion.history.store import History, default_path

        with History(self.db or default_path()) as history:
            return save_game(
                history, self.game, json.dumps(document, indent=2), result, after=False
            )

    def lock(self, locked: bool) -> None:
        """Disable every control once the game is saved (and enable them for the next)."""
        for cell in self.cells.values():
            for control in cell.widgets():
                control.disabled = locked
            if isinstance(cell, ListCell):
                cell.add_button.disabled = locked or len(cell.items) >= cell.limit
                for row in cell.rows:
                    row.children[-1].disabled = locked
        self.start_choice.disabled = locked

    def new_game(self) -> None:
        """Empty the pad for the next game (the names stay)."""
        if self.on_new_game is not None:
            self.on_new_game()
            return
        self.clear()

    def clear(self) -> None:
        """Every cell back to empty; Save offered again."""
        self.quiet = True
        try:
            for cell in self.cells.values():
                cell.reset()
            self.start_choice.value = NO_START
        finally:
            self.quiet = False
        self.touched = set()
        for path in list(self.heard):
            self._unmark(path)
        self.saved_id = None
        self.lock(False)
        self.widget.remove_class("tried")
        self.save_button.layout.display = ""
        self.save_button.disabled = False
        self.save_button.description = "Save the game"
        self.new_button.layout.display = "none"
        self.status.value = ""
        self.after.value = ""
        self.check()


def reason(error: BaseException) -> str:
    """Why a save failed, in a player's words."""
    if isinstance(error, OverflowError):
        return "a number is too large to store in the history (at most 9223372036854775807)"
    text = str(error) or type(error).__name__
    return text[0].lower() + text[1:] if text else text


def shown(value: Any) -> str:
    """A value of a stored result as escaped text (``–`` for none)."""
    return "–" if value is None else html.escape(str(value))


def scroller(name: str, inner: str) -> str:
    """``inner`` (a table) in a box that scrolls sideways where it does not fit.

    The box is a named region that the keyboard reaches (its arrow keys then
    scroll it), and its edges are shaded while more of it lies beyond them.
    """
    label = html.escape(f"{name}: a table, scroll sideways when it does not fit", quote=True)
    return f"<div class='tablescroll' role='region' tabindex='0' aria-label='{label}'>{inner}</div>"


def result_html(result: dict[str, Any], *, tie: str | None = None) -> str:
    """The breakdown table, a bar chart of the totals, and the winner.

    Every name and value is escaped: a result read back from the history may
    come from an import, with seats that were not scored (``total`` None).
    ``tie`` (``Result.tie``) names the values that broke a tie, as the terminal
    says them: ``Winner: Ann (tie on 42 broken by most war chests: Ann 3, Ben 1).``
    """
    from companion.terminal.results import outcome

    players = [p for p in result.get("players", []) if isinstance(p, dict)]
    if not players:
        return ""
    categories: list[str] = []
    for p in players:
        breakdown = p.get("breakdown") or {}
        categories.extend(str(c) for c in breakdown if str(c) not in categories)
    # Every value has its headers: the player above it, the category before it.
    head = "".join(f"<th scope='col'>{shown(p.get('name'))}</th>" for p in players)
    rows = "".join(
        f"<tr><th scope='row'>{html.escape(c.replace('_', ' '))}</th>"
        + "".join(
            f"<td class='n'>{shown((p.get('breakdown') or {}).get(c, 0))}</td>" for p in players
        )
        + "</tr>"
        for c in categories
    )
    totals = "".join(f"<td class='n'><b>{shown(p.get('total'))}</b></td>" for p in players)
    ranks = "".join(f"<td class='n'>{shown(p.get('rank'))}</td>" for p in players)
    table = scroller(
        "Points per category",
        f"<table class='breakdown'><tr><td></td>{head}</tr>{rows}"
        f"<tr><th scope='row'><b>Total</b></th>{totals}</tr>"
        f"<tr><th scope='row'>Rank</th>{ranks}</tr></table>",
    )
    numbers: list[int] = [int(p["total"]) if type(p.get("total")) is int else 0 for p in players]
    top = max(max(numbers), 1)
    bars = "".join(
        "<div class='bar'>"
        f"<span class='bar-name'>{shown(p.get('name'))}</span>"
        f"<span class='bar-track'><span class='bar-fill' "
        f"style='width:{max(0, 100 * n // top)}%'></span></span>"
        f"<span class='bar-value'>{shown(p.get('total'))}</span></div>"
        for p, n in zip(players, numbers, strict=True)
    )
    try:
        winner = html.escape(outcome(result, tie=tie))
    except (KeyError, TypeError):
        winner = ""
    return f"{table}<div class='bars'>{bars}</div><p class='winner'><b>{winner}</b></p>"


def problem_line(text: str) -> str:
    """One plain line saying what went wrong (escaped), never a traceback."""
    return f"<div class='problem'>{html.escape(text, quote=False)}</div>"


def sentences_html(sentences: list[str], css: str) -> str:
    """Sentences as escaped paragraphs in a ``div`` of class ``css`` (empty without any)."""
    if not sentences:
        return ""
    body = "".join(f"<p>{html.escape(s, quote=False)}</p>" for s in sentences)
    return f"<div class='{css}'>{body}</div>"


def after_html(after: AfterGame) -> str:
    """Why a saved game was won, the records it set, its time and its place."""
    from companion.analysis.clock import duration_text, round_texts

    parts = []
    if after.explanation:
        parts.append("<h4>Why it was won</h4>" + sentences_html(after.explanation, "why"))
    if after.records:
        parts.append("<h4>Records</h4>" + sentences_html(after.records, "records-set"))
    about = []
    if after.timing is not None and after.timing.seconds:
        about.append(f"Time at the table: {duration_text(after.timing.seconds)} (pauses left out).")
        if after.timing.rounds:
            about.append("Rounds: " + ", ".join(round_texts(after.timing.rounds)) + ".")
    if after.location:
        about.append(f"Location: {after.location}")
    parts.append(sentences_html(about, "about"))
    return "".join(parts)
