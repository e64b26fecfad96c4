"""A large import is read item by item: the plays wait in a temporary file, never all in memory.

The memory targets of a real-sized file (tens of megabytes) are in
``benchmarks/hostile_files.py``; here a few megabytes show that what is held does not
grow with the file, and that the plays read back are the plays read.
"""

from __future__ import annotations

import contextlib
import gc
import io
import json
import sys
import tracemalloc
import weakref
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from companion import bounded_json
from companion.bounded_json import FileTooLarge, NotText
from companion.cli.app import app
from companion.history import import_spool, store
from companion.history.formats import bggxml, bounded, dispatch
from companion.history.formats.dispatch import export, parse, read_history_file, read_import
from companion.history.model import Play
from companion.history.store import History
from scorers import ScoreFileError
from tests.support.history_fixture import fill
from tests.support.import_files import BACKUP, FILES

runner = CliRunner()


def tokaido(count: int) -> dict[str, Any]:
    """The real-shaped backup with ``count`` copies of its first play (a Tokaido play, with
    a score to round), uuids apart."""
    data: dict[str, Any] = json.loads(BACKUP.read_text())
    first = json.dumps(data["plays"][0])
    data["plays"] = [
        dict(json.loads(first), uuid=f"5A1C0E00-0000-4000-8000-{k:012d}") for k in range(count)
    ]
    return data


def written(path: Path, document: object) -> str:
    path.write_text(json.dumps(document), encoding="utf-8")
    return str(path)


@pytest.mark.slow
def test_reading_a_large_file_holds_a_bounded_batch(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(import_spool, "SPOOL_EVERY", 100)
    source = written(tmp_path / "big.json", tokaido(3000))  # about 3 MB
    read_history_file(str(BACKUP)).close()  # (the modules it uses are loaded before it counts)
    gc.collect()
    tracemalloc.start()
    try:
        parsed = read_history_file(source)
        count = sum(1 for _ in parsed.logged())
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    parsed.close()
    assert count == parsed.count == 3000
    assert parsed.plays == []  # (they are in the temporary file)
    # Held whole, the plays alone take about 8 MB; a batch, a window of text and the
    # players and games of the file stay under 6 MB, however many plays there are.
    assert peak < 6_000_000


def test_the_plays_read_back_are_the_plays_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(import_spool, "SPOOL_EVERY", 2)
    for name in ("bgstats-wrapped-sample.json", "bgstats-visualize-sample.json"):
        text = (FILES / name).read_text()
        whole = parse(text)
        parsed = read_import(str(FILES / name))
        assert parsed.spool is not None and parsed.plays == []
        assert [play for play, _ in parsed.logged()] == whole.plays
        assert [play for play, _ in parsed.logged()] == whole.plays  # (read back twice)
        assert (parsed.notes, parsed.skipped_games, parsed.player_uuids) == (
            whole.notes,
            whole.skipped_games,
            whole.player_uuids,
        )
        parsed.close()


def test_places_listed_after_the_plays_are_filled_in_when_read_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(import_spool, "SPOOL_EVERY", 2)
    data: dict[str, Any] = json.loads(BACKUP.read_text())
    locations = data.pop("locations")
    data["locations"] = locations  # after the plays
    source = written(tmp_path / "late.json", data)
    parsed = read_import(source)
    places = [play.location for play, _ in parsed.logged()]
    assert places == [play.location for play in parse(BACKUP.read_text()).plays]
    assert len(set(places)) > 1
    parsed.close()


def test_our_export_with_played_along_games_read_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fill(tmp_path / "first.sqlite3")
    with History(tmp_path / "first.sqlite3") as history:
        document = json.loads(export(history.plays(), "json"))
    document["plays"][1]["events"] = [{"at": "2026-11-30T20:15:00Z", "key": "k", "value": [1]}]
    monkeypatch.setattr(import_spool, "SPOOL_EVERY", 3)
    parsed = read_import(written(tmp_path / "ours.json", document))
    whole = parse(json.dumps(document))
    assert parsed.has_events and parsed.count == len(whole.plays) == 7
    assert list(parsed.logged()) == [(p, whole.events.get(p.uuid)) for p in whole.plays]
    parsed.close()


def test_a_refused_file_lets_go_of_its_plays(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(import_spool, "SPOOL_EVERY", 2)
    closed: list[int] = []
    close = import_spool.Spool.close

    def noted(self: import_spool.Spool) -> None:
        closed.append(self.count)
        close(self)

    monkeypatch.setattr(import_spool.Spool, "close", noted)
    data = tokaido(30)
    data["plays"][-1]["playerScores"][0]["score"] = ["4x8"]  # (not even a text)
    with pytest.raises(ScoreFileError) as caught:
        read_import(written(tmp_path / "bad.json", data))
    assert [str(p) for p in caught.value.problems] == [
        "plays[29].playerScores[0].score: must be a score such as 58 or 58+10+4"
    ]
    assert closed == [29]  # the plays before it were kept, and are let go of


def test_a_large_import_refused_at_its_last_play_records_nothing(
    tmp_path: Path, db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(import_spool, "SPOOL_EVERY", 10)
    data = tokaido(100)
    data["plays"][-1]["playerScores"][1]["score"] = ["4x8"]  # (not even a text)
    result = runner.invoke(app, ["history", "import", written(tmp_path / "bad.json", data)])
    assert result.exit_code == 2
    assert result.stderr.endswith(
        "cannot be imported (1 problem); nothing was imported:\n"
        "  plays[99].playerScores[1].score: must be a score such as 58 or 58+10+4\n"
    )
    assert not db_path.exists()


def test_a_large_import_gives_the_history_of_one_read_whole(
    tmp_path: Path, db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = tokaido(40)
    data["plays"] += data["plays"][:3]  # given twice in the file: added once
    source = written(tmp_path / "big.json", data)
    with History(tmp_path / "whole.sqlite3") as history:
        added, skipped = history.add(parse(json.dumps(data)).plays, keep_ids=False)
        whole = export(history.plays(), "json")
    assert (added, skipped) == (40, 3)
    monkeypatch.setattr(import_spool, "SPOOL_EVERY", 3)
    monkeypatch.setattr(store, "WRITE_EVERY", 4)
    result = runner.invoke(app, ["history", "import", source])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(
        f"Imported {added} games; 0 were already in the history.\n"
        "3 games were twice in the file itself: kept once.\n"
    )
    with History(db_path) as history:
        assert export(history.plays(), "json") == whole


def test_adding_holds_a_bounded_batch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(store, "WRITE_EVERY", 5)
    plays = parse(json.dumps(tokaido(60))).plays
    seen: list[weakref.ref[Play]] = []
    most = 0

    def one_by_one() -> Iterator[tuple[Play, None]]:
        nonlocal most
        while plays:
            play = plays.pop(0)
            seen.append(weakref.ref(play))  # (a play is freed once nothing holds it)
            most = max(most, sum(1 for ref in seen if ref() is not None))
            yield play, None

    with History(tmp_path / "h.sqlite3") as history:
        assert history.add_logged(one_by_one(), keep_ids=False).added == 60
        assert len(history.plays()) == 60
    # The batch written last, the one being taken, and the play at hand: never all 60.
    assert most <= 2 * 5 + 1


def test_notes_past_the_kept_ones_are_counted(
    tmp_path: Path, db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bounded, "MAX_KEPT_NOTES", 3)
    data = tokaido(5)
    for play in data["plays"]:
        play["playerScores"][0]["score"] = "57.5"  # rounded, with a note
    parsed = parse(json.dumps(data))
    assert len(parsed.notes) == 3 and parsed.note_count == 10  # (Ben's 57.5 too)
    assert parsed.notes[0] == "the Tokaido play of 2026-10-03: Aki: score 57.5 rounded to 58"
    monkeypatch.setattr("companion.history.reports.MAX_NOTES", 2)
    result = runner.invoke(app, ["history", "import", written(tmp_path / "n.json", data)])
    assert result.exit_code == 0, result.output
    assert result.stdout.endswith("rounded to 58\n... and 8 more notes.\n")


def stdin(monkeypatch: pytest.MonkeyPatch, data: bytes) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))


def test_standard_input_is_copied_and_read_as_a_file_is(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(import_spool, "SPOOL_EVERY", 2)
    stdin(monkeypatch, json.dumps(tokaido(5)).encode())
    parsed = read_history_file("-")
    assert (parsed.plays, parsed.count) == ([], 5)
    assert [p for p, _ in parsed.logged()] == parse(json.dumps(tokaido(5))).plays
    parsed.close()
    stdin(monkeypatch, (FILES / "bgg" / "plays-ristvan.xml").read_bytes())
    xml = read_history_file("-")
    assert (xml.kind, xml.plays, xml.count) == ("bgg-xml", [], 1)
    assert [p for p, _ in xml.logged()] == bggxml.parse_bgg_xml(
        (FILES / "bgg" / "plays-ristvan.xml").read_bytes()
    ).plays
    xml.close()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b'\xff{"plays": []}', "standard input is not UTF-8 text"),
        (b'{"plays": ["\x00"]}', "standard input is not text (it holds a NUL byte)"),
    ],
)
def test_standard_input_that_is_not_text(
    monkeypatch: pytest.MonkeyPatch, data: bytes, message: str
) -> None:
    stdin(monkeypatch, data)
    with pytest.raises(NotText) as caught:
        read_history_file("-")
    assert str(caught.value) == message


def test_standard_input_over_the_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bounded, "MAX_IMPORT_BYTES", 1000)
    stdin(monkeypatch, b"{" + b" " * 1000 + b"}")
    with pytest.raises(FileTooLarge) as caught:
        read_history_file("-")
    assert str(caught.value) == "standard input is larger than 1 kB, too large to be read"


@pytest.mark.parametrize("key", ["sessions", "plays"])
def test_a_list_the_import_does_not_read_is_not_kept(
    tmp_path: Path, key: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = tokaido(3)
    items = [{"id": k, "name": f"group {k}", "members": [1, 2, 3]} for k in range(20_000)]
    text = json.dumps(data)[:-1] + f', "{key}": ' + json.dumps(items) + "}"  # (plays: twice)
    source = tmp_path / "big.json"
    source.write_text(text)
    read_history_file(str(BACKUP)).close()
    gc.collect()
    tracemalloc.start()
    try:
        with contextlib.suppress(ScoreFileError):
            read_history_file(str(source)).close()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    # The list is about 1.2 MB of text and 9 MB as objects: only one item is held at a time.
    assert peak < 3_500_000


def test_a_list_the_import_does_not_read_is_checked_all_the_same(tmp_path: Path) -> None:
    text = json.dumps(tokaido(1))[:-1] + ', "sessions": [{"id": 1}, {"id": 2, "id": 3}]}'
    source = tmp_path / "tags.json"
    source.write_text(text)
    with pytest.raises(ScoreFileError) as caught:
        read_history_file(str(source))
    assert [str(p) for p in caught.value.problems] == [
        "sessions[1].id: this key is given more than once"
    ]


@pytest.mark.parametrize(
    ("where", "path"),
    [("notes", "plays[1]"), ("player", "players[0]"), ("key", "$")],
)
def test_a_value_too_long_to_be_read_is_refused_before_it_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str, path: str
) -> None:
    monkeypatch.setattr(bounded_json, "_WINDOW", 100)  # (the text is read 100 characters ahead)
    monkeypatch.setattr(dispatch, "MAX_VALUE", 100_000)
    data = tokaido(3)
    data["plays"][0]["metaData"] = "x" * 80_000  # longer than a piece read: read on
    if where == "notes":
        data["plays"][1]["comments"] = "x" * 300_000
    elif where == "player":
        data["players"][0]["name"] = "x" * 300_000
    else:
        data = {"k" * 300_000: 1, **data}
    read: list[int] = []
    pieces = bounded_json._pieces  # type: ignore[attr-defined]

    def counted(*args: Any) -> Iterator[str]:
        for piece in pieces(*args):
            read.append(len(piece))
            yield piece

    monkeypatch.setattr(bounded_json, "_pieces", counted)
    with pytest.raises(ScoreFileError) as caught:
        read_history_file(written(tmp_path / "long.json", data))
    assert [str(p) for p in caught.value.problems] == [
        f"{path}: is more than 100,000 characters long (too long to be read)"
    ]
    assert sum(read) < len(json.dumps(data))  # (the rest of the file was never read)


@pytest.mark.slow
def test_of_the_players_games_and_places_only_what_is_read_is_kept(tmp_path: Path) -> None:
    data = tokaido(2)
    for entry in [*data["players"], *data["games"], *data["locations"]]:
        entry["metaData"] = [{"k": [k]} for k in range(5_000)]  # about 2 MB as objects
    source = written(tmp_path / "big.json", data)
    read_history_file(str(BACKUP)).close()
    gc.collect()
    tracemalloc.start()
    try:
        parsed = read_history_file(source)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert parsed.count == 2
    parsed.close()
    assert peak < 5_000_000  # (one entry at a time; kept, they would take about 20 MB)
    data["players"][0]["name"] = ["Aki"]
    data["games"][0]["id"] = {"n": 1}
    with pytest.raises(ScoreFileError) as caught:
        read_history_file(written(tmp_path / "wrong.json", data))
    assert [str(p) for p in caught.value.problems] == ["games[0].id: must be a number or a text"]
