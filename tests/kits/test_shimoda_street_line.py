"""Shimoda's street in one line (the web pad's *Shop cards* entry), pure: cell values in and out."""

from __future__ import annotations

from typing import Any

import pytest

from companion.kits import KITS, PadOptions
from companion.kits.pad import LineEntry, LineReading
from companion.kits.shimoda.street_line import CARD_ROWS, SPACE_ROWS, STREET_LINE, pad_spaces

AKI = "ry33 btwo35c1 y rp 5 3 pvm47 kany11 rchair35c2 ball75"
ANY = {"type": "any", "points": 1, "range": 5}


def card(colour: str, **scoring: Any) -> dict[str, Any]:
    return {"color": colour, "scoring": scoring}


AKI_CARDS = {
    "shop1": card("red", type="color", color="yellow", points=3, range=3),
    "shop2": card("blue", type="exactly_two", points=3, range=5),
    "shop3": card("yellow", type="pair", colors=["red", "pink"], points=5, range=3),
    "shop4": card("pink", type="victory_markers", points=4, range=7),
    "shop5": card("black", type="any", points=1, range=1),
    "shop6": card("red", type="chairs", points=3, range=5),
    "shop7": card("blue", type="all_colors", points=7, range=5),
}


def street(cards: dict[str, Any], chairs: dict[int, Any] | None = None) -> dict[str, Any]:
    """A column's values as the pad holds them: the cards, each space's tourists and chairs."""
    values = dict(cards)
    for k, row in enumerate(SPACE_ROWS, 1):
        values[row] = {"tourists": {}}
        if chairs and k in chairs:
            values[row]["chairs"] = chairs[k]
    return values


AKI_PAD = street(AKI_CARDS, {2: 1, 6: 2})


def test_the_kit_gives_its_street_line_after_the_merchant_points() -> None:
    kit = KITS["shimoda"]
    entry: LineEntry | None = kit.line_entry
    assert entry is STREET_LINE
    ids = [row.id for row in kit.pad(PadOptions(2)).rows]
    assert entry.after == "points" and "points" in ids
    assert set(entry.rows) <= set(ids)
    assert entry.rows == (*CARD_ROWS, *SPACE_ROWS)
    assert (entry.label, entry.key) == ("Shop cards", "shop_cards")
    assert entry.placeholder == "ry33 bany15 … (=5: as the other's 5)"


def test_a_whole_line_fills_the_cards_and_the_chairs_that_differ() -> None:
    reading = STREET_LINE.read(AKI, street({}), {})
    assert reading == LineReading(
        {**AKI_CARDS, "tourists2": {"chairs": 1}, "tourists6": {"chairs": 2}},
        frozenset(SPACE_ROWS),
        waiting=False,
    )
    # The chairs the pad holds already are left as they are; chairs the line drops are emptied.
    held = street(AKI_CARDS, {2: 1, 3: 4})
    assert STREET_LINE.read(AKI, held, {}).fill == {
        **AKI_CARDS,
        "tourists3": {"chairs": None},
        "tourists6": {"chairs": 2},
    }


@pytest.mark.parametrize(
    ("text", "waiting"),
    [
        ("", False),
        ("ry33 b two 3", False),
        ("ry33 bx35", False),
        (AKI + " kany11", False),
        ("=5 by33", True),  # =5 names a card of the other street, not on the pad yet
    ],
)
def test_a_line_that_does_not_read_whole_fills_nothing(text: str, waiting: bool) -> None:
    assert STREET_LINE.read(text, AKI_PAD, {}) == LineReading(None, frozenset(), waiting)


def test_a_card_of_the_other_street_is_read_from_its_values() -> None:
    line = "=2 =6 bany15 bany15 bany15 bany15 bany15"
    assert STREET_LINE.read(line, {}, street({})).fill is None
    reading = STREET_LINE.read(line, {}, AKI_PAD)
    assert reading.fill is not None
    assert reading.fill["shop1"] == AKI_CARDS["shop2"]
    assert reading.fill["shop2"] == AKI_CARDS["shop6"]
    assert reading.fill["tourists1"] == {"chairs": 1}  # the chairs come with the card
    assert reading.fill["tourists2"] == {"chairs": 2}
    assert reading.fill["shop3"] == card("blue", **ANY)
    assert "tourists3" not in reading.fill


def test_the_line_the_cells_hold() -> None:
    assert STREET_LINE.write(AKI_PAD) == "ry33 btwo35c1 yrp53 pvm47 kany11 rchair35c2 ball75"
    assert STREET_LINE.write(street(AKI_CARDS)) == "ry33 btwo35 yrp53 pvm47 kany11 rchair35 ball75"
    missing = dict(AKI_PAD)
    del missing["shop4"]
    assert STREET_LINE.write(missing) is None
    half = {**AKI_PAD, "shop4": card("pink", type="victory_markers", points=4)}
    assert STREET_LINE.write(half) is None  # a card without its range is not whole
    wrong = {**AKI_PAD, "tourists1": {"tourists": {}, "chairs": "x"}}
    assert STREET_LINE.write(wrong) is None
    assert STREET_LINE.read(STREET_LINE.write(AKI_PAD) or "", AKI_PAD, {}).fill == AKI_CARDS


def test_pad_spaces_are_the_whole_cards_with_their_chairs() -> None:
    spaces = pad_spaces({**AKI_PAD, "shop4": {"color": "pink"}})
    assert spaces[0] == {"card": AKI_CARDS["shop1"], "chairs": 0}
    assert spaces[1] == {"card": AKI_CARDS["shop2"], "chairs": 1}
    assert spaces[3] is None
    assert pad_spaces({}) == [None] * 7


NAMES = ["Aki", "Ben"]


def test_said_with_nothing_typed_is_a_hint_for_each_seat() -> None:
    assert STREET_LINE.said("", {}, {}, 0, NAMES) == [
        (
            "Aki's 7 cards, space 1 to 7 from Aki's left, in the terminal's codes: "
            "by33 bany15 … (=5: the card on Ben's space 5)",
            "hint",
        )
    ]
    assert STREET_LINE.said("  ", {}, {}, 1, NAMES) == [
        (
            "Ben's 7 cards, space 1 to 7 as the pad numbers them (space 1 faces Aki's space 1), "
            "in the terminal's codes: by33 bany15 … (=5: the card on Aki's space 5)",
            "hint",
        )
    ]
    assert STREET_LINE.said("", {}, {}, 1, ["Aki"])[0][0].startswith("Player 2's 7 cards")
    assert STREET_LINE.said("", {}, {}, 0, ["Aki"])[0][0].endswith(
        "(=5: the card on the other player's space 5)"
    )


def test_said_as_a_street_is_typed() -> None:
    assert STREET_LINE.said("ry33 b two 3", {}, {}, 0, NAMES) == [
        ("Space 1: a red card, 3 points per yellow tourist, over 3 spaces centred on it", ""),
        ("Space 2: a blue card, 3 points per space with exactly 2 tourists ...", "typing"),
        ("6 more cards to type.", "hint"),
    ]
    assert STREET_LINE.said("=2 =", {}, AKI_PAD, 1, NAMES) == [
        (
            "Space 1: as Aki's space 2: a blue card, 3 points per space with exactly 2 "
            "tourists, over 5 spaces, 1 chair icon on it",
            "",
        ),
        ("Space 2: as Aki's space …", "typing"),
        ("6 more cards to type.", "hint"),
    ]
    assert STREET_LINE.said("bany15 " * 6, {}, {}, 0, NAMES)[-1] == ("1 more card to type.", "hint")


def test_said_for_a_wrong_line_and_a_whole_one() -> None:
    assert STREET_LINE.said("ry33 bx35", {}, {}, 0, NAMES) == [
        ("Space 1: a red card, 3 points per yellow tourist, over 3 spaces centred on it", ""),
        (
            "Space 2 (bx35): 'x' is not what a card scores: a colour, a pair (rp), any, two, "
            "all, three, chair, vm",
            "problem",
        ),
    ]
    assert STREET_LINE.said(AKI, AKI_PAD, {}, 0, NAMES)[-1] == ("All 7 cards are on the pad.", "ok")
    assert len(STREET_LINE.said(AKI, AKI_PAD, {}, 0, NAMES)) == 8
    other = {**AKI_PAD, "shop3": card("yellow", type="pair", colors=["red", "pink"], points=4)}
    other["shop5"] = card("black", **ANY)
    assert STREET_LINE.said(AKI, other, {}, 0, NAMES)[-1] == (
        "The pad holds other cards at space 3, 5: change this line to put these back, "
        "or fix them below.",
        "note",
    )
