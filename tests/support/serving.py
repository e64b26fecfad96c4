"""A real ``companion serve`` for tests: started in its own process group, always stopped.

Every connection goes to 127.0.0.1 (``--table`` tests pass ``--host
127.0.0.1``); never to the machine's network address.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from companion.cli.notebooks import alive, descendants

ADDRESS = re.compile(r"(http://127\.0\.0\.1:\d+/)\?table=([A-Za-z0-9_-]+)")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def listening(port: int) -> bool:
    with socket.socket() as sock:
        return sock.connect_ex(("127.0.0.1", port)) == 0


def die_with_parent() -> None:
    """In the child: get SIGTERM if the test process dies (a timeout), so nothing is left."""
    import ctypes

    libc = ctypes.CDLL("libc.so.6", use_errno=True)
    libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


@dataclass
class Served:
    """A running server: its base URL, its secret, its history file and its output."""

    base: str
    secret: str
    port: int
    db: Path
    process: subprocess.Popen[str]
    log: Path
    first_line: str

    @property
    def join(self) -> str:
        return f"{self.base}?table={self.secret}"

    def page(self, name: str) -> str:
        return f"{self.base}voila/render/{name}.ipynb"


@contextmanager
def served(
    folder: Path, *options: str, stop: signal.Signals = signal.SIGTERM, port: int = 0
) -> Iterator[Served]:
    """``companion serve`` on 127.0.0.1 (a free port, or ``port``), its history in ``folder``."""
    db = folder / "history.sqlite3"
    env = {
        **os.environ,
        "COMPANION_DB": str(db),
        "HOME": str(folder),
        "XDG_DATA_HOME": str(folder / "data"),
    }
    port = port or free_port()
    log = folder / "serve.log"
    with log.open("a") as errors:
        process = subprocess.Popen(
            [sys.executable, "-m", "companion", "serve", "--port", str(port), *options],
            stdout=subprocess.PIPE,
            stderr=errors,
            text=True,
            env=env,
            preexec_fn=die_with_parent,
        )
    assert process.stdout is not None
    first = process.stdout.readline()
    found = ADDRESS.search(first)
    below: list[int] = []
    try:
        assert found, first
        deadline = time.monotonic() + 90
        while not listening(port):
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.2)
        yield Served(found[1], found[2], port, db, process, log, first)
    finally:
        below = descendants(process.pid)
        process.send_signal(stop)
        process.wait(timeout=60)
        process.stdout.close()
        deadline = time.monotonic() + 10
        while [p for p in below if alive(p)] and time.monotonic() < deadline:
            time.sleep(0.2)
    assert [p for p in below if alive(p)] == []
    assert not listening(port)
