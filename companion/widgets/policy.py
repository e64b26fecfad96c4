"""What a page of ``companion serve`` may load and run, and who may read the secret.

:data:`PAGE_POLICY` is the Content-Security-Policy of the game pages, the
history page and the front door: scripts only from the server's own files
(no inline script, no ``eval``, no other site), no plug-ins, no framing by any
page. A value that a device slipped into a page as markup still could not run.

The table secret is shown on the front door only to the host's own screen,
and only to a visit the browser says the person at the screen started
(:func:`may_show_secret`): the address typed or pasted, a bookmark, a link
from another program such as the terminal (and a reload of such a visit:
Chromium reloads a page with the headers of its first visit). A page's script that
fetches the front door, frames it, opens it in a new window or sends its own
window there gets it without the join address, and the front door is sent
with :data:`FRONT_DOOR_HEADERS`: a window a page's script opened on it is cut
from that script (``Cross-Origin-Opener-Policy``) and no page may frame it.
The table cookie itself is ``HttpOnly``: no script reads it.

Browsers say who started a visit (the ``Sec-Fetch-*`` headers) and cut an
opener only on the machine's own addresses (``127.0.0.1``, ``localhost``): on
a plain-HTTP address such as the Wi-Fi one they say nothing, so the front
door there never shows the secret (:func:`hidden_note` says where it is).
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

FRONT_DOOR_HEADERS = {
    # A window opened on the front door by a page without this same policy (every
    # game page, the history) goes to a browsing context group of its own: the
    # opener's script can no longer reach it, nor it the opener.
    "Cross-Origin-Opener-Policy": "same-origin",
    "X-Frame-Options": "DENY",  # as frame-ancestors 'none', for older browsers
}


def may_show_secret(host_device: bool, headers: Mapping[str, str]) -> bool:
    """True for a visit of the front door that the person at the host's screen started.

    Args:
        host_device: The request comes from the server's own machine, by any
            of its addresses.
        headers: The request's headers. Only a top-level navigation
            (``Sec-Fetch-Mode: navigate``, ``Sec-Fetch-Dest: document``) that
            no page started (``Sec-Fetch-Site: none``: typed, a bookmark,
            another program) passes. A page's script can start a
            navigation with ``Sec-Fetch-User: ?1`` (while the user's click is
            fresh), so that header proves nothing; a request without these
            headers (a plain-HTTP address, where browsers do not send them)
            does not pass.
    """
    if not host_device:
        return False
    return (
        headers.get("Sec-Fetch-Dest") == "document"
        and headers.get("Sec-Fetch-Mode") == "navigate"
        and headers.get("Sec-Fetch-Site") == "none"
    )


def hidden_note(headers: Mapping[str, str], own: str = "") -> str:
    """What the host's front door says instead of the join address it did not show.

    Args:
        headers: The request's headers.
        own: This computer's own address of the server (``http://127.0.0.1:PORT/``),
            or ``""`` when the server does not listen there.
    """
    if headers.get("Sec-Fetch-Site") is None:  # plain HTTP: the browser does not say who
        where = ""
        if own:
            where = f" On this computer, open {own} with the secret (the terminal prints it)"
            where += " to show it here."
        return (
            "The join code is not shown at this address: a browser does not say here whether "
            "you or a page opened it. It is in the terminal where companion serve runs." + where
        )
    return (
        "The join code shows when you open this page yourself: click the address bar and press "
        "Enter (or type the address, or use a bookmark). A page opened by a link, a button or "
        "a script does not show it, even reloaded, so that no script can read it."
    )
