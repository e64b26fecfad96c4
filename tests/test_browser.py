"""A real browser on ``companion serve``: fill a 3-player Tokaido form and save it.

Uses Debian's chromium through Playwright (never ``playwright install``);
``.ci/run`` installs chromium when it is missing.
"""

from __future__ import annotations

import os
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="Debian's chromium is not installed (.ci/run installs it)"
)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for(port: int, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.2)
    raise TimeoutError(f"nothing listens on port {port}")


@pytest.fixture
def server(db_path: Path) -> Iterator[tuple[int, subprocess.Popen[str]]]:
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "companion", "serve", "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=dict(os.environ),
    )
    try:
        wait_for(port)
        yield port, process
    finally:
        process.terminate()
        process.wait(timeout=30)


def listening_addresses(port: int) -> set[str]:
    """Local addresses with a socket listening on ``port`` (from /proc/net/tcp)."""
    found = set()
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        local, state = line.split()[1], line.split()[3]
        address, hex_port = local.split(":")
        if state == "0A" and int(hex_port, 16) == port:
            found.add(".".join(str(int(address[i : i + 2], 16)) for i in (6, 4, 2, 0)))
    return found


@pytest.mark.timeout(180)
def test_tokaido_form_in_a_real_browser(
    server: tuple[int, subprocess.Popen[str]], db_path: Path
) -> None:
    from playwright.sync_api import sync_playwright

    port, _ = server
    assert listening_addresses(port) == {"127.0.0.1"}
    rows = {
        0: ("Aki", 58, 4, 7, 6, 3, 2, 1),
        1: ("Ben", 60, 3, 7, 2, 1, 4, 0),
        2: ("Cho", 66, 0, 4, 3, 3, 1, 2),
    }
    keys = (
        "name",
        "journey",
        "temple",
        "meal-cost",
        "souvenirs",
        "hot-springs",
        "encounters",
        "panorama-achievements",
    )
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            page = browser.new_page()
            page.goto(f"http://127.0.0.1:{port}/voila/render/tokaido.ipynb")
            page.wait_for_selector(".player-count select", timeout=90_000)
            assert page.locator("text=from companion.widgets").count() == 0  # no code shown
            page.select_option(".player-count select", "3")
            page.wait_for_selector(".f-players-2-name input")
            for seat, row in rows.items():
                for key, value in zip(keys, row, strict=True):
                    page.fill(f".f-players-{seat}-{key} input", str(value))
            page.fill(".f-players-1-temple input", "3x")
            page.wait_for_selector("text=must be a whole number")
            assert page.locator("button:has-text('Save')").is_disabled()
            page.fill(".f-players-1-temple input", "3")
            page.click("button:has-text('Save')")
            page.wait_for_selector("text=Saved to the history as game #1.", timeout=20_000)
            assert page.inner_text(".winner") == "Winner: Aki."
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / "tokaido-form.png"), full_page=True)
        finally:
            browser.close()
    with sqlite3.connect(db_path) as conn:
        games = conn.execute("SELECT game FROM plays").fetchall()
        names = conn.execute("SELECT name FROM play_players ORDER BY seat").fetchall()
    conn.close()
    assert games == [("tokaido",)]
    assert names == [("Aki",), ("Ben",), ("Cho",)]
