"""Damaged and odd states of a game in progress (issue 35): every saved answer that does
not replay is one clear line and the game can be set aside; a heartbeat from another
device's clock in the future blocks nothing."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from companion.cli.app import app
from tests.support.play_helpers import CTRL_C, UP, run, sel, txt

STOP, ABANDON = "\r", UP + "\r"


def corrupt(db: Path, sql: str, *params: object) -> None:
    with sqlite3.connect(db) as conn:
        conn.execute(sql, params)
    conn.close()


@pytest.fixture
def paused(db_path: Path) -> Path:
    stopped = run(["play", "shibuya"], sel(0) + txt("Aki") + txt("Ben") + sel(0) + CTRL_C)
    assert stopped.exit_code == 130
    return db_path


def _keys(db: Path) -> list[str]:
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT key FROM session_events ORDER BY seq").fetchall()
    conn.close()
    return [key for (key,) in rows]


@pytest.mark.parametrize("key", ["mode", "players.0", "colour"])
@pytest.mark.parametrize("value", [["Red"], {"a": 1}, [[1]], 3.5, True, None])
def test_every_answer_of_the_wrong_shape_is_one_line_and_can_be_set_aside(
    paused: Path, key: str, value: object
) -> None:
    corrupt(paused, "UPDATE session_events SET value = ? WHERE key = ?", json.dumps(value), key)
    damaged = run(["resume", "1"], STOP)
    assert damaged.exit_code == 1
    assert isinstance(damaged.exception, SystemExit)
    problem = [line for line in damaged.stdout.splitlines() if "Problem:" in line]
    assert len(problem) == 1
    assert problem[0].startswith(f"  Problem: the saved answer {value!r} ")
    checked = CliRunner().invoke(app, ["history", "check"])
    assert checked.exit_code == 1
    assert isinstance(checked.exception, SystemExit)
    assert "played-along game #1 (shibuya)" in checked.stdout
    set_aside = run(["resume", "1"], ABANDON)
    assert set_aside.exception is None or isinstance(set_aside.exception, SystemExit)
    assert "Game #1 set aside" in set_aside.stdout
    assert run(["resume"], "").stdout == "No unfinished games.\n"


@pytest.mark.parametrize("abandon", [False, True])
def test_a_heartbeat_from_the_future_blocks_nothing(paused: Path, abandon: bool) -> None:
    holder = {"pid": 1, "host": "another-device", "token": "x", "since": "2099-01-01T00:00:00Z"}
    corrupt(
        paused,
        "UPDATE sessions SET holder = ?, holder_beat = '2099-01-01T00:00:00Z'",
        json.dumps(holder),
    )
    if abandon:
        result = CliRunner().invoke(app, ["resume", "1", "--abandon"])
        assert result.exit_code == 0, result.output
        assert result.stdout == "Game #1 set aside; it will not be offered again.\n"
    else:
        result = run(["resume", "1"], CTRL_C)
        assert "another terminal" not in result.output
        assert result.stdout.startswith("Resuming game #1 (Shibuya")


@pytest.mark.slow
def test_deleting_a_played_along_game_leaves_history_check_clean(db_path: Path) -> None:
    from tests.support.play_scripts import shibuya_keys

    played = run(["play", "shibuya"], shibuya_keys())
    assert played.exit_code == 0, played.output
    clean = CliRunner().invoke(app, ["history", "check"])
    assert clean.exit_code == 0, clean.output
    deleted = CliRunner().invoke(app, ["history", "delete", "1", "--yes"])
    assert deleted.exit_code == 0, deleted.output
    checked = CliRunner().invoke(app, ["history", "check"])
    assert checked.exit_code == 0, checked.output
    assert checked.stdout.endswith("No problems found.\n")
    assert run(["resume"], "").stdout == "No unfinished games.\n"
