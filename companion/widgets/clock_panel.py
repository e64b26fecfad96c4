"""The game's clock on the page: started with the first round, paused and resumed, shown.

The clock counts time at the table as the terminal's does
(:mod:`companion.analysis.clock`): pauses left out, and each round's time in
the order the rounds were played. It is started with the first round (its
button, or the first use of the round tracker) and kept in the page's draft,
so a reload or another kernel goes on counting. The kernel only stores
moments; the browser redraws the running time every second from them
(``data-since`` and ``data-base`` on the shown time), so a running clock costs
no message. Saved, it becomes the game's length and its round times.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import ipywidgets as w

from companion.analysis.clock import MAX_LABEL, MAX_ROUNDS, STAMP, Timing, duration_text

MAX_SECONDS = 7 * 24 * 3600
"""The most a draft's clock may hold (a damaged draft cannot make it larger)."""


def clock_text(seconds: int) -> str:
    """``0:00`` for minutes and seconds, ``1:02:03`` from an hour on."""
    hours, rest = divmod(max(0, int(seconds)), 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def stamp(moment: float) -> str:
    """A moment as the history stores it (``2026-01-01T20:00:00Z``)."""
    return datetime.fromtimestamp(int(moment), UTC).strftime(STAMP)


class ClockPanel:
    """A clock for one game.

    Args:
        now: The time source (seconds since the epoch); tests give their own.
    """

    def __init__(self, now: Callable[[], float] = time.time) -> None:
        self.now = now
        self.elapsed = 0  # seconds in the stretches that ended (pauses left out)
        self.since: float | None = None  # when the running stretch began
        self.started_at: float | None = None
        self.rounds: list[tuple[str, int]] = []  # rounds that ended, with their time
        self.round_label = ""
        self.round_mark = 0  # the clock's reading when the current round began
        self.on_change: Callable[[], None] | None = None
        self.shown = w.HTML()
        self.shown.add_class("clock")
        self.button = w.Button(description="Start the clock", tooltip="Start the game's clock")
        self.button.add_class("clock-button")
        self.button.on_click(lambda _: self.toggle())
        self.widget = w.HBox([w.HTML("<b>Time at the table</b>"), self.shown, self.button])
        self.widget.add_class("clock-panel")
        self.widget.add_class("table-helpers")
        self._show()

    @property
    def running(self) -> bool:
        """The clock is counting."""
        return self.since is not None

    def seconds(self) -> int:
        """Time at the table so far, pauses left out."""
        running = int(self.now() - self.since) if self.since is not None else 0
        return min(MAX_SECONDS, self.elapsed + max(0, running))

    def start(self, label: str = "") -> None:
        """Start (or resume) the clock; ``label``: the round under way, when it starts."""
        if self.running:
            return
        moment = self.now()
        if self.started_at is None:
            self.started_at = moment
            self.round_label = label[:MAX_LABEL]
            self.round_mark = self.elapsed
        self.since = moment
        self._changed()

    def pause(self) -> None:
        """Stop counting until :meth:`start` (a pause is left out of the game's time)."""
        if self.since is None:
            return
        self.elapsed = self.seconds()
        self.since = None
        self._changed()

    def toggle(self) -> None:
        """The button: start, pause or resume."""
        if self.running:
            self.pause()
        else:
            self.start(self.round_label)

    def next_round(self, label: str) -> None:
        """The round under way ended; ``label`` is the one that begins."""
        if self.started_at is None:
            return
        now = self.seconds()
        if self.round_label and len(self.rounds) < MAX_ROUNDS:
            self.rounds.append((self.round_label, now - self.round_mark))
        self.round_label = label[:MAX_LABEL]
        self.round_mark = now
        self._changed()

    def timing(self) -> Timing | None:
        """The game's time and its rounds, as the history keeps them (None: never started)."""
        if self.started_at is None:
            return None
        total = self.seconds()
        rounds = list(self.rounds)
        if self.round_label and total > self.round_mark:
            rounds.append((self.round_label, total - self.round_mark))
        return Timing(total, tuple(rounds), stamp(self.started_at), stamp(self.now()))

    def reset(self) -> None:
        """Back to a clock that has not started (a new game)."""
        self.elapsed, self.since, self.started_at = 0, None, None
        self.rounds, self.round_label, self.round_mark = [], "", 0
        self._show()

    def _changed(self) -> None:
        self._show()
        if self.on_change is not None:
            self.on_change()

    def _show(self) -> None:
        seconds = self.seconds()
        if self.since is None:
            attributes = ""
        else:
            base = seconds - int(self.now() - self.since)
            attributes = f" data-since='{int(self.since * 1000)}' data-base='{base}'"
        self.shown.value = (
            f"<span class='clock-time' role='timer' aria-label='Time at the table'{attributes}>"
            f"{clock_text(seconds)}</span>"
            + ("" if self.running or self.started_at is None else " <span>(paused)</span>")
        )
        if self.started_at is None:
            self.button.description = "Start the clock"
        else:
            self.button.description = "Pause" if self.running else "Resume"
        self.button.tooltip = {
            "Start the clock": "Start the game's clock",
            "Pause": "Pause the game's clock",
            "Resume": "Resume the game's clock",
        }[self.button.description]

    def summary(self) -> str:
        """``45 min so far`` (empty before the clock starts)."""
        return "" if self.started_at is None else f"{duration_text(self.seconds())} so far"

    # the draft ----------------------------------------------------------------

    def state(self) -> dict[str, Any]:
        """Everything the clock holds, for the draft (a running clock keeps running)."""
        return {
            "elapsed": self.elapsed,
            "since": self.since,
            "started_at": self.started_at,
            "rounds": [[label, seconds] for label, seconds in self.rounds],
            "round": self.round_label,
            "mark": self.round_mark,
        }

    def restore(self, state: Any) -> None:
        """Put back :meth:`state`; a value that cannot be a clock's is left out."""
        if not isinstance(state, dict):
            return
        now = self.now()

        def moment(value: Any) -> float | None:
            if type(value) in (int, float) and 0 < value <= now + 60:
                return float(value)
            return None

        elapsed = state.get("elapsed")
        self.elapsed = elapsed if type(elapsed) is int and 0 <= elapsed <= MAX_SECONDS else 0
        self.started_at = moment(state.get("started_at"))
        self.since = moment(state.get("since")) if self.started_at is not None else None
        rounds = state.get("rounds")
        self.rounds = []
        if isinstance(rounds, list):
            for entry in rounds[:MAX_ROUNDS]:
                if (
                    isinstance(entry, list)
                    and len(entry) == 2
                    and isinstance(entry[0], str)
                    and type(entry[1]) is int
                    and 0 <= entry[1] <= MAX_SECONDS
                ):
                    self.rounds.append((entry[0][:MAX_LABEL], entry[1]))
        label = state.get("round")
        self.round_label = label[:MAX_LABEL] if isinstance(label, str) else ""
        mark = state.get("mark")
        self.round_mark = mark if type(mark) is int and 0 <= mark <= self.seconds() else 0
        self._show()
