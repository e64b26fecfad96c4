"""No raw control character reaches the terminal from stored data, in any command."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from companion.cli.app import app
from companion.terminal.safe_text import json_text
from tests.support.import_files import ours

runner = CliRunner()
RAW = re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069]")
"""What must not reach the terminal: C0 (but the line break) and C1 controls, bidi marks."""


@pytest.fixture
def hostile(db_path: Path, tmp_path: Path) -> Path:
    document = ours()
    play = document["plays"][0]
    play["notes"] = "note\x1b[2J\rCR\x07bell\x00nul\u202eRTL\x9bCSI\ttab"
    play["result"]["notes"] = ["\x1b]0;title\x07", "x\ry\u2067"]
    path = tmp_path / "in.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    assert runner.invoke(app, ["history", "import", str(path)]).exit_code == 0
    return db_path


@pytest.mark.parametrize(
    "args",
    [
        ["history", "list"],
        ["history", "list", "--json"],
        ["history", "show", "1"],
        ["history", "show", "1", "--json"],
        ["history", "stats"],
        ["history", "stats", "--json"],
        ["history", "records"],
        ["history", "ratings"],
        ["history", "check"],
    ],
)
def test_no_raw_control_character_is_printed(hostile: Path, args: list[str]) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert RAW.findall(result.output) == []


def test_the_json_printed_reads_back_the_same(hostile: Path) -> None:
    shown = runner.invoke(app, ["history", "show", "1", "--json"]).stdout
    # The notes were cleaned on the way in (issue 35): what is printed reads back
    # as what is stored.
    assert json.loads(shown)["notes"] == "note[2J\nCRbellnulRTLCSI tab"


def test_json_text_keeps_other_text_as_it_is() -> None:
    assert json_text({"name": "Zoë 太郎"}) == '{\n  "name": "Zoë 太郎"\n}'
    assert json_text(["\u2028"]) == '[\n  "\\u2028"\n]'
