"""Shimoda: Perry Road scorer."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from scorers.shimoda import covered, max_three_color_sets
from tests.support.helpers import expect, problems, score

BLANK = {"type": "any", "points": 0, "range": 1}


def space(
    color: str = "blue",
    scoring: dict[str, Any] | None = None,
    tourists: dict[str, int] | None = None,
    chairs: int = 0,
) -> dict[str, Any]:
    """One street space; a blank card scores nothing."""
    result: dict[str, Any] = {
        "card": {"color": color, "scoring": dict(scoring or BLANK)},
        "tourists": tourists or {},
    }
    if chairs:
        result["chairs"] = chairs
    return result


def street(**spaces: dict[str, Any]) -> list[dict[str, Any]]:
    """Seven spaces; ``s3=space(...)`` sets space 3, the others are blank."""
    return [spaces.get(f"s{k}", space()) for k in range(7)]


def game(a: list[dict[str, Any]], b: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    players = [{"name": "Aki", "street": a}, {"name": "Ben", "street": b}]
    for key, value in extra.items():
        who, field = key.split("_", 1)
        players[0 if who == "a" else 1][field] = value
    return {"game": "shimoda", "players": players}


def sb(shops: int, markers: int, merchant: int = 0) -> dict[str, int]:
    return {"shops": shops, "victory_markers": 5 * markers, "merchant": merchant}


CASES = [
    pytest.param(
        game(street(), street()),
        [sb(0, 0), sb(0, 0)],
        [1, 1],
        ["Aki", "Ben"],
        None,
        id="empty-streets-shared-win",
    ),
    pytest.param(
        # Rulebook example: 2 tourists against 3, the blue one on a blue card counting 2.
        game(
            street(s0=space("red", tourists={"black": 1, "yellow": 1})),
            street(s0=space("blue", tourists={"blue": 1, "red": 1})),
        ),
        [sb(0, 0), sb(0, 1)],
        [2, 1],
        ["Ben"],
        None,
        id="rulebook-victory-marker-2-vs-3",
    ),
    pytest.param(
        game(
            street(
                s0=space(
                    scoring={"type": "color", "color": "yellow", "points": 3, "range": 3},
                    tourists={"yellow": 1},
                ),
                s1=space(tourists={"yellow": 2}),
                s2=space(tourists={"yellow": 1}),
            ),
            street(),
        ),
        [sb(9, 3), sb(0, 0)],
        [1, 2],
        ["Aki"],
        None,
        id="colour-card-range-3-cut-at-the-end",
    ),
    pytest.param(
        game(
            street(
                s1=space(tourists={"blue": 1}),
                s3=space("red", {"type": "any", "points": 1, "range": 5}, {"red": 2}),
                s5=space(tourists={"pink": 3}),
                s6=space(tourists={"black": 1}),
            ),
            street(s1=space(tourists={"blue": 2}), s5=space(tourists={"pink": 1})),
        ),
        [sb(6, 3), sb(0, 1)],
        [1, 2],
        ["Aki"],
        None,
        id="any-range-5-and-own-colour-doubles",
    ),
    pytest.param(
        game(
            street(
                s0=space(tourists={"red": 1, "blue": 1}),
                s2=space(tourists={"black": 2}),
                s4=space(tourists={"yellow": 1}),
                s6=space(
                    "pink", {"type": "exactly_two", "points": 3, "range": 7}, {"pink": 1, "red": 1}
                ),
            ),
            street(),
        ),
        [sb(9, 4), sb(0, 0)],
        [1, 2],
        ["Aki"],
        None,
        id="exactly-two-whole-street",
    ),
    pytest.param(
        game(
            street(
                s0=space(tourists={"red": 1}),
                s1=space(tourists={"red": 2, "pink": 1}),
                s2=space(
                    "black",
                    {"type": "pair", "colors": ["red", "pink"], "points": 5, "range": 3},
                    {"pink": 1},
                ),
                s3=space(tourists={"red": 1, "pink": 1}),
            ),
            street(s1=space(tourists={"red": 3}), s2=space(tourists={"black": 1})),
        ),
        [sb(15, 2), sb(0, 0)],
        [1, 2],
        ["Aki"],
        None,
        id="pair-and-tied-spaces-give-no-marker",
    ),
    pytest.param(
        game(
            street(
                s0=space(
                    scoring={"type": "three_colors", "points": 5, "range": 5},
                    tourists={"blue": 1, "black": 1, "red": 1},
                ),
                s1=space(tourists={"yellow": 1, "pink": 1, "blue": 1}),
                s2=space(tourists={"blue": 2}),
                s3=space("yellow", {"type": "all_colors", "points": 7, "range": 7}),
                s4=space(tourists={"black": 1, "red": 1, "yellow": 1}),
                s5=space(tourists={"pink": 1}),
            ),
            street(),
        ),
        [sb(24, 5), sb(0, 0)],
        [1, 2],
        ["Aki"],
        None,
        id="all-colours-and-three-colour-sets",
    ),
    pytest.param(
        game(
            street(
                s0=space(chairs=1),
                s1=space("red", {"type": "chairs", "points": 3, "range": 3}, chairs=2),
                s3=space(chairs=4),
                s4=space(tourists={"red": 1}),
                s5=space(
                    "black", {"type": "victory_markers", "points": 4, "range": 3}, {"black": 1}
                ),
            ),
            street(s5=space(tourists={"red": 1}), s6=space(tourists={"blue": 1})),
        ),
        [sb(17, 2), sb(0, 1)],
        [1, 2],
        ["Aki"],
        None,
        id="chairs-and-victory-marker-cards",
    ),
    pytest.param(
        game(
            street(s0=space(tourists={"black": 3})),
            street(
                s0=space("red", {"type": "any", "points": 2, "range": 1}, {"red": 1, "pink": 1})
            ),
            a_merchant="Florist",
            a_merchant_points=4,
        ),
        [sb(0, 0, 4), sb(4, 0)],
        [1, 2],
        ["Aki"],
        "more tourists on the street",
        id="merchant-points-and-tourist-tie-break",
    ),
    pytest.param(
        game(
            street(
                s0=space(tourists={"blue": 1}), s6=space(scoring={**BLANK, "points": 1, "range": 7})
            ),
            street(
                s0=space(tourists={"blue": 1}), s6=space(scoring={**BLANK, "points": 1, "range": 7})
            ),
        ),
        [sb(1, 0), sb(1, 0)],
        [1, 1],
        ["Aki", "Ben"],
        None,
        id="still-tied-after-tie-break-is-a-draw",
    ),
]


@pytest.mark.parametrize(("data", "breakdowns", "ranks", "winners", "tiebreak"), CASES)
def test_hand_computed_games(
    data: dict[str, Any],
    breakdowns: list[dict[str, int]],
    ranks: list[int],
    winners: list[str],
    tiebreak: str | None,
) -> None:
    expect(score("shimoda", data), breakdowns, ranks, winners, tiebreak)


@pytest.mark.parametrize(
    ("position", "reach", "expected"),
    [
        (0, 1, [0]),
        (0, 3, [0, 1]),
        (3, 3, [2, 3, 4]),
        (6, 3, [5, 6]),
        (1, 5, [0, 1, 2, 3]),
        (3, 5, [1, 2, 3, 4, 5]),
        (6, 5, [4, 5, 6]),
        (0, 7, [0, 1, 2, 3, 4, 5, 6]),
        (6, 7, [0, 1, 2, 3, 4, 5, 6]),
    ],
)
def test_range_covers_spaces_centred_on_the_card(
    position: int, reach: int, expected: list[int]
) -> None:
    assert list(covered(position, reach)) == expected


@pytest.mark.parametrize(
    ("counts", "sets"),
    [
        ([0, 0, 0, 0, 0], 0),
        ([1, 1, 1, 0, 0], 1),
        ([3, 0, 0, 0, 0], 0),
        ([2, 2, 2, 0, 0], 2),
        ([4, 1, 1, 1, 1], 2),
        ([5, 5, 1, 0, 0], 1),
        ([3, 3, 3, 3, 3], 5),
        ([6, 1, 1, 1, 0], 1),
        ([2, 2, 1, 1, 0], 2),
        ([7, 7, 7, 7, 7], 11),
    ],
)
def test_three_colour_sets_are_the_largest_number(counts: list[int], sets: int) -> None:
    assert max_three_color_sets(counts) == sets


VALID = game(street(), street())


def mutated(change: str) -> dict[str, Any]:
    data = copy.deepcopy(VALID)
    a_space = data["players"][0]["street"][0]
    scoring = a_space["card"]["scoring"]
    if change == "three-players":
        data["players"].append({"name": "Cho", "street": street()})
    elif change == "short-street":
        data["players"][0]["street"].pop()
    elif change == "four-tourists":
        data["players"][1]["street"][3]["tourists"] = {"red": 2, "pink": 2}
    elif change == "eight-blue":
        for k in range(4):
            data["players"][0]["street"][k]["tourists"] = {"blue": 2}
    elif change == "unknown-tourist-colour":
        a_space["tourists"] = {"green": 1}
    elif change == "card-colour":
        a_space["card"]["color"] = "green"
    elif change == "range":
        scoring["range"] = 2
    elif change == "type":
        scoring["type"] = "everything"
    elif change == "colour-missing":
        scoring["type"] = "color"
    elif change == "colour-not-used":
        scoring["color"] = "red"
    elif change == "pair-same":
        scoring.update(type="pair", colors=["red", "red"])
    elif change == "pair-one":
        scoring.update(type="pair", colors=["red"])
    elif change == "merchant-points-text":
        data["players"][0]["merchant_points"] = "3"
    elif change == "points-float":
        scoring["points"] = 3.0
    elif change == "chairs-bool":
        a_space["chairs"] = True
    elif change == "chairs-negative":
        a_space["chairs"] = -1
    elif change == "duplicate-name":
        data["players"][1]["name"] = "Aki"
    elif change == "empty-name":
        data["players"][0]["name"] = " "
    elif change == "unknown-key":
        a_space["tourist"] = {}
    elif change == "missing-card":
        del a_space["card"]
    elif change == "other-game":
        data["game"] = "tokaido"
    elif change == "merchant-empty":
        data["players"][0]["merchant"] = ""
    return data


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ("three-players", "players: must have exactly 2 players, got 3"),
        ("short-street", "players[0].street: must have exactly 7 spaces, got 6"),
        ("four-tourists", "players[1].street[3].tourists: 4 tourists on one space (at most 3)"),
        ("eight-blue", "players: 8 blue tourists on the streets (there are 7)"),
        (
            "unknown-tourist-colour",
            "players[0].street[0].tourists.green: unknown colour "
            "(one of: blue, black, red, yellow, pink)",
        ),
        (
            "card-colour",
            'players[0].street[0].card.color: unknown colour "green" '
            "(one of: blue, black, red, yellow, pink)",
        ),
        ("range", "players[0].street[0].card.scoring.range: must be 1, 3, 5 or 7, got 2"),
        (
            "type",
            'players[0].street[0].card.scoring.type: unknown type "everything" (one of: '
            "exactly_two, color, any, pair, all_colors, three_colors, chairs, victory_markers)",
        ),
        (
            "colour-missing",
            "players[0].street[0].card.scoring.color: missing (required for type 'color')",
        ),
        ("colour-not-used", "players[0].street[0].card.scoring.color: only used with type 'color'"),
        ("pair-same", "players[0].street[0].card.scoring.colors: must be two different colours"),
        (
            "pair-one",
            "players[0].street[0].card.scoring.colors: must have exactly 2 colours, got 1",
        ),
        (
            "merchant-points-text",
            'players[0].merchant_points: must be a whole number, got the text "3"',
        ),
        (
            "points-float",
            "players[0].street[0].card.scoring.points: must be a whole number, got 3.0",
        ),
        ("chairs-bool", "players[0].street[0].chairs: must be a whole number, got true"),
        ("chairs-negative", "players[0].street[0].chairs: must be between 0 and 5, got -1"),
        ("duplicate-name", "players[1].name: 'Aki' is already the name of players[0]"),
        ("empty-name", "players[0].name: must not be empty"),
        ("unknown-key", "players[0].street[0].tourist: unknown key (did you mean 'tourists'?)"),
        ("missing-card", "players[0].street[0].card: missing (this field is required)"),
        ("other-game", "game: this file is for 'tokaido', not 'shimoda'"),
        ("merchant-empty", "players[0].merchant: must not be empty"),
    ],
)
def test_validation_rules(change: str, expected: str) -> None:
    assert expected in problems("shimoda", mutated(change))


def test_every_problem_is_reported_at_once() -> None:
    data = mutated("four-tourists")
    data["players"][0]["street"][2]["card"]["scoring"]["range"] = 4
    data["players"][0]["name"] = 7
    assert problems("shimoda", data) == [
        "players[0].name: must be a text, got 7",
        "players[0].street[2].card.scoring.range: must be 1, 3, 5 or 7, got 4",
        "players[1].street[3].tourists: 4 tourists on one space (at most 3)",
    ]


def test_full_title_in_game_key_is_accepted() -> None:
    data = copy.deepcopy(VALID)
    data["game"] = "Shimoda: Perry Road"
    assert score("shimoda", data)["winners"] == ["Aki", "Ben"]
