"""The kernel cap of ``companion serve``, over a stand-in for Voilà's kernel manager."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from tornado import web

from companion.widgets import server


@dataclass
class Kernel:
    kernel_id: str
    last_activity: float
    alive: bool = True
    provisioner: Any = None

    async def is_alive(self) -> bool:
        return self.alive


class FakeManager:
    """What the cap uses of Voilà's pooling kernel manager."""

    def __init__(self) -> None:
        self.kernels: dict[str, Kernel] = {}
        self._kernel_connections: dict[str, int] = {}
        self._pools: dict[str, list[asyncio.Future[Any]]] = {}
        self.filled: list[str | None] = []
        self.refill = False  # fill_if_needed puts a kernel that is starting in the pool
        self.shut: list[str] = []
        self.culled: list[str] = []
        quiet = staticmethod(lambda *a: None)
        self.log = type("Log", (), {"info": quiet, "warning": quiet})()
        self.clock = 0.0

    def list_kernel_ids(self) -> list[str]:
        return list(self.kernels)

    def get_kernel(self, kernel_id: str) -> Kernel:
        return self.kernels[kernel_id]

    async def start_kernel(self, **_: Any) -> str:
        self.clock += 1
        kernel_id = f"k{len(self.kernels) + len(self.shut)}"
        self.kernels[kernel_id] = Kernel(kernel_id, self.clock)
        return kernel_id

    async def shutdown_kernel(self, kernel_id: str, now: bool = False) -> None:
        del self.kernels[kernel_id]
        self.shut.append(kernel_id)

    def fill_if_needed(self, delay: float | None = None, notebook_name: str | None = None) -> None:
        self.filled.append(notebook_name)
        if self.refill and notebook_name is not None:

            async def starting() -> dict[str, str]:
                return {"kernel_id": await self.start_kernel()}

            self._pools.setdefault(notebook_name, []).append(asyncio.ensure_future(starting()))

    async def get_rendered_notebook(self, notebook_name: str) -> str:
        task = self._pools[notebook_name].pop(0)
        return str((await task)["kernel_id"])

    async def cull_kernel_if_idle(self, kernel_id: str) -> None:
        self.culled.append(kernel_id)  # Jupyter's culler: this kernel was idle long enough


def manager(monkeypatch: pytest.MonkeyPatch, cap: int) -> Any:
    monkeypatch.setenv(server.MAX_KERNELS_VARIABLE, str(cap))
    return server.capped(FakeManager)()


def done(kernel_id: str) -> asyncio.Future[Any]:
    future: asyncio.Future[Any] = asyncio.get_event_loop().create_future()
    future.set_result({"kernel_id": kernel_id})
    return future


def test_a_new_page_frees_the_oldest_kernel_no_page_uses(monkeypatch: pytest.MonkeyPatch) -> None:
    async def scenario() -> None:
        kernels = manager(monkeypatch, 3)
        first = await kernels.start_kernel()
        second = await kernels.start_kernel()
        pooled = await kernels.start_kernel()
        kernels._pools["tokaido.ipynb"] = [done(pooled)]
        kernels._kernel_connections[second] = 1  # an open page
        fourth = await kernels.start_kernel()
        assert kernels.shut == [first]  # not the pool's, not the open page's
        assert set(kernels.list_kernel_ids()) == {second, pooled, fourth}
        kernels._kernel_connections[fourth] = 1
        with pytest.raises(web.HTTPError) as refused:
            await kernels.start_kernel()
        assert refused.value.status_code == 503
        assert "3 kernels are running, the most this server allows" in str(refused.value)

    asyncio.run(scenario())


class Starting(Kernel):
    """A kernel being started: Jupyter refuses to read its last activity (not set yet)."""

    @property  # type: ignore[override]
    def last_activity(self) -> float:
        from traitlets import TraitError

        raise TraitError("expected a datetime, not the NoneType None")

    @last_activity.setter
    def last_activity(self, value: float) -> None:
        pass


def test_a_page_waits_for_pool_kernels_still_starting(monkeypatch: pytest.MonkeyPatch) -> None:
    """A pool's kernel being started is listed and its task pending: counted twice, and it
    has no last activity yet. A page waits for it rather than freeing it or failing."""

    async def scenario() -> None:
        kernels = manager(monkeypatch, 3)
        loop = asyncio.get_event_loop()
        starting: asyncio.Future[Any] = loop.create_future()
        kernels.kernels["s"] = Starting("s", 0.0)
        kernels._pools["history.ipynb"] = [starting]
        page = await kernels.start_kernel()  # 1 listed + 1 pending, under the cap of 3
        kernels._kernel_connections[page] = 1
        loop.call_later(0.05, lambda: starting.set_result({"kernel_id": "s"}))
        again = asyncio.ensure_future(kernels.start_kernel())  # 2 listed + 1 pending: full
        assert await again not in ("s", page)
        assert kernels.shut == []  # nothing starting was freed
        assert set(kernels.list_kernel_ids()) == {"s", page, await again}

    asyncio.run(scenario())


def test_the_pool_fills_only_under_the_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    async def scenario() -> None:
        kernels = manager(monkeypatch, 2)
        kernels.fill_if_needed(notebook_name="shogun.ipynb")
        assert kernels.filled == ["shogun.ipynb"]
        await kernels.start_kernel()
        await kernels.start_kernel()
        kernels.fill_if_needed(notebook_name="shogun.ipynb")
        assert kernels.filled == ["shogun.ipynb"]  # deferred: retried later

    asyncio.run(scenario())


def test_only_ready_pool_kernels_are_handed_out(monkeypatch: pytest.MonkeyPatch) -> None:
    async def scenario() -> None:
        kernels = manager(monkeypatch, 5)
        loop = asyncio.get_event_loop()
        pending: asyncio.Future[Any] = loop.create_future()
        failed: asyncio.Future[Any] = loop.create_future()
        failed.set_exception(RuntimeError("the kernel died"))
        ready = await kernels.start_kernel()
        kernels._pools["kamakura.ipynb"] = [pending, failed, done(ready)]
        assert kernels.get_pool_size("kamakura.ipynb") == 1
        assert kernels._pools["kamakura.ipynb"] == [pending, kernels._pools["kamakura.ipynb"][1]]
        assert await kernels.get_rendered_notebook("kamakura.ipynb") == ready
        assert kernels._pools["kamakura.ipynb"] == [pending]
        pending.cancel()

    asyncio.run(scenario())


def test_a_kernel_waiting_in_the_pool_or_for_its_page_is_neither_culled_nor_freed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A page connects to its kernel only once its script has loaded (seconds on a busy
    machine): culled or freed in between, the page was left on a kernel that is gone."""

    async def scenario() -> None:
        kernels = manager(monkeypatch, 3)
        given, pooled = await kernels.start_kernel(), await kernels.start_kernel()
        kernels._pools["shimoda.ipynb"] = [done(given), done(pooled)]
        assert await kernels.get_rendered_notebook("shimoda.ipynb") == given
        await kernels.cull_kernel_if_idle(given)  # handed out, the page not connected yet
        await kernels.cull_kernel_if_idle(pooled)  # waiting in the pool
        assert kernels.culled == []
        third = await kernels.start_kernel()  # full now: nothing may be freed
        kernels._kernel_connections[third] = 1
        with pytest.raises(web.HTTPError):
            await kernels.start_kernel()
        assert kernels.shut == []
        kernels._kernel_connections[given] = 1  # the page connected ...
        await kernels.cull_kernel_if_idle(given)
        kernels._kernel_connections[given] = 0  # ... and closed: an ordinary kernel again
        await kernels.cull_kernel_if_idle(given)
        assert kernels.culled == [given, given]
        assert await kernels.start_kernel() not in (given, pooled, third)
        assert kernels.shut == [given]

    asyncio.run(scenario())


def test_a_page_that_never_connects_frees_its_kernel_after_a_while(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async def scenario() -> None:
        kernels = manager(monkeypatch, 3)
        given = await kernels.start_kernel()
        kernels._pools["tokaido.ipynb"] = [done(given)]
        assert await kernels.get_rendered_notebook("tokaido.ipynb") == given
        monkeypatch.setattr(server, "HANDED_OUT_SECONDS", 0.0)
        await kernels.cull_kernel_if_idle(given)
        assert kernels.culled == [given]

    asyncio.run(scenario())


def test_a_pooled_kernel_that_died_is_not_handed_out(monkeypatch: pytest.MonkeyPatch) -> None:
    async def scenario() -> None:
        kernels = manager(monkeypatch, 5)
        dead, living = await kernels.start_kernel(), await kernels.start_kernel()
        kernels.get_kernel(dead).alive = False
        kernels._pools["tokaido.ipynb"] = [done(dead), done(living)]
        assert await kernels.get_rendered_notebook("tokaido.ipynb") == living
        assert kernels.shut == [dead]  # and it no longer counts toward the cap
        assert kernels._pools["tokaido.ipynb"] == []
        assert kernels.filled == []

    asyncio.run(scenario())


def test_a_pooled_kernel_that_was_restarted_is_not_handed_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from types import SimpleNamespace

    async def scenario() -> None:
        kernels = manager(monkeypatch, 5)
        restarted, kept = await kernels.start_kernel(), await kernels.start_kernel()
        for number, kernel_id in enumerate((restarted, kept)):
            kernels.get_kernel(kernel_id).provisioner = SimpleNamespace(pid=100 + number)
        kernels._pools["kamakura.ipynb"] = [done(restarted), done(kept)]
        kernels.fill_if_needed(notebook_name="kamakura.ipynb")  # watches the pool
        await asyncio.sleep(0)  # the done callbacks run
        # Jupyter restarted the kernel that died: alive, in a new process that ran nothing.
        kernels.get_kernel(restarted).provisioner.pid = 200
        assert await kernels.get_rendered_notebook("kamakura.ipynb") == kept
        assert kernels.shut == [restarted]

    asyncio.run(scenario())


def test_when_every_pooled_kernel_died_the_page_gets_a_new_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async def scenario() -> None:
        kernels = manager(monkeypatch, 2)
        first = await kernels.start_kernel()
        dead = await kernels.start_kernel()
        kernels._kernel_connections[first] = 1  # an open page
        kernels.get_kernel(dead).alive = False
        kernels._pools["shogun.ipynb"] = [done(dead)]
        kernels.refill = True
        new = await kernels.get_rendered_notebook("shogun.ipynb")
        assert kernels.shut == [dead]
        assert kernels.filled == ["shogun.ipynb"]
        assert set(kernels.list_kernel_ids()) == {first, new}
        # No room left for a new kernel: the page is told to wait, not given a dead one.
        kernels._kernel_connections[new] = 1
        kernels.get_kernel(new).alive = False
        kernels._pools["shogun.ipynb"] = [done(new)]
        kernels.refill = False
        with pytest.raises(web.HTTPError) as refused:
            await kernels.get_rendered_notebook("shogun.ipynb")
        assert refused.value.status_code == 503

    asyncio.run(scenario())


def test_the_cap_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(server.MAX_KERNELS_VARIABLE, "nonsense")
    assert server.max_kernels() == server.DEFAULT_MAX_KERNELS
    monkeypatch.setenv(server.MAX_KERNELS_VARIABLE, "0")
    assert server.max_kernels() == 1


def test_a_closing_page_may_free_its_kernel_from_the_same_origin(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from types import SimpleNamespace

    from voila.shutdown_kernel_handler import VoilaShutdownKernelHandler

    refused: list[object] = []
    monkeypatch.setattr(
        VoilaShutdownKernelHandler, "check_xsrf_cookie", lambda self: refused.append(self)
    )
    server.same_origin_shutdown()
    check = VoilaShutdownKernelHandler.check_xsrf_cookie

    def request(headers: dict[str, str]) -> Any:
        return SimpleNamespace(request=SimpleNamespace(headers=headers))

    same = request({"Origin": "http://127.0.0.1:8866", "Host": "127.0.0.1:8866"})
    assert check(same) is None and refused == []
    with pytest.raises(web.HTTPError) as caught:
        check(request({"Origin": "http://evil.example", "Host": "127.0.0.1:8866"}))
    assert caught.value.status_code == 403
    no_origin = request({"Host": "127.0.0.1:8866"})
    check(no_origin)
    assert refused == [no_origin]  # without an Origin, the XSRF cookie is still required


def test_every_file_of_the_page_template_ships_in_the_package() -> None:
    import tomllib

    root = Path(server.__file__).parent
    pyproject = tomllib.loads((root.parent.parent / "pyproject.toml").read_text())
    patterns = pyproject["tool"]["setuptools"]["package-data"]["companion.widgets"]
    shipped = {path for pattern in patterns for path in root.glob(pattern) if path.is_file()}
    files = {path for path in (root / "jupyter").rglob("*") if path.is_file()}
    assert files and files <= shipped, sorted(str(p.relative_to(root)) for p in files - shipped)


# A real server: the secret, the Host check and the closed doors --------------


def ask(
    served: Any,
    path: str,
    *,
    host: str | None = None,
    cookie: str | None = None,
    method: str = "GET",
    headers: dict[str, str] | None = None,
) -> tuple[int, dict[str, str], str]:
    """One request to 127.0.0.1, with the Host and cookie a caller chooses."""
    import http.client

    connection = http.client.HTTPConnection("127.0.0.1", served.port, timeout=60)
    sent = {"Host": host or f"127.0.0.1:{served.port}", **(headers or {})}
    if cookie:
        sent["Cookie"] = f"companion_table={cookie}"
    connection.request(method, path, headers=sent)
    response = connection.getresponse()
    body = response.read().decode(errors="replace")
    connection.close()
    return response.status, dict(response.getheaders()), body


def websocket_status(served: Any, path: str, *, origin: str, host: str, cookie: str) -> int:
    """The status the server answers a websocket upgrade with (101: accepted)."""
    import base64
    import http.client
    import os as _os

    connection = http.client.HTTPConnection("127.0.0.1", served.port, timeout=60)
    connection.request(
        "GET",
        path,
        headers={
            "Host": host,
            "Origin": origin,
            "Cookie": f"companion_table={cookie}",
            "Upgrade": "websocket",
            "Connection": "Upgrade",
            "Sec-WebSocket-Version": "13",
            "Sec-WebSocket-Key": base64.b64encode(_os.urandom(16)).decode(),
        },
    )
    status = connection.getresponse().status
    connection.close()
    return status


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Any:
    from tests.support.history_fixture import fill
    from tests.support.serving import served

    folder = tmp_path_factory.mktemp("guarded")
    fill(folder / "history.sqlite3")
    with served(folder, "--pool", "0", "--table", "--host", "127.0.0.1") as running:
        yield running


def plays(db: Path) -> int:
    import sqlite3

    with sqlite3.connect(db) as conn:
        count = int(conn.execute("SELECT count(*) FROM plays").fetchone()[0])
    conn.close()
    return count


@pytest.mark.slow
@pytest.mark.timeout(240, method="signal")
def test_every_request_without_the_secret_is_refused(live: Any) -> None:
    assert live.first_line.startswith(f"Join {live.base}?table=")
    for path in ("/", "/voila/render/tokaido.ipynb", "/voila/render/history.ipynb"):
        assert ask(live, path)[0] == 403, path
        assert ask(live, path, cookie="wrong")[0] == 403, path
        assert ask(live, f"{path}?table=wrong")[0] == 403, path
    status, headers, _ = ask(live, f"/?table={live.secret}")
    assert status == 302 and headers["Location"] == "/"
    cookie = headers["Set-Cookie"]
    assert cookie.startswith(f"companion_table={live.secret};")
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and "Path=/" in cookie


@pytest.mark.slow
@pytest.mark.timeout(240, method="signal")
def test_a_foreign_host_and_jupyters_doors_are_refused_with_the_secret(live: Any) -> None:
    secret = live.secret
    host = f"evil.example:{live.port}"
    assert ask(live, "/", host=host, cookie=secret)[0] == 403
    assert ask(live, f"/?table={secret}", host=host)[0] == 403
    for path in (
        "/api/kernels",
        "/api/sessions",
        "/api/terminals",
        "/api/contents",
        "/api/contents/tokaido.ipynb",
        "/voila/api/contents/",
        "/voila/tree",
        "/voila/files/history.ipynb",
    ):
        assert ask(live, path, cookie=secret)[0] == 403, path
    status, _, door = ask(live, "/", cookie=secret)
    assert status == 200
    assert "Tokaido" in door


@pytest.mark.slow
@pytest.mark.timeout(240, method="signal")
def test_a_websocket_from_another_site_is_refused(live: Any) -> None:
    import re

    status, _, page = ask(live, "/voila/render/shibuya.ipynb", cookie=live.secret)
    assert status == 200
    kernel = re.search(r'"kernelId":\s*"([0-9a-f-]{36})"', page)
    assert kernel
    channels = f"/api/kernels/{kernel[1]}/channels"
    own = f"127.0.0.1:{live.port}"
    assert (
        websocket_status(live, channels, origin=f"http://{own}", host=own, cookie=live.secret)
        == 101
    )
    foreign = websocket_status(
        live, channels, origin="http://evil.example:1", host=own, cookie=live.secret
    )
    assert foreign == 403
    assert websocket_status(live, channels, origin=f"http://{own}", host=own, cookie="x") == 403
    other = "/api/kernels/a6e607c7-9b68-4d25-9367-b906292a01c2/channels"
    assert (
        websocket_status(live, other, origin=f"http://{own}", host=own, cookie=live.secret) == 403
    )


@pytest.mark.slow
@pytest.mark.timeout(240, method="signal")
def test_the_rebinding_attack_finds_nothing_and_the_game_stays(live: Any) -> None:
    """A page on another site whose name now points at 127.0.0.1 (DNS rebinding).

    It loads the history page under its own name, reads the kernel from it and
    would press Delete through widget messages. Its browser sends its own Host
    and Origin and no cookie of ours; even a stolen secret does not help it.
    """
    before = plays(live.db)
    attacker = f"rebind.evil.example:{live.port}"
    origin = f"http://{attacker}"
    for cookie in (None, live.secret):
        status, _, body = ask(
            live,
            "/voila/render/history.ipynb",
            host=attacker,
            cookie=cookie,
            headers={"Origin": origin},
        )
        assert status == 403
        assert "kernelId" not in body
        assert ask(live, "/api/kernels", host=attacker, cookie=cookie)[0] == 403
    # Without the Host trick (another local user): no secret, no page.
    status, _, body = ask(live, "/voila/render/history.ipynb")
    assert status == 403 and "kernelId" not in body
    status = websocket_status(
        live,
        "/api/kernels/a6e607c7-9b68-4d25-9367-b906292a01c2/channels",
        origin=origin,
        host=attacker,
        cookie=live.secret,
    )
    assert status == 403
    assert plays(live.db) == before == 7


@pytest.mark.slow
@pytest.mark.timeout(240, method="signal")
def test_the_terminal_shows_no_traceback_or_warning_of_normal_events(tmp_path: Path) -> None:
    """From start through a page load, a closed tab and Ctrl-C (SIGINT)."""
    import re
    import signal

    from tests.support.serving import served

    with served(tmp_path, "--pool", "1", stop=signal.SIGINT) as running:
        status, _, page = ask(running, "/voila/render/kamakura.ipynb", cookie=running.secret)
        assert status == 200, running.log.read_text() + page[-3000:]
        kernel = re.search(r'"kernelId":\s*"([0-9a-f-]{36})"', page)
        assert kernel
        own = f"127.0.0.1:{running.port}"
        channels = f"/api/kernels/{kernel[1]}/channels?session_id=0123abcd"
        for _ in range(2):  # a tab opened and closed
            assert (
                websocket_status(
                    running, channels, origin=f"http://{own}", host=own, cookie=running.secret
                )
                == 101
            )
        assert ask(running, "/voila/render/kamakura.ipynb", cookie=running.secret)[0] == 200
    log = running.log.read_text()
    assert "Traceback" not in log, log
    assert "Warning" not in log and "WARNING" not in log, log
    assert "A device opened kamakura" in log
    assert "A device joined kamakura" in log


@pytest.mark.slow
@pytest.mark.timeout(240, method="signal")
def test_zz_a_new_secret_closes_out_every_device_of_the_old_one(live: Any) -> None:
    """Runs last in the module: the host's screen asks for a new secret."""
    import re

    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    old = live.secret
    own = f"127.0.0.1:{live.port}"
    origin = {"Origin": f"http://{own}"}
    page = ask(live, "/voila/render/shimoda.ipynb", cookie=old)[2]
    kernel = re.search(r'"kernelId":\s*"([0-9a-f-]{36})"', page)
    assert kernel
    with connect(
        f"ws://{own}/api/kernels/{kernel[1]}/channels?session_id=feed",
        origin=f"http://{own}",
        additional_headers={"Cookie": f"companion_table={old}"},
    ) as joined:
        assert ask(live, "/companion/new-secret", cookie=old, method="POST")[0] == 403
        assert ask(live, "/companion/new-secret", method="POST", headers=origin)[0] == 403
        status, headers, _ = ask(
            live, "/companion/new-secret", cookie=old, method="POST", headers=origin
        )
        assert status == 302 and headers["Location"] == "/"
        new = headers["Set-Cookie"].split(";", 1)[0].split("=", 1)[1]
        assert new != old and len(new) >= 22
        with pytest.raises(ConnectionClosed):  # the device that joined with the old one is out
            while True:
                joined.recv(timeout=10)
    assert ask(live, "/", cookie=old)[0] == 403
    assert ask(live, f"/?table={old}")[0] == 403
    typed = {"Sec-Fetch-Site": "none", "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "document"}
    status, headers, door = ask(live, "/", cookie=new, headers=typed)
    assert status == 200
    assert f"{live.base}?table={new}" in door  # the join address shown is the new one
    assert "<svg" in door
    assert headers["Cross-Origin-Opener-Policy"] == "same-origin"
    assert headers["X-Frame-Options"] == "DENY"
    # The redirect after New secret, a link or a script: no join address, a note why.
    for other in ({**typed, "Sec-Fetch-Site": "same-origin", "Sec-Fetch-User": "?1"}, {}):
        status, _, door = ask(live, "/", cookie=new, headers=other)
        assert status == 200 and new not in door and "<svg" not in door
        assert "<p class='hidden-code'>The join code" in door
        assert "action='/companion/new-secret'" in door
    live.secret = new
