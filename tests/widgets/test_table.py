"""Table mode in a real browser: several devices (browser contexts) on one game.

Every device joins through the join address of ``companion serve --table
--host 127.0.0.1`` (never the machine's network address) and opens the same
game's page: one kernel, shared, so every change shows on every device.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.widgets.test_browser import ARGS, CHROMIUM, wait_for

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(), reason="Debian's chromium is not installed (.ci/run installs it)"
    ),
]


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    from tests.support.serving import served

    folder = tmp_path_factory.mktemp("table")
    options = ("--table", "--host", "127.0.0.1", "--cull-after", "10", "--pool", "0")
    with served(folder, *options) as running:
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


class Device:
    """One phone at the table: its own browser context (cookies, storage), one page."""

    def __init__(self, chromium: Any, table: Any, game: str) -> None:
        self.context = chromium.new_context(viewport={"width": 390, "height": 844})
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.goto(table.join)
        self.page.click(f"a:text-is('{title(game)}')")
        self.page.wait_for_selector(".companion", timeout=90_000)
        self.page.wait_for_selector(".scorepad input")

    def fill(self, selector: str, value: str) -> None:
        self.page.locator(selector).first.fill(value)

    def value(self, selector: str) -> str:
        return str(self.page.input_value(selector))

    def close(self) -> None:
        self.context.close()


def title(game: str) -> str:
    from scorers import title as game_title

    return game_title(game)


def plays(db: Path, game: str) -> list[str]:
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT score_file FROM plays WHERE game = ?", (game,)).fetchall()
    conn.close()
    return [row[0] for row in rows]


def until_shown(device: Device, selector: str, value: str) -> float:
    """Seconds until ``selector`` shows ``value`` on ``device`` (at most 10)."""
    start = time.monotonic()
    wait_for(lambda: device.value(selector) == value, f"{selector} never showed {value!r}", 10)
    return time.monotonic() - start


@pytest.mark.timeout(300, method="signal")
def test_two_devices_fill_one_pad_and_save_it_once(chromium: Any, table: Any) -> None:
    a = Device(chromium, table, "tokaido")
    b = Device(chromium, table, "tokaido")
    try:
        assert a.page.url == b.page.url == table.page("tokaido")  # the address is the game
        for seat, name in enumerate(("Aki", "Ben")):
            a.fill(f".name-{seat} input", name)
        until_shown(b, ".name-0 input", "Aki")
        until_shown(b, ".name-1 input", "Ben")
        b.page.wait_for_selector(".head >> text=Ben")
        # Different cells at the same moment: nothing is lost.
        rows = {0: ("58", "4", "7", "6", "3", "2", "1"), 1: ("60", "3", "7", "2", "1", "4", "0")}
        keys = (
            "journey",
            "temple",
            "meal-cost",
            "souvenirs",
            "hot-springs",
            "encounters",
            "panorama-achievements",
        )
        for key, mine, yours in zip(keys, rows[0], rows[1], strict=True):
            a.fill(f".c-players-0-{key} input", mine)
            b.fill(f".c-players-1-{key} input", yours)
        for key, mine, yours in zip(keys, rows[0], rows[1], strict=True):
            for device in (a, b):
                until_shown(device, f".c-players-0-{key} input", mine)
                until_shown(device, f".c-players-1-{key} input", yours)
        a.page.select_option(".c-players-0-traveler select", label="Mitsukuni")
        b.page.select_option(".c-players-1-traveler select", label="Kinko")
        wait_for(
            lambda: a.page.locator(".c-players-1-traveler select").input_value() != "",
            "the traveller chosen on B did not reach A",
        )
        a.page.wait_for_selector(".scorepad .summary .ok", timeout=20_000)  # every cell valid
        a.page.click("button:has-text('Save the game')")
        for device in (a, b):
            device.page.wait_for_selector("text=Saved as game #1", timeout=20_000)
        saved = plays(table.db, "tokaido")
        assert len(saved) == 1
        assert '"journey": 58' in saved[0] and '"journey": 60' in saved[0]
        # A late device sees the state, the saved game included.
        c = Device(chromium, table, "tokaido")
        try:
            c.page.wait_for_selector("text=Saved as game #1", timeout=20_000)
            assert c.value(".name-1 input") == "Ben"
            assert c.value(".c-players-1-journey input") == "60"
        finally:
            c.close()
        assert a.errors == [] and b.errors == []
    finally:
        a.close()
        b.close()


@pytest.mark.timeout(300, method="signal")
def test_one_cell_from_two_devices_is_never_merged_and_says_who_changed_it(
    chromium: Any, table: Any
) -> None:
    a = Device(chromium, table, "shogun")
    b = Device(chromium, table, "shogun")
    cell = ".c-players-0-score-before input"
    try:
        a.fill(".name-0 input", "Aki")
        b.page.wait_for_selector(".head >> text=Aki")
        a.fill(cell, "12")
        until_shown(b, cell, "12")
        b.page.select_option(".my-column select", label="Aki")  # B is Aki's phone
        b.fill(cell, "15")
        until_shown(a, cell, "15")  # the last change wins
        for device in (a, b):
            device.page.wait_for_selector(
                ".clash >> text=Aki: score before: Aki's device changed it to “15”; "
                "it was “12” from device 1."
            )
        # Alternate keystrokes in the same cell: each device's value stays whole.
        a.page.fill(cell, "")
        until_shown(b, cell, "")
        # Both tap the cell at once (B was still in it: it leaves it first).
        b.page.locator(".name-1 input").focus()
        a.page.focus(cell)
        b.page.focus(cell)
        for _ in range(3):
            a.page.keyboard.type("1")
            b.page.keyboard.type("2")
            time.sleep(0.15)
        a.page.locator(".name-1 input").focus()
        b.page.locator(".name-1 input").focus()
        wait_for(
            lambda: a.value(cell) == b.value(cell) and a.value(cell) in ("111", "222"),
            f"the cell ended as {a.value(cell)!r} on A and {b.value(cell)!r} on B",
        )
    finally:
        a.close()
        b.close()


@pytest.mark.timeout(300, method="signal")
def test_a_device_that_reloads_or_reconnects_catches_up(chromium: Any, table: Any) -> None:
    a = Device(chromium, table, "kamakura")
    b = Device(chromium, table, "kamakura")
    try:
        b.page.reload(wait_until="commit")
        a.fill(".name-0 input", "Eve")  # typed while B reloads
        b.page.wait_for_selector(".scorepad input", timeout=90_000)
        until_shown(b, ".name-0 input", "Eve")
        # The round tracker and the set-up are shared too.
        a.page.select_option(".player-count select", label="3 players")
        b.page.wait_for_selector(".c-players-2-track input", timeout=20_000)
        b.fill(".c-players-2-track input", "17")
        until_shown(a, ".c-players-2-track input", "17")
        late = Device(chromium, table, "kamakura")  # joins after the count changed
        try:
            until_shown(late, ".c-players-2-track input", "17")
        finally:
            late.close()
        assert a.errors == [] and b.errors == []
    finally:
        a.close()
        b.close()


@pytest.mark.timeout(300, method="signal")
def test_my_column_on_a_phone(chromium: Any, table: Any) -> None:
    phone = Device(chromium, table, "shibuya")
    other = Device(chromium, table, "shibuya")
    try:
        phone.fill(".name-0 input", "Aki")
        phone.fill(".name-1 input", "Ben")
        phone.page.wait_for_selector(".head >> text=Ben")
        phone.page.select_option("select[aria-label='My column']", label="Ben")
        mine, theirs = ".c-players-1-goals input", ".c-players-0-goals input"
        assert phone.page.locator(mine).is_visible()
        assert phone.page.locator(theirs).is_hidden()
        assert other.page.locator(theirs).is_visible()  # the choice is this device's alone
        phone.fill(mine, "3")
        other.fill(theirs, "6")
        phone.page.wait_for_selector(".my-summary >> text=Totals: Aki 6 · Ben 3.")
        # Chosen once: the seat stays after a reload; the full grid is one tap away.
        phone.page.reload(wait_until="commit")
        phone.page.wait_for_selector(mine, timeout=90_000)
        wait_for(lambda: phone.page.locator(theirs).is_hidden(), "the seat was forgotten")
        phone.page.select_option("select[aria-label='My column']", label="Everyone (full grid)")
        assert phone.page.locator(theirs).is_visible()
        assert phone.errors == []
    finally:
        phone.close()
        other.close()


@pytest.mark.timeout(300, method="signal")
def test_two_phones_type_both_shimoda_streets_at_once(chromium: Any, table: Any) -> None:
    a = Device(chromium, table, "shimoda")
    b = Device(chromium, table, "shimoda")
    try:
        a.fill(".name-0 input", "Aki")
        a.fill(".name-1 input", "Ben")
        for device in (a, b):
            device.page.wait_for_selector("[aria-label='Aki: Shop cards']", timeout=20_000)
            device.page.wait_for_selector("[aria-label='Ben: Shop cards']", timeout=20_000)
        # Each phone types its player's street, a card at a time, at the same moment.
        streets = {
            "Aki": (a, ["ry33", "btwo35c1", "y rp 5 3", "pvm47", "kany11", "rchair35c2", "ball75"]),
            "Ben": (b, ["ythree53", "kany13", "pp31", "rtwo33", "bvm45", "ychair33c1", "=5"]),
        }
        for k in range(7):
            for name, (device, cards) in streets.items():
                device.fill(f"[aria-label='{name}: Shop cards']", " ".join(cards[: k + 1]))
        for device in (a, b):
            for seat, colour in ((0, "blue"), (1, "black")):
                select = f".c-players-{seat}-street-6-card select >> nth=0"
                wait_for(
                    lambda d=device, s=select, c=colour: d.page.locator(s).input_value() == c,
                    f"space 7 of seat {seat} never became {colour}",
                )
            device.page.wait_for_selector(
                ".c-players-1-shop-cards >> text=Space 7: as Aki's space 5: a black card"
            )
            for name, (_, cards) in streets.items():
                until_shown(device, f"[aria-label='{name}: Shop cards']", " ".join(cards))
        assert a.errors == [] and b.errors == []
    finally:
        a.close()
        b.close()
