"""A damaged record of a game in progress is one clear problem for resume and history check."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from companion.cli.app import app
from companion.history.sessions import MAX_VALUE_DEPTH, parse_value
from companion.play.runner import UnknownSession, flow_for
from scorers import GAME_IDS
from tests.support.play_helpers import CTRL_C, UP, run, sel, txt

STOP, ABANDON = "\r", UP + "\r"
DEEP = "[" * 5000 + "]" * 5000


def corrupt(db: Path, sql: str, *params: object) -> None:
    with sqlite3.connect(db) as conn:
        conn.execute(sql, params)
    conn.close()


@pytest.fixture
def paused(db_path: Path) -> Path:
    stopped = run(["play", "shibuya"], sel(0) + txt("Aki") + txt("Ben") + sel(0) + CTRL_C)
    assert stopped.exit_code == 130
    return db_path


def test_an_answer_nested_5000_deep_is_an_unreadable_answer(paused: Path) -> None:
    corrupt(paused, "UPDATE session_events SET value = ? WHERE key = 'players.0'", DEEP)
    damaged = run(["resume", "1"], STOP)
    assert damaged.exit_code == 1
    assert damaged.exception is None or isinstance(damaged.exception, SystemExit)
    assert "saved answer 2 of 4 cannot be used" in damaged.stdout
    assert "the saved answer cannot be read (unreadable text '[[[[[[[[" in damaged.stdout
    checked = CliRunner().invoke(app, ["history", "check"])
    assert checked.exit_code == 1
    assert isinstance(checked.exception, SystemExit)
    assert (
        "  played-along game #1 (shibuya): saved answer 3 (players.0) is not readable JSON\n"
        in checked.stdout
    )


def test_a_game_that_is_not_ours_is_refused_before_any_import(paused: Path) -> None:
    corrupt(paused, "UPDATE sessions SET game = 'os' WHERE id = 1")
    resumed = run(["resume", "1"], STOP)
    assert resumed.exit_code == 1
    assert isinstance(resumed.exception, SystemExit)
    assert resumed.stderr.endswith(
        "Error: game #1 cannot be resumed: its game 'os' is not one of ours "
        f"({', '.join(GAME_IDS)}); the record is damaged\n"
    )
    checked = CliRunner().invoke(app, ["history", "check"])
    assert checked.exit_code == 1
    assert (
        "  played-along game #1 (os): its game 'os' is not one of ours "
        f"({', '.join(GAME_IDS)}); the record is damaged\n" in checked.stdout
    )


@pytest.mark.parametrize(
    ("game", "kind"), [("os", "play"), ("..", "play"), ("tokaido.x", "score"), ("tokaido", "x")]
)
def test_flow_for_checks_the_registry(game: str, kind: str) -> None:
    with pytest.raises(UnknownSession):
        flow_for(game, kind)


def test_saved_values_are_read_to_a_bounded_depth() -> None:
    assert parse_value("[" * MAX_VALUE_DEPTH + "]" * MAX_VALUE_DEPTH) is not None
    assert parse_value('["[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["]')
    with pytest.raises(ValueError, match="nested more than 64 deep"):
        parse_value("[" * (MAX_VALUE_DEPTH + 1) + "]" * (MAX_VALUE_DEPTH + 1))
    with pytest.raises(ValueError):
        parse_value(DEEP)
