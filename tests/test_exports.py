"""Exports other apps read, and imports of ours and of BG Stats."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from xml.etree import ElementTree

import pytest

from companion.exports import export, game_uuid, player_uuid
from companion.history import History
from companion.imports import parse
from scorers import ScoreFileError
from tests.history_fixture import PLAYS, fill

FILES = Path(__file__).parent / "files"


@pytest.fixture
def filled(db_path: Path) -> Path:
    fill(db_path)
    return db_path


def exported(path: Path, fmt: str) -> str:
    with History(path) as history:
        return export(history.plays(), fmt)


def test_json_round_trip_is_identical(filled: Path, tmp_path: Path) -> None:
    first = exported(filled, "json")
    other = tmp_path / "other.sqlite3"
    parsed = parse(first)
    with History(other) as history:
        assert history.add(parsed.plays) == (len(PLAYS), 0)
    assert exported(other, "json") == first
    with History(other) as history:
        assert history.add(parse(first).plays) == (0, len(PLAYS))
    assert exported(other, "json") == first


def test_json_holds_everything(filled: Path) -> None:
    document = json.loads(exported(filled, "json"))
    assert (document["format"], document["version"]) == ("companion-history", 1)
    first = document["plays"][0]
    assert first["score_file"] is None
    assert (first["location"], first["notes"], first["duration_min"], first["start_player"]) == (
        "Aki's place",
        "first game of the year",
        45,
        0,
    )
    assert first["result"]["winners"] == ["Aki"]
    assert first["events"] == []


def test_bgstats_export_has_the_app_fields(filled: Path) -> None:
    first = json.loads(exported(filled, "bgstats"))
    again = json.loads(exported(filled, "bgstats"))
    assert first == again
    assert first["players"][:2] == [
        {"id": 1, "uuid": player_uuid("Aki"), "name": "Aki"},
        {"id": 2, "uuid": player_uuid("Ben"), "name": "Ben"},
    ]
    assert [g["name"] for g in first["games"]] == ["Tokaido", "Shogun", "Shibuya"]
    assert first["games"][0] == {
        "id": 1,
        "uuid": game_uuid("tokaido"),
        "name": "Tokaido",
        "bggId": 123540,
        "highestWins": True,
    }
    assert first["games"][1]["bggId"] == 0
    play = first["plays"][3]
    assert set(play) == {
        "uuid",
        "playDate",
        "gameRefId",
        "durationMin",
        "comments",
        "locationName",
        "playerScores",
    }
    assert (play["playDate"], play["gameRefId"], play["durationMin"]) == (
        "2026-01-04 20:00:00",
        1,
        48,
    )
    assert play["playerScores"][:2] == [
        {
            "playerRefId": 3,
            "score": "70",
            "winner": True,
            "rank": 1,
            "startPlayer": False,
            "seatOrder": 1,
        },
        {
            "playerRefId": 1,
            "score": "65",
            "winner": False,
            "rank": 2,
            "startPlayer": True,
            "seatOrder": 2,
        },
    ]
    with History(filled) as history:
        uuids = [p.uuid for p in history.plays()]
    assert [p["uuid"] for p in first["plays"]] == uuids


def test_csv_reads_back(filled: Path) -> None:
    rows = list(csv.DictReader(io.StringIO(exported(filled, "csv"))))
    assert len(rows) == sum(len(seats) for _, _, seats, _ in PLAYS)
    assert list(rows[0])[:12] == [
        "play_id",
        "play_date",
        "game",
        "bgg_id",
        "duration_min",
        "location",
        "player",
        "seat_order",
        "start_player",
        "score",
        "rank",
        "winner",
    ]
    first = rows[0]
    assert (first["play_id"], first["play_date"], first["game"], first["bgg_id"]) == (
        "1",
        "2026-01-01 20:00:00",
        "tokaido",
        "123540",
    )
    assert (first["player"], first["seat_order"], first["start_player"], first["score"]) == (
        "Aki",
        "1",
        "1",
        "60",
    )
    assert (first["rank"], first["winner"], first["journey"], first["provinces"]) == (
        "1",
        "1",
        "60",
        "",
    )
    shared = [r for r in rows if r["play_id"] == "2"]
    assert [r["winner"] for r in shared] == ["1", "1", "0"]


def test_bgg_xml_parses(filled: Path) -> None:
    root = ElementTree.fromstring(exported(filled, "bgg-xml"))
    plays = root.findall("play")
    assert len(plays) == len(PLAYS)
    first = plays[0]
    assert (first.get("date"), first.get("length"), first.get("location")) == (
        "2026-01-01",
        "45",
        "Aki's place",
    )
    item = first.find("item")
    assert item is not None
    assert (item.get("name"), item.get("objectid")) == ("Tokaido", "123540")
    players = [
        (p.get("name"), p.get("startposition"), p.get("score"), p.get("win"))
        for p in first.iter("player")
    ]
    assert players == [("Aki", "1", "60", "1"), ("Ben", "2", "50", "0"), ("Cho", "3", "40", "0")]


def test_bgstats_import(db_path: Path) -> None:
    parsed = parse((FILES / "bgstats-export.json").read_text())
    assert parsed.skipped_games == {"Catan": 1, "Azul": 1}
    with History(db_path) as history:
        assert history.add(parsed.plays, keep_ids=False) == (2, 0)
        tokaido, shogun = history.plays()
    assert tokaido.game == "tokaido"
    assert tokaido.played_at == "2026-10-03T19:30:00Z"
    assert tokaido.players == ["Aki", "Ben"]
    assert [(p["total"], p["rank"]) for p in tokaido.result["players"]] == [(71, 1), (66, 2)]
    assert tokaido.result["winners"] == ["Aki"]
    assert tokaido.start_player == 1
    assert (tokaido.location, tokaido.notes, tokaido.duration_min, tokaido.source) == (
        "Game cafe",
        "Aki's first win",
        50,
        "bgstats",
    )
    assert tokaido.score_file is None
    assert shogun.game == "shogun"
    assert [(p["name"], p["total"], p["rank"]) for p in shogun.result["players"]] == [
        ("Aki", 40, 3),
        ("Ben", 44, 1),
        ("Cho", 44, 1),
    ]
    assert shogun.result["winners"] == ["Ben", "Cho"]
    assert shogun.duration_min is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "[1, 2]",
            ["$: neither a companion json export nor a BG Stats export (players, games, plays)"],
        ),
        (
            "{nope",
            [
                "$: not valid JSON: Expecting property name enclosed in double quotes "
                "(line 1, column 2)"
            ],
        ),
        (
            '{"players": [{"id": 1, "name": "Aki"}], "games": [{"id": 1, "name": "Tokaido"}],'
            ' "plays": [{"playDate": "2026-10-03 19:30:00", "gameRefId": 1,'
            ' "playerScores": [{"playerRefId": 9, "score": "3"}]}]}',
            ["plays[0].playerScores[0].playerRefId: must name a player listed in players"],
        ),
        (
            '{"players": [], "games": [{"id": 1, "name": "Tokaido"}],'
            ' "plays": [{"gameRefId": 2, "playerScores": []}]}',
            [
                "plays[0].playDate: missing (this field is required)",
                "plays[0].gameRefId: no game with id 2 in games",
            ],
        ),
        (
            '{"format": "companion-history", "version": 1, "plays": [{"id": 1}]}',
            [
                f"plays[0].{key}: missing (this field is required)"
                for key in (
                    "uuid",
                    "played_at",
                    "game",
                    "location",
                    "notes",
                    "duration_min",
                    "source",
                    "start_player",
                    "score_file",
                    "result",
                    "events",
                )
            ]
            + ["plays[0].result: must be an object, got null"],
        ),
    ],
)
def test_malformed_imports_name_the_place(text: str, expected: list[str]) -> None:
    with pytest.raises(ScoreFileError) as caught:
        parse(text)
    assert [str(p) for p in caught.value.problems] == expected
