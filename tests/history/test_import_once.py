"""A play is one play however often its file is read (issue 35): our BGG XML export
carries our uuid, a BGG play id names a play, a corrected play is updated, a uuid
twice in one file is said to be twice in the file, and ``history check`` lists games
that look recorded twice."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from companion.cli.app import app
from companion.history.store import History
from tests.support.history_fixture import fill

runner = CliRunner()


def _plays(db: Path) -> list[dict[str, Any]]:
    with History(db) as history:
        return [p.to_json() for p in history.plays()]


def _bgg(score: str, *, play_id: str = "9001", comments: str = "") -> str:
    return (
        '<?xml version="1.0" encoding="utf-8"?>\n'
        '<plays username="aki" userid="4242" total="1" page="1">'
        f'<play id="{play_id}" date="2026-03-01" quantity="1" length="50" incomplete="0" '
        'nowinstats="0" location="Club">'
        '<item name="Tokaido" objecttype="thing" objectid="123540"/>'
        f"<comments>{comments}</comments>"
        "<players>"
        f'<player username="" userid="0" name="Aki" startposition="1" score="{score}" win="1"/>'
        '<player username="" userid="0" name="Ben" startposition="2" score="40" win="0"/>'
        "</players></play></plays>\n"
    )


def test_our_bgg_xml_export_imported_twice_adds_nothing(tmp_path: Path, db_path: Path) -> None:
    fill(db_path)
    exported = tmp_path / "plays.xml"
    out = runner.invoke(app, ["history", "export", "--format", "bgg-xml", "--out", str(exported)])
    assert out.exit_code == 0, out.output
    text = exported.read_text()
    uuids = [p["uuid"] for p in _plays(db_path)]
    assert all(f"[companion play {u}]" in text for u in uuids)
    for _ in range(2):
        again = runner.invoke(app, ["history", "import", str(exported)])
        assert again.exit_code == 0, again.output
        assert again.stdout.startswith("Imported 0 games; 7 were already in the history.\n")
    assert len(_plays(db_path)) == 7
    # Into a fresh history: the same uuids, and the marker is not part of the notes.
    fresh = tmp_path / "fresh.sqlite3"
    first = runner.invoke(app, ["--db", str(fresh), "history", "import", str(exported)])
    assert first.stdout.startswith("Imported 7 games; 0 were already in the history.\n")
    assert [p["uuid"] for p in _plays(fresh)] == uuids
    assert [p["notes"] for p in _plays(fresh)] == [p["notes"] for p in _plays(db_path)]
    second = runner.invoke(app, ["--db", str(fresh), "history", "import", str(exported)])
    assert second.stdout.startswith("Imported 0 games; 7 were already in the history.\n")
    check = runner.invoke(app, ["--db", str(fresh), "history", "check"])
    assert check.exit_code == 0, check.output
    assert "looks recorded twice" not in check.stdout


def test_a_play_corrected_on_bgg_is_updated_not_added(tmp_path: Path, db_path: Path) -> None:
    original, corrected = tmp_path / "a.xml", tmp_path / "b.xml"
    original.write_text(_bgg("45"))
    corrected.write_text(_bgg("47"))
    first = runner.invoke(app, ["history", "import", str(original)])
    assert first.stdout.startswith("Imported 1 game; 0 were already in the history.\n")
    same = runner.invoke(app, ["history", "import", str(original)])
    assert same.stdout == "Imported 0 games; 1 was already in the history.\n"
    fixed = runner.invoke(app, ["history", "import", str(corrected)])
    assert fixed.exit_code == 0, fixed.output
    assert fixed.stdout == (
        "Imported 0 games; 0 were already in the history.\n"
        "Updated 1 game already in the history: corrected where it came from "
        "(same play, changed).\n"
    )
    (play,) = _plays(db_path)
    assert play["id"] == 1
    assert [(s["name"], s["total"]) for s in play["result"]["players"]] == [
        ("Aki", 47), ("Ben", 40),
    ]  # fmt: skip


def test_a_play_of_ours_is_never_overwritten_by_its_bgg_copy(tmp_path: Path, db_path: Path) -> None:
    fill(db_path)
    exported = tmp_path / "plays.xml"
    runner.invoke(app, ["history", "export", "--format", "bgg-xml", "--out", str(exported)])
    exported.write_text(exported.read_text().replace('score="60"', 'score="61"'))
    result = runner.invoke(app, ["history", "import", str(exported)])
    assert result.stdout.startswith("Imported 0 games; 7 were already in the history.\n")
    assert _plays(db_path)[0]["result"]["players"][0]["total"] == 60


def test_one_uuid_twice_in_a_file_is_said_to_be_twice_in_the_file(
    tmp_path: Path, db_path: Path
) -> None:
    fill(db_path)
    exported = tmp_path / "plays.json"
    runner.invoke(app, ["history", "export", "--format", "json", "--out", str(exported)])
    data = json.loads(exported.read_text())
    data["plays"].append(data["plays"][0])
    exported.write_text(json.dumps(data))
    fresh = tmp_path / "fresh.sqlite3"
    result = runner.invoke(app, ["--db", str(fresh), "history", "import", str(exported)])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(
        "Imported 7 games; 0 were already in the history.\n"
        "1 game was twice in the file itself: kept once.\n"
    )
    assert len(_plays(fresh)) == 7


def test_check_lists_games_that_look_recorded_twice(tmp_path: Path, db_path: Path) -> None:
    fill(db_path)
    exported = tmp_path / "plays.xml"
    runner.invoke(app, ["history", "export", "--format", "bgg-xml", "--out", str(exported)])
    # An export of ours from before the uuid marker: nothing tells its plays are ours.
    text = exported.read_text()
    for play in _plays(db_path):
        text = text.replace(f"\n[companion play {play['uuid']}]", "")
        text = text.replace(f"[companion play {play['uuid']}]", "")
    exported.write_text(text)
    result = runner.invoke(app, ["history", "import", str(exported)])
    assert result.stdout.startswith("Imported 7 games; 0 were already in the history.\n")
    check = runner.invoke(app, ["history", "check"])
    assert check.exit_code == 0, check.output
    lines = [line for line in check.stdout.splitlines() if "looks recorded twice" in line]
    assert len(lines) == 7
    assert lines[0] == (
        "  Note: game #8: looks recorded twice: Tokaido on 2026-01-01 with the same people "
        "and scores as game #1; `companion history delete 8` deletes this one"
    )
    for number in range(8, 15):
        assert runner.invoke(app, ["history", "delete", str(number), "--yes"]).exit_code == 0
    again = runner.invoke(app, ["history", "check"])
    assert "looks recorded twice" not in again.stdout


def test_a_play_corrected_in_bg_stats_is_updated_an_edit_here_is_kept(
    tmp_path: Path, db_path: Path
) -> None:
    from tests.support.import_files import BACKUP

    data = json.loads(BACKUP.read_text())
    source = tmp_path / "backup.bgsplay"
    source.write_text(json.dumps(data))
    assert runner.invoke(app, ["history", "import", str(source)]).exit_code == 0
    # Edited here: the same backup read again keeps the edit.
    with History(db_path) as history:
        play = next(p for p in history.plays() if p.notes == "Crossroads for the first time")
        history.replace(play.__class__(**{**play.__dict__, "notes": "edited here"}))
    again = runner.invoke(app, ["history", "import", str(source)])
    assert again.stdout.startswith("Imported 0 games; 5 were already in the history.\n")
    # Corrected in the app: the play is updated (the edit gives way to the app's word).
    data["plays"][0]["playerScores"][0]["score"] = "81"
    source.write_text(json.dumps(data))
    fixed = runner.invoke(app, ["history", "import", str(source)])
    assert fixed.stdout.startswith(
        "Imported 0 games; 4 were already in the history.\n"
        "Updated 1 game already in the history: corrected where it came from "
        "(same play, changed).\n"
    )
    with History(db_path) as history:
        play = history.get(play.id)
    assert play.result["players"][0]["total"] == 81
    assert play.notes == "Crossroads for the first time"
    # And the JSON export of ours, older than the history, never overwrites it.
    out = tmp_path / "ours.json"
    runner.invoke(app, ["history", "export", "--format", "json", "--out", str(out)])
    ours = json.loads(out.read_text())
    ours["plays"][0]["notes"] = "from an older json export"
    out.write_text(json.dumps(ours))
    back = runner.invoke(app, ["history", "import", str(out)])
    assert back.stdout.startswith("Imported 0 games; 5 were already in the history.\n")


def test_a_bgg_play_imported_by_an_earlier_companion_is_known_again(
    tmp_path: Path, db_path: Path
) -> None:
    import sqlite3
    import uuid

    from companion.history.formats.shared import NAMESPACE

    source = tmp_path / "a.xml"
    source.write_text(_bgg("45"))
    runner.invoke(app, ["history", "import", str(source)])
    ident = json.dumps(["9001", "2026-03-01", "tokaido", [["Aki", 45], ["Ben", 40]]])
    earlier = str(uuid.uuid5(NAMESPACE, f"bgg-play:{ident}:0"))
    with sqlite3.connect(db_path) as db:  # as a companion before issue 35 stored it
        db.execute("UPDATE plays SET uuid = ?", (earlier,))
        db.execute("DELETE FROM play_extras")
    db.close()
    again = runner.invoke(app, ["history", "import", str(source)])
    assert again.stdout == "Imported 0 games; 1 was already in the history.\n"
    source.write_text(_bgg("47"))
    fixed = runner.invoke(app, ["history", "import", str(source)])
    assert "Updated 1 game" in fixed.stdout
    (play,) = _plays(db_path)
    assert play["uuid"] == str(uuid.uuid5(NAMESPACE, "bgg-play-id:9001:0"))  # BGG's id now
    assert play["result"]["players"][0]["total"] == 47
