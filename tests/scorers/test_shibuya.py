"""Shibuya scorer."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.helpers import expect, problems, score


def game(red: int, blue: int, variant: str | None = None, teams: bool = False) -> dict[str, Any]:
    data: dict[str, Any] = {
        "game": "shibuya",
        "players": [{"name": "Red", "goals": red}, {"name": "Blue", "goals": blue}],
    }
    if variant:
        data["variant"] = variant
    if teams:
        data["players"][0]["members"] = ["Aki", "Ben"]
        data["players"][1]["members"] = ["Cho", "Dai"]
    return data


@pytest.mark.parametrize(
    ("data", "ranks", "winners"),
    [
        pytest.param(game(6, 2), [1, 2], ["Red"], id="six-at-goal"),
        pytest.param(game(6, 5), [1, 2], ["Red"], id="six-at-goal-narrowly"),
        pytest.param(game(4, 1), [1, 2], ["Red"], id="leads-by-three"),
        pytest.param(game(3, 0), [1, 2], ["Red"], id="leads-by-three-from-zero"),
        pytest.param(game(2, 5), [2, 1], ["Blue"], id="second-side-leads-by-three"),
        pytest.param(game(8, 0), [1, 2], ["Red"], id="all-eight"),
        pytest.param(game(4, 3, "no_construction"), [1, 2], ["Red"], id="optional-rule-four"),
        pytest.param(game(1, 4, "no_construction"), [2, 1], ["Blue"], id="optional-rule-blue"),
        pytest.param(game(3, 0, "no_construction"), [1, 2], ["Red"], id="optional-rule-lead"),
        pytest.param(game(4, 6, teams=True), [2, 1], ["Blue"], id="four-players-in-teams"),
        pytest.param(game(5, 6, "standard"), [2, 1], ["Blue"], id="explicit-standard"),
    ],
)
def test_winner(data: dict[str, Any], ranks: list[int], winners: list[str]) -> None:
    goals = [p["goals"] for p in data["players"]]
    expect(score("shibuya", data), [{"goals": g} for g in goals], ranks, winners)


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (game(5, 3), "players: the game is not over: no side has 6 pawns at goal or leads by 3"),
        (game(0, 0), "players: the game is not over: no side has 6 pawns at goal or leads by 3"),
        (
            game(3, 2, "no_construction"),
            "players: the game is not over: no side has 4 pawns at goal or leads by 3",
        ),
        (game(6, 6), "players: both sides have 6 or more pawns at goal: only one can have won"),
        (
            game(4, 5, "no_construction"),
            "players: both sides have 4 or more pawns at goal: only one can have won",
        ),
        (game(9, 0), "players[0].goals: must be between 0 and 8, got 9"),
        (game(6, -1), "players[1].goals: must be between 0 and 8, got -1"),
        (
            game(6, 0, "quick"),
            'variant: unknown variant "quick" (one of: standard, no_construction)',
        ),
    ],
)
def test_invalid(data: dict[str, Any], expected: str) -> None:
    assert problems("shibuya", data) == [expected]


def test_teams_must_both_list_members() -> None:
    data = game(6, 0, teams=True)
    del data["players"][1]["members"]
    assert problems("shibuya", data) == [
        "players: either both sides list their two members (4 players) or neither does"
    ]


def test_team_members_are_two_different_people() -> None:
    data = game(6, 0, teams=True)
    data["players"][0]["members"] = ["Aki"]
    data["players"][1]["members"] = ["Cho", "Cho"]
    assert problems("shibuya", data) == [
        "players[0].members: must have exactly 2 members, got 1",
        "players[1].members[1]: 'Cho' is already listed at players[1].members[0]",
    ]


def test_three_sides_are_refused() -> None:
    data = game(6, 0)
    data["players"].append({"name": "Green", "goals": 0})
    assert problems("shibuya", data) == ["players: must have exactly 2 players, got 3"]
