"""What the readers of history files share: limits, bounded reading, what a file holds.

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

A JSON file is read as a :class:`~companion.bounded_json.JsonDocument`, member by
member and its plays one by one (:func:`read_document`, :class:`Plays`); the plays
checked are kept in a temporary file until they are added
(:class:`~companion.history.import_spool.Spool`). Standard input is first copied into
a temporary file of its own (:func:`stdin_copy`), and XML read piece by piece
(:func:`pieces`), so that memory stays small whatever the size of the file.
"""

from __future__ import annotations

import codecs
import json
import os
import stat
import sys
import tempfile
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, BinaryIO, NoReturn

from companion.bounded_json import FileTooLarge, NotText, size_words
from companion.history.import_spool import Spool
from companion.history.model import Play
from scorers import Reader, ScoreFileError
from scorers._validate import key_path
from scorers.names import InvalidName, clean_name

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
            (:func:`~companion.history.formats.dispatch.read_import`): then
            ``plays`` and ``events`` stay empty, and the plays are read back
            with :meth:`logged`.
    """

    kind: str
    plays: list[Play] = field(default_factory=list)
    skipped_games: dict[str, int] = field(default_factory=dict)
    events: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    player_uuids: dict[str, str] = field(default_factory=dict)
    records: dict[tuple[str, str, str], str] = field(default_factory=dict)
    """Another app's records of its players, games and places (JSON), by ``(app,
    kind, key)``, kept for an export back to it (see ``History.kept``)."""
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


NEITHER = "neither a companion json export nor a BG Stats export (players, games, plays)"
MAX_CHECKED_PROBLEMS = 1000
"""Past this many problems a file is hopeless: reading stops there, and the answer says so."""
COUNT_AFTER = 100
"""After this many plays without a problem, the rest are counted before they are checked
(then the file is read again, and checked on from there), so that too many good plays are
refused as quickly as bad ones."""


ACCEPTED = (
    "history import reads the companion's json export, a BG Stats backup (.bgsplay) "
    "or BoardGameGeek's play XML (its XML API2 plays, or our bgg-xml export)"
)


class Stop(Exception):
    """Reading stops before the end of the file; ``r`` has the problems.

    ``why`` says why it stopped early (``None`` when the problem says it: too many plays).
    """

    def __init__(self, r: Reader, why: str | None = None) -> None:
        super().__init__(why)
        self.r = r
        self.why = why


def read_document(
    doc: JsonDocument,
    r: Reader,
    known: dict[str, Any] | None,
    plays: Plays | None = None,
    *,
    plays_of: Callable[[Reader, dict[str, Any], bool], Plays],
) -> tuple[object, Plays | None]:
    """The top-level value, and its plays when they were read one by one (else ``None``).

    Args:
        doc: The document, at its beginning.
        r: Where the plays' problems go.
        known: The top-level values (all but the plays) when the document is
            read a second time: its plays are then checked with them.
        plays: When the document is read a second time, the plays as far as
            they were checked the first time (they are checked on from there).
        plays_of: The reader of the plays of a file begun with the values given
            (the whole file but its plays when it is read again: the last
            argument), by the file's format
            (:func:`~companion.history.formats.dispatch.plays_of`).

    Raises:
        ScoreFileError: The text is not JSON, or has duplicate keys, too deep
            nesting or unpaired surrogates.
        Stop: Reading stopped early (the reason is in ``r``'s problems).
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
                plays = plays_of(r, data if known is None else known, known is not None)
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
        Stop: At the first item past :data:`MAX_LISTED` of a list the import reads
            (players, games, locations).
    """
    found: list[object] = []
    used = _USED_KEYS.get(key)
    room = [MAX_KEPT_RECORDS]  # what may still be kept whole of this list
    for item in doc.items(path, 1):
        if used is not None and len(found) == MAX_LISTED:
            r.error(path, f"must have at most {MAX_LISTED} entries, got more")
            raise Stop(r)
        found.append(item if used is None else _trimmed(item, used, room))
        del item  # (not held while the next one is read)
    return found


_USED_KEYS = {
    "players": frozenset({"id", "name", "uuid", "isAnonymous", "anonymous"}),
    "games": frozenset({"id", "name", "bggId", "usesTeams"}),
    "locations": frozenset({"id", "name"}),
}
"""The keys of the entries of each list of players, games and places that an import reads
(BG Stats' and our export's)."""


MAX_KEPT_RECORD = 8192
"""An entry of a list of players, games or places at most this long (as JSON) is kept
whole, for an export back to the app; a longer one keeps only what is read."""
MAX_KEPT_RECORDS = 4 << 20
"""At most this much (as JSON) of one list of players, games or places is kept whole
(a real backup's games take a megabyte or two): so memory stays small."""


def _trimmed(item: object, used: frozenset[str], room: list[int] | None = None) -> object:
    """An entry of a list of players, games or places with only what an import reads of
    it, unless it is small (:data:`MAX_KEPT_RECORD`): then all of it.

    The values of the other keys (a BG Stats backup has plenty: images, designers, its
    own metadata) are dropped and their keys kept (our export allows none: each is a
    problem); a list or an object where a value is read becomes an empty one (it is
    refused for what it is, whatever it holds). So the entries kept until the plays are
    read stay small.
    """
    if not isinstance(item, dict):
        return [] if isinstance(item, list) else item
    size = len(json.dumps(item, ensure_ascii=False, default=str))
    if size <= MAX_KEPT_RECORD and room is not None and size <= room[0]:
        # Small enough to keep whole: an export back to the app writes it again.
        room[0] -= size
        return {key: (_hollow(value) if key in used else value) for key, value in item.items()}
    return {key: (_hollow(value) if key in used else None) for key, value in item.items()}


def _hollow(value: object) -> object:
    """An empty list or object for a list or an object; any other value as it is."""
    if isinstance(value, list):
        return []
    return {} if isinstance(value, dict) else value


class Plays:
    """The plays of a file, read and checked one by one as they are read."""

    def __init__(
        self,
        r: Reader,
        parsed: Parsed,
        check: Callable[[int, object], None] | None,
        done: Callable[[Reader, dict[str, Any]], Parsed] | None = None,
    ) -> None:
        self.r = r
        self.parsed = parsed
        self.check = check
        """Checks one play; ``None`` when they are only counted: the file is
        refused already, or what they need comes after them."""
        self.done = done
        """Finishes the file once the rest of it is read (with the reader of its
        whole-file problems and its top-level values)."""
        self.again = False
        """The plays were counted, not all checked: the file must be read again."""
        self.checked = 0
        """How many plays were checked (the first time the file was read)."""

    def read(self, doc: JsonDocument, *, count_after: int | None) -> None:
        """Read the plays from ``doc``, checking each.

        Args:
            doc: The document, at the plays.
            count_after: After this many good plays, count the rest and ask
                for the file to be read again (``None``: check them all).

        Raises:
            Stop: At the first play past :data:`MAX_PLAYS`, or once there
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
                    raise Stop(r, f"reading stopped at plays[{k}], the rest were not read")
                del item
                continue
            found = len(r.problems)
            check(k, item)
            del item  # (not held while the next one is read)
            if len(r.problems) > MAX_CHECKED_PROBLEMS:
                raise Stop(r, f"reading stopped at plays[{k}], too many problems to read on")
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
        raise Stop(self.r)

    def finish(self, r: Reader, data: dict[str, Any]) -> Parsed:
        """What the file holds, once the rest of it has been read and checked."""
        assert self.done is not None  # (the plays of a file of a known format)
        return self.done(r, data)


def bounded_text(
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


def plain_text(r: Reader, value: object, path: str, *, limit: int) -> str | None:
    """A one-line text (a location, an expansion): control characters left out."""
    text = bounded_text(r, value, path, limit=limit)
    if text is None:
        return None
    from companion.history.user_text import clean_text

    return clean_text(text, lines=False)  # (a control character is left out)


def checked_name(r: Reader, value: object, path: str, *, what: str = "name") -> str | None:
    """A name through the one name rule."""
    if not isinstance(value, str):
        r.error(path, "must be a text")
        return None
    try:
        return clean_name(value, what=what)
    except InvalidName as error:
        r.error(path, str(error))
        return None


def is_scalar(value: object) -> bool:
    return (type(value) is int and -MAX_REF <= value <= MAX_REF) or isinstance(value, str)


def uuid_of(value: object) -> str | None:
    """A player's uuid as BG Stats wrote it, or ``None`` when it is not a plain short text
    (then it is not kept: an export makes one)."""
    if not isinstance(value, str) or len(value) > MAX_UUID:
        return None
    text = value.strip()
    return text if text and text.isprintable() and " " not in text else None


CHUNK = 1 << 16


STDIN = "standard input"
"""How messages name standard input."""


def check_text(handle: BinaryIO) -> None:
    """Check that the copy of standard input is UTF-8 text, then go back to its start.

    Raises:
        NotText: It is not UTF-8, or holds a NUL byte.
    """
    handle.seek(0)
    decoder = codecs.getincrementaldecoder("utf-8")()
    nul = False
    try:
        while chunk := handle.read(CHUNK):
            decoder.decode(chunk)
            nul = nul or b"\0" in chunk
        decoder.decode(b"", True)
    except UnicodeDecodeError as error:
        raise NotText(f"{STDIN} is not UTF-8 text") from error
    if nul:
        raise NotText(f"{STDIN} is not text (it holds a NUL byte)")
    handle.seek(0)


def stdin_copy() -> BinaryIO:
    """Standard input copied into an anonymous temporary file (gone when it is closed,
    or the process ends), at its start: read again as a file is, piece by piece.

    Raises:
        FileTooLarge: More than :data:`MAX_IMPORT_BYTES` came (no more is read).
    """
    copy = tempfile.TemporaryFile(prefix="companion-import-")  # noqa: SIM115 (the caller's)
    try:
        for chunk in pieces(sys.stdin.buffer, STDIN):
            copy.write(chunk)
    except BaseException:
        copy.close()
        raise
    copy.seek(0)
    return copy


def _too_large(source: str) -> FileTooLarge:
    return FileTooLarge(
        f"{source} is larger than {size_words(MAX_IMPORT_BYTES)}, too large to be read"
    )


def pieces(handle: BinaryIO, source: str) -> Iterator[bytes]:
    """The bytes of ``handle`` from where it is, in chunks, at most
    :data:`MAX_IMPORT_BYTES` in all.

    Raises:
        FileTooLarge: There is more (no more than one byte past the limit is read).
    """
    total = 0
    while chunk := handle.read(min(CHUNK, MAX_IMPORT_BYTES + 1 - total)):
        total += len(chunk)
        if total > MAX_IMPORT_BYTES:
            raise _too_large(source)
        yield chunk


def file_pieces(handle: BinaryIO, source: str) -> Iterator[bytes]:
    """:func:`pieces` of a file; a regular file over the limit is refused before it is read.

    Raises:
        FileTooLarge: The file is over the limit.
    """
    status = os.fstat(handle.fileno())
    if stat.S_ISREG(status.st_mode) and status.st_size > MAX_IMPORT_BYTES:
        raise _too_large(source)
    return pieces(handle, source)
