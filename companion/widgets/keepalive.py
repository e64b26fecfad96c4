"""How ``companion serve`` keeps the devices' connections up, and notices dead ones.

jupyter_server (2.x, :class:`jupyter_server.base.websocket.WebSocketMixin`)
pings each websocket every ``ws_ping_interval`` milliseconds from a periodic
callback, and at each tick, *before* sending the next ping, closes the socket
when no pong came for more than ``ws_ping_timeout`` milliseconds. The first
tick comes one interval after the socket opened, before any ping was sent:
with the timeout equal to the interval (what ``companion serve`` used to pass)
every connection was closed about one interval after it opened, again and
again. A healthy connection answers each ping within moments, so at a tick
the last pong is about one interval old; the timeout here is three intervals
and a half, so only a connection that missed three pings in a row (a phone
gone to sleep, a Wi-Fi that vanished) is closed, and that within about 45 s.

The same handler also passes its ``ping_interval`` (milliseconds) to
tornado's own websocket ping loop, which reads it as seconds, and warns that a
timeout longer than the interval is cut to it: :func:`install` leaves
jupyter_server's loop as the only one.
"""

from __future__ import annotations

from typing import Any

PING_INTERVAL_MS = 10_000
PING_TIMEOUT_MS = 35_000


def tornado_settings() -> dict[str, int]:
    """The server settings for the keep-alive (jupyter_server's names, in milliseconds)."""
    return {"ws_ping_interval": PING_INTERVAL_MS, "ws_ping_timeout": PING_TIMEOUT_MS}


def settings_option() -> str:
    """The Voilà command-line option that passes :func:`tornado_settings`."""
    return f"--Voila.tornado_settings={tornado_settings()!r}"


def install() -> None:
    """Only jupyter_server's ping loop pings the pages (tornado's own one stays off)."""
    from jupyter_server.base.websocket import WebSocketMixin
    from tornado.websocket import WebSocketHandler

    original = WebSocketHandler.get_websocket_protocol

    def get_websocket_protocol(self: Any) -> Any:
        protocol: Any = original(self)
        if protocol is not None and isinstance(self, WebSocketMixin):
            protocol.params.ping_interval = None
            protocol.params.ping_timeout = None
        return protocol

    WebSocketHandler.get_websocket_protocol = get_websocket_protocol  # type: ignore[method-assign]
