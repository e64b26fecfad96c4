"""A real browser on ``companion serve``, used as a table would, at three screen sizes.

Uses Debian's chromium through Playwright (never ``playwright install``);
``.ci/run`` installs chromium when it is missing. One server serves every
test of this module (short culling times, so that freed kernels are seen
within seconds); stopping it with SIGTERM must leave no process and no
listening port. Screenshots of every game at every size go to
``test-artifacts/``.
"""

from __future__ import annotations

import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.cli.notebooks import alive, descendants
from scorers import GAME_IDS
from tests.support.serving import die_with_parent, free_port, listening

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
SIZES = {"laptop": (1280, 800), "tablet": (820, 1180), "phone": (390, 844)}
POOL_PAGES = 1 + len(GAME_IDS)  # one preheated kernel per page: the history and each game
SCROLLER = """() => {
  const s = [...document.querySelectorAll('.lm-BoxPanel-child')]
    .find(e => getComputedStyle(e).overflowY == 'auto');
  const e = s || document.documentElement;
  return [e.scrollWidth, e.clientWidth, e.scrollHeight];
}"""
SETTLE = """async () => {
  const frame = () => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
  let last = "";
  for (let i = 0; i < 100; i++) {
    await frame();
    const e = document.documentElement;
    const now = [e.scrollWidth, e.scrollHeight, ...[...document.querySelectorAll(
      '.lm-BoxPanel-child, .scorepad, .save-row')].map(x => x.getBoundingClientRect().bottom)
    ].join();
    if (now === last) { return i; }
    last = now;
  }
  return -1;
}"""
TOO_SMALL = """() => [...document.querySelectorAll(
    '.companion input, .companion select, .companion button')]
  .filter(e => e.offsetParent !== null && e.getBoundingClientRect().width > 0)
  .filter(e => e.getBoundingClientRect().height < 43.5
            || (e.tagName == 'INPUT' && e.type == 'text' && e.scrollWidth > e.clientWidth + 1))
  .map(e => (e.closest('.cell') || e.parentElement).className + ' ' + e.tagName + ' '
            + Math.round(e.getBoundingClientRect().height))"""

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(), reason="Debian's chromium is not installed (.ci/run installs it)"
    ),
]


def kernels(pid: int) -> list[int]:
    found = []
    for child in descendants(pid):
        try:
            command = Path(f"/proc/{child}/cmdline").read_bytes()
        except OSError:
            continue
        if b"ipykernel_launcher" in command and alive(child):
            found.append(child)
    return found


class Server:
    def __init__(self, port: int, process: subprocess.Popen[str], db: Path, secret: str) -> None:
        self.port = port
        self.process = process
        self.db = db
        self.secret = secret

    @property
    def join(self) -> str:
        """The address with the table secret (a device's first visit)."""
        return f"http://127.0.0.1:{self.port}/?table={self.secret}"

    def url(self, page: str) -> str:
        return f"http://127.0.0.1:{self.port}/voila/render/{page}.ipynb"

    def draft(self, game: str) -> str:
        """The game's draft as stored, or "" when there is none."""
        from companion.widgets.drafts import Drafts

        found = Drafts(game, self.db).latest() if self.db.exists() else None
        return "" if found is None else json.dumps(found[1])

    def plays(self, game: str) -> int:
        with sqlite3.connect(self.db) as conn:
            count = conn.execute("SELECT count(*) FROM plays WHERE game = ?", (game,)).fetchone()
        conn.close()
        return int(count[0])


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("browser")
    db = folder / "history.sqlite3"
    env = {
        **os.environ,
        "COMPANION_DB": str(db),
        "HOME": str(folder),
        "XDG_DATA_HOME": str(folder / "data"),
    }
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "companion", "serve", "--port", str(port), "--cull-after", "5"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=env,
        preexec_fn=die_with_parent,
    )
    assert process.stdout is not None
    secret = process.stdout.readline().split("?table=", 1)[1].split()[0]
    deadline = time.monotonic() + 90
    while not listening(port):
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.2)
    below: list[int] = []
    try:
        yield Server(port, process, db, secret)
    finally:
        below = descendants(process.pid)
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=60)
        process.stdout.close()
    # SIGTERM stopped everything: the server, its kernels and the port.
    deadline = time.monotonic() + 10
    while [p for p in below if alive(p)] and time.monotonic() < deadline:
        time.sleep(0.2)
    assert [p for p in below if alive(p)] == []
    assert not listening(port)


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """One chromium for the module; each device is a browser context of its own."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            yield launched
        finally:
            launched.close()


def device(chromium: Any, server: Server) -> Any:
    """A device that joined the table: a browser context that opened the join address."""
    context = chromium.new_context()
    # A busy machine (the suite beside other work) answers slower than an idle one:
    # every wait waits on its condition, for up to a minute unless it says otherwise.
    context.set_default_timeout(60_000)
    page = context.new_page()
    page.goto(server.join)
    page.wait_for_selector("text=Board game companion")
    page.close()
    return context


@pytest.fixture(scope="module")
def browser(chromium: Any, server: Server) -> Any:
    """One browser profile for every page, as on a tablet: its cache keeps the page's script."""
    return device(chromium, server)


def settle(page: Any) -> None:
    """Wait until the page's layout stops changing (after a resize)."""
    page.evaluate(SETTLE)


def open_page(browser: Any, server: Server, name: str, size: str = "laptop") -> Any:
    width, height = SIZES[size]
    page = browser.new_page()
    page.set_viewport_size({"width": width, "height": height})
    page.requests = []
    page.on("request", lambda request: page.requests.append(request.url))
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.on("console", lambda m: m.type == "error" and page.errors.append(m.text))
    page.on("response", lambda r: r.status >= 400 and page.errors.append(f"{r.status} {r.url}"))
    page.goto(server.url(name), wait_until="commit")
    page.wait_for_selector(".companion", timeout=180_000)
    if name in GAMES:
        # Every device opens the game's one page: after an earlier test saved it, the
        # saved game and its result are shown, and New game starts the next one.
        page.wait_for_selector(".scorepad", timeout=180_000)
        again = page.locator("button.new-game")
        if again.is_visible():
            again.click()
            page.wait_for_selector("button.new-game", state="hidden", timeout=60_000)
    return page


def wait_for(condition: Callable[[], bool], message: str, limit: float = 30) -> None:
    """Poll ``condition`` until it holds; fail with ``message`` after ``limit`` seconds."""
    deadline = time.monotonic() + limit
    while not condition():
        assert time.monotonic() < deadline, message
        time.sleep(0.1)


def fill(page: Any, selector: str, value: str) -> None:
    page.locator(selector).first.fill(value)


def choose(page: Any, selector: str, label: str) -> None:
    page.locator(selector).select_option(label=label)


def names(page: Any, people: list[str]) -> None:
    for seat, name in enumerate(people):
        fill(page, f".name-{seat} input", name)


def play_tokaido(page: Any) -> None:
    choose(page, ".player-count select", "4 players")
    page.wait_for_selector(".c-players-3-journey input")
    names(page, ["Aki", "Ben", "Cho", "Dai"])
    page.click("button:has-text('Arrived at the inn')")
    page.wait_for_selector("text=draws 5 meal cards")
    rows = [
        ("58", "4", "7", "6", "3", "2", "1"),
        ("60", "3", "7", "2", "1", "4", "0"),
        ("66", "0", "4", "3", "3", "1", "2"),
        ("51", "2", "5", "4", "0", "3", "0"),
    ]
    keys = ("journey", "temple", "meal-cost", "souvenirs", "hot-springs", "encounters")
    for seat, row in enumerate(rows):
        # One tile per player (the box has one of each).
        traveller = ("Mitsukuni", "Kinko", "Chuubei", "Hiroshige")[seat]
        choose(page, f".c-players-{seat}-traveler select", traveller)
        for key, value in zip((*keys, "panorama-achievements"), row, strict=True):
            fill(page, f".c-players-{seat}-{key} input", value)


def play_shibuya(page: Any) -> None:
    names(page, ["Aki", "Ben"])
    fill(page, ".tracker .counts input >> nth=0", "6")
    page.click("button:has-text('Check for a winner')")
    page.wait_for_selector("text=Aki wins!")
    fill(page, ".c-players-0-goals input", "6")
    fill(page, ".c-players-1-goals input", "3")


def play_kamakura(page: Any) -> None:
    names(page, ["Aki", "Ben"])
    page.click("button:has-text('Check the end')")
    page.wait_for_selector("text=Nobody has 8 site coins yet")
    for seat, (circle, colour) in enumerate((("B", "pink"), ("F", "green"))):
        fill(page, f".c-players-{seat}-track input", str(10 + seat))
        page.click(f".c-players-{seat}-site-coins button:has-text('+ coin')")
        fill(page, f".c-players-{seat}-site-coins .item input >> nth=0", circle)
        fill(page, f".c-players-{seat}-site-coins .item input >> nth=1", "3")
        choose(page, f".c-players-{seat}-site-coins .item select", colour)
        page.click(f".c-players-{seat}-eat-coins button:has-text('+ coin')")
        fill(page, f".c-players-{seat}-eat-coins .item input", "2")
        fill(page, f".c-players-{seat}-pieces input >> nth=0", "A")
        fill(page, f".c-players-{seat}-pieces input >> nth=1", "N")
    page.click(".c-tours button:has-text('+ tour card')")
    choose(page, ".c-tours .item select >> nth=0", "L")
    fill(page, ".c-tours .item input[placeholder='pts']", "5")


def play_shogun(page: Any) -> None:
    names(page, ["Aki", "Ben", "Cho"])
    for seat, bid in enumerate(("2 chests", "4 chests", "1 chest")):
        choose(page, f".tracker .bid select >> nth={seat}", bid)
    page.click("button:has-text('Action order')")
    page.wait_for_selector("text=action order Ben (4), Aki (2), Cho (1)")
    choose(page, ".c-year select", "2 (end of the game)")  # an untouched year is empty
    for seat in range(3):
        fill(page, f".c-players-{seat}-score-before input", str(20 + seat))
        fill(page, f".c-players-{seat}-war-chests input", str(seat))
        for index, value in enumerate((str(seat + 1), "1", "0", "1")):
            fill(page, f".c-players-{seat}-regions-brown input >> nth={index}", value)


def play_shimoda(page: Any) -> None:
    names(page, ["Aki", "Ben"])
    fill(page, ".tracker .counts input >> nth=0", "3")
    fill(page, ".tracker .counts input >> nth=1", "2")
    page.click("button:has-text('End the round')")
    page.wait_for_selector("text=Ben starts round 2")
    for seat in range(2):
        for k in range(7):
            card = f".c-players-{seat}-street-{k}-card"
            choose(page, f"{card} select >> nth=0", ("blue", "red")[seat])
            choose(page, f"{card} select >> nth=1", "per tourist")
            fill(page, f"{card} input", "1")
            choose(page, f"{card} select >> nth=2", "range 1")
            if k % 2 == seat:
                fill(page, f".c-players-{seat}-street-{k} input >> nth=0", "1")


def play_numbers(game: str) -> Callable[[Any], None]:
    """A game whose pad is whole numbers only: names, then each cell at its row's least value.

    Read from the game's pad description, so a game registered from elsewhere
    (Orchard, the test suite's own) is played with nothing written here about it.
    """
    from companion.kits import KITS, PadOptions
    from companion.widgets.cells import css_name
    from scorers import SCORERS

    def play(page: Any) -> None:
        players = SCORERS[game].info.player_counts[0]
        people = ["Aki", "Ben", "Cho", "Dai", "Eve"][:players]
        names(page, people)
        spec = KITS[game].pad(PadOptions(players, tuple(people)))
        for row in spec.player_rows:
            assert row.kind == "number", f"{game}: play {row.id} by hand in this module"
            for seat in range(players):
                fill(page, f".{css_name(row.path(seat))} input", str(row.low))

    return play


GAMES: dict[str, Callable[[Any], None]] = {
    "tokaido": play_tokaido,
    "shibuya": play_shibuya,
    "kamakura": play_kamakura,
    "shogun": play_shogun,
    "shimoda": play_shimoda,
}
for _game in GAME_IDS:  # every other registered game, from its pad's description
    GAMES.setdefault(_game, play_numbers(_game))


def look(page: Any, name: str) -> None:
    """At each size: a screenshot, no page overflow, inputs big enough."""
    ARTIFACTS.mkdir(exist_ok=True)
    for size, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        settle(page)
        scroll_width, client_width, scroll_height = page.evaluate(SCROLLER)
        pad = page.locator(".scorepad").bounding_box()
        buttons = page.locator(".save-row").bounding_box()
        form_height = buttons["y"] + buttons["height"] - pad["y"]
        small = page.evaluate(TOO_SMALL)
        page.set_viewport_size({"width": width, "height": int(scroll_height) + 20})
        settle(page)
        page.screenshot(path=str(ARTIFACTS / f"{name}-{size}.png"))
        assert scroll_width <= client_width, f"{name} overflows sideways at {size}"
        assert small == [], f"{name} at {size}"
        if name == "tokaido" and size == "laptop":
            assert form_height <= height
        if size == "tablet":
            assert form_height <= 1.5 * height, (name, form_height)
    page.set_viewport_size({"width": 1280, "height": 800})


@pytest.mark.timeout(240, method="signal")
@pytest.mark.parametrize("game", list(GAMES))
def test_a_whole_game_at_the_table(server: Server, browser: Any, game: str) -> None:
    page = open_page(browser, server, game)
    try:
        assert page.locator("text=from companion.widgets").count() == 0  # no code shown
        GAMES[game](page)
        page.wait_for_selector(".scorepad .summary .ok", timeout=60_000)  # every cell valid
        page.locator("button:has-text('Save the game')").dblclick()
        page.wait_for_selector("text=Saved as game #", timeout=60_000)
        page.wait_for_selector(".winner", timeout=60_000)
        look(page, game)
        assert server.plays(game) == 1  # the double tap saved one game
        outside = [u for u in page.requests if not u.startswith(f"http://127.0.0.1:{server.port}")]
        assert outside == [] or all(u.startswith(("data:", "blob:")) for u in outside)
        assert page.errors == []
    finally:
        page.close()


@pytest.mark.timeout(240, method="signal")
def test_a_problem_shows_beside_its_cell_and_numbers_use_the_number_keyboard(
    server: Server, browser: Any
) -> None:
    page = open_page(browser, server, "tokaido", "tablet")
    try:
        page.wait_for_selector(".c-players-0-journey input")
        assert page.get_attribute(".c-players-0-journey input", "inputmode") == "numeric"
        fill(page, ".c-players-1-temple input", "3x")
        page.wait_for_selector(".c-players-1-temple >> text=must be a whole number")
        page.click(".c-players-0-journey input")
        page.click(".c-players-0-temple input")  # leaving an empty cell marks it
        page.wait_for_selector(".c-players-0-journey .pending >> visible=true")
        assert page.locator(".c-players-1-journey .pending").first.is_hidden()
    finally:
        page.close()


@pytest.mark.timeout(240, method="signal")
def test_a_reload_keeps_the_draft(server: Server, browser: Any) -> None:
    page = open_page(browser, server, "kamakura", "tablet")
    try:
        page.wait_for_selector(".c-players-0-track input")
        choose(page, ".player-count select", "3 players")
        page.wait_for_selector(".c-players-2-track input")
        names(page, ["Eve", "Fay", "Gus"])
        fill(page, ".c-players-2-track input", "17")
        wait_for(lambda: "17" in server.draft("kamakura"), "the draft was not kept")
        page.reload(wait_until="commit")
        page.wait_for_selector(".c-players-2-track input", timeout=90_000)
        assert page.input_value(".name-2 input") == "Gus"
        assert page.input_value(".c-players-2-track input") == "17"
    finally:
        page.close()


@pytest.mark.timeout(240, method="signal")
def test_a_dropped_connection_comes_back(server: Server, browser: Any) -> None:
    """A tablet whose connection died without a word: what was typed into it is
    sent again once the page has reconnected; meanwhile the box keeps its focus
    and what is typed into it is kept too."""
    page = browser.new_page()
    routes: list[Any] = []
    state = {"dead": False, "refused": 0}

    def through(route: Any) -> None:
        if state["dead"]:  # the network is still down
            state["refused"] += 1
            route.close()
            return
        upstream = route.connect_to_server()
        route.on_message(lambda message: None if state["dead"] else upstream.send(message))
        upstream.on_message(lambda message: route.send(message))
        routes.append(route)

    page.route_web_socket(re.compile(r".*/api/kernels/.*/channels.*"), through)
    page.goto(server.url("shibuya"), wait_until="commit")
    try:
        page.wait_for_selector(".name-0 input", timeout=90_000)
        fill(page, ".name-0 input", "Ivy")
        page.wait_for_selector(".head >> text=Ivy")
        state["dead"] = True  # from here on, what the page sends is lost
        fill(page, ".name-1 input", "Jon")
        routes[-1].close()  # the browser finally notices
        page.wait_for_selector(".companion-trouble >> text=reconnecting")
        assert not page.evaluate("document.getElementById('rendered_cells').inert")
        assert page.evaluate("document.activeElement.closest('.name-1') !== null")
        page.keyboard.type("as")  # typing goes on while the connection is down
        deadline = time.monotonic() + 30
        while state["refused"] == 0:  # Playwright runs the route handler while the page waits
            assert time.monotonic() < deadline, "the page did not try to reconnect"
            page.wait_for_timeout(200)
        state["dead"] = False
        while len(routes) < 2:
            assert time.monotonic() < deadline, "the page did not reconnect"
            page.wait_for_timeout(200)
        page.wait_for_selector(".companion-trouble", state="detached")
        page.wait_for_selector(".head >> text=Jonas")  # the kernel got the lost name
        assert page.input_value(".name-1 input") == "Jonas"
        wait_for(lambda: "Jonas" in server.draft("shibuya"), "the lost name was not kept")
        assert page.evaluate("document.activeElement.closest('.name-1') !== null")
        fill(page, ".name-0 input", "Kai")  # and the page goes on as before
        page.wait_for_selector(".head >> text=Kai")
    finally:
        page.close()


@pytest.mark.timeout(300, method="signal")
def test_reloaded_pages_free_their_kernels(server: Server, browser: Any) -> None:
    page = open_page(browser, server, "shibuya")
    try:
        for _ in range(10):
            page.reload(wait_until="commit")
            page.wait_for_selector(".companion", timeout=180_000)
        deadline = time.monotonic() + 60
        while len(kernels(server.process.pid)) > POOL_PAGES + 2:
            assert time.monotonic() < deadline, kernels(server.process.pid)
            time.sleep(1)
        # The open page still works.
        fill(page, ".name-0 input", "Hal")
        page.wait_for_selector(".head >> text=Hal")
    finally:
        page.close()


@pytest.mark.timeout(240, method="signal")
def test_the_history_page_opens_and_deletes_games(server: Server, browser: Any) -> None:
    from tests.support.history_fixture import fill as fill_history

    fill_history(server.db)
    page = open_page(browser, server, "history", "phone")
    try:
        page.wait_for_selector(".play-row", timeout=90_000)
        before = page.locator(".play-row").count()
        page.click(".open-1")
        page.wait_for_selector(".play-detail >> text=Winner: Aki.")
        page.click(".delete-1")
        page.wait_for_selector("text=Delete game #1 for good?")
        page.click(".confirm-delete")
        page.wait_for_selector("text=Game #1 was deleted.")
        page.wait_for_function(
            f"document.querySelectorAll('.play-row').length == {before - 1}", timeout=60_000
        )
        assert page.locator(".open-1").count() == 0
        assert "games played (oldest first)" in page.inner_html(".page-history")
        ARTIFACTS.mkdir(exist_ok=True)
        for size, (width, height) in SIZES.items():
            page.set_viewport_size({"width": width, "height": height})
            settle(page)
            scroll_width, client_width, scroll_height = page.evaluate(SCROLLER)
            assert scroll_width <= client_width, f"the history page overflows at {size}"
            page.set_viewport_size({"width": width, "height": int(scroll_height) + 20})
            settle(page)
            page.screenshot(path=str(ARTIFACTS / f"history-{size}.png"))
    finally:
        page.close()
