"""Fixtures of the play tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest


@pytest.fixture
def seeds(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Make the seeds of random draws 1001, 1002, ... (the list shows those used)."""
    used: list[int] = []

    def fixed() -> int:
        used.append(1001 + len(used))
        return used[-1]

    monkeypatch.setattr("companion.play.setup.new_seed", fixed)
    yield used
