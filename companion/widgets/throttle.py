"""At most one run per interval: the first call runs at once, a burst after it once at its end.

A game page keeps its draft in the history at every change. With several
phones typing into one kernel, writing the draft at every keystroke is most
of the kernel's work for that keystroke; a kernel that falls behind answers
every device late. So inside a kernel (an event loop is running) the draft of
a burst of changes is written once, at most :data:`EVERY_S` after the first;
outside one (a script, the tests) every call runs at once. What is pending is
written when the process exits normally.
"""

from __future__ import annotations

import asyncio
import atexit
import time
from collections.abc import Callable

EVERY_S = 0.4


class Throttle:
    """Runs ``action`` at once, or once at the end of the interval for the calls within it.

    Args:
        action: What to run (write the draft).
        every: The interval, in seconds.
    """

    def __init__(self, action: Callable[[], None], every: float = EVERY_S) -> None:
        self.action = action
        self.every = every
        self.last = -float("inf")
        self.pending: asyncio.TimerHandle | None = None
        self._exit_hooked = False

    def __call__(self) -> None:
        """Run now, or once at the end of the current interval (inside an event loop)."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        now = time.monotonic()
        if loop is None or (self.pending is None and now - self.last >= self.every):
            self.cancel()
            self._run(now)
            return
        if self.pending is None:
            if not self._exit_hooked:
                atexit.register(self.flush)
                self._exit_hooked = True
            self.pending = loop.call_later(self.every - (now - self.last), self.flush)

    def flush(self) -> None:
        """Run what is pending now (nothing when nothing is)."""
        if self.pending is not None:
            self.cancel()
            self._run(time.monotonic())

    def cancel(self) -> None:
        """Forget what is pending."""
        if self.pending is not None:
            self.pending.cancel()
            self.pending = None

    def _run(self, now: float) -> None:
        self.last = now
        self.action()
