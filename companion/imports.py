"""Reading history files: our own json export and BG Stats exports.

A file is read and checked whole before anything is written, so a malformed
file imports nothing; its problems carry their JSON paths like score files.
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass, field
from typing import Any

from companion.exports import BGG_IDS, JSON_FORMAT, NAMESPACE
from companion.history import Play
from scorers import SCORERS, Reader, ScoreFileError, UnknownGameError, find_game

IMPORTED_CATEGORY = "imported"


@dataclass
class Parsed:
    """What an import file holds.

    Attributes:
        kind: ``json`` or ``bgstats``.
        plays: The plays to add.
        skipped_games: Plays of games other than ours, by game name.
        events: Event logs of played-along games, by play uuid.
    """

    kind: str
    plays: list[Play] = field(default_factory=list)
    skipped_games: dict[str, int] = field(default_factory=dict)
    events: dict[str, list[dict[str, Any]]] = field(default_factory=dict)


def parse(text: str) -> Parsed:
    """Read an import file.

    Raises:
        ScoreFileError: The file is not JSON, not a known format, or
            malformed; every problem has its path.
    """
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise ScoreFileError.single(
            "$", f"not valid JSON: {error.msg} (line {error.lineno}, column {error.colno})"
        ) from error
    if isinstance(data, dict) and data.get("format") == JSON_FORMAT:
        return _parse_ours(data)
    if isinstance(data, dict) and {"players", "games", "plays"} <= data.keys():
        return _parse_bgstats(data)
    raise ScoreFileError.single(
        "$", "neither a companion json export nor a BG Stats export (players, games, plays)"
    )


def _parse_ours(data: dict[str, Any]) -> Parsed:
    r = Reader()
    root = r.obj(data, "$", required=("format", "version", "plays"))
    parsed = Parsed("json")
    if root is not None and root.get("version") != 1:
        r.error("version", f"unknown version {root.get('version')!r} (this companion reads 1)")
    items = r.field(data, "$", "plays", r.array) or []
    for k, item in enumerate(items):
        play = _read_play(r, item, f"plays[{k}]")
        if play is not None:
            parsed.plays.append(play)
            log = _read_events(r, item, f"plays[{k}].events")
            if log:
                parsed.events[play.uuid] = log
    r.raise_if_problems()
    return parsed


def _read_events(r: Reader, item: object, path: str) -> list[dict[str, Any]]:
    entries = r.array(item.get("events") if isinstance(item, dict) else None, path) or []
    log = []
    for k, entry in enumerate(entries):
        event = r.obj(entry, f"{path}[{k}]", required=("at", "key", "value"))
        if event is None:
            continue
        r.field(event, f"{path}[{k}]", "at", r.text)
        r.field(event, f"{path}[{k}]", "key", r.text)
        log.append(event)
    return log


PLAY_KEYS = (
    "id",
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


def _read_play(r: Reader, value: object, path: str) -> Play | None:
    raw = r.obj(value, path, required=PLAY_KEYS, optional=("status",))
    if raw is None:
        return None
    before = len(r.problems)
    play_id = r.field(raw, path, "id", lambda v, p: r.integer(v, p, low=1))
    ident = r.field(raw, path, "uuid", r.text)
    played_at = r.field(raw, path, "played_at", r.text)
    game = r.field(raw, path, "game", lambda v, p: r.choice(v, p, tuple(SCORERS), what="game"))
    location = _optional_text(r, raw, path, "location")
    notes = _optional_text(r, raw, path, "notes")
    source = r.field(raw, path, "source", r.text)
    duration = _nullable(r, raw, path, "duration_min", r.integer)
    start = _nullable(r, raw, path, "start_player", r.integer)
    status = r.field(
        raw, path, "status", lambda v, p: r.choice(v, p, ("final", "interim")), default="final"
    )
    score_file = raw.get("score_file")
    if score_file is not None and not isinstance(score_file, str):
        r.error(f"{path}.score_file", "must be the score file's text, or null")
    result = _read_result(r, raw.get("result"), f"{path}.result")
    if len(r.problems) > before or result is None:
        return None
    assert play_id and ident and played_at and game and source
    return Play(
        play_id,
        ident,
        played_at,
        game,
        score_file if isinstance(score_file, str) else None,
        result,
        location or "",
        notes or "",
        duration,
        source,
        start,
        status or "final",
    )


def _optional_text(r: Reader, raw: dict[str, object], path: str, key: str) -> str | None:
    value = raw.get(key, "")
    if not isinstance(value, str):
        r.error(f"{path}.{key}", "must be a text")
        return None
    return value


def _nullable(r: Reader, raw: dict[str, object], path: str, key: str, check: Any) -> int | None:
    value = raw.get(key)
    return None if value is None else check(value, f"{path}.{key}")


def _read_result(r: Reader, value: object, path: str) -> dict[str, Any] | None:
    raw = r.obj(
        value, path, required=("game", "players", "winners", "tiebreak"), optional=("notes",)
    )
    if raw is None:
        return None
    players = r.field(raw, path, "players", lambda v, p: r.array(v, p, min_len=1)) or []
    for k, item in enumerate(players):
        seat = r.obj(item, f"{path}.players[{k}]", required=("name", "total", "rank", "breakdown"))
        if seat is None:
            continue
        r.field(seat, f"{path}.players[{k}]", "name", r.text)
        r.field(seat, f"{path}.players[{k}]", "total", r.integer)
        r.field(seat, f"{path}.players[{k}]", "rank", lambda v, p: r.integer(v, p, low=1))
    r.field(raw, path, "winners", r.array)
    return raw


def _parse_bgstats(data: dict[str, Any]) -> Parsed:
    r = Reader()
    parsed = Parsed("bgstats")
    names = _refs(r, data.get("players"), "players", "name")
    titles = _refs(r, data.get("games"), "games", "name")
    bgg: dict[Any, int] = {
        entry.get("id"): entry.get("bggId") or 0
        for entry in data.get("games") or []
        if isinstance(entry, dict)
    }
    locations = {
        entry.get("id"): entry.get("name")
        for entry in data.get("locations") or []
        if isinstance(entry, dict)
    }
    by_bgg = {number: game for game, number in BGG_IDS.items()}
    plays = r.array(data.get("plays"), "plays") or []
    r.raise_if_problems()
    for k, item in enumerate(plays):
        path = f"plays[{k}]"
        raw = r.obj(
            item, path, required=("playDate", "gameRefId", "playerScores"), allow_unknown=True
        )
        if raw is None or "gameRefId" not in raw:
            continue
        ref = raw["gameRefId"]
        if ref not in titles:
            r.error(f"{path}.gameRefId", f"no game with id {ref!r} in games")
            continue
        game = by_bgg.get(bgg.get(ref, 0)) or _our_game(titles[ref])
        if game is None:
            parsed.skipped_games[titles[ref]] = parsed.skipped_games.get(titles[ref], 0) + 1
            continue
        play = _bgstats_play(r, raw, path, game, names, locations)
        if play is not None:
            parsed.plays.append(play)
    r.raise_if_problems()
    return parsed


def _refs(r: Reader, value: object, path: str, key: str) -> dict[Any, str]:
    items = r.array(value, path) or []
    refs: dict[Any, str] = {}
    for k, item in enumerate(items):
        # BG Stats files carry many more keys than we read: unknown ones are fine.
        entry = r.obj(item, f"{path}[{k}]", required=("id", key), allow_unknown=True)
        if entry is None:
            continue
        name = r.field(entry, f"{path}[{k}]", key, r.text)
        if name is not None and "id" in entry:
            refs[entry["id"]] = name
    return refs


def _our_game(name: str) -> str | None:
    try:
        return find_game(name).info.id
    except UnknownGameError:
        return None


def _bgstats_play(
    r: Reader,
    raw: dict[str, Any],
    path: str,
    game: str,
    names: dict[Any, str],
    locations: dict[Any, Any],
) -> Play | None:
    date = raw.get("playDate")
    if not isinstance(date, str) or len(date) < 10:
        r.error(f"{path}.playDate", "must be a date such as 2026-11-30 20:15:00")
        return None
    scores = r.array(raw.get("playerScores"), f"{path}.playerScores", min_len=1) or []
    seats: list[tuple[int, str, int, int | None, bool, bool]] = []
    for k, item in enumerate(scores):
        spath = f"{path}.playerScores[{k}]"
        if not isinstance(item, dict) or item.get("playerRefId") not in names:
            r.error(f"{spath}.playerRefId", "must name a player listed in players")
            continue
        total = _score(r, item.get("score"), f"{spath}.score")
        if total is None:
            continue
        rank = item.get("rank")
        seat = item.get("seatOrder")
        seats.append(
            (
                seat if type(seat) is int else k,
                names[item["playerRefId"]],
                total,
                rank if type(rank) is int and rank > 0 else None,
                bool(item.get("winner")),
                bool(item.get("startPlayer")),
            )
        )
    if not seats or len(seats) != len(scores):
        return None
    seats.sort(key=lambda s: s[0])
    totals = [s[2] for s in seats]
    ranks = [s[3] or 1 + sum(1 for t in totals if t > s[2]) for s in seats]
    winners = [s[1] for s in seats if s[4]] or [
        s[1] for s, rk in zip(seats, ranks, strict=True) if rk == 1
    ]
    result = {
        "game": game,
        "players": [
            {"name": s[1], "total": s[2], "rank": rk, "breakdown": {IMPORTED_CATEGORY: s[2]}}
            for s, rk in zip(seats, ranks, strict=True)
        ],
        "winners": winners,
        "tiebreak": None,
    }
    starts = [k for k, s in enumerate(seats) if s[5]]
    ident = raw.get("uuid")
    if not isinstance(ident, str) or not ident:
        ident = str(uuid.uuid5(NAMESPACE, json.dumps(raw, sort_keys=True)))
    duration = raw.get("durationMin")
    comments = raw.get("comments")
    location = locations.get(raw.get("locationRefId"))
    return Play(
        id=0,
        uuid=ident,
        played_at=f"{date[:10]}T{date[11:19] if len(date) >= 19 else '00:00:00'}Z",
        game=game,
        score_file=None,
        result=result,
        location=location if isinstance(location, str) else "",
        notes=comments if isinstance(comments, str) else "",
        duration_min=duration if type(duration) is int and duration > 0 else None,
        source="bgstats",
        start_player=starts[0] if starts else None,
    )


def _score(r: Reader, value: object, path: str) -> int | None:
    if value is None or value == "":
        return 0
    if type(value) is int:
        return value
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        return int(value)
    r.error(path, f"must be a score, got {value!r}")
    return None
