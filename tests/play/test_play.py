"""Every game end to end through the real prompts, plus undo, rules, pause and resume."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.history.store import History
from companion.kits.tokaido import TRAVELER_COINS, deal_travelers, line_up
from tests.support.play_helpers import (
    CLEAR,
    CTRL_C,
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
from tests.support.play_scripts import (
    kamakura,
    shibuya_answers,
    shibuya_keys,
    shimoda,
    shogun,
    tokaido,
)


@pytest.mark.slow
def test_shibuya_end_to_end(db_path: Path) -> None:
    result = run(["play", "shibuya"], shibuya_keys())
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Aki plays Red, Ben plays Blue." in out
    assert "Construction: lay the 16 tiles in the 4 x 4 area, taking turns." in out
    assert "Aki's turn, Red (Aki 0 - 0 Ben at goal)." not in out  # prompts are not printed
    assert "Aki wins with a lead of 3: 3 pawns at goal to 0!" in out
    assert "Shibuya: result\n" in out
    assert "\n1   Pawns at goal   3       0\n" in out
    assert out.endswith("Saved to the history as game #1.\n")
    [game] = saved(db_path)
    assert game["score_file"] == {
        "game": "shibuya",
        "variant": "standard",
        "players": [{"name": "Aki", "goals": 3}, {"name": "Ben", "goals": 0}],
    }
    assert game["result"]["winners"] == ["Aki"]
    assert game["start"] == 0
    assert sessions(db_path) == [(1, "shibuya", "finished")]


def test_shibuya_four_players_teams(db_path: Path) -> None:
    # Rules at the first name show the four-player topic; Dai starts (person 4).
    keys = sel(1) + txt(":rules") + "".join(txt(n) for n in ("Aki", "Ben", "Cho", "Dai"))
    keys += sel(1) + sel(0) + txt("") + sel(3) + sel(1)  # Blue for Aki and Cho; Dai starts
    keys += (sel(1) + sel(0)) * 2 + sel(1) + txt("")  # Dai, Ben, Dai reach their goals
    result = run(["play", "shibuya"], keys)
    assert result.exit_code == 0, result.output
    out = result.stdout
    announce = out.index("players 1 and 3 are team 1, players 2 and 4 team 2")
    assert announce < out.index("Four players in two teams")
    assert out.index("Four players in two teams") < out.index(
        "Blue: Aki and Cho. Red: Ben and Dai."
    )
    assert "only a pawn's owner moves it off the start" in out
    assert "Red wins with a lead of 3: 3 pawns at goal to 0!" in out
    [game] = saved(db_path)
    assert [p["members"] for p in game["score_file"]["players"]] == [["Aki", "Cho"], ["Ben", "Dai"]]
    assert game["result"]["winners"] == ["Red"]
    with History(db_path) as history:
        play = history.get(game["id"])
    assert [p.name for p in play.persons] == ["Aki", "Ben", "Cho", "Dai"]
    assert play.starter is not None and play.starter.name == "Dai"
    assert [p.name for p in play.persons if play.won(p)] == ["Ben", "Dai"]


@pytest.mark.slow
def test_shimoda_end_to_end(db_path: Path) -> None:
    script = shimoda()
    result = run(script.args, script.keys())
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Aki takes the start player marker. Ben chooses a merchant first, then Aki." in out
    assert "Ben starts round 2 (a tie: the marker passes)." in out
    assert "Round 7 of 7: Aki, then Ben." in out
    assert "starts round 8" not in out
    assert "Ben's street (Ben's space numbers, seen from Aki's seat)" in out
    [game] = saved(db_path)
    aki, ben = game["score_file"]["players"]
    assert (aki["merchant"], ben["merchant"]) == ("Antique Dealer", "Veterinarian")
    assert aki["street"][0] == {
        "card": {
            "color": "blue",
            "scoring": {"type": "color", "color": "yellow", "points": 3, "range": 3},
        },
        "tourists": {"yellow": 2},
    }
    assert aki["street"][5]["chairs"] == 1
    # Ben typed his street from his own left: his space 1 faces Aki's space 7.
    assert ben["street"][6]["tourists"] == {"blue": 1}
    assert ben["street"][6]["card"]["scoring"]["type"] == "victory_markers"
    assert game["result"]["winners"] == ["Aki"]


@pytest.mark.slow
def test_tokaido_end_to_end(db_path: Path, seeds: list[int]) -> None:
    names = ["Aki", "Ben", "Cho"]
    keys = txt("3") + "".join(txt(n) for n in names) + txt("2 7") + sel(0)
    keys += sel(1) + sel(0) + sel(0)  # each keeps a dealt tile
    keys += sel(0)  # yes, draw the line-up
    # At the first inn, note what everyone gained: one answer per kind, every traveller.
    keys += sel(1) + yes_from_no()
    keys += txt("3 0 1") + txt("1 0 0") + txt("0 1 0") + txt("1 0 0") + txt("3 0 0")
    # The table's last answer stays the default: Yes at the second inn (one down for
    # No), then No at the third and fourth (Enter keeps it).
    keys += sel(0) + sel(1) + sel(2) + sel(0) + sel(1) + sel(0)
    # The count: noted sums are offered (Enter keeps them), other rows typed over.
    rows = ["60 62 55", "", "7 6 4", "", "2 1 2", "2 4 1", "1 0 2"]
    keys += "".join(txt(r) for r in rows) + txt("")
    result = run(["play", "tokaido"], keys)
    assert result.exit_code == 0, result.output
    dealt = deal_travelers(3, 1001)
    kept = [dealt[0][1], dealt[1][0], dealt[2][0]]
    line = line_up(names, 1002)
    out = result.stdout
    # (The checklist's lines may be wrapped to the terminal: the mark is counted in
    # the text with its line breaks taken out.)
    flat = " ".join(out.split())
    assert flat.count("(the companion offers to do this next)") == 2  # steps 5 and 6
    assert (
        "Skipped: 2. Shuffle the meal, souvenir, encounter and hot spring piles. "
        "(do it before the first turn)\n" in out
    )
    double = "Double spaces: only the space on the road is used (2-3 players)."
    assert f"Skipped: 7. {double} (said again at stage 1)\n" in out
    assert (
        f"travel to the first inn. The traveller furthest back always moves.\n"
        f"Skipped at set-up, needed now: {double}\n" in out
    )
    assert "Done by the companion: step 5, Deal 2 traveller tiles to each player" in out
    assert (
        f"Traveller tiles (seed 1001):\n  Aki: {dealt[0][0]} ({TRAVELER_COINS[dealt[0][0]]} coins)"
        in out
    )
    assert f"Line at Kyoto (seed 1002), nearest the road first: {', '.join(line)}." in out
    assert f"{line[-1]} is furthest back and moves first." in out
    assert "Ben draws 4 meal cards and may buy one; the others buy in arrival order." in out
    [game] = saved(db_path)
    players = game["score_file"]["players"]
    assert [p["traveler"] for p in players] == kept
    # Temple 3 0 0 and souvenirs 1 0 0 noted on the way and kept; meal prices typed over.
    assert [(p["temple"], p["souvenirs"], p["meal_cost"]) for p in players] == [
        (3, 1, 7),
        (0, 0, 6),
        (0, 0, 4),
    ]
    assert game["start"] == names.index(line[-1])


@pytest.mark.slow
def test_kamakura_end_to_end(db_path: Path) -> None:
    script = kamakura(2)
    result = run(script.args, script.keys())
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Point trackers: Aki on 0, Ben on 1." in out
    assert "Aki has 8 site coins: everyone else gets one last turn." in out
    [game] = saved(db_path)
    aki, ben, *_ = game["score_file"]["players"]
    assert [c["circle"] for c in aki["site_coins"]] == list("BOKMFCDE")
    assert aki["site_coins"][0] == {"circle": "B", "value": 3, "color": "pink"}
    assert aki["site_coins"][5] == {"circle": "C", "value": 2, "color": "pink"}
    # The track comes from the turns: Ben starts on 1 and rested 7 times.
    assert (aki["track"], ben["track"]) == (0, 8)
    assert aki["taxi_tickets"] == [{"circle": "B", "points": 2}]
    assert ben["taxi_tickets"] == []
    assert game["result"]["winners"] == ["Aki"]


@pytest.mark.slow
def test_shogun_end_to_end(db_path: Path, seeds: list[int]) -> None:
    script = shogun(3)
    result = run(script.args, script.keys())
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Cho claims a starting province first, then the others in turn." in out
    assert "Year 1, Winter" in out and "Year 2, Winter" in out
    assert "2. No revolts this winter: every province is fed." in out
    assert "After the first winter: Aki 17, Ben 16, Cho 10." in out
    assert (
        "Cho holds 6 provinces with 4 rice: 2 short, so 1 revolt, 2 extra farmers each. "
        "Aki, on Cho's left, draws 1 of Cho's province cards at random."
    ) in out
    [game] = saved(db_path)
    players = game["score_file"]["players"]
    assert game["score_file"]["year"] == 2
    assert [p["score_before"] for p in players] == [17, 16, 10]
    # No totals are equal: nobody's war chests were asked.
    assert not any("war_chests" in p for p in players)
    # The second winter carried the first: Aki typed only bgc (a brown province, a castle
    # built in green), Cho g+cb- and then y for the province the revolt took.
    assert players[0]["regions"]["brown"] == {
        "provinces": 4,
        "castles": 1,
        "temples": 0,
        "theaters": 2,
    }
    assert players[0]["regions"]["green"]["castles"] == 1
    assert players[2]["regions"] == {
        "green": {"provinces": 4, "castles": 2, "temples": 0, "theaters": 0},
        "yellow": {"provinces": 1, "castles": 0, "temples": 0, "theaters": 0},
    }
    assert [p["total"] for p in game["result"]["players"]] == [36, 35, 20]
    assert game["start"] == 2
    assert game["status"] == "final"


@pytest.mark.slow
@pytest.mark.parametrize(
    ("script", "field", "value"),
    [
        (tokaido(5), ("players", 0, "journey"), 60),
        (shimoda(), ("players", 0, "street", 0, "card", "scoring", "points"), 3),
        (kamakura(2), ("tours", 0, "points"), 6),
        (shogun(3), ("players", 0, "regions", "green", "castles"), 1),
    ],
    ids=["tokaido", "shimoda", "kamakura", "shogun"],
)
def test_one_slip_is_fixed_on_the_score_pad_in_three_answers(
    db_path: Path, script: object, field: tuple[object, ...], value: int
) -> None:
    from tests.support.play_scripts import Script

    assert isinstance(script, Script)
    assert len(script.fix) + 1 <= 3  # the place, the value, then save
    result = run(script.args, script.fixed())
    assert result.exit_code == 0, result.output
    [game] = saved(db_path)
    found: object = game["score_file"]
    for part in field:
        found = found[part]  # type: ignore[index]
    assert found == value


def test_a_default_is_replaced_by_typing_and_controls_work_in_it(db_path: Path) -> None:
    keys = txt("2") + txt("Aki") + txt("Ben") + sel(0) + sel(1)
    keys += "".join(txt(r) for r in ("61 58", "1 2", "2 3", "1 0", "0 0", "0 1", "0 0"))
    keys += txt("A2") + txt(":pause")  # the field holds 61: ":pause" is read, not "61:pause"
    paused = run(["score", "tokaido"], keys)
    assert paused.exit_code == 0, paused.output
    assert paused.stdout.endswith("Paused and saved. Continue with: companion resume 1\n")
    # Resumed at the same prompt: typing 6 over the 61 it holds gives 6, not 616.
    resumed = run(["resume", "1"], txt("6") + txt(""))
    assert resumed.exit_code == 0, resumed.output
    [game] = saved(db_path)
    assert [p["journey"] for p in game["score_file"]["players"]] == [6, 58]


@pytest.mark.slow
def test_undo_and_rules_at_any_prompt(db_path: Path) -> None:
    keys = sel(0) + txt("Aki") + txt(":undo") + txt("Ann") + txt("Ben")
    keys += rules(2) + undo(2)  # the colour question: rules, then undo Ben's name
    keys += txt("Bo") + shibuya_keys()[len(sel(0) + txt("Aki") + txt("Ben")) :]
    result = run(["play", "shibuya"], keys)
    assert result.exit_code == 0, result.output
    assert "Undone: the last answer is asked again, offered for editing." in result.stdout
    assert "Setting up" in result.stdout
    [game] = saved(db_path)
    assert [p["name"] for p in game["score_file"]["players"]] == ["Ann", "Bo"]


@pytest.mark.slow
def test_names_follow_the_name_rule(db_path: Path) -> None:
    long = "x" * 41
    keys = sel(0) + txt(long) + CLEAR + txt("  Aki  ") + txt("aki") + CLEAR + txt("Ben")
    keys += shibuya_keys()[len(sel(0) + txt("Aki") + txt("Ben")) :]
    result = run(["play", "shibuya"], keys)
    assert result.exit_code == 0, result.output
    [game] = saved(db_path)
    assert [p["name"] for p in game["score_file"]["players"]] == ["Aki", "Ben"]


@pytest.mark.slow
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
    assert resumed.stdout.startswith(
        "Resuming game #1 (Shibuya, start player: Who goes first)."
    )  # asked now
    [game] = saved(db_path)
    assert game["result"]["winners"] == ["Aki"]


@pytest.mark.slow
def test_ctrl_c_saves_and_exits_130_then_resume_with_undo(db_path: Path) -> None:
    keys = shibuya_keys()
    cut = len(sel(0) + txt("Aki") + txt("Ben"))
    stopped = run(["play", "shibuya"], keys[:cut] + CTRL_C)
    assert stopped.exit_code == 130
    assert "Stopped; every answer is saved. Continue with: companion resume 1" in stopped.stdout
    # Undo works across the resume: Ben's name is asked again.
    resumed = run(["resume"], undo(2) + txt("Bea") + keys[cut:])
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


def test_resume_leaves_web_drafts_to_the_page(db_path: Path) -> None:
    from companion.history.sessions import SessionStore
    from companion.widgets.drafts import Drafts

    Drafts("tokaido", db_path).keep(None, {"players": 3, "names": ["Aki", "", ""]})
    assert run(["resume"], "").stdout == "No unfinished games.\n"
    with History(db_path) as history:
        # A draft kept before drafts had no number.
        old = SessionStore(history).start("tokaido", "web")
    refused = run(["resume", str(old)], "")
    assert (refused.exit_code, refused.stderr) == (
        1,
        f"Error: game #{old} is being filled in on the web page: open it with companion serve\n",
    )


def test_json_export_carries_the_event_log_and_imports_it_back(
    db_path: Path, tmp_path: Path
) -> None:
    import json

    from typer.testing import CliRunner

    from companion.cli.app import app

    assert run(["play", "shibuya"], shibuya_keys()).exit_code == 0
    runner = CliRunner()
    first = runner.invoke(app, ["history", "export", "--format", "json"]).stdout
    log = json.loads(first)["plays"][0]["events"]
    # The clock's marks travel with the answers: the timed rounds survive the round trip.
    assert [e["key"] for e in log[:4]] == ["meta:start", "mode", "players.0", "players.1"]
    assert log[2]["value"] == "Aki"
    assert log[-1]["key"] == "meta:time"
    other = tmp_path / "other.sqlite3"
    source = tmp_path / "export.json"
    source.write_text(first)
    assert runner.invoke(app, ["history", "import", str(source), "--db", str(other)]).exit_code == 0
    again = runner.invoke(app, ["history", "export", "--format", "json", "--db", str(other)])
    assert again.stdout == first


@pytest.mark.slow
@pytest.mark.parametrize("cut", [6, 9, 16])
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


@pytest.mark.slow
def test_the_resume_header_names_the_stage_asked_now(db_path: Path, seeds: list[int]) -> None:
    names = ["Aki", "Ben", "Cho"]
    keys = txt("3") + "".join(txt(n) for n in names) + txt("2 7") + sel(0)
    keys += sel(1) + sel(0) + sel(0) + sel(0)  # tiles kept, the line-up drawn
    keys += sel(1) + sel(0)  # the first inn: Ben first, no notes
    keys += sel(0) + sel(0)  # the second inn: Aki first, no notes
    paused = run(["play", "tokaido"], keys + pause(3))  # at "Who reached the third inn first?"
    assert paused.exit_code == 0, paused.output
    resumed = run(["resume", "1"], pause(3))
    assert resumed.exit_code == 0, resumed.output
    assert resumed.stdout.startswith(
        "Resuming game #1 (Tokaido, arriving at the third inn: Who reached the third inn first)."
    )
