"""People across the history: ``history rename`` (and merge) and ``history people``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from companion.cli.app import app

runner = CliRunner()


def tokaido(a: tuple[str, int], b: tuple[str, int]) -> str:
    def seat(name: str, journey: int) -> dict[str, Any]:
        return {
            "name": name, "journey": journey, "temple": 1, "meal_cost": 3, "souvenirs": 1,
            "hot_springs": 0, "encounters": 1, "panorama_achievements": 0,
        }  # fmt: skip

    return json.dumps({"game": "tokaido", "players": [seat(*a), seat(*b)]})


def invoke(*args: str, input: str | None = None) -> Any:
    return runner.invoke(app, list(args), input=input)


def ok(*args: str, input: str | None = None) -> str:
    result = invoke(*args, input=input)
    assert result.exit_code == 0, result.output
    return str(result.stdout)


@pytest.fixture
def games(tmp_path: Path, db_path: Path) -> Path:
    """Game 1 Aki beats Ben, game 2 Ben beats Cho, game 3 Benjamin beats Cho, then a team game."""
    for k, seats in enumerate(
        [(("Aki", 50), ("Ben", 40)), (("Ben", 50), ("Cho", 40)), (("Benjamin", 50), ("Cho", 40))]
    ):
        file = tmp_path / f"game{k}.json"
        file.write_text(tokaido(*seats))
        ok("score", "tokaido", "--input", str(file))
    shibuya = tmp_path / "shibuya.json"
    sides = [("Red", ["Aki", "Dan"], 4), ("Blue", ["Cho", "Ben"], 2)]
    shibuya.write_text(
        json.dumps(
            {
                "game": "shibuya",
                "variant": "no_construction",
                "players": [{"name": n, "members": m, "goals": g} for n, m, g in sides],
            }
        )
    )
    ok("score", "shibuya", "--input", str(shibuya))
    return db_path


def people(*db: str) -> list[dict[str, Any]]:
    return json.loads(ok("history", "people", "--json", *db))  # type: ignore[no-any-return]


def test_people_lists_everyone_with_their_games(games: Path) -> None:
    assert people() == [
        {"name": "Aki", "games": 2, "aliases": []},
        {"name": "Ben", "games": 3, "aliases": []},
        {"name": "Benjamin", "games": 1, "aliases": []},
        {"name": "Cho", "games": 3, "aliases": []},
        {"name": "Dan", "games": 1, "aliases": []},
    ]
    assert ok("history", "people") == (
        "Aki         2 games\nBen         3 games\nBenjamin     1 game\nCho         3 games\n"
        "Dan          1 game\n"
    )


def test_merge_asks_with_each_ones_games_then_stats_records_and_ratings_know_one_person(
    games: Path,
) -> None:
    refused = invoke("history", "rename", "ben", "Benjamin", input="n\n")
    assert refused.exit_code == 1
    assert refused.stdout == (
        "Benjamin is already in the history: Ben is in 3 games and Benjamin in 1 game. "
        "Merge Ben into Benjamin (4 games)? [y/N]: n\nNothing changed.\n"
    )
    assert [p["name"] for p in people()] == ["Aki", "Ben", "Benjamin", "Cho", "Dan"]

    merged = invoke("history", "rename", "ben", "Benjamin", input="y\n")
    assert merged.exit_code == 0, merged.output
    assert merged.stdout.endswith("Ben merged into Benjamin in 3 games.\n")
    assert people() == [
        {"name": "Aki", "games": 2, "aliases": []},
        {"name": "Benjamin", "games": 4, "aliases": ["Ben"]},
        {"name": "Cho", "games": 3, "aliases": []},
        {"name": "Dan", "games": 1, "aliases": []},
    ]
    rated = json.loads(ok("history", "ratings", "--json"))["ratings"]
    assert sorted((r["name"], r["plays"]) for r in rated) == [
        ("Aki", 2), ("Benjamin", 4), ("Cho", 3), ("Dan", 1),
    ]  # fmt: skip
    stats = json.loads(ok("history", "stats", "--json"))
    names = json.dumps(stats)
    assert '"Ben"' not in names and '"Benjamin"' in names
    records = ok("history", "records", "tokaido", "--json")
    assert '"Ben"' not in records
    # The score files say so too (each game was re-scored with the new name).
    shown = json.loads(ok("history", "show", "2", "--json"))
    assert [p["name"] for p in shown["score_file"]["players"]] == ["Benjamin", "Cho"]
    team = json.loads(ok("history", "show", "4", "--json"))
    assert team["score_file"]["players"][1]["members"] == ["Cho", "Benjamin"]


def test_yes_merges_without_asking(games: Path) -> None:
    assert ok("history", "rename", "Ben", "Benjamin", "--yes") == (
        "Ben merged into Benjamin in 3 games.\n"
    )


def test_a_rename_is_undone_by_restoring_the_backup_taken_before_it(
    games: Path, tmp_path: Path
) -> None:
    backup = tmp_path / "before.sqlite3"
    ok("history", "backup", str(backup))
    ok("history", "rename", "Ben", "Benjamin", "--yes")
    assert [p["name"] for p in people("--db", str(backup))] == [
        "Aki",
        "Ben",
        "Benjamin",
        "Cho",
        "Dan",
    ]
    games.unlink()
    backup.rename(games)
    assert [p["name"] for p in people()] == ["Aki", "Ben", "Benjamin", "Cho", "Dan"]


def bgstats_uuids() -> dict[str, str]:
    data = json.loads(ok("history", "export", "--format", "bgstats"))
    return {p["name"]: p["uuid"] for p in data["players"]}


def test_a_rename_keeps_the_persons_uuid_in_bg_stats_exports(games: Path) -> None:
    before = bgstats_uuids()
    assert ok("history", "rename", "Cho", "Chiyo") == "Cho renamed Chiyo in 3 games.\n"
    after = bgstats_uuids()
    assert after["Chiyo"] == before["Cho"]
    assert "Cho" not in after
    assert {"name": "Chiyo", "games": 3, "aliases": ["Cho"]} in people()
    # A merge: the merged person is NEW, with NEW's uuid.
    ok("history", "rename", "Ben", "Benjamin", "--yes")
    assert bgstats_uuids()["Benjamin"] == before["Benjamin"]


def test_a_rename_in_capitals_only_is_no_merge(games: Path) -> None:
    assert ok("history", "rename", "aki", "AKI") == "Aki renamed AKI in 2 games.\n"
    assert {"name": "AKI", "games": 2, "aliases": []} in people()


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            "Aki",
            "Ben",
            "Error: Aki and Ben are both in game #1, #4: they are two people; "
            "nothing was changed\n",
        ),
        ("Zed", "Zoe", "Error: nobody named 'Zed' is in the history\n"),
        ("Aki", "A\tki", "Error: 'A\\tki': "),
    ],
)
def test_what_cannot_be_renamed_changes_nothing(
    games: Path, old: str, new: str, message: str
) -> None:
    before = people()
    result = invoke("history", "rename", old, new, "--yes")
    assert result.exit_code == 2
    assert result.stderr.startswith(message), result.stderr
    assert people() == before
