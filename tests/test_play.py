"""Every game end to end through the real prompts, plus undo, rules, pause and resume."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.play.setup import TRAVELER_COINS, deal_travelers, draw_tours, line_up
from tests.play_helpers import (
    CLEAR,
    CTRL_C,
    pause,
    rules,
    run,
    saved,
    seeds,
    sel,
    sessions,
    txt,
    undo,
    yes_from_no,
)

__all__ = ["seeds"]  # the fixture


def shibuya_keys(names: tuple[str, str] = ("Aki", "Ben")) -> str:
    keys = sel(0) + txt(names[0]) + txt(names[1]) + sel(0) + sel(0) + txt("") + sel(0)
    keys += sel(0) * 16
    # Aki's pawn reaches the goal on each of her turns; Ben only moves.
    keys += (sel(1) + sel(0)) * 2 + sel(1)
    return keys


def test_shibuya_end_to_end(db_path: Path) -> None:
    result = run(["play", "shibuya"], shibuya_keys())
    assert result.exit_code == 0, result.output
    assert "Aki plays Red, Ben plays Blue." in result.stdout
    assert "Construction: lay the 16 tiles in the 4 x 4 area, taking turns." in result.stdout
    assert "Aki wins with 3 pawns at goal!" in result.stdout
    assert result.stdout.endswith("Saved to the history as game #1.\n")
    [game] = saved(db_path)
    assert game["score_file"] == {
        "game": "shibuya",
        "variant": "standard",
        "players": [{"name": "Aki", "goals": 3}, {"name": "Ben", "goals": 0}],
    }
    assert game["result"]["winners"] == ["Aki"]
    assert game["start"] == 0
    assert sessions(db_path) == [(1, "shibuya", "finished")]


def test_shibuya_teams_optional_rule_and_random_start(db_path: Path, seeds: list[int]) -> None:
    keys = sel(1) + "".join(txt(n) for n in ("Aki", "Ben", "Cho", "Dai"))
    keys += sel(1) + txt("") + sel(4)  # optional rule, checklist, draw the start player
    # No construction. Turns go clockwise from the drawn player: every second turn a pawn
    # of the same team reaches its goal, and a 3-pawn lead wins.
    keys += (sel(0) + sel(1)) * 3
    result = run(["play", "shibuya"], keys)
    assert result.exit_code == 0, result.output
    assert "Red: Aki and Cho. Blue: Ben and Dai." in result.stdout
    assert "Drawn with seed 1001: " in result.stdout
    [game] = saved(db_path)
    goals = [p["goals"] for p in game["score_file"]["players"]]
    assert sorted(goals) == [0, 3]
    assert game["score_file"]["variant"] == "no_construction"
    assert game["score_file"]["players"][0]["members"] == ["Aki", "Cho"]


def test_shimoda_end_to_end(db_path: Path) -> None:
    keys = txt("Aki") + txt("Ben") + txt("") + sel(0)  # names, checklist, Aki crossed a bridge
    # Round 1: Aki counts her moves first (1 on the card, the default; 2 on the street;
    # no merchant). Prompts with a default start filled in or pointed at: Enter takes it.
    keys += sel(1) + txt("") + txt("2") + sel(0) + sel(0) + sel(0)
    keys += txt("3") + txt("2")  # Ben has fewer tourists: he starts round 2
    keys += sel(0) + sel(0) + txt("4") + txt("4")  # a tie: the marker passes back to Aki
    for _ in range(5):
        keys += sel(0) + sel(0) + txt("5") + txt("6")
    for seat in range(2):
        keys += txt("") + txt("")  # no merchant, 0 merchant points (the default)
        for k in range(7):
            tourists = "b" if seat == 0 and k == 0 else ""
            keys += sel(0) + sel(0) + txt("1") + sel(0) + txt(tourists) + txt("")
    result = run(["play", "shimoda"], keys)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Aki takes the start player marker. Ben chooses a merchant first, then Aki." in out
    assert "Aki may make 3 steps (one tourist one space per step)." in out
    assert "Ben starts round 2 (fewer tourists)." in out
    assert "Round 2 of 7: Ben, then Aki." in out
    assert "Aki starts round 3 (a tie: the marker passes)." in out
    [game] = saved(db_path)
    assert [p["breakdown"] for p in game["result"]["players"]] == [
        {"shops": 1, "victory_markers": 5, "merchant": 0},
        {"shops": 0, "victory_markers": 0, "merchant": 0},
    ]
    assert game["score_file"]["players"][0]["street"][0] == {
        "card": {"color": "blue", "scoring": {"type": "any", "points": 1, "range": 1}},
        "tourists": {"blue": 1},
    }


def test_tokaido_end_to_end(db_path: Path, seeds: list[int]) -> None:
    names = ["Aki", "Ben", "Cho"]
    keys = txt("3") + "".join(txt(n) for n in names) + txt("2 7") + sel(0)
    keys += sel(1) + sel(0) + sel(0)  # each keeps a dealt tile
    keys += sel(0)  # yes, draw the line-up
    # First arrivals at the four inns; at the first inn, note what everyone gained.
    keys += sel(1) + yes_from_no()
    gained = [(2, 1, 0, 1, 3), (0, 0, 1, 0, 0), (1, 0, 0, 0, 0)]
    for row in gained:
        keys += "".join(txt(CLEAR + str(v)) for v in row)
    keys += sel(0) + sel(0) + sel(2) + sel(0) + sel(1) + sel(0)
    # Noted values are offered: Enter (None here) takes them, other answers replace them.
    scores = [(60, None, 7, None, 3, 2, 1), (62, 3, 6, 2, None, 4, 0), (55, 0, 4, 3, 2, 1, 2)]
    for row in scores:
        keys += "".join(txt("" if v is None else CLEAR + str(v)) for v in row)
    result = run(["play", "tokaido"], keys)
    assert result.exit_code == 0, result.output
    dealt = deal_travelers(3, 1001)
    kept = [dealt[0][1], dealt[1][0], dealt[2][0]]
    line = line_up(names, 1002)
    out = result.stdout
    assert "Skipped steps: 2 7." in out
    assert (
        f"Traveller tiles (seed 1001):\n  Aki: {dealt[0][0]} ({TRAVELER_COINS[dealt[0][0]]} coins)"
        in out
    )
    assert f"Line at Kyoto (seed 1002), nearest the road first: {', '.join(line)}." in out
    assert f"{line[-1]} is furthest back and moves first." in out
    assert "Ben draws 4 meal cards and may buy one; the others buy in arrival order." in out
    [game] = saved(db_path)
    assert [p["traveler"] for p in game["score_file"]["players"]] == kept
    assert game["score_file"]["players"][1]["journey"] == 62
    first = game["score_file"]["players"][0]
    # Noted on the way and accepted as offered: temple 3, souvenirs 1; meal cost retyped.
    assert (first["temple"], first["meal_cost"], first["souvenirs"]) == (3, 7, 1)
    assert game["score_file"]["players"][1]["hot_springs"] == 1
    assert game["start"] == names.index(line[-1])
    assert len(game["result"]["players"]) == 3


def kamakura_score_keys(cards: list[str], names: list[str]) -> str:
    keys = ""
    for card in cards:
        if card in "ABCDEFGH":
            keys += txt("B F") + txt("4") + sel(len(names))  # nobody completed it
        elif card in "IJK":
            keys += sel(0) + txt("3") + sel(len(names))
        else:
            keys += txt("5")
    return keys


def test_kamakura_end_to_end(db_path: Path, seeds: list[int]) -> None:
    keys = txt("2") + txt("Aki") + txt("Ben") + txt("") + sel(0)  # not a first game
    keys += sel(0) + sel(0)  # draw the tour cards; Aki visited Kamakura last
    # Aki takes a site coin every turn; after her 8th, Ben has one last turn.
    keys += (sel(0) + sel(1)) * 7 + sel(0) + sel(3)
    cards = draw_tours(2, 1001, advanced=True, first_game=False)
    keys += kamakura_score_keys(cards, ["Aki", "Ben"])
    circles = "BCDEFGHI"
    keys += txt("") + txt("")  # Aki: track 0 and 8 site coins, as offered
    for k in range(8):
        keys += txt(circles[k]) + txt("3") + sel(k % 2)
    keys += txt("1 2") + txt("A N") + txt("")
    keys += txt("") + txt("") + txt("") + txt("A A") + txt("")  # Ben: track 1, no coins
    result = run(["play", "kamakura"], keys)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert f"Exclusive tour cards (seed 1001, 3): {', '.join(cards)}." in out
    assert "Point trackers: Aki on 0, Ben on 1." in out
    assert "Aki has 8 site coins: everyone else gets one last turn." in out
    [game] = saved(db_path)
    aki, ben = game["result"]["players"]
    assert aki["breakdown"]["site_coins"] == 24
    assert aki["breakdown"]["remembrance"] == 0
    assert ben["breakdown"]["track"] == 1
    assert [t["card"] for t in game["score_file"]["tours"]] == cards


def shogun_round(bids: list[int]) -> str:
    """Bids as positions in the list 4, 3, 2, 1, 0, province card."""
    return "".join(sel(b) for b in bids) + sel(0)


def test_shogun_end_to_end(db_path: Path, seeds: list[int]) -> None:
    names = ["Aki", "Ben", "Cho"]
    keys = txt("3") + "".join(txt(n) for n in names) + txt("") + sel(2)  # Cho is the oldest
    for _year in (1, 2):
        keys += shogun_round([0, 1, 2]) + shogun_round([4, 4, 4]) + shogun_round([2, 2, 5])
        keys += txt("3")  # rice loss
        keys += txt("9") + txt("4") + txt("3") + txt("4") + txt("2") + txt("1")
        for seat in range(3):
            keys += txt(str(10 + seat))  # war chests
            keys += txt(f"{seat + 1} {1 if seat == 0 else 0}") + txt("") * 4
    result = run(["play", "shogun"], keys)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Cho claims a starting province first, then the others in turn." in out
    assert "Special cards are chosen in this order: Aki, Ben, Cho." in out
    assert "Tie at 0 between Aki, Ben, Cho: drawn with seed 1001: " in out
    assert "Tie at 2 between Aki, Ben: drawn with seed 1002: " in out
    assert "Ben is 4 rice short: 2 revolt(s), 2 extra farmer(s) each." in out
    assert "Cho is 1 rice short: 1 revolt(s), 1 extra farmer(s) each." in out
    assert "Aki feeds every province." in out
    assert "After the first winter: Aki 5, Ben 2, Cho 3." in out
    [game] = saved(db_path)
    assert game["score_file"]["year"] == 2
    assert [p["score_before"] for p in game["score_file"]["players"]] == [5, 2, 3]
    assert [p["total"] for p in game["result"]["players"]] == [10, 4, 6]
    assert game["start"] == 2


def test_undo_and_rules_at_any_prompt(db_path: Path) -> None:
    keys = sel(0) + txt("Aki") + txt(":undo") + CLEAR + txt("Ann") + txt("Ben")
    keys += rules(2) + undo(2)  # the colour question: rules, then undo Ben's name
    keys += CLEAR + txt("Bo") + sel(0) + sel(0) + txt("") + sel(0)
    keys += sel(0) * 16 + (sel(1) + sel(0)) * 2 + sel(1)
    result = run(["play", "shibuya"], keys)
    assert result.exit_code == 0, result.output
    assert "Undone: the last answer is asked again." in result.stdout
    assert "How to win" in result.stdout or "Setting up" in result.stdout
    [game] = saved(db_path)
    assert [p["name"] for p in game["score_file"]["players"]] == ["Ann", "Bo"]


def test_pause_then_resume(db_path: Path) -> None:
    first = sel(0) + txt("Aki") + txt("Ben") + sel(0) + sel(0) + txt("")
    rest = shibuya_keys()[len(first) :]
    assert shibuya_keys().startswith(first)
    paused = run(["play", "shibuya"], first + pause(3))  # at "Who goes first?"
    assert paused.exit_code == 0
    assert paused.stdout.endswith("Paused and saved. Continue with: companion resume 1\n")
    assert saved(db_path) == []
    assert sessions(db_path) == [(1, "shibuya", "active")]
    resumed = run(["resume", "1"], rest)
    assert resumed.exit_code == 0, resumed.output
    assert resumed.stdout.startswith("Resuming game #1 (shibuya, setup).")
    [game] = saved(db_path)
    assert game["result"]["winners"] == ["Aki"]


def test_ctrl_c_saves_and_exits_130_then_resume_with_undo(db_path: Path) -> None:
    keys = shibuya_keys()
    cut = len(sel(0) + txt("Aki") + txt("Ben"))
    stopped = run(["play", "shibuya"], keys[:cut] + CTRL_C)
    assert stopped.exit_code == 130
    assert "Stopped; every answer is saved. Continue with: companion resume 1" in stopped.stdout
    # Undo works across the resume: Ben's name is asked again.
    resumed = run(["resume"], sel(0) + undo(2) + CLEAR + txt("Bea") + keys[cut:])
    assert resumed.exit_code == 0, resumed.output
    [game] = saved(db_path)
    assert [p["name"] for p in game["score_file"]["players"]] == ["Aki", "Bea"]


def test_resume_without_unfinished_games(db_path: Path) -> None:
    assert run(["resume"], "").stdout == "No unfinished games.\n"
    missing = run(["resume", "7"], "")
    assert (missing.exit_code, missing.stderr) == (
        1,
        "Error: no unfinished game #7 (companion resume lists them)\n",
    )


def test_score_without_input_asks_each_field(db_path: Path) -> None:
    keys = txt("2") + txt("Aki") + txt("Ben") + sel(0) + sel(2)  # travellers
    keys += "".join(txt(v) for v in ("50", "x", CLEAR + "3", "2", "1", "0", "0", "0"))
    keys += "".join(txt(v) for v in ("48", "0", "0", "0", "0", "0", "0"))
    result = run(["score", "tokaido"], keys)
    assert result.exit_code == 0, result.output
    [game] = saved(db_path)
    assert game["score_file"]["players"][0] == {
        "name": "Aki",
        "traveler": "Chuubei",
        "journey": 50,
        "temple": 3,
        "meal_cost": 2,
        "souvenirs": 1,
        "hot_springs": 0,
        "encounters": 0,
        "panorama_achievements": 0,
    }
    assert game["result"]["winners"] == ["Aki"]


def test_answers_that_do_not_fit_together_are_asked_again(db_path: Path) -> None:
    names = ("Aki", "Ben", "Cho")
    keys = txt("3") + "".join(txt(n) for n in names) + sel(0)  # year 2
    keys += txt("0") * 3
    bad = txt("0") + txt("9") + txt("") * 4  # 9 brown provinces each: 27 in one region
    keys += bad * 3
    good = txt("0") + txt("3 1") + txt("") * 4
    keys += good * 3
    result = run(["score", "shogun"], keys)
    assert result.exit_code == 0, result.output
    assert "These answers do not fit together:" in result.stdout
    assert "  players: 27 brown provinces held in all (the region has 9)" in result.stdout
    [game] = saved(db_path)
    assert [p["total"] for p in game["result"]["players"]] == [6, 6, 6]  # tied castles: 2 each


def test_json_export_carries_the_event_log_and_imports_it_back(
    db_path: Path, tmp_path: Path
) -> None:
    import json

    from typer.testing import CliRunner

    from companion.cli import app

    assert run(["play", "shibuya"], shibuya_keys()).exit_code == 0
    runner = CliRunner()
    first = runner.invoke(app, ["history", "export", "--format", "json"]).stdout
    log = json.loads(first)["plays"][0]["events"]
    assert [e["key"] for e in log[:3]] == ["mode", "players.0", "players.1"]
    assert log[1]["value"] == "Aki"
    other = tmp_path / "other.sqlite3"
    source = tmp_path / "export.json"
    source.write_text(first)
    assert runner.invoke(app, ["history", "import", str(source), "--db", str(other)]).exit_code == 0
    again = runner.invoke(app, ["history", "export", "--format", "json", "--db", str(other)])
    assert again.stdout == first


def shibuya_answers() -> list[str]:
    """The keys of each answer of a whole Shibuya game, one entry per answer."""
    answers = [sel(0), txt("Aki"), txt("Ben"), sel(0), sel(0), txt(""), sel(0)]
    answers += [sel(0)] * 16 + [sel(1), sel(0), sel(1), sel(0), sel(1)]
    assert "".join(answers) == shibuya_keys()
    return answers


@pytest.mark.parametrize("cut", [1, 3, 6, 7, 15, 24, 27])
def test_interrupted_anywhere_then_resumed_to_the_same_result(db_path: Path, cut: int) -> None:
    answers = shibuya_answers()
    stopped = run(["play", "shibuya"], "".join(answers[:cut]) + CTRL_C)
    assert stopped.exit_code == 130
    assert saved(db_path) == []
    resumed = run(["resume", "1"], "".join(answers[cut:]))
    assert resumed.exit_code == 0, resumed.output
    [game] = saved(db_path)
    assert game["score_file"]["players"] == [
        {"name": "Aki", "goals": 3},
        {"name": "Ben", "goals": 0},
    ]
    assert game["start"] == 0


def test_an_unfinished_game_can_be_set_aside(db_path: Path) -> None:
    stopped = run(["play", "shibuya"], sel(0) + CTRL_C)
    assert stopped.exit_code == 130
    result = run(["resume", "1", "--abandon"], "")
    assert result.stdout == "Game #1 set aside; it will not be offered again.\n"
    assert sessions(db_path) == [(1, "shibuya", "abandoned")]
    assert run(["resume"], "").stdout == "No unfinished games.\n"
    again = run(["resume", "1", "--abandon"], "")
    assert again.exit_code == 1
