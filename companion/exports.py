"""Writing the history in formats other apps read: csv, json, BG Stats, BGG XML."""

from __future__ import annotations

import csv
import io
import json
import uuid
from collections.abc import Mapping, Sequence
from typing import Any
from xml.etree import ElementTree

from companion.history import Play

FORMATS = ("csv", "json", "bgstats", "bgg-xml")
JSON_FORMAT = "companion-history"
JSON_VERSION = 1

# BoardGameGeek ids we could confirm; the others are left empty rather than guessed.
BGG_IDS: dict[str, int] = {"tokaido": 123540}

# A fixed namespace so that player and game uuids stay the same across exports.
NAMESPACE = uuid.UUID("6f1c2a56-2f4e-4c8e-9f55-0c6b3d1e7a21")

CSV_COLUMNS = (
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
)


def title(game: str) -> str:
    """The box title of a game id (the id itself when unknown)."""
    from scorers import SCORERS

    return SCORERS[game].info.title if game in SCORERS else game


def play_date(play: Play) -> str:
    """``YYYY-MM-DD HH:MM:SS`` from the stored ISO time."""
    return play.played_at.replace("T", " ").removesuffix("Z")[:19]


def export(
    plays: Sequence[Play], fmt: str, *, events: Mapping[int, list[dict[str, Any]]] | None = None
) -> str:
    """Render ``plays`` in ``fmt`` (one of :data:`FORMATS`).

    Args:
        plays: The games to export.
        fmt: The format.
        events: Event logs by play id (only the json format carries them).
    """
    if fmt == "json":
        return to_json(plays, events=events)
    writers = {"csv": to_csv, "bgstats": to_bgstats, "bgg-xml": to_bgg_xml}
    return writers[fmt](plays)


def to_csv(plays: Sequence[Play]) -> str:
    """One row per player per play, then one column per scoring category."""
    from scorers import SCORERS

    categories: list[str] = []
    for info in (s.info for s in SCORERS.values()):
        categories.extend(c for c in info.categories if c not in categories)
    for play in plays:
        for p in play.result["players"]:
            categories.extend(c for c in p["breakdown"] if c not in categories)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([*CSV_COLUMNS, *categories])
    for play in plays:
        for seat, p in enumerate(play.result["players"]):
            writer.writerow(
                [
                    play.id,
                    play_date(play),
                    play.game,
                    BGG_IDS.get(play.game, ""),
                    "" if play.duration_min is None else play.duration_min,
                    play.location,
                    p["name"],
                    seat + 1,
                    int(play.start_player == seat),
                    p["total"],
                    p["rank"],
                    int(p["name"] in play.result["winners"]),
                    *(p["breakdown"].get(c, "") for c in categories),
                ]
            )
    return out.getvalue()


def to_json(
    plays: Sequence[Play], *, events: Mapping[int, list[dict[str, Any]]] | None = None
) -> str:
    """Everything, losslessly: each play with its score file exactly as given and,
    for a game played along, the event log of its answers."""
    logs = events or {}
    document = {
        "format": JSON_FORMAT,
        "version": JSON_VERSION,
        "plays": [
            {**play.to_json(), "score_file": play.score_file, "events": logs.get(play.id, [])}
            for play in plays
        ],
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def player_uuid(name: str) -> str:
    """A player's uuid, the same in every export."""
    return str(uuid.uuid5(NAMESPACE, f"player:{name}"))


def game_uuid(game: str) -> str:
    """A game's uuid, the same in every export."""
    return str(uuid.uuid5(NAMESPACE, f"game:{game}"))


def to_bgstats(plays: Sequence[Play]) -> str:
    """The shape of a BG Stats export: players, games and plays with their scores."""
    player_ids: dict[str, int] = {}
    game_ids: dict[str, int] = {}
    for play in plays:
        game_ids.setdefault(play.game, len(game_ids) + 1)
        for p in play.result["players"]:
            player_ids.setdefault(p["name"], len(player_ids) + 1)
    document: dict[str, Any] = {
        "players": [
            {"id": pid, "uuid": player_uuid(name), "name": name} for name, pid in player_ids.items()
        ],
        "games": [
            {
                "id": gid,
                "uuid": game_uuid(game),
                "name": title(game),
                "bggId": BGG_IDS.get(game, 0),
                "highestWins": True,
            }
            for game, gid in game_ids.items()
        ],
        "plays": [
            {
                "uuid": play.uuid,
                "playDate": play_date(play),
                "gameRefId": game_ids[play.game],
                "durationMin": play.duration_min or 0,
                "comments": play.notes,
                "locationName": play.location,
                "playerScores": [
                    {
                        "playerRefId": player_ids[p["name"]],
                        "score": str(p["total"]),
                        "winner": p["name"] in play.result["winners"],
                        "rank": p["rank"],
                        "startPlayer": play.start_player == seat,
                        "seatOrder": seat + 1,
                    }
                    for seat, p in enumerate(play.result["players"])
                ],
            }
            for play in plays
        ],
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def to_bgg_xml(plays: Sequence[Play]) -> str:
    """The BoardGameGeek plays XML shape."""
    root = ElementTree.Element("plays", {"total": str(len(plays))})
    for play in plays:
        attributes = {
            "id": str(play.id),
            "date": play.played_at[:10],
            "quantity": "1",
            "length": str(play.duration_min or 0),
            "location": play.location,
        }
        element = ElementTree.SubElement(root, "play", attributes)
        ElementTree.SubElement(
            element,
            "item",
            {
                "name": title(play.game),
                "objecttype": "thing",
                "objectid": str(BGG_IDS.get(play.game, 0)),
            },
        )
        if play.notes:
            ElementTree.SubElement(element, "comments").text = play.notes
        players = ElementTree.SubElement(element, "players")
        for seat, p in enumerate(play.result["players"]):
            ElementTree.SubElement(
                players,
                "player",
                {
                    "name": p["name"],
                    "startposition": str(seat + 1),
                    "score": str(p["total"]),
                    "win": "1" if p["name"] in play.result["winners"] else "0",
                    "new": "0",
                },
            )
    ElementTree.indent(root)
    return (
        '<?xml version="1.0" encoding="utf-8"?>\n'
        + ElementTree.tostring(root, encoding="unicode")
        + "\n"
    )
