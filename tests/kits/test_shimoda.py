"""Shimoda's kit: the round tracker's rule, the entry codes' round trips, the pad's rows."""

from __future__ import annotations

from typing import Any

import pytest

from companion.kits import KITS, PadOptions
from companion.kits.pad import PadSpec, document
from companion.kits.rounds import RoundState, Step
from companion.kits.shimoda import KIT, MerchantCodec, tourist_problems
from companion.kits.shimoda.codes import CardCodec, SpaceCodec

NAMES = ("Aki", "Ben")


def state(round_number: int, start: int, values: list[int]) -> RoundState:
    return RoundState(names=NAMES, sides=NAMES, round=round_number, start=start, values=values)


def test_fewer_tourists_start_the_next_round() -> None:
    assert KIT.rounds.apply(state(1, 0, [5, 3])) == Step(
        "Ben starts round 2 (fewer tourists).", 2, 1
    )
    assert KIT.rounds.apply(state(3, 1, [2, 4])) == Step(
        "Aki starts round 4 (fewer tourists).", 4, 0
    )


def test_a_tie_passes_the_marker() -> None:
    assert KIT.rounds.apply(state(2, 0, [4, 4])) == Step(
        "Ben starts round 3 (a tie: the marker passes).", 3, 1
    )


def test_the_seventh_round_is_the_last() -> None:
    assert KIT.rounds.apply(state(7, 1, [1, 9])) == Step(
        "Round 7 was the last: place the victory markers and score the game below.",
        7,
        1,
        over=True,
    )
    assert KIT.rounds.text(3) == "Round 3 of 7"
    assert KIT.rounds.button == "End the round"
    assert KIT.rounds.count_name == "tourists on the street"


CARDS: list[dict[str, Any]] = [
    {"color": "blue", "scoring": {"type": "color", "color": "yellow", "points": 3, "range": 3}},
    {
        "color": "black",
        "scoring": {"type": "pair", "colors": ["red", "pink"], "points": 5, "range": 5},
    },
    {"color": "red", "scoring": {"type": "any", "points": 1, "range": 1}},
    {"color": "pink", "scoring": {"type": "victory_markers", "points": 4, "range": 7}},
]


@pytest.mark.parametrize("card", CARDS)
def test_a_card_reads_back_as_written(card: dict[str, Any]) -> None:
    codec = CardCodec()
    assert codec.read(codec.write(card)) == (card, None)


def test_card_codes_as_typed() -> None:
    codec = CardCodec()
    assert codec.write(CARDS[0]) == "b y 3 3"
    assert codec.write(CARDS[1]) == "k rp 5 5"
    assert codec.read("by33") == (CARDS[0], None)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("b y 3", "four parts: colour, what it scores, points, range (e.g. b y 3 3)"),
        ("x y 3 3", "'x' is not a card colour: b k r y p"),
        ("b y 11 3", "'11' is not the points printed (0 to 10)"),
        ("b y 3 4", "'4' is not a range: 1, 3, 5 or 7"),
        ("by33c1", "chair icons go with the space's tourists (e.g. kyp c1), not the card"),
    ],
)
def test_a_wrong_card_code_says_why(text: str, problem: str) -> None:
    assert CardCodec().read(text) == (None, problem)


SPACES: list[dict[str, Any]] = [
    {"tourists": {}},
    {"tourists": {"black": 1, "yellow": 1, "pink": 1}},
    {"tourists": {"blue": 2}, "chairs": 1},
    {"tourists": {}, "chairs": 2},
]


@pytest.mark.parametrize("space", SPACES)
def test_a_space_reads_back_as_written(space: dict[str, Any]) -> None:
    codec = SpaceCodec()
    assert codec.read(codec.write(space)) == (space, None)


def test_space_codes_as_typed() -> None:
    codec = SpaceCodec()
    assert [codec.write(s) for s in SPACES] == ["-", "kyp", "bb c1", "- c2"]
    assert codec.read("yy") == ({"tourists": {"yellow": 2}}, None)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("", "the tourists' colour letters (b k r y p, e.g. kyp), '-' for none"),
        ("bb k", "the tourists' colour letters (b k r y p, e.g. kyp), '-' for none"),
        ("bx", "unknown colour letter x (use b k r y p)"),
        ("bbbb", "4 tourists (a space holds at most 3)"),
        ("b c6", "6 chair icons: a card shows at most 5"),
    ],
)
def test_a_wrong_space_code_says_why(text: str, problem: str) -> None:
    assert SpaceCodec().read(text) == (None, problem)


def test_a_merchant_is_a_name_or_none() -> None:
    codec = MerchantCodec()
    assert codec.read(codec.write("Florist")) == ("Florist", None)
    assert codec.read("-") == (None, None)
    assert codec.write(None) == ""


def spec() -> PadSpec:
    made = KITS["shimoda"].pad(PadOptions(2, NAMES))
    assert isinstance(made, PadSpec)
    return made


def test_the_pad_rows_and_their_bounds() -> None:
    rows = spec().rows
    assert [(r.id, r.label, r.field) for r in rows[:6]] == [
        ("merchant", "Merchant", "merchant"),
        ("points", "Merchant points", "merchant_points"),
        ("shop1", "Shop 1", "street[0].card"),
        ("tourists1", "Shop 1 tourists", "street[0]"),
        ("shop2", "Shop 2", "street[1].card"),
        ("tourists2", "Shop 2 tourists", "street[1]"),
    ]
    assert len(rows) == 16
    assert (rows[1].low, rows[1].high) == (0, 99)
    assert [p.key for p in rows[3].parts] == [
        "tourists.blue",
        "tourists.black",
        "tourists.red",
        "tourists.yellow",
        "tourists.pink",
        "chairs",
    ]


def test_the_pad_makes_a_score_file_the_scorer_reads() -> None:
    from scorers import SCORERS

    pad = spec()
    values: dict[str, Any] = {"merchant.0": "Florist", "points.0": 2, "points.1": 0}
    for seat in (0, 1):
        for k in range(7):
            values[f"shop{k + 1}.{seat}"] = CARDS[k % 4]
            values[f"tourists{k + 1}.{seat}"] = SPACES[k % 4] if seat == 0 else SPACES[0]
    file = document(pad, "shimoda", NAMES, values)
    assert file["players"][0]["street"][2] == {
        "card": CARDS[2],
        "tourists": {"blue": 2},
        "chairs": 1,
    }
    result = SCORERS["shimoda"].score_json(file)
    assert [p.name for p in result.players] == ["Aki", "Ben"]


def test_too_many_tourists_of_a_colour_mark_every_space_holding_it() -> None:
    street = [{"tourists": {"blue": 3}}] * 2 + [{"tourists": {}}] * 5
    other = [{"tourists": {"blue": 2}}] + [{"tourists": {}}] * 6
    file = {"players": [{"street": street}, {"street": other}]}
    assert tourist_problems(file) == [
        (
            "8 blue tourists on the streets (there are 7)",
            [
                "players[0].street[0].tourists",
                "players[0].street[1].tourists",
                "players[1].street[0].tourists",
            ],
        )
    ]


def test_the_drawing_escapes_names() -> None:
    assert KIT.drawing is not None
    svg = KIT.drawing({"players": []}, ["<b>", "Ben"])
    assert "&lt;b&gt;'s street" in svg
    assert "<b>" not in svg
