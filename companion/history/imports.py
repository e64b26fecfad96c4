"""Reading history files: our own json export and BG Stats backups.

A file is read with a size limit, parsed strictly (duplicate keys, nesting and
unpaired surrogates are problems) and checked whole before anything is
written, so a malformed file imports nothing; its problems carry their JSON
paths like score files. What is accepted is bounded and consistent, so that
no later command (list, show, stats, any export) can fail on it:

- names go through :func:`scorers.names.clean_name`; a person appears once
  per play (BG Stats' anonymous player may appear several times);
- dates are real dates, ids are scalars, every number fits its use (and
  SQLite's 64 bits);
- a play of ours with a score file is re-scored by our scorer and must give
  the result stored with it.

BG Stats specifics: scores written as sums (``"58+10+4"``) are added up,
decimals are rounded (with a note), blank scores are *not scored* (kept, never
0), winners are taken as marked and never invented, ``ignored`` plays are
kept out of statistics, expansions are kept, team plays become sides with
their members (a play is a team play only when it, or its game, says it uses
teams: BG Stats writes ``"team": "0"`` on the seats of ordinary plays too),
the anonymous player stays anonymous. A game is matched by its
BoardGameGeek id, and by name only when it has none; plays of other games are
counted and skipped, and never block an import.
"""

from __future__ import annotations

import json
import re
import uuid
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import suppress
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from decimal import ROUND_HALF_UP, Decimal
from typing import TYPE_CHECKING, Any, BinaryIO, NoReturn

from companion.events import DRAFT
from companion.history.exports import (
    ANONYMOUS,
    BGG_IDS,
    JSON_FORMAT,
    METADATA_IGNORED,
    METADATA_STATUS,
    NAMESPACE,
)
from companion.history.import_spool import Spool
from companion.history.model import ANONYMOUS_KEY, Expansion, Person, Play, derive_people
from scorers import SCORERS, Problem, Reader, ScoreFileError, UnknownGameError, find_game, title
from scorers._validate import key_path
from scorers.names import InvalidName, clean_name, name_key

if TYPE_CHECKING:
    from companion.bounded_json import JsonDocument

IMPORTED_CATEGORY = "imported"
MAX_IMPORT_BYTES = 64_000_000
"""Real BG Stats backups run to tens of megabytes (game images are links)."""
MAX_IMPORT_DEPTH = 64
"""BG Stats nests score sheets about 10 levels deep; our own export less."""
MAX_PLAYS = 250_000
MAX_VALUE = 2_000_000
"""The most characters one value of an import file may take: a play (a real one takes a
few kilobytes, one of ours with its score file and a long event log tens), a player, or
a top-level value that is not a list. A longer one is refused before more of it is read,
so that a single value cannot fill memory (parsed, 2 million characters of JSON may take
up to about 60 MB)."""
MAX_LISTED = 20_000
"""At most this many players, games or places in a BG Stats file (a real backup
has tens to a few thousand; 300,000 players would cost seconds and 100+ MB)."""
MAX_SEATS = 30
MAX_SCORE = 1_000_000_000
MAX_DURATION = 100_000
MAX_NOTES = 20_000
MAX_LOCATION = 200
MAX_UUID = 100
MAX_EXPANSIONS = 100
MAX_EVENTS = 100_000
MAX_REF = (1 << 63) - 1
MAX_PROBLEMS = 100
"""At most this many problems are listed; the rest are counted."""
MAX_KEPT_NOTES = 100
"""At most this many notes of an import are kept (the report shows fewer); the rest are
counted."""
_SCORE_EXPRESSION = re.compile(r"[+-]?[0-9]+(\.[0-9]+)?(\s*[+-]\s*[0-9]+(\.[0-9]+)?)*")
_TERM = re.compile(r"([+-]?)\s*([0-9]+(?:\.[0-9]+)?)")
_PADDED_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}( [0-9]{2}:[0-9]{2}(:[0-9]{2})?)?")
BY_BGG_ID = {number: game for game, number in BGG_IDS.items()}


@dataclass
class Parsed:
    """What an import file holds.

    Attributes:
        kind: ``json`` or ``bgstats``.
        plays: The plays to add.
        skipped_games: Plays of games other than ours, by game name.
        events: Event logs of played-along games, by play uuid.
        notes: What was changed on the way in (rounded scores, added-up team
            scores), one line each.
        player_uuids: The uuids BG Stats knows the people of the plays by, by
            :func:`name_key` (``ANONYMOUS_KEY`` for its anonymous player).
        more_notes: How many notes there were past the first
            :data:`MAX_KEPT_NOTES` (those are counted, not kept).
        spool: Where the plays are when a file is read from disk
            (:func:`read_import`): then ``plays`` and ``events`` stay empty,
            and the plays are read back with :meth:`logged`.
    """

    kind: str
    plays: list[Play] = field(default_factory=list)
    skipped_games: dict[str, int] = field(default_factory=dict)
    events: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    player_uuids: dict[str, str] = field(default_factory=dict)
    more_notes: int = 0
    spool: Spool | None = None

    @property
    def count(self) -> int:
        """How many plays there are to add."""
        return self.spool.count if self.spool is not None else len(self.plays)

    @property
    def has_events(self) -> bool:
        """Whether any play has an event log (a played-along game)."""
        return bool(self.spool.logged) if self.spool is not None else bool(self.events)

    def logged(self) -> Iterator[tuple[Play, list[dict[str, Any]] | None]]:
        """The plays, in the file's order, each with its event log (``None`` when it has
        none); from the spool one batch at a time, so that memory stays small."""
        if self.spool is not None:
            yield from self.spool
            return
        events = self.events
        for play in self.plays:
            yield play, events.get(play.uuid)

    def keep(
        self, play: Play, log: list[dict[str, Any]] | None = None, place: object = None
    ) -> None:
        """Add ``play`` (with its event log, and its BG Stats location id when the
        locations are read after the plays) to the plays to add."""
        if self.spool is not None:
            self.spool.append(play, log, place)
            return
        self.plays.append(play)
        if log:
            self.events[play.uuid] = log

    def note(self, text: str) -> None:
        """Add a note (past :data:`MAX_KEPT_NOTES`, it is only counted)."""
        if len(self.notes) < MAX_KEPT_NOTES:
            self.notes.append(text)
        else:
            self.more_notes += 1

    @property
    def note_count(self) -> int:
        """How many notes there were, kept or counted."""
        return len(self.notes) + self.more_notes

    def clear(self) -> None:
        """Forget the plays (the file was refused)."""
        self.plays.clear()
        self.events.clear()
        if self.spool is not None:
            self.spool.clear()

    def close(self) -> None:
        """Let go of the temporary file of the plays, if there is one."""
        if self.spool is not None:
            self.spool.close()


def not_scored(plays: list[Play]) -> int:
    """How many sides of ``plays`` have no score."""
    return sum(1 for play in plays for side in play.result["players"] if side["total"] is None)


def read_import(source: str, handle: BinaryIO | None = None) -> Parsed:
    """Read an import file (a path, or ``-`` for standard input) with the size limit.

    The file is read as it is checked, and the plays checked are kept in a
    temporary file until they are added (:class:`~companion.history.import_spool.Spool`),
    so that memory stays small whatever the size of the file (see :func:`_read`).
    The caller reads them with :meth:`Parsed.logged` and lets go of them with
    :meth:`Parsed.close`.

    Args:
        source: The path, or ``-``; when ``handle`` is given, how messages name it.
        handle: The file, open already (a temporary copy of standard input): it is
            closed once read.

    Raises:
        InputError: The file cannot be read, is too large or is not UTF-8.
        ScoreFileError: It is not an import file, or is malformed.
    """
    from companion.bounded_json import JsonDocument

    if handle is not None:
        opened = JsonDocument.of_handle(
            source,
            handle,
            limit=MAX_IMPORT_BYTES,
            max_depth=MAX_IMPORT_DEPTH,
            max_value=MAX_VALUE,
        )
    else:
        opened = JsonDocument.open(
            source, limit=MAX_IMPORT_BYTES, max_depth=MAX_IMPORT_DEPTH, max_value=MAX_VALUE
        )
    with opened as doc:
        return _read(doc, spooled=True)


def parse(text: str) -> Parsed:
    """Read the text of an import file.

    Raises:
        ScoreFileError: The file is not JSON, not a known format, or
            malformed; every problem has its path (at most
            :data:`MAX_PROBLEMS` are listed, then how many more there are).
    """
    from companion.bounded_json import JsonDocument

    return _read(JsonDocument.of_text(text, max_depth=MAX_IMPORT_DEPTH))


NEITHER = "neither a companion json export nor a BG Stats export (players, games, plays)"
MAX_CHECKED_PROBLEMS = 1000
"""Past this many problems a file is hopeless: reading stops there, and the answer says so."""
COUNT_AFTER = 100
"""After this many plays without a problem, the rest are counted before they are checked
(then the file is read again, and checked on from there), so that too many good plays are
refused as quickly as bad ones."""


class _Stop(Exception):
    """Reading stops before the end of the file; ``r`` has the problems.

    ``why`` says why it stopped early (``None`` when the problem says it: too many plays).
    """

    def __init__(self, r: Reader, why: str | None = None) -> None:
        super().__init__(why)
        self.r = r
        self.why = why


def _read(doc: JsonDocument, *, spooled: bool = False) -> Parsed:
    """Read and check an import file as it is read.

    The top-level object is read member by member, and its ``plays`` one by
    one, each checked as it comes when what it needs is known by then
    (``format`` and ``version`` for our export; ``players`` and ``games`` for
    BG Stats, whose backups list their keys in alphabetical order). So a file
    is never held whole in memory, and reading stops at the first play past
    :data:`MAX_PLAYS` or once :data:`MAX_CHECKED_PROBLEMS` problems make the
    file hopeless. After :data:`COUNT_AFTER` good plays, or when the plays
    come before what they need, the rest of them are only counted (quickly,
    unchecked), and the file is read a second time to check them (those
    checked already are read past). Duplicate
    keys, too deep nesting and unpaired surrogates are problems of their
    own, listed alone (as :func:`~companion.bounded_json.parse_json` does); text
    that is not JSON is one problem.

    Args:
        doc: The document.
        spooled: Keep the plays in a temporary file rather than in memory
            (:attr:`Parsed.spool`); they are let go of when the file is refused.

    Raises:
        ScoreFileError: As :func:`parse`.
    """
    r = Reader()
    stopped: _Stop | None = None
    plays: _Plays | None = None
    try:
        try:
            data, plays = _document(doc, r, None, spooled=spooled)
            kind = _kind(data)
            if kind is None:
                raise ScoreFileError.single("$", NEITHER)
            if isinstance(data, dict) and plays and (plays.again or plays.parsed.kind != kind):
                doc.restart()
                if plays.parsed.kind != kind:  # not checked yet (or not as what the file is)
                    plays.parsed.close()
                    r, plays = Reader(), None
                _, plays = _document(doc, r, data, plays, spooled=spooled)
        except _Stop as stop:
            stopped = stop
            doc.raise_problems()
            stop.r.raise_if_problems()  # a stop always follows a problem: this raises
            raise AssertionError("stopped without a problem") from stop
        assert isinstance(data, dict)  # (else it has no kind)
        if plays:
            parsed = plays.finish(r, data)
        elif kind == "json":
            parsed = _parse_ours(r, data)
        else:
            parsed = _parse_bgstats(r, data)
        r.raise_if_problems()
    except ScoreFileError as error:
        if plays is not None:
            plays.parsed.close()
        problems = list(error.problems)
        endings = []
        if len(problems) > MAX_PROBLEMS:
            endings.append(f"... and {len(problems) - MAX_PROBLEMS} more problems")
            del problems[MAX_PROBLEMS:]
        if stopped is not None and stopped.why:
            endings.append(stopped.why)
        if endings:
            raise ScoreFileError([*problems, Problem("$", "; ".join(endings))]) from error
        raise
    return parsed


def _kind(data: object) -> str | None:
    """``json`` (our export), ``bgstats`` or ``None`` (neither), by the top-level keys."""
    if isinstance(data, dict) and data.get("format") == JSON_FORMAT:
        return "json"
    if isinstance(data, dict) and {"players", "games", "plays"} <= data.keys():
        return "bgstats"
    return None


def _document(
    doc: JsonDocument,
    r: Reader,
    known: dict[str, Any] | None,
    plays: _Plays | None = None,
    *,
    spooled: bool = False,
) -> tuple[object, _Plays | None]:
    """The top-level value, and its plays when they were read one by one (else ``None``).

    Args:
        doc: The document, at its beginning.
        r: Where the plays' problems go.
        known: The top-level values (all but the plays) when the document is
            read a second time: its plays are then checked with them.
        plays: When the document is read a second time, the plays as far as
            they were checked the first time (they are checked on from there).
        spooled: Keep the plays in a temporary file (see :func:`_read`).

    Raises:
        ScoreFileError: The text is not JSON, or has duplicate keys, too deep
            nesting or unpaired surrogates.
        _Stop: Reading stopped early (the reason is in ``r``'s problems).
    """
    from companion.bounded_json import MAX_FILE_BYTES, parse_json

    if doc.peek() != "{":  # not an import file: only a small one is read, to say what it is
        text = doc.rest(MAX_FILE_BYTES)
        if text is None:
            raise ScoreFileError.single("$", NEITHER)
        return parse_json(text, max_depth=MAX_IMPORT_DEPTH), None
    data: dict[str, Any] = {}
    for key in doc.members():
        if key == "plays" and key not in data and doc.peek() == "[":
            if plays is None:
                plays = _Plays.of(
                    r, data if known is None else known, again=known is not None, spooled=spooled
                )
            data[key] = []  # (read one by one)
            plays.read(doc, count_after=None if known else COUNT_AFTER)
            continue
        path = key_path("$", key)
        if doc.peek() == "[" and (key in data or key not in _READ):
            # A list the import does not read (BG Stats' tags, groups...), or a key given
            # twice (a problem already): each item is checked as it is read, none is kept.
            deque(doc.items(path, 1), maxlen=0)  # (no item is held while the next is read)
            data.setdefault(key, [])
            continue
        data[key] = _items(doc, r, key, path) if doc.peek() == "[" else doc.value(path, 1)
    doc.end()
    return data, plays


_READ = frozenset({"format", "version", "players", "games", "locations", "plays"})
"""The top-level keys an import reads the values of (the others only need to be JSON)."""


def _items(doc: JsonDocument, r: Reader, key: str, path: str) -> list[object]:
    """A top-level list, read item by item (each is read once, in little memory).

    Raises:
        _Stop: At the first item past :data:`MAX_LISTED` of a list the import reads
            (players, games, locations).
    """
    found: list[object] = []
    used = _USED_KEYS.get(key)
    for item in doc.items(path, 1):
        if used is not None and len(found) == MAX_LISTED:
            r.error(path, f"must have at most {MAX_LISTED} entries, got more")
            raise _Stop(r)
        found.append(item if used is None else _trimmed(item, used))
        del item  # (not held while the next one is read)
    return found


_USED_KEYS = {
    "players": frozenset({"id", "name", "uuid", "isAnonymous", "anonymous"}),
    "games": frozenset({"id", "name", "bggId", "usesTeams"}),
    "locations": frozenset({"id", "name"}),
}
"""The keys of the entries of each list of players, games and places that an import reads
(BG Stats' and our export's)."""


def _trimmed(item: object, used: frozenset[str]) -> object:
    """An entry of a list of players, games or places with only what an import reads of it.

    The values of the other keys (a BG Stats backup has plenty: images, designers, its
    own metadata) are dropped and their keys kept (our export allows none: each is a
    problem); a list or an object where a value is read becomes an empty one (it is
    refused for what it is, whatever it holds). So the entries kept until the plays are
    read stay small.
    """
    if not isinstance(item, dict):
        return [] if isinstance(item, list) else item
    return {key: (_hollow(value) if key in used else None) for key, value in item.items()}


def _hollow(value: object) -> object:
    """An empty list or object for a list or an object; any other value as it is."""
    if isinstance(value, list):
        return []
    return {} if isinstance(value, dict) else value


class _Plays:
    """The plays of a file, read and checked one by one as they are read."""

    def __init__(
        self,
        r: Reader,
        parsed: Parsed,
        check: Callable[[int, object], None] | None,
        done: Callable[[dict[str, Any]], Parsed] | None = None,
    ) -> None:
        self.r = r
        self.parsed = parsed
        self.check = check
        """Checks one play; ``None`` when they are only counted: the file is
        refused already, or what they need comes after them."""
        self.done = done
        """Finishes a BG Stats file once the rest of it is read."""
        self.again = False
        """The plays were counted, not all checked: the file must be read again."""
        self.checked = 0
        """How many plays were checked (the first time the file was read)."""

    @classmethod
    def of(cls, r: Reader, data: dict[str, Any], *, again: bool, spooled: bool = False) -> _Plays:
        """The reader of the plays of the file begun with ``data`` (the whole file
        but its plays when it is read ``again``); ``spooled``: the plays are kept
        in a temporary file."""
        spool = Spool() if spooled else None
        if data.get("format") == JSON_FORMAT and ("version" in data or again):
            ours = _OurPlays(data.get("version"), parsed=Parsed("json", spool=spool))
            return cls(ours.r, ours.parsed, ours.play if ours.valid else None)
        if {"players", "games"} <= data.keys() and (again or data.get("format") != JSON_FORMAT):
            bgstats = _BgStats(r, data, Parsed("bgstats", spool=spool))
            return cls(r, bgstats.parsed, None if r.problems else bgstats.play, bgstats.finish)
        plays = cls(r, Parsed("later"), None)
        plays.again = True  # what the plays need is not known yet
        return plays

    def read(self, doc: JsonDocument, *, count_after: int | None) -> None:
        """Read the plays from ``doc``, checking each.

        Args:
            doc: The document, at the plays.
            count_after: After this many good plays, count the rest and ask
                for the file to be read again (``None``: check them all).

        Raises:
            _Stop: At the first play past :data:`MAX_PLAYS`, or once there
                are more than :data:`MAX_CHECKED_PROBLEMS` problems.
        """
        r, check = self.r, self.check
        before = len(r.problems)
        if check is None:
            if doc.count_items("plays", MAX_PLAYS, begun=False) > MAX_PLAYS:
                self._too_many(before)
            return
        good, start, noted, quiet = 0, self.checked, 0, 0
        for k, item in enumerate(doc.items("plays", 1, skip=start), start=start):
            if k == MAX_PLAYS:
                self._too_many(before)
            if doc.problems:  # refused: read on only while more such problems come
                quiet = 0 if len(doc.problems) > noted else quiet + 1
                noted = len(doc.problems)
                if quiet == COUNT_AFTER:
                    raise _Stop(r, f"reading stopped at plays[{k}], the rest were not read")
                del item
                continue
            found = len(r.problems)
            check(k, item)
            del item  # (not held while the next one is read)
            if len(r.problems) > MAX_CHECKED_PROBLEMS:
                raise _Stop(r, f"reading stopped at plays[{k}], too many problems to read on")
            if len(r.problems) == found:
                good += 1
                if good == count_after:
                    if k + 1 + doc.count_items("plays", MAX_PLAYS - k - 1, begun=True) > MAX_PLAYS:
                        self._too_many(before)
                    self.again, self.checked = True, k + 1
                    return

    def _too_many(self, before: int) -> NoReturn:
        """Refuse the plays: more than :data:`MAX_PLAYS` (as for a list read whole, their
        problems are not listed)."""
        del self.r.problems[before:]
        self.parsed.clear()
        self.r.error("plays", f"must have at most {MAX_PLAYS} entries, got more")
        raise _Stop(self.r)

    def finish(self, r: Reader, data: dict[str, Any]) -> Parsed:
        """What the file holds, once the rest of it has been read and checked."""
        if self.done is not None:
            return self.done(data)
        found = _parse_ours(r, data)
        r.problems += self.r.problems  # (after the whole-file problems, as when read whole)
        found.plays, found.events = self.parsed.plays, self.parsed.events
        found.spool = self.parsed.spool
        return found


# ---------------------------------------------------------------- shared checks


def _bounded_text(
    r: Reader, value: object, path: str, *, limit: int, empty: bool = True
) -> str | None:
    """A text of at most ``limit`` characters (``empty``: may be empty)."""
    if not isinstance(value, str):
        r.error(path, "must be a text")
        return None
    if len(value) > limit:
        r.error(path, f"is {len(value)} characters long (at most {limit})")
        return None
    if not empty and not value.strip():
        r.error(path, "must not be empty")
        return None
    return value


def _plain_text(r: Reader, value: object, path: str, *, limit: int) -> str | None:
    """A one-line text (a location, an expansion): no control characters."""
    text = _bounded_text(r, value, path, limit=limit)
    if text is None:
        return None
    if any(ord(c) < 32 or 0x7F <= ord(c) < 0xA0 for c in text):
        r.error(path, "must not contain control characters")
        return None
    return " ".join(text.split())


def _name(r: Reader, value: object, path: str, *, what: str = "name") -> str | None:
    """A name through the one name rule."""
    if not isinstance(value, str):
        r.error(path, "must be a text")
        return None
    try:
        return clean_name(value, what=what)
    except InvalidName as error:
        r.error(path, str(error))
        return None


def _whole(r: Reader, value: object, path: str, *, low: int, high: int) -> int | None:
    return r.integer(value, path, low=low, high=high)


def _is_scalar(value: object) -> bool:
    return (type(value) is int and -MAX_REF <= value <= MAX_REF) or isinstance(value, str)


# ---------------------------------------------------------------- our json export


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


def _parse_ours(r: Reader, data: dict[str, Any]) -> Parsed:
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
    plays = _OurPlays(version, r, parsed)
    for k, item in enumerate(items):
        plays.play(k, item)
    return parsed


class _OurPlays:
    """Checks the plays of our export one by one."""

    def __init__(self, version: object, r: Reader | None = None, parsed: Parsed | None = None):
        self.valid = version in (1, 2) and type(version) is int
        self.version = version if type(version) is int else 0
        self.r = r or Reader()
        self.parsed = parsed or Parsed("json")

    def play(self, k: int, item: object) -> None:
        """Check play ``k``; keep it when it has no problem."""
        path = f"plays[{k}]"
        play = _read_play(self.r, item, path, self.version)
        if play is not None:
            log = _read_events(self.r, item, f"{path}.events")
            if not self.r.problems:  # (a file with a problem adds nothing: none are kept)
                self.parsed.keep(play, log)


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
        name = _name(r, entry["name"], f"{path}[{k}].name")
        ident = _uuid_of(entry["uuid"])
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
        key = _bounded_text(r, event["key"], f"{path}[{k}].key", limit=200, empty=False)
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


def _read_play(r: Reader, value: object, path: str, version: int) -> Play | None:
    raw = r.obj(
        value, path, required=PLAY_KEYS if version == 1 else PLAY_KEYS_V2, optional=("status",)
    )
    if raw is None:
        return None
    before = len(r.problems)
    play_id = r.field(raw, path, "id", lambda v, p: r.integer(v, p, low=1, high=MAX_REF))
    ident = r.field(
        raw, path, "uuid", lambda v, p: _bounded_text(r, v, p, limit=MAX_UUID, empty=False)
    )
    played_at = r.field(raw, path, "played_at", lambda v, p: _iso_time(r, v, p))
    game = r.field(raw, path, "game", lambda v, p: r.choice(v, p, tuple(SCORERS), what="game"))
    location = r.field(raw, path, "location", lambda v, p: _plain_text(r, v, p, limit=MAX_LOCATION))
    notes = r.field(raw, path, "notes", lambda v, p: _bounded_text(r, v, p, limit=MAX_NOTES))
    source = r.field(raw, path, "source", lambda v, p: _plain_text(r, v, p, limit=40))
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
    if result is not None and isinstance(score_file, str) and game is not None:
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
        name = _plain_text(r, entry["name"], f"{path}[{k}].name", limit=MAX_LOCATION)
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
        name = _name(r, entry["name"], f"{path}[{k}].name")
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
        name = _name(r, seat["name"], f"{spath}.name")
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
        tiebreak = _plain_text(r, tiebreak, f"{path}.tiebreak", limit=200)
    notes = raw.get("notes", [])
    notes_list = r.array(notes, f"{path}.notes", max_len=50) or []
    for k, note in enumerate(notes_list[:50]):
        _bounded_text(r, note, f"{path}.notes[{k}]", limit=1000)
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


# ---------------------------------------------------------------- BG Stats


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

    def person(self, r: Reader) -> tuple[str, str] | None:
        """``(name, key)`` by the name rule; a problem at the player's name (once)."""
        if self.cleaned is None and not self.refused:
            name = _name(r, self.name, f"{self.path}.name")
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
            found = _plain_text(
                r, place.get("name", ""), f"{place['_path']}.name", limit=MAX_LOCATION
            )
            if found is None:
                self.refused.add(ref)
                return None
            self.location_names[ref] = found
        return self.location_names[ref]


def _parse_bgstats(r: Reader, data: dict[str, Any]) -> Parsed:
    bgstats = _BgStats(r, data)
    plays = r.array(data["plays"], "plays", max_len=MAX_PLAYS)
    if r.problems or plays is None or len(plays) > MAX_PLAYS:
        return bgstats.parsed
    for k, item in enumerate(plays):
        bgstats.play(k, item)
    return bgstats.parsed


class _BgStats:
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
            return parsed
        plays = parsed.plays
        for index, ref in self.places:
            if ref in book.locations:
                plays[index] = replace(plays[index], location=book.location(r, ref) or "")
        return parsed

    def play(self, k: int, item: object) -> None:
        """Check play ``k``; keep it when it has no problem and is of one of our games."""
        r, parsed, games, ours, book = self.r, self.parsed, self.games, self.ours, self.book
        path = f"plays[{k}]"
        raw = r.obj(item, path, allow_unknown=True)
        if raw is None:
            return
        ref = raw.get("gameRefId")
        entry = games.get(ref) if _is_scalar(ref) else None
        if entry is None:
            if not _is_scalar(ref):
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
        place = None
        if self.places_later and _is_scalar(raw.get("locationRefId")):
            place = raw["locationRefId"]
            self.place_refs.setdefault(place)
            if parsed.spool is None:
                self.places.append((len(parsed.plays), place))
        parsed.keep(play, place=place)


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
        if not _is_scalar(ident):
            r.error(f"{path}.id", "must be a number or a text")
            continue
        if ident in found:
            r.error(f"{path}.id", f"{ident!r} is already the id of {found[ident].path}")
            continue
        anonymous = entry.get("isAnonymous") is True
        found[ident] = _Player(entry.get("name"), anonymous, path, _uuid_of(entry.get("uuid")))
    return found


def _uuid_of(value: object) -> str | None:
    """A player's uuid as BG Stats wrote it, or ``None`` when it is not a plain short text
    (then it is not kept: an export makes one)."""
    if not isinstance(value, str) or len(value) > MAX_UUID:
        return None
    text = value.strip()
    return text if text and text.isprintable() and " " not in text else None


def _bg_refs(r: Reader, value: object, what: str) -> dict[object, dict[str, Any]]:
    items = r.array(value, what, max_len=MAX_PLAYS)
    found: dict[object, dict[str, Any]] = {}
    if items is None or len(items) > MAX_PLAYS:
        return found
    for k, item in enumerate(items):
        entry = r.obj(item, f"{what}[{k}]", required=("id",), allow_unknown=True)
        if entry is None or "id" not in entry:
            continue
        if not _is_scalar(entry["id"]):
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

    Sums and differences of numbers (``"58+10+4"``) are added up; a decimal is
    rounded half up, and the note says so.

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
    if type(value) is int:
        exact = Decimal(value)
    elif isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise ValueError("must be a score")
        exact = Decimal(repr(value))
    elif isinstance(value, str):
        text = value.strip()
        if len(text) > 200 or not _SCORE_EXPRESSION.fullmatch(text):
            raise ValueError(f"must be a score such as 58 or 58+10+4, got {text[:40]!r}")
        exact = sum(
            (Decimal(number) * (-1 if sign == "-" else 1) for sign, number in _TERM.findall(text)),
            Decimal(0),
        )
    else:
        raise ValueError("must be a score such as 58 or 58+10+4")
    points = int(exact.to_integral_value(rounding=ROUND_HALF_UP))
    if abs(points) > MAX_SCORE:
        raise ValueError(f"must be at most {MAX_SCORE} in size")
    note = None if exact == points else f"score {value} rounded to {points}"
    return points, note


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
        player = players.get(ref) if _is_scalar(ref) else None
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
        try:
            total, note = score_value(entry.get("score"))
        except ValueError as error:
            r.error(f"{spath}.score", str(error))
            continue
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
    expansions = _bg_expansions(r, raw.get("expansionPlays"), f"{path}.expansionPlays", games)
    location = ""
    where = raw.get("locationRefId")
    if _is_scalar(where) and where in locations:
        location = book.location(r, where) or ""
    comments = raw.get("comments")
    if comments is not None and not isinstance(comments, str):
        comments = None
    if isinstance(comments, str):
        comments = _bounded_text(r, comments, f"{path}.comments", limit=MAX_NOTES)
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
    )


def _game_uses_teams(book: _Book, ref: object) -> bool:
    """Whether the BG Stats game ``ref`` says its plays are played in teams."""
    entry = book.games.get(ref) if _is_scalar(ref) else None
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
            name = _name(r, shown, f"{members[0].path}.team", what="team name")
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
    r: Reader, value: object, path: str, games: dict[object, dict[str, Any]]
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
        game = games.get(ref) if _is_scalar(ref) else None
        number = _bgg_id(entry.get("bggId"), r, f"{path}[{k}].bggId") or (
            _bgg_id(game.get("bggId")) if game else 0
        )
        name: object = game.get("name") if game else None
        if not isinstance(name, str) or not name.strip():
            if not number:
                continue
            name = f"BoardGameGeek item {number}"
        where = f"{game['_path']}.name" if game else f"{path}[{k}]"
        shown = _plain_text(r, name, where, limit=MAX_LOCATION)
        if shown:
            found.append(Expansion(shown, number))
    return tuple(found)


def read_entry(item: object, path: str = "play") -> tuple[Play, list[dict[str, Any]]]:
    """One play of our json export (:func:`~companion.history.exports.play_entry`),
    checked exactly as an import checks it: the play and its event log.

    Raises:
        ScoreFileError: Every problem of the entry, with its JSON path.
    """
    r = Reader()
    parsed = Parsed("json")
    _OurPlays(2, r, parsed).play(0, item)
    if r.problems or not parsed.plays:
        raise ScoreFileError(
            [Problem(p.path.replace("plays[0]", path, 1), p.message) for p in r.problems]
            or [Problem(path, "is not a play")]
        )
    play = parsed.plays[0]
    return play, parsed.events.get(play.uuid, [])
