"""The widget builders, driven in plain pytest: set values, click, read what shows."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from companion.history.sessions import SessionStore
from companion.history.store import History
from companion.kits.pad import set_path
from companion.kits.shogun.codes import BIDS, NO_BID, order_bids
from companion.play.setup import shuffled
from companion.widgets import GamePage, HistoryPage, ScoreForm, SetupPanel, Tracker
from companion.widgets.cells import ListCell
from companion.widgets.history import nice_ticks, wins_chart
from tests.support.history_fixture import fill

TOKAIDO = {
    0: ("Aki", "58", "4", "7", "6", "3", "2", "1"),
    1: ("Ben", "60", "3", "7", "2", "1", "4", "0"),
    2: ("Cho", "66", "0", "4", "3", "3", "1", "2"),
}
KEYS = (
    "journey",
    "temple",
    "meal_cost",
    "souvenirs",
    "hot_springs",
    "encounters",
    "panorama_achievements",
)


def type_in(page: GamePage, path: str, value: str, key: str = "n") -> None:
    page.form.cells[path].controls[key].value = value


def tokaido_page(players: int = 3) -> GamePage:
    page = GamePage("tokaido", players)
    for seat, (name, *values) in TOKAIDO.items():
        if seat >= players:
            continue
        page.name_inputs[seat].value = name
        for key, value in zip(KEYS, values, strict=True):
            type_in(page, f"players[{seat}].{key}", value)
    return page


def plays(db: Path) -> list[tuple[str, str]]:
    if not db.exists():
        return []
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT game, result FROM plays").fetchall()
    conn.close()
    return rows


def test_valid_pad_shows_totals_and_saves_exactly_once(db_path: Path) -> None:
    page = tokaido_page()
    form = page.form
    assert form.summary.value == "<div class='ok'>Every cell is filled in and valid.</div>"
    assert [t.value for t in form.total_labels] == ["<b>77</b>", "<b>73</b>", "<b>69</b>"]
    assert [r.value for r in form.rank_labels] == ["1", "2", "3"]
    assert [h.value for h in form.head_labels] == ["<b>Aki</b>", "<b>Ben</b>", "<b>Cho</b>"]
    assert "<p class='winner'><b>Winner: Aki.</b></p>" in form.preview.value
    form.save_button.click()
    form.save_button.click()  # a double tap
    assert form.save() == 1  # a retry
    assert form.status.value == (
        "<b class='saved result-focus' tabindex='-1'>Saved as game #1.</b> <span class='note'>"
        "This game is already saved as game #1: nothing more recorded.</span>"
    )  # said once, however often Save is pressed again (on any device)
    assert form.save_button.layout.display == "none"
    assert form.new_button.layout.display == ""
    [(game, result)] = plays(db_path)
    assert game == "tokaido"
    assert [p["total"] for p in json.loads(result)["players"]] == [77, 73, 69]
    with History(db_path) as history:
        [info] = [s for s in SessionStore(history)._select("") if s.kind == "web"]
    assert (info.status, info.play_id) == ("finished", 1)


def test_a_finished_draft_is_not_recorded_twice_from_another_page(db_path: Path) -> None:
    first = tokaido_page()
    other = GamePage("tokaido")
    assert other.load_draft()
    assert first.form.save() == 1
    assert other.form.save() == 1  # the same game, already finished
    assert len(plays(db_path)) == 1


def test_game_numbers_are_given_at_save_so_unsaved_drafts_leave_no_gap(db_path: Path) -> None:
    left = GamePage("shogun")
    left.name_inputs[0].value = "Aki"  # a draft that is never saved
    assert left.session_id is not None and left.session_id < 1
    first = tokaido_page()
    assert first.form.save() == 1
    first.form.new_button.click()
    first.name_inputs[0].value = "Ann"  # another draft, left too
    with History(db_path) as history:
        store = SessionStore(history)
        number = store.start("kamakura", "play")  # a game played along in the terminal
    assert number == 2
    again = tokaido_page()
    assert again.form.save() == 3
    with sqlite3.connect(db_path) as conn:
        ids = [row[0] for row in conn.execute("SELECT id FROM plays ORDER BY id")]
    conn.close()
    assert ids == [1, 3]  # 2 is the terminal's game, still being played


def test_history_check_finds_no_problem_in_web_drafts_and_games(db_path: Path) -> None:
    from typer.testing import CliRunner

    from companion.cli.app import app

    tokaido_page().form.save()
    GamePage("shogun").name_inputs[0].value = "Aki"  # a draft in progress
    result = CliRunner().invoke(app, ["history", "check", "--db", str(db_path)])
    assert (result.exit_code, result.stdout.splitlines()[-1]) == (0, "No problems found.")


def test_a_game_saved_on_the_page_exports_and_imports_without_its_draft(
    db_path: Path, tmp_path: Path
) -> None:
    from typer.testing import CliRunner

    from companion.cli.app import app

    tokaido_page().form.save()
    runner = CliRunner()
    exported = runner.invoke(app, ["history", "export", "--format", "json", "--db", str(db_path)])
    assert exported.exit_code == 0, exported.output
    document = json.loads(exported.stdout)
    assert document["plays"][0]["events"] == []  # a draft is not answers to replay
    # An earlier export carried the page's draft as the game's answers.
    document["plays"][0]["events"] = [
        {"at": "2026-12-01T20:00:00Z", "key": "draft", "value": {"players": 3}},
        {"at": "2026-12-01T21:00:00Z", "key": "meta:time", "value": {"seconds": 60}},
    ]
    old = tmp_path / "old-export.json"
    old.write_text(json.dumps(document))
    fresh = tmp_path / "fresh.sqlite3"
    for source in (exported.stdout, old.read_text()):
        file = tmp_path / "export.json"
        file.write_text(source)
        result = runner.invoke(app, ["history", "import", str(file), "--db", str(fresh)])
        assert result.exit_code == 0, result.output
        checked = runner.invoke(app, ["history", "check", "--db", str(fresh)])
        assert checked.exit_code == 0, checked.output
    assert len(plays(fresh)) == 1  # the second import found the game already there


def test_new_game_keeps_the_names_and_empties_the_pad(db_path: Path) -> None:
    page = tokaido_page()
    page.form.save()
    page.form.new_button.click()
    assert page.name_inputs[0].value == "Aki"
    assert page.form.cells["players[0].journey"].raw() == {"n": ""}
    assert page.form.save_button.layout.display == ""
    type_in(page, "players[0].journey", "12")
    assert page.session_id is not None and page.session_id != 1


def test_problems_show_beside_their_cell_and_empty_cells_wait_for_save(db_path: Path) -> None:
    page = tokaido_page()
    form = page.form
    type_in(page, "players[1].temple", "3.5")
    type_in(page, "players[2].panorama_achievements", "4")
    type_in(page, "players[0].journey", "")
    assert form.cells["players[1].temple"].message.value == (
        "<div class='problem'>must be a whole number, got the text \"3.5\"</div>"
    )
    assert "between 0 and 3, got 4" in form.cells["players[2].panorama_achievements"].message.value
    assert "bad" in form.cells["players[1].temple"].widget._dom_classes
    # A cell emptied by hand is a touched cell: its problem shows at once.
    assert "<div class='problem'>missing" in form.cells["players[0].journey"].message.value
    assert form.summary.value.startswith("<div class='problem'>3 things to fix.")
    assert form.total_labels[0].value == "–"


def test_untouched_empty_cells_are_marked_when_save_is_pressed(db_path: Path) -> None:
    page = GamePage("tokaido", 2)
    form = page.form
    message = form.cells["players[0].journey"].message.value
    assert message == "<div class='pending'>missing (this field is required)</div>"
    assert form.summary.value == "<div class='problem'>16 cells to fill in.</div>"
    assert "tried" not in form.widget._dom_classes
    assert form.save() is None
    assert "tried" in form.widget._dom_classes and "tried" in page.widget._dom_classes
    assert form.status.value == (
        "<span class='problem'>Not saved: fix the cells marked in red first.</span>"
    )
    assert form.summary.value.startswith("<div class='problem'>16 things to fix.")
    assert "2 player names to fill in" in form.summary.value
    assert form.save_button.disabled is False
    assert plays(db_path) == []


def test_names_follow_the_name_rule_beside_the_field() -> None:
    page = GamePage("kamakura", 3)
    page.name_inputs[0].value = "  Aki   Ito "
    page.name_inputs[1].value = "Ben\tX"
    page.name_inputs[2].value = "aki ito"
    assert page.name_messages[0].value == ""
    assert page.name_messages[1].value == (
        "<div class='problem'>the name must not contain a tab</div>"
    )
    assert page.name_messages[2].value == "<div class='problem'>the same name as player 1</div>"
    assert page.score_names()[0] == "Aki Ito"
    assert page.form.head_labels[0].value == "<b>Aki Ito</b>"
    assert page.form.head_labels[1].value == "<b>Player 2</b>"
    assert page.tracker.start.options[0] == ("Aki Ito", 0)
    page.name_inputs[3].value = "<b>x</b>"  # a seat not in play
    page.name_inputs[0].value = "<i>Zoe</i>"
    assert page.form.head_labels[0].value == "<b>&lt;i&gt;Zoe&lt;/i&gt;</b>"


def test_a_reload_brings_the_draft_back(db_path: Path) -> None:
    page = tokaido_page(4)
    page.setup.boxes[2].value = True
    page.tracker.start.value = 2
    page.tracker.next()
    type_in(page, "players[3].journey", "x")
    reloaded = GamePage("tokaido")
    assert reloaded.load_draft()
    assert reloaded.players == 4
    assert [b.value for b in reloaded.name_inputs[:3]] == ["Aki", "Ben", "Cho"]
    assert reloaded.form.cells["players[1].journey"].raw() == {"n": "60"}
    assert reloaded.form.cells["players[3].journey"].raw() == {"n": "x"}
    assert "must be a whole number" in reloaded.form.cells["players[3].journey"].message.value
    assert reloaded.setup.boxes[2].value is True
    assert reloaded.tracker.round_number == 2
    assert reloaded.tracker.message.startswith("Cho reached the first inn first")
    assert reloaded.draft_status.value == "<span class='ok'>Game in progress brought back.</span>"
    with History(db_path) as history:
        [info] = SessionStore(history).unfinished()
        assert len(SessionStore(history).events(info.id)) == 1  # one draft, replaced


def test_changing_the_player_count_keeps_what_was_entered() -> None:
    page = tokaido_page(3)
    page.setup.boxes[0].value = True
    page.count.value = 4
    assert page.form.cells["players[2].journey"].raw() == {"n": "66"}
    assert page.form.cells["players[3].journey"].raw() == {"n": ""}
    assert page.name_inputs[2].value == "Cho"
    assert page.setup.boxes[0].value is True
    page.count.value = 2
    assert "players[2].journey" not in page.form.cells
    page.count.value = 3
    assert page.form.cells["players[2].journey"].raw() == {"n": "66"}


def test_a_number_too_large_for_the_game_is_a_problem_beside_its_cell(db_path: Path) -> None:
    page = tokaido_page(2)
    type_in(page, "players[0].journey", "99999999999999999999")
    assert page.form.problems() == [
        ("players[0].journey", "must be between 0 and 300, got 99999999999999999999")
    ]
    assert page.form.save() is None
    assert plays(db_path) == []


def test_a_damaged_history_is_reported_beside_the_button(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    page = tokaido_page(2)
    damaged = tmp_path / "damaged.sqlite3"
    damaged.write_bytes(b"SQLite format 3\x00" + b"\xff" * 4000)
    monkeypatch.setenv("COMPANION_DB", str(damaged))
    assert page.form.save() is None
    assert "Not saved: the history" in page.form.status.value
    assert damaged.read_bytes()[16:20] == b"\xff" * 4


def test_kamakura_tour_cards_are_a_list_you_add_to() -> None:
    page = GamePage("kamakura", 2)
    tours = page.form.cells["tours"]
    assert isinstance(tours, ListCell)
    tours.add_button.click()
    tours.add_button.click()
    tours.add_button.click()
    first, second, third = tours.items
    first["card"].value = "A"
    first["circles"].value = "b f k"
    first["points"].value = "5"
    second["card"].value = "I"
    second["color"].value = "pink"
    second["points"].value = "4"
    third["card"].value = "L"
    third["points"].value = "5"
    assert page.form.document()["tours"] == [
        {"card": "A", "kind": "collection", "points": 5, "circles": ["B", "F", "K"]},
        {"card": "I", "kind": "genre", "points": 4, "color": "pink"},
        {"card": "L", "kind": "big_eater", "points": 5},
    ]
    assert second["circles"].layout.display == "none"
    tours.remove(1)
    assert [t["card"] for t in page.form.document()["tours"]] == ["A", "L"]


def test_kamakura_player_lists() -> None:
    page = GamePage("kamakura", 2)
    coins = page.form.cells["players[0].site_coins"]
    assert isinstance(coins, ListCell)
    for circle, value, colour in (("b", "3", "pink"), ("F", "4", "green")):
        coins.add_button.click()
        coins.items[-1]["circle"].value = circle
        coins.items[-1]["value"].value = value
        coins.items[-1]["color"].value = colour
    page.form.cells["players[0].pieces"].restore({"[0]": "a", "[1]": "f"})
    player = page.form.document()["players"][0]
    assert player["site_coins"] == [
        {"circle": "B", "value": 3, "color": "pink"},
        {"circle": "F", "value": 4, "color": "green"},
    ]
    assert player["pieces"] == ["A", "F"]
    for _ in range(12):
        coins.add_button.click()
    assert len(coins.items) == 8 and coins.add_button.disabled


def test_shogun_regions_are_a_grid_per_player() -> None:
    page = GamePage("shogun", 3)
    for seat, name in enumerate(("Aki", "Ben", "Cho")):
        page.name_inputs[seat].value = name
    region = page.form.cells["players[0].regions.brown"]
    region.controls["provinces"].value = "3"
    region.controls["castles"].value = "1"
    region.controls["theaters"].value = "2"
    assert page.form.document()["players"][0]["regions"] == {
        "brown": {"provinces": 3, "castles": 1, "theaters": 2}
    }
    region.controls["castles"].value = "5"
    assert "castles: 5 castles in 3 provinces" in region.message.value
    region.controls["castles"].value = "1"
    assert page.form.total_labels[0].value == "–"  # the year and each score before are asked
    page.form.cells["year"].controls["c"].value = 2
    for seat in range(3):
        for key in ("score_before", "war_chests"):
            page.form.cells[f"players[{seat}].{key}"].controls["n"].value = "0"
    assert page.form.total_labels[0].value.startswith("<b>")


def test_a_tie_broken_by_war_chests_shows_the_values_on_the_pad_and_in_the_history(
    db_path: Path,
) -> None:
    page = GamePage("shogun", 3)
    for seat, name in enumerate(("Aki", "Ben", "Cho")):
        page.name_inputs[seat].value = name
    page.form.cells["year"].controls["c"].value = 2
    for seat in (0, 1):
        page.form.cells[f"players[{seat}].regions.green"].controls["provinces"].value = "1"
    for seat, chests in enumerate(("5", "3", "0")):
        page.form.cells[f"players[{seat}].score_before"].controls["n"].value = "0"
        page.form.cells[f"players[{seat}].war_chests"].controls["n"].value = chests
    winner = (
        "<p class='winner'><b>Winner: Aki (tie on 1 broken by most war chests: Aki 5, Ben 3)."
        "</b></p>"
    )
    assert winner in page.form.preview.value
    page.form.save_button.click()
    assert winner in page.form.preview.value  # read back after saving, too
    history = HistoryPage()
    history.refresh()
    history.show(1)
    assert winner in history.detail.value


def test_shimoda_street_cells_build_the_spaces() -> None:
    page = GamePage("shimoda")
    card = page.form.cells["players[0].street[2].card"]
    card.controls["color"].value = "blue"
    card.controls["scoring.type"].value = "pair"
    card.controls["scoring.points"].value = "3"
    card.controls["scoring.range"].value = "3"
    card.controls["scoring.colors[0]"].value = "red"
    card.controls["scoring.colors[1]"].value = "pink"
    space = page.form.cells["players[0].street[2]"]
    space.controls["tourists.red"].value = "2"
    space.controls["tourists.blue"].value = "1"
    space.controls["chairs"].value = "1"
    street = page.form.document()["players"][0]["street"]
    assert street[2] == {
        "tourists": {"blue": 1, "red": 2},
        "chairs": 1,
        "card": {
            "color": "blue",
            "scoring": {"type": "pair", "points": 3, "range": 3, "colors": ["red", "pink"]},
        },
    }
    assert card.controls["scoring.colors[1]"].layout.display == ""
    drawing = page.form.drawing.value
    assert drawing.count("<circle") == 3 and "Player 1's street" in drawing


def test_setup_draws_use_the_names_and_carry_the_start_player() -> None:
    page = GamePage("kamakura", 3)
    for seat, name in enumerate(("Aki", "Ben", "Cho")):
        page.name_inputs[seat].value = name
    page.setup.seed.value = "4242"
    drawn = page.setup.draw()
    assert drawn["start_player"] in ("Aki", "Ben", "Cho")
    assert "Player" not in page.setup.drawn.value
    assert page.tracker.names[page.tracker.start.value] == drawn["start_player"]
    assert page.tracker.first_start == ["Aki", "Ben", "Cho"].index(drawn["start_player"])


def test_setup_panel_draws_with_the_seed_shown() -> None:
    panel = SetupPanel("tokaido", 3)
    panel.seed.value = "4242"
    first = panel.draw()
    panel.seed.value = "4242"
    assert panel.draw() == first
    assert panel.drawn.value.startswith("Seed 4242:<br>")
    panel.seed.value = ""
    panel.draw_button.click()
    assert panel.seed.value.isdigit()
    assert not SetupPanel("shimoda", 2).has_draws


def test_shimoda_tracker_stops_after_round_seven() -> None:
    tracker = Tracker("shimoda", ["Aki", "Ben"])
    tracker.counts[0].value, tracker.counts[1].value = 3, 2
    assert tracker.next() == "Ben starts round 2 (fewer tourists)."
    tracker.counts[0].value, tracker.counts[1].value = 4, 4
    assert tracker.next() == "Aki starts round 3 (a tie: the marker passes)."
    for _ in range(10):
        tracker.next()
    assert tracker.round_number == 7
    assert tracker.next() == (
        "Round 7 was the last: place the victory markers and score the game below."
    )
    assert tracker.round.value == "<b>Round 7 of 7</b>"


@pytest.mark.parametrize(
    ("names", "counts", "variant", "message"),
    [
        (["Red", "Blue"], [6, 2], "standard", "Red wins! (Red 6 – 2 Blue)"),
        (["Red", "Blue"], [2, 1], "standard", "No winner yet (Red 2 – 1 Blue); Blue plays next."),
        (["Red", "Blue"], [4, 2], "no_construction", "Red wins! (Red 4 – 2 Blue)"),
        (["Aki", "Ben", "Cho", "Dai"], [2, 1, 3, 1], "standard", "Red wins! (Red 5 – 2 Blue)"),
        (
            ["Aki", "Ben", "Cho", "Dai"],
            [3, 3, 3, 3],
            "standard",
            "No winner yet (Red 6 – 6 Blue); Ben plays next.",
        ),
    ],
)
def test_shibuya_tracker_uses_the_scorers_win_check(
    names: list[str], counts: list[int], variant: str, message: str
) -> None:
    sides = ["Red", "Blue"] if len(names) == 4 else names
    tracker = Tracker("shibuya", names, sides)
    tracker.variant.value = variant
    for box, value in zip(tracker.counts, counts, strict=True):
        box.value = value
    result = tracker.next()
    if "6 – 6" in message:
        assert not result.endswith("wins!") and "Red 6 – 6 Blue" in result
    else:
        assert result == message


def bid(tracker: Tracker, *bids: str) -> str:
    for box, value in zip(tracker.bids, bids, strict=True):
        box.value = value
    return tracker.next()


def test_shogun_tracker_orders_bids_as_the_terminal_does(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("companion.widgets.tracker.new_seed", lambda: 4242)
    tracker = Tracker("shogun", ["Aki", "Ben", "Cho", "Dai"])
    assert [b.options[1:] for b in tracker.bids] == [tuple((x, x) for x in BIDS)] * 4
    assert tracker.next() == "Choose the bid of Aki, Ben, Cho and Dai first."
    assert tracker.round_number == 1
    message = bid(tracker, "2 chests", "Province card", "4 chests", NO_BID)
    assert message == (
        "Year 1, spring: action order Ben (province card), Cho (4), Aki (2), Dai (no bid). "
        "Special cards are taken from the highest bid down, equal bids in the drawn order."
    )
    assert tracker.start.value == 1  # Ben acts first
    assert tracker.round.value == "<b>Year 1, summer</b>"
    assert [b.value for b in tracker.bids] == [""] * 4  # each season's bids are new
    # Equal bids are drawn as the terminal draws them (order_bids), with the seed shown.
    tied_chests = shuffled(["Aki", "Cho"], 4242, "bids.3")  # rank 3: 2 chests
    tied_cards = shuffled(["Ben", "Dai"], 4242, "bids.0")  # rank 0: a province card
    assert order_bids(
        ["Aki", "Ben", "Cho", "Dai"],
        ["2 chests", "Province card", "2 chests", "Province card"],
        lambda tied, rank: shuffled(tied, 4242, f"bids.{rank}"),
    ) == [*tied_cards, *tied_chests]
    message = bid(tracker, "2 chests", "Province card", "2 chests", "Province card")
    shown = ", ".join(
        f"{n} ({'province card' if n in ('Ben', 'Dai') else '2'})"
        for n in (*tied_cards, *tied_chests)
    )
    assert message.startswith(
        f"Year 1, summer: action order {shown}. Seed 4242: equal bids (province card) drawn: "
        f"{', '.join(tied_cards)}; equal bids (2) drawn: {', '.join(tied_chests)}."
    )
    assert tracker.start.value == ["Aki", "Ben", "Cho", "Dai"].index(tied_cards[0])
    assert "winter" in bid(tracker, *["0 chests"] * 4)  # autumn: the first winter follows
    for _ in range(2):
        bid(tracker, *["1 chest"] * 4)
    assert bid(tracker, *["0 chests"] * 4).endswith(
        "After the actions: winter of year 2, the final scoring: score it below."
    )
    assert tracker.round.value == "<b>Year 2, autumn</b>"


def test_shogun_bids_are_kept_in_the_draft(db_path: Path) -> None:
    page = GamePage("shogun", 3)
    page.tracker.bids[0].value = "Province card"
    page.tracker.bids[2].value = "3 chests"
    reloaded = GamePage("shogun")
    assert reloaded.load_draft()
    assert [b.value for b in reloaded.tracker.bids] == ["Province card", "", "3 chests"]
    reloaded.tracker.restore({"bids": ["7 chests", "<b>", ""]})  # a draft from elsewhere
    assert [b.value for b in reloaded.tracker.bids] == ["Province card", "", ""]


@pytest.mark.parametrize(
    ("game", "names", "counts", "message", "round_text"),
    [
        (
            "kamakura",
            ["Aki", "Ben", "Cho"],
            [8, 3, 1],
            "Aki has 8 site coins: one last turn each for Ben, Cho.",
            "<b>Round 1</b>",
        ),
        (
            "kamakura",
            ["Aki", "Ben"],
            [3, 1],
            "Nobody has 8 site coins yet: round 2.",
            "<b>Round 2</b>",
        ),
        (
            "tokaido",
            ["Aki", "Ben", "Cho"],
            [],
            "Aki reached the first inn first: draws 4 meal cards and may buy one.",
            "<b>Stage 2: to the second inn</b>",
        ),
    ],
)
def test_tracker_rules(
    game: str, names: list[str], counts: list[int], message: str, round_text: str
) -> None:
    tracker = Tracker(game, names)
    for box, value in zip(tracker.counts, counts, strict=False):
        box.value = value
    tracker.next_button.click()
    assert tracker.message == message
    assert tracker.round.value == round_text


def test_tokaido_tracker_ends_in_edo() -> None:
    tracker = Tracker("tokaido", ["Aki", "Ben"])
    for _ in range(3):
        tracker.next()
    assert tracker.next() == "Aki reached Edo first: the journey is over, score it below."


def test_history_page_lists_opens_and_deletes_after_confirming(db_path: Path) -> None:
    empty = HistoryPage()
    empty.refresh()
    assert empty.plays.children[0].value == "No games recorded yet."
    fill(db_path)
    page = HistoryPage()
    page.refresh()
    assert page.count.value == "7 games"
    assert len(page.plays.children) == 7
    assert "<b>#7</b>" in page.plays.children[0].children[0].value  # the newest first
    page.game.value = "shibuya"
    assert page.count.value == "1 game"
    page.game.value = ""
    page.player.value = "Dai"
    assert page.count.value == "2 games"
    page.player.value = ""
    page.show(5)
    assert "Game #5: Shibuya" in page.detail.value and "Winner: Aki." in page.detail.value
    page.ask_delete(5)
    row = page.rows[5]
    assert row.children[1].value == "Delete game #5 for good?"
    row.children[3].click()  # Keep it
    assert page.count.value == "7 games"
    page.ask_delete(5)
    page.rows[5].children[2].click()  # Yes, delete it
    assert page.count.value == "6 games"
    assert page.status.value == "<span class='ok'>Game #5 was deleted.</span>"
    players, pairs, wins, scores, _, _, _ = (child.value for child in page.stats.children)
    assert "<td>Aki</td>" in players and "<h2>Head to head</h2>" in pairs
    assert "games played" in wins
    assert "<b>Tokaido</b>" in scores


def test_wins_chart_has_axes_and_labels() -> None:
    summaries: list[dict[str, Any]] = [
        {"players": [{"name": "Aki"}, {"name": "Ben"}], "winners": ["Aki"]},
        {"players": [{"name": "Aki"}, {"name": "Ben"}], "winners": ["Ben"]},
        {"players": [{"name": "Aki"}, {"name": "Ben"}], "winners": ["Aki"]},
    ]
    chart = wins_chart(summaries)
    assert chart.count("<polyline") == 2
    assert "games played (oldest first)</text>" in chart and ">wins</text>" in chart
    assert "viewBox='0 0 400 250'" in chart  # drawn at the screen's width: readable on a phone
    ticks = [t.split(">")[1] for t in chart.split("font-size='13'")[1:]]
    assert ticks == ["0</text", "1</text", "2</text", "1</text", "2</text", "3</text"]
    assert "<title>Aki</title>" in chart and "<title>Ben</title>" in chart


@pytest.mark.parametrize(
    ("low", "high", "whole", "expected"),
    [
        (0, 2, True, [0, 1, 2]),
        (0, 2, False, [0, 0.5, 1, 1.5, 2]),
        (-4.9, 6.3, False, [-5, 0, 5, 10]),
        (0, 87, True, [0, 20, 40, 60, 80, 100]),
        (3, 3, False, [2, 2.5, 3, 3.5, 4]),
    ],
)
def test_chart_ticks_are_round_and_cover_the_values(
    low: float, high: float, whole: bool, expected: list[float]
) -> None:
    assert nice_ticks(low, high, whole=whole) == expected


def test_set_path_builds_nested_documents() -> None:
    document: dict[str, object] = {}
    set_path(document, "players[1].street[2].tourists", {"red": 1})
    set_path(document, "players[0].name", "Aki")
    assert document == {
        "players": [{"name": "Aki"}, {"street": [{}, {}, {"tourists": {"red": 1}}]}]
    }


def test_replace_draft_keeps_one_event(db_path: Path) -> None:
    with History(db_path) as history:
        store = SessionStore(history)
        session = store.start("tokaido", "web")
        store.replace_draft(session, "draft", {"a": 1})
        store.replace_draft(session, "draft", {"a": 2})
        assert store.events(session) == [("draft", {"a": 2})]


def test_score_form_alone_records_to_the_history(db_path: Path) -> None:
    form = ScoreForm("shibuya", 2, names=["Aki", "Ben"])
    form.cells["players[0].goals"].controls["n"].value = "6"
    form.cells["players[1].goals"].controls["n"].value = "2"
    assert form.save() == 1
    assert plays(db_path)[0][0] == "shibuya"


def html_values(widget: Any) -> list[str]:
    """Every markup string of a widget tree: the values of its HTML widgets (text inputs,
    options and descriptions are shown as text by the browser, never as markup)."""
    import ipywidgets as w

    found = [widget.value] if isinstance(widget, w.HTML | w.HTMLMath) else []
    assert not getattr(widget, "description_allow_html", False)
    for child in getattr(widget, "children", ()):
        found += html_values(child)
    return found


TOKAIDO_BETTER = {
    0: ("Aki", "70", "4", "7", "6", "3", "2", "1"),
    1: ("Ben", "60", "3", "7", "2", "1", "4", "0"),
    2: ("Cho", "66", "0", "4", "3", "3", "1", "2"),
}


def test_after_a_save_the_page_says_why_and_the_records_set(db_path: Path) -> None:
    from companion.analysis.explain import explain_result
    from companion.history.after_game import after_game

    page = tokaido_page()
    form = page.form
    live = explain_result(form.result(), json.dumps(form.document()))
    assert live == [
        "Aki won by 4 points over Ben, the closest gap at the table.",
        "Without the temple ranking, Cho would have won by 2 points.",
        "Against each player's share of all points, Aki was strongest in the collector award "
        "(100% of the table's points there, against 35% of all points), Ben in the chatterbox "
        "award (100% of the table's points there, against 33% of all points) and Cho in the "
        "bather award (50% of the table's points there, against 32% of all points).",
    ]
    assert form.preview.value.endswith(
        "<div class='why'>" + "".join(f"<p>{s}</p>" for s in live) + "</div>"
    )
    assert form.after.value == ""
    assert form.save() == 1
    # The first game of Tokaido sets no record: nothing to beat yet.
    assert form.after.value == (
        "<h4>Why it was won</h4><div class='why'>" + "".join(f"<p>{s}</p>" for s in live) + "</div>"
    )
    assert "<div class='why'>" not in form.preview.value  # said once, in the after-game part
    form.new_button.click()
    assert form.after.value == ""
    for seat, (_, *values) in TOKAIDO_BETTER.items():
        for key, value in zip(KEYS, values, strict=True):
            type_in(page, f"players[{seat}].{key}", value)
    assert form.save() == 2
    with History(db_path, write=False) as history:
        after = after_game(history, 2)
    assert after.records == [
        "Aki set the group's Tokaido record: 89, was 77.",
        "Aki won by 16, the group's biggest Tokaido margin (was 4).",
        "Aki has won 2 Tokaido games in a row, the group's longest streak (was 1).",
        "Aki set the group's Tokaido record in the journey: 70, was 66 by Cho.",
    ]
    assert form.after.value == (
        "<h4>Why it was won</h4><div class='why'>"
        + "".join(f"<p>{s}</p>" for s in after.explanation)
        + "</div><h4>Records</h4><div class='records-set'>"
        + "".join(f"<p>{s}</p>" for s in after.records)
        + "</div>"
    )


def test_typed_names_are_escaped_everywhere_after_a_save(db_path: Path) -> None:
    hostile = ["<script>x</script>", "<img src=x onerror=y>", "A&B \"'"]
    page = GamePage("tokaido", 3)
    for seat, (_, *values) in TOKAIDO.items():
        page.name_inputs[seat].value = hostile[seat]
        for key, value in zip(KEYS, values, strict=True):
            type_in(page, f"players[{seat}].{key}", value)
    assert page.form.save() == 1
    page.tracker.next()
    shown = "".join(html_values(page.widget))
    assert "&lt;script&gt;x&lt;/script&gt; won by 4 points" in page.form.after.value
    history = HistoryPage()
    history.refresh()
    history.show(1)
    shown += "".join(html_values(history.widget))
    assert "<script" not in shown and "<img" not in shown and "A&B" not in shown
    assert "&lt;img src=x onerror=y&gt;" in history.detail.value


def test_a_saved_shogun_first_winter_is_interim_on_the_page(db_path: Path) -> None:
    page = GamePage("shogun", 3)
    for seat, name in enumerate(("Aki", "Ben", "Cho")):
        page.name_inputs[seat].value = name
        region = page.form.cells[f"players[{seat}].regions.brown"]
        region.controls["provinces"].value = str(seat + 1)
        for key in ("score_before", "war_chests"):
            page.form.cells[f"players[{seat}].{key}"].controls["n"].value = "0"
    page.form.cells["year"].controls["c"].value = 1
    assert page.form.save() == 1
    assert page.form.status.value == (
        "<b class='saved result-focus' tabindex='-1'>Saved as game #1.</b> "
        "An interim scoring: it is shown, but counts in no wins or stats."
    )
    with History(db_path, write=False) as history:
        assert history.get(1).status == "interim"
    assert "leads" in page.form.after.value


def test_history_page_shows_ratings_records_and_lengths(db_path: Path) -> None:
    from companion.history.after_game import lengths, ratings, records

    fill(db_path)
    page = HistoryPage()
    page.refresh()
    sections = {child._dom_classes[0]: child.value for child in page.stats.children}
    assert list(sections) == [
        "players",
        "head-to-head",
        "wins",
        "scores",
        "ratings",
        "records",
        "lengths",
    ]
    with History(db_path, write=False) as history:
        overall = ratings(history).table(None)
        found = records(history)
        timed = lengths(history)
    chart = sections["ratings"]
    assert chart.count("<polyline") == 4  # Aki, Ben, Cho, Dai over every game
    assert ">rating</text>" in chart and ">games, oldest first</text>" in chart
    assert "aria-label='Ratings over every game'" in chart
    assert "Ratings over every game, 2026-01-01 to 2026-01-07." in chart
    first = overall[0]
    assert (
        f"<tr><td>1</td><td>{first.name}</td><td>{first.ordinal:.1f}</td><td>{first.mu:.1f}</td>"
        f"<td>{first.sigma:.1f}</td><td>{first.plays}</td></tr>"
    ) in chart
    best = found["tokaido"].best_total
    assert best is not None and (best.value, best.who) == (70, "Cho")
    assert (
        "<tr><td>Tokaido</td><td>Highest total</td><td>70</td><td>Cho</td>"
        "<td>#4, <span class='nobr'>2026-01-04</span></td></tr>"
    ) in sections["records"]
    assert [(t.game, t.players, t.plays, round(t.average_min, 1)) for t in timed] == [
        ("shibuya", 2, 1, 49.0),
        ("tokaido", 2, 1, 50.0),
        ("tokaido", 3, 3, 46.3),
        ("shogun", 3, 1, 51.0),
        ("shogun", 4, 1, 47.0),
    ]
    assert sections["lengths"] == (
        "<h2>Time at the table</h2><div class='tablescroll' role='region' tabindex='0' "
        "aria-label='Time at the table: a table, scroll sideways when it does not fit'>"
        "<table><tr><th>Game</th>"
        "<th>Players</th><th>Games timed</th><th>Average length</th></tr>"
        "<tr><td>Shibuya</td><td>2</td><td>1</td><td>49 min</td></tr>"
        "<tr><td>Tokaido</td><td>2</td><td>1</td><td>50 min</td></tr>"
        "<tr><td>Tokaido</td><td>3</td><td>3</td><td>46 min</td></tr>"
        "<tr><td>Shogun</td><td>3</td><td>1</td><td>51 min</td></tr>"
        "<tr><td>Shogun</td><td>4</td><td>1</td><td>47 min</td></tr></table></div>"
    )
    # One game: its own ratings, every category and the personal bests.
    page.game.value = "tokaido"
    sections = {child._dom_classes[0]: child.value for child in page.stats.children}
    assert "aria-label='Tokaido ratings'" in sections["ratings"]
    assert sections["ratings"].count("<polyline") == 3
    assert sections["records"].endswith(
        "<h4>Personal bests</h4><div class='tablescroll' role='region' tabindex='0' "
        "aria-label='Personal bests: a table, scroll sideways when it does not fit'>"
        "<table><tr><th>Player</th><th>Games</th>"
        "<th>Wins</th><th>Best total</th><th>Biggest win</th><th>Longest streak</th></tr>"
        "<tr><td>Cho</td><td>3</td><td>1</td><td>70</td><td>5</td><td>1</td></tr>"
        "<tr><td>Aki</td><td>4</td><td>2</td><td>65</td><td>10</td><td>2</td></tr>"
        "<tr><td>Ben</td><td>4</td><td>2</td><td>61</td><td>3</td><td>1</td></tr></table></div>"
    )
    assert "<tr><td>Shibuya</td>" not in sections["lengths"]  # the filter applies
    # One player: their line only.
    page.player.value = "Dai"
    page.game.value = ""
    sections = {child._dom_classes[0]: child.value for child in page.stats.children}
    assert sections["ratings"].count("<polyline") == 1
    assert "<title>Dai</title>" in sections["ratings"]


def test_history_page_opens_the_history_read_only(tmp_path: Path) -> None:
    missing = tmp_path / "no" / "history.sqlite3"
    page = HistoryPage(missing)
    page.refresh()
    assert page.plays.children[0].value == "No games recorded yet."
    page.show(3)
    assert page.detail.value == "<div class='problem'>no game #3 in the history</div>"
    assert not missing.parent.exists()  # nothing created on disk
    GamePage("tokaido", db=missing).load_draft()
    assert not missing.parent.exists()


def test_a_damaged_history_is_one_line_on_the_history_page(tmp_path: Path) -> None:
    damaged = tmp_path / "damaged.sqlite3"
    damaged.write_bytes(b"SQLite format 3\x00" + b"\xff" * 4000)
    page = HistoryPage(damaged)
    page.refresh()
    [line] = page.status.value.split("</div>")[:-1]
    assert line.startswith("<div class='problem'>") and "Traceback" not in line
    assert str(damaged) in line
    page.show(1)
    assert page.detail.value.startswith("<div class='problem'>")
    game = GamePage("tokaido", db=damaged)
    assert not game.load_draft()
    assert game.draft_status.value.startswith("<span class='problem'>The history cannot be read: ")
    assert damaged.read_bytes()[16:20] == b"\xff" * 4


def test_history_page_reads_any_shape_of_play_and_lists_fifty_at_a_time(db_path: Path) -> None:
    import random

    from tests.support.history_fixture import random_play

    rng = random.Random(14)
    with History(db_path) as history:
        history.add([random_play(rng, k) for k in range(60)])
    page = HistoryPage()
    page.refresh()
    assert page.status.value == ""
    assert len(page.plays.children) == 50 and page.more.layout.display == ""
    page.more.click()
    assert len(page.plays.children) == 60 and page.more.layout.display == "none"
    for play_id in range(1, 61):
        page.show(play_id)
        assert page.detail.value.startswith(f"<h2>Game #{play_id}: "), page.detail.value
    page.game.value = "shibuya"  # teams, members not known, anonymous people
    assert page.status.value == ""
    assert [c._dom_classes[0] for c in page.stats.children][-3:] == [
        "ratings",
        "records",
        "lengths",
    ]


def test_the_place_is_offered_kept_in_the_draft_and_saved(db_path: Path) -> None:
    fill(db_path)  # games at "Aki's place"
    page = tokaido_page()
    page.load_places()
    assert page.place.options == ("Aki's place",)
    page.place.value = "x" * 101
    assert page.place_message.value == (
        "<div class='problem'>the place is 101 characters long (at most 100)</div>"
    )
    assert page.form.save() is None
    assert page.form.status.value == (
        "<span class='problem'>Not saved: the place is 101 characters long (at most 100)</span>"
    )
    page.place.value = "  <i>Bar</i>   Kobe "
    assert page.place_message.value == ""
    reloaded = GamePage("tokaido")
    assert reloaded.load_draft() and reloaded.place.value == "  <i>Bar</i>   Kobe "
    assert page.form.save() == 8
    with History(db_path, write=False) as history:
        assert history.get(8).location == "<i>Bar</i> Kobe"
    assert page.form.after.value.endswith(
        "<div class='about'><p>Location: &lt;i&gt;Bar&lt;/i&gt; Kobe</p></div>"
    )
    page.form.new_button.click()
    assert page.place.value == "  <i>Bar</i>   Kobe "  # the same table, the next game


def test_every_css_class_is_one_word() -> None:
    """A browser refuses a class with a space in it ("list site-coins") and the
    widget shows an error instead of its class."""
    from ipywidgets.widgets.widget import _instances

    from scorers import SCORERS

    for game in SCORERS:
        GamePage(game)
    HistoryPage()
    classes = {
        name for widget in list(_instances.values()) for name in getattr(widget, "_dom_classes", ())
    }
    assert "list" in classes
    assert [name for name in classes if not name or any(c.isspace() for c in name)] == []
