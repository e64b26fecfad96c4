"""The keep-alive settings, checked against the installed jupyter_server's own ping loop.

:class:`jupyter_server.base.websocket.WebSocketMixin` is driven with a clock
of the test's own: each tick of its periodic callback is one ping interval,
and a page that answers (a pong some milliseconds after the ping) must never
be closed, while one that stopped answering must be, within a minute.
"""

from __future__ import annotations

import types
from typing import Any

import pytest

from companion.cli.notebooks import serve_command
from companion.widgets import keepalive

TICKS = 60  # ten minutes of a table at 10 s a ping


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def time(self) -> float:
        return self.now


def mixin_on(clock: Clock, monkeypatch: pytest.MonkeyPatch) -> Any:
    """A websocket of jupyter_server's mixin whose loop reads ``clock``."""
    from jupyter_server.base import websocket

    class Loop:
        @staticmethod
        def current() -> Clock:
            return clock

    class Periodic:
        def __init__(self, callback: Any, interval: float) -> None:
            self.interval = interval

        def start(self) -> None:
            pass

        def stop(self) -> None:
            pass

    monkeypatch.setattr(
        websocket, "ioloop", types.SimpleNamespace(IOLoop=Loop, PeriodicCallback=Periodic)
    )

    class Base:
        def open(self, *args: Any, **kwargs: Any) -> None:
            return None

    class Socket(websocket.WebSocketMixin, Base):  # type: ignore[misc]
        def __init__(self, settings: dict[str, int]) -> None:
            self.settings = settings
            self.log = types.SimpleNamespace(debug=lambda *a: None, warning=self.warned)
            self.ws_connection = types.SimpleNamespace(client_terminated=False)
            self.request = types.SimpleNamespace(path="/api/kernels/k/channels")
            self.closed_at: float | None = None
            self.pings = 0
            self.warnings: list[str] = []

        def warned(self, text: str, *args: Any) -> None:
            self.warnings.append(text % args)

        def close(self) -> None:
            self.closed_at = clock.now

        def ping(self, data: bytes) -> None:
            self.pings += 1

    return Socket


def run(settings: dict[str, int], monkeypatch: pytest.MonkeyPatch, *, answering: int) -> Any:
    """Open a socket and tick its ping loop; it answers the first ``answering`` pings."""
    clock = Clock()
    socket = mixin_on(clock, monkeypatch)(settings)
    socket.open()
    opened = clock.now
    interval = settings["ws_ping_interval"] / 1000
    for tick in range(TICKS):
        # A tick runs some milliseconds late; on a busy server, a tenth of the interval.
        clock.now = opened + (tick + 1) * interval + 0.005 + (0.1 * interval if tick % 3 else 0)
        socket.send_ping()
        if socket.closed_at is not None:
            break
        if socket.pings <= answering:
            clock.now += 0.25  # the page's pong, a quarter of a second later
            socket.on_pong(b"")
    socket.opened = opened
    return socket


def test_a_page_that_answers_is_never_closed(monkeypatch: pytest.MonkeyPatch) -> None:
    socket = run(keepalive.tornado_settings(), monkeypatch, answering=TICKS)
    assert socket.closed_at is None
    assert socket.pings == TICKS
    assert socket.warnings == []


def test_a_page_that_stopped_answering_is_closed_within_a_minute(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    socket = run(keepalive.tornado_settings(), monkeypatch, answering=5)
    assert socket.closed_at is not None
    # The fifth pong came about 50 s after the socket opened; three pings went unanswered.
    assert 80 <= socket.closed_at - socket.opened <= 100
    assert socket.warnings == [socket.warnings[0]]
    assert socket.warnings[0].startswith("WebSocket ping timeout after ")


def test_a_timeout_equal_to_the_interval_closed_every_connection_at_its_first_tick(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    old = {"ws_ping_interval": 10_000, "ws_ping_timeout": 10_000}
    socket = run(old, monkeypatch, answering=TICKS)
    assert socket.closed_at is not None
    assert socket.closed_at - socket.opened == pytest.approx(10.0, abs=0.01)
    assert socket.pings == 0


def test_the_server_is_started_with_these_settings(tmp_path: Any) -> None:
    command = serve_command(8866, "127.0.0.1", tmp_path)
    assert (
        "--Voila.tornado_settings={'ws_ping_interval': 10000, 'ws_ping_timeout': 35000}" in command
    )


def test_tornado_does_not_run_a_second_ping_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    from jupyter_server.services.kernels.websocket import KernelWebsocketHandler
    from tornado.websocket import WebSocketHandler

    monkeypatch.setattr(
        WebSocketHandler, "get_websocket_protocol", WebSocketHandler.get_websocket_protocol
    )
    keepalive.install()
    handler = object.__new__(KernelWebsocketHandler)
    handler.request = types.SimpleNamespace(headers={"Sec-WebSocket-Version": "13"})
    handler.application = types.SimpleNamespace(settings=keepalive.tornado_settings())
    monkeypatch.setattr(KernelWebsocketHandler, "get_compression_options", lambda self: None)
    monkeypatch.setattr(KernelWebsocketHandler, "max_message_size", 10 * 1024 * 1024)
    protocol = WebSocketHandler.get_websocket_protocol(handler)
    assert protocol.ping_interval == 0  # tornado's loop would have slept 10000 s, then pinged
    assert handler.ping_interval == keepalive.PING_INTERVAL_MS  # jupyter_server's loop stays
