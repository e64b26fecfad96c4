"""Bounded score files: every number has a range, lists a length, names the one rule."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterator
from typing import Any

import pytest

from scorers import SCORERS, ScoreFileError
from scorers._validate import INT64_MAX
from tests.support.helpers import problems, score
from tests.support.score_examples import EXAMPLES, KAMAKURA, SHIBUYA, SHIMODA, TOKAIDO_FINAL


def game_of(example: str) -> str:
    return example.split()[0]


@pytest.mark.parametrize("example", EXAMPLES)
def test_the_examples_are_valid(example: str) -> None:
    assert score(game_of(example), copy.deepcopy(EXAMPLES[example]))["players"]


def number_paths(value: Any, path: str = "") -> Iterator[tuple[str, list[Any]]]:
    """``(json path, key path)`` of every whole number in a document."""
    if isinstance(value, dict):
        for key, child in value.items():
            for inner, keys in number_paths(child, f"{path}.{key}" if path else key):
                yield inner, [key, *keys]
    elif isinstance(value, list):
        for k, child in enumerate(value):
            for inner, keys in number_paths(child, f"{path}[{k}]"):
                yield inner, [k, *keys]
    elif type(value) is int:
        yield path, []


def with_value(document: dict[str, Any], keys: list[Any], value: object) -> dict[str, Any]:
    changed = copy.deepcopy(document)
    target: Any = changed
    for key in keys[:-1]:
        target = target[key]
    target[keys[-1]] = value
    return changed


def distinct_number_paths(document: dict[str, Any]) -> list[tuple[str, list[Any]]]:
    """One number path per field: the first of the entries that repeat a shape."""
    seen: set[str] = set()
    paths = []
    for path, keys in number_paths(document):
        shape = re.sub(r"\[\d+\]", "[]", path)
        if shape not in seen:
            seen.add(shape)
            paths.append((path, keys))
    return paths


@pytest.mark.parametrize("example", EXAMPLES)
def test_every_number_has_a_bound(example: str) -> None:
    """No number of any score file passes unbounded: each gets a problem at its own path."""
    document = EXAMPLES[example]
    paths = distinct_number_paths(document)
    assert paths
    for path, keys in paths:
        for huge in (2**62, INT64_MAX + 1, 10**400, -1):
            found = problems(game_of(example), with_value(document, keys, huge))
            assert any(p.startswith(f"{path}: ") for p in found), (path, huge, found)
            assert all(len(p) < 200 for p in found)


# (example, key path, the largest value the game allows)
BOUNDS = [
    ("shimoda", ["players", 0, "merchant_points"], 99),
    ("shimoda", ["players", 0, "street", 0, "chairs"], 5),
    ("shimoda", ["players", 0, "street", 0, "card", "scoring", "points"], 10),
    ("shimoda", ["players", 0, "street", 0, "tourists", "blue"], 2),
    ("shibuya", ["players", 0, "goals"], 8),
    ("tokaido final", ["players", 0, "journey"], 300),
    ("tokaido final", ["players", 0, "temple"], 50),
    ("tokaido final", ["players", 0, "meal_cost"], 12),
    ("tokaido final", ["players", 0, "souvenirs"], 24),
    ("tokaido final", ["players", 0, "hot_springs"], 12),
    ("tokaido final", ["players", 0, "encounters"], 14),
    ("tokaido final", ["players", 0, "panorama_achievements"], 3),
    ("tokaido recount", ["players", 0, "journey"], 300),
    ("tokaido recount", ["players", 0, "temple"], 50),
    ("tokaido recount", ["players", 0, "souvenirs", "art"], 6),
    ("tokaido recount", ["players", 0, "encounters", "annaibito"], 6),
    ("tokaido recount", ["players", 0, "encounters", "samurai"], 2),
    ("tokaido recount", ["players", 0, "encounters", "miko"], 2),
    ("kamakura", ["players", 0, "track"], 100),
    ("kamakura", ["players", 0, "site_coins", 0, "value"], 10),
    ("kamakura", ["players", 0, "eat_coins", 0], 10),
    ("kamakura", ["players", 0, "taxi_tickets", 0, "points"], 10),
    ("kamakura", ["tours", 0, "points"], 20),
    ("shogun", ["players", 0, "score_before"], 210),
    ("shogun", ["players", 0, "war_chests"], 200),
    ("shogun", ["year"], 2),
]


def dotted(keys: list[Any]) -> str:
    out = ""
    for key in keys:
        out += f"[{key}]" if isinstance(key, int) else (f".{key}" if out else key)
    return out


@pytest.mark.parametrize(("example", "keys", "top"), BOUNDS, ids=[dotted(k) for _, k, _ in BOUNDS])
def test_each_bound_is_the_game_s(example: str, keys: list[Any], top: int) -> None:
    game = game_of(example)
    assert score(game, with_value(EXAMPLES[example], keys, top))
    low = 1 if keys == ["year"] else 0
    limit = 3 if keys[-1] == "blue" else top  # a Shimoda space holds 3 tourists
    assert problems(game, with_value(EXAMPLES[example], keys, limit + 1)) == [
        f"{dotted(keys)}: must be between {low} and {limit}, got {limit + 1}"
    ]


@pytest.mark.parametrize(
    ("example", "keys", "item", "expected"),
    [
        ("kamakura", ["players", 0, "eat_coins"], 1, "must have at most 15 coins, got 16"),
        (
            "kamakura",
            ["players", 0, "taxi_tickets"],
            {"circle": "B", "points": 1},
            "must have at most 11 tickets, got 16",
        ),
        ("kamakura", ["tours"], {"card": "Z"}, "must have at most 13 cards, got 16"),
        ("kamakura", ["tours", 0, "circles"], "B", "must have at most 8 circles, got 16"),
        ("tokaido recount", ["players", 0, "hot_springs"], 2, "must have at most 12 cards, got 16"),
        ("tokaido recount", ["players", 0, "meals"], "x", "must have at most 4 cards, got 16"),
        ("shimoda", ["players", 0, "street"], {}, "must have exactly 7 spaces, got 16"),
        ("shogun", ["players"], {}, "must have at most 5 players, got 16"),
    ],
)
def test_a_list_too_long_is_one_problem(
    example: str, keys: list[Any], item: object, expected: str
) -> None:
    found = problems(game_of(example), with_value(EXAMPLES[example], keys, [item] * 16))
    assert found == [f"{dotted(keys)}: {expected}"]


def test_a_huge_players_list_is_one_problem() -> None:
    found = problems("tokaido", {"players": [{"name": 5}] * 200_000})
    assert found == ["players: must have at most 5 players, got 200000"]


def test_the_box_limits_eat_coins_and_taxi_tickets_across_players() -> None:
    document = copy.deepcopy(KAMAKURA)
    document["players"][0]["eat_coins"] = [1] * 8
    document["players"][1]["eat_coins"] = [1] * 8
    document["players"][2]["taxi_tickets"] = [{"circle": "C", "points": 1}] * 10
    assert problems("kamakura", document) == [
        "players: 16 eat-around coins in all (the box has 15)",
        "players: 12 unused taxi tickets in all (the box has 11)",
    ]


def test_many_unknown_keys_are_one_problem() -> None:
    document = copy.deepcopy(TOKAIDO_FINAL)
    document["players"][0].update({f"extra{k}": k for k in range(5000)})
    assert problems("tokaido", document) == [
        'players[0]: 5000 unknown keys, the first "extra0"',
    ]


def test_a_hostile_key_is_shown_quoted_short_and_escaped() -> None:
    document = copy.deepcopy(TOKAIDO_FINAL)
    document["players"][0]["\x1b[2J" + "k" * 100] = 1
    shown = '"\\u001b[2J' + "k" * 27 + "..."
    assert problems("tokaido", document) == [f"players[0][{shown}]: unknown key"]


def test_a_long_text_in_a_message_is_cut_short() -> None:
    document = copy.deepcopy(KAMAKURA)
    document["tours"][0]["card"] = "Q" * 100_000
    assert problems("kamakura", document) == [
        'tours[0].card: the tour cards are A to M, got "' + "Q" * 36 + "..."
    ]


# --- names ----------------------------------------------------------------


def named(*names: object) -> dict[str, Any]:
    document = copy.deepcopy(TOKAIDO_FINAL)
    for entry, name in zip(document["players"], names, strict=True):
        entry["name"] = name
    return document


def test_names_are_stored_trimmed_and_nfc() -> None:
    scored = score("tokaido", named("  Zoe\u0308   Ann ", "\tBen\n"))
    assert [p["name"] for p in scored["players"]] == ["Zoë Ann", "Ben"]
    assert scored["winners"] == ["Ben"]


@pytest.mark.parametrize(
    ("names", "expected"),
    [
        (
            ("Aki", "aki"),
            "players[1].name: 'aki' is the same player as players[0] ('Aki'): "
            "names that differ only in capitals are one player",
        ),
        (("Aki", " Aki"), "players[1].name: 'Aki' is already the name of players[0]"),
        (
            ("Straße", "STRASSE"),
            "players[1].name: 'STRASSE' is the same player as players[0] "
            "('Straße'): names that differ only in capitals are one player",
        ),
        (("x" * 41, "Ben"), "players[0].name: is 41 characters long (at most 40)"),
        (("A\tB", "Ben"), "players[0].name: must not contain a tab"),
        (("A\x1b[31mB", "Ben"), "players[0].name: must not contain an escape character"),
        (
            ("A\u200bB", "Ben"),
            "players[0].name: must not contain the invisible character U+200B (zero width space)",
        ),
        (("   ", "Ben"), "players[0].name: must not be empty"),
        ((7, "Ben"), "players[0].name: must be a text, got 7"),
    ],
)
def test_names_follow_the_name_rule(names: tuple[object, ...], expected: str) -> None:
    assert problems("tokaido", named(*names)) == [expected]


def test_a_200_mb_style_name_is_refused_in_one_short_line() -> None:
    assert problems("tokaido", named("x" * 1_000_000, "Ben")) == [
        "players[0].name: is 1000000 characters long (at most 40)"
    ]


def test_claimed_by_names_a_player_by_the_same_rule() -> None:
    document = copy.deepcopy(KAMAKURA)
    document["advanced"] = True
    document["tours"][0]["claimed_by"] = "  aki "
    earned = score("kamakura", document)
    assert [p["breakdown"]["tours"] for p in earned["players"]] == [5 + 5, 5, 0]  # A, and L
    document["tours"][0]["claimed_by"] = "Zed"
    assert problems("kamakura", document) == [
        "tours[0].claimed_by: 'Zed' is not one of the players"
    ]
    document["tours"][0]["claimed_by"] = "A\nB"
    assert problems("kamakura", document) == ["tours[0].claimed_by: must not contain a line break"]


def test_shibuya_members_follow_the_name_rule() -> None:
    document = copy.deepcopy(SHIBUYA)
    document["players"][1]["members"] = ["cho", "AKI"]
    assert problems("shibuya", document) == [
        "players[1].members[1]: 'AKI' is already listed at players[0].members[0] as 'Aki'"
    ]
    document["players"][1]["members"] = [" Cho ", "x" * 41]
    assert problems("shibuya", document) == [
        "players[1].members[1]: is 41 characters long (at most 40)"
    ]


def test_the_merchant_is_a_name_too() -> None:
    document = copy.deepcopy(SHIMODA)
    document["players"][0]["merchant"] = "M" * 41
    assert problems("shimoda", document) == [
        "players[0].merchant: is 41 characters long (at most 40)"
    ]


def test_a_stored_score_file_rescores_to_the_same_names() -> None:
    text = json.dumps(named(" Aki ", "Ben"))
    from companion.history.rescoring import score_text

    first = score_text(SCORERS["tokaido"], text).to_json()
    assert first == score_text(SCORERS["tokaido"], text).to_json()
    assert [p["name"] for p in first["players"]] == ["Aki", "Ben"]


def test_score_file_error_is_a_value_error() -> None:
    assert issubclass(ScoreFileError, ValueError)


def test_a_long_plain_key_is_cut_short_too() -> None:
    document = copy.deepcopy(TOKAIDO_FINAL)
    document["players"][0]["x" * 5000] = 1
    assert problems("tokaido", document) == [f'players[0]["{"x" * 36}...]: unknown key']


def test_a_long_game_name_is_cut_short() -> None:
    document = copy.deepcopy(TOKAIDO_FINAL)
    document["game"] = "x" * 5000
    assert problems("tokaido", document) == [
        f"game: this file is for '{'x' * 37}'..., not 'tokaido'"
    ]
    from scorers import UnknownGameError, find_game

    with pytest.raises(UnknownGameError) as caught:
        find_game("y" * 5000)
    assert len(str(caught.value)) < 150
