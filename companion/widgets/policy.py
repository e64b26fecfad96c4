"""What a page of ``companion serve`` may load and run, and who may read the secret.

:data:`PAGE_POLICY` is the Content-Security-Policy of the game pages, the
history page and the front door: scripts only from the server's own files
(no inline script, no ``eval``, no other site), no plug-ins, no framing by any
page. A value that a device slipped into a page as markup still could not run.

The table secret is shown on the front door only to the host's own screen,
and only to a top-level visit (:func:`may_show_secret`): a script of a page
(``fetch``) or a frame asking for the front door gets it without the join
address. The table cookie itself is ``HttpOnly``: no script reads it.
"""

from __future__ import annotations

from collections.abc import Mapping

PAGE_POLICY = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self' 'unsafe-inline'",  # the widgets lay themselves out with styles
        "img-src 'self' data:",
        "font-src 'self' data:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "frame-ancestors 'none'",
        "form-action 'self'",
    )
)


def may_show_secret(host_device: bool, headers: Mapping[str, str]) -> bool:
    """True for a top-level visit of the front door from the host's own screen
    (``host_device``: the request comes from the server's own machine, by any of
    its addresses)."""
    if not host_device:
        return False
    destination = headers.get("Sec-Fetch-Dest")
    mode = headers.get("Sec-Fetch-Mode")
    return destination in (None, "document") and mode in (None, "navigate")
