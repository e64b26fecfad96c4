"""Round trips keep what they do not use (issue 35): a BG Stats backup imported and
exported again gives back every field of the plays, seats, players, games and places
it holds of our games, but what docs/history-and-formats-notes.md lists as not kept;
the anonymous player stays anonymous through BGG XML."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from companion.cli.app import app
from companion.history.store import History
from tests.support.import_files import BACKUP

runner = CliRunner()

OURS = {"Tokaido", "Shōgun", "Shibuya", "Tokaido: Crossroads"}
"""The games of the backup that come in (the others' plays are skipped)."""


def _rich_backup() -> dict[str, Any]:
    """The test backup with what real backups hold and we do not use."""
    data: dict[str, Any] = json.loads(BACKUP.read_text())
    first, shogun = data["plays"][0], data["plays"][1]
    first["board"] = "Night side"
    first["bggId"] = 987654321
    first["scoreSheet"] = {"rows": [["journey", 20], ["panoramas", 18]]}
    first["playerScores"][0].update(role="Hiroshige", isNewPlayer=False, newPlayer=False)
    first["playerScores"][1].update(role="Chuubei", newPlayer=True)
    first["playerScores"][2]["rank"] = 0  # an empty rank, not scored
    shogun["uuid"] = shogun["uuid"].lower()  # a lower-case uuid, as some backups hold
    shogun["rounds"] = 2
    for player in data["players"]:
        player["bggUsername"] = f"{player['name'].strip().lower()}_bgg"
    data["players"][0]["metaData"] = '{"favourite": "Tokaido"}'
    data["games"][0]["urlImage"] = "https://example.org/tokaido.jpg"
    data["locations"][0]["metaData"] = '{"city": "Kyoto"}'
    return data


def _by(items: list[dict[str, Any]], key: str = "uuid") -> dict[str, dict[str, Any]]:
    return {item[key]: item for item in items}


def _resolved(data: dict[str, Any]) -> dict[str, Any]:
    """The file with every reference replaced by the uuid of what it points at."""
    players = {p["id"]: p["uuid"] for p in data["players"]}
    games = {g["id"]: g["uuid"] for g in data["games"]}
    places = {loc["id"]: loc["uuid"] for loc in data["locations"]}
    plays = []
    for play in data["plays"]:
        entry = dict(play)
        entry["gameRefId"] = games.get(play["gameRefId"])
        if "locationRefId" in play:
            entry["locationRefId"] = places.get(play["locationRefId"])
        entry["expansionPlays"] = [
            {**e, "gameRefId": games.get(e["gameRefId"])} for e in play.get("expansionPlays", [])
        ]
        seats = [{**s, "playerRefId": players[s["playerRefId"]]} for s in play["playerScores"]]
        # (in seat order, and the anonymous player's seats told apart by their order)
        entry["playerScores"] = sorted(seats, key=lambda s: (s["seatOrder"], s["playerRefId"]))
        plays.append(entry)
    return {
        "plays": _by(plays),
        "players": _by([{k: v for k, v in p.items() if k != "id"} for p in data["players"]]),
        "games": _by([{k: v for k, v in g.items() if k != "id"} for g in data["games"]]),
        "locations": _by([{k: v for k, v in x.items() if k != "id"} for x in data["locations"]]),
    }


def _differences(original: Any, exported: Any, path: str) -> list[str]:
    """Every field of ``original`` that ``exported`` does not hold the same."""
    if isinstance(original, dict) and isinstance(exported, dict):
        found = []
        for key, value in original.items():
            if key not in exported:
                found.append(f"{path}.{key}: missing")
            else:
                found += _differences(value, exported[key], f"{path}.{key}")
        return found
    if isinstance(original, list) and isinstance(exported, list):
        if len(original) != len(exported):
            return [f"{path}: {len(original)} items, exported {len(exported)}"]
        return [
            d for k, (a, b) in enumerate(zip(original, exported, strict=True))
            for d in _differences(a, b, f"{path}[{k}]")
        ]  # fmt: skip
    if original != exported or type(original) is not type(exported):
        return [f"{path}: {original!r}, exported {exported!r}"]
    return []


def test_a_bg_stats_backup_round_trip_keeps_every_field(tmp_path: Path, db_path: Path) -> None:
    data = _rich_backup()
    source = tmp_path / "backup.bgsplay"
    source.write_text(json.dumps(data))
    assert runner.invoke(app, ["history", "import", str(source)]).exit_code == 0
    out = tmp_path / "again.bgsplay"
    exported = runner.invoke(app, ["history", "export", "--format", "bgstats", "--out", str(out)])
    assert exported.exit_code == 0, exported.output
    again = json.loads(out.read_text())
    before, after = _resolved(data), _resolved(again)
    # Not kept (docs/history-and-formats-notes.md): plays of other games, and the
    # players, games and places only they name; the file's numbering (compared here
    # by what it points at); the order of a play's seats (seat order).
    kept_plays = {u: p for u, p in before["plays"].items() if u in after["plays"]}
    assert len(kept_plays) == 5
    assert sorted(after["plays"]) == sorted(kept_plays)  # uuids as written, case and all
    problems = []
    for uuid, play in kept_plays.items():
        problems += _differences(play, after["plays"][uuid], f"play {uuid}")
    for kind in ("players", "games", "locations"):
        for uuid, record in after[kind].items():
            assert uuid in before[kind], f"{kind} {uuid} is new"
            problems += _differences(before[kind][uuid], record, f"{kind} {uuid}")
    assert problems == []
    assert {g["name"] for g in after["games"].values()} == OURS
    # Not a player marked modified now: the app's dates.
    assert {p["modificationDate"] for p in again["players"]} == {"2026-01-01 10:00:00"}
    # Imported again: the same plays, nothing updated.
    back = runner.invoke(app, ["history", "import", str(out)])
    assert back.stdout.startswith("Imported 0 games; 5 were already in the history.\n")


def test_a_changed_play_keeps_what_we_do_not_read(tmp_path: Path, db_path: Path) -> None:
    source = tmp_path / "backup.bgsplay"
    source.write_text(json.dumps(_rich_backup()))
    runner.invoke(app, ["history", "import", str(source)])
    with History(db_path) as history:
        play = next(p for p in history.plays() if p.notes == "Crossroads for the first time")
        history.replace(play.__class__(**{**play.__dict__, "notes": "Crossroads again"}))
    out = tmp_path / "again.bgsplay"
    runner.invoke(app, ["history", "export", "--format", "bgstats", "--out", str(out)])
    changed = next(p for p in json.loads(out.read_text())["plays"] if p["board"])
    assert changed["comments"] == "Crossroads again"
    assert changed["board"] == "Night side"
    assert changed["scoreSheet"] == {"rows": [["journey", 20], ["panoramas", 18]]}
    assert changed["modificationDate"] != "2026-10-03 22:00:00"  # changed here, and said so
    seats = changed["playerScores"]
    assert [(s["role"], s["newPlayer"]) for s in seats] == [
        ("Hiroshige", False), ("Chuubei", True), ("", True),
    ]  # fmt: skip
    # What we read is written from the history: the sum as its total.
    assert [s["score"] for s in seats] == ["80", "58", ""]


def test_the_anonymous_player_stays_anonymous_through_bgg_xml(
    tmp_path: Path, db_path: Path
) -> None:
    source = tmp_path / "backup.bgsplay"
    source.write_text(BACKUP.read_text())
    runner.invoke(app, ["history", "import", str(source)])
    out = tmp_path / "plays.xml"
    runner.invoke(app, ["history", "export", "--format", "bgg-xml", "--out", str(out)])
    fresh = tmp_path / "fresh.sqlite3"
    result = runner.invoke(app, ["--db", str(fresh), "history", "import", str(out)])
    assert result.exit_code == 0, result.output
    with History(db_path) as history:
        before = [[(p.name, p.anonymous) for p in play.persons] for play in history.plays()]
    with History(fresh) as history:
        after = [[(p.name, p.anonymous) for p in play.persons] for play in history.plays()]
    assert after == before
    assert [("Anonymous player", True), ("Aki", False), ("Anonymous player 2", True)] in after
    stats = runner.invoke(app, ["--db", str(fresh), "history", "stats", "--json"])
    assert "Anonymous" not in stats.stdout
