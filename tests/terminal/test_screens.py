"""What the players see in a real pseudo-terminal at 80x24 and 100x40 (read with pyte)."""

from __future__ import annotations

import contextlib
import itertools
import os
import sys
import time
from pathlib import Path

import pexpect
import pyte
import pytest

pytestmark = [pytest.mark.slow, pytest.mark.terminal]

SIZES = [(80, 24), (100, 40)]
ESC = "\x1b"


class Term:
    """The companion in a pseudo-terminal of ``columns`` x ``rows``, its screen kept by pyte."""

    def __init__(self, args: list[str], columns: int, rows: int) -> None:
        env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
        env.update(PROMPT_TOOLKIT_NO_CPR="1", TERM="xterm")
        self.screen = pyte.Screen(columns, rows)
        self.stream = pyte.Stream(self.screen)
        self.child = pexpect.spawn(
            sys.executable,
            ["-m", "companion", *args],
            env=env,
            encoding="utf-8",
            timeout=20,
            dimensions=(rows, columns),
        )

    def pump(self) -> None:
        with contextlib.suppress(pexpect.TIMEOUT):
            self.stream.feed(self.child.read_nonblocking(65536, timeout=0.2))

    def wait(self, text: str, seconds: float = 30) -> str:
        """The screen once it shows ``text``."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            try:
                self.pump()
            except pexpect.EOF:
                break
            shown = self.text()
            if text in shown:
                return shown
        raise AssertionError(f"{text!r} never shown; the screen:\n{self.text()}")

    def answer(self, text: str, keys: str) -> str:
        shown = self.wait(text)
        self.child.send(keys)
        return shown

    def text(self) -> str:
        return "\n".join(line.rstrip() for line in self.screen.display)

    def exit_status(self) -> int | None:
        end = time.monotonic() + 20
        while time.monotonic() < end:
            try:
                self.pump()
            except pexpect.EOF:
                break
        self.child.close()
        return self.child.exitstatus


def no_word_cut(shown: str, columns: int) -> None:
    """No full screen line ends inside a word that goes on at the next line's start."""
    lines = shown.split("\n")
    for upper, lower in itertools.pairwise(lines):
        if len(upper) >= columns and upper[-1:].isalpha() and lower[:1].isalpha():
            raise AssertionError(f"a word is cut:\n{upper}\n{lower}")


@pytest.mark.timeout(120)
@pytest.mark.parametrize(("columns", "rows"), SIZES)
def test_a_long_turn_question_wraps_between_words_and_a_refused_line_stays(
    db_path: Path, columns: int, rows: int
) -> None:
    term = Term(["play", "kamakura"], columns, rows)
    term.answer("How many players", "2\r")
    term.answer("Player 1's name", "Aki\r")
    term.answer("Player 2's name", "Cho\r")
    term.answer("Enter when all are done", "\r")
    term.answer("First game", "\r")
    term.answer("exclusive tour cards for you", "\r")
    term.answer("visited Kamakura most recently", "\r")
    term.answer("Site coins on the board", "\r")
    shown = term.wait("Aki's turn")
    no_word_cut(shown, columns)
    assert max(len(line) for line in shown.split("\n")) <= columns
    term.child.send("w x\r")  # refused: the line stays as typed
    shown = term.wait("8th coin")  # the refusal whole, wrapped below the line
    assert "w x" in shown
    assert shown.count("one of:") == 1  # said once, not a cut copy and a whole one
    no_word_cut(shown, columns)
    term.child.send("\x15" + "r\r")  # Ctrl-U clears the kept line (its bad value selected)
    term.answer("Cho's turn", "r\r")
    term.answer("Round 2 · Aki's turn", "r\r")
    shown = term.wait("Aki rested last turn")  # Aki's second rest in a row is refused
    assert shown.count("rested last turn") == 1
    term.child.send("\x03")
    assert term.exit_status() == 130


@pytest.mark.timeout(120)
@pytest.mark.parametrize(("columns", "rows"), SIZES)
def test_the_menu_quits_with_status_0_and_the_resume_chooser_honours_esc(
    db_path: Path, columns: int, rows: int
) -> None:
    for name in ("Aki", "Ann"):
        term = Term(["play", "shibuya"], columns, rows)
        term.answer("Who is playing?", "\r")
        term.answer("Player 1's name", f"{name}\r")
        term.answer("Player 2's name", "\x03")
        assert term.exit_status() == 130
    chooser = Term(["resume"], columns, rows)
    chooser.answer("Which game?", ESC)
    assert chooser.exit_status() == 0
    menu = Term([], columns, rows)
    menu.answer("What now?", "\x03")
    assert menu.exit_status() == 0
