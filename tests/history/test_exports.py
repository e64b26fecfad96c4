"""Exports other apps read, checked the way the public tools read them."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest

from companion.history.formats.bggxml import xml_text
from companion.history.formats.bgstats import game_uuid, player_uuid
from companion.history.formats.csv_export import safe_cell
from companion.history.formats.dispatch import encoded, export, parse
from companion.history.model import Person
from companion.history.store import History
from scorers import SCORERS
from tests.support.history_fixture import PLAYS, fill

FILES = Path(__file__).parents[1] / "files"
TEAMS_FILE = (FILES / "shibuya-teams.json").read_text()


@pytest.fixture
def filled(db_path: Path) -> Path:
    fill(db_path)
    with History(db_path) as history:
        result = SCORERS["shibuya"].score_json(json.loads(TEAMS_FILE)).to_json()
        history.record(
            game="shibuya",
            score_file=TEAMS_FILE,
            result=result,
            played_at="2026-01-08T20:00:00Z",
            location="Cho's",
            notes="Red held on",
            duration_min=35,
            start_player=3,
        )
    return db_path


def exported(path: Path, fmt: str) -> str:
    with History(path) as history:
        return export(history.plays(), fmt)


def test_json_round_trip_is_identical(filled: Path, tmp_path: Path) -> None:
    first = exported(filled, "json")
    other = tmp_path / "other.sqlite3"
    with History(other) as history:
        assert history.add(parse(first).plays) == (len(PLAYS) + 1, 0)
    assert exported(other, "json") == first
    with History(other) as history:
        assert history.add(parse(first).plays) == (0, len(PLAYS) + 1)
    assert exported(other, "json") == first


def test_json_holds_everything(filled: Path) -> None:
    document = json.loads(exported(filled, "json"))
    assert (document["format"], document["version"]) == ("companion-history", 2)
    first = document["plays"][0]
    assert first["score_file"] is None
    assert (first["location"], first["notes"], first["duration_min"], first["start_player"]) == (
        "Aki's place",
        "first game of the year",
        45,
        0,
    )
    assert first["result"]["winners"] == ["Aki"]
    assert (first["events"], first["ignored"], first["expansions"]) == ([], False, [])
    teams = document["plays"][-1]
    assert teams["people"] == [
        {"name": "Aki", "side": 0, "anonymous": False},
        {"name": "Cho", "side": 1, "anonymous": False},
        {"name": "Ben", "side": 0, "anonymous": False},
        {"name": "Dai", "side": 1, "anonymous": False},
    ]
    assert teams["start_player"] == 3


def bgstats_merger(data: dict[str, Any]) -> list[tuple[str, str, list[tuple[str, str, bool]]]]:
    """Reads a backup the way a BG Stats merger tool does: no defaults anywhere."""
    me = data["userInfo"]["meRefId"]
    players = {p["id"]: (p["uuid"], p["name"], p["isAnonymous"]) for p in data["players"]}
    assert me in players
    games = {g["id"]: (g["uuid"], g["name"], g["bggId"], g["usesTeams"]) for g in data["games"]}
    locations = {loc["id"]: loc["name"] for loc in data["locations"]}
    merged = []
    for play in data["plays"]:
        uuid = play["uuid"]
        assert uuid == uuid.upper()
        game = games[play["gameRefId"]]
        # A play without a place has no locationRefId (as in real backups): 0 would be one.
        place = locations[play["locationRefId"]] if "locationRefId" in play else ""
        for key in ("playDate", "durationMin", "ignored", "manualWinner", "usesTeams"):
            assert key in play
        for expansion in play["expansionPlays"]:
            assert games[expansion["gameRefId"]]
        merged.append(
            (
                game[1],
                place,
                [
                    (
                        players[s["playerRefId"]][1],
                        s["score"],
                        s["winner"] and s["rank"] >= 0 and s["seatOrder"] >= 0,
                    )
                    for s in play["playerScores"]
                ],
            )
        )
    return merged


def year_in_review(data: dict[str, Any]) -> dict[str, int]:
    """Counts plays per BoardGameGeek id the way a year-in-review reader does."""
    bgg = {g["id"]: g["bggId"] for g in data["games"]}
    counts: dict[str, int] = {}
    for play in data["plays"]:
        if play["ignored"]:
            continue
        key = str(bgg[play["gameRefId"]])
        counts[key] = counts.get(key, 0) + 1
    return counts


def test_bgstats_export_reads_like_a_real_backup(filled: Path) -> None:
    data = json.loads(exported(filled, "bgstats"))
    assert set(data) >= {"userInfo", "players", "locations", "games", "plays"}
    assert data["userInfo"]["meRefId"] == 1  # Aki is in every play
    merged = bgstats_merger(data)
    assert merged[0] == (
        "Tokaido",
        "Aki's place",
        [("Aki", "60", True), ("Ben", "50", False), ("Cho", "40", False)],
    )
    assert merged[-1] == (
        "Shibuya",
        "Cho's",
        [("Aki", "6", True), ("Cho", "4", False), ("Ben", "6", True), ("Dai", "4", False)],
    )
    assert year_in_review(data) == {"123540": 4, "20551": 2, "0": 2}
    assert data["players"][0] == {
        "uuid": player_uuid("Aki"),
        "id": 1,
        "name": "Aki",
        "isAnonymous": False,
        "modificationDate": data["players"][0]["modificationDate"],
        "bggUsername": "",
    }
    assert player_uuid("aki") == player_uuid("Aki") == player_uuid("Aki").upper()
    tokaido = data["games"][0]
    assert (tokaido["uuid"], tokaido["bggId"], tokaido["usesTeams"]) == (
        game_uuid("tokaido"),
        123540,
        False,
    )
    shibuya = next(g for g in data["games"] if g["name"] == "Shibuya")
    assert (shibuya["bggId"], shibuya["usesTeams"]) == (0, True)
    teams = data["plays"][-1]
    assert teams["usesTeams"] is True
    assert [(s["team"], s["startPlayer"], s["seatOrder"]) for s in teams["playerScores"]] == [
        ("Red", False, 1),
        ("Blue", False, 2),
        ("Red", False, 3),
        ("Blue", True, 4),
    ]
    assert "team" not in data["plays"][0]["playerScores"][0]


def test_bgstats_round_trip_keeps_everything(filled: Path, tmp_path: Path) -> None:
    """Locations, teams, durations, comments and start players survive our own importer."""
    text = exported(filled, "bgstats")
    other = tmp_path / "other.sqlite3"
    with History(other) as history:
        assert history.add(parse(text).plays, keep_ids=False) == (len(PLAYS) + 1, 0)
        back = history.plays()
        assert history.add(parse(text).plays) == (0, len(PLAYS) + 1)
    with History(filled) as history:
        before = history.plays()
    for old, new in zip(before, back, strict=True):
        assert new.uuid == old.uuid.upper()
        assert (new.game, new.played_at, new.location, new.notes, new.duration_min) == (
            old.game,
            old.played_at,
            old.location,
            old.notes,
            old.duration_min,
        )
        assert [(p.name, p.side) for p in new.persons] == [(p.name, p.side) for p in old.persons]
        assert new.starter == old.starter
        assert [(s["name"], s["total"], s["rank"]) for s in new.result["players"]] == [
            (s["name"], s["total"], s["rank"]) for s in old.result["players"]
        ]
        assert new.result["winners"] == old.result["winners"]
    assert back[-1].starter == Person("Dai", 1)


def test_bgg_xml_reads_like_the_api(filled: Path) -> None:
    """Read the way a published BGG API client reads plays: every attribute, no defaults."""
    root = ElementTree.fromstring(exported(filled, "bgg-xml"))
    assert (root.attrib["username"], int(root.attrib["userid"]), int(root.attrib["total"])) == (
        "",
        0,
        len(PLAYS) + 1,
    )
    assert root.attrib["termsofuse"] == "https://boardgamegeek.com/xmlapi/termsofuse"
    plays = []
    for play in root.findall("play"):
        item = play.find("item")
        assert item is not None and item.find("subtypes/subtype") is not None
        players = [
            (
                p.attrib["username"],
                int(p.attrib["userid"]),
                p.attrib["name"],
                p.attrib["startposition"],
                p.attrib["color"],
                p.attrib["score"],
                p.attrib["new"],
                p.attrib["rating"],
                p.attrib["win"],
            )
            for p in play.findall("players/player")
        ]
        plays.append(
            (
                int(play.attrib["id"]),
                play.attrib["date"],
                int(play.attrib["quantity"]),
                int(play.attrib["length"]),
                int(play.attrib["incomplete"]),
                int(play.attrib["nowinstats"]),
                play.attrib["location"],
                item.attrib["name"],
                int(item.attrib["objectid"]),
                players,
            )
        )
    assert plays[0][:9] == (1, "2026-01-01", 1, 45, 0, 0, "Aki's place", "Tokaido", 123540)
    assert [p[3:6] for p in plays[0][9]] == [("1", "", "60"), ("2", "", "50"), ("3", "", "40")]
    # Cho started play 4: start positions count from the start player.
    assert [p[2:4] for p in plays[3][9]] == [("Cho", "3"), ("Aki", "1"), ("Ben", "2")]
    assert plays[2][8] == 20551
    teams = plays[-1]
    assert (teams[7], teams[8]) == ("Shibuya", 0)
    assert [(p[2], p[3], p[4], p[5], p[8]) for p in teams[9]] == [
        ("Aki", "2", "Red", "6", "1"),
        ("Cho", "3", "Blue", "4", "0"),
        ("Ben", "4", "Red", "6", "1"),
        ("Dai", "1", "Blue", "4", "0"),
    ]


def test_bgg_xml_drops_characters_xml_forbids(db_path: Path) -> None:
    from tests.support.history_fixture import result

    with History(db_path) as history:
        history.record(
            game="tokaido",
            score_file=None,
            result=result("tokaido", [("Aki", 60, 1), ("Ben", 50, 2)], ["Aki"]),
            location="Bar\x01\x1b[31m",
            notes="bell\x07 <b>&amp;</b>",
        )
    text = exported(db_path, "bgg-xml")
    play = ElementTree.fromstring(text).find("play")
    assert play is not None
    assert play.attrib["location"] == "Bar[31m"
    uuid = play_uuid(db_path)
    assert play.findtext("comments") == f"bell <b>&amp;</b>\n[companion play {uuid}]"
    assert xml_text("a\x00b\ufffec\U0001f600") == "abc\U0001f600"


def csv_rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def test_csv_has_people_titles_notes_and_zones(filled: Path) -> None:
    rows = csv_rows(exported(filled, "csv"))
    assert len(rows) == sum(len(seats) for _, _, seats, _ in PLAYS) + 4
    first = rows[0]
    assert [
        first[k]
        for k in ("play_id", "play_date", "game", "game_id", "bgg_id", "player", "seat_order")
    ] == ["1", "2026-01-01T20:00:00Z", "Tokaido", "tokaido", "123540", "Aki", "1"]
    assert [first[k] for k in ("start_player", "score", "rank", "winner", "journey")] == [
        "1",
        "60",
        "1",
        "1",
        "60",
    ]
    assert (first["notes"], first["provinces"], first["team"]) == ("first game of the year", "", "")
    team = [(r["team"], r["player"], r["score"], r["winner"]) for r in rows if r["play_id"] == "8"]
    assert team == [
        ("Red", "Aki", "6", "1"),
        ("Blue", "Cho", "4", "0"),
        ("Red", "Ben", "6", "1"),
        ("Blue", "Dai", "4", "0"),
    ]


def test_csv_for_excel_has_a_bom_and_crlf(filled: Path) -> None:
    with History(filled) as history:
        text = export(history.plays(), "csv", excel=True)
    data = encoded(text, excel=True)
    assert data.startswith(b"\xef\xbb\xbfplay_id,")
    assert data.count(b"\r\n") == len(PLAYS) * 0 + data.count(b"\n")
    assert data.decode("utf-8-sig").splitlines()[1].startswith("1,")


@pytest.mark.parametrize(
    ("text", "cell"),
    [
        ("=HYPERLINK(1)", "'=HYPERLINK(1)"),
        ("+1", "'+1"),
        ("-2+3", "'-2+3"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tTab", "'\tTab"),
        ("\rCR", "'\rCR"),
        ("Aki", "Aki"),
        (-5, -5),
    ],
)
def test_csv_cells_cannot_be_formulas(text: object, cell: object) -> None:
    assert safe_cell(text) == cell


def test_csv_neutralises_and_quotes_user_text(db_path: Path) -> None:
    from tests.support.history_fixture import result

    with History(db_path) as history:
        history.record(
            game="tokaido",
            score_file=None,
            result=result("tokaido", [("=cmd", 60, 1), ("@Ben", 50, 2)], ["=cmd"]),
            location="+city",
            notes="line one\r\nline two\rthree",
        )
    text = exported(db_path, "csv")
    rows = csv_rows(text)
    assert [(r["player"], r["location"]) for r in rows] == [
        ("'=cmd", "'+city"),
        ("'@Ben", "'+city"),
    ]
    # (line breaks are stored as LF: a lone CR could write over a terminal's line)
    assert rows[0]["notes"] == "line one\nline two\nthree"
    # The header, then two rows that each hold two quoted line breaks.
    assert len(text.split("\n")) == 8


def test_an_interim_scoring_in_every_export(filled: Path, tmp_path: Path) -> None:
    """A Shogun first winter scored alone: incomplete and out of win statistics for
    BoardGameGeek, ignored (as BG Stats can only say) with a note our importer
    reads back, a status column in csv and in json."""
    from companion.history.model import Play
    from tests.support.history_fixture import result

    winter = Play(
        id=0,
        uuid="5a1c0e00-0000-4000-8000-00000000000f",
        played_at="2026-01-09T20:00:00Z",
        game="shogun",
        score_file=None,
        result=result("shogun", [("Aki", 30, 1), ("Ben", 25, 2), ("Cho", 20, 3)], ["Aki"]),
        status="interim",
    )
    with History(filled) as history:
        history.add([winter], keep_ids=False)
    rows = csv_rows(exported(filled, "csv"))
    assert {r["status"] for r in rows if r["play_id"] == "9"} == {"interim"}
    assert {r["status"] for r in rows if r["play_id"] != "9"} == {"final"}
    xml_plays = ElementTree.fromstring(exported(filled, "bgg-xml")).findall("play")
    flags = [(p.attrib["incomplete"], p.attrib["nowinstats"]) for p in xml_plays]
    assert flags == [("0", "0")] * 8 + [("1", "1")]
    text = exported(filled, "bgstats")
    data = json.loads(text)
    last = data["plays"][-1]
    assert last["ignored"] is True
    assert json.loads(last["metaData"]) == {"companionStatus": "interim", "companionIgnored": False}
    assert "metaData" not in data["plays"][0]
    assert year_in_review(data) == {"123540": 4, "20551": 2, "0": 2}  # the winter is left out
    other = tmp_path / "other.sqlite3"
    with History(other) as history:
        history.add(parse(text).plays, keep_ids=False)
        back = history.plays()[-1]
        assert (back.status, back.ignored, back.result["winners"]) == ("interim", False, ["Aki"])
        history.add(parse(exported(filled, "json")).plays)
    document = json.loads(exported(filled, "json"))
    assert document["plays"][-1]["status"] == "interim"


def play_uuid(db_path: Path) -> str:
    with History(db_path) as history:
        (play,) = history.plays()
    return play.uuid
