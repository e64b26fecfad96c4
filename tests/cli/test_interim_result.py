"""Shogun's first winter is an interim scoring: its result says who leads, never who won."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from companion.cli.app import app
from companion.terminal.results import outcome
from tests.support.score_examples import SHOGUN

runner = CliRunner()


def first_winter(tmp_path: Path) -> Path:
    data = copy.deepcopy(SHOGUN)
    data["year"] = 1
    path = tmp_path / "winter.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_the_first_winter_says_who_leads(tmp_path: Path, db_path: Path) -> None:
    scored = runner.invoke(app, ["score", "shogun", "-i", str(first_winter(tmp_path))])
    assert scored.exit_code == 0, scored.output
    assert "Winner:" not in scored.stdout
    assert "\nLeading so far: Cho.\n" in scored.stdout
    shown = runner.invoke(app, ["history", "show", "1"])
    assert "Winner:" not in shown.stdout
    assert "\nLeading so far: Cho.\n" in shown.stdout


def test_the_second_winter_names_the_winner(tmp_path: Path, db_path: Path) -> None:
    path = tmp_path / "final.json"
    path.write_text(json.dumps(SHOGUN), encoding="utf-8")
    scored = runner.invoke(app, ["score", "shogun", "-i", str(path)])
    assert "\nWinner: Cho.\n" in scored.stdout


@pytest.mark.parametrize(
    ("result", "interim", "said"),
    [
        ({"winners": ["Ben"], "tiebreak": None}, True, "Leading so far: Ben."),
        (
            {"winners": ["Ben"], "tiebreak": "most war chests"},
            True,
            "Leading so far: Ben, on the tie-break (most war chests).",
        ),
        ({"winners": ["Aki", "Ben"], "tiebreak": None}, True, "Sharing the lead: Aki and Ben."),
        ({"winners": [], "tiebreak": None}, True, "Nobody leads yet."),
        ({"winners": ["Ben"], "tiebreak": None}, False, "Winner: Ben."),
        ({"winners": ["Aki", "Ben"], "tiebreak": None}, False, "Shared win: Aki and Ben."),
    ],
)
def test_outcome_words(result: dict[str, object], interim: bool, said: str) -> None:
    assert outcome(result, interim=interim) == said
