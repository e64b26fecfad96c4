"""History stats against tables worked out by hand (see tests/history_fixture.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companion.history import Filter, History
from companion.stats import compute
from companion.stats_render import bar
from tests.history_fixture import fill


def stats_of(path: Path, game: str | None = None) -> dict[str, Any]:
    fill(path)
    with History(path) as history:
        return compute(history.seat_rows(Filter(game=game))).to_json()


def test_players(db_path: Path) -> None:
    players = stats_of(db_path)["players"]
    summary = [
        (
            p["name"],
            p["plays"],
            p["wins"],
            p["win_rate"],
            p["current_streak"],
            p["rival"],
            p["nemesis"],
        )
        for p in players
    ]
    assert summary == [
        ("Aki", 7, 4, 0.5714, 1, "Ben", "Ben"),
        ("Ben", 6, 3, 0.5, 0, "Aki", "Aki"),
        ("Cho", 5, 1, 0.2, 0, "Aki", "Aki"),
        ("Dai", 2, 0, 0.0, 0, "Aki", None),
    ]


def test_scores_per_game(db_path: Path) -> None:
    games = {p["name"]: p["games"] for p in stats_of(db_path)["players"]}
    assert games["Aki"] == {
        "tokaido": {"plays": 4, "wins": 2, "average_score": 59.5, "best_score": 65},
        "shogun": {"plays": 2, "wins": 1, "average_score": 42.5, "best_score": 50},
        "shibuya": {"plays": 1, "wins": 1, "average_score": 6.0, "best_score": 6},
    }
    assert games["Cho"]["tokaido"] == {
        "plays": 3,
        "wins": 1,
        "average_score": 46.6667,
        "best_score": 70,
    }
    assert games["Dai"] == {
        "shogun": {"plays": 1, "wins": 0, "average_score": 20.0, "best_score": 20},
        "shibuya": {"plays": 1, "wins": 0, "average_score": 3.0, "best_score": 3},
    }


def test_games_high_scores_and_margins(db_path: Path) -> None:
    assert stats_of(db_path)["games"] == [
        {
            "game": "shibuya",
            "plays": 1,
            "high_score": 6,
            "high_scorers": ["Aki"],
            "average_winning_score": 6.0,
            "average_margin": 3.0,
        },
        {
            "game": "shogun",
            "plays": 2,
            "high_score": 50,
            "high_scorers": ["Aki"],
            "average_winning_score": 45.0,
            "average_margin": 5.0,
        },
        {
            "game": "tokaido",
            "plays": 4,
            "high_score": 70,
            "high_scorers": ["Cho"],
            "average_winning_score": 61.5,
            "average_margin": 10.75,
        },
    ]


def test_head_to_head(db_path: Path) -> None:
    pairs = [
        (
            *h["players"],
            h["plays"],
            h["above"][h["players"][0]],
            h["above"][h["players"][1]],
            h["ties"],
        )
        for h in stats_of(db_path)["head_to_head"]
    ]
    assert pairs == [
        ("Aki", "Ben", 6, 3, 2, 1),
        ("Aki", "Cho", 5, 4, 1, 0),
        ("Ben", "Cho", 5, 4, 1, 0),
        ("Aki", "Dai", 2, 2, 0, 0),
        ("Ben", "Dai", 1, 1, 0, 0),
        ("Cho", "Dai", 1, 1, 0, 0),
    ]


def test_one_game_only(db_path: Path) -> None:
    stats = stats_of(db_path, "tokaido")
    assert [(p["name"], p["plays"], p["wins"], p["current_streak"]) for p in stats["players"]] == [
        ("Aki", 4, 2, 0),
        ("Ben", 4, 2, 1),
        ("Cho", 3, 1, 1),
    ]
    assert [g["game"] for g in stats["games"]] == ["tokaido"]


def test_empty_history(db_path: Path) -> None:
    with History(db_path) as history:
        assert compute(history.seat_rows()).to_json() == {
            "players": [],
            "games": [],
            "head_to_head": [],
        }


def test_bar() -> None:
    assert bar(0.0) == " " * 10
    assert bar(1.0) == "█" * 10
    assert bar(0.5) == "█████     "
    assert bar(0.0625, 2) == "▏ "
