"""The Voilà server behind ``companion serve``: guarded, one kernel per game, capped.

Run as ``python -m companion.widgets.server [voila options] FOLDER``. It is
Voilà itself, with these changes:

- Every request passes :class:`companion.widgets.guard.Guard` first (the
  table secret, the Host check, Jupyter's unused doors closed): a refused
  one gets 403 before any handler runs.
- ``/`` is the companion's front door (:mod:`companion.widgets.front_door`).
- A game's page is one kernel shared by every device that opens it: the
  first visit runs the notebook, later visits (another phone, a reload) get
  the same page and connect to the same kernel, whose widgets ipywidgets
  keeps in step on every device. The history page keeps a kernel per visit.
- The kernel manager never holds more than ``COMPANION_MAX_KERNELS`` kernels
  (the preheated pool included).

- A page that asks for a kernel when the cap is reached first frees the
  least recently used kernel that no page is connected to (a closed or
  reloaded page not culled yet); when every kernel has a page, the page gets
  "503: too many pages are open" instead of a new kernel.
- The pool is refilled only while there is room under the cap, and a
  preheated kernel is handed out only when it is ready (a page never waits on
  a pool that cannot fill) and still alive in the process that ran its
  notebook (one that died or was restarted while it waited is shut down, and
  the page gets a new kernel).
- A kernel waiting in the pool, or handed to a page that has not connected
  yet (its script still loading), is neither culled nor freed for another
  page, for up to ``HANDED_OUT_SECONDS``: a page is never left on a kernel
  that went away before it could connect.

Closed and reloaded pages free their kernels in two ways: the page's own
``pagehide`` request (refused for a game's shared kernel while it is the
game's), and the culling of kernels that no page is connected to
(``cull_idle_timeout``, set by ``companion serve``).
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import sys
import weakref
from contextlib import suppress
from typing import Any

from companion.widgets import bounds
from companion.widgets.guard import (
    COOKIE,
    KERNEL_PATH,
    KERNEL_SECRET_VARIABLE,
    PUBLIC,
    SECRET_VARIABLE,
    Decision,
    Guard,
)
from companion.widgets.paths import canonical
from companion.widgets.paths import handler as path_handler
from companion.widgets.policy import (
    FRONT_DOOR_HEADERS,
    PAGE_POLICY,
    hidden_note,
    may_show_secret,
)
from companion.widgets.revive import Reviver
from companion.wording import plural

JOIN_VARIABLE = "COMPANION_JOIN_URL"
LOG = logging.getLogger("companion.serve")

MAX_KERNELS_VARIABLE = "COMPANION_MAX_KERNELS"
DEFAULT_MAX_KERNELS = 12
STARTING_SECONDS = 60.0
"""How long a page waits for a pool's kernels that are still starting before it is refused."""
RETRY_FILL_SECONDS = 5.0
HANDED_OUT_SECONDS = 120.0
"""How long a kernel just handed to a page is kept for it before the page connects.

A page gets its kernel with its HTML and connects once its script has loaded:
on a busy machine or a slow phone that takes seconds, and a kernel culled or
freed in between leaves the page on a kernel that is gone (404).
"""


def max_kernels() -> int:
    """The cap from the environment (at least 1)."""
    try:
        return max(1, int(os.environ.get(MAX_KERNELS_VARIABLE, DEFAULT_MAX_KERNELS)))
    except ValueError:
        return DEFAULT_MAX_KERNELS


def last_active(kernel: Any) -> Any:
    """When a kernel was last active, or ``None`` for one still starting."""
    from traitlets import TraitError

    try:
        return kernel.last_activity
    except TraitError:  # not set before the kernel has started
        return None


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

        def _handed_out(self) -> dict[str, float]:
            """Kernels given to a page, by when (``time.monotonic``), until it connects."""
            handed: dict[str, float] = self.__dict__.setdefault("_handed", {})
            return handed

        def _waited_for(self, kernel_id: str) -> bool:
            """True for a kernel in the pool, or handed to a page that has not connected yet."""
            import time

            if kernel_id in self._pooled_ids():
                return True
            since = self._handed_out().get(kernel_id)
            if since is None:
                return False
            if (
                self._kernel_connections.get(kernel_id, 0) == 0
                and time.monotonic() - since < HANDED_OUT_SECONDS
            ):
                return True
            del self._handed_out()[kernel_id]  # connected (or never came): as any other
            return False

        async def cull_kernel_if_idle(self, kernel_id: str) -> None:
            """Cull as Jupyter does, but never a kernel a page is about to connect to."""
            if self._waited_for(kernel_id):
                return
            await super().cull_kernel_if_idle(kernel_id)

        def _occupied(self) -> int:
            return len(self.list_kernel_ids()) + self._pending()

        async def _make_room(self) -> bool:
            """Free the least recently used kernel without a page; False if none."""
            idle = [
                kernel
                for kernel_id in self.list_kernel_ids()
                if not self._waited_for(kernel_id)
                and (kernel := self.get_kernel(kernel_id)) is not None
                and self._kernel_connections.get(kernel_id, 0) == 0
                and last_active(kernel) is not None  # one still starting is no one's to free
            ]
            if not idle:
                return False
            oldest = min(idle, key=last_active)
            self.log.info("Kernel cap reached: shutting down unused kernel %s", oldest.kernel_id)
            await self.shutdown_kernel(oldest.kernel_id)
            return True

        async def start_kernel(self, *args: Any, **kwargs: Any) -> str:
            from tornado import web

            while self._occupied() >= self.cap:
                if await self._make_room():
                    continue
                # A pool's kernels still starting are counted twice (listed, and their task
                # pending) until they are up: wait for them, then count again.
                starting = [
                    task
                    for pool in getattr(self, "_pools", {}).values()
                    for task in pool
                    if not task.done()
                ]
                if starting:
                    await asyncio.wait(starting, timeout=STARTING_SECONDS)
                    if all(task.done() for task in starting):
                        continue
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
            waiting = list(pool)
            rendered = await super().get_rendered_notebook(notebook_name, *args, **kwargs)
            self._note_handed_out([task for task in waiting if task not in pool])
            return rendered

        def _note_handed_out(self, tasks: list[asyncio.Future[Any]]) -> None:
            """Keep the kernels just given to a page for it until it connects."""
            import time

            for task in tasks:
                if task.done() and not task.cancelled() and task.exception() is None:
                    self._handed_out()[task.result()["kernel_id"]] = time.monotonic()

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


def quiet_logs() -> None:
    """The terminal shows the address and what matters, not framework noise.

    Deprecation warnings of the libraries are not shown; the companion's
    own lines (a device joined, a request refused) are. ``companion serve``
    passes the rest through :class:`companion.widgets.log_filter.LogFilter`.
    """
    import warnings

    warnings.filterwarnings("ignore", category=DeprecationWarning)
    warnings.filterwarnings("ignore", category=PendingDeprecationWarning)
    if not LOG.handlers:
        shown = logging.StreamHandler()
        shown.setFormatter(logging.Formatter("[companion %(asctime)s] %(message)s", "%H:%M:%S"))
        LOG.addHandler(shown)
        LOG.setLevel(logging.INFO)
        LOG.propagate = False


def refused_handler(guard: Guard) -> type[Any]:
    """The handler of a request the guard refused (403) or lets in with its cookie (302).

    A browser refused for want of the secret gets the rejoin page
    (:mod:`companion.widgets.rejoin`).
    """
    from tornado import web

    from companion.widgets.rejoin import CONTENT_POLICY, rejoin_page, wants_page

    class Refused(web.RequestHandler):
        def initialize(self, decision: Decision) -> None:
            self.decision = decision

        def prepare(self) -> None:
            decision = self.decision
            if decision.status == 302:
                self.set_cookie(COOKIE, guard.secret, path="/", httponly=True, samesite="Strict")
                self.redirect(decision.location or "/")
                return
            LOG.warning(
                "Refused %s %s from %s: %s",
                self.request.method,
                self.request.path[:80],
                self.request.remote_ip,
                decision.reason,
            )
            self.set_status(403)
            self.set_header("Cache-Control", "no-store")
            accept = self.request.headers.get("Accept", "")
            if decision.rejoin and wants_page(self.request.method or "", accept):
                self.set_header("Content-Type", "text/html; charset=utf-8")
                self.set_header("Content-Security-Policy", CONTENT_POLICY)
                had = request_cookie(self.request) is not None
                self.finish(rejoin_page(had_cookie=had, again=self.request.path))
                return
            self.set_header("Content-Type", "text/plain; charset=utf-8")
            self.finish(f"403: {decision.reason}\n")

    return Refused


def request_cookie(request: Any) -> str | None:
    """The table cookie a request carries, if any."""
    morsel = request.cookies.get(COOKIE) if request.headers.get("Cookie") else None
    return None if morsel is None else str(morsel.value)


def guard_every_request(guard: Guard) -> None:
    """Put the guard before every handler of every tornado application of this process."""
    from urllib.parse import parse_qs

    from tornado import web

    refused = refused_handler(guard)
    answer = path_handler()
    original = web.Application.find_handler

    def find_handler(self: Any, request: Any, **kwargs: Any) -> Any:
        decision = guard.decide(
            request.path,
            parse_qs(request.query, keep_blank_values=True),
            request.headers,
            request_cookie(request),
        )
        if decision.status:
            return self.get_handler_delegate(request, refused, {"decision": decision})
        if request.path not in PUBLIC:  # it showed the secret: never closed for a crowd
            bounds.trust(getattr(request.connection, "stream", None))
        if request.method not in ("GET", "HEAD") and KERNEL_PATH.match(request.path):
            # A device reads its kernel; it never deletes, restarts or interrupts it.
            kept = Decision(403, "a device cannot stop or restart a game's kernel")
            return self.get_handler_delegate(request, refused, {"decision": kept})
        verdict = canonical(request.path)
        if verdict.status:
            return self.get_handler_delegate(request, answer, {"verdict": verdict})
        return original(self, request, **kwargs)

    web.Application.find_handler = find_handler  # type: ignore[method-assign]


KERNEL_ID = re.compile(r'"kernelId":\s*"([0-9a-f-]{36})"')


class Table:
    """The games of this table: for each game's notebook, its shared kernel and page."""

    def __init__(self, guard: Guard) -> None:
        self.guard = guard
        self.pages: dict[str, tuple[str, str]] = {}  # notebook -> (kernel id, page HTML)
        self.locks: dict[str, asyncio.Lock] = {}
        self.sockets: weakref.WeakSet[Any] = weakref.WeakSet()
        self.reviver = Reviver(self)

    @staticmethod
    def is_game(path: str) -> bool:
        """True for a game's notebook (the history page keeps a kernel per visit)."""
        from scorers import GAME_IDS

        return path.removesuffix(".ipynb") in GAME_IDS

    def shared_kernels(self) -> set[str]:
        """The kernels that are a game's shared kernel now."""
        return {kernel_id for kernel_id, _ in self.pages.values()}

    def page(self, path: str, running: list[str]) -> str | None:
        """The page of the game's shared kernel while it runs."""
        found = self.pages.get(path)
        if found is None:
            return None
        if found[0] not in running:
            del self.pages[path]
            return None
        return found[1]

    def devices(self, path: str, connections: dict[str, int]) -> int:
        """How many devices are connected to the game's kernel now."""
        found = self.pages.get(path)
        return connections.get(found[0], 0) if found else 0

    def close_sockets(self) -> int:
        """Close every device's connection (after a new secret); returns how many."""
        closed = 0
        for socket in list(self.sockets):
            with suppress(Exception):
                socket.close()
                closed += 1
        return closed


def render_handler(base: type[Any], table: Table) -> type[Any]:
    """Voilà's page handler, with one kernel per game shared by every device."""

    class SharedRender(base):  # type: ignore[misc]
        async def get(self, path: str | None = None) -> None:
            path = path or ""
            self.set_header("Content-Security-Policy", PAGE_POLICY)
            if not table.is_game(path):
                await self._render(path, share=False)
                return
            lock = table.locks.setdefault(path, asyncio.Lock())
            async with lock:  # a second device waits for the first page
                await table.reviver.check(self.kernel_manager)  # a dead kernel's game restarts
                page = table.page(path, list(self.kernel_manager.list_kernel_ids()))
                if page is not None:
                    self.set_header("Content-Type", "text/html")
                    self.set_header("Cache-Control", "no-cache, no-store, must-revalidate")
                    devices = table.devices(path, self.kernel_manager._kernel_connections)
                    LOG.info(
                        "A device joined %s (%d connected)", path.removesuffix(".ipynb"), devices
                    )
                    self.finish(page)
                    return
                await self._render(path, share=True)

        async def _render(self, path: str, *, share: bool) -> None:
            chunks: list[str] = []
            kernel_id: str | None = None
            async for chunk in self.get_generator(path=path):
                chunks.append(chunk)
                if kernel_id is None and (found := KERNEL_ID.search("".join(chunks))):
                    kernel_id = found[1]
                    table.guard.allow_kernel(kernel_id)
                self.write(chunk)
                self.flush()
            if share and kernel_id is not None:
                table.pages[path] = (kernel_id, "".join(chunks))
                table.reviver.rendered(kernel_id, self.kernel_manager)
                LOG.info("A device opened %s", path.removesuffix(".ipynb"))

    return SharedRender


def keep_shared_kernels(table: Table) -> None:
    """A closing page does not shut down its game's kernel: other devices may use it.

    The culling of kernels that no page is connected to frees it once every
    device has left.
    """
    from voila.shutdown_kernel_handler import VoilaShutdownKernelHandler

    original = VoilaShutdownKernelHandler.post

    async def post(self: Any, kernel_id: str) -> None:
        if kernel_id in table.shared_kernels() or kernel_id in table.reviver.replaced:
            self.set_status(204)
            self.finish()
            return
        await original(self, kernel_id)

    VoilaShutdownKernelHandler.post = post


def count_sockets(table: Table) -> None:
    """Remember every device's kernel connection (a new secret closes them)."""
    from voila.tornado.kernel_websocket_handler import VoilaKernelWebsocketHandler

    original = VoilaKernelWebsocketHandler.open

    async def open_socket(self: Any, *args: Any, **kwargs: Any) -> None:
        table.sockets.add(self)
        await ensure_async(original(self, *args, **kwargs))
        table.reviver.opened(self)

    VoilaKernelWebsocketHandler.open = open_socket


async def ensure_async(value: Any) -> Any:
    """``await`` a value when it is awaitable."""
    if asyncio.iscoroutine(value) or isinstance(value, asyncio.Future):
        return await value
    return value


def own_address(request: Any) -> str:
    """``http://127.0.0.1:PORT/`` when the server listens there and the request came
    to another of the machine's addresses, else ``""``."""
    if not os.environ.get("VOILA_APP_IP", "").startswith("127."):
        return ""  # the server listens on one other address only
    try:
        local, port = request.connection.stream.socket.getsockname()[:2]
    except Exception:  # no socket to ask (a closed connection)
        return ""
    if str(local).removeprefix("::ffff:").startswith("127.") or local == "::1":
        return ""
    return f"http://127.0.0.1:{port}/"


def companion_handlers(table: Table) -> list[tuple[str, type[Any]]]:
    """The front door, the new-secret action and the closing pages' last keys."""
    from tornado import web

    from companion.widgets import last_keys
    from companion.widgets.front_door import front_door
    from companion.widgets.rejoin import same_machine

    class FrontDoor(web.RequestHandler):
        def get(self) -> None:
            manager = self.settings["kernel_manager"]
            running = list(manager.list_kernel_ids())
            live = {
                path.removesuffix(".ipynb"): table.devices(path, manager._kernel_connections)
                for path in list(table.pages)
                if table.page(path, running) is not None
            }
            self.set_header("Content-Type", "text/html; charset=utf-8")
            self.set_header("Cache-Control", "no-store")
            self.set_header("Content-Security-Policy", PAGE_POLICY)
            for name, value in FRONT_DOOR_HEADERS.items():
                self.set_header(name, value)
            host_device = same_machine(self.request)
            shown = may_show_secret(host_device, self.request.headers)
            self.finish(
                front_door(
                    live=live,
                    join=os.environ.get(JOIN_VARIABLE, "") if host_device else "",
                    secret=table.guard.secret if shown else "",
                    host_device=host_device,
                    hidden=hidden_note(self.request.headers, own_address(self.request)),
                )
            )

    class NewSecret(web.RequestHandler):
        def check_xsrf_cookie(self) -> None:
            pass  # the guard refused every other site; the Origin is required below

        def post(self) -> None:
            if not self.request.headers.get("Origin") or not same_machine(self.request):
                raise web.HTTPError(403, "only the host's own screen can change the secret")
            table.guard.renew()
            closed = table.close_sockets()
            LOG.info("New table secret: %s closed", plural(closed, "device connection"))
            self.set_cookie(COOKIE, table.guard.secret, path="/", httponly=True, samesite="Strict")
            self.redirect("/")

    return [
        ("/", FrontDoor),
        ("/companion/new-secret", NewSecret),
        (last_keys.PATH, last_keys.handler(lambda: table.guard.kernels)),
    ]


def install(table: Table) -> None:
    """Replace Voilà's file list and page handler, add the companion's own."""
    import voila.app
    from voila.tornado.handler import TornadoVoilaHandler
    from voila.tornado.treehandler import TornadoVoilaTreeHandler

    original = voila.app.Voila.init_handlers
    shared = render_handler(TornadoVoilaHandler, table)

    def init_handlers(self: Any) -> list[Any]:
        handlers = []
        for handler in original(self):
            pattern, target = handler[0], handler[1]
            if target is TornadoVoilaTreeHandler:
                continue  # the front door instead of the file list
            if target is TornadoVoilaHandler:
                handler = (pattern, shared, *handler[2:])
            handlers.append(handler)
        return [*companion_handlers(table), *handlers]

    voila.app.Voila.init_handlers = init_handlers


def main() -> None:
    """Start Voilà with the guard, the shared game kernels and the capped kernel manager."""
    import voila.app
    from traitlets.config import Config
    from voila.voila_kernel_manager import voila_kernel_manager_factory

    from companion.widgets import keepalive

    quiet_logs()
    from companion.widgets import socket_filter

    bounds.install()  # per-address connections, request timeouts, no EMFILE tracebacks
    socket_filter.install()  # a device sends its players' input, nothing else
    guard = Guard.from_environment(os.environ)
    os.environ[SECRET_VARIABLE] = ""  # kernels need only their own secret
    os.environ[KERNEL_SECRET_VARIABLE] = guard.kernel_secret
    table = Table(guard)
    guard_every_request(guard)
    install(table)
    keep_shared_kernels(table)
    count_sockets(table)
    same_origin_shutdown()
    keepalive.install()

    def factory(base: type[Any], *args: Any, **kwargs: Any) -> type[Any]:
        return capped(voila_kernel_manager_factory(base, *args, **kwargs))

    voila.app.voila_kernel_manager_factory = factory
    config = Config()
    config.VoilaConfiguration.extension_denylist = ["jupyterlab_pygments"]
    sys.exit(voila.app.Voila.launch_instance(config=config))


if __name__ == "__main__":
    main()
