"""The last keys of a page that is hidden or closes: sent by a beacon, applied by the kernel.

A box sends a change only once the kernel has handled the one before; the
keys typed meanwhile wait in the page. When the page is hidden (a phone
locked) or closed, the page sends them at once on its websocket, but a
closing page's websocket is torn down with it: what was written to it in
the page's last moments often never reaches the server ("Friedemann" kept
as "F", or as "Friedema", in one run of three on a loaded machine). So the
page also sends every change the kernel has not confirmed in a beacon
(``navigator.sendBeacon``, which the browser delivers after the page is
gone) to ``/companion/kept/<kernel id>``; this handler passes each one to
the kernel as the very message the page sent on its websocket (its id:
:mod:`companion.widgets.once` applies a change that arrives both ways once,
and one already applied is not applied again over a newer value).

The beacon needs the table cookie (the guard), a kernel handed to a page of
this table, the page's own origin, and holds only what a device may send on
its websocket: updates of an input's value in the shape it takes
(:func:`companion.widgets.socket_filter.check_update`), at most
:data:`MAX_CHANGES` of them in :data:`MAX_BODY` bytes. The kernel checks
them again (:mod:`companion.widgets.comm_filter`).
"""

from __future__ import annotations

import json
import logging
import re
from dataclasses import dataclass
from typing import Any

from companion.widgets.socket_filter import check_update

LOG = logging.getLogger("companion.serve")
PATH = r"/companion/kept/([0-9a-f]{8}-[0-9a-f-]{27})"
"""The beacon's address (the kernel's id after it)."""
MAX_BODY = 64 * 1024
MAX_CHANGES = 40
ANSWER_SECONDS = 15.0
"""How long the handler waits for the kernel to have read the changes."""
MESSAGE_ID = re.compile(r"^[0-9a-f]{32}$")
COMM_ID = re.compile(r"^[0-9a-f]{32}$")


@dataclass(frozen=True)
class Change:
    """One widget change a page sent and the kernel had not confirmed."""

    msg_id: str
    comm_id: str
    state: dict[str, Any]


def changes_from(body: bytes) -> list[Change] | None:
    """The changes a beacon carries, or None when it is not one the page sends.

    Args:
        body: The request's body: ``{"changes": [{"msg_id", "comm_id", "state"}, …]}``.
    """
    if len(body) > MAX_BODY:
        return None
    try:
        sent = json.loads(body)
    except ValueError:
        return None
    found = sent.get("changes") if isinstance(sent, dict) else None
    if not isinstance(found, list) or not 0 < len(found) <= MAX_CHANGES:
        return None
    changes = []
    for item in found:
        if not isinstance(item, dict):
            return None
        msg_id, comm_id, state = item.get("msg_id"), item.get("comm_id"), item.get("state")
        if not isinstance(msg_id, str) or not MESSAGE_ID.match(msg_id):
            return None
        if not isinstance(comm_id, str) or not COMM_ID.match(comm_id):
            return None
        if not isinstance(state, dict) or check_update(None, state) is not None:
            return None
        changes.append(Change(msg_id, comm_id, dict(state)))
    return changes


def message(session: Any, change: Change) -> dict[str, Any]:
    """The ``comm_msg`` the page sent for ``change``, signed by ``session`` (the same id)."""
    content = {
        "comm_id": change.comm_id,
        "data": {"method": "update", "state": change.state, "buffer_paths": []},
    }
    msg: dict[str, Any] = session.msg("comm_msg", content)
    msg["header"]["msg_id"] = change.msg_id
    msg["msg_id"] = change.msg_id
    return msg


async def deliver(kernel: Any, changes: list[Change]) -> bool:
    """Send ``changes`` to ``kernel`` (a jupyter_client kernel manager), in order.

    Returns:
        True once the kernel answered a request sent after them (it has read
        them: one connection's messages arrive in order); False when it did
        not answer in :data:`ANSWER_SECONDS`.
    """
    import asyncio

    client = kernel.client()
    client.start_channels(shell=True, iopub=False, stdin=False, hb=False, control=False)
    try:
        for change in changes:
            client.shell_channel.send(message(client.session, change))
        asked = client.kernel_info()
        try:
            async with asyncio.timeout(ANSWER_SECONDS):
                while True:
                    reply = await client.get_shell_msg()
                    if reply.get("parent_header", {}).get("msg_id") == asked:
                        return True
        except TimeoutError:
            return False
    finally:
        client.stop_channels()


def handler(kernels: Any) -> type[Any]:
    """The beacon's handler; ``kernels()`` is the set of kernels handed to pages."""
    from tornado import web

    class LastKeys(web.RequestHandler):
        def check_xsrf_cookie(self) -> None:
            pass  # the Origin is required below (a beacon carries its page's)

        def prepare(self) -> None:
            # The guard refused every other site and every request without the cookie.
            origin = self.request.headers.get("Origin")
            host = self.request.headers.get("Host")
            if not origin or not host or origin.split("://", 1)[-1].lower() != host.lower():
                raise web.HTTPError(403, "only a page of this table sends its last keys")

        async def post(self, kernel_id: str) -> None:
            manager = self.settings["kernel_manager"]
            if kernel_id not in kernels() or kernel_id not in manager:
                raise web.HTTPError(404, "no such game page")
            changes = changes_from(self.request.body)
            if changes is None:
                raise web.HTTPError(400, "not a page's last keys")
            delivered = await deliver(manager.get_kernel(kernel_id), changes)
            LOG.info(
                "A page's last keys: %d %s",
                len(changes),
                "passed to its game" if delivered else "sent, the game did not answer",
            )
            self.set_header("Cache-Control", "no-store")
            self.set_status(204 if delivered else 504)
            self.finish()

    return LastKeys
