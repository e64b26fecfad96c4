"""Every screen fits 80x24 (and 100x40): the pad's rows, the question, whole words.

Each test runs the companion in a real pseudo-terminal and reads what a player
sees with pyte: every game's score pad (its player rows and its question in
view), the long play-along questions with what is shown below them, the menus,
a rules topic and a rules search, the ``companion resume`` chooser and the
history's tables.
"""

from __future__ import annotations

import contextlib
import os
import re
import sys
import time
from pathlib import Path

import pexpect
import pyte
import pytest

from tests.support.play_helpers import DOWN, txt
from tests.support.play_scripts import Script, kamakura, shibuya, shimoda, shogun, tokaido
from tests.terminal.test_screens import SIZES, no_word_cut
from tests.terminal.test_screens import Term as PlainTerm

pytestmark = [pytest.mark.slow, pytest.mark.terminal]

PAD_QUESTION = "Enter to save the game"


class Term(PlainTerm):
    """A pseudo-terminal that answers the program's cursor position requests, as a real one.

    prompt_toolkit then knows the rows below the prompt and draws what is shown
    below a line (a preview, the codes) at the bottom, as a player sees it.
    """

    def __init__(self, args: list[str], columns: int, rows: int) -> None:
        hidden = ("COLUMNS", "LINES", "PROMPT_TOOLKIT_NO_CPR")
        env = {k: v for k, v in os.environ.items() if k not in hidden}
        env.update(TERM="xterm")
        child: list[pexpect.spawn] = []

        class Answering(pyte.Screen):
            def write_process_input(self, data: str) -> None:
                child[0].send(data)

        self.screen = Answering(columns, rows)
        self.stream = pyte.Stream(self.screen)
        self.child = pexpect.spawn(
            sys.executable,
            ["-m", "companion", *args],
            env=env,
            encoding="utf-8",
            timeout=20,
            dimensions=(rows, columns),
        )
        child.append(self.child)


def settle(term: Term, quiet: float = 1.5, seconds: float = 90) -> str:
    """The screen once something is drawn and nothing new for ``quiet`` seconds."""
    end = time.monotonic() + seconds
    while not term.text().strip() and time.monotonic() < end:
        try:
            term.pump()
        except pexpect.EOF:
            break
    last = time.monotonic()
    while time.monotonic() < end:
        before = term.text()
        with contextlib.suppress(pexpect.EOF):
            term.pump()
        if term.text() != before:
            last = time.monotonic()
        elif time.monotonic() - last >= quiet:
            break
    return term.text()


def fits(shown: str, columns: int) -> None:
    """No line wider than the terminal and no word broken at its edge."""
    assert max(len(line) for line in shown.split("\n")) <= columns, shown
    no_word_cut(shown, columns)


def last_pad(shown: str) -> tuple[str, list[str]]:
    """The last score pad on the screen: its header line and its numbered player rows."""
    lines = shown.split("\n")
    top = max(k for k, line in enumerate(lines) if re.match(r"^ ?# {2,}A ", line))
    rows = []
    for line in lines[top + 2 :]:  # after the header's rule
        if not re.match(r"^ ?\d{1,2} {2,}\S", line):
            break
        rows.append(line)
    return lines[top], rows


SCRIPTED = [tokaido(5), shimoda(), shibuya(4), kamakura(4), shogun(5)]


@pytest.mark.timeout(240)
@pytest.mark.parametrize("script", SCRIPTED, ids=lambda s: f"{s.game}-{s.players}")
@pytest.mark.parametrize(("columns", "rows"), SIZES)
def test_every_game_s_score_pad_shows_its_players_rows_and_its_question(
    db_path: Path, script: Script, columns: int, rows: int
) -> None:
    term = Term(script.args, columns, rows)
    term.child.send("".join(script.before + script.count[:-1]))
    term.wait(PAD_QUESTION, 180)
    shown = settle(term)
    assert PAD_QUESTION in shown  # the question, below the pad
    fits(shown, columns)
    header, player_rows = last_pad(shown)
    names = ["Aki", "Ben", "Cho", "Dai", "Eve"][: script.players]
    columns_shown = names if script.game != "shibuya" or script.players == 2 else ["Red", "Blue"]
    for letter, name in zip("ABCDE", columns_shown, strict=False):
        assert f"{letter} {name}" in header  # every column, named
    assert player_rows and player_rows[0].lstrip().startswith("1 ")  # the first row in view
    assert shown.index(player_rows[-1]) < shown.rindex(PAD_QUESTION)
    # Every player row has a value for each column (none is cut off at the edge).
    for line in player_rows:
        assert len(line.split()) >= 2 + len(columns_shown), line
    term.child.send(script.count[-1])
    term.wait("Saved to the history as game #1")
    assert term.exit_status() == 0


@pytest.mark.timeout(180)
@pytest.mark.parametrize(("columns", "rows"), SIZES)
def test_long_questions_and_what_is_shown_below_them_wrap_between_words(
    db_path: Path, columns: int, rows: int
) -> None:
    script = shogun(5)
    term = Term(script.args, columns, rows)
    term.child.send("".join(script.before))
    # The second winter's first question, with the codes shown below it.
    shown = term.wait("what changed since the first winter", 180)
    shown = settle(term)
    assert "Aki: what changed since the first winter" in shown
    assert "b=3102 a whole region" in shown  # the codes below, whole
    fits(shown, columns)
    term.child.send("bgc\r" + "r-pty\r" + "g+cb-\r" + "yr\r" + "p-gt\r")
    shown = term.wait("Rice after the loss")
    shown = settle(term)
    assert "Provinces: Aki" in shown and "Eve" in shown  # the whole question
    fits(shown, columns)
    term.child.send("c4\r")
    shown = term.wait("Cho: what did the 1 revolt take?")
    term.child.send("rc")  # red is not Cho's: refused, the line kept
    shown = settle(term)
    term.child.send("\r")
    shown = term.wait("Cho held no red province")
    # A question of several lines: its hint, then the answer, on lines of their own.
    assert "\n(:undo  :rules  :pause  :time)\n rc\n" in shown
    fits(settle(term), columns)
    term.child.send("\x03")
    assert term.exit_status() == 130


@pytest.mark.timeout(180)
@pytest.mark.parametrize(("columns", "rows"), SIZES)
def test_shimoda_s_card_preview_is_whole(db_path: Path, columns: int, rows: int) -> None:
    term = Term(["score", "shimoda"], columns, rows)
    term.answer("Player 1's name", "Aki\r")
    term.answer("Player 2's name", "Ben\r")
    term.answer("Aki's merchant", "Florist 3\r")
    term.answer("Ben's merchant", "Builder 2\r")
    shown = term.wait("Aki, space 1 from the left")
    fits(settle(term), columns)
    term.child.send("b rp 3 7 c2")
    shown = settle(term)
    said = " ".join(shown.split())
    assert (
        "a blue card, 3 points per pair of red + pink, over the whole street, "
        "2 chair icons on it" in said
    )
    fits(shown, columns)
    term.child.send("\x03")
    assert term.exit_status() == 130


@pytest.mark.timeout(180)
@pytest.mark.parametrize(("columns", "rows"), SIZES)
def test_menus_rules_topic_and_search_fit(db_path: Path, columns: int, rows: int) -> None:
    term = Term([], columns, rows)
    shown = term.wait("What now?")
    shown = settle(term)
    for entry in ("New game", "Resume a game", "Score a finished game", "Rules", "History"):
        assert entry in shown
    fits(shown, columns)
    term.child.send(DOWN * 3 + "\r")
    term.wait("Rules of which game?")
    shown = settle(term)
    assert "Back" in shown
    fits(shown, columns)
    term.child.send(DOWN * 3 + "\r")  # Kamakura Collection: its long topic list
    term.wait("Which topic of Kamakura Collection?")
    shown = settle(term)
    assert "? Which topic of Kamakura Collection?" in shown  # in view above its long list
    fits(shown, columns)
    term.child.send("\x1b[A")  # up from the top: Back, the list scrolled to its end
    shown = settle(term)
    assert "Which topic of Kamakura Collection?" in shown and "» Back" in shown
    term.child.send("\x1b[B" + "\r")  # down from Back: the search, at the top again
    term.wait("Search the rules of Kamakura Collection")
    long = "who wins if we have the same points"
    term.child.send(long)
    shown = settle(term)
    assert long in [line.strip() for line in shown.splitlines()], shown  # on its own line, whole
    term.child.send("\x7f" * len(long) + "who wins a tie\r")
    shown = term.wait("Best answers to")
    shown = settle(term)
    assert "» Ties" in shown, shown  # the best answer first
    fits(shown, columns)
    term.child.send("\r")  # the best answer
    shown = term.wait("Next?")
    shown = settle(term)
    # The topic's title stays in view under its text, and its links are titles.
    assert "Kamakura Collection: Ties. Next?" in shown
    assert "See also: " in shown
    fits(shown, columns)
    term.child.send("\x1b")  # Esc goes back to the topics, then to the games, then out
    term.wait("Which topic of Kamakura Collection?")
    term.child.send("\x1b")
    term.wait("Rules of which game?")
    shown = settle(term)
    assert "Which topic of Kamakura Collection? (Use arrow keys)" not in shown  # no stale header
    term.child.send("\x1b")
    term.wait("What now?")
    term.child.send("\x1b")
    assert term.exit_status() == 0


@pytest.mark.timeout(240)
@pytest.mark.parametrize(("columns", "rows"), SIZES)
def test_the_resume_chooser_and_the_history_tables_fit(
    db_path: Path, columns: int, rows: int
) -> None:
    for name in ("Aki", "Ann", "Alexandra-Marie"):
        term = Term(["play", "tokaido"], columns, rows)
        term.answer("How many players", "2\r")
        term.answer("Player 1's name", f"{name}\r")
        term.answer("Player 2's name", "Benedict\r")
        term.answer("Steps not done", ":pause\r")
        assert term.exit_status() == 0
    chooser = Term(["resume"], columns, rows)
    chooser.wait("Which game?")
    shown = settle(chooser)
    assert shown.count("Tokaido") >= 3 and "Back" in shown
    fits(shown, columns)
    chooser.child.send("\x1b")
    assert chooser.exit_status() == 0
    script = tokaido(5)
    game = Term(script.args, columns, rows)
    game.child.send(script.keys())
    game.wait("Saved to the history as game #4", 180)
    assert game.exit_status() == 0
    listing = Term(["history", "list"], columns, rows)
    shown = settle(listing)
    assert "Aki" in shown and "Eve" in shown
    fits(shown, columns)
    listing.exit_status()
    play = Term(["history", "show", "4"], columns, rows)
    shown = settle(play)
    assert "Total" in shown and "Rank" in shown
    fits(shown, columns)
    # The details' lines are broken between words too ("stage 4 <1 min" stays whole).
    assert re.search(r"Rounds: set-up <1 min, stage 1 <1 min", shown)
    assert not re.search(r"<\n", shown)
    play.exit_status()


def test_the_keys_typed_here_are_the_scripts_own() -> None:
    # The scripted shogun winter this file types by hand is the script's.
    assert shogun(5).count[:6] == [txt(k) for k in ("bgc", "r-pty", "g+cb-", "yr", "p-gt", "c4")]


@pytest.mark.timeout(180)
@pytest.mark.parametrize(("columns", "rows"), SIZES)
def test_a_first_turn_offers_a_walk_undo_offers_the_answer_and_resume_names_the_question(
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
    term.wait("Aki's turn")
    shown = settle(term)
    assert shown.rstrip().endswith(" w")  # a walk offered: a visit is impossible on turn 1
    fits(shown, columns)
    term.child.send("\r")
    term.wait("Cho's turn")
    term.child.send("\x15r\r")  # Cho rests
    term.wait("Round 2 · Aki's turn")
    term.child.send("\x15:undo\r")
    term.wait("Round 1 · Cho's turn")
    shown = settle(term)
    assert shown.rstrip().endswith(" r")  # the answer undone, offered to edit
    term.child.send("\x15:pause\r")
    term.wait("Paused and saved")
    assert term.exit_status() == 0
    again = Term(["resume"], columns, rows)
    shown = again.wait("Resuming game #1")
    shown = settle(again)
    header = " ".join(" ".join(shown.split("Resuming game #1", 1)[1].split("\n")[:2]).split())
    assert "(Kamakura Collection, round 1, Cho's turn)." in header  # the turn, said once
    fits(shown, columns)
    again.child.send("\x03")
    assert again.exit_status() == 130
