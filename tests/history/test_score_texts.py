"""Other apps' score texts read seat by seat (issue 35): what BG Stats writes itself is
read as the app reads it, and a text nothing reads leaves that seat without a score,
with a note naming the play and the seat, while the rest of the file imports."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from companion.cli.app import app
from companion.history.formats.bgstats import score_value
from companion.history.store import History
from tests.support.import_files import BACKUP

runner = CliRunner()


@pytest.mark.parametrize(
    ("text", "points", "note"),
    [
        ("86+84+", 170, "score 86+84+ read as 170"),
        ("86 + 84 + ", 170, "score 86 + 84 +  read as 170"),
        ("40+6.", 46, None),
        ("6.", 6, None),
        ("--", None, "score '--' read as no score"),
        ("-", None, "score '-' read as no score"),
        ("21,7", 22, "score 21,7 rounded to 22"),
        ("21,2+1,3", 23, "score 21,2+1,3 rounded to 23"),
        ("58+10+4", 72, None),
    ],
)
def test_bg_stats_own_texts_are_read_as_the_app_reads_them(
    text: str, points: int | None, note: str | None
) -> None:
    assert score_value(text) == (points, note)


@pytest.mark.parametrize("text", ["Decisive", "+", "4x8", "1,2,3", "++86"])
def test_texts_no_reading_makes_a_score_are_refused_by_the_reader(text: str) -> None:
    with pytest.raises(ValueError, match="must be a score such as 58 or 58"):
        score_value(text)


def _plays(db: Path) -> list[dict[str, Any]]:
    with History(db) as history:
        return [p.to_json() for p in history.plays()]


def test_a_backup_with_the_apps_texts_and_one_unreadable_imports_the_rest(
    tmp_path: Path, db_path: Path
) -> None:
    data = json.loads(BACKUP.read_text())
    scores = data["plays"][0]["playerScores"]
    scores[0]["score"], scores[1]["score"], scores[2]["score"] = "86+84+", "21,7", "--"
    data["plays"][1]["playerScores"][0]["score"] = "6.+2"
    data["plays"][1]["playerScores"][1]["score"] = "Decisive"
    source = tmp_path / "backup.bgsplay"
    source.write_text(json.dumps(data))
    result = runner.invoke(app, ["history", "import", str(source)])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("Imported 5 games; 0 were already in the history.\n")
    notes = [line for line in result.stdout.splitlines() if line.startswith("Note: ")]
    assert notes == [
        "Note: the Tokaido play of 2026-10-03: Aki: score 86+84+ read as 170",
        "Note: the Tokaido play of 2026-10-03: Ben: score 21,7 rounded to 22",
        "Note: the Tokaido play of 2026-10-03: Cho: score '--' read as no score",
        "Note: the Shogun play of 2026-10-04: seat 2 (Ben): must be a score such as 58 or "
        "58+10+4, got 'Decisive'; kept without a score",
    ]
    first, second = _plays(db_path)[:2]
    assert [s["total"] for s in first["result"]["players"]] == [170, 22, None]
    assert [(s["name"], s["total"]) for s in second["result"]["players"]][:2] == [
        ("Aki", 8), ("Ben", None),
    ]  # fmt: skip


def test_a_bgg_decisive_leaves_that_seat_without_a_score(tmp_path: Path, db_path: Path) -> None:
    source = tmp_path / "plays.xml"
    source.write_text(
        '<plays username="aki" userid="7">'
        '<play id="31" date="2026-03-01"><item name="Tokaido" objectid="123540"/><players>'
        '<player name="Aki" score="Decisive" win="1"/><player name="Ben" score="40"/>'
        "</players></play>"
        '<play id="32" date="2026-03-02"><item name="Tokaido" objectid="123540"/><players>'
        '<player name="Aki" score="50" win="1"/><player name="Ben" score="40"/>'
        "</players></play></plays>"
    )
    result = runner.invoke(app, ["history", "import", str(source)])
    assert result.exit_code == 0, result.output
    assert result.stdout == (
        "Imported 2 games; 0 were already in the history.\n"
        "1 seat had no score: kept as not scored, out of the score statistics.\n"
        "Note: the Tokaido play of 2026-03-01: seat 1 (Aki): must be a score such as 58 or "
        "58+10+4, got 'Decisive'; kept without a score\n"
    )
    first, _ = _plays(db_path)
    assert [(s["name"], s["total"]) for s in first["result"]["players"]] == [
        ("Aki", None), ("Ben", 40),
    ]  # fmt: skip
    assert first["result"]["winners"] == ["Aki"]
