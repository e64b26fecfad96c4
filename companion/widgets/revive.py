"""A game that survives its kernel: a dead kernel's game comes back from its draft.

A game's shared kernel can die (killed, out of memory). Jupyter starts a
new process under the same kernel id, but that process has not run the
game's notebook: it holds none of the page's widgets. :class:`Reviver`
watches every game's kernel (once a second, and before a device joins): when
its process is gone or is not the one that ran the notebook, the game's page
is forgotten, so the next visit runs the notebook again in a new kernel, and
the game in progress comes back from its draft in the history. Every device
still on the old kernel is told that it died (the page reloads itself at that
message); a device that reconnects to it later is told the same.
"""

from __future__ import annotations

import json
import logging
from contextlib import suppress
from typing import Any

LOG = logging.getLogger("companion.serve")
WATCH_MS = 1000


def lost_message() -> str:
    """The kernel-status message that makes a page reload (its kernel is dead)."""
    return json.dumps(
        {
            "header": {"msg_type": "status", "msg_id": "companion-kernel-lost", "version": "5.3"},
            "parent_header": {},
            "metadata": {},
            "content": {"execution_state": "dead"},
            "channel": "iopub",
            "buffers": [],
        }
    )


class Reviver:
    """Watches the games' kernels of a :class:`companion.widgets.server.Table`."""

    def __init__(self, table: Any) -> None:
        self.table = table
        self.processes: dict[str, Any] = {}  # kernel id -> the process that ran its notebook
        self.replaced: set[str] = set()
        self.watching: Any = None

    def rendered(self, kernel_id: str, manager: Any) -> None:
        """A game's page was rendered with this kernel: remember its process."""
        self.processes[kernel_id] = manager._process(kernel_id)
        self.watch(manager)

    async def alive(self, kernel_id: str, manager: Any) -> bool:
        """True while the kernel's process is the one that ran the game's notebook."""
        if kernel_id not in manager.list_kernel_ids():
            return False
        started = self.processes.get(kernel_id)
        if started is not None and manager._process(kernel_id) != started:
            return False
        try:
            result = manager.get_kernel(kernel_id).is_alive()
            if hasattr(result, "__await__"):
                result = await result
            return bool(result)
        except Exception:  # a kernel that cannot answer is not used
            return False

    async def check(self, manager: Any) -> list[str]:
        """Forget the page of every game whose kernel died; returns those games' paths."""
        gone = []
        running = set(manager.list_kernel_ids())
        for path, (kernel_id, _) in list(self.table.pages.items()):
            if kernel_id not in running:
                continue  # shut down (culled once nobody was on it): the table forgets it
            if not await self.alive(kernel_id, manager):
                gone.append(path)
                if getattr(manager, "_kernel_connections", {}).get(kernel_id, 0) == 0:
                    # No device on it now (a kernel being culled): forgotten without a
                    # word; a device that comes back to it is told it died.
                    del self.table.pages[path]
                    self.processes.pop(kernel_id, None)
                    self.replaced.add(kernel_id)
                    continue
                self.replace(path, kernel_id)
        return gone

    def replace(self, path: str, kernel_id: str) -> None:
        """The game's kernel died: the next visit starts a new one; its devices reload."""
        if self.table.pages.get(path, ("",))[0] == kernel_id:
            del self.table.pages[path]
        self.replaced.add(kernel_id)
        self.processes.pop(kernel_id, None)
        told = sum(self.tell(socket) for socket in self.sockets(kernel_id))
        LOG.warning(
            "The kernel of %s stopped: the game comes back from its draft (%d device%s told)",
            path.removesuffix(".ipynb"),
            told,
            "" if told == 1 else "s",
        )

    def sockets(self, kernel_id: str) -> list[Any]:
        """The devices' connections to a kernel."""
        return [s for s in list(self.table.sockets) if getattr(s, "kernel_id", None) == kernel_id]

    @staticmethod
    def tell(socket: Any) -> int:
        """Tell one device its kernel is dead (1 when told)."""
        with suppress(Exception):
            socket.write_message(lost_message())
            return 1
        return 0

    def opened(self, socket: Any) -> None:
        """A device connected: if to a kernel that died, it is told so at once."""
        if getattr(socket, "kernel_id", None) in self.replaced:
            self.tell(socket)

    def watch(self, manager: Any) -> None:
        """Check the games' kernels once a second (started once)."""
        if self.watching is not None:
            return
        from tornado.ioloop import PeriodicCallback

        async def tick() -> None:
            with suppress(Exception):
                await self.check(manager)
            running = set(manager.list_kernel_ids())
            self.replaced &= running

        self.watching = PeriodicCallback(tick, WATCH_MS)
        self.watching.start()
