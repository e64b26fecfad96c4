"""The score form: one input per score-file field, checked as it is typed.

The scorer itself checks the form: each problem it reports is shown beside
the field its path points to, and Save stays disabled while there is any.
Saving writes one record to the same history as the command line
(``COMPANION_DB`` is respected), in one transaction.
"""

from __future__ import annotations

import html
import json
import re
from itertools import pairwise
from pathlib import Path
from typing import Any

import ipywidgets as w

from companion.widgets.fields import OMIT, Field, player_fields, shared_fields

TOKEN = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


def set_path(document: dict[str, Any], path: str, value: Any) -> None:
    """Put ``value`` at ``path`` (``players[0].street[2].chairs``), creating what is missing."""
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
        node[last] = value
    else:
        node[last] = value


def owner(path: str, fields: list[str]) -> str | None:
    """The field whose path is ``path`` or contains it."""
    best = None
    for candidate in fields:
        inside = path == candidate or path.startswith((candidate + ".", candidate + "["))
        if inside and (best is None or len(candidate) > len(best)):
            best = candidate
    return best


class ScoreForm:
    """A score form for one game and player count.

    Args:
        game: The game id.
        players: How many players (sides, for Shibuya).
        teams: Shibuya with four players in two teams.
        db: The history file (default: ``COMPANION_DB`` or the user's).
    """

    def __init__(self, game: str, players: int, *, teams: bool = False, db: Path | None = None):
        self.game = game
        self.db = db
        self.fields: list[Field] = shared_fields(game)
        for seat in range(players):
            self.fields += player_fields(game, seat, teams=teams)
        self.inputs: dict[str, w.ValueWidget] = {}
        self.messages: dict[str, w.HTML] = {}
        self.touched: set[str] = set()
        self.summary = w.HTML()
        self.preview = w.HTML()
        self.saved = w.HTML()
        self.save_button = w.Button(description="Save", disabled=True, button_style="success")
        self.save_button.on_click(self.save)
        self.widget = self._layout(players)
        self.check()

    def _input(self, field: Field) -> w.Widget:
        style = {"description_width": "initial"}
        if field.kind == "choice":
            widget: w.ValueWidget = w.Dropdown(
                options=field.options,
                value=field.options[0],
                description=field.label,
                style=style,
            )
        elif field.kind == "check":
            widget = w.Checkbox(value=bool(field.default), description=field.label)
        else:
            widget = w.Text(
                value=str(field.default),
                description=field.label,
                style=style,
                continuous_update=True,
            )
        widget.add_class("f-" + re.sub(r"[^a-z0-9]+", "-", field.path.lower()).strip("-"))
        message = w.HTML()
        message.add_class("problem")
        self.inputs[field.path] = widget
        self.messages[field.path] = message

        def changed(_: Any, path: str = field.path) -> None:
            self.touched.add(path)
            self.saved.value = ""
            self.check()

        widget.observe(changed, names="value")
        return w.HBox([widget, message])

    def _layout(self, players: int) -> w.VBox:
        shared = [self._input(f) for f in self.fields if not f.path.startswith("players[")]
        groups = []
        for seat in range(players):
            prefix = f"players[{seat}]"
            rows = [self._input(f) for f in self.fields if f.path.startswith(prefix + ".")]
            groups.append(w.VBox([w.HTML(f"<b>Player {seat + 1}</b>"), *rows]))
        return w.VBox([*shared, *groups, self.summary, self.save_button, self.saved, self.preview])

    def document(self) -> dict[str, Any]:
        """The score file the form holds now."""
        document: dict[str, Any] = {"game": self.game}
        for field in self.fields:
            raw = self.inputs[field.path].value
            value = field.convert(raw) if field.convert else raw
            if value is not OMIT:
                set_path(document, field.path, value)
        return document

    def problems(self) -> list[tuple[str, str]]:
        """``(path, message)`` for everything wrong, as the scorer says it."""
        from scorers import SCORERS, ScoreFileError

        try:
            SCORERS[self.game].score_json(self.document())
        except ScoreFileError as error:
            return [(p.path, p.message) for p in error.problems]
        return []

    def check(self) -> list[tuple[str, str]]:
        """Show each problem beside its field; enable Save only when there is none."""
        found = self.problems()
        paths = list(self.inputs)
        beside: dict[str, list[str]] = {}
        general = []
        for path, message in found:
            target = owner(path, paths)
            if target is None:
                general.append(f"{path}: {message}")
            else:
                where = "" if path == target else f"{path[len(target) :].lstrip('.')}: "
                beside.setdefault(target, []).append(where + message)
        for path, label in self.messages.items():
            shown = beside.get(path, []) if path in self.touched else []
            label.value = "".join(
                f"<span style='color:#b00'>{html.escape(m, quote=False)}</span><br>" for m in shown
            )
        self.save_button.disabled = bool(found)
        if found:
            self.summary.value = (
                f"<span style='color:#b00'>{len(found)} thing(s) to fix before saving.</span>"
                + "".join(f"<br>{html.escape(g, quote=False)}" for g in general)
            )
            self.preview.value = ""
        else:
            self.summary.value = "All fields are valid."
            self.preview.value = result_html(self.result())
        return found

    def result(self) -> dict[str, Any]:
        """The scored result of a valid form."""
        from scorers import SCORERS

        return SCORERS[self.game].score_json(self.document()).to_json()

    def save(self, _: Any = None) -> int | None:
        """Record the game, if the form is valid; returns the new record's id."""
        from companion.history import History, default_path

        if self.check():
            self.saved.value = "Nothing was saved: fix the fields first."
            return None
        document = self.document()
        result = self.result()
        with History(self.db or default_path()) as history:
            play_id = history.record(
                game=self.game, score_file=json.dumps(document, indent=2), result=result
            )
        self.saved.value = f"<b>Saved to the history as game #{play_id}.</b>"
        return play_id


def result_html(result: dict[str, Any]) -> str:
    """The breakdown table, a bar chart of the totals, and the winner."""
    from companion.render import outcome

    players = result["players"]
    categories: list[str] = []
    for p in players:
        categories.extend(c for c in p["breakdown"] if c not in categories)
    head = "".join(f"<th>{html.escape(p['name'])}</th>" for p in players)
    rows = "".join(
        f"<tr><td>{html.escape(c.replace('_', ' '))}</td>"
        + "".join(f"<td align='right'>{p['breakdown'].get(c, 0)}</td>" for p in players)
        + "</tr>"
        for c in categories
    )
    totals = "".join(f"<td align='right'><b>{p['total']}</b></td>" for p in players)
    ranks = "".join(f"<td align='right'>{p['rank']}</td>" for p in players)
    table = (
        f"<table class='breakdown'><tr><th></th>{head}</tr>{rows}"
        f"<tr><td><b>Total</b></td>{totals}</tr><tr><td>Rank</td>{ranks}</tr></table>"
    )
    top = max(p["total"] for p in players) or 1
    bars = "".join(
        f"<div style='display:flex;align-items:center;margin:2px 0'>"
        f"<span style='width:8em'>{html.escape(p['name'])}</span>"
        f"<span style='background:#4a7;height:1em;width:{300 * p['total'] // top}px'></span>"
        f"<span style='margin-left:4px'>{p['total']}</span></div>"
        for p in players
    )
    winner = html.escape(outcome(result))
    return f"{table}<div class='bars'>{bars}</div><p class='winner'><b>{winner}</b></p>"
