"""A played game as the records and ratings read it: plain, frozen data.

:mod:`companion.analysis.records` and :mod:`companion.analysis.ratings` take a sequence of
:class:`PlayedGame` in play order and nothing else, so that they can be fed from
the history, an import or a test alike. :func:`from_result` builds one from a
result document (``companion score --json``) and what the history knows about
the play besides.

People are identified by :func:`scorers.names.name_key`: two seats whose names
have the same key are the same person. A side of a team game (Shibuya with four
players) is one seat whose :attr:`PlayedSeat.members` are its people; each of
them is credited with the side's result.

Example:
    >>> doc = {"game": "shimoda", "winners": ["Aki"], "tiebreak": None, "players": [
    ...     {"name": "Aki", "total": 30, "rank": 1, "breakdown": {"shops": 30}},
    ...     {"name": "Ben", "total": 25, "rank": 2, "breakdown": {"shops": 25}}]}
    >>> play = from_result(7, "2025-06-01T20:00:00Z", doc)
    >>> [(s.name, s.rank, s.winner) for s in play.seats]
    [('Aki', 1, True), ('Ben', 2, False)]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

FINAL = "final"
"""The status of a scoring that ends its game."""
INTERIM = "interim"
"""The status of a scoring in the middle of a game (``GameInfo.is_interim``)."""


@dataclass(frozen=True)
class PlayedSeat:
    """One seat of a played game: a player, or a side of a team game.

    Attributes:
        name: The player's name, or the side's name for a team.
        total: The seat's total; ``None`` when the seat was not scored.
        rank: 1 for the best, shared by tied seats (1, 1, 3); ``None`` when
            not scored.
        winner: Whether the seat won (every winner of a shared win).
        breakdown: Category → points, in the scorer's order.
        members: The people of a side; empty for a single player.
        anonymous: The seat is nobody in particular (a guest without a
            name): it takes part in the game but holds no record or rating.
    """

    name: str
    total: int | None
    rank: int | None
    winner: bool = False
    breakdown: tuple[tuple[str, int], ...] = ()
    members: tuple[str, ...] = ()
    anonymous: bool = False

    @property
    def people(self) -> tuple[str, ...]:
        """The people who sat here: the side's members, or the player."""
        return self.members or (self.name,)

    @property
    def scored(self) -> bool:
        """Whether the seat has a total and a rank."""
        return self.total is not None and self.rank is not None


@dataclass(frozen=True)
class PlayedGame:
    """One play, in the shape records and ratings read.

    Attributes:
        id: The play's id in the history (any int that names it).
        played_at: When it was played (ISO 8601, as the history stores it).
        game: The game id (``tokaido``).
        seats: In seat order.
        status: ``"final"``, or ``"interim"`` for a scoring in the middle of a
            game (Shogun's first winter entered alone).
        ignored: Excluded from statistics (an imported play marked so).
        uuid: The play's uuid, the same at every table (it breaks ties of
            ``played_at`` in play order; empty for a play of no history).
    """

    id: int
    played_at: str
    game: str
    seats: tuple[PlayedSeat, ...]
    status: str = FINAL
    ignored: bool = False
    uuid: str = ""

    @property
    def counts(self) -> bool:
        """Whether the play counts for records and ratings: final and not ignored."""
        return self.status == FINAL and not self.ignored


Position = tuple[str, str, int]
"""A play's key in play order: ``(played_at, uuid, id)``."""


def in_play_order(play: PlayedGame) -> Position:
    """The sort key of play order: when it was played, then its uuid (the same at
    every table, unlike the id, which only breaks ties between plays of no uuid)."""
    return play.played_at, play.uuid, play.id


def from_result(
    play_id: int,
    played_at: str,
    result: Mapping[str, Any],
    *,
    members: Mapping[str, Sequence[str]] | None = None,
    anonymous: frozenset[str] = frozenset(),
    status: str = FINAL,
    ignored: bool = False,
) -> PlayedGame:
    """Build a :class:`PlayedGame` from a result document.

    A seat is not scored when its ``total`` (or ``rank``) is ``None``. A side's
    members come from the player entry's ``members`` or from ``members``.

    Args:
        play_id: The play's id.
        played_at: When it was played.
        result: The result document (``companion score --json``).
        members: Side name → its members, where the entries do not carry them.
        anonymous: Names of seats that are nobody in particular.
        status: ``"final"`` or ``"interim"``.
        ignored: Excluded from statistics.

    Raises:
        ValueError: The document is not a result (no ``game``, ``players`` or
            a player's ``name``).
    """
    game = result.get("game")
    players = result.get("players")
    if not isinstance(game, str) or not isinstance(players, list):
        raise ValueError("not a result document: it needs 'game' and 'players'")
    winners = set(result.get("winners") or ())
    seats = []
    for player in players:
        name = player.get("name") if isinstance(player, Mapping) else None
        if not isinstance(name, str):
            raise ValueError("not a result document: every player needs a name")
        total, rank = player.get("total"), player.get("rank")
        side = player.get("members")
        if members is not None and name in members:
            side = members[name]
        breakdown = player.get("breakdown") or {}
        seats.append(
            PlayedSeat(
                name=name,
                total=total if type(total) is int else None,
                rank=rank if type(rank) is int else None,
                winner=name in winners,
                breakdown=tuple((str(k), int(v)) for k, v in breakdown.items()),
                members=tuple(str(m) for m in side or ()),
                anonymous=name in anonymous,
            )
        )
    return PlayedGame(play_id, played_at, game, tuple(seats), status=status, ignored=ignored)
