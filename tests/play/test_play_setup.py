"""Set-up checklists and random draws, and ``companion setup``."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from companion.cli.app import app
from companion.kits.kamakura import TOUR_CARDS, draw_tours, tour_count
from companion.kits.tokaido import TRAVELER_COINS, deal_travelers, line_up
from companion.play.setup import PLAYER_COUNTS, SetupError, checklist, draws
from companion.wording import hanging

runner = CliRunner()


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("seed", [1, 77, 123456])
def test_traveller_deals_never_repeat_a_tile(players: int, seed: int) -> None:
    dealt = deal_travelers(players, seed)
    tiles = [t for pair in dealt for t in pair]
    assert [len(pair) for pair in dealt] == [2] * players
    assert len(set(tiles)) == 2 * players
    assert set(tiles) <= set(TRAVELER_COINS)


@pytest.mark.parametrize(
    ("players", "advanced", "first_game", "size"),
    [
        (2, True, False, 3),
        (3, False, False, 3),
        (3, True, False, 4),
        (4, False, True, 4),
        (4, True, True, 5),
    ],
)
def test_tour_draws_follow_the_player_count(
    players: int, advanced: bool, first_game: bool, size: int
) -> None:
    for seed in range(30):
        cards = draw_tours(players, seed, advanced=advanced, first_game=first_game)
        assert len(cards) == size == tour_count(players, advanced=advanced)
        assert len(set(cards)) == size
        assert set(cards) <= set(TOUR_CARDS)
        if first_game:
            assert not set(cards) & {"L", "M"}


def test_seeded_draws_repeat_and_unseeded_differ() -> None:
    assert draws("tokaido", 4, 99) == draws("tokaido", 4, 99)
    assert draws("kamakura", 3, 5) == draws("kamakura", 3, 5)
    assert len({json.dumps(draws("tokaido", 5, seed)) for seed in range(20)}) > 15
    first = json.loads(runner.invoke(app, ["setup", "tokaido", "-p", "4", "--json"]).stdout)
    second = json.loads(runner.invoke(app, ["setup", "tokaido", "-p", "4", "--json"]).stdout)
    assert first["seed"] != second["seed"]
    again = runner.invoke(
        app, ["setup", "tokaido", "-p", "4", "--seed", str(first["seed"]), "--json"]
    )
    assert json.loads(again.stdout) == first


def test_line_up_is_a_permutation() -> None:
    names = ["Aki", "Ben", "Cho", "Dai", "Emi"]
    for seed in range(20):
        assert sorted(line_up(names, seed)) == sorted(names)


@pytest.mark.parametrize(
    ("game", "players", "expected"),
    [
        ("shogun", 3, "18 war chests"),
        ("shogun", 4, "15 war chests"),
        ("shogun", 5, "12 war chests"),
        ("shogun", 3, "the 8 light-bordered provinces are out (37 in play)"),
        ("kamakura", 3, "Turn up 3 exclusive tour cards (4 with the advanced rules)"),
        ("kamakura", 4, "Point trackers: 0, 1, 2, 3 in turn order"),
        ("kamakura", 2, "Put 1 site coin on each lettered circle."),
        ("tokaido", 4, "Double spaces are in play (4-5 players)."),
        ("tokaido", 3, "Double spaces: only the space on the road is used (2-3 players)."),
        ("tokaido", 2, "neutral third traveller"),
        ("tokaido", 5, "the first arrival will draw 6 meal cards"),
        ("shimoda", 2, "Veterinarian, Antique Dealer, Lantern Maker, Florist"),
        ("shibuya", 4, "partners sit opposite each other"),
    ],
)
def test_checklists_work_out_the_numbers(game: str, players: int, expected: str) -> None:
    assert any(expected in step for step in checklist(game, players))


@pytest.mark.parametrize("game", sorted(PLAYER_COUNTS))
def test_player_counts_are_enforced(game: str) -> None:
    with pytest.raises(SetupError):
        checklist(game, 6)
    result = runner.invoke(app, ["setup", game, "--players", "1"])
    assert result.exit_code == 2
    assert result.stderr.startswith(f"Error: {game} is played by ")


def test_setup_output() -> None:
    result = runner.invoke(app, ["setup", "kamakura", "--players", "2", "--seed", "7"])
    drawn = draws("kamakura", 2, 7)
    assert (
        result.stdout
        == "\n".join(
            [
                "Set-up for kamakura, 2 players:",
                # (wrapped at whole words at the terminal's 80 columns)
                *(hanging(f"  {k}. ", s) for k, s in enumerate(checklist("kamakura", 2), 1)),
                "Draws (seed 7; --seed 7 repeats them):",
                "  Exclusive tour cards: " + ", ".join(drawn["tours"]),
                "    first game (no L or M): " + ", ".join(drawn["tours_first_game"]),
                f"  Start player: {drawn['start_player']}",
            ]
        )
        + "\n"
    )
