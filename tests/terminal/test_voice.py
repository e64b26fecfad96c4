"""The end count said aloud at the terminal: the line filled, read, corrected, then Enter."""

from __future__ import annotations

import contextlib
import os
import sys
import time
from pathlib import Path

import pexpect
import pyte
import pytest

from tests.voice.conftest import said  # noqa: F401  (the session's spoken lines)

pytestmark = [pytest.mark.slow, pytest.mark.terminal]

F2 = "\x1bOQ"
CTRL_W = "\x17"  # rubs out the word before the cursor


class Term:
    """The companion in a pseudo-terminal of 100x40, its screen kept by pyte."""

    def __init__(self, args: list[str]) -> None:
        env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
        env.update(PROMPT_TOOLKIT_NO_CPR="1", TERM="xterm")
        self.screen = pyte.Screen(100, 40)
        self.stream = pyte.Stream(self.screen)
        self.child = pexpect.spawn(
            sys.executable,
            ["-m", "companion", *args],
            env=env,
            encoding="utf-8",
            timeout=20,
            dimensions=(40, 100),
        )

    def wait(self, text: str, seconds: float = 60) -> str:
        """The screen once it shows ``text``."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            try:
                with contextlib.suppress(pexpect.TIMEOUT):
                    self.stream.feed(self.child.read_nonblocking(65536, timeout=0.2))
            except pexpect.EOF:
                break
            shown = "\n".join(line.rstrip() for line in self.screen.display)
            if text in shown:
                return shown
        raise AssertionError(f"{text!r} never shown; the screen:\n{self.text()}")

    def text(self) -> str:
        return "\n".join(line.rstrip() for line in self.screen.display)

    def answer(self, text: str, keys: str) -> str:
        shown = self.wait(text)
        self.child.send(keys)
        return shown

    def close(self) -> None:
        self.child.close(force=True)


@pytest.mark.timeout(180)
def test_a_row_said_fills_the_line_and_a_misheard_value_is_corrected_before_enter(
    said: Path,  # noqa: F811
    db_path: Path,
) -> None:
    wav = said("Aki, 12. Ben, 9.")  # type: ignore[operator]
    term = Term(["score", "tokaido", "--no-save", "--voice-file", str(wav)])
    try:
        term.answer("How many players", "2\r")
        term.answer("Player 1's name", "Aki\r")
        term.answer("Player 2's name", "Ben\r")
        term.answer("Aki's traveller", "\r")
        term.answer("Ben's traveller", "2\r")
        term.answer("Score track on arrival in Edo", ":say\r")
        shown = term.wait("Heard: Aki twelve, Ben")
        assert "Check the line, change what is wrong, then Enter." in shown
        shown = term.wait("\n 12 ")  # on the answer line (after the question), not saved yet
        assert shown.count("Heard: ") == 1
        term.child.send(CTRL_W + "8\r")  # the board says 8 for Ben: the last value corrected
        for _ in range(6):
            term.answer("to speak)", "1 2\r")
            time.sleep(0.3)
        shown = term.wait("Enter to save the game")
        pad = [line.split() for line in shown.split("\n") if line.startswith("2 ")]
        assert pad == [["2", "Score", "track", "12", "8"]]  # as heard, and as corrected
        term.child.send("\r")
        term.wait("Aki")
    finally:
        term.close()


@pytest.mark.timeout(120)
def test_f2_without_a_microphone_says_in_one_line_what_is_missing(db_path: Path) -> None:
    term = Term(["score", "shibuya", "--no-save"])
    try:
        term.answer("Who played?", "\r")
        term.answer("Player 1's name", "Aki\r")
        term.answer("Player 2's name", "Ben\r")
        term.answer("Aki's colour", "\r")
        term.answer("Which rules", "\r")
        term.answer("Aki: pawns at goal?", F2)
        shown = term.wait("Voice: ", seconds=30)
        said_lines = [line for line in shown.split("\n") if line.startswith("Voice: ")]
        assert len(said_lines) == 1
        assert "Listening" not in shown  # nothing promised that cannot be done
        term.child.send("3\r")
        term.wait("Ben: pawns at goal?")
    finally:
        term.close()
