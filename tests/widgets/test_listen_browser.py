"""Saying the end count on the host's page, in a real browser with a WAV file as its microphone.

Chromium takes its microphone from a file here (``--use-file-for-fake-audio-capture``):
festival says "Aki fifty eight, Ben sixty." between stretches of quiet. On the
host's page (http://127.0.0.1, a secure context) the Listen button records it,
stops by itself once the speaker is quiet, and the pad's Score track row shows
58 and 60, each marked as heard; Ben's value is put right by hand before Save,
and the saved score file holds what the table saw. A page that is not a secure
context gets one line instead of the button.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import wave
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.widgets.test_browser import (
    ARGS,
    ARTIFACTS,
    CHROMIUM,
    Server,
    choose,
    device,
    fill,
    names,
    open_page,
)
from tests.widgets.test_browser import server as server

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(
        not CHROMIUM.exists(), reason="Debian's chromium is not installed (.ci/run installs it)"
    ),
    pytest.mark.skipif(shutil.which("text2wave") is None, reason="festival is not installed"),
]
RATE = 16_000


def microphone_file(folder: Path) -> Path:
    """Festival's count between a second and a half of quiet before and two after."""
    said = folder / "said.wav"
    subprocess.run(
        ["text2wave", "-F", str(RATE), "-o", str(said)],
        input=b"Aki fifty eight, Ben sixty.",
        check=True,
        timeout=60,
    )
    with wave.open(str(said)) as found:
        speech = found.readframes(found.getnframes())
    path = folder / "microphone.wav"
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.writeframes(b"\x00\x00" * (RATE * 3 // 2) + speech + b"\x00\x00" * (RATE * 2))
    return path


@pytest.fixture(scope="module")
def chromium(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A chromium whose microphone says the count once (``%noloop``), allowed without asking."""
    from playwright.sync_api import sync_playwright

    wav = microphone_file(tmp_path_factory.mktemp("microphone"))
    args = [
        *ARGS,
        "--use-fake-device-for-media-stream",
        "--use-fake-ui-for-media-stream",
        f"--use-file-for-fake-audio-capture={wav}%noloop",
        "--autoplay-policy=no-user-gesture-required",
    ]
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=args)
        try:
            yield launched
        finally:
            launched.close()


def last_score_file(server: Server, game: str) -> dict[str, Any]:
    with sqlite3.connect(server.db) as conn:
        row = conn.execute(
            "SELECT score_file FROM plays WHERE game = ? ORDER BY id DESC LIMIT 1", (game,)
        ).fetchone()
    conn.close()
    found: dict[str, Any] = json.loads(row[0])
    return found


def value_is(page: Any, seat: int, row: str, value: str) -> None:
    """Wait until a cell shows ``value``; say what the page shows when it does not."""
    from playwright.sync_api import TimeoutError as Timeout

    selector = f".c-players-{seat}-{row} input"
    try:
        page.wait_for_function(
            "([s, v]) => { const e = document.querySelector(s); return e && e.value === v; }",
            arg=[selector, value],
            timeout=90_000,
        )
    except Timeout:
        line = page.locator(".listen-line").inner_text()
        shown = page.input_value(selector)
        pytest.fail(f"{selector} shows {shown!r}, not {value!r}; the Listen line: {line!r}")


@pytest.mark.timeout(600, method="signal")
def test_a_count_said_on_the_host_s_page_fills_the_pad_and_is_put_right_before_save(
    server: Server, chromium: Any
) -> None:
    context = device(chromium, server)
    page = open_page(context, server, "tokaido", "laptop")
    try:
        choose(page, ".player-count select", "2 players")
        page.wait_for_selector(".c-players-1-journey input")
        names(page, ["Aki", "Ben"])
        button = page.locator(".companion-listen button.listen-button")
        button.wait_for(timeout=60_000)
        page.wait_for_selector(".companion-listen button:has-text('Listen: Score track')")
        assert page.evaluate("window.isSecureContext") is True
        button.click()
        value_is(page, 0, "journey", "58")
        value_is(page, 1, "journey", "60")
        for seat in (0, 1):
            cell = page.locator(f".c-players-{seat}-journey")
            assert "heard" in (cell.get_attribute("class") or "").split()
            assert cell.locator(".heard-note").inner_text() == "heard: check it"
        page.wait_for_selector(
            ".listen-line:has-text('Heard for Score track: Aki 58, Ben 60.')", timeout=20_000
        )
        ARTIFACTS.mkdir(exist_ok=True)
        page.locator(".scorepad").screenshot(path=str(ARTIFACTS / "tokaido-heard.png"))
        # Ben said sixty-one: the table reads the pad and puts it right. Looking at the
        # cell takes its mark away (on this device at once, and in the kernel).
        page.locator(".c-players-1-journey input").focus()
        page.wait_for_selector(".c-players-1-journey:not(.heard)")
        fill(page, ".c-players-1-journey input", "61")
        assert "heard" in (page.get_attribute(".c-players-0-journey", "class") or "").split()
        rows = {"temple": "3", "meal-cost": "4", "souvenirs": "2", "hot-springs": "1"}
        rows |= {"encounters": "0", "panorama-achievements": "0"}
        for seat, traveller in enumerate(("Mitsukuni", "Kinko")):
            choose(page, f".c-players-{seat}-traveler select", traveller)
            for row, value in rows.items():
                fill(page, f".c-players-{seat}-{row} input", value)
        page.wait_for_selector(".scorepad .summary .ok", timeout=30_000)
        page.click(".save")
        page.wait_for_selector("text=Saved as game #", timeout=30_000)
        saved = last_score_file(server, "tokaido")
        assert [(p["name"], p["journey"]) for p in saved["players"]] == [
            ("Aki", 58),
            ("Ben", 61),
        ]
        assert page.errors == []
    finally:
        page.close()
        context.close()


@pytest.mark.timeout(300, method="signal")
def test_a_page_that_is_not_a_secure_context_says_why_where_the_button_would_be(
    server: Server, chromium: Any
) -> None:
    context = device(chromium, server)
    # As on a phone at the network address: not a secure context, no microphone given.
    context.add_init_script(
        "Object.defineProperty(window, 'isSecureContext', {value: false});"
        "Object.defineProperty(navigator, 'mediaDevices', {value: undefined});"
    )
    page = open_page(context, server, "tokaido", "phone")
    try:
        line = page.locator(".companion-listen .listen-line")
        line.wait_for(timeout=60_000)
        page.wait_for_selector(".companion-listen.listen-unavailable", timeout=20_000)
        assert line.inner_text().startswith("No microphone on this device:")
        assert page.locator(".companion-listen button.listen-button").is_hidden()
    finally:
        page.close()
        context.close()
