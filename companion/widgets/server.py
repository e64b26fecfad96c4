"""The Voilà server behind ``companion serve``, with a cap on its kernels.

Run as ``python -m companion.widgets.server [voila options] FOLDER``. It is
Voilà itself, with one change: the kernel manager never holds more than
``COMPANION_MAX_KERNELS`` kernels (the preheated pool included).

- A page that asks for a kernel when the cap is reached first frees the
  least recently used kernel that no page is connected to (a closed or
  reloaded page not culled yet); when every kernel has a page, the page gets
  "503: too many pages are open" instead of a new kernel.
- The pool is refilled only while there is room under the cap, and a
  preheated kernel is handed out only when it is ready (a page never waits on
  a pool that cannot fill) and still alive in the process that ran its
  notebook (one that died or was restarted while it waited is shut down, and
  the page gets a new kernel).

Closed and reloaded pages free their kernels in two ways: the page's own
``beforeunload`` request, and the culling of kernels that no page is
connected to (``cull_idle_timeout``, set by ``companion serve``).
"""

from __future__ import annotations

import asyncio
import os
import sys
from contextlib import suppress
from typing import Any

MAX_KERNELS_VARIABLE = "COMPANION_MAX_KERNELS"
DEFAULT_MAX_KERNELS = 12
RETRY_FILL_SECONDS = 5.0


def max_kernels() -> int:
    """The cap from the environment (at least 1)."""
    try:
        return max(1, int(os.environ.get(MAX_KERNELS_VARIABLE, DEFAULT_MAX_KERNELS)))
    except ValueError:
        return DEFAULT_MAX_KERNELS


def capped(manager_class: type[Any]) -> type[Any]:
    """A subclass of Voilà's (pooling) kernel manager that keeps under the cap."""

    class CappedKernelManager(manager_class):  # type: ignore[misc]
        cap = max_kernels()

        def _pooled_ids(self) -> set[str]:
            ids = set()
            for pool in getattr(self, "_pools", {}).values():
                for task in pool:
                    if task.done() and not task.cancelled() and task.exception() is None:
                        ids.add(task.result()["kernel_id"])
            return ids

        def _pending(self) -> int:
            return sum(
                1
                for pool in getattr(self, "_pools", {}).values()
                for task in pool
                if not task.done()
            )

        def _occupied(self) -> int:
            return len(self.list_kernel_ids()) + self._pending()

        async def _make_room(self) -> bool:
            """Free the least recently used kernel without a page; False if none."""
            pooled = self._pooled_ids()
            idle = [
                kernel
                for kernel_id in self.list_kernel_ids()
                if kernel_id not in pooled
                and (kernel := self.get_kernel(kernel_id)) is not None
                and self._kernel_connections.get(kernel_id, 0) == 0
            ]
            if not idle:
                return False
            oldest = min(idle, key=lambda k: k.last_activity)
            self.log.info("Kernel cap reached: shutting down unused kernel %s", oldest.kernel_id)
            await self.shutdown_kernel(oldest.kernel_id)
            return True

        async def start_kernel(self, *args: Any, **kwargs: Any) -> str:
            from tornado import web

            while self._occupied() >= self.cap:
                if not await self._make_room():
                    raise web.HTTPError(
                        503,
                        f"{self.cap} kernels are running, the most this server allows: "
                        "close a page you no longer use, or wait a minute and reload",
                    )
            return str(await super().start_kernel(*args, **kwargs))

        def fill_if_needed(
            self, delay: float | None = None, notebook_name: str | None = None, **kwargs: Any
        ) -> None:
            if self._occupied() >= self.cap:
                loop = asyncio.get_event_loop()
                loop.call_later(
                    RETRY_FILL_SECONDS,
                    lambda: self.fill_if_needed(delay, notebook_name, **kwargs),
                )
                return
            super().fill_if_needed(delay, notebook_name, **kwargs)
            for pool in getattr(self, "_pools", {}).values():
                for task in pool:
                    task.add_done_callback(self._note_process)

        def _process(self, kernel_id: str) -> Any:
            """The id of the kernel's process (None when it cannot be known)."""
            with suppress(Exception):
                return self.get_kernel(kernel_id).provisioner.pid
            return None

        def _note_process(self, task: asyncio.Future[Any]) -> None:
            """Remember the process a pooled kernel started in and ran its notebook."""
            if not task.cancelled() and task.exception() is None:
                kernel_id = task.result()["kernel_id"]
                started: dict[str, Any] = self.__dict__.setdefault("_started_as", {})
                started.setdefault(kernel_id, self._process(kernel_id))
                running = set(self.list_kernel_ids())
                for gone in [k for k in started if k not in running]:
                    del started[gone]

        def get_pool_size(self, notebook_name: str) -> int:
            pool = getattr(self, "_pools", {}).get(notebook_name, [])
            ready = [t for t in pool if t.done() and not t.cancelled() and t.exception() is None]
            # Drop kernels that failed to start, so that they are not handed out.
            pool[:] = [t for t in pool if not t.done() or t in ready]
            return len(ready)

        async def _alive(self, kernel_id: str) -> bool:
            """True while the kernel's first process runs.

            False when it is gone, cannot say, or was restarted: Jupyter restarts a
            kernel that died, but the new process has not run the page's notebook.
            """
            from jupyter_core.utils import ensure_async

            started = self.__dict__.get("_started_as", {}).get(kernel_id)
            try:
                kernel = self.get_kernel(kernel_id)
                running = bool(await ensure_async(kernel.is_alive()))
            except Exception:  # a kernel that cannot answer is not handed out
                return False
            return running and (started is None or self._process(kernel_id) == started)

        async def get_rendered_notebook(self, notebook_name: str, *args: Any, **kwargs: Any) -> Any:
            from tornado import web

            pool = self._pools.setdefault(notebook_name, [])
            ready = [t for t in pool if t.done()]
            for task in ready:
                pool.remove(task)
            # Hand out a ready kernel first (the pool keeps its pending ones), and
            # only a living one: a pooled kernel can die while it waits (killed,
            # out of memory), and its page would never work.
            living = []
            for task in ready:
                if task.cancelled() or task.exception() is not None:
                    continue
                kernel_id = task.result()["kernel_id"]
                if await self._alive(kernel_id):
                    living.append(task)
                    continue
                self.log.warning("Pooled kernel %s died or restarted: not used", kernel_id)
                with suppress(Exception):
                    await self.shutdown_kernel(kernel_id, now=True)
            pool[:0] = living
            if not pool:
                # The page waits for a new kernel rather than failing.
                self.fill_if_needed(delay=0, notebook_name=notebook_name)
                if not pool:
                    raise web.HTTPError(
                        503, "no kernel is free for this page: wait a minute and reload"
                    )
            return await super().get_rendered_notebook(notebook_name, *args, **kwargs)

    return CappedKernelManager


def same_origin_shutdown() -> None:
    """Let a closing page free its kernel: accept its shutdown from the same origin.

    Voilà's page asks for its kernel to be shut down as it closes, but it
    sends no XSRF cookie (the page never got one), so the request was refused
    and every kernel stayed. A request that carries an ``Origin`` header of
    this very server is what the XSRF cookie is there to prove.
    """
    from urllib.parse import urlparse

    from tornado import web
    from voila.shutdown_kernel_handler import VoilaShutdownKernelHandler

    original = VoilaShutdownKernelHandler.check_xsrf_cookie

    def check(self: Any) -> None:
        origin = self.request.headers.get("Origin")
        host = self.request.headers.get("Host")
        if origin and host and urlparse(origin).netloc == host:
            return
        if origin:
            raise web.HTTPError(403, "cross-origin request")
        original(self)

    VoilaShutdownKernelHandler.check_xsrf_cookie = check


def main() -> None:
    """Start Voilà with the capped kernel manager."""
    import voila.app
    from traitlets.config import Config
    from voila.voila_kernel_manager import voila_kernel_manager_factory

    same_origin_shutdown()

    def factory(base: type[Any], *args: Any, **kwargs: Any) -> type[Any]:
        return capped(voila_kernel_manager_factory(base, *args, **kwargs))

    voila.app.voila_kernel_manager_factory = factory
    config = Config()
    config.VoilaConfiguration.extension_denylist = ["jupyterlab_pygments"]
    sys.exit(voila.app.Voila.launch_instance(config=config))


if __name__ == "__main__":
    main()
