"""``companion history`` commands: filters, edit, delete, note, stats, export, import."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from companion.cli.app import app
from companion.history.store import History
from scorers import GAME_IDS
from tests.support.history_fixture import fill

FILES = Path(__file__).parents[1] / "files"
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
            f"Error: unknown game 'chess' (choose one of: {', '.join(GAME_IDS)})\n",
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
        "Started: Aki",
        "Location: Aki's place",
        "Duration: 45 min",
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
    assert (nobody.exit_code, nobody.stderr) == (
        2,
        "Error: no person or team named 'Zed' in this game\n",
    )
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
    document["plays"][2]["playerScores"][1]["score"] = {"lots": 1}  # (not even a text)
    bad.write_text(json.dumps(document))
    result = runner.invoke(app, ["history", "import", str(bad)])
    assert result.exit_code == 2
    assert result.stderr == (
        f"Error: {bad} cannot be imported (1 problem); nothing was imported:\n"
        "  plays[2].playerScores[1].score: must be a score such as 58 or 58+10+4\n"
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


BACKUP = FILES / "bgstats-backup.bgsplay"


def test_import_says_what_it_did(db_path: Path) -> None:
    first = runner.invoke(app, ["history", "import", str(BACKUP)])
    assert (first.exit_code, first.stdout) == (
        0,
        "Imported 5 games; 0 were already in the history.\n"
        "Skipped 2 plays of other games: Catan (1), Shogun (1).\n"
        "2 seats had no score: kept as not scored, out of the score statistics.\n"
        "1 game marked ignored in BG Stats: kept, out of the statistics.\n"
        "Note: the Tokaido play of 2026-10-03: Ben: score 57.5 rounded to 58\n",
    )
    again = runner.invoke(app, ["history", "import", str(BACKUP)])
    assert again.stdout.splitlines()[0] == "Imported 0 games; 5 were already in the history."


def test_team_games_in_list_and_show(db_path: Path) -> None:
    runner.invoke(app, ["history", "import", str(BACKUP)])
    table = runner.invoke(app, ["history", "list"]).stdout
    assert "Red (Aki, Cho) v" in table and "Tokaido (ignored)" in table
    lines = runner.invoke(app, ["history", "show", "3"]).stdout.splitlines()
    assert lines[-7:] == [
        "Red: Aki and Cho",
        "Blue: Ben and Dai",
        "Started: Ben",
        "Location: Aki's place",
        "Duration: 40 min",
        "Imported from: bgstats",
        "Notes: Red ran away with it",
    ]
    assert ids("--player", "CHO") == [1, 3, 5]


def test_edit_names_the_members_of_a_team(tmp_path: Path) -> None:
    """A team game with unknown members (an early BG Stats export's Red and Blue)."""
    source = tmp_path / "old.json"
    data = json.loads(BACKUP.read_text())
    data["plays"][3]["usesTeams"] = False
    for entry in data["plays"][3]["playerScores"]:
        del entry["team"]
    data["plays"] = [data["plays"][3]]
    source.write_text(json.dumps(data))
    runner.invoke(app, ["history", "import", str(source)])
    with History(tmp_path / "history.sqlite3") as history:
        play = history.get(1)
        from dataclasses import replace

        from tests.support.history_fixture import result

        sides = result("shibuya", [("Red", 6, 1), ("Blue", 3, 2)], ["Red"])
        history.replace(replace(play, result=sides, people=(), start_player=None))
    shown = runner.invoke(app, ["history", "show", "1"]).stdout
    assert "Red: members not known" in shown
    edit = runner.invoke(
        app,
        [
            "history", "edit", "1",
            "--members", "red=Aki,Cho",
            "--members", "Blue=Ben,Dai",
            "--start-player", "dai",
        ],
    )  # fmt: skip
    assert (edit.exit_code, edit.stdout) == (0, "Game #1 changed.\n")
    with History(tmp_path / "history.sqlite3") as history:
        play = history.get(1)
    assert [(p.name, p.side) for p in play.persons] == [
        ("Aki", 0),
        ("Ben", 1),
        ("Cho", 0),
        ("Dai", 1),
    ]
    assert play.starter is not None and play.starter.name == "Dai"
    bad = runner.invoke(app, ["history", "edit", "1", "--members", "Green=Emi,Fay"])
    assert (bad.exit_code, bad.stderr) == (2, "Error: no team named 'Green' in this game\n")


def test_names_that_look_like_markup_are_plain_text(tmp_path: Path) -> None:
    data = json.loads(BACKUP.read_text())
    data["players"][0]["name"] = "Al [/b]"
    source = tmp_path / "markup.json"
    source.write_text(json.dumps(data))
    assert runner.invoke(app, ["history", "import", str(source)]).exit_code == 0
    for args in (["list"], ["show", "1"], ["stats"]):
        outcome = runner.invoke(app, ["history", *args])
        assert outcome.exit_code == 0 and "Al [/b]" in outcome.stdout, outcome.output


def test_export_out_is_never_overwritten_silently(filled: Path, tmp_path: Path) -> None:
    out = tmp_path / "plays.csv"
    out.write_text("keep me")
    refused = runner.invoke(app, ["history", "export", "-f", "csv", "-o", str(out)])
    assert (refused.exit_code, refused.stderr) == (
        1,
        f"Error: {out} already exists; use --force to replace it\n",
    )
    assert out.read_text() == "keep me"
    forced = runner.invoke(app, ["history", "export", "-f", "csv", "-o", str(out), "--force"])
    assert forced.exit_code == 0 and out.read_text().startswith("play_id,")
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".part")] == []


@pytest.mark.parametrize("target", ["db", "link", "device", "folder"])
def test_export_refuses_the_history_links_and_devices(
    filled: Path, tmp_path: Path, target: str
) -> None:
    paths = {
        "db": filled,
        "link": tmp_path / "link.csv",
        "device": Path("/dev/null"),
        "folder": tmp_path,
    }
    (tmp_path / "link.csv").symlink_to(tmp_path / "elsewhere.csv")
    before = filled.read_bytes()
    outcome = runner.invoke(
        app, ["history", "export", "-f", "csv", "-o", str(paths[target]), "--force"]
    )
    assert outcome.exit_code == 1
    assert outcome.stderr.startswith(f"Error: {paths[target]} is ")
    assert filled.read_bytes() == before
    assert not (tmp_path / "elsewhere.csv").exists()


def test_a_failed_export_leaves_no_part_file(
    filled: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import os

    def broken(*_: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken)
    out = tmp_path / "plays.xml"
    outcome = runner.invoke(app, ["history", "export", "-f", "bgg-xml", "-o", str(out)])
    assert outcome.exit_code == 1
    assert outcome.stderr.endswith(f"Error: cannot write {out}: No space left on device\n")
    assert not out.exists()
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".part")] == []


def test_excel_csv(filled: Path, tmp_path: Path) -> None:
    out = tmp_path / "plays.csv"
    ok = runner.invoke(app, ["history", "export", "-f", "csv", "--excel", "-o", str(out)])
    assert ok.exit_code == 0
    assert out.read_bytes().startswith(b"\xef\xbb\xbfplay_id,")
    assert b"\r\n" in out.read_bytes()
    wrong = runner.invoke(app, ["history", "export", "-f", "json", "--excel"])
    assert (wrong.exit_code, wrong.stderr) == (2, "Error: --excel is for --format csv\n")


LONG = "Q" * 40  # a name of the longest length, with no space to wrap at
HOSTILE = ["Dad [/]", "x[/b]", "[red]Aki", LONG, "Zoë 🎲"]


@pytest.mark.parametrize(
    "args",
    [
        ["list"],
        ["stats"],
        ["records"],
        ["records", "tokaido"],
        ["ratings"],
        ["ratings", "tokaido"],
    ],
)
def test_hostile_and_longest_names_are_shown_whole(tmp_path: Path, args: list[str]) -> None:
    """Markup-like names come out literally, and a 40-character name (who wins both games
    and holds every record) is never cut short with an ellipsis: it wraps in its cell."""
    for k in range(2):
        players = [
            {
                "name": name,
                "journey": 50 if name == LONG else 30 + 4 * ((n + k) % 4),
                "temple": 0,
                "meal_cost": 0,
                "souvenirs": 0,
                "hot_springs": 0,
                "encounters": 0,
                "panorama_achievements": 0,
            }
            for n, name in enumerate(HOSTILE)
        ]
        source = tmp_path / f"hostile{k}.json"
        source.write_text(json.dumps({"game": "tokaido", "mode": "final", "players": players}))
        saved = runner.invoke(app, ["score", "tokaido", "--input", str(source)])
        assert saved.exit_code == 0, saved.output
    outcome = runner.invoke(app, ["history", *args])
    assert outcome.exit_code == 0, outcome.output
    assert "…" not in outcome.stdout
    # Every time the long name is shown, all 40 of its letters are there.
    assert outcome.stdout.count("Q") % 40 == 0 and "Q" in outcome.stdout, outcome.stdout
    if args != ["records"]:  # the group's records are all the long name's
        for name in ("Dad [/]", "x[/b]", "[red]Aki"):
            assert name in outcome.stdout


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"\xff\xfe{}", "is not UTF-8 text (invalid start byte)"),
        (b'{"plays": [\x00]}', "is not a text file (it holds NUL bytes)"),
    ],
)
def test_an_import_that_is_not_text_is_a_bad_file(
    tmp_path: Path, db_path: Path, content: bytes, message: str
) -> None:
    """Like every other bad file: exit 2, nothing imported, no history made."""
    source = tmp_path / "binary.json"
    source.write_bytes(content)
    outcome = runner.invoke(app, ["history", "import", str(source)])
    assert (outcome.exit_code, outcome.stderr) == (
        2,
        f"Error: {source} {message}; nothing was imported\n",
    )
    assert not db_path.exists()


def _with_categories(db_path: Path, categories: dict[str, int]) -> None:
    """Two Tokaido games (Aki wins both) whose breakdowns hold ``categories``."""
    with History(db_path) as history:
        for day in (1, 2):
            history.record(
                game="tokaido",
                score_file=None,
                result={
                    "game": "tokaido",
                    "players": [
                        {"name": n, "total": t, "rank": r, "breakdown": dict(categories)}
                        for n, t, r in (("Aki", 2 * sum(categories.values()), 1), ("Ben", 0, 2))
                    ],
                    "winners": ["Aki"],
                    "tiebreak": None,
                },
                played_at=f"2026-01-0{day}T20:00:00Z",
            )


def test_an_imported_category_name_is_never_markup_or_a_terminal_escape(
    tmp_path: Path, db_path: Path
) -> None:
    """Category names come from the file for plays imported without a score file."""
    _with_categories(db_path, {"=x [/]": 3, "y\x1b[2J": 4})
    outcome = runner.invoke(app, ["history", "records", "tokaido"])
    assert outcome.exit_code == 0, outcome.output
    assert "\x1b" not in outcome.stdout
    assert " Most in the =x [/]           3   Aki and Ben   #1, 2026-01-01\n" in outcome.stdout
    assert " Most in the y\\x1b[2J         4   Aki and Ben   #1, 2026-01-01\n" in outcome.stdout
    exported = runner.invoke(app, ["history", "export", "-f", "csv"])
    header = exported.stdout.splitlines()[0].split(",")
    assert header[-2:] == ["'=x [/]", "y\x1b[2J"]  # a formula never starts a header cell


def test_an_import_refuses_invisible_characters_in_a_category(
    tmp_path: Path, db_path: Path
) -> None:
    _with_categories(db_path, {"fine": 5})
    document = json.loads(runner.invoke(app, ["history", "export", "-f", "json"]).stdout)
    for side in document["plays"][1]["result"]["players"]:
        side["breakdown"] = {"y\x1b[2J": side["breakdown"]["fine"]}
    source = tmp_path / "escape.json"
    source.write_text(json.dumps(document))
    other = tmp_path / "other.sqlite3"
    outcome = runner.invoke(app, ["history", "import", str(source), "--db", str(other)])
    assert (outcome.exit_code, outcome.stderr) == (
        2,
        f"Error: {source} cannot be imported (2 problems); nothing was imported:\n"
        '  plays[1].result.players[0].breakdown["y\\u001b[2J"]: '
        "a category name must not hold invisible characters\n"
        '  plays[1].result.players[1].breakdown["y\\u001b[2J"]: '
        "a category name must not hold invisible characters\n",
    )
    assert not other.exists()
