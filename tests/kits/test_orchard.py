"""Orchard, the test suite's own game, through every face of the companion.

Orchard is a scorer, a kit, a flow and a rules folder in
``tests/support/extra_game/`` and nothing else: no line of the companion names it.
Here it is played as a table would play any game: set-up, rules, a game played
along and paused and resumed, a score file scored, the history and its exports.
(The web pad plays it in the browser in ``tests/widgets/test_browser.py``.)
"""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from companion.cli.app import app
from tests.support.extra_game.script import SCRIPTS
from tests.support.play_helpers import CTRL_C, run, saved, sessions

runner = CliRunner()
FILE = {
    "game": "orchard",
    "players": [
        {"name": "Aki", "apples": 3, "pears": 2, "plums": 0, "baskets": 2},
        {"name": "Ben", "apples": 1, "pears": 3, "plums": 0, "baskets": 1},
    ],
}


def test_setup_and_rules() -> None:
    setup = runner.invoke(app, ["setup", "orchard", "--players", "3", "--seed", "5", "--json"])
    assert setup.exit_code == 0, setup.output
    assert json.loads(setup.stdout) == {
        "game": "orchard",
        "players": 3,
        "seed": 5,
        "steps": ["Give each of the 3 players a basket.", "Trees in the middle."],
        "draws": {"start_player": "Player 3"},
    }
    topics = runner.invoke(app, ["rules", "orchard"])
    assert topics.exit_code == 0
    assert topics.stdout.startswith("Orchard Day: 10 topics (companion rules orchard TOPIC)\n")
    found = runner.invoke(app, ["rules", "search", "who wins when totals are equal orchard"])
    assert found.exit_code == 0
    assert "1. Ties (orchard tie-breaks)" in found.stdout


def test_a_score_file_is_scored_and_saved(tmp_path: Path, db_path: Path) -> None:
    source = tmp_path / "orchard.json"
    source.write_text(json.dumps(FILE))
    result = runner.invoke(app, ["score", "Orchard Day", "--input", str(source)])
    assert result.exit_code == 0, result.output
    assert "Winner: Aki (tie on 7 broken by most baskets: Aki 2, Ben 1)." in result.stdout
    assert result.stdout.rstrip().endswith("Saved to the history as game #1.")
    [game] = saved(db_path)
    assert game["game"] == "orchard" and game["result"]["winners"] == ["Aki"]
    assert game["result"]["tiebreak"] == "most baskets"


def test_played_along_paused_resumed_listed_and_exported(db_path: Path, tmp_path: Path) -> None:
    script = SCRIPTS[0]
    names_only = "".join(script.before[:4])  # the count and three names
    stopped = run(script.args, names_only + CTRL_C)
    assert stopped.exit_code == 130
    assert sessions(db_path) == [(1, "orchard", "active")]
    rest = "".join(script.before[4:] + script.count)
    resumed = run(["resume", "1"], rest)
    assert resumed.exit_code == 0, resumed.output
    assert "Orchard: the count" in resumed.stdout
    assert resumed.stdout.endswith("Saved to the history as game #1.\n")
    [game] = saved(db_path)
    assert game["result"]["winners"] == ["Ben"]
    assert game["start"] == 1
    assert [p["total"] for p in game["result"]["players"]] == [7, 8, 7]
    shown = runner.invoke(app, ["history", "show", "1"])
    assert shown.exit_code == 0 and "Orchard Day" in shown.stdout
    out = tmp_path / "plays.json"
    exported = runner.invoke(app, ["history", "export", "--format", "bgstats", "--out", str(out)])
    assert exported.exit_code == 0, exported.output
    backup = json.loads(out.read_text())
    assert [g["name"] for g in backup["games"]] == ["Orchard Day"]
    again = tmp_path / "again.sqlite3"
    imported = runner.invoke(app, ["history", "import", str(out), "--db", str(again)])
    assert imported.exit_code == 0, imported.output
    checked = runner.invoke(app, ["history", "check"])
    assert checked.exit_code == 0, checked.output
