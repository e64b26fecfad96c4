"""One game's page: names typed once, the set-up, the round tracker and the score pad.

The names at the top flow into the set-up draws, the tracker and the score
pad's column headings. Everything typed is kept as a draft in the history
database (a session of kind ``web``) at every change, so a reload brings the
game back; changing the player count keeps what was entered for the seats
that remain.
"""

from __future__ import annotations

import html
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

import ipywidgets as w

from companion.kits import KITS
from companion.play.setup import PLAYER_COUNTS
from companion.widgets.cells import is_shared
from companion.widgets.drafts import Drafts
from companion.widgets.helpers import TableHelpers
from companion.widgets.score_form import ScoreForm
from companion.widgets.setup import SetupPanel
from companion.widgets.style import style
from companion.widgets.throttle import Throttle
from companion.widgets.tracker import Tracker
from scorers import GAME_IDS, SCORERS, short_title, title
from scorers.names import name_key, name_problem

if TYPE_CHECKING:
    from companion.history.saving import Saved

PAGES = GAME_IDS  # a page per registered game
CLASH_SECONDS = 30.0  # two devices changing one cell within this are told of it


def sender() -> tuple[str | None, str]:
    """The device whose message the kernel is handling now: its session and its player.

    The session is one per device's page; the player is the seat the device
    picked as its own column ("My column"), which our page sends in every
    message's metadata, or ``""`` when it picked none.
    """
    try:
        from ipykernel.kernelbase import Kernel

        if not Kernel.initialized():
            return None, ""
        parent = Kernel.instance().get_parent()  # type: ignore[no-untyped-call]
    except Exception:  # not in a kernel (tests, a script): no device to name
        return None, ""
    header = parent.get("header", {}) if isinstance(parent, dict) else {}
    metadata = parent.get("metadata", {}) if isinstance(parent, dict) else {}
    session = header.get("session")
    # Our page's own field: JupyterLab's tabs send their user's name as the user name.
    player = metadata.get("companion_player") if isinstance(metadata, dict) else None
    return (
        session if isinstance(session, str) and session else None,
        player if isinstance(player, str) else "",
    )


class Devices:
    """The devices on one game's page: by their player, else numbered as they first change."""

    def __init__(self) -> None:
        self.sessions: dict[str, str] = {}

    def name(self, session: str | None, player: str = "") -> str:
        """``Aki's device`` when it picked Aki's column, else ``device 1``, ``device 2``…

        ``this device`` outside a served page. The player's name comes from
        the device: it is cleaned by the name rule, and one it refuses is not
        used.
        """
        if session is None:
            return "this device"
        if session not in self.sessions:
            self.sessions[session] = f"device {len(self.sessions) + 1}"
        if player:
            from scorers.names import InvalidName, clean_name

            try:
                return f"{clean_name(player)}'s device"
            except InvalidName:
                pass
        return self.sessions[session]


def navigation(current: str) -> w.HTML:
    """Links to the other pages (relative, so they work wherever the pages are served)."""
    links = []
    for page in (*KITS.ready(), "history"):
        label = "History" if page == "history" else short_title(page)
        if page == current:
            links.append(f"<b>{html.escape(label)}</b>")
        else:
            links.append(f"<a href='{page}.ipynb'>{html.escape(label)}</a>")
    # A visible separator: a space alone vanishes between the items of a flex row.
    nav = w.HTML("<span class='sep'> · </span>".join(links))
    nav.add_class("nav")
    return nav


def in_jupyterlab() -> bool:
    """True in a notebook kernel that Voilà did not start (JupyterLab, Notebook)."""
    if any(name in os.environ for name in ("VOILA_BASE_URL", "VOILA_KERNEL_ID")):
        return False
    try:
        from IPython import get_ipython
    except ImportError:
        return False
    shell = get_ipython()
    return shell is not None and getattr(shell, "kernel", None) is not None


def links_as_output(nav: w.HTML) -> None:
    """In JupyterLab: the links as the cell's own HTML output, shown above the page.

    JupyterLab opens a notebook link of an HTML output in a tab of its own; a
    link inside a widget would load the whole of JupyterLab again.
    """
    if not in_jupyterlab():
        return
    from IPython.display import HTML, display

    display(HTML(nav.value))  # type: ignore[no-untyped-call]
    nav.layout.display = "none"


def close_all(widget: w.Widget) -> None:
    """Close a widget, everything inside it and their layouts."""
    for child in getattr(widget, "children", ()):
        close_all(child)
    for part in ("layout", "style"):
        inner = getattr(widget, part, None)
        if isinstance(inner, w.Widget) and not is_shared(inner):
            inner.close()
    widget.close()


def wait_for_visitor() -> None:
    """On a preheated Voilà kernel, wait until a page asks for it (then read the database).

    Voilà's own helper asks the server without a secret, which the server
    refuses: this asks with the kernels' secret (``COMPANION_KERNEL_SECRET``).
    """
    if os.environ.get("VOILA_PREHEAT") != "True":
        return
    from companion.widgets.guard import KERNEL_SECRET_VARIABLE, PARAMETER

    secret = os.environ.get(KERNEL_SECRET_VARIABLE)
    if not secret:
        from voila.utils import wait_for_request

        wait_for_request()
        return
    import asyncio
    import json
    import threading

    import websockets

    ip = os.environ.get("VOILA_APP_IP", "127.0.0.1")
    port = os.environ.get("VOILA_APP_PORT", "8866")
    base = os.environ.get("VOILA_SERVER_URL", "/")
    kernel = os.environ.get("VOILA_KERNEL_ID", "")
    host = f"[{ip}]" if ":" in ip else ip
    url = f"ws://{host}:{port}{base}voila/query/{kernel}?{PARAMETER}={secret}"
    found: list[str] = []

    async def ask() -> None:
        async with websockets.connect(url, open_timeout=5) as socket:
            found.append(str(await socket.recv()))

    thread = threading.Thread(target=lambda: asyncio.run(ask()))
    thread.start()
    thread.join()
    if found:
        for key, value in json.loads(found[0]).items():
            os.environ[key] = value


class GamePage:
    """One game's page.

    Args:
        game: The game id.
        players: The starting player count (the game's smallest by default).
        db: The history file (default: ``COMPANION_DB`` or the user's).
    """

    def __init__(self, game: str, players: int | None = None, *, db: Path | None = None):
        from companion.widgets import once

        once.install()  # a change a device sends again after a drop is applied once
        self.game = game
        self.kit = KITS[game]
        self.db = db
        self.drafts = Drafts(game, db)
        self.session_id: int | None = None
        self.kept_cells: dict[str, Any] = {}  # cells of seats no longer shown, kept for a way back
        self.built_for: tuple[int, bool] | None = None
        self.restoring = True
        counts = PLAYER_COUNTS[game]
        teams = SCORERS[game].info.team_counts
        if players is None:
            players = self._draft_count()
        self.count = w.Dropdown(
            options=[(f"{n} players" + (" (teams)" if n in teams else ""), n) for n in counts],
            value=players or counts[0],
            layout=w.Layout(width="12em"),
            tooltip="Player count",
        )
        self.count.add_class("player-count")
        self.name_inputs: list[w.Text] = []
        self.name_messages: list[w.HTML] = []
        self.name_slots: list[w.VBox] = []
        for k in range(max(counts)):
            box = w.Text(
                placeholder=f"Player {k + 1}",
                tooltip=f"Player {k + 1}",
                layout=w.Layout(width="100%"),
            )
            box.add_class(f"name-{k}")
            message = w.HTML()
            message.add_class("message")
            slot = w.VBox([w.HTML(self._seat_label(k)), box, message])
            slot.add_class("name-slot")
            slot.add_class("cell")
            box.observe(lambda _: self._names_changed(), names="value")
            self.name_inputs.append(box)
            self.name_messages.append(message)
            self.name_slots.append(slot)
        self.team_inputs = [
            w.Text(
                value=team,
                placeholder=team,
                tooltip=f"Team {k + 1}",
                layout=w.Layout(width="100%"),
            )
            for k, team in enumerate(self.kit.team_names)
        ]
        self.team_messages = [w.HTML() for _ in self.kit.team_names]
        self.team_slots = []
        for k, (box, message) in enumerate(zip(self.team_inputs, self.team_messages, strict=True)):
            box.add_class(f"team-{k}")
            message.add_class("message")
            slot = w.VBox([w.HTML(f"Team {k + 1}"), box, message])
            slot.add_class("name-slot")
            slot.add_class("cell")
            box.observe(lambda _: self._names_changed(), names="value")
            self.team_slots.append(slot)
        self.names_row = w.HBox()
        self.names_row.add_class("names")
        self.draft_status = w.HTML()
        self.draft_status.add_class("draft-status")
        self.devices = Devices()
        self.keeper = Throttle(self._write_draft)
        # cell -> (session, the device as named then, when)
        self.last_change: dict[str, tuple[str | None, str, float]] = {}
        self.clash = w.HTML()
        self.clash.add_class("clash")
        self.place = w.Combobox(
            placeholder="Where? (optional)",
            options=[],
            ensure_option=False,
            layout=w.Layout(width="16em"),
            tooltip="Where it was played",
        )
        self.place.add_class("place")
        self.place_message = w.HTML()
        self.place_message.add_class("message")
        self.place.observe(lambda _: self._place_changed(), names="value")
        self.body = w.VBox()
        self.helpers = TableHelpers(self)
        self.panels: w.HBox
        self.score_heading = w.HTML("<h2>Score pad</h2>")
        self.nav = navigation(game)
        header = w.VBox(
            [
                self.nav,
                w.HTML(f"<h1>{html.escape(title(game))}</h1>"),
                self.helpers.last,
                self.helpers.row,
                self.helpers.rules.box,
                w.HBox([self.count, self.place, self.draft_status]),
                self.clash,
                self.place_message,
                self.names_row,
            ]
        )
        self.widget = w.VBox([style(self.game), header, self.body])
        self.widget.add_class("companion")
        self.widget.add_class(f"page-{game}")
        self.count.observe(lambda _: self._count_changed(), names="value")
        self.setup: SetupPanel
        self.tracker: Tracker
        self.form: ScoreForm
        self.build()
        self.restoring = False

    def _draft_count(self) -> int | None:
        """The player count of the game in progress, so that the page is built for it."""
        from companion.history.errors import HistoryError

        try:
            found = self.drafts.latest()
        except HistoryError:
            return None
        count = found[1].get("players") if found else None
        return count if count in PLAYER_COUNTS[self.game] else None

    # names -------------------------------------------------------------------

    @property
    def players(self) -> int:
        """The chosen player count."""
        return int(self.count.value)

    @property
    def teams(self) -> bool:
        """Played in two teams (Shibuya with four players)."""
        return self.players in SCORERS[self.game].info.team_counts

    def _seat_label(self, k: int) -> str:
        return self.kit.seat_label(k, max(PLAYER_COUNTS[self.game]))

    def people(self) -> list[str]:
        """The names in seat order, as shown (a placeholder where none is typed yet)."""
        shown = []
        for k in range(self.players):
            typed = self.name_inputs[k].value
            valid = typed.strip() and name_problem(typed) is None
            shown.append(" ".join(typed.split()) if valid else f"Player {k + 1}")
        return shown

    def score_names(self) -> list[str]:
        """The names written into the score file: what was typed, cleaned when it is valid."""
        from scorers.names import clean_name

        names = []
        for k in range(self.players):
            typed = self.name_inputs[k].value
            try:
                names.append(clean_name(typed))
            except ValueError:
                names.append(typed.strip())
        return names

    def sides(self) -> list[str]:
        """A team game's two sides: the team names, or the players themselves."""
        if not self.teams:
            return self.score_names()
        from scorers.names import clean_name

        sides = []
        for box in self.team_inputs:
            try:
                sides.append(clean_name(box.value, what="team name"))
            except ValueError:
                sides.append(box.value.strip())
        return sides

    def _check_names(self) -> None:
        seen: dict[str, int] = {}
        for k, (box, message) in enumerate(zip(self.name_inputs, self.name_messages, strict=True)):
            if k >= self.players:
                continue
            typed = box.value
            problem = name_problem(typed) if typed.strip() else None
            if problem is None and typed.strip():
                key = name_key(typed)
                if key in seen:
                    problem = f"the same name as player {seen[key] + 1}"
                seen.setdefault(key, k)
            if problem:
                message.value = f"<div class='problem'>{html.escape(problem)}</div>"
            elif not typed.strip():
                message.value = "<div class='pending'>the name must not be empty</div>"
            else:
                message.value = ""
        for box, message in zip(self.team_inputs, self.team_messages, strict=True):
            problem = name_problem(box.value, what="team name")
            message.value = f"<div class='problem'>{html.escape(problem)}</div>" if problem else ""

    def _names_changed(self) -> None:
        self._check_names()
        if self.restoring:
            return
        self._pass_names()
        self._keep()

    def _pass_names(self) -> None:
        people = self.people()
        self.setup.set_names(people)
        if self.teams:
            sides = self.sides()
            shown_sides = [s or self.kit.team_names[k] for k, s in enumerate(sides)]
            self.tracker.set_names(people, shown_sides)
            everyone = self.score_names()
            members = [everyone[side :: len(sides)] for side in range(len(sides))]
            self.form.quiet = True
            self.form.set_names(self.sides(), members, shown=shown_sides)
            self.form.quiet = False
        else:
            self.tracker.set_names(people)
            self.form.quiet = True
            self.form.set_names(self.score_names(), shown=people)
            self.form.quiet = False
        self.form.set_start_people(people)
        self.form.check()

    def _place_changed(self) -> None:
        from companion.history.places import place_problem

        problem = place_problem(self.place.value)
        self.place_message.value = (
            f"<div class='problem'>{html.escape(problem)}</div>" if problem else ""
        )
        if not self.restoring:
            self._keep()

    def load_places(self) -> None:
        """Offer the places the history knows, the most recently used first (read-only)."""
        from companion.history.errors import HistoryError
        from companion.history.places import known_places
        from companion.widgets.drafts import reading

        try:
            with reading(self.db) as history:
                self.place.options = known_places(history)
        except HistoryError:
            pass  # the draft line says what is wrong with the history

    # building ------------------------------------------------------------------

    def build(self, keep: dict[str, Any] | None = None) -> None:
        """(Re)build set-up, tracker and score pad for the chosen count, keeping ``keep``."""
        players = self.players
        slots = list(self.name_slots[:players])
        if self.teams:
            slots = [*self.team_slots, *slots]
        self.names_row.children = slots
        sides = len(self.kit.team_names) if self.teams else players
        people = self.people()
        if self.built_for is not None:
            # The old parts go away for good (the page would otherwise send them
            # too), the box that held them included: a device that joins later
            # asks for every widget's state, and a box holding closed widgets
            # cannot give its own.
            close_all(self.panels)
            close_all(self.form.widget)
        self.built_for = (players, self.teams)
        self.setup = SetupPanel(self.game, players, people)
        self.setup.on_draw = self._drawn
        self.tracker = Tracker(self.game, people)
        self.form = ScoreForm(
            self.game, sides, teams=self.teams, db=self.db, voice=not in_jupyterlab()
        )
        self.form.on_save = self._record
        self.form.on_change = self._keep
        self.form.on_cell = self._pad_changed
        self.form.on_new_game = self.new_game
        self.form.on_tried = lambda: self.widget.add_class("tried")
        self.last_change = {}
        for path, cell in self.form.cells.items():
            for control in cell.controls.values():
                control.observe(
                    lambda change, path=path: self._cell_changed(path, change), names="value"
                )
        for box in self.setup.boxes:
            box.observe(lambda _: self._keep(), names="value")
        for control in self.tracker.controls:
            control.observe(lambda _: self._keep(), names="value")
        self.helpers.attach()
        self.tracker.next_button.on_click(lambda _: self._keep())
        self.tracker.reset_button.on_click(lambda _: self._keep())
        if keep:
            cells = keep.get("cells")
            if isinstance(cells, dict):
                self.kept_cells = dict(cells)
            self._restore_parts(keep)
        self._check_names()
        was = self.restoring
        self.restoring = True
        self._pass_names()
        self.restoring = was
        self.panels = w.HBox([self.setup.widget, self.tracker.widget])
        self.panels.add_class("panels")
        self.body.children = [self.panels, self.score_heading, self.form.widget]

    def cell_name(self, path: str) -> str:
        """A cell as people say it: ``Aki: journey`` for ``players[0].journey``."""
        import re

        found = re.match(r"players\[(\d+)\]\.(.+)", path)
        if not found:
            return path
        seat, rest = int(found[1]), found[2]
        shown = self.form.shown_names
        who = shown[seat] if seat < len(shown) else f"Player {seat + 1}"
        return f"{who}: {rest.replace('-', ' ').replace('_', ' ')}"

    def _cell_changed(self, path: str, change: dict[str, Any]) -> None:
        """Last change wins; when another device had just changed the cell, say so."""
        import time

        if self.restoring or self.form.quiet:
            return
        session, player = sender()
        who = self.devices.name(session, player)
        now = time.monotonic()
        before = self.last_change.get(path)
        self.last_change[path] = (session, who, now)
        # One device is one session, whatever its name: two phones on one column
        # are two devices, and a phone that picks its column is still itself.
        if before is None or before[0] == session or now - before[2] > CLASH_SECONDS:
            return
        old, new = str(change.get("old", "")), str(change.get("new", ""))
        if not old.strip():
            return
        self.clash.value = (
            f"<div class='clash-note' role='status'>{html.escape(self.cell_name(path))}: "
            f"{html.escape(who)} changed it to “{html.escape(new[:40])}”; it was "
            f"“{html.escape(old[:40])}” from {html.escape(before[1])}.</div>"
        )

    def _restore_parts(self, state: dict[str, Any]) -> None:
        setup = state.get("setup")
        if isinstance(setup, dict):
            if state.get("players") != self.players:
                setup = {"ticks": [], "seed": setup.get("seed")}
            self.setup.restore(setup)
        tracker = state.get("tracker")
        if isinstance(tracker, dict):
            self.tracker.restore(tracker)
        cells = state.get("cells")
        if isinstance(cells, dict):
            touched = state.get("touched")
            self.form.restore(cells, touched if isinstance(touched, list) else [])
        self.helpers.restore(state)

    def _pad_changed(self) -> None:
        if not self.restoring:
            self.helpers.pad_changed()

    def _count_changed(self) -> None:
        if self.restoring:
            return
        kept = self.state()
        self.build(kept)
        self._keep()

    def _drawn(self, drawn: dict[str, Any]) -> None:
        start = drawn.get("start_player")
        line = drawn.get("kyoto_line")
        if isinstance(start, str):
            self.tracker.set_start(start)
        elif isinstance(line, list) and line:
            self.tracker.set_start(str(line[-1]))  # the traveller furthest back moves first
        self.helpers.sync_start()
        self._keep()

    # the draft -----------------------------------------------------------------

    def state(self) -> dict[str, Any]:
        """Everything on the page, for the draft."""
        return {
            "version": 1,
            "players": self.players,
            "names": [box.value for box in self.name_inputs],
            "place": self.place.value,
            "teams": [box.value for box in self.team_inputs],
            "setup": self.setup.state(),
            "tracker": self.tracker.state(),
            "cells": {**self.kept_cells, **self.form.raw()},
            "touched": sorted(self.form.touched),
            **self.helpers.state(),
        }

    def restore(self, state: dict[str, Any]) -> None:
        """Put the page back as :meth:`state` described it."""
        self.restoring = True
        try:
            players = state.get("players")
            if players in PLAYER_COUNTS[self.game]:
                self.count.value = players
            for box, value in zip(self.name_inputs, state.get("names", []), strict=False):
                if isinstance(value, str):
                    box.value = value[:200]
            for box, value in zip(self.team_inputs, state.get("teams", []), strict=False):
                if isinstance(value, str):
                    box.value = value[:200]
            place = state.get("place")
            if isinstance(place, str):
                self.place.value = place[:200]
            if self.built_for == (self.players, self.teams):
                self._refill(state)  # the same count: no new widgets to send
            else:
                self.build(state)
        finally:
            self.restoring = False

    def _refill(self, state: dict[str, Any]) -> None:
        cells = state.get("cells")
        if isinstance(cells, dict):
            self.kept_cells = dict(cells)
        self._restore_parts(state)
        self._check_names()
        self._pass_names()

    def _keep(self) -> None:
        """Keep the draft: at once, or with the other changes of a burst (:mod:`.throttle`)."""
        if self.restoring or self.form.saved_id is not None:
            return
        self.keeper()

    def _write_draft(self) -> None:
        if self.form.saved_id is not None:
            return  # saved meanwhile: the game is in the history
        from companion.history.errors import HistoryError

        try:
            self.session_id = self.drafts.keep(self.session_id, self.state())
        except HistoryError as error:
            self.draft_status.value = (
                f"<span class='problem'>The game in progress cannot be kept: "
                f"{html.escape(str(error))}</span>"
            )
        else:
            self.draft_status.value = ""

    def load_draft(self) -> bool:
        """Bring back the latest unfinished game of this page; False when there is none."""
        from companion.history.errors import HistoryError

        try:
            found = self.drafts.latest()
        except HistoryError as error:
            self.draft_status.value = (
                f"<span class='problem'>The history cannot be read: {html.escape(str(error))}"
                "</span>"
            )
            return False
        if found is None:
            return False
        self.session_id, state = found
        self.restore(state)
        self.draft_status.value = "<span class='ok'>Game in progress brought back.</span>"
        return True

    def open(self) -> w.VBox:
        """The page for a notebook cell, with the game in progress brought back.

        On the web page it first waits for the visitor (a preheated kernel).
        """
        wait_for_visitor()
        links_as_output(self.nav)
        self.load_places()
        self.helpers.show_last()
        self.load_draft()
        self.helpers.start_beat()
        return self.widget

    def _record(self, document: dict[str, Any], result: dict[str, Any]) -> Saved:
        from companion.history.places import clean_place

        start = None if self.teams else self.form.start_player
        place = clean_place(self.place.value)  # a wrong place is said beside Save
        saved = self.drafts.finish(
            self.session_id,
            document,
            result,
            start_player=start,
            location=place,
            timing=self.helpers.clock.timing(),
        )
        self.keeper.cancel()  # nothing more to keep: the game is in the history
        self.helpers.saved()
        return saved

    def new_game(self) -> None:
        """After a save: the same players, everything else empty."""
        self.keeper.cancel()  # the saved game's last changes are in the history
        self.session_id = None
        self.kept_cells = {}
        self.restoring = True
        try:
            self.widget.remove_class("tried")
            self.form.clear()
            self.tracker.reset()
            self.helpers.clock.reset()
            for box in self.setup.boxes:
                box.value = False
        finally:
            self.restoring = False
