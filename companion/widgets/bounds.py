"""The bounds of ``companion serve`` that a crowded or hostile Wi-Fi cannot push past.

- A request must arrive whole in time: its headers within
  :data:`HEADER_SECONDS`, its body within :data:`BODY_SECONDS`, and neither
  may be larger than :data:`MAX_HEADER_BYTES` / :data:`MAX_BODY_BYTES`.
- One address holds at most :data:`PER_ADDRESS` connections at once; one
  more is closed as soon as it is accepted.
- A few file descriptors are kept in reserve: when the process runs out
  (``EMFILE``), one is freed to accept the waiting connection and close it
  at once, instead of a traceback for every connection that waits.
- Every refusal is counted and written to the log at most once a minute per
  kind (:class:`QuietLog`), never as a traceback.

Nothing here imports tornado at module level; :func:`install` patches it.
"""

from __future__ import annotations

import errno
import logging
import os
import time
import weakref
from collections.abc import Callable
from contextlib import suppress
from typing import Any

LOG = logging.getLogger("companion.serve")

PER_ADDRESS = 64
"""The most connections one address may hold (a table's devices need a few each)."""
HEADER_SECONDS = 10.0
"""How long a request's headers may take to arrive (and a kept-alive connection idle)."""
BODY_SECONDS = 30.0
"""How long a request's body may take to arrive."""
MAX_HEADER_BYTES = 64 * 1024
MAX_BODY_BYTES = 1024 * 1024
RESERVE = 8
"""File descriptors held back to refuse connections cleanly when the process has no more."""
LOG_EVERY = 60.0
"""Seconds between two log lines about one kind of refusal."""


class QuietLog:
    """Counts refusals by kind and logs each kind at most once per ``every`` seconds.

    Args:
        log: Where the lines go.
        every: Seconds between two lines about one kind.
        clock: The clock (a test passes its own).
    """

    def __init__(
        self,
        log: logging.Logger = LOG,
        every: float = LOG_EVERY,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.log = log
        self.every = every
        self.clock = clock
        self.counts: dict[str, int] = {}
        self.last: dict[str, float] = {}

    def refused(self, kind: str, detail: str = "", verb: str = "Refused") -> bool:
        """Counts one refusal of ``kind``; returns True when a line was written for it."""
        self.counts[kind] = self.counts.get(kind, 0) + 1
        now = self.clock()
        last = self.last.get(kind)
        if last is not None and now - last < self.every:
            return False
        count = self.counts.pop(kind)
        self.last[kind] = now
        more = f" ({count} since the last line)" if count > 1 else ""
        self.log.warning("%s %s%s%s", verb, kind, f": {detail}" if detail else "", more)
        return True


QUIET = QuietLog()


class Bucket:
    """A token bucket: ``burst`` messages at once, then ``rate`` a second.

    Args:
        rate: Messages a second, once the burst is spent.
        burst: Messages allowed at once.
        clock: The clock (a test passes its own).
    """

    def __init__(
        self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self.tokens = burst
        self.at = clock()

    def wait(self) -> float:
        """Seconds until one more message may pass (0: now); that message is counted."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        self.tokens -= 1
        return 0.0 if self.tokens >= 0 else -self.tokens / self.rate


class Connections:
    """The open connections of each address, to refuse one past :data:`PER_ADDRESS`."""

    def __init__(self, per_address: int = PER_ADDRESS) -> None:
        self.per_address = per_address
        self.open: dict[str, list[weakref.ref[Any]]] = {}

    def admit(self, address: str, stream: Any) -> bool:
        """Remember ``stream`` of ``address``; False (not remembered) when it holds too many."""
        kept = [ref for ref in self.open.get(address, []) if _alive(ref)]
        if len(kept) >= self.per_address:
            self.open[address] = kept
            return False
        kept.append(weakref.ref(stream))
        self.open[address] = kept
        if len(self.open) > 4 * self.per_address:  # forget addresses that left
            for other in [a for a, refs in self.open.items() if not any(map(_alive, refs))]:
                del self.open[other]
        return True

    def count(self, address: str) -> int:
        """How many connections ``address`` holds now."""
        return sum(1 for ref in self.open.get(address, []) if _alive(ref))


def _alive(ref: weakref.ref[Any]) -> bool:
    stream = ref()
    return stream is not None and not stream.closed()


class Reserve:
    """File descriptors held back, let go one at a time to refuse a connection cleanly."""

    def __init__(self, size: int = RESERVE) -> None:
        self.size = size
        self.fds: list[int] = []
        self.fill()

    def fill(self) -> None:
        """Take back what was let go (as far as the process can)."""
        while len(self.fds) < self.size:
            try:
                self.fds.append(os.open(os.devnull, os.O_RDONLY | os.O_CLOEXEC))
            except OSError:
                return

    def refuse_one(self, sock: Any) -> bool:
        """With one reserved descriptor free, accept one waiting connection and close it."""
        if not self.fds:
            return False
        os.close(self.fds.pop())
        try:
            connection, _ = sock.accept()
        except OSError:
            return False
        finally:
            self.fill()
        with suppress(OSError):
            connection.close()
        self.fill()
        return True


def more_files() -> int:
    """Raise this process's open-file limit to its hard limit; returns the soft limit now."""
    try:
        import resource
    except ImportError:  # not on this system
        return -1
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else max(soft, 65536)
    with suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
        soft = wanted
    return soft


def accept_handler_factory(reserve: Reserve, quiet: QuietLog) -> Callable[..., Any]:
    """tornado's ``add_accept_handler``, which refuses quietly when descriptors run out."""
    import socket

    from tornado import netutil
    from tornado.ioloop import IOLoop

    def add_accept_handler(
        sock: socket.socket, callback: Callable[[socket.socket, Any], None]
    ) -> Callable[[], None]:
        io_loop = IOLoop.current()
        removed = [False]

        def accept_handler(fd: socket.socket, events: int) -> None:
            for _ in range(netutil._DEFAULT_BACKLOG):
                if removed[0]:
                    return
                try:
                    connection, address = sock.accept()
                except BlockingIOError:
                    return
                except ConnectionAbortedError:
                    continue
                except OSError as error:
                    if error.errno not in (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM):
                        raise
                    refused = reserve.refuse_one(sock)
                    quiet.refused("connections: the server has no file descriptors left")
                    if not refused:
                        return
                    continue
                callback(connection, address)

        def remove_handler() -> None:
            io_loop.remove_handler(sock)
            removed[0] = True

        io_loop.add_handler(sock, accept_handler, IOLoop.READ)
        return remove_handler

    return add_accept_handler


def install(per_address: int = PER_ADDRESS, quiet: QuietLog = QUIET) -> Connections:
    """Bound every tornado HTTP server that this process starts afterwards."""
    from tornado import httpserver, tcpserver, web

    more_files()
    reserve = Reserve()
    connections = Connections(per_address)
    tcpserver.add_accept_handler = accept_handler_factory(reserve, quiet)  # type: ignore[attr-defined]

    original_listen = web.Application.listen

    def listen(self: Any, port: int, address: str | None = None, **kwargs: Any) -> Any:
        kwargs.setdefault("idle_connection_timeout", HEADER_SECONDS)
        kwargs.setdefault("body_timeout", BODY_SECONDS)
        kwargs.setdefault("max_header_size", MAX_HEADER_BYTES)
        kwargs.setdefault("max_body_size", MAX_BODY_BYTES)
        return original_listen(self, port, address, **kwargs)

    web.Application.listen = listen  # type: ignore[method-assign]

    original_handle = httpserver.HTTPServer.handle_stream

    def handle_stream(self: Any, stream: Any, address: Any) -> None:
        host = str(address[0]) if isinstance(address, tuple) and address else str(address)
        if not connections.admit(host, stream):
            quiet.refused(
                f"connections from {host}", f"it holds {per_address} already (the most one may)"
            )
            stream.close()
            return
        original_handle(self, stream, address)

    httpserver.HTTPServer.handle_stream = handle_stream  # type: ignore[method-assign]
    return connections
