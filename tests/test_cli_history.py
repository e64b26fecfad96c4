"""``companion history`` commands: filters, edit, delete, note, stats, export, import."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from companion.cli import app
from companion.history import History
from tests.history_fixture import fill

FILES = Path(__file__).parent / "files"
runner = CliRunner()


@pytest.fixture
def filled(db_path: Path) -> Path:
    fill(db_path)
    return db_path


def ids(*args: str) -> list[int]:
    result = runner.invoke(app, ["history", "list", "--json", *args])
    assert result.exit_code == 0, result.output
    return [p["id"] for p in json.loads(result.stdout)]


def test_list_filters(filled: Path) -> None:
    assert ids() == [1, 2, 3, 4, 5, 6, 7]
    assert ids("--game", "Tokaido") == [1, 2, 4, 6]
    assert ids("--player", "Dai") == [3, 5]
    assert ids("--since", "2026-01-05") == [5, 6, 7]
    assert ids("--game", "shogun", "--player", "Cho", "--since", "2026-01-04") == [7]
    assert ids("--limit", "2") == [6, 7]


def test_list_table_and_limit(filled: Path) -> None:
    result = runner.invoke(app, ["history", "list", "--game", "shogun"])
    assert result.stdout == (
        " #   Played (UTC)       Game     Players              Winner\n"
        "─────────────────────────────────────────────────────────────\n"
        " 3   2026-01-03 20:00   Shogun   Ben, Aki, Cho, Dai   Ben\n"
        " 7   2026-01-07 20:00   Shogun   Aki, Ben, Cho        Aki\n"
    )
    limited = runner.invoke(app, ["history", "list", "-n", "1"]).stdout
    assert limited.splitlines()[-1] == "Showing the 1 most recent; --limit 0 shows all."
    assert runner.invoke(app, ["history", "list", "--player", "Zed"]).stdout == "No such games.\n"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--since", "yesterday"],
            "Error: --since: 'yesterday' is not a date such as 2026-11-30 or 2026-11-30 20:15\n",
        ),
        (
            ["--game", "chess"],
            "Error: unknown game 'chess' (choose one of: shimoda, shibuya, "
            "tokaido, kamakura, shogun)\n",
        ),
    ],
)
def test_list_bad_options_exit_2(filled: Path, args: list[str], message: str) -> None:
    result = runner.invoke(app, ["history", "list", *args])
    assert (result.exit_code, result.stderr) == (2, message)


def test_show_includes_the_details(filled: Path) -> None:
    lines = runner.invoke(app, ["history", "show", "1"]).stdout.splitlines()
    assert lines[0] == "Game #1: Tokaido, 2026-01-01 20:00 UTC"
    assert lines[-4:] == [
        "Location: Aki's place",
        "Duration: 45 min",
        "Started: Aki",
        "Notes: first game of the year",
    ]


def test_edit_details_and_rename(filled: Path) -> None:
    result = runner.invoke(
        app,
        [
            "history",
            "edit",
            "6",
            "--rename",
            "Ben=Benjamin",
            "--date",
            "2026-01-06 21:30",
            "--location",
            "Cafe",
            "--notes",
            "close game",
            "--duration",
            "70",
        ],
    )
    assert (result.exit_code, result.stdout) == (0, "Game #6 changed.\n")
    shown = json.loads(runner.invoke(app, ["history", "show", "6", "--json"]).stdout)
    assert shown["played_at"] == "2026-01-06T21:30:00Z"
    assert (shown["location"], shown["notes"], shown["duration_min"]) == ("Cafe", "close game", 70)
    assert shown["result"]["winners"] == ["Benjamin"]
    assert ids("--player", "Benjamin") == [6]


def test_edit_score_file_rescores(db_path: Path) -> None:
    runner.invoke(app, ["score", "tokaido", "-i", str(FILES / "tokaido-final.json")])
    changed = json.loads((FILES / "tokaido-final.json").read_text())
    changed["players"][2]["journey"] = 80
    result = runner.invoke(
        app, ["history", "edit", "1", "--score-file", "-"], input=json.dumps(changed)
    )
    assert result.exit_code == 0
    shown = json.loads(runner.invoke(app, ["history", "show", "1", "--json"]).stdout)
    assert shown["score_file"] == changed
    assert shown["result"]["winners"] == ["Cho"]
    assert [p["total"] for p in shown["result"]["players"]] == [80, 73, 83]

    renamed = runner.invoke(app, ["history", "edit", "1", "--rename", "Cho=Chiyo"])
    assert renamed.exit_code == 0
    shown = json.loads(runner.invoke(app, ["history", "show", "1", "--json"]).stdout)
    assert shown["score_file"]["players"][2]["name"] == "Chiyo"
    assert shown["result"]["winners"] == ["Chiyo"]


def test_edit_refuses_bad_changes(db_path: Path) -> None:
    runner.invoke(app, ["score", "tokaido", "-i", str(FILES / "tokaido-final.json")])
    before = runner.invoke(app, ["history", "show", "1", "--json"]).stdout
    bad = runner.invoke(
        app, ["history", "edit", "1", "--score-file", str(FILES / "tokaido-bad.json")]
    )
    assert bad.exit_code == 2
    assert bad.stderr.splitlines()[:2] == [
        "Error: the score file is not a valid tokaido score file",
        '  players[0].journey: must be a whole number, got the text "58"',
    ]
    clash = runner.invoke(app, ["history", "edit", "1", "--rename", "Ben=Aki"])
    assert clash.exit_code == 2
    assert "players[1].name: 'Aki' is already the name of players[0]" in clash.stderr
    nobody = runner.invoke(app, ["history", "edit", "1", "--rename", "Zed=Zoe"])
    assert (nobody.exit_code, nobody.stderr) == (2, "Error: no player named 'Zed' in this game\n")
    nothing = runner.invoke(app, ["history", "edit", "1"])
    assert nothing.exit_code == 2
    assert runner.invoke(app, ["history", "show", "1", "--json"]).stdout == before


def test_delete_asks_first(filled: Path) -> None:
    kept = runner.invoke(app, ["history", "delete", "2"], input="n\n")
    assert kept.exit_code == 1
    assert kept.stdout == (
        "Delete game #2 (Tokaido, 2026-01-02 20:00, Aki, Ben, Cho)? [y/N]: n\nNothing deleted.\n"
    )
    assert 2 in ids()
    gone = runner.invoke(app, ["history", "delete", "2"], input="y\n")
    assert gone.exit_code == 0
    assert gone.stdout.endswith("Game #2 deleted.\n")
    assert runner.invoke(app, ["history", "delete", "3", "--yes"]).stdout == "Game #3 deleted.\n"
    assert ids() == [1, 4, 5, 6, 7]
    missing = runner.invoke(app, ["history", "delete", "3", "--yes"])
    assert (missing.exit_code, missing.stderr) == (1, "Error: no game #3 in the history\n")


def test_note_adds_a_line(filled: Path) -> None:
    assert runner.invoke(app, ["history", "note", "1", "rematch soon"]).stdout == (
        "Note added to game #1.\n"
    )
    shown = json.loads(runner.invoke(app, ["history", "show", "1", "--json"]).stdout)
    assert shown["notes"] == "first game of the year\nrematch soon"


def test_stats_table_and_json(filled: Path) -> None:
    table = runner.invoke(app, ["history", "stats"]).stdout
    lines = table.splitlines()
    assert lines[0] == "Players"
    assert lines[3] == " Aki          7      4        57%   █████▊            1   Ben     Ben"
    assert "Head to head (ahead: the player finished above the opponent)" in lines
    data = json.loads(runner.invoke(app, ["history", "stats", "--json", "-g", "shibuya"]).stdout)
    assert [p["name"] for p in data["players"]] == ["Aki", "Dai"]


def test_export_to_file_and_import(filled: Path, tmp_path: Path) -> None:
    out = tmp_path / "backup.json"
    result = runner.invoke(app, ["history", "export", "--format", "json", "--out", str(out)])
    assert (result.exit_code, result.stderr) == (0, f"Exported 7 games to {out}.\n")
    other = tmp_path / "other.sqlite3"
    imported = runner.invoke(app, ["history", "import", str(out), "--db", str(other)])
    assert imported.stdout == "Imported 7 games; 0 were already in the history.\n"
    again = runner.invoke(app, ["history", "import", str(out), "--db", str(other)])
    assert again.stdout == "Imported 0 games; 7 were already in the history.\n"
    assert (
        runner.invoke(app, ["history", "export", "-f", "json", "--db", str(other)]).stdout
        == out.read_text()
    )


def test_import_bgstats(db_path: Path) -> None:
    result = runner.invoke(app, ["history", "import", str(FILES / "bgstats-export.json")])
    assert result.exit_code == 0
    assert result.stdout == (
        "Imported 2 games; 0 were already in the history.\n"
        "Skipped 2 plays of other games: Azul (1), Catan (1).\n"
    )


def test_malformed_import_imports_nothing(filled: Path, tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    document = json.loads((FILES / "bgstats-export.json").read_text())
    document["plays"][2]["playerScores"][1]["score"] = "lots"
    bad.write_text(json.dumps(document))
    result = runner.invoke(app, ["history", "import", str(bad)])
    assert result.exit_code == 2
    assert result.stderr == (
        f"Error: {bad} cannot be imported (1 problem); nothing was imported:\n"
        "  plays[2].playerScores[1].score: must be a score, got 'lots'\n"
    )
    assert ids() == [1, 2, 3, 4, 5, 6, 7]


def test_export_rejects_unknown_format(filled: Path) -> None:
    result = runner.invoke(app, ["history", "export", "--format", "xls"])
    assert (result.exit_code, result.stderr) == (
        2,
        "Error: --format must be one of csv, json, bgstats, bgg-xml, got 'xls'\n",
    )


def test_old_history_is_upgraded_with_a_message(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    shutil.copy(FILES / "history-v1.sqlite3", path)
    result = runner.invoke(app, ["history", "list", "--json", "--db", str(path)])
    assert result.exit_code == 0
    assert result.stderr == (
        f"The history was upgraded; the old file was kept as {path}.v1-backup.\n"
    )
    assert [p["game"] for p in json.loads(result.stdout)] == ["tokaido", "shibuya"]
    with History(path) as history:
        assert len(history.plays()) == 2
