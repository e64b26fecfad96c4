"""Our own json export (``companion-history``): everything, losslessly, read and written.

Each play carries its people, its score file exactly as given and, for a game
played along, the event log of its answers; then the uuids BG Stats knows the
people by (``players``). A play with a score file is re-scored by our scorer
on the way in and must give the result stored with it; a web page's draft is
never read as answers.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any, TextIO

from companion.events import DRAFT
from companion.history.formats.bounded import (
    MAX_DURATION,
    MAX_EVENTS,
    MAX_EXPANSIONS,
    MAX_LOCATION,
    MAX_NOTES,
    MAX_PLAYS,
    MAX_REF,
    MAX_SCORE,
    MAX_SEATS,
    MAX_UUID,
    Parsed,
    bounded_text,
    checked_name,
    plain_text,
    uuid_of,
)
from companion.history.formats.shared import ANONYMOUS
from companion.history.model import ANONYMOUS_KEY, Expansion, Person, Play, derive_people
from scorers import SCORERS, Problem, Reader, ScoreFileError
from scorers._validate import key_path
from scorers.names import InvalidName, clean_name, name_key

JSON_FORMAT = "companion-history"
JSON_VERSION = 2


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
PLAY_KEYS_V2 = (*PLAY_KEYS, "people", "ignored", "expansions")


def parse_ours(r: Reader, data: dict[str, Any]) -> Parsed:
    root = r.obj(data, "$", required=("format", "version", "plays"), optional=("players",))
    parsed = Parsed("json")
    version = root.get("version") if root is not None else None
    if version not in (1, 2) or type(version) is not int:
        r.error("version", f"unknown version {version!r} (this companion reads 1 and 2)")
        return parsed
    if "players" in data:
        parsed.player_uuids = _read_player_uuids(r, data["players"], "players")
    items = r.field(data, "$", "plays", lambda v, p: r.array(v, p, max_len=MAX_PLAYS)) or []
    if len(items) > MAX_PLAYS:
        return parsed
    plays = OurPlays(version, r, parsed)
    for k, item in enumerate(items):
        plays.play(k, item)
    return parsed


class OurPlays:
    """Checks the plays of our export one by one."""

    def __init__(self, version: object, r: Reader | None = None, parsed: Parsed | None = None):
        self.valid = version in (1, 2) and type(version) is int
        self.version = version if type(version) is int else 0
        self.r = r or Reader()
        self.parsed = parsed or Parsed("json")
        self.trusted = False

    def play(self, k: int, item: object) -> None:
        """Check play ``k``; keep it when it has no problem."""
        path = f"plays[{k}]"
        play = _read_play(self.r, item, path, self.version, trusted=self.trusted)
        if play is not None:
            log = _read_events(self.r, item, f"{path}.events")
            if not self.r.problems:  # (a file with a problem adds nothing: none are kept)
                self.parsed.keep(play, log)

    def finish(self, r: Reader, data: dict[str, Any]) -> Parsed:
        """What the file holds, once the rest of it (``data``) has been read and checked,
        its whole-file problems in ``r``."""
        found = parse_ours(r, data)
        r.problems += self.r.problems  # (after the whole-file problems, as when read whole)
        found.plays, found.events = self.parsed.plays, self.parsed.events
        found.spool = self.parsed.spool
        return found


def _read_player_uuids(r: Reader, value: object, path: str) -> dict[str, str]:
    """``[{"name", "uuid"[, "anonymous"]}]``: the uuids another app knows people by."""
    items = r.array(value, path, max_len=MAX_PLAYS)
    found: dict[str, str] = {}
    if items is None or len(items) > MAX_PLAYS:
        return found
    for k, item in enumerate(items):
        entry = r.obj(item, f"{path}[{k}]", required=("name", "uuid"), optional=("anonymous",))
        if entry is None or {"name", "uuid"} - entry.keys():
            continue
        anonymous = r.field(entry, f"{path}[{k}]", "anonymous", r.boolean, default=False)
        name = checked_name(r, entry["name"], f"{path}[{k}].name")
        ident = uuid_of(entry["uuid"])
        if ident is None:
            r.error(f"{path}[{k}].uuid", f"must be a text of 1 to {MAX_UUID} characters")
        if name is not None and ident is not None and anonymous is not None:
            found[ANONYMOUS_KEY if anonymous else name_key(name)] = ident
    return found


def _read_events(r: Reader, item: object, path: str) -> list[dict[str, Any]]:
    value = item.get("events") if isinstance(item, dict) else None
    entries = r.array(value, path, max_len=MAX_EVENTS) or []
    if len(entries) > MAX_EVENTS:
        return []
    log = []
    for k, entry in enumerate(entries):
        event = r.obj(entry, f"{path}[{k}]", required=("at", "key", "value"))
        if event is None or {"at", "key", "value"} - event.keys():
            continue
        at = _iso_time(r, event["at"], f"{path}[{k}].at")
        key = bounded_text(r, event["key"], f"{path}[{k}].key", limit=200, empty=False)
        if at is not None and key is not None:
            log.append({"at": event["at"], "key": key, "value": event["value"]})
    if any(event["key"] == DRAFT for event in log):
        return []  # a web page's draft (an earlier export or ledger sent it): not answers
    return log


def _iso_time(r: Reader, value: object, path: str) -> str | None:
    """An ISO 8601 time (``Z`` or an offset; none means UTC) → the stored UTC form."""
    if not isinstance(value, str) or len(value) > 40:
        r.error(path, "must be a date and time such as 2026-11-30T20:15:00Z")
        return None
    try:
        moment = datetime.fromisoformat(value.strip())
    except ValueError:
        r.error(path, f"{value!r} is not a real date and time (such as 2026-11-30T20:15:00Z)")
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    try:
        return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    except (OverflowError, ValueError):
        r.error(path, f"{value!r} is out of range")
        return None


def _read_play(
    r: Reader, value: object, path: str, version: int, *, trusted: bool = False
) -> Play | None:
    raw = r.obj(
        value, path, required=PLAY_KEYS if version == 1 else PLAY_KEYS_V2, optional=("status",)
    )
    if raw is None:
        return None
    before = len(r.problems)
    play_id = r.field(raw, path, "id", lambda v, p: r.integer(v, p, low=1, high=MAX_REF))
    ident = r.field(
        raw, path, "uuid", lambda v, p: bounded_text(r, v, p, limit=MAX_UUID, empty=False)
    )
    played_at = r.field(raw, path, "played_at", lambda v, p: _iso_time(r, v, p))
    game = r.field(raw, path, "game", lambda v, p: r.choice(v, p, tuple(SCORERS), what="game"))
    location = r.field(raw, path, "location", lambda v, p: plain_text(r, v, p, limit=MAX_LOCATION))
    notes = r.field(raw, path, "notes", lambda v, p: bounded_text(r, v, p, limit=MAX_NOTES))
    source = r.field(raw, path, "source", lambda v, p: plain_text(r, v, p, limit=40))
    if source == "":
        r.error(f"{path}.source", "must not be empty")
    duration = _nullable(r, raw, path, "duration_min", 0, MAX_DURATION)
    start = _nullable(r, raw, path, "start_player", 0, MAX_SEATS * 4)
    ignored = r.field(raw, path, "ignored", r.boolean, default=False)
    expansions = _read_expansions(r, raw.get("expansions", []), f"{path}.expansions")
    status = r.field(
        raw, path, "status", lambda v, p: r.choice(v, p, ("final", "interim")), default="final"
    )
    score_file = raw.get("score_file")
    if score_file is not None and not isinstance(score_file, str):
        r.error(f"{path}.score_file", "must be the score file's text, or null")
        score_file = None
    result = _read_result(r, raw.get("result"), f"{path}.result", game)
    if result is not None and isinstance(score_file, str) and game is not None and not trusted:
        result = _rescored(r, score_file, result, game, f"{path}.score_file")
    people: tuple[Person, ...] | None = None
    if result is not None:
        derived = derive_people(score_file, result)
        people = derived
        if "people" in raw:
            people = _read_people(r, raw["people"], f"{path}.people", result)
            if people is not None and score_file is not None and not _same_people(people, derived):
                r.error(f"{path}.people", "does not match the players of the score file")
    if people is not None and start is not None and people and start >= len(people):
        r.error(f"{path}.start_player", f"there are only {len(people)} people in this game")
    if len(r.problems) > before or result is None or people is None:
        return None
    if not (play_id and ident and played_at and game and source):
        return None  # a required key is missing: already a problem
    return Play(
        play_id,
        ident,
        played_at,
        game,
        score_file,
        result,
        location or "",
        notes or "",
        duration or None,
        source,
        start,
        people,
        bool(ignored),
        expansions or (),
        status or "final",
    )


def _nullable(r: Reader, raw: dict[str, object], path: str, key: str, low: int, high: int) -> Any:
    value = raw.get(key)
    return None if value is None else r.integer(value, f"{path}.{key}", low=low, high=high)


def _read_expansions(r: Reader, value: object, path: str) -> tuple[Expansion, ...] | None:
    items = r.array(value, path, max_len=MAX_EXPANSIONS)
    if items is None or len(items) > MAX_EXPANSIONS:
        return None
    found = []
    for k, item in enumerate(items):
        entry = r.obj(item, f"{path}[{k}]", required=("name", "bgg_id"))
        if entry is None or {"name", "bgg_id"} - entry.keys():
            continue
        name = plain_text(r, entry["name"], f"{path}[{k}].name", limit=MAX_LOCATION)
        number = r.integer(entry["bgg_id"], f"{path}[{k}].bgg_id", high=MAX_REF)
        if name is not None and number is not None:
            found.append(Expansion(name, number))
    return tuple(found)


def _read_people(
    r: Reader, value: object, path: str, result: dict[str, Any]
) -> tuple[Person, ...] | None:
    sides = len(result["players"])
    items = r.array(value, path, max_len=MAX_SEATS * 4)
    if items is None or len(items) > MAX_SEATS * 4:
        return None
    people = []
    seen: dict[str, int] = {}
    ok = True
    for k, item in enumerate(items):
        entry = r.obj(item, f"{path}[{k}]", required=("name", "side", "anonymous"))
        if entry is None or {"name", "side", "anonymous"} - entry.keys():
            ok = False
            continue
        name = checked_name(r, entry["name"], f"{path}[{k}].name")
        side = r.integer(entry["side"], f"{path}[{k}].side", high=sides - 1)
        anonymous = r.boolean(entry["anonymous"], f"{path}[{k}].anonymous")
        if name is None or side is None or anonymous is None:
            ok = False
            continue
        if not anonymous:
            key = name_key(name)
            if key in seen:
                r.error(f"{path}[{k}].name", f"{name!r} is already {path}[{seen[key]}]")
                ok = False
                continue
            seen[key] = k
        people.append(Person(name, side, anonymous))
    return tuple(people) if ok else None


def _same_people(a: tuple[Person, ...], b: tuple[Person, ...]) -> bool:
    return [(name_key(p.name), p.side) for p in a] == [(name_key(p.name), p.side) for p in b]


def _read_result(r: Reader, value: object, path: str, game: str | None) -> dict[str, Any] | None:
    raw = r.obj(
        value, path, required=("game", "players", "winners", "tiebreak"), optional=("notes",)
    )
    if raw is None or {"game", "players", "winners", "tiebreak"} - raw.keys():
        return None
    before = len(r.problems)
    if game is not None and raw["game"] != game:
        r.error(f"{path}.game", f"must be {game!r}, the play's game")
    items = r.array(raw["players"], f"{path}.players", min_len=1, max_len=MAX_SEATS) or []
    sides: list[dict[str, Any]] = []
    keys: dict[str, int] = {}
    for k, item in enumerate(items[:MAX_SEATS]):
        spath = f"{path}.players[{k}]"
        seat = r.obj(item, spath, required=("name", "total", "rank", "breakdown"))
        if seat is None or {"name", "total", "rank", "breakdown"} - seat.keys():
            continue
        name = checked_name(r, seat["name"], f"{spath}.name")
        total = seat["total"]
        if total is not None:
            total = r.integer(total, f"{spath}.total", low=-MAX_SCORE, high=MAX_SCORE)
        rank = seat["rank"]
        if rank is not None:
            rank = r.integer(rank, f"{spath}.rank", low=1, high=MAX_SEATS)
        breakdown = _read_breakdown(r, seat["breakdown"], f"{spath}.breakdown")
        if name is not None and name_key(name) in keys:
            r.error(f"{spath}.name", f"{name!r} is already players[{keys[name_key(name)]}]")
            continue
        if name is not None:
            keys[name_key(name)] = k
            sides.append({"name": name, "total": total, "rank": rank, "breakdown": breakdown})
    winners = r.array(raw["winners"], f"{path}.winners", max_len=MAX_SEATS) or []
    names = {name_key(s["name"]): s["name"] for s in sides}
    chosen: list[str] = []
    for k, winner in enumerate(winners[:MAX_SEATS]):
        if not isinstance(winner, str) or name_key(" ".join(winner.split())) not in names:
            r.error(f"{path}.winners[{k}]", "must be the name of one of the players")
            continue
        found = names[name_key(" ".join(winner.split()))]
        if found in chosen:
            r.error(f"{path}.winners[{k}]", f"{found!r} is listed twice")
            continue
        chosen.append(found)
    tiebreak = raw["tiebreak"]
    if tiebreak is not None:
        tiebreak = plain_text(r, tiebreak, f"{path}.tiebreak", limit=200)
    notes = raw.get("notes", [])
    notes_list = r.array(notes, f"{path}.notes", max_len=50) or []
    for k, note in enumerate(notes_list[:50]):
        bounded_text(r, note, f"{path}.notes[{k}]", limit=1000)
    if len(r.problems) > before:
        return None
    result: dict[str, Any] = {
        "game": raw["game"],
        "players": sides,
        "winners": chosen,
        "tiebreak": tiebreak,
    }
    if notes_list:
        result["notes"] = list(notes_list)
    return result


def _read_breakdown(r: Reader, value: object, path: str) -> dict[str, int] | None:
    if not isinstance(value, dict):
        r.error(path, "must be an object of category: points")
        return None
    if len(value) > 50:
        r.error(path, f"has {len(value)} categories (at most 50)")
        return None
    breakdown = {}
    for key, points in value.items():
        if len(key) > 60 or not key.strip():
            r.error(f"{path}.{key[:20]}", "a category name must have 1 to 60 characters")
            return None
        if not key.isprintable():  # an escape sequence would reach the terminal and csv
            r.error(key_path(path, key), "a category name must not hold invisible characters")
            return None
        number = r.integer(points, f"{path}.{key}", low=-MAX_SCORE, high=MAX_SCORE)
        if number is None:
            return None
        breakdown[key] = number
    return breakdown


def _comparable(result: dict[str, Any]) -> tuple[Any, ...]:
    return (
        [(name_key(p["name"]), p["total"], p["rank"], p["breakdown"]) for p in result["players"]],
        sorted(name_key(w) for w in result["winners"]),
        result.get("tiebreak"),
    )


def _rescored(
    r: Reader, text: str, stored: dict[str, Any], game: str, path: str
) -> dict[str, Any] | None:
    """Re-score the score file: it must be valid and give the stored result."""
    from companion.bounded_json import MAX_DEPTH, MAX_SCORE_FILE_BYTES, parse_json

    if len(text.encode("utf-8", "surrogatepass")) > MAX_SCORE_FILE_BYTES:
        r.error(path, "is larger than a score file can be")
        return None
    try:
        result = SCORERS[game].score_json(parse_json(text, max_depth=MAX_DEPTH)).to_json()
    except ScoreFileError as error:
        for found in error.problems[:5]:
            r.error(path, f"not a valid {game} score file: {found}")
        return None
    for k, side in enumerate(result["players"]):
        problem: str | None = None if isinstance(side["name"], str) else "not a text"
        if problem is None:
            try:
                clean_name(side["name"])
            except InvalidName as error:
                problem = str(error)
        if problem:
            r.error(f"{path}", f"players[{k}].name: {problem}")
            return None
    if _comparable(result) != _comparable(stored):
        r.error(path, "re-scored, it does not give the stored result")
        return None
    return result


def read_entry(
    item: object, path: str = "play", *, trusted: bool = False
) -> tuple[Play, list[dict[str, Any]]]:
    """One play of our json export (:func:`play_entry`),
    checked exactly as an import checks it: the play and its event log.

    With ``trusted``, a score file is not scored again: its stored result is
    taken as the one it gives (a club's ledger holds it as scored by this very
    scorer); every other check is made.

    Raises:
        ScoreFileError: Every problem of the entry, with its JSON path.
    """
    r = Reader()
    parsed = Parsed("json")
    reader = OurPlays(2, r, parsed)
    reader.trusted = trusted
    reader.play(0, item)
    if r.problems or not parsed.plays:
        raise ScoreFileError(
            [Problem(p.path.replace("plays[0]", path, 1), p.message) for p in r.problems]
            or [Problem(path, "is not a play")]
        )
    play = parsed.plays[0]
    return play, parsed.events.get(play.uuid, [])


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


class JsonWriter:
    """Our json export written a play at a time (what :func:`to_json` writes, to ``out``).

    Args:
        out: Where to write.
        player_uuids: The uuids BG Stats knows people by (``players``, for the
            people of the plays written).
    """

    def __init__(self, out: TextIO, player_uuids: Mapping[str, str] | None = None) -> None:
        self.out = out
        self.uuids = player_uuids or {}
        self.names: dict[str, tuple[str, bool]] = {}
        self.count = 0
        self.size = self._write(
            f'{{\n  "format": {json.dumps(JSON_FORMAT)},\n  "version": {JSON_VERSION},\n'
        )

    def _write(self, text: str) -> int:
        self.out.write(text)
        return len(text.encode("utf-8", "surrogatepass"))

    @staticmethod
    def entry(play: Play, events: list[dict[str, Any]]) -> str:
        """One play's text as the export writes it (indented in the list)."""
        text = json.dumps(play_entry(cleaned_play(play), events), indent=2, ensure_ascii=False)
        return "\n".join("    " + line for line in text.split("\n"))

    def add(self, play: Play, text: str) -> None:
        """Write one play, ``text`` being :meth:`entry`'s."""
        self.size += self._write('  "plays": [\n' if self.count == 0 else ",\n")
        self.size += self._write(text)
        self.count += 1
        for person in play.persons:
            key = ANONYMOUS_KEY if person.anonymous else name_key(person.name)
            if key in self.uuids:
                self.names[key] = (ANONYMOUS if person.anonymous else person.name, person.anonymous)

    def close(self) -> None:
        """End the document: the list of plays, then the people's uuids."""
        self._write('  "plays": []' if self.count == 0 else "\n  ]")
        known = [
            {"name": name, "uuid": self.uuids[key], **({"anonymous": True} if anonymous else {})}
            for key, (name, anonymous) in sorted(
                self.names.items(), key=lambda item: item[1][0].casefold()
            )
        ]
        if known:
            lines = json.dumps(known, indent=2, ensure_ascii=False).split("\n")
            self._write(
                ',\n  "players": '
                + "\n".join(("  " + line if k else line) for k, line in enumerate(lines))
            )
        self._write("\n}\n")


Pages = Iterable[tuple[Sequence[Play], Mapping[int, list[dict[str, Any]]]]]


def write_json(out: TextIO, pages: Pages, *, player_uuids: Mapping[str, str] | None = None) -> int:
    """Write what :func:`to_json` writes, a page of plays (with their event logs) at a
    time, so that a history of any size is exported in bounded memory. The count of
    plays written."""
    writer = JsonWriter(out, player_uuids)
    for plays, logs in pages:
        for play in plays:
            writer.add(play, writer.entry(play, logs.get(play.id, [])))
    writer.close()
    return writer.count


def entries(pages: Pages) -> Iterator[tuple[Play, str]]:
    """Each play of ``pages`` with its text in our export, one at a time."""
    for plays, logs in pages:
        for play in plays:
            yield play, JsonWriter.entry(play, logs.get(play.id, []))


def cleaned_play(play: Play) -> Play:
    """``play`` with its notes and place cleaned as they are on the way in (a history
    written before that rule may hold an escape sequence): no export writes one."""
    from dataclasses import replace

    from companion.history.user_text import clean_text

    notes, location = clean_text(play.notes, lines=True), clean_text(play.location, lines=False)
    if notes == play.notes and location == play.location:
        return play
    return replace(play, notes=notes, location=location)


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
