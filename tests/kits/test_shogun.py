"""Shogun's kit: the action order rule, the entry codes and the winter's pad description."""

from __future__ import annotations

from typing import Any

import pytest

from companion.kits import KITS, PadOptions
from companion.kits.pad import document
from companion.kits.rounds import RoundState
from companion.kits.shogun import board_problems
from companion.kits.shogun.codes import NO_BID, PROVINCE, RegionCodec, YearCodec

KIT = KITS["shogun"]
NAMES = ["Aki", "Ben", "Cho"]
SPECIAL = " Special cards are taken from the highest bid down, equal bids in the drawn order."


def state(bids: list[str], number: int = 1, seed: int = 4242) -> RoundState:
    return RoundState(NAMES, NAMES, number, 0, bids, seed=seed)


def test_the_action_order_puts_a_province_card_first_then_chests_from_the_highest() -> None:
    step = KIT.rounds.apply(state(["0 chests", PROVINCE, "3 chests"]))
    assert step.message == (
        "Year 1, spring: action order Ben (province card), Cho (3), Aki (0)." + SPECIAL
    )
    assert (step.round, step.start, step.clear) == (2, 1, True)


def test_equal_bids_are_drawn_with_the_seed_shown_and_autumn_announces_the_winter() -> None:
    step = KIT.rounds.apply(state(["0 chests", "0 chests", NO_BID], number=3))
    assert step.message == (
        "Year 1, autumn: action order Ben (0), Aki (0), Cho (no bid). Seed 4242: equal bids "
        "(0) drawn: Ben, Aki." + SPECIAL + " After the actions: winter of year 1 (an interim "
        "scoring)."
    )
    assert (step.round, step.start, step.clear) == (4, 1, True)
    # The same seed draws the same order.
    again = KIT.rounds.apply(state(["0 chests", "0 chests", NO_BID], number=3))
    assert again == step


def test_the_last_season_stays_the_last_and_says_the_final_scoring() -> None:
    step = KIT.rounds.apply(state(["4 chests"] * 3, number=6))
    assert step.message == (
        "Year 2, autumn: action order Aki (4), Ben (4), Cho (4). Seed 4242: equal bids (4) "
        "drawn: Aki, Ben, Cho." + SPECIAL + " After the actions: winter of year 2, the final "
        "scoring: score it below."
    )
    assert (step.round, step.start) == (6, 0)


def test_a_missing_bid_changes_nothing() -> None:
    step = KIT.rounds.apply(RoundState(NAMES, NAMES, 2, 2, ["", "1 chest", ""], seed=7))
    assert step.message == "Choose the bid of Aki and Cho first."
    assert (step.round, step.start, step.clear) == (2, 2, False)


def test_the_seasons_and_the_bids_offered() -> None:
    assert [KIT.rounds.text(n) for n in (1, 4, 6)] == [
        "Year 1, spring",
        "Year 2, spring",
        "Year 2, autumn",
    ]
    assert KIT.rounds.choices[0] == ("– choose –", "")
    assert [v for _, v in KIT.rounds.choices[1:]] == [
        "4 chests",
        "3 chests",
        "2 chests",
        "1 chest",
        "0 chests",
        PROVINCE,
        NO_BID,
    ]


@pytest.mark.parametrize(
    "value",
    [
        {"provinces": 3, "castles": 1, "temples": 0, "theaters": 2},
        {"provinces": 9, "castles": 9, "temples": 9, "theaters": 9},
        {"provinces": 1, "castles": 0, "temples": 0, "theaters": 0},
        None,
    ],
)
def test_a_region_reads_back_as_written(value: Any) -> None:
    codec = RegionCodec("brown")
    assert codec.read(codec.write(value)) == (value, None)


def test_a_region_is_read_in_short_forms() -> None:
    codec = RegionCodec("red")
    full = {"provinces": 3, "castles": 1, "temples": 0, "theaters": 2}
    assert codec.read("3102") == (full, None)
    assert codec.read("3 1") == ({"provinces": 3, "castles": 1, "temples": 0, "theaters": 0}, None)
    assert codec.read("-") == (None, None)
    assert codec.read("0") == (None, None)  # nothing held: the region is left out
    assert codec.write(full) == "3 1 0 2"
    assert codec.write({}) == ""


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("3 x", "up to four whole numbers: provinces castles temples theatres"),
        ("3 1 0 2 1", "up to four whole numbers: provinces castles temples theatres"),
        ("12", "red: 2 castles in 1 province (one per province at most)"),
        ("10 0", "red: a region has 9 provinces"),
        ("2 3", "red: 3 castles in 2 provinces (one per province at most)"),
    ],
)
def test_a_wrong_region_says_what_is_wrong(text: str, problem: str) -> None:
    assert RegionCodec("red").read(text) == (None, problem)


def test_the_year_reads_back_as_written() -> None:
    codec = YearCodec()
    assert [codec.read(codec.write(y)) for y in (1, 2)] == [(1, None), (2, None)]
    assert codec.read("3") == (None, "the winter of year 1 or 2")
    assert codec.read("") == (None, None)
    assert codec.hint == "2 for the end of the game, 1 for the first winter"


def test_the_pad_rows_and_their_bounds() -> None:
    spec = KIT.pad(PadOptions(3, tuple(NAMES)))
    rows = [(r.id, r.label, r.field, r.low, r.high, r.shared) for r in spec.rows]
    regions = [
        (r, r.capitalize(), f"regions.{r}", 0, None, False)
        for r in ("brown", "yellow", "red", "purple", "green")
    ]
    assert rows == [
        ("before", "Score before this winter", "score_before", 0, 210, False),
        *regions,
        ("chests", "War chests", "war_chests", 0, 200, False),
        ("year", "Winter of year", "year", 0, None, True),
    ]
    assert [value for _, value in spec.rows[7].options] == ["", 2, 1]  # the scorer's YEARS
    assert [r.heading for r in spec.rows[1:6]] == [True] * 5  # one heading above the grid
    assert [(p.key, p.high) for p in spec.rows[1].parts] == [
        ("provinces", 9),
        ("castles", 9),
        ("temples", 9),
        ("theaters", 9),
    ]
    assert [r.id for r in spec.rows if r.required] == ["before", "chests"]
    first = KIT.pad(PadOptions(3, tuple(NAMES), context={"year": 1}))
    assert [r.id for r in first.rows] == [
        "brown",
        "yellow",
        "red",
        "purple",
        "green",
        "year",
    ]


def test_the_pad_makes_the_winter_score_file() -> None:
    spec = KIT.pad(PadOptions(3, tuple(NAMES), context={"year": 2}))
    values = {"year": 2, "before.0": 10, "brown.0": {"provinces": 2}, "chests.2": 4}
    doc = document(spec, "shogun", NAMES, values)
    assert doc == {
        "game": "shogun",
        "year": 2,
        "players": [
            {"name": "Aki", "regions": {"brown": {"provinces": 2}}, "score_before": 10},
            {"name": "Ben", "regions": {}},
            {"name": "Cho", "regions": {}, "war_chests": 4},
        ],
    }
    assert spec.extra is not None
    assert spec.extra(doc) == []
    assert spec.extra({**doc, "year": 1}) == [
        ("this pad scores the winter of year 2: keep 2", ["year"])
    ]


def test_too_many_provinces_in_a_region_names_every_holder() -> None:
    def player(brown: int) -> dict[str, Any]:
        return {"regions": {"brown": {"provinces": brown}}}

    file = {"players": [player(5), player(0), player(5)]}
    assert board_problems(file) == [
        (
            "10 brown provinces held in all (the region has 9)",
            ["players[0].regions.brown", "players[2].regions.brown"],
        )
    ]
