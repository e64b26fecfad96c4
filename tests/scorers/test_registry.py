"""The SCORERS registry and find_game."""

from __future__ import annotations

import pytest

from scorers import SCORERS, UnknownGameError, find_game


def test_registry_holds_the_five_games_in_order() -> None:
    # Then Orchard, the test suite's own game, registered after them (tests/support/extra_game).
    assert list(SCORERS) == ["shimoda", "shibuya", "tokaido", "kamakura", "shogun", "orchard"]


@pytest.mark.parametrize(
    ("name", "game"),
    [
        ("shimoda", "shimoda"),
        ("Shimoda: Perry Road", "shimoda"),
        ("SHIMODA PERRY ROAD", "shimoda"),
        ("Perry Road", "shimoda"),
        ("Shibuya", "shibuya"),
        (" tokaido ", "tokaido"),
        ("TOKAIDO", "tokaido"),
        ("kamakura", "kamakura"),
        ("Kamakura Collection", "kamakura"),
        ("kamakura-collection", "kamakura"),
        ("Shogun", "shogun"),
    ],
)
def test_find_game_resolves_ids_and_titles(name: str, game: str) -> None:
    assert find_game(name).info.id == game


@pytest.mark.parametrize("name", ["chess", "", "sh", "shi", "list", "go"])
def test_find_game_fails_clearly(name: str) -> None:
    with pytest.raises(UnknownGameError) as caught:
        find_game(name)
    assert caught.value.suggestion is None
    assert str(caught.value) == (f"unknown game {name!r} (choose one of: {', '.join(SCORERS)})")


@pytest.mark.parametrize(
    ("name", "closest"),
    [
        ("tokaidoo", "tokaido"),
        ("tokaido2", "tokaido"),
        ("Tokiado", "tokaido"),
        ("shog", "shogun"),
        ("showgun", "shogun"),
        ("shibuja", "shibuya"),
        ("Shimoda Perry Rd", "shimoda"),
        ("perry", "shimoda"),
        ("kamakura colection", "kamakura"),
        ("kamak", "kamakura"),
    ],
)
def test_a_misspelled_game_suggests_the_closest(name: str, closest: str) -> None:
    with pytest.raises(UnknownGameError) as caught:
        find_game(name)
    assert caught.value.suggestion == closest
    assert str(caught.value) == f"unknown game {name!r} (did you mean {closest}?)"


def test_player_counts_follow_the_boxes() -> None:
    counts = {g: (s.info.min_players, s.info.max_players) for g, s in SCORERS.items()}
    assert counts == {
        "shimoda": (2, 2),
        "shibuya": (2, 2),
        "tokaido": (2, 5),
        "kamakura": (2, 4),
        "shogun": (3, 5),
        "orchard": (2, 4),
    }


@pytest.mark.parametrize(
    "args",
    [
        ["score", "tokaidoo", "--input", "-", "--no-save"],
        ["play", "tokaidoo"],
        ["setup", "tokaidoo", "--players", "3"],
        ["rules", "tokaidoo"],
        ["rules", "tokaidoo", "inns"],
        ["rules", "search", "inn", "--game", "tokaidoo"],
        ["history", "list", "--game", "tokaidoo"],
        ["history", "stats", "--game", "tokaidoo"],
    ],
)
def test_every_command_that_takes_a_game_suggests_the_closest(args: list[str]) -> None:
    from typer.testing import CliRunner

    from companion.cli.app import app

    result = CliRunner().invoke(app, args, input="{}")
    assert result.exit_code == 2
    assert result.stderr == "Error: unknown game 'tokaidoo' (did you mean tokaido?)\n"
