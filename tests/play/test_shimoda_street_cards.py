"""A Shimoda street's seven shop cards read from one answer (the web pad's street entry)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.kits.shimoda.codes import (
    card_code,
    card_so_far,
    compact_code,
    describe_card,
    parse_card,
    read_street_cards,
)
from tests.support.strategies import shimoda_scoring

NONE: list[dict[str, Any] | None] = [None] * 7
EXAMPLE = "ry33 btwo35c1 y rp 5 3 pvm47 kany11 rchair35c2 ball75"
SEVEN = ("ry33", "btwo35c1", "y rp 5 3", "pvm47", "kany11", "rchair35c2", "ball75")


def card(code: str) -> dict[str, Any]:
    space, problem = parse_card(code)
    assert problem is None and space is not None
    return space


@pytest.mark.parametrize(
    ("text", "typed", "rest", "problem"),
    [
        ("", (), "", None),
        ("b", (), "b", None),
        ("by", (), "by", None),  # a run-together code being typed is no mistake yet
        ("by3", (), "by3", None),
        ("bthr", (), "bthr", None),
        ("by33", ("by33",), "", None),
        ("by33 c", (), "by33 c", None),  # its chairs being typed
        ("b y 3 3 c1 r", ("b y 3 3 c1",), "r", None),
        ("by33 c1 kany11", ("by33 c1", "kany11"), "", None),
        ("by33 / k any 1 1 /", ("by33", "k any 1 1"), "", None),
        ("by33 =", ("by33",), "=", None),
        (
            "by33 bx35 kany11",
            ("by33",),
            "bx35 kany11",
            "space 2 (bx35): 'x' is not what a card scores: a colour, a pair (rp), any, two, "
            "all, three, chair, vm",
        ),
        (
            "b y 3 4 r any 1 5",
            (),
            "b y 3 4 r any 1 5",
            "space 1 (b y 3 4): '4' is not a range: 1, 3, 5 or 7",
        ),
        ("q", (), "q", "space 1 (q): 'q' is not a card colour: b k r y p"),
        (
            "by3 / kany11",
            (),
            "by3",
            "space 1 (by3): four parts: colour, what it scores, points, range (e.g. b y 3 3)",
        ),
        ("=3", (), "=3", "space 1 (=3): the other street's space 3 has no card yet"),
        (
            "=9",
            (),
            "=9",
            "space 1 (=9): after = comes the other street's space number, 1 to 7 (e.g. =3)",
        ),
        (EXAMPLE + " b", SEVEN, "b", "8 cards typed: a street has 7 spaces"),
    ],
)
def test_a_street_is_read_card_by_card(
    text: str, typed: tuple[str, ...], rest: str, problem: str | None
) -> None:
    reading = read_street_cards(text, NONE)
    assert (reading.typed, reading.rest, reading.problem) == (typed, rest, problem)
    assert not reading.complete


def test_seven_cards_make_a_whole_street() -> None:
    reading = read_street_cards(EXAMPLE, NONE)
    assert reading.complete
    assert reading.typed == SEVEN
    assert reading.spaces[1] == {
        "card": {"color": "blue", "scoring": {"type": "exactly_two", "points": 3, "range": 5}},
        "chairs": 1,
    }
    assert reading.spaces[2] == card("y rp 5 3")


def test_a_card_of_the_other_street_is_repeated_by_its_space_number() -> None:
    other: list[dict[str, Any] | None] = [None, None, None, None, card("kany11"), None, None]
    reading = read_street_cards("ythree53 kany13 pp31 rtwo33 bvm45 ychair33c1 =5", other)
    assert reading.complete
    assert reading.typed[-1] == "=5"
    assert reading.spaces[-1] == card("k any 1 1")
    assert read_street_cards("=4", other).problem == (
        "space 1 (=4): the other street's space 4 has no card yet"
    )


def test_a_run_together_code_takes_its_chairs_after_a_space() -> None:
    assert parse_card("by33 c1") == parse_card("by33c1") == parse_card("b y 3 3 c1")
    assert parse_card("by33 c1")[0] == {
        "card": {
            "color": "blue",
            "scoring": {"type": "color", "color": "yellow", "points": 3, "range": 3},
        },
        "chairs": 1,
    }


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("by33", "  a blue card, 3 points per yellow tourist, over 3 spaces centred on it"),
        ("by", "  a blue card ..."),
        ("bq", "  'bq' is not a card colour: b k r y p"),
        (
            "b y 3 3 c",
            "  a blue card, 3 points per yellow tourist, over 3 spaces centred on it, "
            "1 chair icon on it",
        ),
    ],
)
def test_a_card_is_said_as_it_is_typed(text: str, said: str) -> None:
    assert describe_card(text) == said


def test_a_card_so_far_says_what_is_wrong_with_the_parts_typed() -> None:
    assert card_so_far("b x") == (
        None,
        "'x' is not what a card scores: a colour, a pair (rp), any, two, all, three, chair, vm",
    )
    assert card_so_far("b y")[0] == card("b y 0 1")


@st.composite
def spaces(draw: Any) -> dict[str, Any]:
    colour = draw(st.sampled_from(("blue", "black", "red", "yellow", "pink")))
    return {
        "card": {"color": colour, "scoring": draw(shimoda_scoring())},
        "chairs": draw(st.integers(0, 2)),
    }


@given(st.lists(spaces(), min_size=7, max_size=7), st.lists(st.booleans(), min_size=7, max_size=7))
def test_any_street_typed_in_either_form_reads_back(
    street: list[dict[str, Any]], spaced: list[bool]
) -> None:
    codes = [
        card_code(s) if wide else compact_code(s) for s, wide in zip(street, spaced, strict=True)
    ]
    reading = read_street_cards(" ".join(codes), NONE)
    assert reading.complete
    assert list(reading.spaces) == street
