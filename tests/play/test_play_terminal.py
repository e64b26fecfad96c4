"""A real terminal: the menu in a pseudo-terminal, and a game killed with SIGKILL."""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

import pexpect
import pytest

from tests.support.play_helpers import run, saved, sel, sessions, txt

DOWN = "\x1b[B"
pytestmark = pytest.mark.terminal


def spawn(*args: str) -> pexpect.spawn:
    env = {**os.environ, "PROMPT_TOOLKIT_NO_CPR": "1", "TERM": "xterm"}
    child = pexpect.spawn(
        sys.executable,
        ["-m", "companion", *args],
        env=env,
        encoding="utf-8",
        timeout=20,
        dimensions=(40, 120),
    )
    return child


def answer(child: pexpect.spawn, prompt: str, keys: str) -> None:
    child.expect_exact(prompt)
    child.send(keys)


@pytest.mark.timeout(90)
def test_menu_new_game_in_a_real_terminal(db_path: Path) -> None:
    child = spawn()
    answer(child, "What now?", "\r")  # New game
    answer(child, "Which game?", DOWN + "\r")  # shibuya
    answer(child, "Who is playing?", "\r")
    answer(child, "Player 1's name", "Aki\r")
    answer(child, "Player 2's name", "Ben\r")
    answer(child, "colour?", "\r")
    answer(child, "Which rules?", DOWN * 4 + "\r")  # Pause
    child.expect_exact("Paused and saved. Continue with: companion resume 1")
    child.expect(pexpect.EOF)  # pausing saves and quits
    child.close()
    assert child.exitstatus == 0
    assert sessions(db_path) == [(1, "shibuya", "active")]


@pytest.mark.timeout(90)
def test_menu_quits(db_path: Path) -> None:
    child = spawn()
    answer(child, "What now?", DOWN * 5 + "\r")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


@pytest.mark.timeout(120)
def test_killed_mid_game_then_resumed_to_the_same_result(db_path: Path, tmp_path: Path) -> None:
    child = spawn("play", "shibuya")
    answer(child, "Who is playing?", "\r")
    answer(child, "Player 1's name", "Aki\r")
    answer(child, "Player 2's name", "Ben\r")
    answer(child, "colour?", "\r")
    answer(child, "Which rules?", "\r")
    answer(child, "Steps not done", "\r")
    answer(child, "Who goes first?", "\r")
    for left in (16, 15, 14, 13, 12):
        answer(child, f"({left} to go)", "\r")
    child.expect_exact("(11 to go)")  # the fifth tile is saved before this question
    child.kill(signal.SIGKILL)
    child.close()
    assert sessions(db_path) == [(1, "shibuya", "active")]

    rest = sel(1) + (sel(1) + sel(0)) * 2 + sel(1) + txt("")  # the other 11 tiles at once
    resumed = run(["resume", "1"], rest)
    assert resumed.exit_code == 0, resumed.output
    [game] = saved(db_path)

    straight = tmp_path / "straight.sqlite3"
    keys = sel(0) + txt("Aki") + txt("Ben") + sel(0) * 4 + sel(0) * 5 + rest
    assert run(["play", "shibuya", "--db", str(straight)], keys).exit_code == 0
    [reference] = saved(straight)
    assert game["score_file"] == reference["score_file"]
    assert game["result"] == reference["result"]


@pytest.mark.timeout(90)
def test_menu_rules_and_history(db_path: Path) -> None:
    child = spawn()
    answer(child, "What now?", DOWN * 3 + "\r")  # Rules
    answer(child, "Rules of which game?", DOWN + "\r")  # shibuya
    answer(child, "Which topic of Shibuya?", DOWN * 6 + "\r")  # How to win (after Search)
    child.expect_exact("Shibuya: How to win")
    child.expect_exact("6 of its 8 pawns")
    answer(child, "Shibuya: How to win. Next?", "\x1b[A\r")  # Back (the last entry)
    answer(child, "Which topic of Shibuya?", "\x1b[A\r")  # Back
    answer(child, "Rules of which game?", "\x1b[A\r")  # Back
    answer(child, "What now?", DOWN * 4 + "\r")  # History
    child.expect_exact("No games recorded yet.")
    answer(child, "What now?", DOWN * 5 + "\r")  # Quit
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


@pytest.mark.timeout(120)
def test_a_second_terminal_cannot_drive_a_game_in_play(db_path: Path) -> None:
    import socket

    child = spawn("play", "shibuya")
    answer(child, "Who is playing?", "\r")
    child.expect_exact("Player 1's name")
    second = run(["resume", "1"], txt("Aki"))
    assert second.exit_code == 1
    assert second.stderr.startswith(
        f"Error: game #1 is being played in another terminal (process {child.pid} on "
        f"{socket.gethostname()}, since "
    )
    assert second.stderr.endswith(" UTC); go on there, or pause it there first\n")
    abandon = run(["resume", "1", "--abandon"], "")
    assert abandon.exit_code == 1
    # The first terminal is unaffected; when it dies, the game can be taken over.
    child.send("Aki\r")
    child.expect_exact("Player 2's name")
    child.kill(signal.SIGKILL)
    child.close()
    resumed = run(
        ["resume", "1"],
        txt("Ben")
        + sel(0)
        + sel(0)
        + txt("")
        + sel(0)
        + sel(1)
        + (sel(1) + sel(0)) * 2
        + sel(1)
        + txt(""),
    )
    assert resumed.exit_code == 0, resumed.output
    [game] = saved(db_path)
    assert [p["name"] for p in game["score_file"]["players"]] == ["Aki", "Ben"]
