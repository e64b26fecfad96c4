"""The game's clock on the page: started with the first round, paused and resumed, shown.

The clock counts time at the table as the terminal's does
(:mod:`companion.analysis.clock`): pauses left out, and each round's time in
the order the rounds were played. It is started with the first round (its
button, which names the round under way, or the first press of the round
tracker) and kept in the page's draft, so a reload or another kernel goes on
counting. The rounds end where the tracker says so (:meth:`ClockPanel.end_rounds`):
the scoring's time is the game's, not a round's.

While it runs, the kernel notes every :data:`BEAT_SECONDS` that it still has
the game open (``seen``, kept in the draft). A draft whose running clock was
last seen longer ago than :data:`LOST_SECONDS` was left with nobody at it (the
pages closed, the kernel freed): it comes back paused at that moment, so the
night away is not counted.

The kernel only stores moments; the browser redraws the running time every
second from them (``data-since`` and ``data-base`` on the shown time), so a
running clock costs no message. Saved, it becomes the game's length and its
round times, and it stops for good (until *New game*).
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
BEAT_SECONDS = 30
"""How often a kernel with a running clock notes that the game is still open."""
LOST_SECONDS = 3 * BEAT_SECONDS + 60
"""A running clock not seen for longer was left with nobody at it (the kernel
is freed 30 s after its last page closed)."""


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
        self.rounds_over = False  # the last round ended: what follows is the scoring
        self.finished = False  # the game is saved: the clock stays stopped
        self.seen: float | None = None  # the last moment a kernel had it running
        self.round_now: Callable[[], str] = lambda: ""  # the round under way (the tracker's)
        self.on_change: Callable[[], None] | None = None
        self.shown = w.HTML()
        self.shown.add_class("clock")
        self.button = w.Button(description="Start the clock", tooltip="Start the clock")
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
        if self.running or self.finished:
            return
        moment = self.now()
        if self.started_at is None:
            self.started_at = moment
            self.round_label = label[:MAX_LABEL]
            self.round_mark = self.elapsed
        self.since = moment
        self.seen = moment
        self._changed()

    def pause(self) -> None:
        """Stop counting until :meth:`start` (a pause is left out of the game's time)."""
        if self.since is None:
            return
        self.elapsed = self.seconds()
        self.since = None
        self._changed()

    def toggle(self) -> None:
        """The button: start (with the round under way), pause or resume."""
        if self.running:
            self.pause()
        else:
            self.start(self.round_label or self.round_now())

    def next_round(self, label: str) -> None:
        """The round under way ended; ``label`` is the one that begins."""
        if self.started_at is None or self.rounds_over or self.finished:
            return
        now = self.seconds()
        if self.round_label and len(self.rounds) < MAX_ROUNDS:
            self.rounds.append((self.round_label, now - self.round_mark))
        self.round_label = label[:MAX_LABEL]
        self.round_mark = now
        self._changed()

    def end_rounds(self) -> None:
        """The last round ended now: the time that follows (the scoring) is no round's."""
        if self.started_at is None or self.rounds_over or self.finished:
            return
        now = self.seconds()
        if self.round_label and len(self.rounds) < MAX_ROUNDS:
            self.rounds.append((self.round_label, now - self.round_mark))
        self.round_label = ""
        self.round_mark = now
        self.rounds_over = True
        self._changed()

    def finish(self) -> None:
        """The game is saved: the clock stops and offers no Resume."""
        self.pause()
        self.finished = True
        self._show()

    def beat(self) -> bool:
        """Note that the game is open with the clock running (True when it runs)."""
        if not self.running:
            return False
        self.seen = self.now()
        return True

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
        self.rounds_over = self.finished = False
        self.seen = None
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
            + (
                " <span>(stopped: the game is saved)</span>"
                if self.finished
                else ""
                if self.running or self.started_at is None
                else " <span>(paused)</span>"
            )
        )
        self.button.layout.display = "none" if self.finished else ""
        if self.started_at is None:
            self.button.description = "Start the clock"
        else:
            self.button.description = "Pause" if self.running else "Resume"
        # The name says the words on the button first (what a voice user says).
        self.button.tooltip = {
            "Start the clock": "Start the clock",
            "Pause": "Pause the game's clock",
            "Resume": "Resume the game's clock",
        }[self.button.description]

    def summary(self) -> str:
        """``45 min so far`` (empty before the clock starts)."""
        return "" if self.started_at is None else f"{duration_text(self.seconds())} so far"

    # the draft ----------------------------------------------------------------

    def state(self) -> dict[str, Any]:
        """Everything the clock holds, for the draft (a running clock keeps running)."""
        if self.running:
            self.seen = self.now()
        return {
            "elapsed": self.elapsed,
            "since": self.since,
            "started_at": self.started_at,
            "rounds": [[label, seconds] for label, seconds in self.rounds],
            "round": self.round_label,
            "mark": self.round_mark,
            "over": self.rounds_over,
            "seen": self.seen,
        }

    def restore(self, state: Any) -> None:
        """Put back :meth:`state`; a value that cannot be a clock's is left out.

        A running clock last seen more than :data:`LOST_SECONDS` ago comes
        back paused at that moment (nobody had the game open since).
        """
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
        self.rounds_over = state.get("over") is True
        self.finished = False
        self.seen = moment(state.get("seen")) if self.since is not None else None
        if self.since is not None and self.seen is not None and self.seen < self.since:
            self.seen = self.since
        if self.since is not None and self.seen is not None and now - self.seen > LOST_SECONDS:
            self.elapsed = min(MAX_SECONDS, self.elapsed + int(self.seen - self.since))
            self.since = None  # left: paused when it was last seen
        mark = state.get("mark")
        self.round_mark = mark if type(mark) is int and 0 <= mark <= self.seconds() else 0
        self._show()
