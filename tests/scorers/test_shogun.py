"""Shogun scorer."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from scorers.shogun import majority_points
from tests.support.helpers import expect, problems, score

NAMES = ("Aki", "Ben", "Cho", "Dai", "Emi")
REGIONS = ("brown", "yellow", "red", "purple", "green")


def player(k: int, before: int = 0, chests: int = 0, **regions: dict[str, int]) -> dict[str, Any]:
    p: dict[str, Any] = {"name": NAMES[k], "regions": regions}
    if before:
        p["score_before"] = before
    if chests:
        p["war_chests"] = chests
    return p


def game(year: int, *players: dict[str, Any], board: str | None = None) -> dict[str, Any]:
    data: dict[str, Any] = {"game": "shogun", "year": year, "players": list(players)}
    if board:
        data["board"] = board
    return data


def sb(
    previous: int = 0,
    provinces: int = 0,
    buildings: int = 0,
    castles: int = 0,
    temples: int = 0,
    theaters: int = 0,
) -> dict[str, int]:
    return {
        "previous": previous,
        "provinces": provinces,
        "buildings": buildings,
        "castle_majorities": castles,
        "temple_majorities": temples,
        "theater_majorities": theaters,
    }


def region(provinces: int, castles: int = 0, temples: int = 0, theaters: int = 0) -> dict[str, int]:
    return {"provinces": provinces, "castles": castles, "temples": temples, "theaters": theaters}


DOMINANT = region(9, 2, 1, 3)

CASES = [
    pytest.param(
        game(
            1,
            player(0, 21, 4, brown=region(3, 1, 0, 2), red={"provinces": 2, "temples": 1}),
            player(1, brown=region(2, 1, 1), yellow=region(4, theaters=1)),
            player(2, red=region(3, 2, 1)),
            board="sun",
        ),
        [sb(21, 5, 4, 2, 1, 1), sb(0, 6, 3, 2, 2, 1), sb(0, 3, 3, 3, 1, 0)],
        [1, 2, 3],
        ["Aki"],
        None,
        id="majorities-and-tied-leaders",
    ),
    pytest.param(
        game(2, player(0, 10, 5, green=region(1)), player(1, 10, 3, green=region(1)), player(2)),
        [sb(10, 1), sb(10, 1), sb()],
        [1, 2, 3],
        ["Aki"],
        "most war chests",
        id="year-2-tie-broken-by-war-chests",
    ),
    pytest.param(
        game(1, player(0, 10, 5, green=region(1)), player(1, 10, 3, green=region(1)), player(2)),
        [sb(10, 1), sb(10, 1), sb()],
        [1, 1, 3],
        ["Aki", "Ben"],
        None,
        id="year-1-equal-totals-share-a-rank",
    ),
    pytest.param(
        game(2, player(0, 10, 2, green=region(1)), player(1, 10, 2, green=region(1)), player(2)),
        [sb(10, 1), sb(10, 1), sb()],
        [1, 1, 3],
        ["Aki", "Ben"],
        None,
        id="year-2-same-war-chests-shared-win",
    ),
    pytest.param(
        game(
            2,
            player(0, 0, 3, purple=region(3, 1, 2, 1)),
            player(1, 0, 1, purple=region(3, 1, 2, 1)),
            player(2, purple=region(3, 1, 0, 1)),
        ),
        [sb(0, 3, 4, 2, 1, 0), sb(0, 3, 4, 2, 1, 0), sb(0, 3, 2, 2, 0, 0)],
        [1, 2, 3],
        ["Aki"],
        "most war chests",
        id="three-way-majority-ties",
    ),
    pytest.param(
        game(
            2,
            *[
                player(k, 0, chests, **{REGIONS[k]: DOMINANT})
                for k, chests in enumerate((1, 4, 0, 2, 3))
            ],
        ),
        [sb(0, 9, 6, 3, 2, 1)] * 5,
        [4, 1, 5, 3, 2],
        ["Ben"],
        "most war chests",
        id="five-players-one-region-each",
    ),
    pytest.param(
        game(1, player(0, yellow=region(2)), player(1, 5), player(2, 5)),
        [sb(0, 2), sb(5), sb(5)],
        [3, 1, 1],
        ["Ben", "Cho"],
        None,
        id="no-buildings-no-majorities",
    ),
    pytest.param(
        game(
            2,
            player(0, 30, brown=region(1, 1)),
            player(1, 33, yellow=region(2, temples=2)),
            player(2),
            board="moon",
        ),
        [sb(30, 1, 1, 3), sb(33, 2, 2, 0, 2), sb()],
        [2, 1, 3],
        ["Ben"],
        None,
        id="previous-score-carries-over",
    ),
    pytest.param(
        game(
            1,
            player(0, red=region(4, 3, 0, 0), green=region(2, 0, 0, 2)),
            player(1, red=region(5, 3, 1, 1)),
            player(2, green=region(3, 0, 0, 2)),
            player(3, green=region(4, 1)),
        ),
        [sb(0, 6, 5, 2, 0, 0), sb(0, 5, 5, 2, 2, 1), sb(0, 3, 2, 0, 0, 0), sb(0, 4, 1, 3, 0, 0)],
        [2, 1, 4, 3],
        ["Ben"],
        None,
        id="four-players-two-regions",
    ),
]


@pytest.mark.parametrize(("data", "breakdowns", "ranks", "winners", "tiebreak"), CASES)
def test_hand_computed_winters(
    data: dict[str, Any],
    breakdowns: list[dict[str, int]],
    ranks: list[int],
    winners: list[str],
    tiebreak: str | None,
) -> None:
    expect(score("shogun", data), breakdowns, ranks, winners, tiebreak)


@pytest.mark.parametrize(
    ("counts", "worth", "points"),
    [
        ([2, 1, 0], 3, [3, 0, 0]),
        ([1, 1, 0], 3, [2, 2, 0]),
        ([1, 1, 1], 1, [0, 0, 0]),
        ([0, 0, 0], 3, [0, 0, 0]),
        ([0, 2, 2, 1], 2, [0, 1, 1, 0]),
        ([0, 0, 1], 1, [0, 0, 1]),
    ],
)
def test_majority_points(counts: list[int], worth: int, points: list[int]) -> None:
    assert majority_points(counts, worth) == points


BASE = game(1, player(0, brown=region(2, 1)), player(1), player(2))


def changed(edit: Any) -> dict[str, Any]:
    data = copy.deepcopy(BASE)
    edit(data)
    return data


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (changed(lambda d: d.update(year=3)), "year: must be between 1 and 2, got 3"),
        (changed(lambda d: d.pop("year")), "year: missing (this field is required)"),
        (
            changed(lambda d: d.update(board="star")),
            'board: unknown board "star" (one of: sun, moon)',
        ),
        (
            changed(lambda d: d["players"][0]["regions"].update(brown=region(10))),
            "players[0].regions.brown.provinces: a region has 9 provinces, got 10",
        ),
        (
            changed(lambda d: d["players"][0]["regions"].update(brown=region(2, 3))),
            "players[0].regions.brown.castles: 3 castles in 2 provinces (at most one per province)",
        ),
        (
            changed(lambda d: d["players"][1]["regions"].update(brown=region(8))),
            "players: 10 brown provinces held in all (the region has 9)",
        ),
        (
            changed(
                lambda d: (
                    d["players"][1]["regions"].update(
                        yellow=region(9), red=region(9), purple=region(9)
                    ),
                    d["players"][2]["regions"].update(green=region(9)),
                )
            ),
            "players: 38 provinces held in all (at most 37 with 3 players)",
        ),
        (changed(lambda d: d["players"].pop()), "players: must have at least 3 players, got 2"),
        (
            changed(lambda d: d["players"][0]["regions"]["brown"].update(farms=1)),
            "players[0].regions.brown.farms: "
            "unknown count (one of: provinces, castles, temples, theaters)",
        ),
        (
            changed(lambda d: d["players"][0].update(war_chests=-1)),
            "players[0].war_chests: must be between 0 and 200, got -1",
        ),
        (
            changed(lambda d: d["players"][0]["regions"].update(orange={})),
            "players[0].regions.orange: unknown key",
        ),
        (
            changed(lambda d: d["players"][1].pop("regions")),
            "players[1].regions: missing (this field is required)",
        ),
    ],
)
def test_validation_rules(data: dict[str, Any], expected: str) -> None:
    assert expected in problems("shogun", data)


def test_the_tie_the_war_chests_broke_is_said_with_their_values() -> None:
    from scorers import SCORERS

    players = [
        {"name": "Ann", "war_chests": 3, "regions": {"green": {"provinces": 2}}},
        {"name": "Ben", "war_chests": 1, "regions": {"red": {"provinces": 2}}},
        {"name": "Cho", "war_chests": 9, "regions": {"red": {"provinces": 1}}},
    ]
    result = SCORERS["shogun"].score_json({"game": "shogun", "year": 2, "players": players})
    assert result.tie == "tie on 2 broken by most war chests: Ann 3, Ben 1"
    assert "tie" not in result.to_json()  # a stored result scores the same
    players[1]["war_chests"] = 3
    shared = SCORERS["shogun"].score_json({"game": "shogun", "year": 2, "players": players})
    assert (shared.winners, shared.tie) == (("Ann", "Ben"), None)
