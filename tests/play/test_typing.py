"""Less typing at the table: lists you type into, short turns, cards and winters (issue 25)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from companion.kits.kamakura.flow import (
    CALL,
    REST,
    USE,
    VISIT,
    WALK,
    board_coins,
    board_problem,
    likely,
    parse_turn,
)
from companion.kits.shimoda.codes import card_or_reference, complete_card, parse_card
from companion.kits.shogun.flow import grid_text, merge_grid, parse_grid
from companion.play.prompts import QuestionaryPrompter, TypedPointer, offered_hint
from companion.play.replay_check import replay
from companion.play.runner import flow_for
from companion.play.table import Table
from tests.support.play_helpers import DOWN, answers, run, saved
from tests.support.play_scripts import kamakura, shimoda, shogun
from tests.support.prompters import Scripted

ACTIONS = [VISIT, WALK, REST, CALL, USE, "No action"]


def pick(keys: str, choices: list[str], default: str | None = None) -> str:
    """What the real list prompt returns for ``keys``."""
    with create_pipe_input() as pipe:
        pipe.send_text(keys)
        with create_app_session(input=pipe, output=DummyOutput()):
            return QuestionaryPrompter(lambda: None).select("Which?", choices, default)


# --- lists you can type into ---------------------------------------------------------


@pytest.mark.parametrize(
    ("keys", "default", "picked"),
    [
        ("5\r", None, USE),  # the entry's number
        ("u\r", None, USE),  # its first letter
        ("c\r", None, CALL),
        ("r\r", WALK, REST),
        ("\r", REST, REST),  # the pointer starts on the default
        (DOWN + "\r", None, WALK),  # the arrows still work
        ("wr\r", None, REST),  # "wr" starts nothing: r starts again
    ],
)
def test_a_list_takes_the_number_or_first_letters(
    keys: str, default: str | None, picked: str
) -> None:
    assert pick(keys, ACTIONS, default) == picked


def test_typed_pointer_numbers_letters_and_again() -> None:
    pointer = TypedPointer(["Rested", "Rode", None, "↩ Undo the last answer"])
    assert pointer.digit("3", 0) == 3  # the separator has no number
    assert pointer.letter("r", 3) == 0
    assert pointer.letter("o", 0) == 1  # "ro": Rode
    assert pointer.letter("r", 1) == 0  # "ror" starts nothing: the next entry with r
    assert pointer.letter("u", 0) == 3  # the symbol is not part of the letters
    assert pointer.digit("9", 1) == 1  # no entry 9: the pointer stays


def test_offered_names_are_shown() -> None:
    assert offered_hint("(:undo)", ["Aki", "Ben"]) == "(known: Aki, Ben; Tab completes) (:undo)"
    many = [f"P{k}" for k in range(10)]
    assert offered_hint("(:undo)", many) == (
        "(known: P0, P1, P2, P3, P4, P5, P6, P7 and 2 more; Tab completes) (:undo)"
    )
    assert offered_hint("(:undo)", []) == "(:undo)"


# --- Kamakura turns ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "action", "coin"),
    [
        ("v B", VISIT, ("B", None, None)),
        ("vB", VISIT, ("B", None, None)),
        ("v G3p", VISIT, ("G", 3, "pink")),
        ("v", VISIT, None),  # the coin is asked next
        ("w", WALK, None),
        ("R", REST, None),
        ("u", USE, None),
        (CALL, CALL, None),  # the list's words, as older versions saved them
    ],
)
def test_a_turn_is_one_short_answer(text: str, action: str, coin: Any) -> None:
    assert parse_turn(text, [*ACTIONS, "Aki took an 8th site coin"]) == (action, coin, None)


def test_a_wrong_turn_says_what_fits() -> None:
    assert parse_turn("xx", ACTIONS) == (
        None,
        None,
        "one of: B (or v B) visited circle B, w walked, r rested, c called a taxi, "
        "u used a ticket, n none",
    )
    assert parse_turn("8", ACTIONS)[2] == "the last turns have begun already: no 8 here"
    assert parse_turn("v B F", ACTIONS)[2] == "v and one circle letter, like v B"


@pytest.mark.parametrize(
    ("done", "offered"),
    [
        ([], WALK),  # a first turn: no coin to take on a station
        ([VISIT], WALK),  # never a visit (its circle is typed anyway)
        ([WALK], REST),  # never the action just done
        ([VISIT, WALK], REST),
        ([WALK, REST, WALK], REST),  # the usual one but the last
        ([REST, REST], WALK),
    ],
)
def test_the_action_offered_is_the_most_likely(done: list[str], offered: str) -> None:
    assert likely(done) == offered


def test_the_board_is_described_in_one_answer() -> None:
    assert board_coins("Bp Og C2p") == [("B", 3, "pink"), ("O", 3, "green"), ("C", 2, "pink")]
    assert board_problem("Bp Og C2p") is None
    assert board_problem("") is None  # described later, when taken
    assert board_problem("C2") == "circle C: add its colour letter (p, g or b), e.g. Cp"
    assert board_problem("Cp") == "circle C: add the value printed on its coin, e.g. C2p"
    assert board_problem("B4p") == "circle B's coin is worth 3 (the rulebook's value)"
    assert board_problem("Ap") == "circle A is a station: it holds no site coin"
    assert board_problem("Bp Bg") == "circle B twice"


# --- Shimoda cards ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("code", "spaced"),
    [("by33", "b y 3 3"), ("bchair33c1", "b chair 3 3 c1"), ("kvm107", "k vm 10 7")],
)
def test_a_card_code_may_be_typed_run_together(code: str, spaced: str) -> None:
    assert parse_card(code) == parse_card(spaced)
    assert parse_card(code)[1] is None


def test_a_card_of_the_other_street_is_repeated_by_its_space() -> None:
    card = parse_card("k rp 5 5")[0]
    other: list[dict[str, Any] | None] = [None, card, None, None, None, None, None]
    assert card_or_reference("=2", other) == (card, None)
    assert card_or_reference("=1", other) == (
        None,
        "the other street's space 1 has no card yet",
    )


def test_tab_offers_nothing_for_a_part_not_begun() -> None:
    assert complete_card("p ") == []  # Tab no longer turns "p " into "p b"
    assert complete_card("p b y 3 ") == []
    assert ("any", "per tourist of any colour") in complete_card("p a")


# --- Shogun winters -----------------------------------------------------------------------


def test_an_older_second_winter_typed_whole_regions() -> None:
    first = parse_grid("b3102 y21")[0]
    assert first is not None
    assert merge_grid(first, parse_grid("y31")[0] or {}) == {
        "brown": [3, 1, 0, 2],
        "yellow": [3, 1, 0, 0],
    }
    assert merge_grid(first, parse_grid("y0")[0] or {}) == {"brown": [3, 1, 0, 2]}
    assert merge_grid(first, {}) == first


# --- end to end, and older answers still replay -----------------------------------------


@pytest.mark.slow
def test_kamakura_turns_and_the_board_described_at_set_up(db_path: Path) -> None:
    script = kamakura(4)
    result = run(script.args, script.keys())
    assert result.exit_code == 0, result.output
    assert "Done by the companion: step 7, Start player" in result.stdout
    saved_answers = dict(answers(db_path, 1))
    assert saved_answers["circles"] == "Bp Og Kb Mp Fg C2p D3g E1p"
    assert saved_answers["turn.1"] == "v B"
    assert saved_answers["turn.5"] == "w"  # Enter took the walk offered
    assert not any(k.startswith(("circle.", "turn.1.coin")) for k in saved_answers)
    [game] = saved(db_path)
    aki = game["score_file"]["players"][0]
    assert aki["site_coins"][5] == {"circle": "C", "value": 2, "color": "pink"}
    assert game["result"]["winners"] == ["Aki"]


def old_kamakura(events: list[tuple[str, Any]]) -> list[tuple[str, Any]]:
    """The same answers as an older version saved them: list words, coins one by one."""
    words = {"w": WALK, "r": REST, "c": CALL, "u": USE, "n": "No action"}
    board = {c: (v, col) for c, v, col in board_coins(dict(events)["circles"])}
    known = {"B", "O", "K", "M", "F"}
    old: list[tuple[str, Any]] = []
    for key, value in events:
        if key == "circles":
            continue
        if key.startswith("turn.") and key.count(".") == 1 and value.startswith("v "):
            circle = value.split()[1]
            old += [(key, VISIT), (f"{key}.coin", circle)]
            number, color = board[circle]
            old.append((f"circle.{circle}", color if circle in known else f"{number} {color}"))
        elif key.startswith("turn.") and key.count(".") == 1:
            old.append((key, words[value]))
        else:
            old.append((key, value))
    return old


@pytest.mark.slow
def test_an_older_kamakura_session_still_replays(db_path: Path) -> None:
    script = kamakura(2)
    result = run(script.args, script.keys())
    assert result.exit_code == 0, result.output
    [game] = saved(db_path)
    outcome, used = replay("kamakura", "play", old_kamakura(answers(db_path, 1)))
    assert outcome.score_file == game["score_file"]
    assert used == len(old_kamakura(answers(db_path, 1)))


def old_shogun(events: list[tuple[str, Any]], count: int) -> list[tuple[str, Any]]:
    """A Shogun game's answers as an older version saved them.

    Whole regions and rice player by player, revolts resolved then whole regions
    after them, and the final winter's war chests always asked.
    """
    from companion.kits.shogun import winter as codes

    names = [v for k, v in events if k.startswith("players.") and k != "players.count"]
    held: dict[int, dict[str, list[int]]] = {}
    old: list[tuple[str, Any]] = []
    for key, value in events:
        year = key[:2]
        if key.startswith(("y1.winter.held.", "y2.winter.changed.")):
            seat = int(key.rsplit(".", 1)[1])
            if key.startswith("y1"):
                grid = parse_grid(value)[0]
            else:
                grid = codes.apply_changes(held[seat], value)[0]
            assert grid is not None
            held[seat] = grid
            if seat == count - 1:
                for s in range(count):
                    old.append((f"{year}.winter.regions.{s}", grid_text(held[s])))
                    old.append((f"{year}.winter.rice.{s}", -1))  # filled in below
        elif key.endswith(".winter.rice"):
            rice = codes.read_rice(value, names)[0]
            assert rice is not None
            old = [
                (k, rice.get(int(k.rsplit(".", 1)[1]), 9)) if v == -1 else (k, v) for k, v in old
            ]
            if any(k.startswith(f"{year}.winter.taken.") for k, _ in events):
                old.append((f"{year}.winter.revolts", "Revolts resolved"))
        elif ".winter.taken." in key:
            seat = int(key.rsplit(".", 1)[1])
            after = codes.apply_taken(held[seat], value, 1, "")[0]
            assert after is not None
            held[seat] = after
            old.append((f"{year}.winter.after.{seat}", grid_text(after)))
            old.append(("y2.winter.chests", [3, 4, 5][:count]))
        else:
            old.append((key, value))
    return old


@pytest.mark.slow
def test_an_older_shogun_session_still_replays(db_path: Path, seeds: list[int]) -> None:
    script = shogun(3)
    result = run(script.args, script.keys())
    assert result.exit_code == 0, result.output
    [game] = saved(db_path)
    old = old_shogun(answers(db_path, 1), 3)
    assert ("y2.winter.regions.2", "y2000 g4200") in old and ("y2.winter.rice.2", 4) in old
    assert ("y2.winter.after.2", "y1000 g4200") in old
    outcome, used = replay("shogun", "play", old + seed_events(db_path))
    assert used == len(old)
    chests = [p.pop("war_chests") for p in outcome.score_file["players"]]
    assert chests == [3, 4, 5]  # asked as they were then
    assert outcome.score_file == game["score_file"]


def seed_events(db: Path) -> list[tuple[str, Any]]:
    """The draws' seeds of session 1 (kept apart from the answers)."""
    from tests.support.play_helpers import events

    return [(k, v) for k, v in events(db, 1) if k.startswith("seed:")]


@pytest.mark.slow
def test_shimoda_second_street_by_reference(db_path: Path) -> None:
    script = shimoda()
    result = run(script.args, script.keys())
    assert result.exit_code == 0, result.output
    [game] = saved(db_path)
    aki, ben = (p["street"] for p in game["score_file"]["players"])
    # Ben's space 7 repeats Aki's space 1 (=1), and so on: the same cards, facing.
    # (Both streets are listed from Aki's seat, so facing spaces share an index.)
    assert [s["card"] for s in ben] == [s["card"] for s in aki]
    assert aki[5]["chairs"] == 1 and ben[5]["chairs"] == 1


def test_the_code_sheet_says_c1() -> None:
    from companion.kits.shimoda.codes import CODE_HELP

    assert "add c1 (one chair) or c2 (two)" in CODE_HELP


# --- rules at the right step ----------------------------------------------------------------


def topics_asked(game: str, seed: int) -> list[tuple[str, str]]:
    """Each question's key and the topic ``:rules`` opens there, in one scripted game."""
    found: list[tuple[str, str]] = []
    holder: dict[str, Table] = {}

    def save(key: str, value: Any, where: str) -> None:
        if not key.startswith("seed:"):
            found.append((key, holder["t"].asking))

    t = Table(game, [], save=save, prompter=Scripted(random.Random(seed)), out=lambda _: None)
    holder["t"] = t
    flow_for(game, "play")(t)
    return found


def test_rules_during_a_four_player_crossing_open_the_team_rules() -> None:
    seen = set()
    for seed in range(8):
        asked = topics_asked("shibuya", seed)
        crossing = {topic for key, topic in asked if key.startswith("cross.")}
        four = any(key == "players.3" for key, _ in asked)
        if crossing:
            assert crossing == ({"four-players"} if four else {"crossing-move"})
            seen.add(four)
    assert seen == {True, False}


def test_the_second_winter_pad_opens_the_final_winter_topic() -> None:
    asked = topics_asked("shogun", 1)
    reviews = [topic for key, topic in asked if key.startswith("review")]
    assert reviews[0] == "scoring-winter"
    assert reviews[-1] == "scoring-final-winter"
    from companion.play.runner import rules_text

    text = rules_text("shogun", "scoring-final-winter", 100)
    assert "Tied majorities." in text and "war chests" in text


@pytest.mark.slow
def test_coins_left_undescribed_at_set_up_are_asked_when_first_taken(db_path: Path) -> None:
    from tests.support.play_helpers import sel, txt

    script = kamakura(2)
    before = list(script.before)
    board = before.index(txt("Bp Og Kb Mp Fg C2p D3g E1p"))
    before[board] = txt("")  # Enter: describe each coin when it is first taken
    described = {"B": sel(0), "O": sel(1), "K": sel(2), "M": sel(0), "F": sel(1)}
    described.update({"C": txt("2 pink"), "D": txt("3 green"), "E": txt("1 pink")})
    for k, keys in enumerate(before):
        if keys.startswith("v "):
            before[k] = keys + described[keys[2]]
    result = run(script.args, "".join(before + script.count))
    assert result.exit_code == 0, result.output
    saved_answers = dict(answers(db_path, 1))
    assert saved_answers["circles"] == ""
    assert saved_answers["circle.C"] == "2 pink"
    assert saved_answers["circle.O"] == "green"
    [game] = saved(db_path)
    aki = game["score_file"]["players"][0]
    assert aki["site_coins"][1] == {"circle": "O", "value": 3, "color": "green"}
    assert aki["site_coins"][7] == {"circle": "E", "value": 1, "color": "pink"}


def test_an_older_pad_fix_without_which_still_replays() -> None:
    from companion.kits.shogun.flow import FINAL_WINTER

    events: list[tuple[str, Any]] = [
        ("players.count", 3),
        ("players.0", "Aki"),
        ("players.1", "Ben"),
        ("players.2", "Cho"),
        ("year", FINAL_WINTER),
        ("before", [10, 5, 3]),
        ("chests", [3, 4, 5]),
        ("regions.0", "b5 y1"),
        ("regions.1", "b5 r1"),
        ("regions.2", "b5 g2"),
        # Saved before the pad asked which value was wrong: every marked one in turn.
        ("fix1.brown.0", "3 1"),
        ("fix1.brown.1", "5 0 0 0"),
        ("fix1.brown.2", "1"),
        ("review2", ""),
    ]
    outcome, used = replay("shogun", "score", events)
    assert used == len(events)
    brown = [p["regions"]["brown"]["provinces"] for p in outcome.score_file["players"]]
    assert brown == [3, 5, 1]
