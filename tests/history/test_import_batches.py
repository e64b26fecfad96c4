"""An import writes in bounded batches, in one transaction: the same history as at once."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.history import store
from companion.history.formats.dispatch import export, parse
from companion.history.store import History
from tests.support.history_fixture import fill
from tests.support.import_files import FILES


def imported(path: Path, text: str) -> str:
    with History(path) as history:
        history.add(parse(text).plays, keep_ids=False)
        return export(history.plays(), "json")


@pytest.mark.parametrize("name", ["bgstats-wrapped-sample.json", "bgstats-visualize-sample.json"])
def test_batches_give_the_same_history(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    text = (FILES / name).read_text()
    whole = imported(tmp_path / "whole.sqlite3", text)
    monkeypatch.setattr(store, "WRITE_EVERY", 2)
    assert imported(tmp_path / "batches.sqlite3", text) == whole


def test_our_export_with_kept_ids_in_batches(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fill(tmp_path / "first.sqlite3")
    with History(tmp_path / "first.sqlite3") as history:
        text = export(history.plays(), "json")
    monkeypatch.setattr(store, "WRITE_EVERY", 3)
    with History(tmp_path / "second.sqlite3") as history:
        assert history.add(parse(text).plays) == (7, 0)
        assert export(history.plays(), "json") == text


def test_a_failing_batch_leaves_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    plays = parse((FILES / "bgstats-wrapped-sample.json").read_text()).plays
    monkeypatch.setattr(store, "WRITE_EVERY", 2)
    rows = store._Rows  # type: ignore[attr-defined]
    add = rows.add
    calls: list[int] = []

    def failing(self: object, play: object, play_id: int) -> None:
        calls.append(play_id)
        if len(calls) == 7:  # after three batches were written
            raise RuntimeError("the disk went away")
        add(self, play, play_id)

    monkeypatch.setattr(rows, "add", failing)
    with History(tmp_path / "h.sqlite3") as history:
        with pytest.raises(RuntimeError):
            history.add(plays, keep_ids=False)
        monkeypatch.undo()
        assert history.plays() == []
