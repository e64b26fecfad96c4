"""The history as the after-game engines read it: why a game was won, records, ratings, time.

A thin layer between :class:`companion.history.store.History` and the pure engines
(:mod:`companion.analysis.explain`, :mod:`companion.analysis.records`,
:mod:`companion.analysis.ratings`, :mod:`companion.analysis.clock`). Records and
ratings follow the plays in play order (``played_at``, then uuid), and an edit, a
deletion or an import shows at once:
records are read from the history as it is each time they are asked for
(:mod:`companion.history.record_queries` for what one play set), ratings are kept in
the history and rated on, or rated again after any other change
(:mod:`companion.history.rating_cache`). Interim scorings and plays marked ignored count for
neither.

A play becomes a :class:`~companion.analysis.played_game.PlayedGame` as
:mod:`companion.history.to_played` says.

For the web page and the notebooks (which call these with an open history):
    - :func:`after_game` after saving a game: the explanation, the records it
      set, its time and place, ready to show.
    - :func:`explanation` of any recorded play, and
      :func:`companion.analysis.explain.explain_result` of a result just scored.
    - :func:`records` for the records tables, :func:`ratings` for the ratings
      (``.table(game)``; ``.history(name, game)`` is a person's rating after
      each of their plays, for a chart over time).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from companion.analysis.played_game import (
    FINAL,
    INTERIM,
    PlayedGame,
    PlayedSeat,
    Position,
    in_play_order,
)
from companion.history.play_order import after as later_than
from companion.history.schema import COUNTED
from companion.history.to_played import side_people

if TYPE_CHECKING:
    from companion.analysis.clock import Timing
    from companion.analysis.ratings import Point, Ratings
    from companion.analysis.records import GameRecords
    from companion.history.model import Filter, Person, Play
    from companion.history.store import History

__all__ = [
    "AfterGame",
    "Length",
    "after_game",
    "explanation",
    "lengths",
    "rating_history",
    "ratings",
    "records",
    "records_set",
    "timing",
]


def _uses_teams(people: Sequence[Person], sides: Sequence[str]) -> bool:
    """Whether a side is a team: not exactly one person of the side's own name."""
    counts = [0] * len(sides)
    for person in people:
        if not 0 <= person.side < len(sides) or person.name != sides[person.side]:
            return True
        counts[person.side] += 1
    return any(c != 1 for c in counts)


def _members(sides: Sequence[dict[str, Any]], people: Sequence[Person]) -> dict[str, list[str]]:
    """Side name → its people, for the sides of a team game (empty without teams)."""
    names = [side["name"] for side in sides]
    if not _uses_teams(people, names):
        return {}
    return {name: [p.name for p in people if p.side == k] for k, name in enumerate(names)}


def explanation(play: Play) -> list[str]:
    """Why a recorded play was won (or who leads, for an interim scoring), in sentences.

    Names are returned as they are: render them as plain text, never markup.
    """
    from companion.analysis.explain import explain

    members = _members(play.result["players"], play.persons)
    return explain(play.result, members=members or None, interim=play.status == INTERIM)


# --- reading the history ---------------------------------------------------------------


def _counted(history: History, game: str | None) -> list[PlayedGame]:
    """Every play that counts (final, not ignored), with breakdowns, in play order."""
    return _load(history, game, breakdowns=True)


def _rated(history: History, game: str | None) -> list[PlayedGame]:
    """Every play that counts, without breakdowns (all ratings need), in play order."""
    return _load(history, game, breakdowns=False)


def _load(
    history: History,
    game: str | None,
    *,
    breakdowns: bool,
    after: Position | None = None,
) -> list[PlayedGame]:
    """Every play that counts (final, not ignored) of ``game`` (or all), in play order.

    Records and ratings read every play of a long history, so this is made for
    speed: three flat reads (the plays in play order; their sides, and their
    people side by side, in id order) merged here, since a join of the three
    costs SQLite more than merging costs Python. Only records need the
    breakdowns, read from each play's stored result. Equal seats are made once
    and shared (they are frozen), which saves most of the work on a long
    history of one group.

    A side is a team of its named people unless it is exactly one person of
    its own name; for a game's seats this is the same as deciding for the
    whole play (see :mod:`companion.history.to_played`).

    With ``after`` (a key in play order), only the plays after it in play order.
    """
    condition = COUNTED + (" AND game = ?" if game else "")  # literal: the indexes are partial
    params: list[Any] = [game] if game else []
    if after is not None:  # the index plays_in_order finds them
        condition = f"id IN (SELECT id FROM plays WHERE {condition} AND {later_than()})"
        params += list(after[:2])
    within = f" WHERE play_id IN (SELECT id FROM plays WHERE {condition})"
    result = ", result" if breakdowns else ", NULL"
    with history.guard("read the history"):
        db = history._db
        plays = db.execute(
            f"SELECT id, played_at, game{result}, uuid FROM plays WHERE {condition} ORDER BY id",
            params,
        ).fetchall()
        sides = db.execute(
            "SELECT play_id, seat, name, CASE WHEN scored THEN total END, nullif(rank, 0), "
            f"winner FROM play_players{within} ORDER BY play_id, seat",
            params,
        ).fetchall()
        people = db.execute(
            f"SELECT play_id, side, name, anonymous FROM play_people{within} "
            "ORDER BY play_id, side, position",
            params,
        ).fetchall()
    end = (-1, -1, "", 0, 0, 0)  # an end marker: no play or side matches it
    sides.append(end)
    people.append(end[:4])
    made: dict[tuple[Any, ...], PlayedSeat] = {}
    games = []
    s = p = 0
    for play_id, played_at, game_id, text, uuid in plays:
        split: list[Any] = json.loads(text)["players"] if text is not None else []
        seats = []
        while 0 <= sides[s][0] < play_id:
            s += 1  # a side of no play (a damaged record)
        while sides[s][0] == play_id:
            _, seat, name, total, rank, winner = sides[s]
            s += 1
            person = people[p]
            after = people[p + 1] if person[0] >= 0 else person
            if (
                person[0] == play_id
                and person[1] == seat
                and person[2] == name
                and (after[0] != play_id or after[1] != seat)
            ):
                p += 1  # one person of the side's own name: most seats
                members: tuple[str, ...] = ()
                anonymous = bool(person[3])
            else:
                p = _skip(people, p, play_id, seat)
                first = p
                while people[p][0] == play_id and people[p][1] == seat:
                    p += 1
                members, anonymous = side_people(name, [x[1:] for x in people[first:p]])
            points: tuple[tuple[str, int], ...] = ()
            if seat < len(split):
                breakdown = split[seat].get("breakdown") or {}
                points = tuple((str(c), v) for c, v in breakdown.items() if type(v) is int)
            key = (name, total, rank, winner, members, anonymous, points)
            made_seat = made.get(key)
            if made_seat is None:
                made_seat = made[key] = PlayedSeat(
                    name, total, rank, bool(winner), points, members, anonymous
                )
            seats.append(made_seat)
        games.append(PlayedGame(play_id, played_at, game_id, tuple(seats), uuid=uuid))
    games.sort(key=in_play_order)
    return games


def _skip(people: list[Any], p: int, play_id: int, seat: int) -> int:
    """The first person at or after ``p`` not before side ``seat`` of play ``play_id``."""
    while people[p][0] >= 0 and (
        people[p][0] < play_id or (people[p][0] == play_id and people[p][1] < seat)
    ):
        p += 1  # a person of no side (a damaged record)
    return p


# --- records, ratings, time ------------------------------------------------------------


def records(history: History, game: str | None = None) -> dict[str, GameRecords]:
    """Every game's records (or one game's), by game id, from the plays that count."""
    from companion.analysis.records import records as compute

    return compute(_counted(history, game))


def records_set(history: History, play_id: int) -> list[str]:
    """The records play ``play_id`` set or equalled, as sentences (``Aki's best Tokaido: 88,
    was 81``), against the plays of its game before it in play order.

    Empty for a play that does not count, and for the first play of a game
    (nothing to beat yet). Read without replaying the game's history (see
    :mod:`companion.history.record_queries`), by the rules of :mod:`companion.analysis.records`.
    """
    from companion.analysis.records import describe, is_repeat, repeat_sentence, set_after
    from companion.history.record_queries import play, records_before

    found = play(history, play_id)
    if found is None or not found.counts:
        return []
    # Personal bests in a category are not told (describe leaves them out).
    before = records_before(history, found, personal_categories=False)
    news = set_after(before, found)
    best = before.best_total if before is not None else None
    if best is None or not any(n.equalled for n in news):
        return describe(news)
    # The same people with the same totals as the record's game: not "equalled".
    record_play = play(history, best.play)
    sentences: list[str] = []
    for new in news:
        if is_repeat(new, record_play, found):
            sentences.append(repeat_sentence(new))
        else:
            sentences.extend(describe([new]))
    return sentences


def ratings(history: History, game: str | None = None, *, keep: bool = True) -> Ratings:
    """Everyone's ratings from the plays that count, in play order.

    The history keeps the ratings between calls (:mod:`companion.history.rating_cache`): they
    are rated on from there when games were only added since, and rated again
    from every play otherwise.

    Args:
        history: The history.
        game: Only this game's plays (its ratings are the same as with every
            play: a game's ratings depend on its own plays only); the overall
            ratings (``table(None)``) then cover that game alone.
        keep: Write the ratings back into the history when they changed (when
            the file can be written at once).
    """
    from companion.history.rating_cache import ratings as kept

    every = kept(
        history, lambda after: _load(history, None, breakdowns=False, after=after), keep=keep
    )
    return every.only(game) if game else every


def rating_history(history: History, person: str, game: str | None = None) -> list[Point]:
    """One person's rating after each of their rated plays (overall, or in ``game``)."""
    return ratings(history, game).history(person, game)


def timing(history: History, play_id: int) -> Timing | None:
    """How long a played-along game took, pauses left out, and each round (if timed)."""
    from companion.analysis.clock import Timing
    from companion.events import TIME
    from companion.history.sessions import SessionStore

    return Timing.from_json(SessionStore(history).play_fact(play_id, TIME))


@dataclass(frozen=True)
class AfterGame:
    """What is shown after a game is saved.

    Attributes:
        explanation: Why it was won (or who leads, for an interim scoring).
        records: The records it set or equalled.
        timing: How long it took, for a played-along game.
        location: Where it was played.
    """

    explanation: list[str]
    records: list[str]
    timing: Timing | None
    location: str


def after_game(history: History, play_id: int) -> AfterGame:
    """The explanation, records, time and place of a saved game.

    Raises:
        PlayNotFound: No game has that id.
    """
    play = history.get(play_id)
    return AfterGame(
        explanation(play), records_set(history, play_id), timing(history, play_id), play.location
    )


# --- time at the table in the stats ----------------------------------------------------


@dataclass(frozen=True)
class Length:
    """The average length of one game at one player count.

    Attributes:
        game: The game id.
        players: People at the table.
        plays: Plays with a length recorded.
        average_min: Their average length, in minutes.
    """

    game: str
    players: int
    plays: int
    average_min: float

    def to_json(self) -> dict[str, Any]:
        """``{"game", "players", "plays", "average_min"}``."""
        return {
            "game": self.game,
            "players": self.players,
            "plays": self.plays,
            "average_min": round(self.average_min, 1),
        }


def lengths(history: History, where: Filter | None = None) -> list[Length]:
    """Average length per game and player count, over the plays that count with a length.

    A play's player count is its people (a team of two counts two); a side
    whose members are not known counts as many people as the largest side.
    """
    from companion.history.model import Filter

    condition, params = (where or Filter()).where()
    # The same condition as the index plays_timed, which holds only the plays with a length.
    counted = f"plays.duration_min > 0 AND plays.ignored = 0 AND plays.status = '{FINAL}'"
    condition = f"{condition} AND {counted}" if condition else f" WHERE {counted}"
    with history.guard("read the history"):
        rows = history._db.execute(
            "SELECT plays.game, plays.duration_min, "
            "(SELECT count(*) FROM play_players WHERE play_id = plays.id), "
            "(SELECT count(*) FROM play_people WHERE play_id = plays.id), "
            "(SELECT max(n) FROM (SELECT count(*) AS n FROM play_people "
            "WHERE play_id = plays.id GROUP BY side)), "
            "(SELECT count(DISTINCT side) FROM play_people WHERE play_id = plays.id) "
            f"FROM plays INDEXED BY plays_timed{condition}",
            params,
        ).fetchall()
    sums: dict[tuple[str, int], list[int]] = {}
    for game, minutes, sides, people, largest, known in rows:
        count = people + (sides - known) * (largest or 1)
        entry = sums.setdefault((game, count), [0, 0])
        entry[0] += 1
        entry[1] += minutes
    order = in_game_order({game for game, _ in sums})
    return [
        Length(game, players, plays, total / plays)
        for (game, players), (plays, total) in sorted(
            sums.items(), key=lambda item: (order.index(item[0][0]), item[0][1])
        )
    ]


def in_game_order(games: Iterable[str]) -> list[str]:
    """Game ids in the registry's order (Shimoda first), unknown ids after them."""
    from scorers import SCORERS

    known = list(SCORERS)
    return sorted(games, key=lambda g: (known.index(g) if g in known else len(known), g))
