"""What went wrong at the table, each through the real prompts (pipe input), now right."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from companion.cli.app import app
from companion.history.stat_queries import seat_rows
from companion.history.store import History
from tests.support.play_helpers import (
    CTRL_C,
    UP,
    answers,
    events,
    pause,
    rules,
    run,
    saved,
    sel,
    sessions,
    txt,
    undo,
    yes_from_no,
)

NAMES3 = txt("Aki") + txt("Ben") + txt("Cho")
# The choice offered when a saved answer cannot be replayed points at "Stop".
STOP, ABANDON, UNDO_TO = "\r", UP + "\r", UP * 2 + "\r"


def keys_of(db: Path, session: int = 1) -> list[str]:
    return [k for k, _ in events(db, session) if not k.startswith("seed:")]


def test_answers_that_do_not_fit_ask_only_the_cells_involved(db_path: Path) -> None:
    keys = txt("3") + NAMES3 + sel(0) + txt("10 5 3")  # no equal totals: no war chests
    keys += txt("b5 y1") + txt("b5 r1") + txt("b5 g2")  # 15 brown provinces: the region has 9
    # Which value is wrong: Aki's brown (then, still too many, Cho's); only those are asked.
    keys += txt("A2") + txt("3 1") + txt("C2") + txt("1")
    keys += txt("")
    result = run(["score", "shogun"], keys)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "These answers do not fit together:" in out
    assert (
        "  Aki · Brown, Ben · Brown, Cho · Brown: 15 brown provinces held in all (the region has 9)"
        in out
    )
    assert re.search(r"\n2\s+Brown\s+5 0 0 0 !\s+5 0 0 0 !\s+5 0 0 0 !\n", out)
    assert keys_of(db_path)[-5:] == [
        "fix1.which",
        "fix1.brown.0",
        "fix2.which",
        "fix2.brown.2",
        "review3",
    ]
    [game] = saved(db_path)
    aki, ben, cho = game["score_file"]["players"]
    assert aki["regions"] == {
        "brown": {"provinces": 3, "castles": 1, "temples": 0, "theaters": 0},
        "yellow": {"provinces": 1, "castles": 0, "temples": 0, "theaters": 0},
    }
    assert ben["regions"]["brown"]["provinces"] == 5  # Enter kept it
    assert cho["regions"]["green"]["provinces"] == 2  # never asked again
    assert [p["score_before"] for p in game["score_file"]["players"]] == [10, 5, 3]


@pytest.mark.slow
def test_too_many_tourists_of_a_colour_marks_only_the_spaces_holding_it(db_path: Path) -> None:
    keys = txt("Aki") + txt("Ben") + txt("") + txt("")  # no merchants
    cards = "".join(txt("b y 3 3") for _ in range(7))
    keys += cards + txt("bbb bbb - - - - -") + cards + txt("bbb - - - - - -")
    keys += txt("A6")  # which is wrong: Aki's second space (row 6: Shop 2 tourists)
    keys += txt("b") + txt("")  # one blue there; the two other marked spaces kept
    result = run(["score", "shimoda"], keys)
    assert result.exit_code == 0, result.output
    assert (
        "Aki · Shop 1 tourists, Aki · Shop 2 tourists, Ben · Shop 7 tourists: 9 blue tourists "
        "on the streets (there are 7)"
    ) in " ".join(result.stdout.split())
    assert keys_of(db_path)[-3:] == ["fix1.which", "fix1.tourists2.0", "review2"]
    [game] = saved(db_path)
    aki, ben = game["score_file"]["players"]
    assert [s["tourists"] for s in aki["street"][:2]] == [{"blue": 3}, {"blue": 1}]
    assert ben["street"][6]["tourists"] == {"blue": 3}  # Ben's space 1 faces Aki's space 7


def test_undo_keeps_a_draw(db_path: Path) -> None:
    keys = txt("2") + txt("Aki") + txt("Ben") + txt("") + txt("") + sel(0)  # draw the cards
    keys += undo(3) + sel(0)  # undo the "draw" answer at the next question, draw again
    keys += pause(3)
    result = run(["play", "kamakura"], keys)
    assert result.exit_code == 0, result.output
    draws = re.findall(r"Exclusive tour cards \(seed \d+, 3\): .*", result.stdout)
    assert len(draws) == 2
    assert draws[0] == draws[1]


def test_undo_keeps_a_tie_drawn_between_bids(db_path: Path) -> None:
    keys = txt("3") + NAMES3 + txt("") + sel(0)
    keys += sel(4) + sel(4) + sel(4)  # three equal bids of 0 chests
    keys += undo(1) + sel(
        0
    )  # at "Carry out the 10 actions": undo Cho's bid (offered again), keep it
    keys += pause(1)
    result = run(["play", "shogun"], keys)
    assert result.exit_code == 0, result.output
    ties = re.findall(
        r"Equal bids \(0\) from Aki, Ben, Cho: drawn with seed \d+: .*", result.stdout
    )
    assert len(ties) == 2
    assert ties[0] == ties[1]


@pytest.mark.slow
def test_shogun_bids_rice_and_revolts_follow_the_rulebook(db_path: Path) -> None:
    keys = txt("3") + NAMES3 + txt("") + sel(0)
    keys += sel(5) + sel(4) + sel(4) + rules(1) + sel(0)  # province card, 0, 0; rules; done
    keys += (sel(1) + sel(2) + sel(3) + sel(0)) * 2
    keys += txt("b5") + txt("r2") + txt("g1")  # each one's whole holding
    keys += txt(":rules") + txt("a3")  # only Aki is short: 3 rice after the loss
    keys += txt("b")  # the revolt resolved: it took one of Aki's brown provinces
    keys += txt(":pause")  # at the score pad
    result = run(["play", "shogun"], keys)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert (
        "Action order (province-card bids, then chests from the highest, then no bid): "
        "Aki (province card), " in out
    )
    assert re.search(r"Equal bids \(0\) from Ben, Cho: drawn with seed \d+", out)
    assert "Equal bids (0) from Aki" not in out  # a province card is not a 0-chest bid
    assert "\nCarrying out the ten actions\n" in out
    assert "Year 1, Winter\n1. Everyone lowers their rice marker by the rice loss" in out
    assert "\nWinter: rice and revolts\n" in out
    assert (
        "Aki holds 5 provinces with 3 rice: 2 short, so 1 revolt, 2 extra farmers each. "
        "Ben, on Aki's left, draws 1 of Aki's province cards at random." in out
    )
    assert "Ben holds" not in out and "Cho holds" not in out  # fed: nothing to say
    assert (
        "2. Resolve the revolts now, each as a battle in the tower; "
        "a revolt takes at most its one province." in out
    )
    assert re.search(r"\n1\s+Brown\s+4 0 0 0\s", out)  # what was left after the revolts
    assert not [k for k in keys_of(db_path) if "loss" in k or "chests" in k]


def test_kamakura_asks_only_what_the_table_cannot_tell(db_path: Path) -> None:
    keys = txt("3") + NAMES3 + txt("") + txt("A L")  # not the advanced rules; cards A and L
    keys += txt("B F 5") + txt("2")  # card A shows B and F, card L's bonus
    keys += txt("3 4 5")  # the point track
    keys += txt("B F G3p") + sel(0) + sel(1)  # B and F: only their colour; G typed in full
    keys += txt("B") + txt("")  # Ben's coin of circle B: already described; Cho has none
    keys += txt("1") + txt("") * 2 + txt("") * 3 + txt("")  # eat, tickets; no pieces (no M)
    result = run(["score", "kamakura"], keys)
    assert result.exit_code == 0, result.output
    asked = keys_of(db_path)
    assert [k for k in asked if k.startswith("circle.")] == ["circle.B", "circle.F"]
    assert not [k for k in asked if "pieces" in k]
    [game] = saved(db_path)
    aki, ben, _ = game["score_file"]["players"]
    assert aki["site_coins"] == [
        {"circle": "B", "value": 3, "color": "pink"},
        {"circle": "F", "value": 4, "color": "green"},
        {"circle": "G", "value": 3, "color": "pink"},
    ]
    assert ben["site_coins"] == [{"circle": "B", "value": 3, "color": "pink"}]
    assert game["result"]["winners"] == ["Aki"]


def test_shimoda_merchants_are_recorded_and_used_by_the_move_helper(db_path: Path) -> None:
    keys = txt("Aki") + txt("Ben") + txt("") + sel(0)
    keys += sel(0) + sel(4)  # Ben: Veterinarian; Aki: Builder
    keys += sel(1) + txt("3") + sel(0)  # Aki counts 3 icons: Builder adds none
    keys += sel(1) + txt("2") + yes_from_no() + sel(0)  # Ben: a cat card, +1
    keys += txt(":pause")
    result = run(["play", "shimoda"], keys)
    assert result.exit_code == 0, result.output
    assert "Aki may make 3 steps" in result.stdout
    assert "Ben may make 3 steps" in result.stdout
    asked = keys_of(db_path)
    assert "r1.0.0.merchant" not in asked
    assert "r1.1.0.merchant" in asked
    assert dict(events(db_path, 1))["merchant.0"] == "Builder"


def test_a_game_keeps_one_number_from_the_first_question_to_the_history(
    db_path: Path, tmp_path: Path
) -> None:
    file = tmp_path / "game.json"
    file.write_text(
        json.dumps(
            {
                "game": "shibuya",
                "players": [{"name": "Red", "goals": 6}, {"name": "Blue", "goals": 2}],
            }
        )
    )
    assert "game #1." in run(["score", "shibuya", "--input", str(file)], "").stdout
    paused = run(["play", "shibuya"], sel(0) + txt(":pause"))
    assert paused.stdout.endswith("Continue with: companion resume 2\n")
    assert "game #3." in run(["score", "shibuya", "--input", str(file)], "").stdout
    resumed = run(
        ["resume", "2"],
        txt("Aki")
        + txt("Ben")
        + sel(0)
        + sel(1)
        + txt("")
        + sel(0)
        + (sel(1) + sel(0)) * 2
        + sel(1)
        + txt(""),
    )
    assert resumed.exit_code == 0, resumed.output
    assert resumed.stdout.endswith("Saved to the history as game #2.\n")
    assert [g["id"] for g in saved(db_path)] == [1, 2, 3]


def test_without_a_terminal_nothing_is_started(db_path: Path) -> None:
    runner = CliRunner()
    for args in (["play", "tokaido"], ["score", "tokaido"], ["resume"]):
        result = runner.invoke(app, args, input="")
        assert result.exit_code == 2, args
        assert "terminal" in result.stderr
    assert "--input -" in runner.invoke(app, ["score", "kamakura"]).stderr
    assert not db_path.exists() or sessions(db_path) == []
    piped = runner.invoke(
        app,
        ["score", "shibuya", "--input", "-", "--json"],
        input=json.dumps({"players": [{"name": "Red", "goals": 6}, {"name": "Blue", "goals": 2}]}),
    )
    assert piped.exit_code == 0


def test_shogun_first_winter_alone_is_an_interim_scoring(db_path: Path) -> None:
    keys = txt("3") + NAMES3 + sel(1) + txt("b3") + txt("r2") + txt("g1") + txt("")
    result = run(["score", "shogun"], keys)
    assert result.exit_code == 0, result.output
    assert result.stdout.endswith(
        "Saved to the history as game #1, an interim scoring: it is shown but counts in no wins "
        "or stats.\n"
    )
    assert not [k for k in keys_of(db_path) if "chests" in k or "before" in k]
    [game] = saved(db_path)
    assert game["status"] == "interim"
    with History(db_path) as history:
        assert seat_rows(history) == []
        assert history.summaries()[0]["status"] == "interim"
    runner = CliRunner()
    stats = json.loads(runner.invoke(app, ["history", "stats", "--json"]).stdout)
    assert stats["players"] == []
    assert "Aki, Ben, Cho   (interim)" in runner.invoke(app, ["history", "list"]).stdout
    assert "Status: interim scoring, counted in no wins or stats" in (
        runner.invoke(app, ["history", "show", "1"]).stdout
    )


def corrupt(db: Path, sql: str, *params: object) -> None:
    with sqlite3.connect(db) as conn:
        conn.execute(sql, params)
    conn.close()


def test_an_answer_that_cannot_be_replayed_is_never_dropped_silently(db_path: Path) -> None:
    stopped = run(["play", "shibuya"], sel(0) + txt("Aki") + txt("Ben") + sel(0) + CTRL_C)
    assert stopped.exit_code == 130
    before = answers(db_path, 1)
    corrupt(db_path, "UPDATE session_events SET key = 'players.one' WHERE key = 'players.1'")
    kept = run(["resume", "1"], STOP)
    assert kept.exit_code == 1
    assert "Game #1 (shibuya): saved answer 3 of 4 cannot be used." in kept.stdout
    assert "  Question: Player 2's name (seat order, clockwise)?" in kept.stdout
    assert "saved for another question (players.one)" in kept.stdout
    assert len(answers(db_path, 1)) == len(before)
    # Undo to that point: the two answers before it stay, Ben's name is asked again.
    resumed = run(
        ["resume", "1"],
        UNDO_TO
        + txt("Bea")
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
    assert "Answers 3 to 4 dropped; the game goes on from there." in resumed.stdout
    [game] = saved(db_path)
    assert [p["name"] for p in game["score_file"]["players"]] == ["Aki", "Bea"]


def test_a_damaged_or_deleted_answer_is_named_and_can_be_set_aside(db_path: Path) -> None:
    stopped = run(["play", "shibuya"], sel(0) + txt("Aki") + txt("Ben") + sel(0) + CTRL_C)
    assert stopped.exit_code == 130
    corrupt(db_path, "UPDATE session_events SET value = '{broken' WHERE key = 'players.0'")
    damaged = run(["resume", "1"], STOP)
    assert "saved answer 2 of 4 cannot be used" in damaged.stdout
    assert "the saved answer cannot be read (unreadable text '{broken')" in damaged.stdout
    corrupt(db_path, "DELETE FROM session_events WHERE key = 'players.0'")
    gone = run(["resume", "1"], ABANDON)
    assert "Question: Player 1's name (seat order, clockwise)?" in gone.stdout
    assert "saved for another question (players.1)" in gone.stdout
    assert gone.stdout.endswith("Game #1 set aside; its answers are kept in the history.\n")
    assert sessions(db_path) == [(1, "shibuya", "abandoned")]
    assert len(answers(db_path, 1)) == 3


def test_the_action_order_follows_the_rulebook() -> None:
    from companion.kits.shogun.codes import NO_BID, PROVINCE, order_bids

    names = ["Aki", "Ben", "Cho", "Dai", "Eve"]
    bids = ["0 chests", NO_BID, "3 chests", PROVINCE, "3 chests"]
    drawn: list[tuple[list[str], int]] = []

    def draw(tied: list[str], rank: int) -> list[str]:
        drawn.append((tied, rank))
        return tied[::-1]

    assert order_bids(names, bids, draw) == ["Dai", "Eve", "Cho", "Aki", "Ben"]
    assert drawn == [(["Cho", "Eve"], 2)]  # only equal chest bids are drawn here
