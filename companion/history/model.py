"""The play model: a recorded game, its people and expansions, the filter of a query, seat order."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from companion.analysis.played_game import FINAL, INTERIM
from companion.history.play_order import new_uuid
from scorers import SCORERS
from scorers.names import InvalidName, clean_name, name_key


@dataclass(frozen=True)
class Person:
    """One person at the table.

    Attributes:
        name: As shown (two names with the same :func:`name_key` are the same
            person).
        side: The index of their side in ``result["players"]``: their own
            entry, or their team's.
        anonymous: BG Stats' anonymous player: kept in the play, never a
            person in the stats.
    """

    name: str
    side: int
    anonymous: bool = False

    def to_json(self) -> dict[str, Any]:
        """``{"name", "side", "anonymous"}``."""
        return {"name": self.name, "side": self.side, "anonymous": self.anonymous}


@dataclass(frozen=True)
class Expansion:
    """An expansion played with the game (from BG Stats' ``expansionPlays``)."""

    name: str
    bgg_id: int = 0

    def to_json(self) -> dict[str, Any]:
        """``{"name", "bgg_id"}``."""
        return {"name": self.name, "bgg_id": self.bgg_id}


@dataclass(frozen=True)
class Play:
    """One recorded game.

    The result's ``players`` are the sides that scored: one per player, or one
    per team in a team game (4-player Shibuya). ``people`` are the persons at
    the table in seat order, each pointing at their side; in a team game that
    order goes round the sides (Shibuya: side 0's first member, side 1's
    first, side 0's second, side 1's second). A side whose members are not
    known has no people. A side's ``total`` is ``None`` when it was not scored
    (a blank score in BG Stats) and its ``rank`` ``None`` when unknown.

    Attributes:
        id: The record's number.
        uuid: A stable identity, kept across exports and imports (compared
            without regard to case).
        played_at: When it was played, ISO 8601 in UTC.
        game: The game id.
        score_file: The score file exactly as given (``None`` for a play
            imported from another app without one).
        result: The result document, as ``companion score --json`` prints it.
        location: Where it was played.
        notes: Free text.
        duration_min: How long it took, in minutes, if known.
        source: ``companion``, or the app it was imported from.
        start_player: The person (index into ``people``) who started, if known.
        people: The persons in seat order; ``None`` (only when saving) means
            "take them from the score file": a team's ``members``, otherwise
            one person per side.
        ignored: Kept out of statistics (as BG Stats' ``ignored`` plays).
        expansions: Expansions played with it.
        status: ``final``, or ``interim`` for a scoring that does not end the
            game (Shogun's first winter): shown, but out of wins and stats.
        extras: What the app it came from wrote of it that we do not use (JSON:
            ``{"app", "play", "seats"}``), set on the way in and kept in its own
            table (``play_extras``) so that an export to that app writes it back;
            ``None`` for a play read from the history.
    """

    id: int
    uuid: str
    played_at: str
    game: str
    score_file: str | None
    result: dict[str, Any]
    location: str = ""
    notes: str = ""
    duration_min: int | None = None
    source: str = "companion"
    start_player: int | None = None
    people: tuple[Person, ...] | None = None
    ignored: bool = False
    expansions: tuple[Expansion, ...] = ()
    status: str = FINAL
    extras: str | None = None

    @property
    def players(self) -> list[str]:
        """The sides' names in seat order (a team game: the teams)."""
        return [p["name"] for p in self.result["players"]]

    @property
    def persons(self) -> tuple[Person, ...]:
        """The people, taken from the score file when not given."""
        if self.people is not None:
            return self.people
        return derive_people(self.score_file, self.result)

    @property
    def uses_teams(self) -> bool:
        """Whether a side is a team (its members differ from one person of its name)."""
        return _uses_teams(self.persons, self.players)

    def members(self, side: int) -> list[Person]:
        """The known people of ``side``, in seat order."""
        return [p for p in self.persons if p.side == side]

    @property
    def starter(self) -> Person | None:
        """The person who started, when known."""
        people = self.persons
        if self.start_player is None or not 0 <= self.start_player < len(people):
            return None
        return people[self.start_player]

    def won(self, person: Person) -> bool:
        """Whether ``person`` is on a winning side."""
        return self.result["players"][person.side]["name"] in self.result["winners"]

    def to_json(self) -> dict[str, Any]:
        """Everything about the record, its score file parsed."""
        return {
            "id": self.id,
            "uuid": self.uuid,
            "played_at": self.played_at,
            "game": self.game,
            "location": self.location,
            "notes": self.notes,
            "duration_min": self.duration_min,
            "source": self.source,
            "start_player": self.start_player,
            "people": [p.to_json() for p in self.persons],
            "ignored": self.ignored,
            "expansions": [e.to_json() for e in self.expansions],
            "status": self.status,
            "score_file": None if self.score_file is None else json.loads(self.score_file),
            "result": self.result,
        }

    def summary(self) -> dict[str, Any]:
        """The record without its score file, for ``history list --json``."""
        return summary_of(
            self.id,
            self.played_at,
            self.game,
            self.ignored,
            self.result["players"],
            self.result["winners"],
            self.persons,
            self.status,
        )


def summary_of(
    play_id: int,
    played_at: str,
    game: str,
    ignored: bool,
    sides: list[dict[str, Any]],
    winners: list[str],
    people: Iterable[Person],
    status: str = FINAL,
) -> dict[str, Any]:
    """The ``history list --json`` entry of one play.

    ``players`` are the sides (name, total or ``None``, rank or ``None``),
    each with its ``members``; ``people`` are the persons in seat order. An
    interim scoring (a Shogun first winter) has a leader, not a winner: its
    ``winners`` are empty and it carries ``"status": "interim"``.
    """
    people = list(people)
    return {
        "id": play_id,
        "played_at": played_at,
        "game": game,
        "ignored": ignored,
        "players": [
            {
                "name": side["name"],
                "total": side["total"],
                "rank": side["rank"],
                "members": [p.name for p in people if p.side == k],
            }
            for k, side in enumerate(sides)
        ],
        "people": [p.to_json() for p in people],
        "winners": list(winners) if status == FINAL else [],
        **({"status": status} if status != FINAL else {}),
    }


def _uses_teams(people: Iterable[Person], sides: list[str]) -> bool:
    counts = [0] * len(sides)
    for person in people:
        counts[person.side] += 1
        if person.name != sides[person.side]:
            return True
    return any(c != 1 for c in counts)


def seat_order(teams: list[list[str]]) -> list[tuple[int, str]]:
    """``(side, name)`` of every member in seat order, going round the sides.

    Partners sit apart: with two teams of two, the order is side 0's first
    member, side 1's first, side 0's second, side 1's second.
    """
    order: list[tuple[int, str]] = []
    for k in range(max((len(t) for t in teams), default=0)):
        order.extend((side, members[k]) for side, members in enumerate(teams) if k < len(members))
    return order


def derive_people(score_file: str | None, result: Mapping[str, Any]) -> tuple[Person, ...]:
    """The people of a play from its score file: a team's members, else one per side."""
    sides = [p["name"] for p in result["players"]]
    teams = _members_in(score_file, len(sides))
    if teams is not None:
        return tuple(Person(name, side) for side, name in seat_order(teams))
    return tuple(Person(name, side) for side, name in enumerate(sides))


def _members_in(score_file: str | None, sides: int) -> list[list[str]] | None:
    if score_file is None:
        return None
    try:
        data = json.loads(score_file)
    except ValueError:
        return None
    entries = data.get("players") if isinstance(data, dict) else None
    if not isinstance(entries, list) or len(entries) != sides:
        return None
    teams = [e.get("members") if isinstance(e, dict) else None for e in entries]
    if not all(isinstance(t, list) and t and all(isinstance(m, str) for m in t) for t in teams):
        return None
    # The members as the name rule stores them (the file keeps them as typed: a
    # member "Aki\r" or "\n\nWinner: Blue" is the player Aki, or "Winner: Blue").
    try:
        return [[clean_name(m) for m in t] for t in teams if isinstance(t, list)]
    except InvalidName:
        return None


@dataclass(frozen=True)
class Filter:
    """Which plays a query covers; every field left ``None`` matches all.

    Attributes:
        game: A game id.
        player: A person's name (compared by :func:`name_key`: case is ignored).
            A team is not a person: its name matches its members' plays only
            if one of them has that name.
        since: An ISO date or time; plays at or after it.
    """

    game: str | None = None
    player: str | None = None
    since: str | None = None

    def where(self) -> tuple[str, list[Any]]:
        """The SQL condition on ``plays`` and its parameters."""
        clauses, params = self.clauses()
        return (" WHERE " + " AND ".join(clauses) if clauses else ""), params

    def clauses(self) -> tuple[list[str], list[Any]]:
        """The conditions on ``plays`` (to be joined with AND) and their parameters."""
        clauses: list[str] = []
        params: list[Any] = []
        if self.game:
            clauses.append("plays.game = ?")
            params.append(self.game)
        if self.player:
            clauses.append(
                "plays.id IN (SELECT play_id FROM play_people WHERE name_key = ? AND anonymous = 0)"
            )
            params.append(name_key(self.player))
        if self.since:
            clauses.append("plays.played_at >= ?")
            params.append(self.since)
        return clauses, params


def status_of(game: str, score_file: str | Mapping[str, Any] | None) -> str:
    """``interim`` for a scoring that does not end its game, else ``final``.

    The game's interim rule says which (``GameInfo.interim``): Shogun scores
    each winter, and only the second (``"year": 2``) ends the game.
    """
    if score_file is None or game not in SCORERS or SCORERS[game].info.interim is None:
        return FINAL
    try:
        data = json.loads(score_file) if isinstance(score_file, str) else score_file
    except ValueError:
        return FINAL
    return INTERIM if SCORERS[game].info.is_interim(data) else FINAL


def now_utc() -> str:
    """The current time as stored in ``played_at``."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


ANONYMOUS_KEY = "\0anonymous"
"""The key under which BG Stats' anonymous player's uuid is kept."""


_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def fold_uuid(text: str) -> str:
    """A uuid as SQLite's NOCASE compares it (only A to Z are folded)."""
    return text.lower() if text.isascii() else text.translate(_ASCII_LOWER)


def new_play(
    game: str,
    score_file: str | None,
    result: Mapping[str, Any],
    *,
    number: int = 0,
    played_at: str | None = None,
    location: str = "",
    notes: str = "",
    duration_min: int | None = None,
    start_player: int | None = None,
    people: tuple[Person, ...] | None = None,
    status: str | None = None,
) -> Play:
    """A game just scored, ready to be recorded: a new uuid, and now unless ``played_at``.

    The uuid is time-ordered (:func:`companion.history.play_order.new_uuid`): games
    saved here in one second keep the order they were saved in, at every table.

    Args:
        game: The game id.
        score_file: The score file exactly as given.
        result: The result document (``Result.to_json()``).
        number: The number it is to keep (a session's), or 0 for the next free one.
        played_at: ISO 8601 UTC time; now when omitted.
        location: Where it was played.
        notes: Free text.
        duration_min: Minutes played, if known.
        start_player: The person who started, if known (an index into the people).
        people: The people; taken from the score file when omitted.
        status: ``final`` or ``interim``; what the score file says when omitted
            (:func:`status_of`).
    """
    return Play(
        id=number,
        uuid=new_uuid(),
        played_at=played_at or now_utc(),
        game=game,
        score_file=score_file,
        result=dict(result),
        location=location,
        notes=notes,
        duration_min=duration_min,
        start_player=start_player,
        people=people,
        status=status or status_of(game, score_file),
    )
