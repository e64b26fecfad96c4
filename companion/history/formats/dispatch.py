"""Which format a history file is, and the module that reads or writes it.

Reading: :func:`read_history_file` takes any accepted file (XML is
BoardGameGeek's, read by :mod:`.bggxml`; JSON is our export, :mod:`.ours`, or a
BG Stats backup, :mod:`.bgstats`, told apart by its top-level keys as it is
read, :func:`read_import`). Writing: :func:`export` in one of :data:`FORMATS`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

from companion.bounded_json import InputError
from companion.history.formats.bggxml import read_bgg_xml, to_bgg_xml
from companion.history.formats.bgstats import BgStats, parse_bgstats, to_bgstats
from companion.history.formats.bounded import (
    ACCEPTED,
    MAX_IMPORT_BYTES,
    MAX_IMPORT_DEPTH,
    MAX_PROBLEMS,
    MAX_VALUE,
    NEITHER,
    STDIN,
    Parsed,
    Plays,
    Stop,
    check_text,
    file_pieces,
    pieces,
    read_document,
    stdin_copy,
)
from companion.history.formats.csv_export import to_csv
from companion.history.formats.ours import (
    JSON_FORMAT,
    OurPlays,
    cleaned_play,
    parse_ours,
    to_json,
)
from companion.history.formats.shared import BGG_IDS
from companion.history.import_spool import Spool
from companion.history.model import Play
from scorers import Problem, Reader, ScoreFileError, title

if TYPE_CHECKING:
    from companion.bounded_json import JsonDocument
    from companion.history.store import Kept

FORMATS = ("csv", "json", "bgstats", "bgg-xml")


def read_history_file(source: str) -> Parsed:
    """Read an import file of any accepted format: XML (:mod:`.bggxml`), JSON (:func:`read_import`).

    A file whose first character (after a byte order mark and blanks) is
    ``<`` is XML; anything else is read as JSON. A file that is neither says
    which formats are accepted.

    Raises:
        InputError: The file cannot be read, is too large or is not text.
        ScoreFileError: It is not an import file, or is malformed.
    """
    if source == "-":
        copy = stdin_copy()
        head = copy.read(1024)
        copy.seek(0)
        if _is_xml(head):
            with copy:
                return read_bgg_xml(pieces(copy, "standard input"), spooled=True)
        try:
            check_text(copy)
        except BaseException:
            copy.close()
            raise
        return _json(lambda: read_import(STDIN, handle=copy))
    try:
        with Path(source).open("rb") as handle:
            head = handle.read(1024)
    except OSError as error:
        raise InputError(f"cannot read {source}: {error.strerror or error}") from error
    if _is_xml(head):
        try:
            with Path(source).open("rb") as handle:
                return read_bgg_xml(file_pieces(handle, source), spooled=True)
        except OSError as error:
            raise InputError(f"cannot read {source}: {error.strerror or error}") from error
    return _json(lambda: read_import(source))


def _json(read: Any) -> Parsed:
    try:
        parsed: Parsed = read()
    except ScoreFileError as error:
        first = error.problems[0] if error.problems else None
        if first is not None and first.path == "$" and first.message.startswith("not valid JSON"):
            raise ScoreFileError(
                [Problem("$", f"neither JSON nor XML ({first.message}); {ACCEPTED}")]
            ) from error
        raise
    return parsed


def _is_xml(head: bytes) -> bool:
    return head.removeprefix(b"\xef\xbb\xbf").lstrip().startswith(b"<")


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
    stopped: Stop | None = None
    plays: Plays | None = None
    try:
        try:
            data, plays = read_document(doc, r, None, plays_of=plays_of(spooled=spooled))
            kind = _kind(data)
            if kind is None:
                raise ScoreFileError.single("$", NEITHER)
            if isinstance(data, dict) and plays and (plays.again or plays.parsed.kind != kind):
                doc.restart()
                if plays.parsed.kind != kind:  # not checked yet (or not as what the file is)
                    plays.parsed.close()
                    r, plays = Reader(), None
                _, plays = read_document(doc, r, data, plays, plays_of=plays_of(spooled=spooled))
        except Stop as stop:
            stopped = stop
            doc.raise_problems()
            stop.r.raise_if_problems()  # a stop always follows a problem: this raises
            raise AssertionError("stopped without a problem") from stop
        assert isinstance(data, dict)  # (else it has no kind)
        if plays:
            parsed = plays.finish(r, data)
        elif kind == "json":
            parsed = parse_ours(r, data)
        else:
            parsed = parse_bgstats(r, data)
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


def plays_of(*, spooled: bool = False) -> Callable[[Reader, dict[str, Any], bool], Plays]:
    """What reads the plays of a JSON file by its format (see
    :func:`~companion.history.formats.bounded.read_document`); ``spooled``: the plays
    are kept in a temporary file."""

    def of(r: Reader, data: dict[str, Any], again: bool) -> Plays:
        """The reader of the plays of the file begun with ``data`` (the whole file
        but its plays when it is read ``again``)."""
        spool = Spool() if spooled else None
        if data.get("format") == JSON_FORMAT and ("version" in data or again):
            ours = OurPlays(data.get("version"), parsed=Parsed("json", spool=spool))
            return Plays(ours.r, ours.parsed, ours.play if ours.valid else None, ours.finish)
        if {"players", "games"} <= data.keys() and (again or data.get("format") != JSON_FORMAT):
            bgstats = BgStats(r, data, Parsed("bgstats", spool=spool))
            check = None if r.problems else bgstats.play
            return Plays(r, bgstats.parsed, check, lambda _, rest: bgstats.finish(rest))
        plays = Plays(r, Parsed("later"), None)
        plays.again = True  # what the plays need is not known yet
        return plays

    return of


def missing_bgg_ids(plays: Sequence[Play]) -> list[str]:
    """The titles of the exported games whose BoardGameGeek id is not known (written as 0)."""
    games = dict.fromkeys(p.game for p in plays if p.game not in BGG_IDS)
    return [title(game) for game in games]


def export(
    plays: Sequence[Play],
    fmt: str,
    *,
    events: Mapping[int, list[dict[str, Any]]] | None = None,
    excel: bool = False,
    player_uuids: Mapping[str, str] | None = None,
    kept: Kept | None = None,
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
        kept: What BG Stats wrote that we do not use (:meth:`History.kept`):
            the bgstats format writes it back.
    """
    plays = [cleaned_play(play) for play in plays]
    if fmt == "json":
        return to_json(plays, events=events, player_uuids=player_uuids)
    if fmt == "csv":
        return to_csv(plays, excel=excel)
    if fmt == "bgstats":
        return to_bgstats(plays, player_uuids=player_uuids, kept=kept)
    return to_bgg_xml(plays)


def encoded(text: str, *, excel: bool = False) -> bytes:
    """The bytes of an export: UTF-8, with a byte order mark for Excel."""
    return ("\ufeff" if excel else "").encode() + text.encode("utf-8")
