"""The cells of the score pad: one control (or a few) for one place in the score file.

A :class:`Cell` knows the JSON path it fills (``players[0].journey``), turns
what was typed into the JSON value, and gives back or takes the raw values
for the draft. Conversions never refuse: a value that is not a number stays
text, so the scorer's own check reports it at that path, beside the cell,
with the same words as ``companion score``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from contextlib import suppress
from typing import Any

import ipywidgets as w
from ipywidgets.widgets.widget_description import DescriptionStyle
from ipywidgets.widgets.widget_string import HTMLStyle, TextStyle

OMIT = object()  # a value that leaves the key out of the score file
Unbuild = Callable[[Any, bool], dict[str, Any]]
"""A value and ``partial`` → the raw values of a cell's controls that build it."""
MAX_TEXT = 200  # the most characters a cell keeps (a hostile paste is cut, not stored)
MAX_ITEMS = 16  # the most entries of a list cell


_LAYOUTS: dict[str, w.Layout] = {}
_STYLES: dict[type, w.Widget] = {}


def shared_layout(width: str = "") -> w.Layout:
    """One layout model for every widget of that width (never change it in place).

    Each widget otherwise brings a layout (and a style) model of its own, and
    the page sends every model to the browser: sharing halves the page's load.
    """
    if width not in _LAYOUTS:
        _LAYOUTS[width] = w.Layout(width=width) if width else w.Layout()
    return _LAYOUTS[width]


def shared_style(kind: type) -> Any:
    """One style model per kind of widget (never change it in place)."""
    if kind not in _STYLES:
        _STYLES[kind] = kind()
    return _STYLES[kind]


def is_shared(model: object) -> bool:
    """True for a layout or style that many widgets use (never to be closed)."""
    return any(model is m for m in (*_LAYOUTS.values(), *_STYLES.values()))


def label(value: str = "") -> w.HTML:
    """An HTML text that shares its layout and style models."""
    return w.HTML(value, layout=shared_layout(), style=shared_style(HTMLStyle))


def vbox(children: list[w.Widget]) -> w.VBox:
    """A column that shares its layout model."""
    return w.VBox(children, layout=shared_layout())


def hbox(children: list[w.Widget]) -> w.HBox:
    """A row that shares its layout model."""
    return w.HBox(children, layout=shared_layout())


def css_name(path: str) -> str:
    """The CSS class of a cell: ``players[0].street[2].card`` → ``c-players-0-street-2-card``."""
    return "c-" + re.sub(r"[^a-z0-9]+", "-", path.lower()).strip("-")


def number(text: Any) -> Any:
    """A whole number, or the text itself for the scorer to report (empty: left out)."""
    cleaned = str(text).strip()
    if not cleaned:
        return OMIT
    if cleaned.lstrip("-").isdigit():
        return int(cleaned)
    return cleaned


def text_input(
    width: str, *, numeric: bool = False, placeholder: str = "", own_layout: bool = False
) -> w.Text:
    """A text box at least 44 px tall; ``numeric`` ones bring up the number keyboard.

    Args:
        own_layout: The box is shown and hidden (its layout changes).
    """
    box = w.Text(
        value="",
        placeholder=placeholder,
        continuous_update=True,
        layout=w.Layout(width=width) if own_layout else shared_layout(width),
        style=shared_style(TextStyle),
    )
    box.add_class("num" if numeric else "txt")
    return box


def choice(options: list[tuple[str, str]], width: str, *, own_layout: bool = False) -> w.Dropdown:
    """A dropdown of ``(label, value)`` pairs; the first is the default."""
    layout = w.Layout(width=width) if own_layout else shared_layout(width)
    return w.Dropdown(
        options=options,
        value=options[0][1],
        layout=layout,
        style=shared_style(DescriptionStyle),
    )


def clip(text: Any) -> str:
    """At most :data:`MAX_TEXT` characters of a typed value."""
    return str(text)[:MAX_TEXT]


class Cell:
    """One cell of the pad: its controls, a message line and its JSON value.

    Args:
        path: Where the value goes in the score file.
        controls: ``{key: widget}``; the raw value is ``{key: widget.value}``.
        build: Turns the raw values into the JSON value (or :data:`OMIT`).
        css: Extra CSS class of the cell.
        unbuild: The other way round: the raw values that build a JSON value, given
            the value and whether only the parts it holds are meant (``None``: the
            cell cannot be :meth:`put`).
    """

    def __init__(
        self,
        path: str,
        controls: dict[str, w.ValueWidget],
        build: Callable[[dict[str, Any]], Any],
        css: str = "",
        unbuild: Unbuild | None = None,
    ) -> None:
        self.path = path
        self.controls = controls
        self.build = build
        self.unbuild = unbuild
        self.message = label()
        self.message.add_class("message")
        self.box = hbox(list(controls.values()))
        self.box.add_class("controls")
        self.widget = vbox([self.box, self.message])
        self.widget.add_class("cell")
        if path:
            self.widget.add_class(css_name(path))
        for name in css.split():  # one class at a time: a browser refuses "a b"
            self.widget.add_class(name)
        self.defaults = self.raw()
        self.parts: dict[str, str] = {}  # what each control is called after the field's name
        self.name = ""

    def set_name(self, name: str) -> None:
        """Name the cell's controls for screen readers: ``Aki: Score track``.

        A cell of one control is called ``name``; each control of a cell of
        several gets its part's name after it (``Aki: Brown castles``).
        """
        self.name = name
        if len(self.controls) == 1:
            for control in self.controls.values():
                control.tooltip = name
            return
        for key, control in self.controls.items():
            control.tooltip = f"{name} {self.parts.get(key, key)}"

    def raw(self) -> Any:
        """What was typed or chosen, for the draft."""
        return {key: control.value for key, control in self.controls.items()}

    def restore(self, raw: Any) -> None:
        """Put back what :meth:`raw` gave (unknown keys and bad values are ignored)."""
        if not isinstance(raw, dict):
            return
        for key, value in raw.items():
            control = self.controls.get(key)
            if control is None:
                continue
            try:
                text = isinstance(control, (w.Text, w.Textarea))
                control.value = clip(value) if text else value
            except Exception:  # a value from an older draft that no longer fits
                continue

    def reset(self) -> None:
        """Back to the starting values."""
        self.restore(self.defaults)

    def value(self) -> Any:
        """The JSON value (or :data:`OMIT`)."""
        return self.build({k: v for k, v in self.raw().items()})

    def put(self, value: Any, partial: bool = False) -> None:
        """Show ``value`` in the controls, as if it were chosen there (the cell's
        :meth:`value` is ``value`` afterwards).

        Args:
            value: A JSON value of the cell's field.
            partial: Only the parts ``value`` holds change (a space's chairs: its
                tourists stay).

        Raises:
            TypeError: The cell was made without ``unbuild``.
        """
        if self.unbuild is None:
            raise TypeError(f"{self.path}: this cell cannot be put")
        self.restore(self.unbuild(value, partial))

    def observe(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` whenever a control changes."""
        for control in self.controls.values():
            control.observe(lambda _: callback(), names="value")

    def widgets(self) -> list[w.ValueWidget]:
        """Every control, for tests."""
        return list(self.controls.values())


class ListCell(Cell):
    """A list you add entries to (site coins, tour cards, tickets...).

    Args:
        path: Where the list goes.
        make_item: Builds the controls of one entry.
        build_item: Turns one entry's raw values into its JSON value.
        add_label: The text of the add button.
        limit: The most entries.
        css: Extra CSS class of the cell.
        unbuild_item: The raw values of one entry from its JSON value (for :meth:`put`).
    """

    def __init__(
        self,
        path: str,
        make_item: Callable[[], dict[str, w.ValueWidget]],
        build_item: Callable[[dict[str, Any]], Any],
        add_label: str,
        limit: int = MAX_ITEMS,
        css: str = "",
        unbuild_item: Unbuild | None = None,
    ) -> None:
        self.make_item = make_item
        self.build_item = build_item
        self.unbuild_item = unbuild_item
        self.limit = min(limit, MAX_ITEMS)
        self.items: list[dict[str, w.ValueWidget]] = []
        self.rows: list[w.HBox] = []
        self.callbacks: list[Callable[[], None]] = []
        self.add_button = w.Button(description=add_label, layout=w.Layout(width="auto"))
        self.add_button.add_class("add")
        self.add_button.on_click(lambda _: self.add())
        self.list_box = w.VBox()
        self.list_box.add_class("items")
        super().__init__(path, {}, lambda raw: raw, css="list " + css)
        self.box.children = [w.VBox([self.list_box, self.add_button])]
        self.defaults = []

    def add(self, raw: dict[str, Any] | None = None, *, notify: bool = True) -> None:
        """Add an entry (with ``raw`` values, or empty)."""
        if len(self.items) >= self.limit:
            return
        controls = self.make_item()
        remove = w.Button(description="✕", tooltip="Remove", layout=w.Layout(width="44px"))
        remove.add_class("remove")
        row = hbox([*controls.values(), remove])
        row.add_class("item")
        self.items.append(controls)
        self.rows.append(row)
        remove.on_click(lambda _: self.remove(self.rows.index(row)))
        if raw:
            for key, value in raw.items():
                if key in controls:
                    with suppress(Exception):  # a value from an older draft that no longer fits
                        controls[key].value = value
        for control in controls.values():
            control.observe(lambda _: self._changed(), names="value")
        self.list_box.children = list(self.rows)
        self.add_button.disabled = len(self.items) >= self.limit
        self._name_items()
        if notify:
            self._changed()

    def set_name(self, name: str) -> None:
        """Name each entry's controls: ``Aki: Site coins 1 circle``."""
        self.name = name
        # The name starts with the words on the button (what a voice user says).
        self.add_button.tooltip = f"{self.add_button.description} ({name})"
        self._name_items()

    def _name_items(self) -> None:
        if not self.name:
            return
        for number, (controls, row) in enumerate(zip(self.items, self.rows, strict=True), 1):
            for key, control in controls.items():
                part = self.parts.get(key, key)
                control.tooltip = f"{self.name} {number}" + (
                    f" {part}" if len(controls) > 1 else ""
                )
            row.children[-1].tooltip = f"Remove {self.name} {number}"

    def remove(self, index: int) -> None:
        """Take entry ``index`` out."""
        del self.items[index]
        row = self.rows.pop(index)
        self.list_box.children = list(self.rows)
        row.close()
        self.add_button.disabled = False
        self._name_items()
        self._changed()

    def _changed(self) -> None:
        for callback in self.callbacks:
            callback()

    def raw(self) -> Any:
        return [{k: c.value for k, c in item.items()} for item in self.items]

    def restore(self, raw: Any) -> None:
        if not isinstance(raw, list):
            return
        while self.items:
            del self.items[-1]
            self.rows.pop().close()
        self.list_box.children = []
        for entry in raw[: self.limit]:
            self.add(entry if isinstance(entry, dict) else None, notify=False)
        self.add_button.disabled = len(self.items) >= self.limit
        self._changed()

    def value(self) -> Any:
        return [self.build_item(entry) for entry in self.raw()]

    def put(self, value: Any, partial: bool = False) -> None:
        """One entry per item of the list ``value`` (``partial`` does not apply to a list)."""
        if self.unbuild_item is None:
            raise TypeError(f"{self.path}: this cell cannot be put")
        items = value if isinstance(value, list) else []
        self.restore([self.unbuild_item(item, False) for item in items])

    def observe(self, callback: Callable[[], None]) -> None:
        self.callbacks.append(callback)

    def widgets(self) -> list[w.ValueWidget]:
        return [c for item in self.items for c in item.values()]
