"""The draft of a burst of changes is written once, inside a kernel's event loop."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from companion.widgets.throttle import Throttle


def test_outside_an_event_loop_every_call_runs() -> None:
    runs: list[int] = []
    throttle = Throttle(lambda: runs.append(1), every=10)
    for _ in range(3):
        throttle()
    assert runs == [1, 1, 1]


def test_in_an_event_loop_a_burst_runs_at_once_then_once_at_the_end() -> None:
    runs: list[float] = []

    async def burst() -> None:
        loop = asyncio.get_running_loop()
        throttle = Throttle(lambda: runs.append(loop.time()), every=0.2)
        start = loop.time()
        for _ in range(5):
            throttle()
        assert len(runs) == 1  # the first at once
        await asyncio.sleep(0.35)
        assert len(runs) == 2 and runs[1] - start >= 0.19  # the rest once, at the end
        throttle()  # soon after the last run: waits for the end of its interval
        assert len(runs) == 2
        throttle.flush()
        assert len(runs) == 3
        throttle.flush()  # nothing pending
        assert len(runs) == 3

    asyncio.run(burst())


def test_a_page_typed_on_in_a_kernel_writes_twice_and_keeps_the_last_value(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from companion.widgets import GamePage
    from companion.widgets.drafts import Drafts

    writes: list[str] = []
    keep = Drafts.keep

    def counted(self: Drafts, session_id: int | None, state: dict[str, Any]) -> int:
        writes.append(json.dumps(state["cells"].get("players[0].journey")))
        return keep(self, session_id, state)

    monkeypatch.setattr(Drafts, "keep", counted)

    async def typing() -> None:
        page = GamePage("tokaido", 3)
        cell = page.form.cells["players[0].journey"]
        box = next(iter(cell.controls.values()))
        await asyncio.sleep(page.keeper.every + 0.1)  # the page's own first drafts
        writes.clear()
        for digits in ("1", "12", "123"):
            box.value = digits
        await asyncio.sleep(page.keeper.every + 0.2)
        assert writes == ['{"n": "1"}', '{"n": "123"}']
        found = Drafts("tokaido", db_path).latest()
        assert found is not None
        assert json.dumps(found[1]["cells"]["players[0].journey"]) == '{"n": "123"}'

    asyncio.run(typing())


def test_new_game_right_after_save_leaves_no_empty_draft(db_path: Path) -> None:
    import sqlite3

    from tests.widgets.test_widgets import tokaido_page

    async def save_then_new() -> None:
        page = tokaido_page()
        assert page.form.save() == 1
        page.form.new_button.click()
        await asyncio.sleep(page.keeper.every + 0.2)

    asyncio.run(save_then_new())
    with sqlite3.connect(db_path) as conn:
        rows = conn.execute("SELECT kind, status, play_id FROM sessions").fetchall()
    conn.close()
    assert rows == [("web", "finished", 1)]  # no draft of a game nobody started
