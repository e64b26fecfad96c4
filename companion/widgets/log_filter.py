"""What the server's terminal shows: its own lines and real errors, not framework noise.

The server and its kernels write to one stream. :class:`LogFilter` reads it
line by line and leaves out the lines of normal events: a closed tab (the
websocket's ``WebSocketClosedError`` or ``StreamClosedError`` traceback),
kernels stopping at shutdown (``ZMQError`` tracebacks), preheated kernels
waiting for their visitor ("Timeout waiting for IOPub output"), notebooks
"not trusted" and deprecation warnings of the libraries. A device's
connection that the server dropped ("WebSocket ping timeout") is shown. A traceback is held
until its last line says what it was, so a real error still shows whole.
"""

from __future__ import annotations

import re
from collections.abc import Callable

BARE_ADDRESS = re.compile(r"^\s*https?://\S+\s*$")  # Voilà's address, without the secret

QUIET_ERRORS = (
    "WebSocketClosedError",
    "StreamClosedError",
    "ZMQError",
    "CancelledError",
    "KeyboardInterrupt",
)
NOISE = (
    "is not trusted",
    "Timeout waiting for IOPub output",
    "DeprecationWarning",
    "PendingDeprecationWarning",
    "warnings.warn(",
    "Task exception was never retrieved",
    "Exception in message handler:",
    "Kernel shutdown:",
    "Starting buffering for",
    "Discarding ",
    "Writing notebook-signing key",
    "Kernel started:",
    "Kernel pool of",
    "Culling kernels with idle",
    "Storing connection files in",
    "Serving static files from",
    "Voilà is running at:",
    "Voila is running at:",
    "Kernel culled",
    "Culling '",
    "Kernel shutdown",
    "Replacing stale connection",
    "Shutting down ",
    "Connecting to kernel",
    "Handle signal",
    "Saving file at",
    "Adapting from protocol version",
    "to store connection files",
    "Got events for closed stream",
)
ACCESS_NOISE = ("403 GET", "403 POST", "302 GET", "204 POST", "404 GET /api/kernels/")


class LogFilter:
    """Feed it lines; it writes the ones that matter.

    Args:
        write: Where a line that matters goes (with its end of line).
    """

    def __init__(self, write: Callable[[str], object]) -> None:
        self.write = write
        self.held: list[str] = []  # a traceback (and the line that announced it)
        self.after_quiet = False  # a quiet traceback ended: its chained parts are quiet too

    def feed(self, line: str) -> None:
        """One line of the stream (with or without its end of line)."""
        if not line.endswith("\n"):
            line += "\n"
        text = line.rstrip("\n")
        if self.held:
            self.held.append(line)
            if (
                text.startswith((" ", "\t", "Traceback", "During handling", "The above"))
                or not text
            ):
                return
            if "Error" in text or "Exception" in text or ":" in text:
                self._end_of_traceback(text)
                return
            return
        if self.after_quiet:
            if not text.strip() or text.startswith(("During handling", "The above exception")):
                return
            self.after_quiet = False
        if text.startswith("Traceback") or any(
            part in text
            for part in ("Task exception was never retrieved", "Exception in message handler:")
        ):
            self.held = [line]
            return
        if any(part in text for part in NOISE) or any(part in text for part in ACCESS_NOISE):
            return
        if BARE_ADDRESS.match(text) or text.rstrip().endswith("WARNING |"):
            return  # (an empty warning: a write to a closed tab's connection)
        if text.startswith("  ") and ("warn" in text or "Warning" in text):
            return
        self.write(line)

    def _end_of_traceback(self, last: str) -> None:
        held, self.held = self.held, []
        if any(name in last for name in QUIET_ERRORS):
            self.after_quiet = True
            return
        for line in held:
            self.write(line)

    def close(self) -> None:
        """The stream ended: show what was held (an unfinished traceback is not noise)."""
        held, self.held = self.held, []
        for line in held:
            self.write(line)
