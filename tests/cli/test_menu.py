"""The menu: Back in every submenu, Esc and Ctrl-C go back a level, titles, resume, goodbye."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from companion.cli import menu as menu_module
from companion.cli.menu import game_choices, goodbye, menu
from scorers import GAME_IDS
from tests.support.play_helpers import CTRL_C, UP, run, sel, txt

ESC = "\x1b"
QUIT = sel(5)


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    """The games the menu starts (without playing them)."""
    calls: list[tuple[str, str]] = []

    def start(game: str, mode: str, db: Any, *args: Any, **kwargs: Any) -> None:
        calls.append((game, mode))

    monkeypatch.setattr(menu_module, "start_session", start)
    return calls


def drive(*keys: str) -> None:
    """Run the menu with each key group sent to the next question."""
    with create_pipe_input() as pipe:
        pipe.send_text("".join(keys))
        with create_app_session(input=pipe, output=DummyOutput()):
            menu(None)


def test_games_are_listed_by_title() -> None:
    assert [(c.title, c.value) for c in game_choices()] == [
        ("Shimoda: Perry Road", "shimoda"),
        ("Shibuya", "shibuya"),
        ("Tokaido", "tokaido"),
        ("Kamakura Collection", "kamakura"),
        ("Shogun", "shogun"),
        ("Orchard Day", "orchard"),  # the test suite's own game, registered after the box's
    ]


def test_new_game_and_score_start_the_chosen_game(started: list[tuple[str, str]]) -> None:
    drive(sel(0), sel(2), sel(2), sel(4), QUIT)
    assert started == [("tokaido", "play"), ("shogun", "score")]


def test_back_is_the_last_entry_of_a_submenu(started: list[tuple[str, str]]) -> None:
    drive(sel(0), sel(len(GAME_IDS)), QUIT)  # every game, then Back
    assert started == []


def test_ctrl_c_in_a_submenu_goes_back_a_level(started: list[tuple[str, str]]) -> None:
    drive(sel(0), CTRL_C, sel(2), CTRL_C, QUIT)
    assert started == []


def test_esc_in_a_submenu_goes_back_a_level(started: list[tuple[str, str]]) -> None:
    drive(sel(0), ESC, QUIT)
    assert started == []


def test_rules_topic_then_back_twice(capsys: pytest.CaptureFixture[str]) -> None:
    # Rules, Tokaido, its first topic (after Search), then Back three times.
    drive(sel(3), sel(2), sel(1), UP + "\r", UP + "\r", UP + "\r", QUIT)
    shown = capsys.readouterr().out
    assert "Tokaido" in shown
    assert "Tokaido: What is in the box" in shown


def test_resume_goes_straight_into_the_only_unfinished_game(db_path: Path) -> None:
    stopped = run(["play", "shibuya"], sel(0) + txt("Aki") + CTRL_C)
    assert stopped.exit_code == 130
    resumed = run(["resume"], CTRL_C)
    assert resumed.stdout.startswith(
        "Resuming game #1 (Shibuya, players: Player 2's name)."
    )  # no question


def test_goodbye_names_unfinished_games_only_when_there_are_some(db_path: Path) -> None:
    assert goodbye(None) == "\nBye."
    run(["play", "shibuya"], sel(0) + txt("Aki") + CTRL_C)
    assert goodbye(None) == "\nBye. 1 unfinished game waits in: companion resume"


def test_esc_in_the_main_menu_leaves(started: list[tuple[str, str]]) -> None:
    drive(ESC)
    assert started == []


def test_the_resume_chooser_has_back_and_honours_esc(db_path: Path) -> None:
    for name in ("Aki", "Ann"):
        run(["play", "shibuya"], sel(0) + txt(name) + CTRL_C)
    for keys in (ESC, sel(2), CTRL_C):  # Esc; Back (after the two games); Ctrl-C
        left = run(["resume"], keys)
        assert left.exit_code == 0, left.output
        assert "Resuming" not in left.stdout
    resumed = run(["resume"], sel(1) + CTRL_C)
    assert resumed.stdout.startswith(
        "Resuming game #1 (Shibuya, players: Player 2's name)."
    )  # newest first


def test_rules_search_from_the_menu_then_a_related_topic_by_its_title(
    capsys: pytest.CaptureFixture[str],
) -> None:
    question = "does riding the rickshaw past a circle let me grab its coin"
    # Rules, Kamakura, Search, the question, the best answer, then its first "See also".
    drive(sel(3), sel(3), sel(0), txt(question), sel(0), sel(0), ESC, ESC, ESC, QUIT)
    shown = capsys.readouterr().out
    assert "Kamakura Collection: Collecting coins\n" in shown
    assert "Kamakura Collection: The memento board\n" in shown  # its first "See also"
    assert "Searching for" not in shown


def test_the_place_chooser_has_back_and_esc_and_starts_nothing(db_path: Path) -> None:
    from tests.support.play_scripts import shibuya

    script = shibuya(2)
    first = run([*script.args, "--location", "Home"], script.keys())
    assert first.exit_code == 0, first.output
    for keys in (ESC, sel(3)):  # Esc; Back (after Home, another place, no place)
        left = run(["play", "shibuya"], keys)
        assert left.exit_code == 0, left.output
        assert left.stdout == "Nothing was started.\n"
    assert run(["resume"], "").stdout == "No unfinished games.\n"


def test_the_chooser_and_the_header_name_the_question_the_game_goes_on_at(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sqlite3

    from companion.cli import sessions as sessions_module

    for name in ("Aki", "Ann"):
        run(["play", "shibuya"], sel(0) + txt(name) + CTRL_C)
    with sqlite3.connect(db_path) as conn:
        conn.execute("UPDATE sessions SET updated_at = '2026-12-06T03:11:42Z' WHERE id = 1")
    conn.close()
    offered: list[list[str]] = []

    def ask(message: str, choices: list[str], **_: Any) -> str:
        offered.append(list(choices))
        return choices[1]

    monkeypatch.setattr(sessions_module, "ask", ask)
    resumed = run(["resume"], CTRL_C)
    assert (
        offered[0][1] == "#1 Shibuya, players: Player 2's name (last answer 2026-12-06 03:11 UTC)"
    )
    assert resumed.stdout.startswith("Resuming game #1 (Shibuya, players: Player 2's name).")


def test_the_chooser_shortens_a_long_entry_at_a_word_and_says_the_turn_once(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sqlite3

    from companion.cli import sessions as sessions_module
    from companion.play.table import going_on_at

    # Kamakura's turn question begins with the turn the resume list names already.
    where = going_on_at("round 3, Dai's turn", "Round 3 · Dai's turn (Enter: visit)")
    assert where == "round 3, Dai's turn"
    assert going_on_at("round 3", "Round 3 · what did Dai do? (v)") == "round 3: what did Dai do"
    run(["play", "shibuya"], sel(0) + txt("Aki") + CTRL_C)
    run(["play", "shibuya"], sel(0) + txt("Ann") + CTRL_C)
    long = "players: a question long enough to need shortening on a screen of eighty"
    with sqlite3.connect(db_path) as conn:
        conn.execute("UPDATE sessions SET updated_at = '2026-12-06T03:11:42Z'")
        conn.execute("UPDATE sessions SET note = ? WHERE id = 1", (long,))
    conn.close()
    offered: list[list[str]] = []

    def ask(message: str, choices: list[str], **_: Any) -> str:
        offered.append(list(choices))
        return choices[-1]

    monkeypatch.setattr(sessions_module, "ask", ask)
    run(["resume"], CTRL_C)
    assert offered[0][1] == (
        "#1 Shibuya, players: a question long… (last answer 2026-12-06 03:11 UTC)"
    )
    assert len(offered[0][1]) <= 80 - 4


@pytest.mark.parametrize("game", GAME_IDS)
def test_the_rules_menu_lists_topics_in_the_order_of_companion_rules(
    game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import re

    from companion.rules import load_topics
    from companion.terminal.rules_text import topics_text

    offered: list[list[Any]] = []

    def ask(message: str, choices: list[Any], **_: Any) -> str:
        offered.append([getattr(c, "value", c) for c in choices])
        return menu_module.BACK

    monkeypatch.setattr(menu_module, "ask", ask)
    menu_module.browse_rules(game, game)
    listed = topics_text(game, game, load_topics(game), 200)
    in_text = re.findall(r"^  (\S+)", listed, flags=re.MULTILINE)
    assert offered[0][1:] == in_text
