"""Time to interactive of a served game notebook, against a one-widget Voilà notebook.

Both are served by Voilà in the same environment and opened in Debian's
chromium; "interactive" is the moment the page's first input accepts typing
(the score form's first name field; the trivial notebook's only text box).
Prints the medians and their ratio (target <= 1.3).

Usage: ``.venv/bin/python benchmarks/serve.py [--runs N]``
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import nbformat
from _common import compile_project
from nbformat.v4 import new_code_cell, new_notebook

ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
TARGET = 1.3


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for(port: int) -> None:
    for _ in range(600):
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise TimeoutError(port)


def interactive(page: object, url: str, selector: str) -> float:
    start = time.perf_counter()
    page.goto(url)  # type: ignore[attr-defined]
    page.fill(selector, "x", timeout=120_000)  # type: ignore[attr-defined]
    return time.perf_counter() - start


def main() -> int:
    from playwright.sync_api import sync_playwright

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    compile_project()
    companion_port, trivial_port = free_port(), free_port()
    with tempfile.TemporaryDirectory() as folder:
        trivial = Path(folder) / "trivial"
        trivial.mkdir()
        nb = new_notebook(cells=[new_code_cell("import ipywidgets\nipywidgets.Text()")])
        nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3"}
        nbformat.write(nb, trivial / "trivial.ipynb")
        env = {**os.environ, "COMPANION_DB": str(Path(folder) / "history.sqlite3")}
        servers = [
            subprocess.Popen(
                [sys.executable, "-m", "companion", "serve", "--port", str(companion_port)],
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            ),
            subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "voila",
                    str(trivial),
                    "--no-browser",
                    f"--port={trivial_port}",
                    "--Voila.ip=127.0.0.1",
                ],
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            ),
        ]
        try:
            wait_for(companion_port)
            wait_for(trivial_port)
            game: list[float] = []
            base: list[float] = []
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
                for _ in range(args.runs):
                    page = browser.new_page()
                    game.append(
                        interactive(
                            page,
                            f"http://127.0.0.1:{companion_port}/voila/render/tokaido.ipynb",
                            ".f-players-0-name input",
                        )
                    )
                    page.close()
                    page = browser.new_page()
                    base.append(
                        interactive(
                            page,
                            f"http://127.0.0.1:{trivial_port}/voila/render/trivial.ipynb",
                            ".widget-text input",
                        )
                    )
                    page.close()
                browser.close()
        finally:
            for server in servers:
                server.terminate()
                server.wait(timeout=30)
    ratio = statistics.median(game) / statistics.median(base)
    print(
        f"game page {statistics.median(game):.2f} s, one-widget page "
        f"{statistics.median(base):.2f} s: ratio {ratio:.2f} (target <= {TARGET}) "
        f"{'ok' if ratio <= TARGET else 'OVER'}"
    )
    return 0 if ratio <= TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
