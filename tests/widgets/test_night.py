"""A game night, not a demo: table mode over longer than a few seconds, through drops and restarts.

Phones (browser contexts at 390×844) join ``companion serve --table --host
127.0.0.1`` and stay on one game. The tests count the page's websocket
closes and look for every value typed on every device and in the saved draft:

- three devices on a page for longer than four server pings, typing and idle:
  no connection is closed and no value is lost, and the screen is kept on;
- a device whose connection is cut while it types (what it sends is lost on
  the way, then the connection is closed from the server's side) loses
  nothing, and a change it sends again after the drop does not undo a newer
  one from another device;
- the last keys typed before a page closes reach the game (by the page's
  beacon when its closing websocket sends nothing more), and a value that
  could not reach it is shown on the phone the next time it opens the game,
  also when the heartbeat reloads a page whose kernel is gone;
- after New secret, and after the server restarted, a joined phone lands on
  the rejoin page, made for a phone; so does an installed shortcut.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.widgets.keepalive import PING_INTERVAL_MS
from tests.widgets.test_browser import ARGS, CHROMIUM, wait_for

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(), reason="Debian's chromium is not installed (.ci/run installs it)"
    ),
]

CHANNELS = re.compile(r".*/api/kernels/.*/channels.*")
OPTIONS = ("--table", "--host", "127.0.0.1", "--pool", "0")
BEACON_LINE = "A page's last keys:"  # the server's line for a beacon it passed on
HOLD_SECONDS = 48.0  # longer than four ping intervals of the server


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    from tests.support.serving import served

    with served(tmp_path_factory.mktemp("night"), *OPTIONS) as running:
        yield running


class Phone:
    """One phone at the table: its own browser context, one page, its connections counted."""

    def __init__(
        self, chromium: Any, table: Any, game: str, *, route: Any = None, insecure: bool = False
    ) -> None:
        self.context = chromium.new_context(viewport={"width": 390, "height": 844})
        if insecure:  # as a phone at http://192.168.…: no Wake Lock
            self.context.add_init_script("delete Navigator.prototype.wakeLock;")
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.closes = 0
        self.opens = 0
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on("websocket", self._socket)
        if route is not None:
            self.page.route_web_socket(CHANNELS, route)
        self.page.goto(table.join)
        self.page.goto(table.page(game), wait_until="commit")
        self.page.wait_for_selector(".scorepad input", timeout=90_000)

    def _socket(self, socket: Any) -> None:
        if CHANNELS.match(socket.url):
            self.opens += 1
            socket.on("close", lambda _: setattr(self, "closes", self.closes + 1))

    def type(self, selector: str, text: str, delay: float = 120) -> None:
        box = self.page.locator(selector).first
        box.click()
        box.press("Control+a")
        box.press("Backspace")
        box.press_sequentially(text, delay=delay)

    def value(self, selector: str) -> str:
        return str(self.page.input_value(selector))

    def close(self) -> None:
        self.context.close()


def shown_everywhere(phones: list[Phone], selector: str, value: str, limit: float = 30) -> None:
    for phone in phones:
        wait_for(
            lambda phone=phone: phone.value(selector) == value,
            f"{selector} never showed {value!r} (it shows {phone.value(selector)!r})",
            limit,
        )


def drafted(table: Any, game: str) -> dict[str, Any]:
    from companion.widgets.drafts import Drafts

    found = Drafts(game, table.db).latest() if table.db.exists() else None
    return {} if found is None else found[1]


def in_draft(table: Any, game: str, *values: str, pump: Any = None) -> None:
    """Wait for ``values`` in the game's draft.

    ``pump``: a page whose websocket goes through a route of the test (the
    route forwards messages only while the test calls Playwright).
    """

    def found() -> bool:
        if pump is not None:
            pump.evaluate("1")
        return all(value in json.dumps(drafted(table, game)) for value in values)

    wait_for(
        found,
        f"the saved draft lacks one of {values}: {json.dumps(drafted(table, game))[:600]}",
        30,
    )


def new_game(phone: Phone, players: str) -> None:
    again = phone.page.locator("button.new-game")
    if again.is_visible():
        again.click()
    phone.page.select_option(".player-count select", label=players)


@pytest.mark.timeout(400, method="signal")
def test_three_phones_hold_a_game_for_longer_than_four_pings(chromium: Any, table: Any) -> None:
    assert HOLD_SECONDS > 4 * PING_INTERVAL_MS / 1000
    phones = [Phone(chromium, table, "tokaido", insecure=k == 2) for k in range(3)]
    try:
        new_game(phones[0], "3 players")
        for phone in phones:
            phone.page.wait_for_selector(".name-2 input", timeout=20_000)
            # The screen is kept on: the Wake Lock, or else the silent looping video.
            wait_for(
                lambda phone=phone: (
                    phone.page.evaluate("document.documentElement.dataset.awake")
                    in ("lock", "video")
                ),
                "the screen is not kept on",
                20,
            )
        assert phones[2].page.evaluate("document.documentElement.dataset.awake") == "video"
        playing = "(() => { const v = document.querySelector('video.companion-awake');"
        playing += " return !!v && !v.paused && v.muted && v.loop; })()"
        wait_for(lambda: phones[2].page.evaluate(playing), "the screen keeper does not play", 10)
        last: dict[str, str] = {}
        start = time.monotonic()
        turn = 0
        names = ("Alexandra", "Eleonora", "Dorothea", "Benedikt", "Chiyoko", "Ingeborg")
        while time.monotonic() - start < HOLD_SECONDS:
            for seat, phone in enumerate(phones):
                name = f"{names[(turn + seat) % len(names)]}{turn}"
                phone.type(f".name-{seat} input", name)
                last[f".name-{seat} input"] = name
                journey = str(10 + 7 * turn + seat)
                phone.type(f".c-players-{seat}-journey input", journey)
                last[f".c-players-{seat}-journey input"] = journey
            turn += 1
            phones[0].page.wait_for_timeout(6000)  # idle: the table plays
        assert turn >= 3
        for selector, value in last.items():
            shown_everywhere(phones, selector, value)
        in_draft(table, "tokaido", *(v for k, v in last.items() if "name" in k))
        assert [phone.closes for phone in phones] == [0, 0, 0]
        assert [phone.opens for phone in phones] == [1, 1, 1]
        assert [phone.errors for phone in phones] == [[], [], []]
        assert "WebSocket ping timeout" not in table.log.read_text()
    finally:
        for phone in phones:
            phone.close()


@pytest.mark.timeout(400, method="signal")
def test_a_connection_cut_while_typing_loses_nothing(chromium: Any, table: Any) -> None:
    """What the phone sends is lost on the way, then the server's side closes the connection."""
    routes: list[Any] = []
    state = {"to_server": True, "to_page": True}

    def through(route: Any) -> None:
        upstream = route.connect_to_server()
        route.on_message(lambda m: upstream.send(m) if state["to_server"] else None)
        upstream.on_message(lambda m: route.send(m) if state["to_page"] else None)
        routes.append(upstream)

    cut = Phone(chromium, table, "shibuya", route=through)
    other = Phone(chromium, table, "shibuya")
    phones = [cut, other]
    try:
        new_game(other, "2 players")
        # 1. Typing across a drop: the keys sent while the line is dead, and those typed
        #    while the page reconnects, all reach the game, on every device.
        cut.type(".name-0 input", "Alex")
        shown_everywhere(phones, ".name-0 input", "Alex")
        state["to_server"] = False
        cut.page.keyboard.type("an", delay=80)
        routes[-1].close()  # the server's side closes the connection
        state["to_server"] = True
        cut.page.wait_for_selector(".companion-trouble >> text=reconnecting")
        assert cut.page.evaluate("document.activeElement.closest('.name-0') !== null")
        cut.page.keyboard.type("dra", delay=80)
        other.type(".name-1 input", "Ben")
        shown_everywhere(phones, ".name-0 input", "Alexandra")
        shown_everywhere(phones, ".name-1 input", "Ben")
        cut.page.wait_for_selector(".companion-trouble", state="detached")
        # 2. A change handled by the kernel whose answer was lost is sent again after
        #    the drop: it does not undo what another device typed meanwhile.
        cut.type(".name-1 input", "Doroth")
        shown_everywhere(phones, ".name-1 input", "Doroth")
        state["to_page"] = False
        cut.page.locator(".name-1 input").first.fill("Dorothy")  # one change, handled
        wait_for(lambda: other.value(".name-1 input") == "Dorothy", "Dorothy never arrived")
        other.type(".name-1 input", "Eleonora")
        routes[-1].close()
        state["to_page"] = True
        cut.page.wait_for_selector(".companion-trouble", state="detached", timeout=30_000)
        shown_everywhere(phones, ".name-1 input", "Eleonora")
        other.page.wait_for_timeout(2000)  # nothing sent late brings an older value back
        assert [p.value(".name-1 input") for p in phones] == ["Eleonora", "Eleonora"]
        in_draft(table, "shibuya", "Alexandra", "Eleonora")
        assert "Dorothy" not in json.dumps(drafted(table, "shibuya"))
        assert cut.page.locator(".companion-notkept").count() == 0
        assert cut.errors == [] and other.errors == []
    finally:
        cut.close()
        other.close()


@pytest.mark.timeout(300, method="signal")
def test_the_last_key_before_a_page_closes_is_kept(chromium: Any, table: Any) -> None:
    other = Phone(chromium, table, "kamakura")
    closing = Phone(chromium, table, "kamakura")
    try:
        new_game(other, "2 players")
        box = closing.page.locator(".name-0 input").first
        box.click()
        box.press_sequentially("Friedemann", delay=0)  # faster than the kernel answers
        closing.page.close()
        shown_everywhere([other], ".name-0 input", "Friedemann")
        in_draft(table, "kamakura", "Friedemann")
    finally:
        closing.close()
        other.close()


@pytest.mark.timeout(300, method="signal")
def test_the_last_keys_arrive_by_beacon_when_the_closing_socket_sends_nothing(
    chromium: Any, table: Any
) -> None:
    """A closing page's websocket may never send its last message: the beacon carries it."""
    state = {"to_server": True}
    beacons = table.log.read_text().count(BEACON_LINE)

    def through(route: Any) -> None:
        upstream = route.connect_to_server()
        route.on_message(lambda m: upstream.send(m) if state["to_server"] else None)
        upstream.on_message(lambda m: route.send(m))

    other = Phone(chromium, table, "kamakura")
    closing = Phone(chromium, table, "kamakura", route=through)

    try:
        new_game(other, "2 players")
        closing.type(".name-1 input", "Hilde")
        shown_everywhere([other], ".name-1 input", "Hilde")
        state["to_server"] = False  # nothing the page sends from now on leaves its socket
        closing.page.locator(".name-1 input").first.press_sequentially("gard", delay=0)
        closing.page.close()
        shown_everywhere([other], ".name-1 input", "Hildegard")
        in_draft(table, "kamakura", "Hildegard")
        assert table.log.read_text().count(BEACON_LINE) > beacons
    finally:
        closing.close()
        other.close()


@pytest.mark.timeout(300, method="signal")
def test_the_heartbeat_keeps_what_was_not_sent_before_it_reloads(chromium: Any, table: Any) -> None:
    """The kernel is gone (404): the page reloads, and what it could not send is kept."""
    state = {"to_server": True, "gone": 0}
    sockets: list[Any] = []

    def through(route: Any) -> None:
        first = not sockets  # the page before its reload (the one after it is not cut)
        upstream = route.connect_to_server()
        sockets.append(upstream)
        route.on_message(lambda m: upstream.send(m) if state["to_server"] or not first else None)
        upstream.on_message(lambda m: route.send(m))

    def heartbeat(route: Any) -> None:
        if state["to_server"] or state["gone"]:
            route.continue_()
            return
        state["gone"] += 1  # once: the kernel was culled, says the server
        route.fulfill(status=404, body="{}", content_type="application/json")

    phone = Phone(chromium, table, "shimoda", route=through)
    try:
        phone.page.route(re.compile(r".*/api/kernels/[0-9a-f-]{36}$"), heartbeat)
        new_game(phone, "2 players")
        phone.type(".name-0 input", "Ulla")
        in_draft(table, "shimoda", "Ulla", pump=phone.page)
        state["to_server"] = False  # the kernel never hears of what comes now
        phone.page.evaluate("navigator.sendBeacon = () => false")  # nor by a beacon
        phone.type(".name-1 input", "Vreni", delay=40)
        # The heartbeat (every 15 s) finds the kernel gone and reloads the page.
        notice = phone.page.wait_for_selector(".companion-notkept", timeout=90_000)
        assert state["gone"] == 1
        assert "Player 2: Vreni" in notice.inner_text()
        assert "Ulla" not in notice.inner_text()
    finally:
        phone.close()


@pytest.mark.timeout(300, method="signal")
def test_a_value_that_could_not_be_sent_is_shown_on_the_phone_next_time(
    chromium: Any, table: Any
) -> None:
    state = {"dead": False}

    def through(route: Any) -> None:
        if state["dead"]:  # the Wi-Fi is gone
            route.close()
            return
        upstream = route.connect_to_server()
        route.on_message(lambda m: None if state["dead"] else upstream.send(m))
        upstream.on_message(lambda m: route.send(m))

    phone = Phone(chromium, table, "shogun", route=through)
    try:
        new_game(phone, "3 players")
        phone.type(".name-0 input", "Zelda")
        in_draft(table, "shogun", "Zelda", pump=phone.page)
        state["dead"] = True
        # No request leaves the phone, its closing page's beacon neither (a route
        # of the test does not see a beacon sent as the page goes).
        phone.page.evaluate("navigator.sendBeacon = () => false")
        phone.type(".name-1 input", "Yukiko", delay=40)
        phone.page.close()  # the phone's browser closes the page before the Wi-Fi is back
        again = phone.context.new_page()
        again.goto(table.page("shogun"), wait_until="commit")
        notice = again.wait_for_selector(".companion-notkept", timeout=90_000)
        assert "Player 2: Yukiko" in notice.inner_text()
        assert "Zelda" not in notice.inner_text()  # it reached the game
        assert again.input_value(".name-1 input") == ""
        again.click(".companion-notkept button")
        assert again.locator(".companion-notkept").count() == 0
    finally:
        phone.close()


def rejoined(page: Any) -> None:
    """The page is the rejoin page, made for a phone."""
    page.wait_for_selector("h1:text-is('Join the table again')", timeout=60_000)
    viewport = page.get_attribute("meta[name=viewport]", "content")
    assert viewport == "width=device-width, initial-scale=1"
    assert "Scan it with this device" in page.inner_text("main")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


@pytest.mark.timeout(300, method="signal")
def test_after_new_secret_a_joined_phone_lands_on_the_rejoin_page(
    chromium: Any, tmp_path: Path
) -> None:
    from tests.support.serving import served

    with served(tmp_path, *OPTIONS) as running:
        phone = Phone(chromium, running, "shogun")
        host = chromium.new_context()
        try:
            door = host.new_page()
            door.goto(running.join)
            door.click("button:has-text('New secret')")
            door.wait_for_selector("text=Join this table")
            rejoined(phone.page)
            # The form's redirect is a page's navigation: the code waits for the host
            # to open the page itself (Enter in the address bar).
            assert "?table=" not in door.content()
            assert "click the address bar and press Enter" in door.inner_text(".hidden-code")
            door.goto(door.url)
            door.wait_for_selector(".join svg")
            shown = door.inner_text(".join code")
            assert "?table=" in shown and running.secret not in shown  # the new one
        finally:
            phone.close()
            host.close()


@pytest.mark.timeout(400, method="signal")
def test_after_a_restart_a_joined_phone_and_its_shortcut_land_on_the_rejoin_page(
    chromium: Any, tmp_path: Path
) -> None:
    from tests.support.serving import served

    with served(tmp_path, *OPTIONS) as first:
        phone = Phone(chromium, first, "shimoda")
        port = first.port
    try:
        # The server is down: the page says so, and keeps trying.
        phone.page.wait_for_selector(".companion-trouble", timeout=30_000)
        with served(tmp_path, *OPTIONS, port=port) as second:
            rejoined(phone.page)
            # The installed app's manifest loads without the table's cookie, and its
            # start address, opened with the old cookie, is the rejoin page.
            shortcut = phone.context.new_page()
            manifest = shortcut.request.get(
                f"{second.base}voila/templates/companion/static/manifest.json"
            )
            assert manifest.status == 200 and manifest.json()["display"] == "standalone"
            shortcut.goto(second.base)
            rejoined(shortcut)
            # Scanning the new code joins again.
            shortcut.goto(second.join)
            shortcut.wait_for_selector("text=Board game companion")
    finally:
        phone.close()


@pytest.mark.timeout(300, method="signal")
def test_the_last_keys_are_sent_when_a_page_is_hidden(chromium: Any, table: Any) -> None:
    """A phone locked (the page hidden, not closed) sends what it typed at that moment."""
    state = {"to_server": True}

    def through(route: Any) -> None:
        upstream = route.connect_to_server()
        route.on_message(lambda m: upstream.send(m) if state["to_server"] else None)
        upstream.on_message(lambda m: route.send(m))

    other = Phone(chromium, table, "tokaido")
    hidden = Phone(chromium, table, "tokaido", route=through)
    try:
        new_game(other, "2 players")
        hidden.type(".name-0 input", "Mar")
        shown_everywhere([other], ".name-0 input", "Mar")
        state["to_server"] = False  # the phone's connection says nothing more
        hidden.page.locator(".name-0 input").first.press_sequentially("git", delay=0)
        hidden.page.evaluate(
            "Object.defineProperty(document, 'visibilityState', {value: 'hidden'});"
            "document.dispatchEvent(new Event('visibilitychange'))"
        )
        shown_everywhere([other], ".name-0 input", "Margit")
        in_draft(table, "tokaido", "Margit")
    finally:
        hidden.close()
        other.close()


@pytest.mark.timeout(300, method="signal")
def test_the_beacon_takes_only_a_page_s_own_values(chromium: Any, table: Any) -> None:
    phone = Phone(chromium, table, "shibuya")
    try:
        kernel = phone.page.evaluate(
            "JSON.parse(document.getElementById('jupyter-config-data').textContent).kernelId"
        )
        origin = table.base.rstrip("/")
        url = f"{table.base}companion/kept/{kernel}"
        change = {"msg_id": "a" * 32, "comm_id": "b" * 32, "state": {"value": "x"}}
        body = json.dumps({"changes": [change]})
        request = phone.context.request
        other = f"{table.base}companion/kept/{'0' * 8}-0000-0000-0000-{'0' * 12}"
        answers = [
            request.post(url, data=body).status,  # no Origin: not a page's beacon
            request.post(url, data=body, headers={"Origin": "http://evil.test"}).status,
            request.post(other, data=body, headers={"Origin": origin}).status,
            request.post(url, data="{}", headers={"Origin": origin}).status,
            request.post(
                url,
                data=json.dumps({"changes": [{**change, "state": {"description": "<b>"}}]}),
                headers={"Origin": origin},
            ).status,
        ]
        assert answers == [403, 403, 404, 400, 400]
        stranger = chromium.new_context()
        try:  # without the table's cookie
            assert stranger.request.post(url, data=body, headers={"Origin": origin}).status == 403
        finally:
            stranger.close()
    finally:
        phone.close()
