"""Tokaido: what cannot be on one table (a traveller tile twice, a fourth achievement card)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from companion.cli.app import app
from scorers import SCORERS, ScoreFileError
from scorers.tokaido import table_problems

FILES = Path(__file__).parents[1] / "files"


def game(tiles: list[str | None], achievements: list[int]) -> dict[str, Any]:
    players = []
    for k, (tile, held) in enumerate(zip(tiles, achievements, strict=True)):
        entry: dict[str, Any] = {
            "name": "ABCDE"[k] + "ki",
            "journey": 40 + k,
            "temple": 0,
            "meal_cost": 0,
            "souvenirs": 0,
            "hot_springs": 0,
            "encounters": 0,
            "panorama_achievements": held,
        }
        if tile is not None:
            entry["traveler"] = tile
        players.append(entry)
    return {"game": "tokaido", "mode": "final", "players": players}


def problems(data: dict[str, Any]) -> list[str]:
    with pytest.raises(ScoreFileError) as caught:
        SCORERS["tokaido"].score_json(data)
    return [str(p) for p in caught.value.problems]


@pytest.mark.parametrize(
    ("tiles", "achievements", "expected"),
    [
        (
            ["Mitsukuni", "Mitsukuni", None],
            [1, 0, 0],
            [
                "players[1].traveler: Mitsukuni is already players[0]'s traveller "
                "(the box has one of each tile)"
            ],
        ),
        (
            ["Kinko", "Chuubei", "kinko"],
            [0, 0, 0],
            [
                "players[2].traveler: Kinko is already players[0]'s traveller "
                "(the box has one of each tile)"
            ],
        ),
        (
            [None] * 5,
            [1, 0, 1, 1, 1],
            ["players: 4 panorama achievement cards in all (the box has 3)"],
        ),
        ([None, None], [2, 2], ["players: 4 panorama achievement cards in all (the box has 3)"]),
    ],
)
def test_cannot_be_on_one_table(
    tiles: list[str | None], achievements: list[int], expected: list[str]
) -> None:
    assert problems(game(tiles, achievements)) == expected


@pytest.mark.parametrize(
    ("tiles", "achievements"),
    [(["Mitsukuni", "Kinko", None, None, None], [1, 1, 1, 0, 0]), ([None, None], [0, 3])],
)
def test_what_the_box_allows_is_scored(tiles: list[str | None], achievements: list[int]) -> None:
    SCORERS["tokaido"].score_json(game(tiles, achievements))


def test_the_check_for_the_pads_names_the_seat() -> None:
    assert table_problems(["Satsuki", None, "Satsuki"], [None, 2, 2]) == [
        (2, "traveler", "Satsuki is already players[0]'s traveller (the box has one of each tile)"),
        (None, "panorama_achievements", "4 panorama achievement cards in all (the box has 3)"),
    ]


def test_a_score_file_with_two_mitsukuni_exits_2(tmp_path: Path, db_path: Path) -> None:
    path = tmp_path / "two.json"
    path.write_text(json.dumps(game(["Mitsukuni", "Mitsukuni"], [1, 1])), encoding="utf-8")
    result = CliRunner().invoke(app, ["score", "tokaido", "-i", str(path)])
    assert result.exit_code == 2
    assert "players[1].traveler: Mitsukuni is already players[0]'s traveller" in result.output
    assert not db_path.exists()
