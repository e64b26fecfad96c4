"""User text is data, never markup: terminal.safe_text and every table that shows names."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from companion.cli.app import app
from companion.history.store import History
from companion.terminal.results import print_clean, result_table
from companion.terminal.safe_text import line, lines, plain
from tests.support.history_fixture import result

runner = CliRunner()

HOSTILE = ["Dad [/]", "x[/b]", "Al [/b]", "[red]Aki", ":smile: Bo", "[link=http://x]Cy"]


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("Aki", "Aki"),
        ("Dad [/]", "Dad [/]"),
        ("A\x1b[2JB", "A\\x1b[2JB"),
        ("A\u202eB", "A\\u202eB"),
        ("A\x00B", "A\\x00B"),
        ("two\nlines", "two\\nlines"),
        ("Zoë 太郎", "Zoë 太郎"),
    ],
)
def test_line_escapes_invisible_characters(text: str, shown: str) -> None:
    assert line(text) == shown


def test_lines_keeps_line_breaks_only() -> None:
    assert lines("first\nsecond \x1b[31m") == "first\nsecond \\x1b[31m"


def test_plain_is_never_markup(capsys: pytest.CaptureFixture[str]) -> None:
    print_clean(plain("[bold red]Aki[/] :smile:"))
    assert capsys.readouterr().out == "[bold red]Aki[/] :smile:\n"


def test_result_table_shows_names_as_written(capsys: pytest.CaptureFixture[str]) -> None:
    seats = [(name, 10 - k, k + 1) for k, name in enumerate(HOSTILE[:3])]
    print_clean(result_table(result("tokaido", seats, ["Dad [/]"]), title="[b]Game[/b]"))
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "[b]Game[/b]"
    assert "Dad [/]   x[/b]   Al [/b]" in out
    assert out.splitlines()[-1] == "Winner: Dad [/]."


def hostile_history(db_path: Path) -> None:
    """Two games between players whose names look like markup."""
    with History(db_path) as history:
        for k in range(2):
            seats = [(name, 20 + j - k, j + 1) for j, name in enumerate(HOSTILE[k * 3 : k * 3 + 3])]
            history.record(
                game="tokaido",
                score_file=None,
                result=result("tokaido", seats, [seats[0][0]]),
                played_at=f"2026-01-0{k + 1}T20:00:00Z",
                location="[blink]Aki's[/blink]",
                notes="line one\nline [two]",
            )


@pytest.mark.parametrize(
    "args",
    [
        ["history", "list"],
        ["history", "show", "1"],
        ["history", "show", "2"],
        ["history", "stats"],
        ["history", "list", "--player", "[red]Aki"],
    ],
)
def test_markup_names_never_break_a_command(db_path: Path, args: list[str]) -> None:
    hostile_history(db_path)
    outcome = runner.invoke(app, args)
    assert outcome.exit_code == 0, outcome.output
    assert outcome.exception is None
    if args[1] != "stats":
        assert "[red]Aki" in outcome.stdout or "Dad [/]" in outcome.stdout


def test_show_prints_details_as_text(db_path: Path) -> None:
    hostile_history(db_path)
    out = runner.invoke(app, ["history", "show", "1"]).stdout.splitlines()
    assert out[-3:] == ["Location: [blink]Aki's[/blink]", "Notes: line one", "line [two]"]


def test_stats_names_markup_players_literally(db_path: Path) -> None:
    hostile_history(db_path)
    out = runner.invoke(app, ["history", "stats"]).stdout
    for name in HOSTILE:
        assert name in out


def test_escape_sequences_from_an_old_record_never_reach_the_terminal(db_path: Path) -> None:
    """Names written before the name rule (or by hand) are shown escaped."""
    with History(db_path) as history:
        history.record(
            game="tokaido",
            score_file=None,
            result=result("tokaido", [("Evil\x1b[2J", 5, 1), ("Ok\u202e", 4, 2)], ["Evil\x1b[2J"]),
        )
    for args in (["history", "list"], ["history", "show", "1"], ["history", "stats"]):
        out = runner.invoke(app, args).stdout
        assert "\x1b" not in out and "\u202e" not in out
        assert "Evil\\x1b[2J" in out
    listed = json.loads(runner.invoke(app, ["history", "list", "--json"]).stdout)
    assert listed[0]["winners"] == ["Evil\x1b[2J"]  # JSON keeps the data as it is


def test_a_score_file_with_markup_names_saves_and_every_command_works(
    db_path: Path, tmp_path: Path
) -> None:
    players = [
        {
            "name": name,
            "journey": 50 - k,
            "temple": k,
            "meal_cost": 3,
            "souvenirs": 2,
            "hot_springs": 1,
            "encounters": 1,
            "panorama_achievements": 0,
        }
        for k, name in enumerate(["Dad [/]", "x[/b]", "[red]Aki"])
    ]
    path = tmp_path / "game.json"
    path.write_text(json.dumps({"players": players}))
    scored = runner.invoke(app, ["score", "tokaido", "-i", str(path)])
    assert scored.exit_code == 0, scored.output
    assert "Dad [/]" in scored.stdout and "[red]Aki" in scored.stdout
    for args in (["history", "list"], ["history", "show", "1"], ["history", "stats"]):
        assert runner.invoke(app, args).exit_code == 0
    with sqlite3.connect(db_path) as db:
        names = [row[0] for row in db.execute("SELECT name FROM play_players ORDER BY seat")]
    db.close()
    assert names == ["Dad [/]", "x[/b]", "[red]Aki"]


@pytest.mark.parametrize(
    ("rename", "message"),
    [
        ("Aki=A\tB", "Error: --rename 'Aki=A\\tB': the new name must not contain a tab\n"),
        (
            "Aki=" + "x" * 41,
            "Error: --rename 'Aki=" + "x" * 41 + "': the new name is 41 "
            "characters long (at most 40)\n",
        ),
    ],
)
def test_a_rename_follows_the_name_rule(db_path: Path, rename: str, message: str) -> None:
    hostile_history(db_path)
    result = runner.invoke(app, ["history", "edit", "1", "--rename", rename])
    assert (result.exit_code, result.stderr) == (2, message)


def test_a_rename_is_stored_in_its_clean_shape(db_path: Path) -> None:
    hostile_history(db_path)
    renamed = runner.invoke(app, ["history", "edit", "1", "--rename", "Dad [/]=  Zoe\u0308 "])
    assert renamed.exit_code == 0, renamed.output
    listed = json.loads(runner.invoke(app, ["history", "list", "--json"]).stdout)
    assert listed[0]["players"][0]["name"] == "Zoë"
