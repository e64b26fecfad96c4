"""Kamakura's kit: the tracker's 8-coin end, the pad's entry codes and its two faces."""

from __future__ import annotations

from typing import Any

import pytest

from companion.kits import KITS, PadOptions
from companion.kits.kamakura.codes import (
    ClaimCodec,
    CoinsCodec,
    NumbersCodec,
    PiecesCodec,
    TicketsCodec,
    TourCodec,
    ToursCodec,
)
from companion.kits.pad import document
from companion.kits.rounds import RoundState, Step

KIT = KITS["kamakura"]
NAMES = ("Aki", "Ben", "Cho")


def test_nobody_with_8_coins_goes_to_the_next_round() -> None:
    step = KIT.rounds.apply(RoundState(NAMES, NAMES, 3, 1, [7, 2, 0]))
    assert step == Step("Nobody has 8 site coins yet: round 4.", 4, 1)


def test_8_coins_give_everyone_else_one_last_turn() -> None:
    step = KIT.rounds.apply(RoundState(NAMES, NAMES, 5, 0, [3, 8, 2]))
    assert step == Step("Ben has 8 site coins: one last turn each for Cho, Aki.", 5, 0, last=True)
    assert KIT.rounds.text(2) == "Round 2"


COINS = [
    [],
    [{"circle": "B", "value": 3, "color": "pink"}],
    [{"circle": "C", "value": 2, "color": "green"}, {"circle": "F", "value": 4, "color": "blue"}],
]


@pytest.mark.parametrize("value", COINS)
def test_site_coins_read_back_as_written(value: list[dict[str, Any]]) -> None:
    codec = CoinsCodec()
    assert codec.read(codec.write(value)) == (value, None)


def test_site_coins_codes() -> None:
    assert CoinsCodec().write(COINS[2]) == "C2g Fb"
    assert CoinsCodec({"C": (2, "green")}).read("C Fb")[0] == COINS[2]
    assert CoinsCodec().read("-") == ([], None)
    assert CoinsCodec().read("C") == (None, "circle C: add its value and colour letter, e.g. C2p")
    assert CoinsCodec().read("B5p") == (None, "circle B's coin is worth 3 (the rulebook's value)")
    assert CoinsCodec().read("Ap") == (None, "circle A is a station: it holds no site coin")
    assert CoinsCodec().read("Bp Bp") == (
        None,
        "circle B twice: each player holds one coin of a circle at most",
    )
    assert CoinsCodec().read("B9x") == (
        None,
        "not a coin: B9x (circle letter, value if needed, colour: C2p)",
    )


@pytest.mark.parametrize(
    ("codec", "value"),
    [
        (NumbersCodec(), [2, 1, 3]),
        (NumbersCodec(), []),
        (PiecesCodec(), ["A", "A"]),
        (TicketsCodec(), [{"circle": "B", "points": 2}, {"circle": "F", "points": 3}]),
        (TicketsCodec(), []),
        (TourCodec("A"), {"card": "A", "kind": "collection", "circles": ["B", "F"], "points": 5}),
        (TourCodec("I"), {"card": "I", "kind": "genre", "color": "pink", "points": 4}),
        (TourCodec("L"), {"card": "L", "kind": "big_eater", "points": 3}),
        (ClaimCodec(NAMES), "Ben"),
        (
            ToursCodec(),
            [
                {
                    "card": "A",
                    "kind": "collection",
                    "circles": ["B"],
                    "points": 5,
                    "claimed_by": "Aki",
                },
                {"card": "M", "kind": "rendezvous", "points": 2},
            ],
        ),
    ],
)
def test_codes_read_back_as_written(codec: Any, value: Any) -> None:
    assert codec.read(codec.write(value)) == (value, None)


def test_bad_codes_say_what_is_wrong() -> None:
    assert NumbersCodec().read("2 x") == (None, "not a value: x")
    assert NumbersCodec().read("11") == (None, "at most 15 coins, each worth at most 10")
    assert PiecesCodec().read("B B") == (
        None,
        "both pieces on circle B: only A and N hold more than one piece",
    )
    assert TicketsCodec().read("B") == (
        None,
        "not a ticket: B (circle letter and bonus, e.g. B2)",
    )
    assert TourCodec("I").read("red 4") == (
        None,
        "the colour (pink, green or blue), then the bonus: e.g. pink 4",
    )
    assert TourCodec("L").read("21") == (
        None,
        "end with the bonus printed on the card, a number up to 20",
    )
    assert ClaimCodec(NAMES).read("-") == (None, None)
    assert ClaimCodec(NAMES).read("b") == ("Ben", None)
    assert ClaimCodec(NAMES).read("Nobody completed it") == (None, None)
    assert ClaimCodec(NAMES).read("Dai") == (
        None,
        "one of Aki, Ben, Cho (or A to C), or - for nobody",
    )
    assert ToursCodec().read("Z 3") == (None, "the tour cards are A to M, got Z")


def test_the_web_pad_has_the_rules_and_the_list_of_tour_cards() -> None:
    spec = KIT.pad(PadOptions(2, ("Aki", "Ben")))
    assert [(r.id, r.label, r.field) for r in spec.rows] == [
        ("track", "Point track", "track"),
        ("coins", "Site coins (Memento order)", "site_coins"),
        ("eat", "Eat-around coins", "eat_coins"),
        ("pieces", "Pieces at the end", "pieces"),
        ("tickets", "Unused taxi tickets", "taxi_tickets"),
        ("advanced", "Advanced rules", "advanced"),
        ("tours", "Tour cards in play", "tours"),
    ]
    assert (spec.rows[0].low, spec.rows[0].high) == (0, 100)
    tours = spec.rows[-1]
    assert tours.finish is not None
    assert tours.finish({"card": "C", "circles": "b, f", "points": 5}) == {
        "card": "C",
        "kind": "collection",
        "circles": ["B", "F"],
        "points": 5,
    }


def test_the_terminal_pad_has_a_row_per_card_and_fills_the_file() -> None:
    context = {"tours": ["A", "L"], "advanced": True}
    spec = KIT.pad(PadOptions(2, ("Aki", "Ben"), context=context))
    assert [r.id for r in spec.rows] == [
        "track",
        "coins",
        "eat",
        "tickets",
        "tour.A",
        "claim.A",
        "tour.L",
    ]
    values = {
        "track.0": 3,
        "coins.0": COINS[1],
        "tour.A": {"card": "A", "kind": "collection", "circles": ["B"], "points": 5},
        "claim.A": "Aki",
        "tour.L": {"card": "L", "kind": "big_eater", "points": 3},
    }
    file = document(spec, "kamakura", ["Aki", "Ben"], values)
    assert file["advanced"] is True
    assert file["tours"][0]["claimed_by"] == "Aki"
    assert file["players"][0] == {
        "name": "Aki",
        "pieces": ["A", "N"],
        "track": 3,
        "site_coins": COINS[1],
    }
