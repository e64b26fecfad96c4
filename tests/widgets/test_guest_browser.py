"""A hostile guest against real browsers on ``companion serve --table --host 127.0.0.1``.

Two devices (browser profiles that joined with the secret) play a game while a
third sends what the page never would: no script runs on any device, no page
script reads the secret, and a game whose kernel is killed is back on every
device, values kept, within ten seconds.
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
]


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
    page.goto(live.join)
    page.wait_for_selector("h1")
    page.close()
    return context


def game(context: Any, live: Any, name: str, ran: list[str]) -> Any:
    page = context.new_page()
    page.on("console", lambda msg: ran.append(msg.text) if "owned" in msg.text else None)
    page.goto(live.page(name))
    page.wait_for_selector(".scorepad", timeout=90_000)
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


def test_every_device_plays_again_within_ten_seconds_of_a_killed_kernel(
    chromium: Any, live: Any
) -> None:
    from companion.widgets.drafts import Drafts

    ran: list[str] = []
    first, second = joined(chromium, live), joined(chromium, live)
    try:
        pages = [game(first, live, "kamakura", ran), game(second, live, "kamakura", ran)]
        name = pages[0].locator(".name-0 input")
        name.fill("Eri")
        name.press("Tab")
        deadline = time.monotonic() + 20
        while "Eri" not in str(Drafts("kamakura", live.db).latest()):
            assert time.monotonic() < deadline, "the name never reached the draft"
            time.sleep(0.2)
        config = pages[0].evaluate(
            "JSON.parse(document.getElementById('jupyter-config-data').textContent)"
        )
        os.kill(kernel_process(config["kernelId"], live.process.pid), signal.SIGKILL)
        killed = time.monotonic()
        for page in pages:
            page.wait_for_function(
                "(old) => { const c = document.getElementById('jupyter-config-data');"
                " return c && JSON.parse(c.textContent).kernelId !== old"
                " && document.querySelector('.scorepad'); }",
                arg=config["kernelId"],
                timeout=max(1, 10 - (time.monotonic() - killed)) * 1000,
            )
            page.wait_for_function(
                "() => { const i = document.querySelector('.name-0 input');"
                " return i && i.value === 'Eri'; }",
                timeout=max(1, 10 - (time.monotonic() - killed)) * 1000,
            )
        assert time.monotonic() - killed < 10
        # Playing again: a change on one device reaches the other.
        place = pages[1].locator(".name-1 input")
        place.fill("Fumi")
        place.press("Tab")
        pages[0].wait_for_function(
            "() => document.querySelector('.name-1 input').value === 'Fumi'", timeout=10_000
        )
    finally:
        first.close()
        second.close()
    assert "Traceback" not in Path(live.log).read_text(errors="replace")
