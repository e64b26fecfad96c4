"""Shared fixtures: every test runs with its own history, never the user's.

Also: browser, terminal and fuzz tests are slow tests too (``-m "not slow"`` is the quick loop).
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

import tests.support.extra_game  # noqa: F401  (registers Orchard, the test suite's own sixth game)

ROOT = Path(__file__).resolve().parents[1]
# Every process the tests start knows Orchard too: the CLI, a server started for a whole
# module of tests, and the served page's kernels.
os.environ["COMPANION_GAMES"] = "tests.support.extra_game"
os.environ["PYTHONPATH"] = os.pathsep.join(
    [str(ROOT), *(p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p)]
)
ALWAYS_SLOW = ("browser", "terminal", "fuzz")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every browser, terminal and fuzz test slow as well."""
    for item in items:
        if any(item.get_closest_marker(name) for name in ALWAYS_SLOW):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(autouse=True)
def isolated_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Point the history and every user directory into the test's own folder."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "data"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / "cache"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "config"))
    monkeypatch.setenv("COMPANION_DB", str(tmp_path / "history.sqlite3"))
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("TERM", "dumb")
    monkeypatch.setenv("TZ", "UTC")  # BG Stats and BGG dates are local time
    time.tzset()
    yield tmp_path


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """The history file the CLI uses in this test."""
    return tmp_path / "history.sqlite3"
