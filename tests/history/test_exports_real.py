"""Exports read as a real reader reads them: BG Stats locations and ranks, csv line breaks."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from companion.history.formats.dispatch import export, parse
from companion.history.store import History
from tests.support.history_fixture import fill, result
from tests.support.import_files import FILES


def bgstats(db_path: Path) -> dict[str, object]:
    with History(db_path) as history:
        data: dict[str, object] = json.loads(export(history.plays(), "bgstats"))
    return data


def test_a_play_without_a_location_has_no_location_ref(db_path: Path) -> None:
    fill(db_path)  # every other play has a location
    plays = bgstats(db_path)["plays"]
    assert isinstance(plays, list)
    assert [("locationRefId" in p) for p in plays] == [True, False, True, False, True, False, True]
    assert {p["locationRefId"] for p in plays if "locationRefId" in p} == {1}


@pytest.mark.parametrize("name", ["bgstats-wrapped-sample.json", "bgstats-visualize-sample.json"])
def test_blank_scores_never_mix_rank_0_with_ranks(db_path: Path, name: str) -> None:
    # Real backups' plays, some with blank scores and the winner marked: imported, exported.
    with History(db_path) as history:
        history.add(parse((FILES / name).read_text()).plays)
    plays = bgstats(db_path)["plays"]
    assert isinstance(plays, list)
    ranks = {p["uuid"].upper(): [s["rank"] for s in p["playerScores"]] for p in plays}
    for seats in ranks.values():
        assert 0 not in seats or set(seats) == {0}
    if name == "bgstats-wrapped-sample.json":
        # Blank scores, Darth Maul marked winner, every rank 0 in the backup.
        assert ranks["B6C70BF9-745C-4DC9-B2E2-0952267C8019"] == [2, 1]
    else:
        assert ranks["DD08CC9F-947C-4BFA-97F6-48E1DA370DDB"] == [2, 2, 2, 2, 1]
        assert ranks["7BF2A9D5-D94E-43FB-BBBD-BAFB74BAC70B"] == [3, 1, 4, 5, 2]


def test_a_known_rank_beside_blank_scores_comes_before_them(db_path: Path) -> None:
    seats = result("tokaido", [("Aki", 60, 1), ("Ben", 50, 2), ("Cho", 0, 0)], ["Aki"])
    seats["players"][2].update(total=None, rank=None, breakdown={})
    with History(db_path) as history:
        history.record(game="tokaido", score_file=None, result=seats)
    plays = bgstats(db_path)["plays"]
    assert isinstance(plays, list)
    assert [s["rank"] for s in plays[0]["playerScores"]] == [1, 2, 3]


@pytest.mark.parametrize("excel", [False, True])
@pytest.mark.parametrize("note", ["one\rtwo", "one\ntwo", "one\r\ntwo", "\rone"])
def test_csv_quotes_every_field_with_a_line_break(db_path: Path, excel: bool, note: str) -> None:
    with History(db_path) as history:
        history.record(
            game="tokaido",
            score_file=None,
            result=result("tokaido", [("Aki", 60, 1), ("Ben", 50, 2)], ["Aki"]),
            notes=note,
        )
        text = export(history.plays(), "csv", excel=excel)
    rows = list(csv.DictReader(io.StringIO(text, newline="")))
    stored = note.replace("\r\n", "\n").replace("\r", "\n")  # (line breaks are stored as LF)
    assert [r["notes"].removeprefix("'") for r in rows] == [stored, stored]
    ending = "\r\n" if excel else "\n"
    body = text.replace(f'"{rows[0]["notes"]}"', "")
    assert "\r" not in rows[0]["notes"]
    assert body.count(ending) == 3
    assert "\r" not in body.replace("\r\n", "") if excel else "\r" not in body
