"""Shibuya's kit: the tracker's win check, the one score pad, the seats, the set-up draw."""

from __future__ import annotations

import pytest

from companion.kits import KITS, PadOptions
from companion.kits.pad import PadSpec, document
from companion.kits.rounds import RoundState, Step
from companion.kits.shibuya import KIT, TEAMS, VARIANT_OPTIONS, VARIANTS, result_problems
from companion.play import setup
from scorers import SCORERS

TWO = ["Aki", "Ben"]
FOUR = ["Aki", "Ben", "Cho", "Dai"]


def state(names: list[str], values: list[int], option: str = "", start: int = 0) -> RoundState:
    sides = list(TEAMS) if len(names) == 4 else names
    return RoundState(names, sides, 3, start, values, option)


@pytest.mark.parametrize(
    ("names", "values", "option", "start", "step"),
    [
        (TWO, [6, 2], "standard", 0, Step("Aki wins! (Aki 6 – 2 Ben)", 3, 0, over=True)),
        (TWO, [2, 1], "standard", 0, Step("No winner yet (Aki 2 – 1 Ben); Ben plays next.", 4, 1)),
        (TWO, [2, 1], "standard", 1, Step("No winner yet (Aki 2 – 1 Ben); Aki plays next.", 4, 0)),
        (TWO, [4, 2], "no_construction", 0, Step("Aki wins! (Aki 4 – 2 Ben)", 3, 0, over=True)),
        (TWO, [4, 2], "", 0, Step("No winner yet (Aki 4 – 2 Ben); Ben plays next.", 4, 1)),
        (TWO, [0, 3], "", 0, Step("Ben wins! (Aki 0 – 3 Ben)", 3, 0, over=True)),
        (FOUR, [2, 1, 3, 1], "standard", 0, Step("Red wins! (Red 5 – 2 Blue)", 3, 0, over=True)),
        (
            FOUR,
            [3, 3, 3, 3],
            "standard",
            2,
            Step(
                "Red 6 – 6 Blue: both sides have 6 or more pawns at goal: only one can have won",
                3,
                2,
            ),
        ),
        (
            FOUR,
            [1, 1, 0, 1],
            "standard",
            3,
            Step("No winner yet (Red 1 – 2 Blue); Aki plays next.", 4, 0),
        ),
    ],
)
def test_the_tracker_checks_for_a_winner_with_the_scorer(
    names: list[str], values: list[int], option: str, start: int, step: Step
) -> None:
    assert KIT.rounds.apply(state(names, values, option, start)) == step


def test_the_tracker_words() -> None:
    rounds = KITS["shibuya"].rounds
    assert (rounds.word, rounds.last, rounds.text(3)) == ("Turn", None, "Turn 3")
    assert rounds.hint == "Pawns at goal, per player:"
    assert rounds.button == "Check for a winner"
    assert (rounds.entry, rounds.count_name) == ("count", "pawns at goal")
    assert rounds.option_name == "Rules"
    assert rounds.options == (
        ("standard (6 at goal)", "standard"),
        ("optional rule (4)", "no_construction"),
    )


def test_one_pad_for_both_faces() -> None:
    spec = KIT.pad(PadOptions(2, ("Red", "Blue"), teams=True))
    assert isinstance(spec, PadSpec)
    assert [(r.id, r.label, r.field, r.shared, r.low, r.high, r.topic) for r in spec.rows] == [
        ("goals", "Pawns at goal", "goals", False, 0, 8, "how-to-win"),
        ("variant", "Rules", "variant", True, 0, None, "optional-rule"),
    ]
    assert spec.rows[1].options == VARIANT_OPTIONS
    assert spec.rows[1].shown("no_construction") == "optional rule (4)"
    values = {"goals.0": 6, "goals.1": 3, "variant": "standard"}
    members = [["Aki", "Cho"], ["Ben", "Dai"]]
    file = document(spec, "shibuya", ["Red", "Blue"], values, members=members)
    assert file == {
        "game": "shibuya",
        "variant": "standard",
        "players": [
            {"name": "Red", "members": ["Aki", "Cho"], "goals": 6},
            {"name": "Blue", "members": ["Ben", "Dai"], "goals": 3},
        ],
    }
    assert SCORERS["shibuya"].score_json(file).winners == ("Red",)


@pytest.mark.parametrize(
    ("goals", "variant", "found"),
    [
        ([6, 3], "standard", []),
        ([4, 2], "no_construction", []),
        (
            [4, 2],
            "standard",
            ["the game is not over: no side has 6 pawns at goal or leads by 3"],
        ),
        (
            [6, 6],
            "standard",
            ["both sides have 6 or more pawns at goal: only one can have won"],
        ),
        ([None, 2], "standard", []),  # not typed yet: the scorer says so
        ([6, 2], "other", []),  # an unknown variant: the scorer says so
    ],
)
def test_the_result_must_be_one_the_rules_give(
    goals: list[int | None], variant: str, found: list[str]
) -> None:
    players = [
        {"name": n, **({} if g is None else {"goals": g})} for n, g in zip(TWO, goals, strict=True)
    ]
    problems = result_problems({"game": "shibuya", "variant": variant, "players": players})
    paths = ["players[0].goals", "players[1].goals", "variant"]  # the rules decide as well
    assert problems == [(m, paths) for m in found]


def test_seats_are_team_colours_with_four_players() -> None:
    assert [KIT.seat_label(k, 4) for k in range(4)] == ["Red 1", "Blue 1", "Red 2", "Blue 2"]
    assert [KIT.seat_label(k, 2) for k in range(2)] == ["Player 1", "Player 2"]


def test_the_variants_in_players_words() -> None:
    assert VARIANTS == {
        "Standard: build the city, then 6 pawns at goal": "standard",
        "Optional rule: no construction, 4 pawns at goal": "no_construction",
    }


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("seed", [1, 4242, 999_999])
def test_the_set_up_is_what_it_was(players: int, seed: int) -> None:
    seats = [f"Player {k}" for k in range(1, players + 1)]
    steps = [
        "Each side takes a colour: 8 pawns and 2 goal tiles.",
        "Shuffle the 30 street tiles into a face-down pile.",
        "Pawns and goals around an empty 4 x 4 area, as in the diagram.",
    ]
    teams = ["Two teams of two; partners sit opposite each other."] if players == 4 else []
    assert KIT.checklist(players) == teams + steps
    drawn = KIT.draws(seats, seed) if KIT.draws else {}
    assert drawn == {"start_player": setup.pick(seats, seed, "start")}
    assert KIT.describe_draws(drawn) == [f"Start player: {drawn['start_player']}"]
    assert (dict(KIT.offers), dict(KIT.later)) == ({}, {})
