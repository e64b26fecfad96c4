"""The table's helpers on a game's page: the clock, the Rules button, the last game
played and the start player carried from the draw and the tracker to the pad.

Kept apart from :mod:`companion.widgets.page` so that the page only places
them: :meth:`TableHelpers.attach` ties them to the page's parts each time the
page builds them (a new player count builds a new tracker and pad).
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any, Protocol

import ipywidgets as w

from companion.widgets.clock_panel import BEAT_SECONDS, ClockPanel
from companion.widgets.rules_panel import RulesPanel
from companion.widgets.score_form import ScoreForm
from companion.widgets.tracker import Tracker


class GamePage(Protocol):
    """What the helpers use of :class:`companion.widgets.page.GamePage`."""

    game: str
    db: Path | None
    restoring: bool
    tracker: Tracker
    form: ScoreForm

    @property
    def teams(self) -> bool: ...

    def people(self) -> list[str]: ...

    def _keep(self) -> None: ...


class TableHelpers:
    """The clock, the rules and the last game of one page.

    Args:
        page: The page they belong to.
    """

    def __init__(self, page: GamePage) -> None:
        self.page = page
        self.clock = ClockPanel()
        self.clock.on_change = self._changed
        self.clock.round_now = lambda: self.page.tracker.under_way_text()
        self.beating: Any = None  # the kernel's timer for the clock's beat
        self.rules = RulesPanel(page.game, self.phase)
        self.last = w.HTML()
        self.last.add_class("last-game")
        self.row = w.HBox([self.clock.widget, self.rules.button])
        self.row.add_class("table-helpers")
        self.synced_start: int | None = None

    def attach(self) -> None:
        """Follow the page's tracker (just built): its first use starts the clock, each
        round it ends marks the round's time, and its start player goes to the pad."""
        tracker = self.page.tracker
        self.synced_start = None
        tracker.next_button.on_click(lambda _: self._tracked())
        for control in tracker.controls:
            control.observe(lambda _: self._tracker_used(), names="value")
        self.page.form.start_choice.layout.display = "none" if self.page.teams else ""
        if not self.clock.round_label and self.clock.started_at is not None:
            self.clock.round_label = tracker.under_way_text()

    def _tracker_used(self) -> None:
        if self.page.restoring:
            return
        self.sync_start()

    def _tracked(self) -> None:
        """The tracker's button was pressed (after the tracker applied its rule)."""
        tracker = self.page.tracker
        under_way = tracker.under_way_text()
        if self.clock.started_at is None:
            self.clock.start(under_way)
        elif under_way != self.clock.round_label:
            self.clock.next_round(under_way)
        if tracker.ending == "over":
            self.clock.end_rounds()
        self.sync_start()

    def pad_changed(self) -> None:
        """A cell of the score pad changed: in the last round, the scoring has begun."""
        if self.page.tracker.ending == "last":
            self.clock.end_rounds()

    def start_beat(self) -> None:
        """In a kernel: note every :data:`BEAT_SECONDS` that the game is open (a running
        clock's ``seen``, kept in the draft). Outside one (a script, the tests): nothing."""
        import asyncio

        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        if self.beating is not None:
            return

        def beat() -> None:
            self.beating = loop.call_later(BEAT_SECONDS, beat)
            if self.clock.beat():
                self._changed()

        self.beating = loop.call_later(BEAT_SECONDS, beat)

    def sync_start(self) -> None:
        """Put the tracker's first start player (from the draw or the tracker) on the pad."""
        first = self.page.tracker.first_start
        if first is None or first == self.synced_start or self.page.form.saved_id is not None:
            return
        self.synced_start = first
        self.page.form.start_choice.value = first

    def phase(self) -> str:
        """Where the game is, for the Rules button: set-up, a round, or the scoring."""
        tracker = self.page.tracker
        if self.page.form.touched or tracker.message.endswith("below."):
            return "scoring"
        if self.clock.started_at is not None or tracker.first_start is not None:
            return "round"
        return "setup"

    def _changed(self) -> None:
        if not self.page.restoring:
            self.page._keep()

    def show_last(self) -> None:
        """Show the last game played of this game (nothing when there is none)."""
        from companion.history.errors import HistoryError
        from companion.widgets.last_game import last_game, last_game_html

        try:
            self.last.value = last_game_html(last_game(self.page.game, self.page.db))
        except HistoryError as error:
            self.last.value = (
                f"<p class='problem'>The last game cannot be read: "
                f"{html.escape(str(error), quote=False)}</p>"
            )

    def saved(self) -> None:
        """After a save: the clock stops, and the saved game is the last one."""
        hook, self.clock.on_change = self.clock.on_change, None  # the draft is finished
        try:
            self.clock.finish()
        finally:
            self.clock.on_change = hook
        self.show_last()

    def state(self) -> dict[str, Any]:
        """The clock and the pad's start player, for the draft."""
        return {"clock": self.clock.state(), "start_player": self.page.form.start_choice.value}

    def restore(self, state: dict[str, Any]) -> None:
        """Put back :meth:`state`."""
        self.clock.restore(state.get("clock"))
        self.page.form.set_start_people(self.page.people())
        seat = state.get("start_player")
        options = [value for _, value in self.page.form.start_choice.options]
        if isinstance(seat, int) and seat in options:
            quiet, self.page.form.quiet = self.page.form.quiet, True
            try:
                self.page.form.start_choice.value = seat
            finally:
                self.page.form.quiet = quiet
        self.synced_start = self.page.tracker.first_start
