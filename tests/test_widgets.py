"""The widget builders, driven in plain pytest: set values, click, read what shows."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from companion.play.setup import describe_draws, draws
from companion.widgets import GamePage, ScoreForm, SetupPanel, Tracker, history_page
from companion.widgets.score_form import set_path
from tests.history_fixture import fill

TOKAIDO = {
    0: ("Aki", "58", "4", "7", "6", "3", "2", "1"),
    1: ("Ben", "60", "3", "7", "2", "1", "4", "0"),
    2: ("Cho", "66", "0", "4", "3", "3", "1", "2"),
}
KEYS = (
    "name",
    "journey",
    "temple",
    "meal_cost",
    "souvenirs",
    "hot_springs",
    "encounters",
    "panorama_achievements",
)


def filled_tokaido() -> ScoreForm:
    form = ScoreForm("tokaido", 3)
    for seat, row in TOKAIDO.items():
        for key, value in zip(KEYS, row, strict=True):
            form.inputs[f"players[{seat}].{key}"].value = value
    return form


def plays(db: Path) -> list[tuple[str, str]]:
    if not db.exists():
        return []
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT game, result FROM plays").fetchall()
    conn.close()
    return rows


def test_valid_form_saves_one_record_and_shows_the_breakdown(db_path: Path) -> None:
    form = filled_tokaido()
    assert form.save_button.disabled is False
    assert form.summary.value == "All fields are valid."
    assert "<p class='winner'><b>Winner: Aki.</b></p>" in form.preview.value
    assert "<td>journey</td><td align='right'>58</td>" in form.preview.value
    form.save_button.click()
    assert form.saved.value == "<b>Saved to the history as game #1.</b>"
    [(game, result)] = plays(db_path)
    assert game == "tokaido"
    assert [p["total"] for p in json.loads(result)["players"]] == [77, 73, 69]


def test_invalid_values_show_beside_the_field_and_save_nothing(db_path: Path) -> None:
    form = filled_tokaido()
    form.inputs["players[1].temple"].value = "3.5"
    form.inputs["players[2].panorama_achievements"].value = "4"
    assert form.save_button.disabled is True
    assert form.messages["players[1].temple"].value == (
        "<span style='color:#b00'>must be a whole number, got the text \"3.5\"</span><br>"
    )
    assert (
        "must be between 0 and 3, got 4" in form.messages["players[2].panorama_achievements"].value
    )
    assert form.summary.value.startswith("<span style='color:#b00'>2 thing(s) to fix")
    assert form.preview.value == ""
    assert form.save() is None
    assert form.saved.value == "Nothing was saved: fix the fields first."
    assert plays(db_path) == []


def test_untouched_fields_show_no_message_yet() -> None:
    form = ScoreForm("shogun", 3)
    assert all(m.value == "" for m in form.messages.values())
    form.inputs["players[0].name"].value = "Aki"
    form.inputs["players[1].name"].value = "Aki"
    assert "'Aki' is already the name of players[0]" in form.messages["players[1].name"].value


def test_cross_field_problems_go_to_the_field_they_name(db_path: Path) -> None:
    form = ScoreForm("shogun", 3)
    for seat, name in enumerate(("Aki", "Ben", "Cho")):
        form.inputs[f"players[{seat}].name"].value = name
        form.inputs[f"players[{seat}].regions.brown"].value = "4 1"
    assert "players: 12 brown provinces held in all (the region has 9)" in form.summary.value
    form.inputs["players[2].regions.brown"].value = "1 5"
    message = form.messages["players[2].regions.brown"].value
    assert "castles: 5 castles in 1 provinces (at most one per province)" in message


def test_game_page_rebuilds_for_the_player_count() -> None:
    page = GamePage("kamakura")
    assert page.count.options == ("2", "3", "4")
    assert sum(1 for f in page.form.fields if f.path.endswith(".name")) == 2
    page.count.value = "4"
    assert sum(1 for f in page.form.fields if f.path.endswith(".name")) == 4
    assert len(page.setup.boxes) == 8
    teams = GamePage("shibuya", 4)
    assert "players[0].members" in teams.form.inputs


def test_setup_panel_draws_with_the_seed_shown() -> None:
    panel = SetupPanel("tokaido", 3)
    panel.seed.value = "4242"
    result = panel.draw()
    assert result == draws("tokaido", 3, 4242)
    assert panel.drawn.value == "Seed 4242:<br>" + "<br>".join(describe_draws(result))
    panel.seed.value = ""
    panel.draw_button.click()
    assert panel.seed.value.isdigit()
    assert not SetupPanel("shimoda", 2).widget.children[-1].value  # no draws for Shimoda


@pytest.mark.parametrize(
    ("game", "names", "counts", "start", "message"),
    [
        ("shimoda", ["Aki", "Ben"], [3, 2], "Aki", "Ben starts round 2 (fewer tourists)."),
        (
            "shimoda",
            ["Aki", "Ben"],
            [4, 4],
            "Aki",
            "Ben starts round 2 (a tie: the marker passes).",
        ),
        ("shibuya", ["Red", "Blue"], [6, 2], "Red", "Red wins!"),
        ("shibuya", ["Red", "Blue"], [2, 1], "Red", "No winner yet."),
        (
            "kamakura",
            ["Aki", "Ben", "Cho"],
            [8, 3, 1],
            "Aki",
            "Aki has 8 site coins: one last turn each for Ben, Cho.",
        ),
        (
            "tokaido",
            ["Aki", "Ben", "Cho"],
            [0, 0, 0],
            "Cho",
            "Cho draws 4 meal cards and may buy one.",
        ),
    ],
)
def test_tracker_rules(
    game: str, names: list[str], counts: list[int], start: str, message: str
) -> None:
    tracker = Tracker(game, names)
    tracker.start.value = start
    for box, value in zip(tracker.counts, counts, strict=True):
        box.value = value
    tracker.next_button.click()
    assert tracker.status.value == message


def test_tracker_shibuya_optional_rule_needs_four() -> None:
    tracker = Tracker("shibuya", ["Red", "Blue"])
    tracker.counts[0].value = 4
    tracker.counts[1].value = 2
    assert tracker.next() == "No winner yet."
    tracker.variant.value = "no_construction"
    assert tracker.next() == "Red wins!"


def test_tracker_shogun_orders_bids_and_draws_ties() -> None:
    tracker = Tracker("shogun", ["Aki", "Ben", "Cho"])
    for box, bid in zip(tracker.counts, [2, 4, 2], strict=True):
        box.value = bid
    message = tracker.next()
    assert message.startswith("Turn order: Ben, ")
    assert tracker.start.value == "Ben"


def test_history_page(db_path: Path) -> None:
    assert history_page().children[0].value == "No games recorded yet."
    fill(db_path)
    page = history_page()
    players, pairs, wins, scores = (child.value for child in page.children)
    assert "<td>Aki</td><td>7</td><td>4</td><td>57%</td>" in players
    assert "<td>Aki</td><td>Ben</td><td>6</td><td>3</td><td>2</td><td>1</td>" in pairs
    assert wins.count("<polyline") == 4
    assert "<b>tokaido</b>" in scores


def test_set_path_builds_nested_documents() -> None:
    document: dict[str, object] = {}
    set_path(document, "players[1].street[2].tourists", {"red": 1})
    set_path(document, "players[0].name", "Aki")
    assert document == {
        "players": [{"name": "Aki"}, {"street": [{}, {}, {"tourists": {"red": 1}}]}]
    }
