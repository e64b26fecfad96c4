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
    [("pad", 2), ("first inn", None), ("draw", None), ("none", None)],
)
def test_the_start_player_is_saved_from_the_draw_or_the_pad(
    db_path: Path, how: str, seat: int | None
) -> None:
    page = tokaido_page()
    if how == "pad":
        page.form.start_choice.value = 2
    elif how == "first inn":  # who reached the first inn is not who started
        page.tracker.start.value = 1
        page.tracker.next_button.click()
        assert page.form.start_choice.value == -1
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


def test_the_drawn_start_player_stays_when_the_first_inn_is_chosen(db_path: Path) -> None:
    page = tokaido_page()
    assert "'Starts'" not in page.tracker.widget.children[2].value
    assert page.tracker.start.tooltip == "First at the inn"
    page.setup.seed.value = "7"
    drawn = page.setup.draw()
    seat = page.people().index(drawn["kyoto_line"][-1])
    assert page.tracker.first_start == seat and page.form.start_choice.value == seat
    other = (seat + 1) % 3
    page.tracker.start.value = other  # the Rounds panel's own hint: who reached the inn first
    page.tracker.next_button.click()
    assert page.tracker.message.startswith(f"{page.people()[other]} reached the first inn")
    assert page.tracker.first_start == seat and page.form.start_choice.value == seat
    again = GamePage("tokaido", 3)
    again.load_draft()
    assert again.tracker.first_start == seat and again.form.start_choice.value == seat
    assert page.form.save() == 1
    with History(db_path) as history:
        assert history.get(1).start_player == seat


def test_the_start_player_changes_only_when_the_table_changes_it() -> None:
    page = GamePage("kamakura", 3)
    for seat, name in enumerate(("Aki", "Ben", "Cho")):
        page.name_inputs[seat].value = name
    page.setup.seed.value = "4242"
    drawn = page.people().index(page.setup.draw()["start_player"])
    assert page.form.start_choice.value == drawn
    page.name_inputs[0].value = "Ada"  # a name changes: the start player does not
    assert page.tracker.first_start == drawn and page.form.start_choice.value == drawn
    chosen = (drawn + 1) % 3
    page.tracker.start.value = chosen  # the table says who starts the first round
    assert page.tracker.first_start == chosen and page.form.start_choice.value == chosen
    page.tracker.next_button.click()
    page.tracker.start.value = drawn  # who starts round 2 is not the game's start player
    assert page.tracker.round_number == 2
    assert page.tracker.first_start == chosen and page.form.start_choice.value == chosen
    shogun = GamePage("shogun", 3)
    for seat, bid in enumerate(("1 chest", "Province card", "2 chests")):
        shogun.tracker.bids[seat].value = bid
    shogun.tracker.start.value = 2
    shogun.tracker.next_button.click()  # the bids' action order starts season 2 with seat 1
    assert shogun.tracker.start.value == 1 and shogun.tracker.first_start == 2


def test_the_clock_started_with_its_button_keeps_every_round_and_not_the_scoring(
    db_path: Path,
) -> None:
    page = tokaido_page()
    now = FakeTime()
    clock = page.helpers.clock
    clock.now = now
    assert clock.button.tooltip == "Start the clock"  # the name holds the words shown
    clock.button.click()
    assert clock.running and clock.round_label == "Stage 1: to the first inn"
    for minutes in (10, 15, 12, 8):
        now.now += minutes * 60
        page.tracker.next_button.click()
    assert page.tracker.ending == "over" and clock.rounds_over
    now.now += 6 * 60  # the scoring
    page.tracker.next_button.click()  # pressed again: still no round
    type_in(page, "players[0].journey", "59")
    assert page.form.save() == 1
    with History(db_path) as history:
        saved = timing(history, 1)
    assert saved is not None and saved.seconds == 51 * 60
    assert saved.rounds == (
        ("Stage 1: to the first inn", 600),
        ("Stage 2: to the second inn", 900),
        ("Stage 3: to the third inn", 720),
        ("Stage 4: to Edo", 480),
    )
    assert not clock.running and clock.button.layout.display == "none"
    assert "(stopped: the game is saved)" in clock.shown.value
    clock.toggle()  # a late press from another device
    assert not clock.running
    page.form.new_button.click()
    assert clock.button.layout.display == "" and clock.button.description == "Start the clock"


def test_the_last_round_ends_when_the_scoring_begins() -> None:
    page = GamePage("kamakura", 2)
    now = FakeTime()
    clock = page.helpers.clock
    clock.now = now
    clock.button.click()
    now.now += 300
    page.tracker.counts[1].value = 8
    page.tracker.next_button.click()  # one last turn each: round 1 goes on
    assert page.tracker.ending == "last" and clock.rounds == []
    now.now += 120
    page.form.cells["players[0].site_coins"].add_button.click()
    now.now += 600
    found = clock.timing()
    assert found is not None and found.seconds == 1020
    assert found.rounds == (("Round 1", 420),)


def test_a_draft_left_with_nobody_at_it_comes_back_paused(db_path: Path) -> None:
    from companion.widgets.clock_panel import LOST_SECONDS

    page = tokaido_page()
    now = FakeTime()
    page.helpers.clock.now = now
    page.helpers.clock.button.click()
    now.now += 25 * 60
    assert page.helpers.clock.beat()  # the kernel's beat: the game is still open
    page._keep()
    left = now.now
    soon = GamePage("tokaido", 3)  # back within a minute (a reload, a restarted server)
    soon_now = FakeTime()
    soon_now.now = left + 50
    soon.helpers.clock.now = soon_now
    soon.load_draft()
    assert soon.helpers.clock.running and soon.helpers.clock.seconds() == 25 * 60 + 50
    later = GamePage("tokaido", 3)  # the next day: the pages were closed
    later_now = FakeTime()
    later_now.now = left + 86_400
    later.helpers.clock.now = later_now
    later.load_draft()
    clock = later.helpers.clock
    assert not clock.running and clock.seconds() == 25 * 60
    assert "25:00" in clock.shown.value and "(paused)" in clock.shown.value
    assert clock.button.description == "Resume"
    assert LOST_SECONDS < 86_400


def test_the_kernels_beat_notes_a_running_clock(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import asyncio

    from companion.widgets import helpers

    monkeypatch.setattr(helpers, "BEAT_SECONDS", 0.01)
    page = tokaido_page()
    now = FakeTime()
    page.helpers.clock.now = now
    page.helpers.clock.start("Stage 1: to the first inn")
    page.helpers.start_beat()  # no event loop: nothing
    assert page.helpers.beating is None

    async def open_for_a_while() -> None:
        page.helpers.start_beat()
        now.now += 600
        await asyncio.sleep(0.2)
        page.keeper.flush()
        assert page.helpers.beating is not None
        page.helpers.beating.cancel()

    asyncio.run(open_for_a_while())
    found = page.drafts.latest()
    assert found is not None
    assert found[1]["clock"]["seen"] == now.now
    assert found[1]["clock"]["since"] == now.now - 600


def heads(page: GamePage) -> list[str]:
    """Each column heading's state, as "My column" reads it."""
    return [
        "done" if "column-done" in head._dom_classes else "open"
        for head in page.form.head_labels
        if {"column-done", "column-open"} & set(head._dom_classes)
    ]


def test_a_column_is_done_when_it_is_valid_empty_boxes_meaning_zero_included() -> None:
    page = GamePage("shogun", 3)
    for seat, name in enumerate(("Aki", "Ben", "Cho")):
        page.name_inputs[seat].value = name
    assert heads(page) == ["open", "open", "open"]
    page.form.cells["year"].controls["c"].value = 2
    for seat in range(3):
        page.form.cells[f"players[{seat}].regions.brown"].controls["provinces"].value = "2"
        for key in ("score_before", "war_chests"):
            page.form.cells[f"players[{seat}].{key}"].controls["n"].value = "0"
        if seat == 1:
            assert heads(page) == ["done", "done", "open"]
    empty = [
        box
        for cell in page.form.cells.values()
        for box in cell.controls.values()
        if isinstance(box.value, str) and box.value == ""
    ]
    assert len(empty) > 20  # the other regions' boxes are empty: zero
    assert page.form.summary.value == "<div class='ok'>Every cell is filled in and valid.</div>"
    assert heads(page) == ["done", "done", "done"]
    page.form.cells["players[2].regions.brown"].controls["castles"].value = "9"  # a mistake
    assert heads(page) == ["done", "done", "open"]
    page.name_inputs[0].value = ""  # the names at the top are not a column's cells
    assert heads(page) == ["done", "done", "open"]
    assert page.form.open_columns(
        [("players[1]", "x"), ("year", "y"), ("players[0].name", "z")]
    ) == {1}


def press_action_order(page: GamePage) -> None:
    """Each player's bid, then the tracker's button (as a device does)."""
    for box, value in zip(page.tracker.bids, ("4 chests", "3 chests", "2 chests"), strict=True):
        box.value = value
    page.tracker.next_button.click()


def test_shogun_s_season_times_are_the_seasons_played(db_path: Path) -> None:
    """A season's action order is given as it begins: the time after it is that season's."""
    page = GamePage("shogun", 3)
    for k, name in enumerate(("Aki", "Ben", "Cho")):
        page.name_inputs[k].value = name
    now = FakeTime()
    clock = page.helpers.clock
    clock.now = now
    clock.button.click()  # before the first bids
    assert clock.round_label == "Year 1, spring"
    for minutes in (10, 11, 12, 13, 14, 15):
        now.now += 60  # the season's bids
        press_action_order(page)  # the action order
        now.now += minutes * 60  # the season's actions
    assert page.tracker.ending == "last" and not clock.rounds_over
    type_in(page, "players[0].regions.brown", "2", "provinces")  # the final scoring begins
    assert clock.rounds_over
    now.now += 5 * 60
    found = clock.timing()
    assert found is not None and found.seconds == (6 + 75 + 5) * 60
    assert found.rounds == (
        # Each season: its actions and the next season's bids (spring: its own bids too).
        ("Year 1, spring", 60 + 10 * 60 + 60),
        ("Year 1, summer", 11 * 60 + 60),
        ("Year 1, autumn", 12 * 60 + 60),
        ("Year 2, spring", 13 * 60 + 60),
        ("Year 2, summer", 14 * 60 + 60),
        ("Year 2, autumn", 15 * 60),  # the final scoring is no season's
    )


def test_shogun_s_clock_started_by_the_first_action_order_names_the_first_season() -> None:
    page = GamePage("shogun", 3)
    now = FakeTime()
    clock = page.helpers.clock
    clock.now = now
    press_action_order(page)  # the first press starts the clock: spring's actions
    assert clock.running and clock.round_label == "Year 1, spring"
    now.now += 600
    press_action_order(page)
    assert clock.round_label == "Year 1, summer" and clock.rounds == [("Year 1, spring", 600)]


@pytest.mark.parametrize(("game", "players"), [("tokaido", 5), ("shibuya", 4)])
def test_a_name_typed_changes_only_its_own_heading(game: str, players: int) -> None:
    """Every widget change is a message to every device: a key in a name box changes one
    column heading, not every heading twice (to the score file's name, then back)."""
    page = GamePage(game, players)
    page.name_inputs[0].value = "Aki"
    changed: list[tuple[int, str]] = []
    for k, head in enumerate(page.form.head_labels):
        head.observe(lambda change, k=k: changed.append((k, change["new"])), names="value")
    page.name_inputs[0].value = "Akir"
    assert changed == ([] if page.teams else [(0, "<b>Akir</b>")])
    second = page.kit.team_names[1] if page.teams else "Player 2"
    assert page.form.head_labels[1].value == f"<b>{second}</b>"
