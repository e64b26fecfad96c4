"""The bounds of ``companion serve`` that a crowded or hostile Wi-Fi cannot push past.

- A request must arrive whole in time: its headers within
  :data:`HEADER_SECONDS`, its body within :data:`BODY_SECONDS`, and neither
  may be larger than :data:`MAX_HEADER_BYTES` / :data:`MAX_BODY_BYTES`.
- One address holds at most :data:`PER_ADDRESS` connections at once; one
  more is closed as soon as it is accepted.
- All addresses together hold at most :data:`SHARE_OF_FILES` of the
  process's file limit, so that the kernels' channels, the history file and
  the devices' websockets always find a descriptor: past it, and whenever
  the process runs out of descriptors (``EMFILE``), the oldest connections
  that never showed the table's secret are closed to make room
  (:meth:`Connections.make_room`). A device that holds the secret
  (:func:`trust`) is never closed for a crowd: the crowd pushes out itself.
- A few file descriptors are kept in reserve: when the process runs out
  and no connection can be closed, one is freed to accept the waiting
  connection and close it at once, instead of a traceback for every
  connection that waits.
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
from collections import OrderedDict
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
SHARE_OF_FILES = 0.75
"""The share of the process's open-file limit that connections may hold together."""
EVICT_BATCH = 64
"""How many connections without the secret are closed at once when descriptors run out."""
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
    """The open connections, to refuse one past :data:`PER_ADDRESS` from one address
    and to make room, past ``most`` in all, by closing the oldest untrusted ones.

    Args:
        per_address: The most connections one address may hold.
        most: The most connections in all (0: no bound but the per-address one).
    """

    def __init__(self, per_address: int = PER_ADDRESS, most: int = 0) -> None:
        self.per_address = per_address
        self.most = most
        self.streams: dict[int, tuple[str, weakref.ref[Any]]] = {}
        self.by_address: dict[str, set[int]] = {}
        self.untrusted: OrderedDict[int, None] = OrderedDict()  # oldest first

    def admit(self, address: str, stream: Any) -> bool:
        """Remember ``stream`` of ``address``; False (not remembered) when it holds too many."""
        if self.count(address) >= self.per_address:
            return False
        key = id(stream)
        self.forget_key(key)  # an id of a stream gone without a word
        self.streams[key] = (address, weakref.ref(stream))
        self.by_address.setdefault(address, set()).add(key)
        self.untrusted[key] = None
        return True

    def trust(self, stream: Any) -> None:
        """``stream`` showed the table's secret: it is never closed to make room."""
        self.untrusted.pop(id(stream), None)

    def forget(self, stream: Any) -> None:
        """``stream`` closed."""
        found = self.streams.get(id(stream))
        if found is not None and found[1]() is stream:
            self.forget_key(id(stream))

    def forget_key(self, key: int) -> None:
        found = self.streams.pop(key, None)
        self.untrusted.pop(key, None)
        if found is None:
            return
        keys = self.by_address.get(found[0])
        if keys is not None:
            keys.discard(key)
            if not keys:
                del self.by_address[found[0]]

    def count(self, address: str) -> int:
        """How many connections ``address`` holds now."""
        for key in list(self.by_address.get(address, ())):
            if not _alive(self.streams[key][1]):
                self.forget_key(key)
        return len(self.by_address.get(address, ()))

    def total(self) -> int:
        """How many connections are remembered (closed ones are forgotten as they close)."""
        return len(self.streams)

    def evict(self, count: int) -> int:
        """Close the ``count`` oldest connections that never showed the secret; how many."""
        closed = 0
        while closed < count and self.untrusted:
            key, _ = self.untrusted.popitem(last=False)
            found = self.streams.get(key)
            stream = found[1]() if found else None
            self.forget_key(key)
            if stream is None or stream.closed():
                continue  # gone already: nothing to close
            with suppress(Exception):
                stream.close()
            closed += 1
        return closed

    def make_room(self) -> int:
        """Past ``most`` connections, close the oldest untrusted ones; how many."""
        if not self.most or self.total() <= self.most:
            return 0
        return self.evict(self.total() - self.most)


def _alive(ref: weakref.ref[Any]) -> bool:
    stream = ref()
    return stream is not None and not stream.closed()


ACTIVE: Connections | None = None
"""The connections of this process's server, once :func:`install` ran."""


def trust(stream: Any) -> None:
    """The connection ``stream`` showed the table's secret (the server's guard says so)."""
    if ACTIVE is not None and stream is not None:
        ACTIVE.trust(stream)


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


def connection_room() -> int:
    """The most connections this process may hold together: :data:`SHARE_OF_FILES` of
    its open-file limit now (0: no such limit)."""
    try:
        import resource
    except ImportError:  # not on this system
        return 0
    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    if soft == resource.RLIM_INFINITY or soft <= 0:
        return 0
    return max(PER_ADDRESS, int(soft * SHARE_OF_FILES))


def accept_handler_factory(
    reserve: Reserve, quiet: QuietLog, connections: Connections | None = None
) -> Callable[..., Any]:
    """tornado's ``add_accept_handler``, which makes room or refuses quietly when
    descriptors run out."""
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
                    if connections is not None and connections.evict(EVICT_BATCH):
                        quiet.refused(
                            "connections without the secret",
                            "the server was out of file descriptors (the oldest first)",
                            verb="Closed",
                        )
                        continue
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
    global ACTIVE
    from tornado import httpserver, iostream, tcpserver, web

    more_files()
    reserve = Reserve()
    connections = Connections(per_address, connection_room())
    ACTIVE = connections
    tcpserver.add_accept_handler = accept_handler_factory(reserve, quiet, connections)  # type: ignore[attr-defined]

    original_close_fd = iostream.IOStream.close_fd

    def close_fd(self: Any) -> None:
        connections.forget(self)
        original_close_fd(self)

    iostream.IOStream.close_fd = close_fd  # type: ignore[method-assign]

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
        connections.most = connection_room()  # the limit may have changed (prlimit)
        if connections.make_room():
            quiet.refused(
                "connections without the secret",
                f"past {connections.most} in all (the oldest first)",
                verb="Closed",
            )
        original_handle(self, stream, address)

    httpserver.HTTPServer.handle_stream = handle_stream  # type: ignore[method-assign]
    return connections
