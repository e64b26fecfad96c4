"""The table's helpers on a game's page, driven by ``.value`` and ``.click()``: the names
screen readers say, the clock, the start player, the Rules button, the last game, and
what happens to a change after Save."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.history.after_game import timing
from companion.history.store import History
from companion.rules import find_topic, topic_for_phase
from companion.widgets import GamePage
from companion.widgets.clock_panel import ClockPanel, clock_text
from companion.widgets.last_game import last_game_html
from companion.widgets.rules_panel import RulesPanel, markdown_html
from tests.widgets.test_widgets import KEYS, TOKAIDO, tokaido_page, type_in


class FakeTime:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


def test_cells_are_named_player_and_field() -> None:
    page = GamePage("tokaido", 2)
    journey = page.form.cells["players[1].journey"].controls["n"]
    assert journey.tooltip == "Player 2: Score track"
    assert [box.tooltip for box in page.name_inputs[:2]] == ["Player 1", "Player 2"]
    page.name_inputs[1].value = "Aki"
    assert journey.tooltip == "Aki: Score track"
    assert page.form.cells["players[1].panorama_achievements"].controls["n"].tooltip == (
        "Aki: Panorama achievements"
    )
    shogun = GamePage("shogun", 3)
    shogun.name_inputs[0].value = "Ben"
    region = shogun.form.cells["players[0].regions.brown"]
    assert [c.tooltip for c in region.controls.values()] == [
        "Ben: Brown provinces",
        "Ben: Brown castles",
        "Ben: Brown temples",
        "Ben: Brown theaters",
    ]
    assert shogun.form.cells["year"].controls["c"].tooltip == "Winter of year"
    kamakura = GamePage("kamakura", 2)
    kamakura.name_inputs[0].value = "Cho"
    coins = kamakura.form.cells["players[0].site_coins"]
    coins.add_button.click()
    assert [c.tooltip for c in coins.items[0].values()] == [
        "Cho: Site coins (Memento order) 1 circle",
        "Cho: Site coins (Memento order) 1 points",
        "Cho: Site coins (Memento order) 1 colour",
    ]
    assert [c.tooltip for c in kamakura.tracker.counts] == [
        "Cho: site coins",
        "Player 2: site coins",
    ]


def test_every_control_of_every_pad_has_a_name() -> None:
    from scorers import GAME_IDS

    for game in GAME_IDS:
        page = GamePage(game)
        unnamed = [
            path
            for path, cell in page.form.cells.items()
            for control in cell.widgets()
            if not control.tooltip and not getattr(control, "description", "")
        ]
        assert unnamed == [], game


def test_an_untouched_shogun_pad_is_not_valid() -> None:
    page = GamePage("shogun", 3)
    for seat, name in enumerate(("Aki", "Ben", "Cho")):
        page.name_inputs[seat].value = name
    found = dict(page.form.problems())
    assert found["year"] == "missing (this field is required)"
    assert found["players[2].score_before"] == "missing (type 0 when there is none)"
    assert found["players[0].war_chests"] == "missing (type 0 when there is none)"
    assert page.form.save() is None
    assert "Every cell is filled in and valid" not in page.form.summary.value


def test_a_change_after_save_is_refused_and_said(db_path: Path) -> None:
    page = tokaido_page()
    assert page.form.save() == 1
    journey = page.form.cells["players[0].journey"].controls["n"]
    assert journey.disabled
    journey.value = "99"  # a change that arrived anyway (another device, a late message)
    assert journey.value == "58"
    assert "Game #1 is saved: that change was not kept" in page.form.status.value
    page.form.new_button.click()
    assert not journey.disabled and journey.value == ""


@pytest.mark.parametrize(
    ("how", "seat"),
    [("pad", 2), ("tracker", 1), ("draw", None), ("none", None)],
)
def test_the_start_player_is_saved_from_the_draw_the_tracker_or_the_pad(
    db_path: Path, how: str, seat: int | None
) -> None:
    page = tokaido_page()
    if how == "pad":
        page.form.start_choice.value = 2
    elif how == "tracker":
        page.tracker.start.value = 1
        page.tracker.next_button.click()
        assert page.form.start_choice.value == 1
    elif how == "draw":
        page.setup.seed.value = "7"
        drawn = page.setup.draw()
        seat = page.people().index(drawn["kyoto_line"][-1])
        assert page.form.start_choice.value == seat
    assert page.form.save() == 1
    with History(db_path) as history:
        assert history.get(1).start_player == seat


def test_the_clock_counts_pauses_and_times_each_round() -> None:
    now = FakeTime()
    clock = ClockPanel(now)
    assert clock.timing() is None and clock.button.description == "Start the clock"
    clock.start("round 1")
    now.now += 65
    assert clock.seconds() == 65 and "data-since" in clock.shown.value
    clock.pause()
    assert clock.button.description == "Resume" and "(paused)" in clock.shown.value
    now.now += 600  # a pause is left out
    clock.start()
    now.now += 10
    clock.next_round("round 2")
    now.now += 30
    found = clock.timing()
    assert found is not None
    assert found.seconds == 105 and found.rounds == (("round 1", 75), ("round 2", 30))
    again = ClockPanel(now)
    again.restore(clock.state())
    assert again.seconds() == 105 and again.running
    again.restore({"elapsed": -4, "since": "x", "rounds": [["r", -1], "bad"], "mark": 10**9})
    assert again.seconds() == 0 and again.rounds == [] and again.timing() is None
    assert [clock_text(s) for s in (0, 65, 3723)] == ["0:00", "1:05", "1:02:03"]


def test_the_clock_starts_with_the_first_round_and_is_saved_as_the_games_length(
    db_path: Path,
) -> None:
    page = tokaido_page()
    now = FakeTime()
    page.helpers.clock.now = now
    page.tracker.next_button.click()  # the first round's button starts the clock
    assert page.helpers.clock.running
    now.now += 20 * 60
    page.tracker.next_button.click()
    now.now += 5 * 60
    assert page.form.save() == 1
    with History(db_path) as history:
        assert history.get(1).duration_min == 25
        saved = timing(history, 1)
    assert saved is not None and saved.seconds == 25 * 60
    assert [label for label, _ in saved.rounds] == [
        "Stage 2: to the second inn",
        "Stage 3: to the third inn",
    ]
    assert "Time at the table: 25 min" in page.form.after.value


def test_the_rules_open_where_the_game_is_in_the_words_of_companion_rules() -> None:
    page = tokaido_page()
    fresh = GamePage("shimoda", 2)
    fresh.helpers.rules.button.click()
    assert fresh.helpers.rules.shown_topic == "setup"
    assert "<h3>Setting up</h3>" in fresh.helpers.rules.text.value
    page.helpers.rules.button.click()  # cells were typed: the scoring
    scoring = topic_for_phase("tokaido", "scoring")
    assert scoring is not None and page.helpers.rules.shown_topic == scoring.id
    page.helpers.rules.button.click()
    assert not page.helpers.rules.is_open
    rules = RulesPanel("tokaido", lambda: "round")
    rules.query.value = "how many meal cards"
    assert rules.shown_topic == "inns" and rules.hits.children
    topic = find_topic("tokaido", "inns")
    assert markdown_html(topic.body).startswith("<p>The four inns are compulsory stops")
    assert "<li>Nobody has to buy" in markdown_html(topic.body)
    assert (
        markdown_html("**<b>x</b>** `y` & z")
        == "<p><b>&lt;b&gt;x&lt;/b&gt;</b> <code>y</code> &amp; z</p>"
    )


def test_the_page_shows_the_last_game_with_its_winner(db_path: Path) -> None:
    page = tokaido_page()
    page.open()
    assert page.helpers.last.value == ""
    assert page.form.save() == 1
    assert "Last game: #1 on " in page.helpers.last.value
    result = page.form.result()
    winner = result["winners"][0]
    assert f"won by {winner} (" in page.helpers.last.value
    again = GamePage("tokaido", 3)
    again.open()
    assert again.helpers.last.value == page.helpers.last.value
    assert (
        last_game_html(
            {
                "id": 3,
                "played_at": "2026-01-02T10:00:00Z",
                "players": [{"name": "<i>", "total": 4}],
                "winners": ["<i>"],
            }
        )
        == "<p class='last-game-text'>Last game: #3 on 2026-01-02, won by &lt;i&gt; "
        "(&lt;i&gt; 4).</p>"
    )


def test_every_cell_keeps_its_values_across_a_reload_with_the_clock(db_path: Path) -> None:
    page = tokaido_page()
    page.form.start_choice.value = 1
    page.helpers.clock.start("Stage 1: to the first inn")
    again = GamePage("tokaido", 3)
    again.load_draft()
    assert again.form.start_choice.value == 1
    assert again.helpers.clock.running
    for seat, (_, *values) in TOKAIDO.items():
        for key, value in zip(KEYS, values, strict=True):
            assert again.form.cells[f"players[{seat}].{key}"].controls["n"].value == value
    type_in(again, "players[0].journey", "59")


def test_a_device_is_named_by_its_players_column_else_numbered() -> None:
    from companion.widgets.page import Devices

    devices = Devices()
    assert devices.name(None) == "this device"  # not on a served page
    assert devices.name("a") == "device 1"
    assert devices.name("b", "  Ben\t") == "Ben's device"  # by the name rule
    assert devices.name("c", "Cho\u3164") == "device 3"  # a name the rule refuses: numbered
    assert devices.name("b") == "device 2"  # back to everyone's columns
    assert devices.name("a", "Aki") == "Aki's device"


def test_a_clash_is_between_two_devices_whatever_they_are_named(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from companion.widgets import page as page_module

    page = tokaido_page(2)
    page.last_change.clear()  # what the test itself typed: no device
    cell = "players[0].journey"
    for device in (("s1", ""), ("s1", "Aki")):  # one phone, picking its column between
        monkeypatch.setattr(page_module, "sender", lambda device=device: device)
        type_in(page, cell, "5" + device[1])
    assert page.clash.value == ""
    monkeypatch.setattr(page_module, "sender", lambda: ("s2", "Aki"))  # another phone on Aki
    type_in(page, cell, "7")
    assert page.clash.value == (
        "<div class='clash-note' role='status'>Aki: journey: Aki&#x27;s device changed it to "
        "“7”; it was “5Aki” from Aki&#x27;s device.</div>"
    )
