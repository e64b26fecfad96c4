"""The command lines answered without typer print what the typer app prints, and nothing
else is answered that way."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from companion.cli.app import app, command_of
from companion.cli.quick import quick, score_arguments, search_arguments

FILES = Path(__file__).resolve().parents[1] / "files"
SCORE_FILE = str(FILES / "tokaido-final.json")

ANSWERED = [
    ["rules", "search", "inn meal"],
    ["rules", "search", "--json", "what if two players tie", "-n", "2"],
    ["rules", "search", "-g", "Tokaido", "meal"],
    ["rules", "search", "--game=shimoda", "--limit=1", "souvenier"],
    ["score", "tokaido", "--input", SCORE_FILE, "--json", "--no-save"],
    ["score", "Tokaido", "--no-save", "-i", SCORE_FILE, "--json"],
    ["score", "tokaido", f"--input={SCORE_FILE}", "--json", "--no-save"],
]
DECLINED = [
    [],
    ["--help"],
    ["rules", "search"],
    ["rules", "search", "  "],
    ["rules", "search", "--help"],
    ["rules", "search", "a", "b"],
    ["rules", "search", "-n", "0", "a"],
    ["rules", "search", "-n5", "a"],
    ["rules", "search", "-n", "-1", "a"],
    ["rules", "search", "--json=1", "a"],
    ["rules", "search", "--json", "--json", "a"],
    ["rules", "search", "--", "a"],
    ["rules", "search", "--game"],
    ["rules", "search", "--game", "nope", "inn"],  # typer's path names the error
    ["rules", "tokaido"],
    ["score", "tokaido", "--input", SCORE_FILE, "--json"],
    ["score", "tokaido", "--input", SCORE_FILE, "--no-save"],
    ["score", "tokaido", "--input", "-", "--json", "--no-save"],
    ["score", "tokaido", "--input", str(FILES), "--json", "--no-save"],
    ["score", "tokaido", "--input", SCORE_FILE, "--json", "--no-save", "--db", "x"],
    ["score", "tokaidoo", "--input", SCORE_FILE, "--json", "--no-save"],
    ["score", "shimoda", "--input", SCORE_FILE, "--json", "--no-save"],  # not a Shimoda file
]


@pytest.mark.parametrize("args", ANSWERED, ids=" ".join)
def test_answered_as_typer_answers(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert quick(args)
    quick_output = capsys.readouterr().out
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert quick_output == result.output


@pytest.mark.parametrize("args", DECLINED, ids=" ".join)
def test_anything_else_goes_to_typer(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert not quick(args)
    assert capsys.readouterr().out == ""


def test_a_shell_completion_request_goes_to_typer(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("_COMPANION_COMPLETE", "bash_complete")
    assert not quick(ANSWERED[0])


def test_arguments() -> None:
    assert search_arguments(["rules", "search", "-n", "3", "x", "--game", "g"]) == (
        "x",
        "g",
        3,
        False,
    )
    assert score_arguments(ANSWERED[4]) == ("tokaido", SCORE_FILE)


@pytest.mark.parametrize(
    ("args", "command"),
    [
        (["score", "x"], "score"),
        (["--db", "h.sqlite3", "history", "list"], "history"),
        (["--db=h.sqlite3", "rules"], "rules"),
        (["--db", "--help", "rules"], "rules"),
        (["--help"], None),
        (["--version", "score"], None),
        (["sco"], None),
        ([], None),
        (["--db"], None),
    ],
)
def test_the_app_is_built_with_the_command_run(args: list[str], command: str | None) -> None:
    assert command_of(args) == command
