"""A hostile guest against real browsers on ``companion serve --table --host 127.0.0.1``.

Two devices (browser profiles that joined with the secret) play a game while a
third sends what the page never would: no script runs on any device, no page
script reads the secret, and a game whose kernel is killed is back on every
device, values kept, with no one leaving.
"""

from __future__ import annotations

import json
import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.widgets.guest_device import Device
from tests.widgets.test_browser import ARGS, CHROMIUM
from tests.widgets.test_guest_replays import PAYLOAD, kernel_process

pytestmark = [
    pytest.mark.slow,
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed"),
    pytest.mark.timeout(1200, method="signal"),
]


LOADED = 300_000
"""Milliseconds a page may take to load: a game's first page runs its notebook in a
kernel, which takes minutes on a machine as busy as a shared test runner can be."""


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    from tests.support.serving import served

    folder = tmp_path_factory.mktemp("guest-browser")
    with served(folder, "--pool", "1", "--table", "--host", "127.0.0.1") as running:
        yield running


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            yield launched
        finally:
            launched.close()


def joined(chromium: Any, live: Any) -> Any:
    context = chromium.new_context()
    page = context.new_page()
    page.goto(live.join, timeout=LOADED)
    page.wait_for_selector("h1", timeout=LOADED)
    page.close()
    return context


def game(context: Any, live: Any, name: str, ran: list[str]) -> Any:
    page = context.new_page()
    page.on("console", lambda msg: ran.append(msg.text) if "owned" in msg.text else None)
    page.goto(live.page(name), timeout=LOADED)
    page.wait_for_selector(".scorepad", timeout=LOADED)
    return page


def test_no_script_runs_on_any_device_and_no_page_reads_the_secret(
    chromium: Any, live: Any
) -> None:
    ran: list[str] = []
    host, guest = joined(chromium, live), joined(chromium, live)
    try:
        pages = [game(host, live, "tokaido", ran), game(guest, live, "tokaido", ran)]
        response = pages[0].request.get(live.page("tokaido"))
        policy = response.headers["content-security-policy"]
        assert "script-src 'self'" in policy and "unsafe-inline" not in policy.split("style")[0]
        attacker = Device(live.port, live.secret, "tokaido")
        try:
            attacker.read_all()
            for panel in attacker.of("HTMLModel"):
                attacker.update(panel, {"value": PAYLOAD})
            time.sleep(2)
        finally:
            attacker.close()
        for page in pages:
            assert page.title() != "owned"
            assert page.locator("img[src=x]").count() == 0
            assert page.evaluate("document.cookie").find("companion_table") == -1
            door = page.evaluate("fetch('/', {credentials: 'same-origin'}).then(r => r.text())")
            assert live.secret not in door  # the front door to a script: no join address
        # An inline script slipped into a page is refused by the policy.
        slipped = pages[0].evaluate(
            "() => { const s = document.createElement('script');"
            " s.textContent = \"document.title = 'owned'\"; document.body.appendChild(s);"
            " return document.title; }"
        )
        assert slipped != "owned"
    finally:
        host.close()
        guest.close()
    assert ran == []
    door = chromium.new_context()
    try:
        page = door.new_page()
        page.goto(live.join)  # the host's own screen, a visit: the join address is there
        assert f"?table={live.secret}" in page.content()
    finally:
        door.close()


def test_a_script_on_the_host_s_screen_cannot_read_the_join_address(
    chromium: Any, live: Any
) -> None:
    """A script running in a game page of the host's browser tries every way to the
    front door; the join address stays out of its reach, and a visit the host
    starts (the address typed, or Enter in the address bar) still shows it."""
    ran: list[str] = []
    context = joined(chromium, live)
    sent: list[dict[str, str]] = []  # what Chromium sent for each navigation to the front door

    def note(request: Any) -> None:
        headers = request.all_headers()
        if request.url == live.base and headers.get("sec-fetch-dest") == "document":
            sent.append(headers)  # a window's navigation (a frame's is "iframe")

    try:
        page = game(context, live, "tokaido", ran)
        context.on("request", note)
        # A page's script fetches the front door, and frames it.
        fetched = page.evaluate("fetch('/', {credentials: 'same-origin'}).then(r => r.text())")
        assert "Join this table" in fetched and live.secret not in fetched
        framed = page.evaluate(
            """() => new Promise((done) => {
                const frame = document.createElement('iframe');
                frame.src = '/';
                frame.onload = () => {
                    let text;
                    try { text = frame.contentDocument.documentElement.outerHTML; }
                    catch (error) { text = 'refused: ' + error.name; }
                    done(text);
                };
                document.body.appendChild(frame);
            })"""
        )
        assert live.secret not in framed and "Join this table" not in framed
        # It opens the front door in a new window and reads it there.
        with context.expect_page() as opened:
            page.evaluate("() => { window.attack = window.open('/'); }")
        popup = opened.value
        popup.wait_for_selector("h2:text-is('Join this table')", timeout=60_000)
        assert live.secret not in popup.content()  # the page started it: no join address
        assert "click the address bar and press Enter" in popup.inner_text(".hidden-code")
        reached = page.evaluate(
            """() => { try { return window.attack.document.documentElement.outerHTML; }
                       catch (error) { return 'refused: ' + error.name; } }"""
        )
        assert reached == "refused: SecurityError" and live.secret not in reached
        assert page.evaluate("window.attack.closed") is True  # cut from its opener
        # What Chromium sent: the script's window is "same-origin", even with the
        # user's click fresh (Playwright's evaluate counts as one): "?1" proves nothing.
        assert [(h.get("sec-fetch-site"), h.get("sec-fetch-user")) for h in sent] == [
            ("same-origin", "?1")
        ]
        # Reloaded, it is still the window the script opened (Chromium sends the
        # first visit's headers again): no join address.
        popup.reload()
        popup.wait_for_selector(".hidden-code")
        assert live.secret not in popup.content()
        # The host presses Enter in its address bar, or types the address: shown.
        popup.goto(live.base)
        assert f"{live.base}?table={live.secret}" in popup.inner_text(".join code")
        assert page.evaluate("window.attack.closed") is True
        door = context.new_page()
        door.goto(live.base)
        assert f"{live.base}?table={live.secret}" in door.inner_text(".join code")
        sites = [h.get("sec-fetch-site") for h in sent]
        assert sites == ["same-origin", "same-origin", "none", "none"]
    finally:
        context.close()
    assert ran == []


def test_markup_in_a_cell_output_is_rebuilt_from_the_allowlist(chromium: Any, live: Any) -> None:
    output = {
        "output_type": "display_data",
        "metadata": {},
        "data": {
            "text/html": "<b class='kept'>kept</b><img src=x onerror=\"document.title='owned'\">"
            "<script>document.title='owned'</script><a href='javascript:alert(1)'>link</a>"
            "<span onclick=\"document.title='owned'\" data-x='1'>span</span>"
        },
    }
    cell = (
        '<script type="application/vnd.voila.cell-output+json">'
        + json.dumps(output).replace("</", "<\\/")
        + "</script>"
    )
    # A page changed on its way is not the server's to Chromium: it may still reach it.
    own = chromium.browser_type.launch(
        executable_path=str(CHROMIUM), args=[*ARGS, "--disable-features=LocalNetworkAccessChecks"]
    )
    try:
        check_injected(own, live, cell)
    finally:
        own.close()


def check_injected(chromium: Any, live: Any, cell: str) -> None:
    context = joined(chromium, live)
    try:
        page = context.new_page()

        def inject(route: Any) -> None:
            response = route.fetch()
            body = response.text().replace("</main>", f"<div>{cell}</div></main>", 1)
            route.fulfill(response=response, body=body)

        page.route("**/voila/render/shimoda.ipynb", inject)
        page.goto(live.page("shimoda"))
        page.wait_for_selector(".scorepad", timeout=90_000)
        page.wait_for_selector("b.kept")
        assert page.locator("b.kept").inner_text() == "kept"
        assert page.locator("img[src=x]").count() == 0
        assert page.locator(".companion-output script").count() == 0
        assert page.locator("a", has_text="link").get_attribute("href") is None
        span = page.locator("span", has_text="span").last
        assert span.get_attribute("onclick") is None and span.get_attribute("data-x") == "1"
        assert page.title() != "owned"
    finally:
        context.close()


REVIVED = 300_000
"""Milliseconds a device may take to be playing again after its kernel was killed.

Generous on purpose: the test checks that every device gets the game back by
itself, values kept; how fast (within 10 s on a quiet machine) is a figure of
``benchmarks/serve.py --guest``, as a busy machine may be slower.
"""


def test_every_device_plays_again_after_a_killed_kernel(chromium: Any, live: Any) -> None:
    from companion.widgets.drafts import Drafts

    ran: list[str] = []
    first, second = joined(chromium, live), joined(chromium, live)
    try:
        pages = [game(first, live, "kamakura", ran), game(second, live, "kamakura", ran)]
        name = pages[0].locator(".name-0 input")
        name.fill("Eri")
        name.press("Tab")
        # Both devices have the name, and the kernel has kept it in the draft.
        pages[1].wait_for_function(
            "() => document.querySelector('.name-0 input').value === 'Eri'", timeout=REVIVED
        )
        deadline = time.monotonic() + REVIVED / 1000
        while "Eri" not in str(Drafts("kamakura", live.db).latest()):
            assert time.monotonic() < deadline, "the name never reached the draft"
            time.sleep(0.2)
        config = pages[0].evaluate(
            "JSON.parse(document.getElementById('jupyter-config-data').textContent)"
        )
        os.kill(kernel_process(config["kernelId"], live.process.pid), signal.SIGKILL)
        for page in pages:  # each reloads into the game's new kernel, by itself
            page.wait_for_function(
                # A page still arriving holds part of its config: read it once it is whole.
                "(old) => { const c = document.getElementById('jupyter-config-data');"
                " let id = null; try { id = c && JSON.parse(c.textContent).kernelId; }"
                " catch (e) { return false; }"
                " return id && id !== old && document.querySelector('.scorepad'); }",
                arg=config["kernelId"],
                timeout=REVIVED,
            )
            page.wait_for_function(
                "() => { const i = document.querySelector('.name-0 input');"
                " return i && i.value === 'Eri'; }",
                timeout=REVIVED,
            )
        # Playing again: a change on one device reaches the other.
        place = pages[1].locator(".name-1 input")
        place.fill("Fumi")
        place.press("Tab")
        pages[0].wait_for_function(
            "() => { const i = document.querySelector('.name-1 input');"
            " return i && i.value === 'Fumi'; }",
            timeout=REVIVED,
        )
    finally:
        first.close()
        second.close()
    assert ran == []
    assert "Traceback" not in Path(live.log).read_text(errors="replace")
