"""BoardGameGeek's play XML, read and written: API2 ``plays`` responses and our ``bgg-xml`` export.

A ``<plays>`` document holds ``<play>`` elements, each with its game
(``<item objectid name>``), ``date``, ``length``, ``location``,
``incomplete``, ``nowinstats``, ``quantity``, ``<comments>`` and
``<players>`` (``name``, ``username``, ``score``, ``win``,
``startposition``, ``color``). A play is ours when its object id is one of
our games' BoardGameGeek ids, or, when the id is 0 (our export writes 0 for
the games whose id is not confirmed), when its name is one of our games;
other games are counted and skipped.

What comes in: players in the order listed (BGG's order, and ours is seat
order), the player at ``startposition`` 1 as the start player, scores as in
BG Stats (blank is *not scored*, sums added up, decimals rounded with a
note), winners as marked, ``length`` as the duration, ``incomplete="1"`` as
an interim scoring (one that did not end its game), ``nowinstats="1"`` on a
complete play as ignored in the statistics, ``quantity`` N as N plays.
A play is known again however often its file is read: by the uuid our
export writes at the end of its comments (``[companion play 5a1c...]``,
taken out of the notes), else by BoardGameGeek's play ``id`` (a play
corrected on BGG keeps its id, so it is the same play, updated), else (a file
of ours from before, whose ``<plays>`` has ``userid="0"``) by its id, date,
game and scores. Players who share a ``color`` in one play are a team (our export writes a
team's name there). BGG dates have no time: a play is put at midnight, this
computer's local time, as our export wrote its date.

The file is parsed with expat, with no document type and no entities allowed
(so no entity expansion and nothing fetched), at most
:data:`~companion.history.formats.bounded.MAX_IMPORT_BYTES` read, and checked whole
before anything is written: a problem anywhere imports nothing. It is read
piece by piece, and its plays are kept in a temporary file until they are
added (as a JSON file's: :mod:`companion.history.import_spool`); standard input
is first copied into a temporary file of its own, so that memory stays small.

Written: every attribute the API writes, numbers we don't have as ``0`` and
texts as empty; an interim scoring is ``incomplete`` and kept out of win
statistics (``nowinstats``).
"""

from __future__ import annotations

import json
import re
import unicodedata
import uuid
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cache
from typing import Any
from xml.parsers import expat

from companion.analysis.played_game import FINAL
from companion.history.formats.bgstats import score_value, seat_without_score
from companion.history.formats.bounded import (
    ACCEPTED,
    CHUNK,
    IMPORTED_CATEGORY,
    MAX_CHECKED_PROBLEMS,
    MAX_DURATION,
    MAX_LOCATION,
    MAX_NOTES,
    MAX_PLAYS,
    MAX_SEATS,
    Parsed,
)
from companion.history.formats.shared import (
    ANONYMOUS,
    BGG_IDS,
    BY_BGG_ID,
    NAMESPACE,
    local_date,
    people_rows,
)
from companion.history.import_spool import Spool
from companion.history.model import Person, Play
from scorers import Problem, ScoreFileError, UnknownGameError, find_game, title
from scorers.names import InvalidName, clean_name, name_key

KIND = "bgg-xml"


MAX_RUN = 1 << 20
"""The most bytes between two tags' starts: a longer attribute or text (a comment of
20,000 characters takes at most a few hundred kilobytes) is refused as it comes."""


MAX_QUANTITY = 100
"""A play logged as played more than this many times is refused (BGG allows any number)."""


_HIDDEN = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})


TERMS_OF_USE = "https://boardgamegeek.com/xmlapi/termsofuse"


# Characters XML 1.0 does not allow anywhere in a document.
_NOT_XML = "[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]"


@cache
def _not_xml() -> re.Pattern[str]:
    """The characters XML 1.0 does not allow, compiled when first needed (it takes a while)."""
    return re.compile(_NOT_XML)


class _Refused(Exception):
    """A document type or an entity: never expanded, never fetched."""


@dataclass
class _Element:
    tag: str
    attrs: dict[str, str]
    line: int
    children: list[_Element] = field(default_factory=list)
    text: list[str] = field(default_factory=list)


def _elements(
    data: Iterable[bytes],
    on_play: Callable[[int, _Element], None],
    on_root: Callable[[dict[str, str]], None] | None = None,
) -> str:
    """The root's tag (its attributes go to ``on_root``); each ``<play>`` element, with
    its subtree, goes to ``on_play`` as soon as it ends (and is not kept, so memory stays small).

    Raises:
        ScoreFileError: Not well-formed XML, or it declares a document type
            or entities.
    """
    parser = expat.ParserCreate()
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    root: list[str] = []
    count = 0
    stack: list[_Element] = []

    def refuse(*_: object) -> None:
        raise _Refused

    def refuse_external(*_: object) -> int:
        raise _Refused

    def start(tag: str, attrs: dict[str, str]) -> None:
        if not root:
            root.append(tag)
            if on_root is not None:
                on_root(attrs)
            if tag != "plays":
                raise ScoreFileError(
                    [
                        Problem(
                            "$",
                            f"an XML document of <{tag}>, not BoardGameGeek's <plays>; {ACCEPTED}",
                        )
                    ]
                )
            return
        element = _Element(tag, attrs, parser.CurrentLineNumber)
        if stack:
            if len(stack) < 4:  # deeper than play/players/player/... holds nothing we read
                stack[-1].children.append(element)
        elif tag == "play":
            if count >= MAX_PLAYS:
                raise ScoreFileError(
                    [Problem(f"play[{MAX_PLAYS}]", f"more than {MAX_PLAYS:,} plays in one file")]
                )
        else:
            return
        stack.append(element)

    def end(tag: str) -> None:
        nonlocal count
        if stack and stack[-1].tag == tag:
            element = stack.pop()
            if not stack:
                on_play(count, element)
                count += 1

    def text(data: str) -> None:
        if stack and stack[-1].tag == "comments" and sum(map(len, stack[-1].text)) <= MAX_NOTES:
            stack[-1].text.append(data)

    parser.StartDoctypeDeclHandler = refuse
    parser.EntityDeclHandler = refuse
    parser.UnparsedEntityDeclHandler = refuse
    parser.ExternalEntityRefHandler = refuse_external
    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = text
    run = 0  # bytes since the last "<"
    try:
        for chunk in data:
            # Expat holds a tag whole until it ends (and reads it again at each piece):
            # so a huge attribute is refused here, before it is given, as fast as text.
            last = chunk.rfind(b"<")
            run = len(chunk) - last - 1 if last >= 0 else run + len(chunk)
            if run > MAX_RUN:
                raise ScoreFileError(
                    [
                        Problem(
                            "$",
                            f"more than {MAX_RUN // 2**20} MB of one tag or text (after line "
                            f"{parser.CurrentLineNumber}): a value this long is refused",
                        )
                    ]
                )
            parser.Parse(chunk, False)
        parser.Parse(b"", True)
    except _Refused:
        raise ScoreFileError(
            [Problem("$", "the XML declares a document type or entities, which are refused")]
        ) from None
    except expat.ExpatError as error:
        where = f"line {error.lineno}, column {error.offset + 1}"
        message = expat.ErrorString(error.code)
        raise ScoreFileError([Problem("$", f"not well-formed XML: {message} ({where})")]) from None
    return root[0] if root else ""


def parse_bgg_xml(data: bytes) -> Parsed:
    """The plays of our games in a BoardGameGeek play XML document.

    Raises:
        ScoreFileError: Not XML, not a ``<plays>`` document, or a play of ours
            is malformed; every problem has its place (``play[3].player[1].score``).
    """
    return read_bgg_xml(data[offset : offset + CHUNK] for offset in range(0, len(data), CHUNK))


def read_bgg_xml(data: Iterable[bytes], *, spooled: bool = False) -> Parsed:
    """:func:`parse_bgg_xml` of a document given piece by piece; ``spooled``: the plays
    are kept in a temporary file (:class:`~companion.history.import_spool.Spool`).

    Raises:
        ScoreFileError: As :func:`parse_bgg_xml`.
        FileTooLarge: The pieces say so.
    """
    reader = _Reader()
    parsed = Parsed(KIND, spool=Spool() if spooled else None)

    def on_play(k: int, element: _Element) -> None:
        reader.play(k, element, parsed)
        if len(reader.problems) >= MAX_CHECKED_PROBLEMS:
            reader.problems.append(Problem(f"play[{k}]", "too many problems: reading stopped here"))
            raise ScoreFileError(reader.problems)

    try:
        root = _elements(data, on_play, reader.root)
        if root != "plays":
            raise ScoreFileError(
                [
                    Problem(
                        "$", f"an XML document of <{root}>, not BoardGameGeek's <plays>; {ACCEPTED}"
                    )
                ]
            )
        if reader.problems:
            raise ScoreFileError(reader.problems)
    except BaseException:
        parsed.close()
        raise
    return parsed


class _Reader:
    def __init__(self) -> None:
        self.problems: list[Problem] = []
        self.bgg_ids = True
        """Whether the plays' ``id`` are BoardGameGeek's (not in a file of ours, whose
        ``<plays>`` has ``userid="0"``: its ids are our game numbers)."""

    def root(self, attrs: dict[str, str]) -> None:
        """Note what the ``<plays>`` element says of the file."""
        self.bgg_ids = attrs.get("userid", "").strip() != "0"

    def error(self, path: str, message: str) -> None:
        self.problems.append(Problem(path, message))

    def play(self, k: int, element: _Element, parsed: Parsed) -> None:
        path = f"play[{k}]"
        item = next((c for c in element.children if c.tag == "item"), None)
        if item is None:
            self.error(path, "has no <item> naming its game")
            return
        game = _our_game(item.attrs)
        if game is None:
            name = (
                _shown(item.attrs.get("name", ""))
                or f"BoardGameGeek item {item.attrs.get('objectid', '?')}"
            )
            parsed.skipped_games[name] = parsed.skipped_games.get(name, 0) + 1
            return
        before = len(self.problems)
        attrs = element.attrs
        played_at = self._date(attrs.get("date"), f"{path}.date")
        duration = self._number(attrs.get("length", "0"), f"{path}.length", MAX_DURATION)
        quantity = self._number(attrs.get("quantity", "1"), f"{path}.quantity", MAX_QUANTITY)
        location = self._text(attrs.get("location", ""), f"{path}.location", MAX_LOCATION)
        comments = "".join("".join(c.text) for c in element.children if c.tag == "comments")
        ours, comments = companion_uuid(comments)
        notes = self._text(comments, f"{path}.comments", MAX_NOTES, lines=True)
        incomplete = attrs.get("incomplete", "0").strip() == "1"
        nowinstats = attrs.get("nowinstats", "0").strip() == "1"
        players = [
            p
            for c in element.children
            if c.tag == "players"
            for p in c.children
            if p.tag == "player"
        ]
        what = f"the {item.attrs.get('name', game)} play of {attrs.get('date', '?')}"
        if not players:
            parsed.note(f"{what} (id {attrs.get('id', '?')}) names no players: skipped")
            return
        if len(players) > MAX_SEATS:
            self.error(f"{path}.players", f"has {len(players)} players (at most {MAX_SEATS})")
            return
        seats = self._seats(path, players, what, parsed)
        if len(self.problems) > before or seats is None or played_at is None:
            return
        sides, people, winners = _sides(seats, parsed.note, what)
        result: dict[str, Any] = {
            "game": game,
            "players": sides,
            "winners": winners,
            "tiebreak": None,
        }
        starts = [j for j, seat in enumerate(seats) if seat.start]
        number = attrs.get("id", "").strip()
        # How a companion before issue 35 knew the play: by its id, date and scores.
        legacy = "bgg-play:" + json.dumps(
            [attrs.get("id"), attrs.get("date"), game, [(s.name, s.total) for s in seats]]
        )
        if self.bgg_ids and number.isascii() and number.isdigit() and 0 < len(number) < 19:
            # BoardGameGeek's play id: the same play whatever its scores (corrected or not).
            ident = f"bgg-play-id:{int(number)}"
        else:
            ident = legacy
        if self.problems:  # (a file with a problem adds nothing: none are kept)
            return
        for copy in range(max(quantity or 1, 1)):
            made = str(uuid.uuid5(NAMESPACE, f"{ident}:{copy}"))
            earlier = str(uuid.uuid5(NAMESPACE, f"{legacy}:{copy}"))
            extras = _BGG_EXTRAS if earlier == made else _bgg_extras(earlier)
            parsed.keep(
                Play(
                    id=0,
                    uuid=ours if ours and copy == 0 else made,
                    played_at=played_at,
                    game=game,
                    score_file=None,
                    result=result,
                    location=location or "",
                    notes=notes or "",
                    duration_min=duration or None,
                    source="bgg",
                    start_player=starts[0] if starts else None,
                    people=people,
                    ignored=nowinstats and not incomplete,
                    status="interim" if incomplete else "final",
                    # (kept: what BGG said of it then tells a correction there from an edit here)
                    extras=extras,
                )
            )

    def _seats(
        self, path: str, players: list[_Element], what: str, parsed: Parsed
    ) -> list[_Seat] | None:
        seats: list[_Seat] = []
        seen: dict[str, int] = {}
        anonymous_count = 0
        for j, player in enumerate(players):
            spath = f"{path}.player[{j}]"
            attrs = player.attrs
            raw = attrs.get("name", "").strip() or attrs.get("username", "").strip()
            if not raw:
                self.error(f"{spath}.name", "a player without a name or username")
                continue
            anonymous = (
                _ANONYMOUS.fullmatch(raw) is not None and not attrs.get("username", "").strip()
            )
            if anonymous:
                # BGG's (and BG Stats') anonymous player: never a person in the stats.
                anonymous_count += 1
                name = ANONYMOUS if anonymous_count == 1 else f"{ANONYMOUS} {anonymous_count}"
                seen[f"\0{anonymous_count}"] = j
            try:
                name = name if anonymous else clean_name(raw)
            except InvalidName as error:
                self.error(f"{spath}.name", str(error))
                continue
            key = f"\0{anonymous_count}" if anonymous else name_key(name)
            if not anonymous and key in seen:
                self.error(f"{spath}.name", f"{name} is twice in {what} (also player[{seen[key]}])")
                continue
            seen[key] = j
            try:
                total, note = score_value(attrs.get("score"))
            except ValueError as error:
                # A free text ("Decisive"): this seat has no score, the play comes in.
                total, note = None, None
                parsed.note(seat_without_score(what, j, name, error))
            if note:
                parsed.note(f"{what}: {name}: {note}")
            team = self._text(attrs.get("color", ""), f"{spath}.color", 40) or ""
            seats.append(
                _Seat(
                    name,
                    total,
                    attrs.get("win", "0").strip() == "1",
                    attrs.get("startposition", "").strip() == "1",
                    team,
                    anonymous,
                )
            )
        return seats if len(seats) == len(players) else None

    def _date(self, value: str | None, path: str) -> str | None:
        text = (value or "").strip()
        try:
            moment = datetime.strptime(text, "%Y-%m-%d")
            return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        except (ValueError, OverflowError, OSError):
            self.error(path, f"must be a real date such as 2026-11-30, got {text[:40]!r}")
            return None

    def _number(self, value: str, path: str, high: int) -> int | None:
        text = value.strip() or "0"
        if not text.isascii() or not text.isdigit() or int(text[:12]) > high:
            self.error(path, f"must be a whole number from 0 to {high}, got {value[:40]!r}")
            return None
        return int(text)

    def _text(self, value: str, path: str, limit: int, *, lines: bool = False) -> str | None:
        from companion.history.user_text import clean_text

        # Control and invisible characters are left out, as on every way in.
        text = clean_text(unicodedata.normalize("NFC", value.strip()), lines=lines).strip()
        if len(text) > limit:
            self.error(path, f"is {len(text)} characters long (at most {limit})")
            return None
        return text


@dataclass(frozen=True)
class _Seat:
    name: str
    total: int | None
    winner: bool
    start: bool
    team: str
    anonymous: bool = False


_BGG_EXTRAS = json.dumps({"app": "bgg"})
"""What a BGG play keeps of its app: nothing but that it came from there."""


def _bgg_extras(before: str) -> str:
    """A BGG play's extras naming the uuid an earlier companion gave it (``aliases``):
    an import finds the play under it, so a file read before is not added twice."""
    return json.dumps({"app": "bgg", "aliases": [before]})


_ANONYMOUS = re.compile(r"\s*anonymous player(\s+[0-9]{1,3})?\s*", re.IGNORECASE)
"""How BGG and our export name the anonymous player (``Anonymous player 2``: a second)."""


def _our_game(attrs: dict[str, str]) -> str | None:
    """Our game id for an ``<item>``: by object id, by name only when the id is 0."""
    number = attrs.get("objectid", "0").strip()
    if number.isascii() and number.isdigit() and len(number) < 19 and int(number):
        return BY_BGG_ID.get(int(number))
    name = attrs.get("name", "")
    if not name.strip() or len(name) > 200:
        return None
    try:
        return find_game(name).info.id
    except UnknownGameError:
        return None


def _shown(name: str) -> str:
    text = " ".join(name.split())[:200]
    return "".join(c for c in text if unicodedata.category(c) not in _HIDDEN)


def _sides(
    seats: list[_Seat], note: Callable[[str], None], what: str
) -> tuple[list[dict[str, Any]], tuple[Person, ...], list[str]]:
    """The result's sides, the people pointing at them, and the winning sides' names.

    Players who share a colour are a team; everyone else is a side of their own.
    """
    colours = [s.team.casefold() for s in seats if s.team]
    shared = {c for c in colours if colours.count(c) > 1}
    groups: dict[str, list[_Seat]] = {}
    for seat in seats:
        label = seat.team if seat.team.casefold() in shared else f"\0{seat.name}"
        groups.setdefault(label.casefold() if not label.startswith("\0") else label, []).append(
            seat
        )
    sides: list[dict[str, Any]] = []
    side_of: dict[str, int] = {}
    winners: list[str] = []
    for label, members in groups.items():
        name = members[0].name if label.startswith("\0") else members[0].team
        totals = [m.total for m in members if m.total is not None]
        total = None
        if totals:
            total = totals[0] if len(set(totals)) == 1 else sum(totals)
            if len(set(totals)) > 1:
                note(f"{what}: {name}: the members' scores were added up to {total}")
        for member in members:
            side_of[member.name] = len(sides)
        won = any(m.winner for m in members)
        if won:
            winners.append(name)
        sides.append(
            {
                "name": name,
                "total": total,
                "rank": None,
                "breakdown": {} if total is None else {IMPORTED_CATEGORY: total},
                "_won": won,
            }
        )
    for side in sides:
        won = side.pop("_won")
        if won:
            side["rank"] = 1
        elif side["total"] is not None:
            above = sum(
                1
                for other in sides
                if other["name"] not in winners
                and other["total"] is not None
                and other["total"] > side["total"]
            )
            side["rank"] = 1 + len(winners) + above
    people = tuple(Person(s.name, side_of[s.name], s.anonymous) for s in seats)
    return sides, people, winners


_OUR_UUID = re.compile(r"\s*\[companion play ([^\]\s]{1,100})\]\s*$")


def companion_uuid(comments: str) -> tuple[str | None, str]:
    """The uuid our export wrote at the end of a play's comments, and the comments
    without it (``None`` and the comments stripped when there is none)."""
    found = _OUR_UUID.search(comments)
    if found is None:
        return None, comments.strip()
    return found.group(1), comments[: found.start()].strip()


def companion_marker(play: Play) -> str:
    """The line our export ends a play's comments with: its uuid, so that the play
    is known again when the file is imported (``[companion play 5a1c...]``)."""
    return f"[companion play {play.uuid}]"


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
        marker = companion_marker(play)
        comments = f"{comments}\n{marker}" if comments else marker
        ElementTree.SubElement(element, "comments").text = xml_text(comments)
        players = ElementTree.SubElement(element, "players")
        teams = play.uses_teams
        positions = _start_positions(play)
        winners = set(play.result["winners"])
        for person, side_index, position in people_rows(play):
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
