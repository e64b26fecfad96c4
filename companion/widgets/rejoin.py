"""Phones that find their way back: the rejoin page, and who is the host's own machine.

A device that comes to ``companion serve`` without the table's secret (its
cookie is of an earlier run of the server, or of a secret the host replaced,
or it never joined) gets a page made for a phone that says what happened and
how to rejoin, instead of a line of plain text. Pages' own requests (a
script's fetch, the websocket) still get the short plain refusal.
"""

from __future__ import annotations

import html
from typing import Any

HOST_SCREEN = (
    "On the host's computer, open the companion's front page: it shows the table's code. "
    "Scan it with this device's camera, or type the address shown under it."
)
STYLE = (
    "body { font: 18px/1.5 system-ui, sans-serif; margin: 0 auto; padding: 1em; max-width: 32em; }"
    " h1 { font-size: 1.5em; line-height: 1.2; }"
    " a { color: #0645ad; display: inline-block; min-height: 44px; padding: 0.4em 0; }"
    " @media (prefers-color-scheme: dark) { body { background: #121212; color: #eee; }"
    " a { color: #8ab4f8; } }"
)
CONTENT_POLICY = (
    "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'"
)


def wants_page(method: str, accept: str) -> bool:
    """True for a browser opening an address (not a page's script or its websocket)."""
    return method in ("GET", "HEAD") and "text/html" in accept


def rejoin_page(*, had_cookie: bool, again: str = "/") -> str:
    """The rejoin page.

    Args:
        had_cookie: The device had joined this table before (its secret is an
            old one): the server restarted, or the host chose a new secret.
        again: Where "Try again" goes (the address the device asked for).
    """
    if not again.startswith("/") or again.startswith("//") or "\\" in again:
        again = "/"  # only a path of this server (``//host/...`` would leave it)
    if had_cookie:
        title = "Join the table again"
        what = (
            "This device had joined the table, but the companion on the host's computer "
            "was started again, or the host chose a new secret. The game in progress is kept."
        )
    else:
        title = "Join the table"
        what = "This device has not joined this table yet: the address it opened has no secret."
    return (
        "<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        "<meta name='color-scheme' content='light dark'>"
        f"<title>{html.escape(title)} · Board game companion</title><style>{STYLE}</style>"
        f"</head><body><main><h1>{html.escape(title)}</h1><p>{html.escape(what)}</p>"
        f"<p><strong>To join:</strong> {html.escape(HOST_SCREEN)}</p>"
        "<p>This device must be on the same Wi-Fi as the host's computer.</p>"
        f"<p><a href='{html.escape(again, quote=True)}'>Try again</a></p>"
        "</main></body></html>\n"
    )


def same_machine(request: Any) -> bool:
    """True when a request comes from the server's own machine, whatever address it used.

    A browser on the host's computer may open 127.0.0.1, localhost, or the
    printed join address (the machine's address on the Wi-Fi): a connection
    from the machine to itself has the same address at both ends.
    """
    remote = str(request.remote_ip or "")
    if remote in ("127.0.0.1", "::1") or remote.startswith("127."):
        return True
    local = ""
    try:
        stream = request.connection.stream
        local = str(stream.socket.getsockname()[0])
    except Exception:  # no socket to ask (a closed connection): not the host's
        return False
    return bool(remote) and local.removeprefix("::ffff:") == remote.removeprefix("::ffff:")
