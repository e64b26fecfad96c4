"""Our json import refuses a played-along game whose saved answers no longer replay."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from companion.cli.app import app
from companion.history import import_spool
from companion.history.formats import bounded
from companion.history.store import History
from tests.support.play_helpers import run
from tests.support.play_scripts import shibuya_keys

runner = CliRunner()


@pytest.fixture
def exported(db_path: Path) -> dict[str, Any]:
    played = run(["play", "shibuya"], shibuya_keys())
    assert played.exit_code == 0, played.output
    out = runner.invoke(app, ["history", "export", "-f", "json"])
    document: dict[str, Any] = json.loads(out.stdout)
    assert document["plays"][0]["events"]
    db_path.unlink()
    for leftover in db_path.parent.glob(f"{db_path.name}-*"):
        leftover.unlink()
    return document


def imported(document: dict[str, Any], tmp_path: Path) -> Any:
    path = tmp_path / "export.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    return runner.invoke(app, ["history", "import", str(path)])


def test_a_played_along_game_that_replays_is_imported(
    exported: dict[str, Any], tmp_path: Path, db_path: Path
) -> None:
    result = imported(exported, tmp_path)
    assert result.exit_code == 0, result.output
    assert runner.invoke(app, ["history", "check"]).exit_code == 0


def test_answers_that_no_longer_replay_are_refused(
    exported: dict[str, Any], tmp_path: Path, db_path: Path
) -> None:
    events = exported["plays"][0]["events"]
    answer = next(k for k, e in enumerate(events) if e["key"] == "players.1")
    events[answer]["key"] = "players.one"  # an answer saved for no question of the game
    result = imported(exported, tmp_path)
    assert result.exit_code == 2
    assert result.stderr.startswith("Error: ")
    assert "cannot be imported (1 problem); nothing was imported:\n  plays[0].events: " in (
        result.stderr
    )
    assert "it no longer replays" in result.stderr
    with History(db_path) as history:
        assert history.plays() == []


def test_answers_cut_short_are_refused(
    exported: dict[str, Any], tmp_path: Path, db_path: Path
) -> None:
    events = exported["plays"][0]["events"]
    exported["plays"][0]["events"] = events[: len(events) // 2]
    result = imported(exported, tmp_path)
    assert result.exit_code == 2
    assert (
        "  plays[0].events: it is finished but its saved answers stop before the end\n"
        in result.stderr
    )


def test_games_read_back_one_batch_at_a_time_are_replayed_at_their_place(
    exported: dict[str, Any], tmp_path: Path, db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(import_spool, "SPOOL_EVERY", 1)  # (each play goes to the spool file)
    monkeypatch.setattr(bounded, "MAX_PROBLEMS", 1)
    good = exported["plays"][0]
    broken = copy.deepcopy(good)
    answer = next(k for k, e in enumerate(broken["events"]) if e["key"] == "players.1")
    broken["events"][answer]["key"] = "players.one"
    exported["plays"] = [good] + [
        dict(copy.deepcopy(broken), id=good["id"] + k, uuid=f"{good['uuid'][:-2]}{k:02d}")
        for k in range(1, 4)
    ]
    result = imported(exported, tmp_path)
    assert result.exit_code == 2
    assert "cannot be imported (2 problems); nothing was imported:\n  plays[1].events: " in (
        result.stderr
    )
    assert result.stderr.endswith("  $: ... and 2 more problems\n")
    assert not db_path.exists()
