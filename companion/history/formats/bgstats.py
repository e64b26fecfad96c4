"""BG Stats backups (``.bgsplay``), read and written.

A backup holds ``userInfo``, ``players`` (with ``isAnonymous``), ``locations``
(plays point at one with ``locationRefId``), ``games`` (with ``bggId`` and
``usesTeams``) and ``plays`` (with ``ignored``, ``manualWinner``,
``usesTeams``, ``expansionPlays`` and ``playerScores``: ``score`` as text,
``team``, ``startPlayer``, ``winner``, ``rank``, ``seatOrder``), as the app
and the public tools around it really write and read them.

Written: dates are local time, ``YYYY-MM-DD HH:MM:SS``; play uuids are upper
case, people keep the uuids BG Stats gave them. An interim scoring is an
ignored play whose ``metaData`` says so.

Read: scores written as sums (``"58+10+4"``) are added up, decimals are
rounded (with a note), blank scores are *not scored* (kept, never 0), winners
are taken as marked and never invented, ``ignored`` plays are kept out of
statistics, expansions are kept, team plays become sides with their members (a
play is a team play only when it, or its game, says it uses teams: BG Stats
writes ``"team": "0"`` on the seats of ordinary plays too), the anonymous
player stays anonymous. A game is matched by its BoardGameGeek id, and by name
only when it has none; plays of other games are counted and skipped, and never
block an import.
"""

from __future__ import annotations

import json
import re
import uuid
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from decimal import ROUND_HALF_UP, Decimal
from typing import TYPE_CHECKING, Any

from companion.analysis.played_game import FINAL
from companion.history.formats.bounded import (
    IMPORTED_CATEGORY,
    MAX_DURATION,
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
    is_scalar,
    plain_text,
    uuid_of,
)
from companion.history.formats.shared import (
    ANONYMOUS,
    BGG_IDS,
    BY_BGG_ID,
    NAMESPACE,
    local_date,
    people_rows,
)
from companion.history.model import ANONYMOUS_KEY, Expansion, Person, Play

if TYPE_CHECKING:
    from companion.history.store import Kept
from scorers import SCORERS, Reader, ScoreFileError, UnknownGameError, find_game, title
from scorers.names import InvalidName, clean_name, name_key

METADATA_STATUS, METADATA_IGNORED = "companionStatus", "companionIgnored"
"""Keys of a play's BG Stats ``metaData`` that carry an interim scoring (see
:func:`interim_marker`)."""


_SCORE_EXPRESSION = re.compile(r"[+-]?[0-9]+(\.[0-9]*)?(\s*[+-]\s*[0-9]+(\.[0-9]*)?)*")
_TERM = re.compile(r"([+-]?)\s*([0-9]+(?:\.[0-9]*)?)")
_DASHES = re.compile(r"[-\u2012-\u2015]+")
"""A score of dashes alone: the app's "no score"."""
_DECIMAL_COMMA = re.compile(r"([0-9]),([0-9])")
_UNFINISHED = re.compile(r"(?<=[0-9.])(\s*[+-])+\s*$")
"""Signs typed last, after the last number (``86+84+``): nothing to add."""


_PADDED_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}( [0-9]{2}:[0-9]{2}(:[0-9]{2})?)?")


@dataclass
class _Player:
    name: object
    anonymous: bool
    path: str
    uuid: str | None = None
    cleaned: tuple[str, str] | None = None
    """The name through the name rule and its key, once it has passed."""
    refused: bool = False
    """The name broke the rule: its problem was reported (once, however many plays)."""
    record: dict[str, Any] = field(default_factory=dict)
    """The app's record of the player (kept for an export back to it)."""

    def person(self, r: Reader) -> tuple[str, str] | None:
        """``(name, key)`` by the name rule; a problem at the player's name (once)."""
        if self.cleaned is None and not self.refused:
            name = checked_name(r, self.name, f"{self.path}.name")
            if name is not None:
                self.cleaned = (name, name_key(name))
            else:
                self.refused = True
        return self.cleaned


@dataclass
class _Seat:
    """One row of a BG Stats play, read."""

    index: int
    path: str
    name: str
    anonymous: bool
    key: str
    total: int | None
    rank: int | None
    winner: bool
    start: bool
    order: int
    team: str
    uuid: str | None = None
    raw: dict[str, Any] = field(default_factory=dict)
    """The app's record of the seat."""
    record: dict[str, Any] = field(default_factory=dict)
    """The app's record of the seat's player."""


@dataclass
class _Book:
    """The players, games and locations a BG Stats file lists, by id."""

    players: dict[object, _Player]
    games: dict[object, dict[str, Any]]
    locations: dict[object, dict[str, Any]]
    location_names: dict[object, str] = field(default_factory=dict)
    refused: set[object] = field(default_factory=set)

    def location(self, r: Reader, ref: object) -> str | None:
        """The name of location ``ref`` (checked once; a problem once when it is wrong)."""
        if ref not in self.location_names:
            if ref in self.refused:
                return None
            place = self.locations[ref]
            found = plain_text(
                r, place.get("name", ""), f"{place['_path']}.name", limit=MAX_LOCATION
            )
            if found is None:
                self.refused.add(ref)
                return None
            self.location_names[ref] = found
        return self.location_names[ref]


def parse_bgstats(r: Reader, data: dict[str, Any]) -> Parsed:
    bgstats = BgStats(r, data)
    plays = r.array(data["plays"], "plays", max_len=MAX_PLAYS)
    if r.problems or plays is None or len(plays) > MAX_PLAYS:
        return bgstats.parsed
    for k, item in enumerate(plays):
        bgstats.play(k, item)
    return bgstats.parsed


class BgStats:
    """The players, games and locations of a BG Stats file, to check its plays one by one.

    When the file lists its locations after its plays (or none), the plays'
    places are looked up once they are known (:meth:`finish`).
    """

    def __init__(self, r: Reader, data: dict[str, Any], parsed: Parsed | None = None) -> None:
        self.r = r
        self.parsed = parsed or Parsed("bgstats")
        self.players = _bg_players(r, data["players"])
        self.games = _bg_refs(r, data["games"], "games")
        self.places_later = "locations" not in data
        locations = {} if self.places_later else _bg_refs(r, data["locations"], "locations")
        self.book = _Book(self.players, self.games, locations)
        self.ours: dict[object, str | None] = {}  # game ref -> our game id
        self.places: list[tuple[int, object]] = []  # (index in plays, locationRefId) to look up
        self.place_refs: dict[object, None] = {}  # the locationRefIds to look up, in order

    def finish(self, data: dict[str, Any]) -> Parsed:
        """The plays read, with their places when the locations came after them."""
        if not self.places_later:
            return self.parsed
        r, book, parsed = self.r, self.book, self.parsed
        book.locations = _bg_refs(r, data.get("locations", []), "locations")
        if parsed.spool is not None:  # (filled in as the plays are read back)
            for ref in self.place_refs:
                if ref in book.locations:
                    parsed.spool.places[ref] = book.location(r, ref) or ""
                    _keep_record(parsed, "location", parsed.spool.places[ref], book.locations[ref])
            return parsed
        plays = parsed.plays
        for index, ref in self.places:
            if ref in book.locations:
                plays[index] = replace(plays[index], location=book.location(r, ref) or "")
                _keep_record(parsed, "location", plays[index].location, book.locations[ref])
        return parsed

    def play(self, k: int, item: object) -> None:
        """Check play ``k``; keep it when it has no problem and is of one of our games."""
        r, parsed, games, ours, book = self.r, self.parsed, self.games, self.ours, self.book
        path = f"plays[{k}]"
        raw = r.obj(item, path, allow_unknown=True)
        if raw is None:
            return
        ref = raw.get("gameRefId")
        entry = games.get(ref) if is_scalar(ref) else None
        if entry is None:
            if not is_scalar(ref):
                r.error(f"{path}.gameRefId", "must be the id of a game listed in games")
            else:
                other = "a game not listed in games"
                parsed.skipped_games[other] = parsed.skipped_games.get(other, 0) + 1
            return
        if ref not in ours:
            ours[ref] = _our_game(entry, r)
        game = ours[ref]
        if game is None:
            name = entry.get("name")
            shown = name if isinstance(name, str) and name.strip() else f"game {ref}"
            parsed.skipped_games[shown] = parsed.skipped_games.get(shown, 0) + 1
            return
        play = _bgstats_play(r, raw, path, game, book, parsed, parsed.player_uuids)
        if play is None or r.problems:  # (a file with a problem adds nothing: none are kept)
            return
        _keep_record(parsed, "game", game, entry)
        place = None
        if self.places_later and is_scalar(raw.get("locationRefId")):
            place = raw["locationRefId"]
            self.place_refs.setdefault(place)
            if parsed.spool is None:
                self.places.append((len(parsed.plays), place))
        parsed.keep(play, place=place)


APP = "bgstats"
"""How the history names BG Stats where it keeps what the app wrote."""
_REFS = frozenset({"id", "_path"})
"""The keys of a record that are the file's own numbering (or ours): never kept."""


def _keep_record(parsed: Parsed, kind: str, key: str, entry: Mapping[str, Any]) -> None:
    """Keep the app's record of a player, game or place (not its number), by our key."""
    if key and (APP, kind, key) not in parsed.records:
        parsed.records[APP, kind, key] = json.dumps(
            {k: v for k, v in entry.items() if k not in _REFS}, ensure_ascii=False
        )


def _bg_players(r: Reader, value: object) -> dict[object, _Player]:
    items = r.array(value, "players", max_len=MAX_PLAYS)
    found: dict[object, _Player] = {}
    if items is None or len(items) > MAX_PLAYS:
        return found
    for k, item in enumerate(items):
        path = f"players[{k}]"
        entry = r.obj(item, path, required=("id",), allow_unknown=True)
        if entry is None or "id" not in entry:
            continue
        ident = entry["id"]
        if not is_scalar(ident):
            r.error(f"{path}.id", "must be a number or a text")
            continue
        if ident in found:
            r.error(f"{path}.id", f"{ident!r} is already the id of {found[ident].path}")
            continue
        anonymous = entry.get("isAnonymous") is True
        found[ident] = _Player(
            entry.get("name"), anonymous, path, uuid_of(entry.get("uuid")), record=entry
        )
    return found


def _bg_refs(r: Reader, value: object, what: str) -> dict[object, dict[str, Any]]:
    items = r.array(value, what, max_len=MAX_PLAYS)
    found: dict[object, dict[str, Any]] = {}
    if items is None or len(items) > MAX_PLAYS:
        return found
    for k, item in enumerate(items):
        entry = r.obj(item, f"{what}[{k}]", required=("id",), allow_unknown=True)
        if entry is None or "id" not in entry:
            continue
        if not is_scalar(entry["id"]):
            r.error(f"{what}[{k}].id", "must be a number or a text")
            continue
        found.setdefault(entry["id"], {**entry, "_path": f"{what}[{k}]"})
    return found


def _bgg_id(value: object, r: Reader | None = None, path: str = "") -> int:
    """A BoardGameGeek id as BG Stats writes it (a number, or digits as text); 0 for none.

    A text of digits that are not the ASCII ones (``"²"``, ``"٣"``) is no id: a
    problem at ``path`` when ``r`` is given.
    """
    if type(value) is int and 0 < value <= MAX_REF:
        return value
    if isinstance(value, str) and value.strip().isdigit() and len(value) < 19:
        digits = value.strip()
        if digits.isascii():
            return int(digits)
        if r is not None:
            r.error(path, f"must be a BoardGameGeek id in the digits 0-9, got {digits!r}")
    return 0


def _bad_digits(value: object) -> bool:
    """Whether ``value`` is a text of digits that are not all ASCII."""
    return isinstance(value, str) and value.strip().isdigit() and not value.strip().isascii()


def _our_game(entry: dict[str, Any], r: Reader | None = None) -> str | None:
    """Our game id for a BG Stats game: by BoardGameGeek id, by name only without one."""
    number = _bgg_id(entry.get("bggId"), r, f"{entry.get('_path', 'games')}.bggId")
    if number == 0 and _bad_digits(entry.get("bggId")):
        return None  # (a problem already)
    if number:
        return BY_BGG_ID.get(number)
    name = entry.get("name")
    if not isinstance(name, str) or len(name) > 200:
        return None
    try:
        return find_game(name).info.id
    except UnknownGameError:
        return None


def _local_date(r: Reader, value: object, path: str) -> str | None:
    """BG Stats' local ``YYYY-MM-DD HH:MM:SS`` → the stored UTC form."""
    if isinstance(value, str) and len(value) <= 40:
        text = value.strip().replace("T", " ")
        moment = None
        if _PADDED_DATE.fullmatch(text):
            # The usual, zero-padded shape: read the same way, without strptime.
            with suppress(ValueError):
                moment = datetime.fromisoformat(text)
        if moment is None:
            for pattern in ("%Y-%m-%d %H:%M:%S", "%Y-%m-%d %H:%M", "%Y-%m-%d"):
                try:
                    moment = datetime.strptime(text, pattern)
                except ValueError:
                    continue
                break
        if moment is not None:
            try:  # a naive time is this computer's local time
                return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
            except (OverflowError, ValueError, OSError):
                pass
    r.error(path, "must be a real date such as 2026-11-30 20:15:00")
    return None


def score_value(value: object) -> tuple[int | None, str | None]:
    """A BG Stats score → ``(points, note)``; ``(None, None)`` when blank.

    Read as the app reads the texts it writes itself: sums and differences of
    numbers (``"58+10+4"``) are added up, and an unfinished one (``"86+84+"``, a
    sign typed last on its calculator) adds up the terms it has; a number may end
    with its decimal point (``"6."``) or use a decimal comma (``"21,7"``); a
    decimal is rounded half up; dashes alone (``"--"``) are no score. The note
    says what was read when it is not the text itself.

    Raises:
        ValueError: Not a score (the message says why).
    """
    if value is None or (isinstance(value, str) and not value.strip()):
        return None, None
    if isinstance(value, bool):
        raise ValueError(f"must be a score, got {json.dumps(value)}")
    if type(value) is int and -MAX_SCORE <= value <= MAX_SCORE:
        return value, None  # the usual case: a whole number
    if isinstance(value, str) and len(value) <= 200:
        digits = value.strip()
        if digits.isascii() and digits.isdigit() and len(digits) < 10:
            return int(digits), None  # the usual case: a whole number as text
    read = False  # the text was read in one of the app's own ways
    if type(value) is int:
        exact = Decimal(value)
    elif isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise ValueError("must be a score")
        exact = Decimal(repr(value))
    elif isinstance(value, str):
        text = value.strip()
        if len(text) <= 200 and _DASHES.fullmatch(text):
            return None, f"score {text!r} read as no score"
        if len(text) > 200:
            raise ValueError(f"must be a score such as 58 or 58+10+4, got {text[:40]!r}")
        plain = text
        if "." not in plain and _DECIMAL_COMMA.search(plain):
            plain = _DECIMAL_COMMA.sub(r"\1.\2", plain)
        plain = _UNFINISHED.sub("", plain)
        if not _SCORE_EXPRESSION.fullmatch(plain):
            raise ValueError(f"must be a score such as 58 or 58+10+4, got {text[:40]!r}")
        read = plain != text
        exact = sum(
            (Decimal(number) * (-1 if sign == "-" else 1) for sign, number in _TERM.findall(plain)),
            Decimal(0),
        )
    else:
        raise ValueError("must be a score such as 58 or 58+10+4")
    points = int(exact.to_integral_value(rounding=ROUND_HALF_UP))
    if abs(points) > MAX_SCORE:
        raise ValueError(f"must be at most {MAX_SCORE} in size")
    if exact != points:
        return points, f"score {value} rounded to {points}"
    return points, f"score {value} read as {points}" if read else None


def seat_without_score(what: str, seat: int, name: str, error: ValueError) -> str:
    """The note of a seat whose score text cannot be read: it is kept without a score."""
    return f"{what}: seat {seat + 1} ({name}): {error}; kept without a score"


def _flag(r: Reader, raw: dict[str, Any], key: str, path: str) -> bool:
    value = raw.get(key, False)
    if value is None:
        return False
    if isinstance(value, bool):
        return value
    if type(value) is int and value in (0, 1):
        return bool(value)
    r.error(f"{path}.{key}", "must be true or false")
    return False


def _what(game: str, raw: dict[str, Any]) -> str:
    """How a message names a BG Stats play: ``the Tokaido play of 2026-10-03``."""
    return f"the {title(game)} play of {str(raw.get('playDate'))[:10]}"


def _bgstats_play(
    r: Reader,
    raw: dict[str, Any],
    path: str,
    game: str,
    book: _Book,
    parsed: Parsed,
    uuids: dict[str, str],
) -> Play | None:
    players, games, locations = book.players, book.games, book.locations
    before = len(r.problems)
    played_at = _local_date(r, raw.get("playDate"), f"{path}.playDate")
    scores = r.array(raw.get("playerScores"), f"{path}.playerScores", min_len=1, max_len=MAX_SEATS)
    seats: list[_Seat] = []
    anonymous_count = 0
    seen: dict[str, str] = {}
    play_notes: list[str] = []
    for k, item in enumerate((scores or [])[:MAX_SEATS]):
        spath = f"{path}.playerScores[{k}]"
        entry = r.obj(item, spath, allow_unknown=True)
        if entry is None:
            continue
        ref = entry.get("playerRefId")
        player = players.get(ref) if is_scalar(ref) else None
        if player is None:
            r.error(f"{spath}.playerRefId", "must name a player listed in players")
            continue
        if player.anonymous:
            anonymous_count += 1
            name = _anonymous_name(player.name, anonymous_count)
            key = f"\0anonymous{anonymous_count}"
        else:
            cleaned = player.person(r)
            if cleaned is None:
                continue
            name, key = cleaned
            if key in seen:
                r.error(
                    f"{spath}.playerRefId",
                    f"{name} is twice in {_what(game, raw)} (also at {seen[key]})",
                )
                continue
            seen[key] = f"playerScores[{k}]"
        score = entry.get("score")
        try:
            total, note = score_value(score)
        except ValueError as error:
            if not isinstance(score, str):
                r.error(f"{spath}.score", str(error))
                continue
            # A text the app wrote that no reading makes a score: this seat has none.
            total, note = None, None
            parsed.note(seat_without_score(_what(game, raw), k, name, error))
        if note:
            play_notes.append(f"{name}: {note}")
        rank = entry.get("rank", 0)
        if rank is None:
            rank = 0
        if type(rank) is not int or not 0 <= rank <= 1000:
            rank = r.integer(rank, f"{spath}.rank", high=1000)
        order = entry.get("seatOrder", 0)
        if order is None:
            order = 0
        if type(order) is not int or not 0 <= order <= 1000:
            order = r.integer(order, f"{spath}.seatOrder", high=1000)
        team = entry.get("team")
        if team is not None and not isinstance(team, str):
            if type(team) is int and 0 <= team <= MAX_REF:
                team = str(team)
            else:
                r.error(f"{spath}.team", "must be a team name")
                continue
        seats.append(
            _Seat(
                k,
                spath,
                name,
                player.anonymous,
                key,
                total,
                rank or None,
                _flag(r, entry, "winner", spath),
                _flag(r, entry, "startPlayer", spath),
                order or 0,
                (team or "").strip(),
                player.uuid,
                entry,
                player.record,
            )
        )
    ignored = _flag(r, raw, "ignored", path)
    status = "final"
    marker = _companion_marker(raw.get("metaData"))
    if marker.get(METADATA_STATUS) == "interim":
        # Our own export of an interim scoring: BG Stats keeps it as ignored.
        status = "interim"
        ignored = marker.get(METADATA_IGNORED) is True
    # BG Stats writes "team": "0" on the seats of ordinary plays: a team is a team only
    # when the play, or its game, says it is played in teams.
    uses_teams = _flag(r, raw, "usesTeams", path) or _game_uses_teams(book, raw.get("gameRefId"))
    expansions = _bg_expansions(
        r, raw.get("expansionPlays"), f"{path}.expansionPlays", games, parsed
    )
    location = ""
    where = raw.get("locationRefId")
    if is_scalar(where) and where in locations:
        location = book.location(r, where) or ""
        _keep_record(parsed, "location", location, locations[where])
    comments = raw.get("comments")
    if comments is not None and not isinstance(comments, str):
        comments = None
    if isinstance(comments, str):
        comments = bounded_text(r, comments, f"{path}.comments", limit=MAX_NOTES)
    duration = raw.get("durationMin")
    if duration is not None and not (type(duration) is int and 0 <= duration <= MAX_DURATION):
        r.error(f"{path}.durationMin", f"must be a whole number of minutes up to {MAX_DURATION}")
    if len(r.problems) > before or not seats or played_at is None:
        return None
    orders = [s.order for s in seats]
    if all(orders) and len(set(orders)) == len(orders):
        seats.sort(key=lambda s: s.order)
    sides, people, wins = _sides(r, seats, uses_teams, lambda: _what(game, raw), play_notes)
    if sides is None:
        return None
    result: dict[str, Any] = {
        "game": game,
        "players": sides,
        "winners": [s["name"] for s, won in zip(sides, wins, strict=True) if won],
        "tiebreak": None,
    }
    if play_notes:
        result["notes"] = play_notes
        what = _what(game, raw)
        for note in play_notes:
            parsed.note(f"{what}: {note}")
    for seat in seats:
        if seat.uuid is not None:
            uuids.setdefault(ANONYMOUS_KEY if seat.anonymous else seat.key, seat.uuid)
        key = ANONYMOUS_KEY if seat.anonymous else seat.key
        _keep_record(parsed, "player", key, seat.record)
    extras = json.dumps(
        {
            "app": APP,
            "play": {k: v for k, v in raw.items() if k != "playerScores"},
            "seats": [seat.raw for seat in seats],
        },
        ensure_ascii=False,
    )
    starts = [k for k, s in enumerate(seats) if s.start]
    ident = raw.get("uuid")
    if not isinstance(ident, str) or not ident.strip() or len(ident) > MAX_UUID:
        ident = str(uuid.uuid5(NAMESPACE, json.dumps(raw, sort_keys=True, default=str)))
    return Play(
        id=0,
        uuid=ident.strip(),
        played_at=played_at,
        game=game,
        score_file=None,
        result=result,
        location=location,
        notes=comments or "",
        duration_min=duration or None,
        source="bgstats",
        start_player=starts[0] if starts else None,
        people=people,
        ignored=ignored,
        expansions=expansions,
        status=status,
        extras=extras,
    )


def _game_uses_teams(book: _Book, ref: object) -> bool:
    """Whether the BG Stats game ``ref`` says its plays are played in teams."""
    entry = book.games.get(ref) if is_scalar(ref) else None
    return entry is not None and entry.get("usesTeams") in (True, 1)


def _companion_marker(value: object) -> dict[str, Any]:
    """What a play's BG Stats ``metaData`` (a JSON text, or an object) says of it in
    our keys; anything else in it, or a ``metaData`` that is not JSON, says nothing."""
    if isinstance(value, str) and METADATA_STATUS in value and len(value) <= 10_000:
        from companion.bounded_json import parse_json

        try:
            value = parse_json(value, max_depth=4)
        except ScoreFileError:
            return {}
    return value if isinstance(value, dict) else {}


def _anonymous_name(listed: object, count: int) -> str:
    try:
        base = clean_name(listed) if isinstance(listed, str) else ANONYMOUS
    except InvalidName:
        base = ANONYMOUS
    return base if count == 1 else f"{base[:36]} {count}"


def _sides(
    r: Reader,
    seats: list[_Seat],
    uses_teams: bool,
    what: Callable[[], str],
    play_notes: list[str],
) -> tuple[list[dict[str, Any]] | None, tuple[Person, ...], list[bool]]:
    """The result's sides, the people (in seat order) pointing at them, and who won.

    Without teams every seat is a side of its own; with teams the seats of one
    team are one side.
    """
    if not uses_teams or not any(s.team for s in seats):
        return _own_sides(r, seats, what)
    groups: dict[str, list[_Seat]] = {}
    for seat in seats:
        label = seat.team if seat.team else f"\0{seat.key}"
        groups.setdefault(label, []).append(seat)
    sides: list[dict[str, Any]] = []
    side_of: dict[str, int] = {}
    names: set[str] = set()
    for label, members in groups.items():
        if label.startswith("\0"):
            name: str | None = members[0].name
        else:
            shown = f"Team {label}" if label.isdigit() else label
            name = checked_name(r, shown, f"{members[0].path}.team", what="team name")
        if name is None:
            return None, (), []
        key = name_key(name)
        if key in names:
            r.error(f"{members[0].path}.team", f"{name!r} names two sides of {what()}")
            return None, (), []
        names.add(key)
        totals = [m.total for m in members if m.total is not None]
        total: int | None = None
        if totals:
            total = totals[0] if len(set(totals)) == 1 else sum(totals)
            if len(set(totals)) > 1:
                play_notes.append(f"{name}: the members' scores were added up to {total}")
        ranks = [m.rank for m in members if m.rank]
        side_of[label] = len(sides)
        sides.append(
            {
                "name": name,
                "total": total,
                "rank": min(ranks) if ranks else None,
                "breakdown": {} if total is None else {IMPORTED_CATEGORY: total},
            }
        )
    people = tuple(
        Person(s.name, side_of[s.team if s.team else f"\0{s.key}"], s.anonymous) for s in seats
    )
    won = [False] * len(sides)
    for seat, person in zip(seats, people, strict=True):
        won[person.side] = won[person.side] or seat.winner
    if not any(side["rank"] for side in sides):
        _derive_ranks(sides, won)
    return sides, people, won


def _own_sides(
    r: Reader, seats: list[_Seat], what: Callable[[], str]
) -> tuple[list[dict[str, Any]] | None, tuple[Person, ...], list[bool]]:
    """Every seat a side of its own (no teams): the usual play, read quickly."""
    sides: list[dict[str, Any]] = []
    names: set[str] = set()
    for seat in seats:
        key = name_key(seat.name) if seat.anonymous else seat.key
        if key in names:
            r.error(f"{seat.path}.team", f"{seat.name!r} names two sides of {what()}")
            return None, (), []
        names.add(key)
        total = seat.total
        sides.append(
            {
                "name": seat.name,
                "total": total,
                "rank": seat.rank,
                "breakdown": {} if total is None else {IMPORTED_CATEGORY: total},
            }
        )
    people = tuple(Person(s.name, k, s.anonymous) for k, s in enumerate(seats))
    won = [s.winner for s in seats]
    if not any(s.rank for s in seats):
        _derive_ranks(sides, won)
    return sides, people, won


def _derive_ranks(sides: list[dict[str, Any]], wins: list[bool]) -> None:
    """Ranks from what is known when BG Stats gives none: winners first, then by score."""
    winners = sum(wins)
    for side, won in zip(sides, wins, strict=True):
        if won:
            side["rank"] = 1
        elif side["total"] is not None:
            above = sum(
                1
                for other, other_won in zip(sides, wins, strict=True)
                if not other_won and other["total"] is not None and other["total"] > side["total"]
            )
            side["rank"] = 1 + winners + above


def _bg_expansions(
    r: Reader,
    value: object,
    path: str,
    games: dict[object, dict[str, Any]],
    parsed: Parsed | None = None,
) -> tuple[Expansion, ...]:
    if value is None:
        return ()
    items = r.array(value, path, max_len=MAX_EXPANSIONS)
    if items is None or len(items) > MAX_EXPANSIONS:
        return ()
    found = []
    for k, item in enumerate(items):
        entry = r.obj(item, f"{path}[{k}]", allow_unknown=True)
        if entry is None:
            continue
        ref = entry.get("gameRefId")
        game = games.get(ref) if is_scalar(ref) else None
        number = _bgg_id(entry.get("bggId"), r, f"{path}[{k}].bggId") or (
            _bgg_id(game.get("bggId")) if game else 0
        )
        name: object = game.get("name") if game else None
        if not isinstance(name, str) or not name.strip():
            if not number:
                continue
            name = f"BoardGameGeek item {number}"
        where = f"{game['_path']}.name" if game else f"{path}[{k}]"
        shown = plain_text(r, name, where, limit=MAX_LOCATION)
        if shown:
            found.append(Expansion(shown, number))
            if parsed is not None and game is not None:
                _keep_record(parsed, "game", f"expansion:{shown}:{number}", game)
    return tuple(found)


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
    for person, side_index, position in people_rows(play):
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


_PLAY_READ = frozenset(
    {
        "uuid",
        "modificationDate",
        "entryDate",
        "playDate",
        "usesTeams",
        "durationMin",
        "ignored",
        "manualWinner",
        "comments",
        "metaData",
    }
)
"""A play's keys that say what we read of it: written back as the app wrote them while
the play is unchanged, from the history once it was changed."""
_PLAY_REFS = frozenset({"gameRefId", "locationRefId", "expansionPlays", "playerScores"})
"""A play's keys that point into the file: always ours (their records are kept apart)."""
_SEAT_READ = frozenset({"score", "winner", "startPlayer", "rank", "seatOrder", "team"})


def _with_kept(
    ours: dict[str, Any],
    record: Mapping[str, Any],
    unchanged: bool,
    read: frozenset[str],
    refs: frozenset[str],
) -> dict[str, Any]:
    """``ours`` with what the app wrote: all of it but its references while unchanged,
    else only what we do not read (so that a change shows)."""
    kept = {k: v for k, v in record.items() if k not in refs and (unchanged or k not in read)}
    return {**ours, **kept}


def to_bgstats(
    plays: Sequence[Play],
    *,
    player_uuids: Mapping[str, str] | None = None,
    kept: Kept | None = None,
) -> str:
    """A BG Stats backup (``.bgsplay``) holding ``plays``.

    A person keeps the uuid BG Stats knows them by (``player_uuids``, by
    :func:`name_key`), so that the app sees the same player again; anyone else
    gets one made from their name, the same in every export. What the app wrote
    that we do not use (``kept``: its own fields of plays, seats, players, games
    and places) is written back: a play unchanged since it came from the app is
    written as the app wrote it (its uuid, dates, score texts, empty ranks...);
    a changed one keeps the app's fields we do not read. Nothing claims a change
    nobody made: a player's ``modificationDate`` is the app's, or the date of
    their last play.
    """
    from companion.history.rows import content_key

    uuids = player_uuids or {}
    records = kept.records if kept is not None else {}
    refs = _Refs()
    game_refs: dict[str, int] = {}
    teams_games: set[str] = set()
    counts: Counter[int] = Counter()
    last_played: dict[int, str] = {}
    documents = []
    now = datetime.now().strftime("%Y-%m-%d %H:%M:%S")
    for play in plays:
        game_refs.setdefault(play.game, refs.game("base", play.game, BGG_IDS.get(play.game, 0)))
        if play.uses_teams:
            teams_games.add(play.game)
        scores = _bgstats_scores(play, refs)
        counts.update(s["playerRefId"] for s in scores)
        date = local_date(play.played_at)
        for entry in scores:
            last_played[entry["playerRefId"]] = max(
                date, last_played.get(entry["playerRefId"], date)
            )
        interim = play.status != FINAL
        own = kept.plays.get(play.id) if kept is not None else None
        unchanged = own is not None and own[0] == content_key(play)
        document: dict[str, Any] = {
            "uuid": play.uuid if play.source == APP else play.uuid.upper(),
            "modificationDate": date if own is None or unchanged else now,
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
        if own is not None:
            record = own[1]
            raw_play = record.get("play", {})
            document = _with_kept(document, raw_play, unchanged, _PLAY_READ, _PLAY_REFS)
            if unchanged and "modificationDate" not in raw_play:
                document["modificationDate"] = date
            raw_expansions = raw_play.get("expansionPlays")
            if isinstance(raw_expansions, list) and len(raw_expansions) == len(
                document["expansionPlays"]
            ):
                document["expansionPlays"] = [
                    {**entry, **ours} if isinstance(entry, dict) else ours
                    for entry, ours in zip(raw_expansions, document["expansionPlays"], strict=True)
                ]
            seats = record.get("seats", [])
            document["playerScores"] = [
                _with_kept(entry, seats[k], unchanged, _SEAT_READ, frozenset({"playerRefId"}))
                if k < len(seats) and isinstance(seats[k], dict)
                else entry
                for k, entry in enumerate(scores)
            ]
        documents.append(document)
    # BG Stats' "me": the person in most of the plays.
    me = max(
        (pid for pid, _, anonymous in refs.players.values() if not anonymous),
        key=lambda pid: (counts[pid], -pid),
        default=0,
    )
    players = []
    for key, (pid, name, anonymous) in refs.players.items():
        ours = {
            "uuid": uuids.get(key)
            or (_uuid("player", ANONYMOUS_KEY) if anonymous else player_uuid(name)),
            "id": pid,
            "name": name,
            "isAnonymous": anonymous,
            "modificationDate": last_played.get(pid, now),
            "bggUsername": "",
        }
        found = records.get("player", {}).get(key)
        players.append(ours if found is None else {**ours, **found, "id": pid})
    locations = []
    for name, lid in refs.locations.items():
        ours = {"uuid": _uuid("location", name), "id": lid, "name": name, "modificationDate": now}
        found = records.get("location", {}).get(name)
        locations.append(ours if found is None else {**ours, **found, "id": lid})
    games = []
    for (kind, name, bgg_id), gid in refs.games.items():
        ours = _bgstats_game(kind, name, bgg_id, gid, now, name in teams_games)
        key = name if kind == "base" else f"expansion:{name}:{bgg_id}"
        found = records.get("game", {}).get(key)
        games.append(ours if found is None else {**ours, **found, "id": gid})
    document = {
        "about": "Board game plays exported by companion, in the shape of a BG Stats backup.",
        "userInfo": {"meRefId": me, "bggUsername": "", "exportDate": now},
        "players": players,
        "locations": locations,
        "games": games,
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
