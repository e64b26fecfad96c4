"""Writing the history in formats other apps read: csv, json, BG Stats, BGG XML.

Every format carries the people of a play (a team game's members with their
side), the start player, plays ignored in statistics, not-scored seats and
expansions. The BG Stats and BoardGameGeek shapes follow the files those apps
and the public tools around them really write and read:

- BG Stats: a backup (``.bgsplay``) with ``userInfo``, ``players`` (with
  ``isAnonymous``), ``locations`` (plays point at one with
  ``locationRefId``), ``games`` (with ``bggId`` and ``usesTeams``) and
  ``plays`` (with ``ignored``, ``manualWinner``, ``usesTeams``,
  ``expansionPlays`` and ``playerScores``: ``score`` as text, ``team``,
  ``startPlayer``, ``winner``, ``rank``, ``seatOrder``). Dates are local
  time, ``YYYY-MM-DD HH:MM:SS``; play uuids are upper case, people keep the
  uuids BG Stats gave them. An interim scoring is an ignored play whose
  ``metaData`` says so.
- BoardGameGeek XML API2 plays: every attribute the API writes, numbers we
  don't have as ``0`` and texts as empty; an interim scoring is
  ``incomplete`` and kept out of win statistics (``nowinstats``).
"""

from __future__ import annotations

import io
import json
import re
import uuid
from collections import Counter
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from functools import cache
from typing import Any

from companion.analysis.played_game import FINAL
from companion.history.model import ANONYMOUS_KEY, Person, Play
from scorers import SCORERS, title
from scorers.names import name_key

FORMATS = ("csv", "json", "bgstats", "bgg-xml")
JSON_FORMAT = "companion-history"
JSON_VERSION = 2

BGG_IDS: dict[str, int] = {
    game: bgg_id
    for game, bgg_id in SCORERS.facts(lambda info: info.bgg_id).items()
    if bgg_id is not None
}
"""BoardGameGeek ids we could confirm (``GameInfo.bgg_id``); the other games are written as 0."""

# A fixed namespace so that player and game uuids stay the same across exports.
NAMESPACE = uuid.UUID("6f1c2a56-2f4e-4c8e-9f55-0c6b3d1e7a21")
METADATA_STATUS, METADATA_IGNORED = "companionStatus", "companionIgnored"
"""Keys of a play's BG Stats ``metaData`` that carry an interim scoring (see
:func:`interim_marker`)."""
ANONYMOUS = "Anonymous player"
"""The name BG Stats gives its anonymous player."""
TERMS_OF_USE = "https://boardgamegeek.com/xmlapi/termsofuse"

CSV_COLUMNS = (
    "play_id",
    "play_uuid",
    "play_date",
    "game",
    "game_id",
    "bgg_id",
    "duration_min",
    "location",
    "ignored",
    "status",
    "expansions",
    "team",
    "player",
    "anonymous",
    "seat_order",
    "start_player",
    "score",
    "rank",
    "winner",
    "notes",
)
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
# Characters XML 1.0 does not allow anywhere in a document.
_NOT_XML = "[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]"


@cache
def _not_xml() -> re.Pattern[str]:
    """The characters XML 1.0 does not allow, compiled when first needed (it takes a while)."""
    return re.compile(_NOT_XML)


def missing_bgg_ids(plays: Sequence[Play]) -> list[str]:
    """The titles of the exported games whose BoardGameGeek id is not known (written as 0)."""
    games = dict.fromkeys(p.game for p in plays if p.game not in BGG_IDS)
    return [title(game) for game in games]


def _moment(played_at: str) -> datetime:
    return datetime.fromisoformat(played_at.replace("Z", "+00:00"))


def play_date(play: Play) -> str:
    """``YYYY-MM-DDTHH:MM:SSZ``: ISO 8601 in UTC, with the zone."""
    return _moment(play.played_at).astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def local_date(played_at: str) -> str:
    """The stored UTC time as this computer's local time, ``YYYY-MM-DD HH:MM:SS``."""
    return _moment(played_at).astimezone().strftime("%Y-%m-%d %H:%M:%S")


def export(
    plays: Sequence[Play],
    fmt: str,
    *,
    events: Mapping[int, list[dict[str, Any]]] | None = None,
    excel: bool = False,
    player_uuids: Mapping[str, str] | None = None,
) -> str:
    """Render ``plays`` in ``fmt`` (one of :data:`FORMATS`).

    Args:
        plays: The games to export.
        fmt: The format.
        events: Event logs by play id (only the json format carries them).
        excel: csv only: lines end with CRLF (the text is meant to be
            written with a UTF-8 byte order mark, see :func:`encoded`).
        player_uuids: The uuids BG Stats knows people by, by :func:`name_key`
            (:meth:`History.player_uuids`); the json and bgstats formats
            carry them.
    """
    if fmt == "json":
        return to_json(plays, events=events, player_uuids=player_uuids)
    if fmt == "csv":
        return to_csv(plays, excel=excel)
    if fmt == "bgstats":
        return to_bgstats(plays, player_uuids=player_uuids)
    return to_bgg_xml(plays)


def encoded(text: str, *, excel: bool = False) -> bytes:
    """The bytes of an export: UTF-8, with a byte order mark for Excel."""
    return ("\ufeff" if excel else "").encode() + text.encode("utf-8")


def safe_cell(value: object) -> object:
    """A cell a spreadsheet will not run: text starting with ``= + - @``, a tab
    or a CR gets a leading apostrophe. Numbers are left as they are."""
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        return "'" + value
    return value


def _people_rows(play: Play) -> list[tuple[Person | None, int, int | None]]:
    """``(person, side, position)`` per person; a side without known people gets one row."""
    rows: list[tuple[Person | None, int, int | None]] = [
        (p, p.side, k) for k, p in enumerate(play.persons)
    ]
    known = {p.side for p in play.persons}
    rows += [(None, side, None) for side in range(len(play.players)) if side not in known]
    return rows


class _LineEnds:
    """A text sink for :func:`csv.writer` (rows end in CRLF) writing ``ending`` instead."""

    def __init__(self, out: io.StringIO, ending: str) -> None:
        self.out = out
        self.ending = ending

    def write(self, row: str) -> int:
        """Write one row (it ends in CRLF; any CR or LF inside it is quoted)."""
        return self.out.write(row.removesuffix("\r\n") + self.ending)


def to_csv(plays: Sequence[Play], *, excel: bool = False) -> str:
    """One row per person per play, then one column per scoring category.

    A team game's members each get a row with their side's score, and their
    side's name in ``team``; a side whose members are not known gets one row
    with an empty ``player``. Not-scored seats have an empty ``score``;
    ``status`` is ``final``, or ``interim`` for a scoring that did not end its
    game.
    """
    import csv

    from scorers import SCORERS

    categories: list[str] = []
    for info in (s.info for s in SCORERS.values()):
        categories.extend(c for c in info.categories if c not in categories)
    for play in plays:
        for p in play.result["players"]:
            categories.extend(c for c in p["breakdown"] if c not in categories)
    out = io.StringIO()
    # The csv module quotes a field holding a character of the line ending: with CRLF
    # both a lone CR and a lone LF are quoted. A plain export then ends its rows in LF.
    writer = csv.writer(_LineEnds(out, "\r\n" if excel else "\n"), lineterminator="\r\n")
    writer.writerow([safe_cell(c) for c in (*CSV_COLUMNS, *categories)])
    for play in plays:
        teams = play.uses_teams
        winners = set(play.result["winners"])
        expansions = "; ".join(e.name for e in play.expansions)
        for person, side_index, position in _people_rows(play):
            side = play.result["players"][side_index]
            cells: list[object] = [
                play.id,
                play.uuid,
                play_date(play),
                title(play.game),
                play.game,
                BGG_IDS.get(play.game, 0),
                "" if play.duration_min is None else play.duration_min,
                play.location,
                int(play.ignored),
                play.status,
                expansions,
                side["name"] if teams else "",
                person.name if person else "",
                int(person.anonymous) if person else "",
                "" if position is None else position + 1,
                int(position is not None and play.start_player == position),
                "" if side["total"] is None else side["total"],
                "" if side["rank"] is None else side["rank"],
                int(side["name"] in winners),
                play.notes,
                *(side["breakdown"].get(c, "") for c in categories),
            ]
            writer.writerow([safe_cell(c) for c in cells])
    return out.getvalue()


def to_json(
    plays: Sequence[Play],
    *,
    events: Mapping[int, list[dict[str, Any]]] | None = None,
    player_uuids: Mapping[str, str] | None = None,
) -> str:
    """Everything, losslessly: each play with its people, its score file exactly as
    given and, for a game played along, the event log of its answers; then the
    uuids BG Stats knows the people of these plays by (``players``), if any."""
    logs = events or {}
    document: dict[str, Any] = {
        "format": JSON_FORMAT,
        "version": JSON_VERSION,
        "plays": [play_entry(play, logs.get(play.id, [])) for play in plays],
    }
    known = _known_uuids(plays, player_uuids or {})
    if known:
        document["players"] = known
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def play_entry(play: Play, events: list[dict[str, Any]]) -> dict[str, Any]:
    """One play of our json export: everything about it, its score file exactly as
    given, and the event log of its answers (empty unless played along)."""
    return {**play.to_json(), "score_file": play.score_file, "events": events}


def _known_uuids(plays: Sequence[Play], uuids: Mapping[str, str]) -> list[dict[str, Any]]:
    """``{"name", "uuid"}`` (and ``"anonymous": true``) for the people of ``plays``
    who have a uuid, each under their latest name."""
    if not uuids:
        return []
    names: dict[str, tuple[str, bool]] = {}
    for play in plays:
        for person in play.persons:
            key = ANONYMOUS_KEY if person.anonymous else name_key(person.name)
            if key in uuids:
                names[key] = (ANONYMOUS if person.anonymous else person.name, person.anonymous)
    return [
        {"name": name, "uuid": uuids[key], **({"anonymous": True} if anonymous else {})}
        for key, (name, anonymous) in sorted(names.items(), key=lambda item: item[1][0].casefold())
    ]


def _uuid(kind: str, name: str) -> str:
    return str(uuid.uuid5(NAMESPACE, f"{kind}:{name}")).upper()


def player_uuid(name: str) -> str:
    """A player's uuid, the same in every export (and for every spelling of the name)."""
    return _uuid("player", name_key(name))


def game_uuid(game: str) -> str:
    """A game's uuid, the same in every export."""
    return _uuid("game", game)


def _player_counts(game: str) -> tuple[int, int]:
    if game in SCORERS:
        counts = SCORERS[game].info.player_counts
        return min(counts), max(counts)
    return 1, 1


def _manual_winner(play: Play) -> bool:
    """Whether the winners are not simply every side with the top score."""
    sides = play.result["players"]
    totals = [s["total"] for s in sides if s["total"] is not None]
    if not totals:
        return bool(play.result["winners"])
    top = max(totals)
    return sorted(play.result["winners"]) != sorted(s["name"] for s in sides if s["total"] == top)


class _Refs:
    """Numbered ids for the players, locations and games of a BG Stats file."""

    def __init__(self) -> None:
        self.players: dict[str, tuple[int, str, bool]] = {}  # key -> (id, name, anonymous)
        self.locations: dict[str, int] = {}
        self.games: dict[tuple[str, str, int], int] = {}  # (kind, name, bgg id) -> id

    def player(self, name: str, *, anonymous: bool = False) -> int:
        key = ANONYMOUS_KEY if anonymous else name_key(name)
        if key not in self.players:
            self.players[key] = (len(self.players) + 1, ANONYMOUS if anonymous else name, anonymous)
        return self.players[key][0]

    def location(self, name: str) -> int:
        if not name:
            return 0
        return self.locations.setdefault(name, len(self.locations) + 1)

    def game(self, kind: str, name: str, bgg_id: int) -> int:
        return self.games.setdefault((kind, name, bgg_id), len(self.games) + 1)


def _bgstats_scores(play: Play, refs: _Refs) -> list[dict[str, Any]]:
    teams = play.uses_teams
    winners = set(play.result["winners"])
    ranks = _bgstats_ranks(play)
    entries = []
    for person, side_index, position in _people_rows(play):
        side = play.result["players"][side_index]
        anonymous = person is None or person.anonymous
        entry: dict[str, Any] = {
            "score": "" if side["total"] is None else str(side["total"]),
            "winner": side["name"] in winners,
            "newPlayer": False,
            "startPlayer": position is not None and play.start_player == position,
            "playerRefId": refs.player(person.name if person else "", anonymous=anonymous),
            "role": "",
            "rank": ranks[side_index],
            "seatOrder": 0 if position is None else position + 1,
        }
        if teams:
            entry["team"] = side["name"]
        entries.append(entry)
    return entries


def _bgstats_ranks(play: Play) -> list[int]:
    """Each side's BG Stats rank: never 0 beside ranks 1..n.

    When no side has a rank, all are 0 (BG Stats' "no ranks"). Otherwise a side
    without one (not scored) gets 1 when it won, else the rank after the last
    one known (2 when only the winners have one), as the newer app writes.
    """
    sides = play.result["players"]
    known = [side["rank"] for side in sides if side["rank"]]
    if not known:
        return [0] * len(sides)
    winners = set(play.result["winners"])
    after = max(known) + 1
    return [side["rank"] or (1 if side["name"] in winners else after) for side in sides]


def to_bgstats(plays: Sequence[Play], *, player_uuids: Mapping[str, str] | None = None) -> str:
    """A BG Stats backup (``.bgsplay``) holding ``plays``.

    A person keeps the uuid BG Stats knows them by (``player_uuids``, by
    :func:`name_key`), so that the app sees the same player again; anyone else
    gets one made from their name, the same in every export.
    """
    uuids = player_uuids or {}
    refs = _Refs()
    game_refs: dict[str, int] = {}
    teams_games: set[str] = set()
    counts: Counter[int] = Counter()
    documents = []
    for play in plays:
        game_refs.setdefault(play.game, refs.game("base", play.game, BGG_IDS.get(play.game, 0)))
        if play.uses_teams:
            teams_games.add(play.game)
        scores = _bgstats_scores(play, refs)
        counts.update(s["playerRefId"] for s in scores)
        date = local_date(play.played_at)
        interim = play.status != FINAL
        documents.append(
            {
                "uuid": play.uuid.upper(),
                "modificationDate": date,
                "entryDate": date,
                "playDate": date,
                "usesTeams": play.uses_teams,
                "durationMin": play.duration_min or 0,
                # BG Stats has no interim plays: it keeps them out of its statistics.
                "ignored": play.ignored or interim,
                "manualWinner": _manual_winner(play),
                "rounds": 0,
                "bggId": 0,
                "importPlayId": 0,
                # (no location, no locationRefId: a reader counts 0 as a location)
                **({"locationRefId": refs.location(play.location)} if play.location else {}),
                "gameRefId": game_refs[play.game],
                "board": "",
                "rating": 0,
                "nemestatsId": 0,
                "scoringSetting": 0,
                "playImages": "[]",
                "comments": play.notes,
                "expansionPlays": [
                    {"gameRefId": refs.game("expansion", e.name, e.bgg_id), "bggId": e.bgg_id}
                    for e in play.expansions
                ],
                "playerScores": scores,
                **({"metaData": interim_marker(play)} if interim else {}),
            }
        )
    now = datetime.now().strftime("%Y-%m-%d %H:%M:%S")
    # BG Stats' "me": the person in most of the plays.
    me = max(
        (pid for pid, _, anonymous in refs.players.values() if not anonymous),
        key=lambda pid: (counts[pid], -pid),
        default=0,
    )
    document: dict[str, Any] = {
        "about": "Board game plays exported by companion, in the shape of a BG Stats backup.",
        "userInfo": {"meRefId": me, "bggUsername": "", "exportDate": now},
        "players": [
            {
                "uuid": uuids.get(key)
                or (_uuid("player", ANONYMOUS_KEY) if anonymous else player_uuid(name)),
                "id": pid,
                "name": name,
                "isAnonymous": anonymous,
                "modificationDate": now,
                "bggUsername": "",
            }
            for key, (pid, name, anonymous) in refs.players.items()
        ],
        "locations": [
            {"uuid": _uuid("location", name), "id": lid, "name": name, "modificationDate": now}
            for name, lid in refs.locations.items()
        ],
        "games": [
            _bgstats_game(kind, name, bgg_id, gid, now, name in teams_games)
            for (kind, name, bgg_id), gid in refs.games.items()
        ],
        "plays": documents,
        "tags": [],
        "groups": [],
        "challenges": [],
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def interim_marker(play: Play) -> str:
    """A play's BG Stats ``metaData`` (a JSON text) saying it is an interim scoring.

    The app has no such plays, so the play is written as ignored; this note
    lets our importer bring it back as interim, ignored or not as it was.
    """
    return json.dumps(
        {METADATA_STATUS: play.status, METADATA_IGNORED: play.ignored}, separators=(",", ":")
    )


def _bgstats_game(
    kind: str, name: str, bgg_id: int, gid: int, now: str, uses_teams: bool
) -> dict[str, Any]:
    base = kind == "base"
    low, high = _player_counts(name) if base else (1, 1)
    shown = title(name) if base else name
    return {
        "uuid": game_uuid(name) if base else _uuid("expansion", f"{name}:{bgg_id}"),
        "id": gid,
        "name": shown,
        "modificationDate": now,
        "cooperative": False,
        "highestWins": True,
        "noPoints": False,
        "usesTeams": uses_teams,
        "urlThumb": "",
        "urlImage": "",
        "bggName": shown,
        "bggYear": 0,
        "bggId": bgg_id,
        "designers": "",
        "isBaseGame": int(base),
        "isExpansion": int(not base),
        "rating": 0,
        "minPlayerCount": low,
        "maxPlayerCount": high,
        "minPlayTime": 0,
        "maxPlayTime": 0,
        "minAge": 0,
        "preferredImage": 0,
        "copies": [],
    }


def xml_text(value: str) -> str:
    """``value`` without the characters XML 1.0 forbids (most control characters)."""
    return _not_xml().sub("", value)


def _start_positions(play: Play) -> list[str]:
    """Each person's place in turn order from the start player (1 = started), or ``""``."""
    count = len(play.persons)
    start = play.start_player
    if start is None or not 0 <= start < count:
        return [""] * count
    return [str((k - start) % count + 1) for k in range(count)]


def to_bgg_xml(plays: Sequence[Play]) -> str:
    """The BoardGameGeek XML API2 ``plays`` document, every attribute included.

    One ``player`` per person; a team's name goes in ``color``;
    ``startposition`` counts from the recorded start player (empty when
    unknown); a not-scored seat has an empty ``score``; an ignored play has
    ``nowinstats="1"``, an interim scoring (a Shogun first winter)
    ``incomplete="1"`` and ``nowinstats="1"``.
    """
    from xml.etree import ElementTree

    root = ElementTree.Element(
        "plays",
        {
            "username": "",
            "userid": "0",
            "total": str(len(plays)),
            "page": "1",
            "termsofuse": TERMS_OF_USE,
        },
    )
    for play in plays:
        element = ElementTree.SubElement(
            root,
            "play",
            {
                "id": str(play.id),
                "date": local_date(play.played_at)[:10],
                "quantity": "1",
                "length": str(play.duration_min or 0),
                "incomplete": "1" if play.status != FINAL else "0",
                "nowinstats": "1" if play.ignored or play.status != FINAL else "0",
                "location": xml_text(play.location),
            },
        )
        item = ElementTree.SubElement(
            element,
            "item",
            {
                "name": title(play.game),
                "objecttype": "thing",
                "objectid": str(BGG_IDS.get(play.game, 0)),
            },
        )
        subtypes = ElementTree.SubElement(item, "subtypes")
        ElementTree.SubElement(subtypes, "subtype", {"value": "boardgame"})
        comments = play.notes
        if play.expansions:
            listed = ", ".join(e.name for e in play.expansions)
            comments = f"{comments}\nExpansions: {listed}" if comments else f"Expansions: {listed}"
        if comments:
            ElementTree.SubElement(element, "comments").text = xml_text(comments)
        players = ElementTree.SubElement(element, "players")
        teams = play.uses_teams
        positions = _start_positions(play)
        winners = set(play.result["winners"])
        for person, side_index, position in _people_rows(play):
            side = play.result["players"][side_index]
            ElementTree.SubElement(
                players,
                "player",
                {
                    "username": "",
                    "userid": "0",
                    "name": xml_text(person.name if person else side["name"]),
                    "startposition": "" if position is None else positions[position],
                    "color": xml_text(side["name"]) if teams else "",
                    "score": "" if side["total"] is None else str(side["total"]),
                    "new": "0",
                    "rating": "0",
                    "win": "1" if side["name"] in winners else "0",
                },
            )
    ElementTree.indent(root)
    return (
        '<?xml version="1.0" encoding="utf-8"?>\n'
        + ElementTree.tostring(root, encoding="unicode")
        + "\n"
    )
