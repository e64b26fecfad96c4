"""Kamakura Collection scorer."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from scorers.kamakura import eat_bonus
from tests.support.helpers import expect, problems, score

NAMES = ("Aki", "Ben", "Cho", "Dai")
VALUES = {"B": (3, "pink"), "F": (4, "green"), "K": (3, "blue"), "O": (3, "pink")}


def coin(circle: str, value: int | None = None, color: str | None = None) -> dict[str, Any]:
    known_value, known_color = VALUES.get(circle, (2, "pink"))
    return {"circle": circle, "value": value or known_value, "color": color or known_color}


def player(
    k: int,
    track: int = 0,
    coins: list[dict[str, Any]] | None = None,
    eat: list[int] | None = None,
    pieces: tuple[str, str] = ("A", "N"),
    tickets: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    p: dict[str, Any] = {
        "name": NAMES[k],
        "track": track,
        "site_coins": coins or [],
        "pieces": list(pieces),
    }
    if eat is not None:
        p["eat_coins"] = eat
    if tickets is not None:
        p["taxi_tickets"] = tickets
    return p


def game(
    *players: dict[str, Any], tours: list[dict[str, Any]] | None = None, **extra: Any
) -> dict[str, Any]:
    return {"game": "kamakura", "tours": tours or [], "players": list(players), **extra}


def kb(
    track: int = 0,
    site: int = 0,
    eat: int = 0,
    bonus: int = 0,
    remembrance: int = 0,
    tours: int = 0,
    taxi: int = 0,
) -> dict[str, int]:
    return {
        "track": track,
        "site_coins": site,
        "eat_coins": eat,
        "eat_bonus": bonus,
        "remembrance": remembrance,
        "tours": tours,
        "taxi": taxi,
    }


def colored(circles: str, colors: list[str], value: int) -> list[dict[str, Any]]:
    return [coin(c, value, col) for c, col in zip(circles, colors, strict=True)]


COLLECTION_A = {"card": "A", "kind": "collection", "circles": ["B", "F", "K"], "points": 5}
GENRE_PINK = {"card": "I", "kind": "genre", "color": "pink", "points": 4}
BIG_EATER = {"card": "L", "kind": "big_eater", "points": 5}
RENDEZVOUS = {"card": "M", "kind": "rendezvous", "points": 3}

CASES = [
    pytest.param(
        game(
            player(0, 3, [coin("B"), coin("F")], [2, 1]),
            player(1, 2, [coin("O")], [3], ("C", "D")),
            player(2, 1, pieces=("A", "A")),
        ),
        [kb(3, 7, 3), kb(2, 3, 3), kb(1)],
        [1, 2, 3],
        ["Aki"],
        id="coins-and-track",
    ),
    pytest.param(
        # The rulebook's example: 8 eat-around coins give 1+1+2+2 = 6 bonus points.
        game(player(0, eat=[1] * 8), player(1, eat=[2] * 5), tours=[BIG_EATER]),
        [kb(eat=8, bonus=6, tours=5), kb(eat=10, bonus=1)],
        [1, 2],
        ["Aki"],
        id="eat-bonus-and-big-eater",
    ),
    pytest.param(
        game(
            player(
                0,
                5,
                colored(
                    "BCDEFGHI",
                    ["pink", "green", "blue", "pink", "pink", "blue", "green", "pink"],
                    3,
                ),
            ),
            player(
                1,
                4,
                colored("JKLMOPQ", ["blue", "green", "pink", "green", "green", "pink", "blue"], 2),
            ),
        ),
        [kb(5, 24, remembrance=10), kb(4, 14, remembrance=5)],
        [1, 2],
        ["Aki"],
        id="remembrance-pairs",
    ),
    pytest.param(
        game(
            player(0, 0, [coin("B"), coin("F"), coin("K")]),
            player(1, 0, [coin("B"), coin("F")]),
            player(2, 0, [coin("O"), coin("C"), coin("D"), coin("E")]),
            tours=[COLLECTION_A, GENRE_PINK],
        ),
        [kb(site=10, tours=5), kb(site=7), kb(site=9, tours=4)],
        [1, 3, 2],
        ["Aki"],
        id="collection-and-genre-cards",
    ),
    pytest.param(
        game(
            player(0, 1, [coin("B"), coin("F")]),
            player(1, 1, [coin("B"), coin("F")]),
            player(2),
            tours=[
                {
                    "card": "A",
                    "kind": "collection",
                    "circles": ["B", "F"],
                    "points": 6,
                    "claimed_by": "Ben",
                },
                {"card": "J", "kind": "genre", "color": "green", "points": 4},
            ],
            advanced=True,
        ),
        [kb(1, 7), kb(1, 7, tours=6), kb()],
        [2, 1, 3],
        ["Ben"],
        id="advanced-claimed-card-goes-to-the-first",
    ),
    pytest.param(
        game(
            player(0, 0, [coin("O")]),
            player(1, 0, [coin("B")]),
            tours=[{"card": "B", "kind": "collection", "circles": ["O"], "points": 3}],
        ),
        [kb(site=3, tours=3), kb(site=3)],
        [1, 2],
        ["Aki"],
        id="two-players-one-player-meets-the-card",
    ),
    pytest.param(
        game(
            player(0, 2, pieces=("A", "A")),
            player(1, 2, pieces=("N", "N")),
            player(2, 2, pieces=("A", "N")),
            tours=[RENDEZVOUS],
        ),
        [kb(2, tours=3), kb(2, tours=3), kb(2)],
        [1, 1, 3],
        ["Aki", "Ben"],
        id="rendezvous-and-shared-win",
    ),
    pytest.param(
        game(
            player(
                0,
                0,
                [coin("B")],
                tickets=[{"circle": "B", "points": 2}, {"circle": "K", "points": 3}],
            ),
            player(1, 0, [coin("F")], tickets=[{"circle": "f", "points": 1}]),
        ),
        [kb(site=3, taxi=2), kb(site=4, taxi=1)],
        [1, 1],
        ["Aki", "Ben"],
        id="taxi-tickets-match-site-coins",
    ),
    pytest.param(
        game(
            player(0, eat=[1, 1]),
            player(1, eat=[3, 1]),
            player(2),
            player(3),
            tours=[BIG_EATER],
        ),
        [kb(eat=2, tours=5), kb(eat=4, tours=5), kb(), kb()],
        [2, 1, 3, 3],
        ["Ben"],
        id="big-eater-tie-counts-coins-not-values",
    ),
    pytest.param(
        game(player(0, pieces=("N", "N")), player(1), tours=[BIG_EATER, RENDEZVOUS]),
        [kb(tours=3), kb()],
        [1, 2],
        ["Aki"],
        id="big-eater-needs-one-coin",
    ),
]


@pytest.mark.parametrize(("data", "breakdowns", "ranks", "winners"), CASES)
def test_hand_computed_games(
    data: dict[str, Any], breakdowns: list[dict[str, int]], ranks: list[int], winners: list[str]
) -> None:
    expect(score("kamakura", data), breakdowns, ranks, winners)


@pytest.mark.parametrize(
    ("count", "bonus"), [(0, 0), (4, 0), (5, 1), (6, 2), (7, 4), (8, 6), (9, 8), (15, 20)]
)
def test_eat_bonus(count: int, bonus: int) -> None:
    assert eat_bonus(count) == bonus


BASE = game(
    player(0, 0, [coin("B"), coin("F"), coin("K")]),
    player(1, 0, [coin("B"), coin("F")]),
    player(2),
    tours=[copy.deepcopy(COLLECTION_A)],
)


def changed(edit: Any, base: dict[str, Any] = BASE) -> dict[str, Any]:
    data = copy.deepcopy(base)
    edit(data)
    return data


def two_players(data: dict[str, Any]) -> None:
    data["players"].pop()


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (
            changed(lambda d: d["players"][0]["site_coins"].extend(coin(c) for c in "CDEGHI")),
            "players[0].site_coins: must have at most 8 site coins, got 9",
        ),
        (
            changed(lambda d: d["players"][0]["site_coins"].append(coin("B"))),
            "players[0].site_coins[3].circle: a second coin of circle B (already at site_coins[0])",
        ),
        (
            changed(lambda d: d["players"][2]["site_coins"].append(coin("B"))),
            "players: 3 site coins of circle B in all (at most 2 in this game)",
        ),
        (
            changed(lambda d: (two_players(d), d["tours"].clear())),
            "players: 2 site coins of circle B in all (at most 1 in this game)",
        ),
        (
            changed(lambda d: d["players"][0]["site_coins"][0].update(color="red")),
            'players[0].site_coins[0].color: unknown colour "red" (one of: pink, green, blue)',
        ),
        (
            changed(lambda d: d["players"][0]["site_coins"][0].update(circle="BB")),
            'players[0].site_coins[0].circle: a circle is one letter, got "BB"',
        ),
        (
            changed(lambda d: d["players"][0].update(pieces=["C", "C"])),
            "players[0].pieces: both pieces on circle C: only A and N hold more than one piece",
        ),
        (
            changed(lambda d: d["players"][0].update(pieces=["A"])),
            "players[0].pieces: must have exactly 2 pieces, got 1",
        ),
        (
            changed(lambda d: d.update(advanced=True) or d["tours"][0].update(claimed_by="Zed")),
            "tours[0].claimed_by: 'Zed' is not one of the players",
        ),
        (
            changed(lambda d: d.update(tours=[{**BIG_EATER, "claimed_by": "Aki"}], advanced=True)),
            "tours[0].claimed_by: only collection and genre cards are claimed",
        ),
        (
            changed(lambda d: d["tours"][0].update(claimed_by="Aki")),
            "tours[0].claimed_by: cards are claimed only with the advanced rules",
        ),
        (
            changed(lambda d: d.update(advanced=True) or d["tours"][0].update(claimed_by="Ben")),
            "tours[0].claimed_by: Ben does not meet card A",
        ),
        (
            changed(
                lambda d: d.update(advanced=True) or d["players"][1]["site_coins"].append(coin("K"))
            ),
            "tours[0]: Aki and Ben meet card A: say who completed it first (claimed_by)",
        ),
        (
            changed(lambda d: d["tours"][0].update(kind="genre")),
            "tours[0].kind: card A is a collection card, not genre",
        ),
        (
            changed(lambda d: d["tours"][0].update(card="Z")),
            'tours[0].card: the tour cards are A to M, got "Z"',
        ),
        (
            changed(lambda d: d["tours"][0].pop("circles")),
            "tours[0].circles: missing (required for a collection card)",
        ),
        (
            changed(lambda d: d["tours"][0].update(color="pink")),
            "tours[0].color: only used on a genre card",
        ),
        (
            changed(lambda d: d["tours"].append(copy.deepcopy(COLLECTION_A))),
            "tours[1].card: card A is already at tours[0]",
        ),
        (
            changed(lambda d: d.update(advanced="yes")),
            'advanced: must be true or false, got the text "yes"',
        ),
        (changed(lambda d: d.pop("tours")), "tours: missing (this field is required)"),
        (
            changed(
                lambda d: (
                    d["players"].append(player(3))
                    or d["players"].append({**player(3), "name": "Eve"})
                )
            ),
            "players: must have at most 4 players, got 5",
        ),
        (
            changed(lambda d: d["players"][0].update(eat_coins=[1, -2])),
            "players[0].eat_coins[1]: must be between 0 and 10, got -2",
        ),
        (
            changed(lambda d: d["players"][0].update(taxi_tickets=[{"circle": "B"}])),
            "players[0].taxi_tickets[0].points: missing (this field is required)",
        ),
    ],
)
def test_validation_rules(data: dict[str, Any], expected: str) -> None:
    assert expected in problems("kamakura", data)


def test_two_players_always_play_the_advanced_rules() -> None:
    data = game(
        player(0, 0, [coin("B")]),
        player(1, 0, [coin("F")]),
        tours=[
            {"card": "C", "kind": "collection", "circles": ["B"], "points": 4, "claimed_by": "Aki"}
        ],
        advanced=False,
    )
    assert [p["breakdown"]["tours"] for p in score("kamakura", data)["players"]] == [4, 0]
