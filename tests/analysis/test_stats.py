"""History stats against tables worked out by hand (see tests/support/history_fixture.py)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.analysis.stats import compute
from companion.history.model import Filter
from companion.history.stat_queries import of_history, seat_rows
from companion.history.store import History
from companion.terminal.stats_tables import bar
from tests.support.history_fixture import fill, random_play


def stats_of(path: Path, game: str | None = None) -> dict[str, Any]:
    fill(path)
    with History(path) as history:
        return compute(seat_rows(history, Filter(game=game))).to_json()


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
        "tokaido": {
            "plays": 4,
            "wins": 2,
            "scored_plays": 4,
            "average_score": 59.5,
            "best_score": 65,
        },
        "shogun": {
            "plays": 2,
            "wins": 1,
            "scored_plays": 2,
            "average_score": 42.5,
            "best_score": 50,
        },
        "shibuya": {
            "plays": 1,
            "wins": 1,
            "scored_plays": 1,
            "average_score": 6.0,
            "best_score": 6,
        },
    }
    assert games["Cho"]["tokaido"] == {
        "plays": 3,
        "wins": 1,
        "scored_plays": 3,
        "average_score": 46.6667,
        "best_score": 70,
    }
    assert games["Dai"] == {
        "shogun": {
            "plays": 1,
            "wins": 0,
            "scored_plays": 1,
            "average_score": 20.0,
            "best_score": 20,
        },
        "shibuya": {
            "plays": 1,
            "wins": 0,
            "scored_plays": 1,
            "average_score": 3.0,
            "best_score": 3,
        },
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
        assert compute(seat_rows(history)).to_json() == {
            "players": [],
            "games": [],
            "head_to_head": [],
        }


def test_bar() -> None:
    assert bar(0.0) == " " * 10
    assert bar(1.0) == "█" * 10
    assert bar(0.5) == "█████     "
    assert bar(0.0625, 2) == "▏ "


FILES = Path(__file__).parents[1] / "files"


def imported(path: Path) -> dict[str, Any]:
    """The stats of the hand-written BG Stats backup (times read in UTC)."""
    from companion.history.formats.dispatch import parse

    parsed = parse((FILES / "bgstats-backup.bgsplay").read_text())
    with History(path) as history:
        history.add(parsed.plays, keep_ids=False)
        return compute(seat_rows(history)).to_json()


def test_teams_blanks_ignored_and_anonymous(db_path: Path) -> None:
    """Red (Aki, Cho) beat Blue (Ben, Dai) 6-3 at Shibuya; Cho's Tokaido score was
    left blank; Ben's Shogun score too; the ignored play (the anonymous player
    won) counts for nobody; nobody was marked winner at the last Tokaido."""
    stats = imported(db_path)
    assert [(p["name"], p["plays"], p["wins"], p["current_streak"]) for p in stats["players"]] == [
        ("Aki", 3, 2, 1),
        ("Cho", 3, 1, 0),
        ("Ben", 3, 0, 0),
        ("Dai", 3, 0, 0),
    ]
    games = {p["name"]: p["games"] for p in stats["players"]}
    assert games["Cho"]["tokaido"] == {
        "plays": 2,
        "wins": 0,
        "scored_plays": 1,
        "average_score": 61.0,
        "best_score": 61,
    }
    assert games["Ben"]["shogun"] == {
        "plays": 1,
        "wins": 0,
        "scored_plays": 0,
        "average_score": None,
        "best_score": None,
    }
    assert games["Aki"]["tokaido"]["best_score"] == 80  # 58+10+4+4+4; the ignored 70 not counted
    assert stats["games"] == [
        {
            "game": "shibuya",
            "plays": 1,
            "high_score": 6,
            "high_scorers": ["Aki", "Cho"],
            "average_winning_score": 6.0,
            "average_margin": 3.0,
        },
        {
            "game": "shogun",
            "plays": 1,
            "high_score": 44,
            "high_scorers": ["Dai"],
            "average_winning_score": None,
            "average_margin": None,
        },
        {
            "game": "tokaido",
            "plays": 2,
            "high_score": 80,
            "high_scorers": ["Aki"],
            "average_winning_score": 80.0,
            "average_margin": 22.0,
        },
    ]
    pairs = {
        tuple(h["players"]): (h["plays"], h["above"], h["ties"]) for h in stats["head_to_head"]
    }
    # Partners are not opponents: Aki and Cho met only at Tokaido.
    assert pairs[("Aki", "Cho")] == (1, {"Aki": 1, "Cho": 0}, 0)
    assert pairs[("Aki", "Ben")] == (3, {"Aki": 2, "Ben": 0}, 1)
    assert pairs[("Cho", "Dai")] == (2, {"Cho": 1, "Dai": 1}, 0)


def test_interim_scorings_do_not_count(db_path: Path) -> None:
    """Interim scorings (a Shogun first winter) are left out of the stats."""
    import sqlite3

    fill(db_path)
    with sqlite3.connect(db_path) as db:
        db.execute("UPDATE plays SET status = 'interim' WHERE game = 'shogun'")
    db.close()
    with History(db_path) as history:
        stats = compute(seat_rows(history)).to_json()
    assert [g["game"] for g in stats["games"]] == ["shibuya", "tokaido"]


def test_a_name_in_other_cases_is_one_person(db_path: Path) -> None:
    from tests.support.history_fixture import result

    with History(db_path) as history:
        for minute, name in enumerate(("Zoë", "ZOË", "zoë")):
            history.record(
                game="tokaido",
                score_file=None,
                result=result("tokaido", [(name, 60, 1), ("Ben", 50, 2)], [name]),
                played_at=f"2026-03-01T20:0{minute}:00Z",
            )
        stats = compute(seat_rows(history)).to_json()
    assert [(p["name"], p["plays"], p["wins"]) for p in stats["players"]] == [
        ("zoë", 3, 3),
        ("Ben", 3, 0),
    ]


# ---------------------------------------------------------------- SQLite adds up the same


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rng=st.randoms(use_true_random=False), count=st.integers(min_value=0, max_value=40))
def test_sqlite_adds_up_what_compute_works_out(
    tmp_path_factory: pytest.TempPathFactory, rng: random.Random, count: int
) -> None:
    """The stats `history stats` reads from SQLite are the stats of every seat, exactly
    (same figures, same order), for every filter; saved one by one or imported."""
    path = tmp_path_factory.mktemp("stats") / "history.sqlite3"
    plays = [random_play(rng, k) for k in range(count)]
    with History(path) as history:
        history.add(plays[:-3], keep_ids=False)
        for play in plays[-3:]:
            history.add([play], keep_ids=False)
        filters = [
            Filter(),
            Filter(game="tokaido"),
            Filter(game="shibuya"),
            Filter(player="AKI"),
            Filter(since="2026-03-05"),
            Filter(game="shogun", player="Ben", since="2026-03-03"),
        ]
        for where in filters:
            expected = json.dumps(compute(seat_rows(history, where)).to_json())
            assert json.dumps(of_history(history, where).to_json()) == expected, where
