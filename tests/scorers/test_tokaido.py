"""Tokaido scorer, both modes."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from scorers.tokaido import souvenir_points, temple_points
from tests.support.helpers import expect, problems, score

FIELDS = (
    "journey",
    "temple",
    "meal_cost",
    "souvenirs",
    "hot_springs",
    "encounters",
    "panorama_achievements",
)
NAMES = ("Aki", "Ben", "Cho", "Dai", "Emi")


def final(*rows: tuple[int, ...], travelers: dict[int, str] | None = None) -> dict[str, Any]:
    """A final-mode file; each row gives the seven numbers in FIELDS order."""
    players = []
    for k, row in enumerate(rows):
        player: dict[str, Any] = {"name": NAMES[k], **dict(zip(FIELDS, row, strict=True))}
        if travelers and k in travelers:
            player["traveler"] = travelers[k]
        players.append(player)
    return {"game": "tokaido", "mode": "final", "players": players}


def fb(
    journey: int, temple: int, g: int = 0, c: int = 0, b: int = 0, ch: int = 0
) -> dict[str, int]:
    return {
        "journey": journey,
        "temple": temple,
        "gourmet": g,
        "collector": c,
        "bather": b,
        "chatterbox": ch,
    }


FINAL_CASES = [
    pytest.param(
        final((58, 4, 7, 6, 3, 2, 1), (60, 3, 7, 2, 1, 4, 0), travelers={0: "Mitsukuni"}),
        [fb(58, 10, 4, 4, 4, 0), fb(60, 7, 3, 0, 0, 3)],
        [1, 2],
        ["Aki"],
        None,
        id="mitsukuni-gets-4-per-award-and-ties-share-gourmet",
    ),
    pytest.param(
        # The temple example: coins 4, 3, 3, 2, 1 give 10, 7, 7, 4, 2.
        final(*[(50, coins, 0, 0, 0, 0, 0) for coins in (4, 3, 3, 2, 1)]),
        [fb(50, 10), fb(50, 7), fb(50, 7), fb(50, 4), fb(50, 2)],
        [1, 2, 2, 4, 5],
        ["Aki"],
        None,
        id="temple-dense-ranking",
    ),
    pytest.param(
        final((45, 0, 5, 0, 2, 0, 0), (30, 1, 0, 3, 2, 0, 0)),
        [fb(45, 0, 3, 0, 3, 0), fb(30, 10, 0, 3, 3, 0)],
        [1, 2],
        ["Aki"],
        None,
        id="no-donation-no-temple-points-and-no-chatterbox-without-encounters",
    ),
    pytest.param(
        final((60, 2, 6, 0, 0, 0, 0), (57, 2, 0, 4, 2, 0, 1)),
        [fb(60, 10, 3), fb(57, 10, 0, 3, 3)],
        [2, 1],
        ["Ben"],
        "most achievement cards",
        id="tie-broken-by-achievement-cards",
    ),
    pytest.param(
        final((40, 1, 3, 0, 0, 0, 0), (40, 1, 3, 0, 0, 0, 0)),
        [fb(40, 10, 3), fb(40, 10, 3)],
        [1, 1],
        ["Aki", "Ben"],
        None,
        id="same-cards-shared-win",
    ),
    pytest.param(
        final(
            (30, 3, 4, 5, 0, 1, 0),
            (35, 3, 6, 5, 1, 1, 0),
            (38, 0, 2, 1, 1, 0, 2),
            travelers={0: "mitsukuni", 1: "Kinko"},
        ),
        [fb(30, 10, 0, 4, 0, 4), fb(35, 10, 3, 3, 3, 3), fb(38, 0, 0, 0, 3, 0)],
        [2, 1, 3],
        ["Ben"],
        None,
        id="three-players-tied-awards",
    ),
    pytest.param(
        final((0, 0, 0, 0, 0, 0, 0), (0, 0, 0, 0, 0, 0, 0)),
        [fb(0, 0), fb(0, 0)],
        [1, 1],
        ["Aki", "Ben"],
        None,
        id="nobody-has-anything",
    ),
    pytest.param(
        final(*[(j, t, 0, 0, 0, 0, 0) for j, t in ((20, 3), (22, 3), (30, 1), (40, 0))]),
        [fb(20, 10), fb(22, 10), fb(30, 7), fb(40, 0)],
        [4, 3, 2, 1],
        ["Dai"],
        None,
        id="four-players-shared-first-temple-place",
    ),
    pytest.param(
        final((70, 5, 0, 0, 0, 0, 0), (69, 4, 0, 0, 0, 0, 0), (69, 4, 0, 0, 0, 0, 1)),
        [fb(70, 10), fb(69, 7), fb(69, 7)],
        [1, 3, 2],
        ["Aki"],
        None,
        id="tie-break-also-orders-lower-places",
    ),
]


@pytest.mark.parametrize(("data", "breakdowns", "ranks", "winners", "tiebreak"), FINAL_CASES)
def test_final_mode(
    data: dict[str, Any],
    breakdowns: list[dict[str, int]],
    ranks: list[int],
    winners: list[str],
    tiebreak: str | None,
) -> None:
    expect(score("tokaido", data), breakdowns, ranks, winners, tiebreak)


def test_final_is_the_default_mode() -> None:
    data = final((10, 1, 0, 0, 0, 0, 0), (5, 0, 0, 0, 0, 0, 0))
    del data["mode"]
    assert score("tokaido", data)["players"][0]["total"] == 20


def recount_player(name: str, **fields: Any) -> dict[str, Any]:
    player: dict[str, Any] = {
        "name": name,
        "panoramas": {},
        "panorama_achievements": 0,
        "hot_springs": [],
        "meals": [],
        "souvenirs": {},
        "encounters": {},
        "temple": 0,
    }
    player.update(fields)
    return player


CONTRACT_AKI = recount_player(
    "Aki",
    traveler="Umegae",
    journey=56,
    panoramas={"paddy": 3, "mountain": 2, "sea": 0},
    panorama_achievements=1,
    hot_springs=[2, 3],
    meals=[1, 3, 2],
    souvenirs={"small_object": 2, "clothing": 1, "art": 1, "food": 0},
    encounters={"shokunin": 0, "annaibito": 1, "samurai": 1, "kuge": 0, "miko": 1},
    temple=3,
)


def rb(*values: int) -> dict[str, int]:
    keys = (
        "panoramas",
        "panorama_achievements",
        "hot_springs",
        "meals",
        "souvenirs",
        "encounters",
        "temple_coins",
        "traveler",
        "temple",
        "gourmet",
        "collector",
        "bather",
        "chatterbox",
    )
    return dict(zip(keys, values, strict=True))


def test_recount_of_the_contract_example() -> None:
    data = {
        "game": "tokaido",
        "mode": "recount",
        "players": [CONTRACT_AKI, recount_player("Ben", meals=[2])],
    }
    result = score("tokaido", data)
    expect(
        result,
        [rb(9, 3, 5, 18, 10, 3, 3, 3, 10, 3, 3, 3, 3), rb(0, 0, 0, 6, 0, 0, 0, 0, 0, 0, 0, 0, 0)],
        [1, 2],
        ["Aki"],
    )
    assert result["notes"] == ["Aki: the track shows 56, the recount gives 54"]


def test_recount_mitsukuni_and_a_full_souvenir_set() -> None:
    data = {
        "game": "tokaido",
        "mode": "recount",
        "players": [
            recount_player(
                "Aki",
                traveler="Mitsukuni",
                journey=31,
                panoramas={"sea": 5},
                panorama_achievements=1,
                hot_springs=[3, 3, 2],
                souvenirs={"art": 1},
            ),
            recount_player(
                "Ben",
                panoramas={"paddy": 1},
                hot_springs=[2],
                meals=[3],
                souvenirs={"small_object": 1, "clothing": 1, "art": 1, "food": 1},
                encounters={"samurai": 2, "kuge": 1},
                temple=4,
            ),
        ],
    }
    result = score("tokaido", data)
    expect(
        result,
        [rb(15, 3, 8, 0, 1, 0, 0, 4, 0, 0, 0, 4, 0), rb(1, 0, 2, 6, 16, 6, 4, 0, 10, 3, 3, 0, 3)],
        [2, 1],
        ["Ben"],
    )
    assert "notes" not in result


def test_recount_and_final_agree_when_the_track_is_right() -> None:
    recount = {
        "game": "tokaido",
        "mode": "recount",
        "players": [CONTRACT_AKI, recount_player("Ben", meals=[2])],
    }
    as_final = final((54, 3, 6, 4, 2, 3, 1), (6, 0, 2, 0, 0, 0, 0), travelers={0: "Umegae"})
    totals = [p["total"] for p in score("tokaido", recount)["players"]]
    assert totals == [p["total"] for p in score("tokaido", as_final)["players"]] == [76, 6]


@pytest.mark.parametrize(
    ("counts", "points"),
    [
        ([1, 0, 0, 0], 1),
        ([1, 1, 0, 0], 4),
        ([1, 1, 1, 0], 9),
        ([1, 1, 1, 1], 16),
        ([2, 0, 0, 0], 2),
        ([2, 1, 0, 0], 5),
        ([3, 2, 1, 0], 14),
        ([3, 1, 1, 1], 18),
        ([2, 2, 2, 2], 32),
        ([0, 0, 0, 0], 0),
    ],
)
def test_souvenir_sets(counts: list[int], points: int) -> None:
    assert souvenir_points(counts) == points


@pytest.mark.parametrize(
    ("coins", "points"),
    [
        ([4, 3, 3, 2, 1], [10, 7, 7, 4, 2]),
        ([0, 0], [0, 0]),
        ([5, 5], [10, 10]),
        ([3, 2, 1, 1, 0], [10, 7, 4, 4, 0]),
        ([6, 5, 4, 3, 2], [10, 7, 4, 2, 2]),
        ([1, 0, 2], [7, 0, 10]),
    ],
)
def test_temple_ranking(coins: list[int], points: list[int]) -> None:
    assert temple_points(coins) == points


TWO = final((10, 1, 0, 0, 0, 0, 0), (5, 0, 0, 0, 0, 0, 0))
RECOUNT = {"game": "tokaido", "mode": "recount", "players": [CONTRACT_AKI, recount_player("Ben")]}


def changed(base: dict[str, Any], path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    data = copy.deepcopy(base)
    target = data
    for step in path[:-1]:
        target = target[step]
    if value is DELETE:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return data


DELETE = object()


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (changed(TWO, ("mode",), "quick"), 'mode: unknown mode "quick" (one of: final, recount)'),
        (
            changed(TWO, ("players", 0, "panorama_achievements"), 4),
            "players[0].panorama_achievements: must be between 0 and 3, got 4",
        ),
        (
            changed(TWO, ("players", 1, "traveler"), "Bob"),
            'players[1].traveler: unknown traveller "Bob" (one of: Chuubei, Hiroshige, '
            "Hirotada, Kinko, Mitsukuni, Sasayakko, Satsuki, Umegae, Yoshiyasu, Zen-emon)",
        ),
        (
            changed(TWO, ("players", 0, "journey"), DELETE),
            "players[0].journey: missing (this field is required)",
        ),
        (
            changed(TWO, ("players", 0, "meals"), [1]),
            "players[0].meals: unknown key (did you mean 'meal_cost'?)",
        ),
        (
            changed(TWO, ("players",), TWO["players"][:1]),
            "players: must have at least 2 players, got 1",
        ),
        (
            changed(TWO, ("players",), [{**TWO["players"][0], "name": n} for n in (*NAMES, "Fay")]),
            "players: must have at most 5 players, got 6",
        ),
        (
            changed(TWO, ("players", 0, "temple"), "3"),
            'players[0].temple: must be a whole number, got the text "3"',
        ),
        (
            changed(RECOUNT, ("players", 1, "panorama_achievements"), 1),
            "players[1].panorama_achievements: "
            "more achievement cards (1) than completed panoramas (0)",
        ),
        (
            changed(RECOUNT, ("players", 1, "panoramas"), {"paddy": 4}),
            "players[1].panoramas.paddy: a paddy panorama has 3 cards, got 4",
        ),
        (
            changed(RECOUNT, ("players", 1, "panoramas"), {"lake": 1}),
            "players[1].panoramas.lake: unknown panorama (one of: paddy, mountain, sea)",
        ),
        (
            changed(RECOUNT, ("players", 1, "hot_springs"), [2, 4]),
            "players[1].hot_springs[1]: a hot spring card's value is 2 or 3, got 4",
        ),
        (
            changed(RECOUNT, ("players", 1, "meals"), [1, 2, 3, 1, 2]),
            "players[1].meals: must have at most 4 cards, got 5",
        ),
        (
            changed(RECOUNT, ("players", 1, "meals"), [0]),
            "players[1].meals[0]: a meal price is 1, 2 or 3, got 0",
        ),
        (
            changed(RECOUNT, ("players", 1, "hot_springs"), [3] * 6),
            "players: 7 hot springs worth 3 in all (the box has 6)",
        ),
        (
            changed(RECOUNT, ("players", 1, "souvenirs"), {"art": 6}),
            "players: 7 art souvenirs in all (the box has 6)",
        ),
        (
            changed(RECOUNT, ("players", 1, "souvenirs"), {"toys": 1}),
            "players[1].souvenirs.toys: "
            "unknown souvenir type (one of: small_object, clothing, art, food)",
        ),
        (
            changed(RECOUNT, ("players", 1, "encounters"), {"ninja": 1}),
            "players[1].encounters.ninja: "
            "unknown encounter (one of: shokunin, annaibito, samurai, kuge, miko)",
        ),
        (
            changed(RECOUNT, ("players", 1, "meal_cost"), 3),
            "players[1].meal_cost: unknown key (did you mean 'meals'?)",
        ),
        (
            changed(RECOUNT, ("players", 1, "temple"), DELETE),
            "players[1].temple: missing (this field is required)",
        ),
    ],
)
def test_validation_rules(data: dict[str, Any], expected: str) -> None:
    assert expected in problems("tokaido", data)
