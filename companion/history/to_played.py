"""A recorded play as the after-game engines read it: a played game.

Records and ratings (:mod:`companion.history.after_game`) and the records one
play set (:mod:`companion.history.record_queries`) read plays as played games;
both make a side's seat by the same rule, kept here.

How a play becomes a :class:`~companion.analysis.played_game.PlayedGame`:
    Each side of the result is a seat. In a team game (a side whose people are
    not exactly one person of its name) a side's members are its named people;
    a side with no named person (members not known, or only anonymous ones) is
    an anonymous seat: it takes part, but holds no record and no rating. In a
    game without teams, a seat whose person is BG Stats' anonymous player is
    anonymous.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from companion.analysis.played_game import PlayedGame, PlayedSeat

if TYPE_CHECKING:
    from companion.history.model import Play

__all__ = ["People", "played", "side_people"]


People = Sequence[tuple[int, str, int]]
"""A play's people as ``(side, name, anonymous)``."""


def played(play: Play) -> PlayedGame:
    """A recorded play as records and ratings read it."""
    people = [(p.side, p.name, int(p.anonymous)) for p in play.persons]
    seats = _seats(play.result, people)
    return PlayedGame(
        play.id, play.played_at, play.game, seats, play.status, play.ignored, play.uuid
    )


def _seats(result: dict[str, Any], people: People) -> tuple[PlayedSeat, ...]:
    """The seats of a result's sides, given the play's people as ``(side, name, anonymous)``."""
    won = set(result["winners"])
    seats = []
    for k, side in enumerate(result["players"]):
        members, anonymous = side_people(side["name"], [p for p in people if p[0] == k])
        total, rank = side.get("total"), side.get("rank")
        breakdown = side.get("breakdown") or {}
        seats.append(
            PlayedSeat(
                name=side["name"],
                total=total if type(total) is int else None,
                rank=rank if type(rank) is int else None,
                winner=side["name"] in won,
                breakdown=tuple((str(c), v) for c, v in breakdown.items() if type(v) is int),
                members=members,
                anonymous=anonymous,
            )
        )
    return tuple(seats)


def side_people(name: str, people: People) -> tuple[tuple[str, ...], bool]:
    """A side's members and whether it is anonymous, from its ``(side, name, anonymous)``.

    One person of the side's own name is a player of their own (no members);
    otherwise the side is a team of its named people, anonymous without any.
    """
    if len(people) == 1 and people[0][1] == name:
        return (), bool(people[0][2])
    members = tuple(person[1] for person in people if not person[2])
    return members, not members
