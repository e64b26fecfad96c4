"""What the history's file formats share, read and written: BoardGameGeek ids, the
namespace of the uuids made for plays, players and games, BG Stats' anonymous player,
a play's rows of people and its dates."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

from companion.history.model import Person, Play
from scorers import SCORERS

BGG_IDS: dict[str, int] = {
    game: bgg_id
    for game, bgg_id in SCORERS.facts(lambda info: info.bgg_id).items()
    if bgg_id is not None
}
"""BoardGameGeek ids we could confirm (``GameInfo.bgg_id``); the other games are written as 0."""


BY_BGG_ID = {number: game for game, number in BGG_IDS.items()}


# A fixed namespace so that player and game uuids stay the same across exports.
NAMESPACE = uuid.UUID("6f1c2a56-2f4e-4c8e-9f55-0c6b3d1e7a21")
METADATA_STATUS, METADATA_IGNORED = "companionStatus", "companionIgnored"


ANONYMOUS = "Anonymous player"
"""The name BG Stats gives its anonymous player."""


def _moment(played_at: str) -> datetime:
    return datetime.fromisoformat(played_at.replace("Z", "+00:00"))


def play_date(play: Play) -> str:
    """``YYYY-MM-DDTHH:MM:SSZ``: ISO 8601 in UTC, with the zone."""
    return _moment(play.played_at).astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def local_date(played_at: str) -> str:
    """The stored UTC time as this computer's local time, ``YYYY-MM-DD HH:MM:SS``."""
    return _moment(played_at).astimezone().strftime("%Y-%m-%d %H:%M:%S")


def people_rows(play: Play) -> list[tuple[Person | None, int, int | None]]:
    """``(person, side, position)`` per person; a side without known people gets one row."""
    rows: list[tuple[Person | None, int, int | None]] = [
        (p, p.side, k) for k, p in enumerate(play.persons)
    ]
    known = {p.side for p in play.persons}
    rows += [(None, side, None) for side in range(len(play.players)) if side not in known]
    return rows
