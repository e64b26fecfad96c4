"""Names are cleaned by the one rule in every store and export: team members too."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from companion.cli.app import app
from companion.history.formats.dispatch import export
from companion.history.store import History

runner = CliRunner()

TYPED = {
    "game": "shibuya",
    "variant": "standard",
    "players": [
        {"name": "Red", "members": ["Aki\r", "\n\nWinner: Blue"], "goals": 6},
        {"name": "Blue", "members": [" Cho ", "Dai\n"], "goals": 4},
    ],
}


@pytest.fixture
def recorded(db_path: Path, tmp_path: Path) -> Path:
    typed = tmp_path / "shibuya.json"
    typed.write_text(json.dumps(TYPED), encoding="utf-8")
    assert runner.invoke(app, ["score", "shibuya", "-i", str(typed)]).exit_code == 0
    return db_path


def test_members_are_stored_by_the_name_rule(recorded: Path) -> None:
    with History(recorded) as history:
        (play,) = history.plays()
        assert [(p.name, p.side) for p in play.persons] == [
            ("Aki", 0),
            ("Cho", 1),
            ("Winner: Blue", 0),
            ("Dai", 1),
        ]


def test_show_prints_no_line_a_member_typed(recorded: Path) -> None:
    shown = runner.invoke(app, ["history", "show", "1"]).stdout
    assert not any(line.startswith("Winner: Blue") for line in shown.splitlines())
    assert "\r" not in shown


def test_csv_rows_of_members_do_not_break(recorded: Path) -> None:
    with History(recorded) as history:
        text = export(history.plays(), "csv")
    assert text.count("\n") == 5  # the header and one row per member
    assert "\r" not in text
