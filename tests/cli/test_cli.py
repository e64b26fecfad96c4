"""The companion command line: exit codes, exact output, saving."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from typer.main import get_command
from typer.testing import CliRunner

from companion.cli.app import app
from scorers import GAME_IDS

FILES = Path(__file__).parents[1] / "files"
TOKAIDO = FILES / "tokaido-final.json"
runner = CliRunner()

TOKAIDO_RESULT = {
    "game": "tokaido",
    "players": [
        {
            "name": "Aki",
            "total": 80,
            "rank": 1,
            "breakdown": {
                "journey": 58,
                "temple": 10,
                "gourmet": 4,
                "collector": 4,
                "bather": 4,
                "chatterbox": 0,
            },
        },
        {
            "name": "Ben",
            "total": 73,
            "rank": 2,
            "breakdown": {
                "journey": 60,
                "temple": 7,
                "gourmet": 3,
                "collector": 0,
                "bather": 0,
                "chatterbox": 3,
            },
        },
        {
            "name": "Cho",
            "total": 69,
            "rank": 3,
            "breakdown": {
                "journey": 66,
                "temple": 0,
                "gourmet": 0,
                "collector": 0,
                "bather": 3,
                "chatterbox": 0,
            },
        },
    ],
    "winners": ["Aki"],
    "tiebreak": None,
}

TOKAIDO_TABLE = """\
Tokaido
              Aki   Ben   Cho
──────────────────────────────
 Journey       58    60    66
 Temple        10     7     0
 Gourmet        4     3     0
 Collector      4     0     0
 Bather         4     0     3
 Chatterbox     0     3     0

 Total         80    73    69
 Rank           1     2     3

Winner: Aki.
"""

# What follows the table: why the game was won (companion.analysis.explain's sentences).
TOKAIDO_WHY = """
Aki won by 7 points over Ben; the closest gap was 4 points, between Ben on 73
and Cho on 69.
Without the collector award and the bather award, Ben would have won by 1 point.
Against each player's share of all points, Aki was strongest in the collector
award (100% of the table's points there, against 36% of all points), Ben in the
chatterbox award (100% of the table's points there, against 33% of all points)
and Cho in the bather award (43% of the table's points there, against 31% of all
points).
"""


def plays_in(db_path: Path) -> int:
    with sqlite3.connect(db_path) as db:
        return int(db.execute("SELECT count(*) FROM plays").fetchone()[0])


def test_score_prints_the_table_and_saves(db_path: Path) -> None:
    result = runner.invoke(app, ["score", "tokaido", "--input", str(TOKAIDO)])
    assert result.exit_code == 0, result.output
    assert result.stdout == TOKAIDO_TABLE + TOKAIDO_WHY + "Saved to the history as game #1.\n"
    assert result.stderr == ""
    assert plays_in(db_path) == 1


def test_score_json_prints_exactly_one_document(db_path: Path) -> None:
    result = runner.invoke(app, ["score", "Tokaido", "--input", str(TOKAIDO), "--json"])
    assert result.exit_code == 0
    assert json.loads(result.stdout) == TOKAIDO_RESULT
    assert plays_in(db_path) == 1


def test_score_reads_standard_input(db_path: Path) -> None:
    result = runner.invoke(
        app, ["score", "tokaido", "--input", "-", "--json", "--no-save"], input=TOKAIDO.read_text()
    )
    assert result.exit_code == 0
    assert json.loads(result.stdout) == TOKAIDO_RESULT


def test_no_save_writes_nothing(db_path: Path) -> None:
    result = runner.invoke(app, ["score", "tokaido", "-i", str(TOKAIDO), "--no-save"])
    assert result.exit_code == 0
    assert result.stdout == TOKAIDO_TABLE + TOKAIDO_WHY
    assert not db_path.exists()


def test_five_long_names_are_wrapped_in_the_table_not_cut(db_path: Path) -> None:
    game = json.loads(TOKAIDO.read_text())
    seats = game["players"]
    # (one traveller tile each and at most 3 achievement cards on one table)
    game["players"] = [
        {**seats[k % 3], "name": letter * 40, "traveler": tile, "panorama_achievements": k % 2}
        for k, (letter, tile) in enumerate(
            zip("QRSVW", ["Kinko", "Zen-emon", "Satsuki", "Umegae", "Hirotada"], strict=True)
        )
    ]
    result = runner.invoke(
        app,
        ["score", "tokaido", "-i", "-", "--no-save"],
        input=json.dumps(game),
        env={"COLUMNS": "80"},
    )
    assert result.exit_code == 0
    header = result.stdout.split("\u2500")[0]
    assert "\u2026" not in header
    for letter in "QRSVW":
        assert header.count(letter) == 40


def test_tie_break_and_team_names_in_the_table(db_path: Path) -> None:
    result = runner.invoke(
        app, ["score", "shibuya", "-i", str(FILES / "shibuya-teams.json"), "--no-save"]
    )
    assert result.exit_code == 0
    assert result.stdout.endswith(
        "Winner: Red.\n\nRed (Aki and Ben) won by 2 pawns at goal, 6 to 4.\n"
    )


def test_table_names_the_tie_break(tmp_path: Path, db_path: Path) -> None:
    file = tmp_path / "tie.json"
    file.write_text(
        json.dumps(
            {
                "game": "shogun",
                "year": 2,
                "players": [
                    {"name": "Aki", "war_chests": 5, "regions": {"green": {"provinces": 1}}},
                    {"name": "Ben", "war_chests": 3, "regions": {"green": {"provinces": 1}}},
                    {"name": "Cho", "regions": {}},
                ],
            }
        )
    )
    result = runner.invoke(app, ["score", "shogun", "-i", str(file), "--no-save"])
    assert result.stdout.endswith(
        "Winner: Aki (tie on 1 broken by most war chests: Aki 5, Ben 3).\n\n"
        "Aki and Ben both scored 1 point; Aki won on the tie-break (most war chests).\n"
        "Aki scored at least as many points as anyone in every category, so no category\n"
        "decided it.\n"
    )
    shown = runner.invoke(app, ["score", "shogun", "-i", str(file)])
    assert "Winner: Aki (tie on 1 broken by most war chests: Aki 5, Ben 3).\n" in shown.stdout
    again = runner.invoke(app, ["history", "show", "1"])
    assert "Winner: Aki (tie on 1 broken by most war chests: Aki 5, Ben 3).\n" in again.stdout


def test_invalid_file_exits_2_with_every_problem_and_saves_nothing(db_path: Path) -> None:
    bad = FILES / "tokaido-bad.json"
    result = runner.invoke(app, ["score", "tokaido", "--input", str(bad)])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == (
        f"Error: {bad} is not a valid tokaido score file (7 problems):\n"
        '  players[0].journey: must be a whole number, got the text "58"\n'
        "  players[0].panorama_achievements: must be between 0 and 3, got 4\n"
        "  players[1].journey: missing (this field is required)\n"
        "  players[1].jouney: unknown key (did you mean 'journey'?)\n"
        "  players[1].name: 'Aki' is already the name of players[0]\n"
        "  players[1].temple: must be a whole number, got 3.0\n"
        "  players[1].hot_springs: must be a whole number, got true\n"
    )
    assert not db_path.exists()


def test_not_json_exits_2() -> None:
    result = runner.invoke(app, ["score", "shogun", "-i", "-"], input='{"year": 1,}')
    assert result.exit_code == 2
    assert result.stderr == (
        "Error: standard input is not a valid shogun score file (1 problem):\n"
        "  $: not valid JSON: Expecting property name enclosed in double quotes "
        "(line 1, column 12)\n"
    )


def test_file_for_another_game_exits_2() -> None:
    result = runner.invoke(app, ["score", "shogun", "-i", str(TOKAIDO)])
    assert result.exit_code == 2
    assert "  game: this file is for 'tokaido', not 'shogun'\n" in result.stderr


def test_unknown_game_exits_2() -> None:
    result = runner.invoke(app, ["score", "chess", "-i", str(TOKAIDO)])
    assert result.exit_code == 2
    assert result.stderr == f"Error: unknown game 'chess' (choose one of: {', '.join(GAME_IDS)})\n"


def test_missing_file_exits_1(tmp_path: Path) -> None:
    result = runner.invoke(app, ["score", "tokaido", "-i", str(tmp_path / "nope.json")])
    assert result.exit_code == 1
    assert result.stderr == (
        f"Error: cannot read {tmp_path / 'nope.json'}: No such file or directory\n"
    )


def test_db_option_overrides_the_environment(tmp_path: Path, db_path: Path) -> None:
    other = tmp_path / "elsewhere" / "games.sqlite3"
    result = runner.invoke(app, ["score", "tokaido", "-i", str(TOKAIDO), "--db", str(other)])
    assert result.exit_code == 0
    assert plays_in(other) == 1
    assert not db_path.exists()


def test_history_list_and_show(db_path: Path) -> None:
    assert runner.invoke(app, ["history", "list"]).stdout == "No games recorded yet.\n"
    runner.invoke(app, ["score", "tokaido", "-i", str(TOKAIDO)])
    runner.invoke(app, ["score", "shibuya", "-i", str(FILES / "shibuya-teams.json")])

    listed = json.loads(runner.invoke(app, ["history", "list", "--json"]).stdout)
    listed.sort(key=lambda p: p["id"])  # saved in one second: listed by uuid
    assert [(p["id"], p["game"], p["winners"]) for p in listed] == [
        (1, "tokaido", ["Aki"]),
        (2, "shibuya", ["Red"]),
    ]
    assert listed[1]["players"] == [
        {"name": "Red", "total": 6, "rank": 1, "members": ["Aki", "Ben"]},
        {"name": "Blue", "total": 4, "rank": 2, "members": ["Cho", "Dai"]},
    ]

    table = runner.invoke(app, ["history", "list"]).stdout
    assert "Tokaido" in table and "Aki, Ben, Cho" in table
    assert "Red (Aki, Ben) v Blue (Cho," in table

    shown = json.loads(runner.invoke(app, ["history", "show", "1", "--json"]).stdout)
    assert shown["score_file"] == json.loads(TOKAIDO.read_text())
    assert shown["result"] == TOKAIDO_RESULT
    assert shown["game"] == "tokaido"
    assert shown["explanation"] == [
        "Aki won by 7 points over Ben; the closest gap was 4 points, between Ben on 73 "
        "and Cho on 69.",
        "Without the collector award and the bather award, Ben would have won by 1 point.",
        "Against each player's share of all points, Aki was strongest in the collector award "
        "(100% of the table's points there, against 36% of all points), Ben in the chatterbox "
        "award (100% of the table's points there, against 33% of all points) and Cho in the "
        "bather award (43% of the table's points there, against 31% of all points).",
    ]
    assert (shown["records_set"], shown["timing"]) == ([], None)

    text = runner.invoke(app, ["history", "show", "1"]).stdout
    first, rest = text.split("\n", 1)
    assert first.startswith("Game #1: Tokaido, ") and first.endswith(" UTC")
    assert rest == TOKAIDO_TABLE.split("\n", 1)[1] + TOKAIDO_WHY


def test_history_show_unknown_id_exits_1() -> None:
    result = runner.invoke(app, ["history", "show", "9"])
    assert result.exit_code == 1
    assert result.stderr == "Error: no game #9 in the history\n"


def test_damaged_database_gives_an_error_and_is_untouched(db_path: Path) -> None:
    db_path.write_bytes(b"these are my holiday notes, not a database\n" * 50)
    before = db_path.read_bytes()
    result = runner.invoke(app, ["score", "tokaido", "-i", str(TOKAIDO)])
    assert result.exit_code == 1
    assert result.stderr == (
        f"Error: {db_path} is not a companion history (not an SQLite database); "
        "it was left as it is (score with --no-save to skip saving)\n"
    )
    assert db_path.read_bytes() == before
    listed = runner.invoke(app, ["history", "list"])
    assert listed.exit_code == 1
    assert db_path.read_bytes() == before


def test_every_command_has_help_text() -> None:
    seen = []

    def walk(group: Any, prefix: str) -> None:
        for name, command in group.commands.items():
            seen.append(f"{prefix}{name}")
            assert command.help, f"{prefix}{name} has no help"
            for param in command.params:
                assert param.help, f"{prefix}{name} {param.name} has no help"
            if hasattr(command, "commands"):
                walk(command, f"{prefix}{name} ")

    walk(get_command(app), "")
    assert sorted(seen) == sorted(
        [
            "score",
            "history",
            "history list",
            "history show",
            "history edit",
            "history rename",
            "history people",
            "history delete",
            "history note",
            "history stats",
            "history records",
            "history ratings",
            "history export",
            "history import",
            "history check",
            "history backup",
            "rules",
            "play",
            "resume",
            "setup",
            "notebook",
            "serve",
            "club",
            "club init",
            "club sync",
            "club name",
            "club status",
            "club conflicts",
            "club settle",
        ]
    )


@pytest.mark.parametrize("args", [["--help"], ["score", "--help"], ["history", "--help"]])
def test_help_runs(args: list[str]) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 0
    assert result.stdout.startswith("Usage: companion")


def test_version() -> None:
    assert runner.invoke(app, ["--version"]).stdout == "companion 0.1.0\n"


def test_two_cli_processes_saving_at_once_keep_both_records(db_path: Path) -> None:
    import os
    import subprocess
    import sys

    env = {**os.environ, "COMPANION_DB": str(db_path)}
    command = [sys.executable, "-m", "companion", "score", "tokaido", "-i", str(TOKAIDO), "--json"]
    workers = [
        subprocess.Popen(
            command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        for _ in range(2)
    ]
    outputs = [w.communicate(timeout=60) for w in workers]
    assert [w.returncode for w in workers] == [0, 0], outputs
    assert [json.loads(out) for out, _ in outputs] == [TOKAIDO_RESULT, TOKAIDO_RESULT]
    assert plays_in(db_path) == 2


def test_db_before_the_command_applies_to_it(tmp_path: Path, db_path: Path) -> None:
    other = tmp_path / "root-option.sqlite3"
    result = runner.invoke(app, ["--db", str(other), "score", "tokaido", "-i", str(TOKAIDO)])
    assert result.exit_code == 0
    assert plays_in(other) == 1
    assert not db_path.exists()
