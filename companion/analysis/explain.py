"""Why the game was won: a few plain sentences computed from a scored game.

:func:`explain` reads the result document of ``companion score --json`` (the
contract's ``players`` with ``name``, ``total``, ``rank`` and ``breakdown``,
``winners`` and ``tiebreak``) and returns one to three sentences. Every
sentence is computed from those numbers; a sentence whose claim the numbers do
not support is left out rather than softened.

1. **The outcome and the closest margin.** The winner's margin over the next
   total, and the narrowest gap elsewhere at the table when it is narrower
   ("Aki won by 5 points over Ben; the closest gap was 1 point, between Cho on
   41 and Dai on 40"). A tie on the top total names the tie-break that
   separated it, or the shared win.
2. **The category that decided it.** The smallest set of categories whose
   removal changes the winner ("Without the temple ranking, Ben would have
   won by 2 points"), see :func:`decisive`. When no removal can change the
   winner, because the winner scored at least as much as anyone in every
   category, the sentence says so. When no removal gives one other player the
   lead alone for another reason (two rivals who would always tie), or after
   a shared win nobody could lead alone, the sentence is left out.
3. **Each player's strongest category against their own average.** A
   player's *own average* is their share of all points scored at the table;
   their strongest category is the one where their share of that category's
   points exceeds it most ("Aki in the temple ranking (59% of the table's
   points there, against 28% of all points)"). Shares make a 3-point award
   and a 60-point journey comparable.
   Players with no category above their own share are left out.

What "removing a category" means:
    Its points are not counted, for every player, and every other number
    stays as it is; the game is not replayed. A player then *would have won*
    only with a strictly higher total than everyone else: a tie on the top
    total would go to a tie-break, and the tie-break (achievement cards, war
    chests, tourists) may itself depend on the removed category, so a tie is
    never claimed as a change. This is also what removing a category means
    after a win on the tie-break: the winner tied on points, so any category
    where the winner outscored a tied rival decides the game ("Without the
    gourmet award, Ben would have won by 3 points"), and the first sentence
    says the totals were level and which tie-break separated them. For a
    shared win, the winner changes when one player would have led alone.

Which set is reported:
    The fewest categories; among sets of that size, the one holding the fewest
    points (everybody's points in those categories added up: the least the
    winner could not have done without), then the first in the scorer's
    category order. A category in which every player scored the same is never
    part of the set (removing it changes no difference between players).

Special cases:
    - A single-category game (Shibuya: goals) has no decisive or strongest
      category: only the outcome sentence is returned.
    - Sides: a Shibuya four-player side is named with its members ("Red (Aki
      and Ben)"), from the player entry's ``members`` or the ``members``
      argument.
    - Seats that were not scored (``total`` ``None``) take no part in any
      sentence; fewer than two scored seats give no sentences.
    - ``interim=True`` (a scoring in the middle of the game, such as Shogun's
      first winter) speaks of who *leads*, not who won.
    - A document that is not a consistent result (a breakdown that does not
      add up to its total, a winner without the top total, ...) gives no
      sentences: nothing is said that the numbers might not show.

Names are returned verbatim inside the sentences: render them as data (rich
``Text``), never as markup.

Example:
    >>> result = {
    ...     "game": "tokaido",
    ...     "players": [
    ...         {"name": "Aki", "total": 73, "rank": 1,
    ...          "breakdown": {"journey": 60, "temple": 10, "gourmet": 3}},
    ...         {"name": "Ben", "total": 71, "rank": 2,
    ...          "breakdown": {"journey": 64, "temple": 7, "gourmet": 0}},
    ...     ],
    ...     "winners": ["Aki"],
    ...     "tiebreak": None,
    ... }
    >>> sentences = explain(result)
    >>> sentences[:2]
    ['Aki won by 2 points, 73 to 71.', 'Without the gourmet award, Ben would have won by 1 point.']
    >>> sentences[2][:64]
    "Against each player's share of all points, Aki was strongest in "
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from itertools import combinations, compress
from math import comb
from typing import Any, NamedTuple

from scorers import SCORERS, join_names

MAX_SEATS = 16
"""More seats than this is not a game result: nothing is explained."""
MAX_CATEGORIES = 40
"""More categories than this is not a game result: nothing is explained."""
SEARCH_LIMIT = 20_000
"""Most category sets :func:`decisive` tries before it gives up (and says nothing)."""

LABELS = SCORERS.facts(lambda info: info.labels)
"""Each game's categories as players say them, with their article (``GameInfo.labels``)."""

UNITS = SCORERS.facts(lambda info: info.unit)
"""What a game's totals count, singular and plural (``GameInfo.unit``)."""

_FINAL = {
    "won": "won",
    "shared": "shared the win",
    "would": "would have won",
    "alone": "would have won alone",
    "level": "finished level on",
    "both": "both scored",
    "all": "all scored",
}
_INTERIM = {
    "won": "leads",
    "shared": "share the lead",
    "would": "would lead",
    "alone": "would lead alone",
    "level": "are level on",
    "both": "both have",
    "all": "all have",
}


def label(game: str, category: str) -> str:
    """A category as players say it, with its article: ``temple`` → ``the temple ranking``."""
    known = LABELS.get(game, {}).get(category)
    return known if known is not None else "the " + category.replace("_", " ")


class Seat(NamedTuple):
    """One scored seat of a result.

    (The three shapes here are named tuples: quicker to define than
    dataclasses, which matters to a module loaded for every scoring.)

    Attributes:
        name: The player's (or side's) name.
        total: Their total.
        points: Their points per category, in the order of :attr:`Game.categories`.
        members: The people of a side (Shibuya with four players), else empty.
    """

    name: str
    total: int
    points: tuple[int, ...]
    members: tuple[str, ...] = ()

    @property
    def who(self) -> str:
        """The name as a sentence says it: ``Red (Aki and Ben)`` for a side."""
        if self.members:
            return f"{self.name} ({join_names(self.members)})"
        return self.name


class Game(NamedTuple):
    """A result read for explaining: the scored seats only, in seat order.

    Attributes:
        game: The game id.
        categories: Every category of any seat's breakdown, in first-seen order.
        seats: The scored seats (not-scored seats are left out).
        winners: Indexes into ``seats`` of the winners.
        tiebreak: The rule that separated a tie on the top total, or ``None``.
    """

    game: str
    categories: tuple[str, ...]
    seats: tuple[Seat, ...]
    winners: tuple[int, ...]
    tiebreak: str | None


class Decision(NamedTuple):
    """A set of categories whose removal changes the winner.

    Attributes:
        categories: The removed categories (the scorer's keys), in category order.
        leader: The seat that would have won outright, by name.
        margin: By how much it would have led the next total (at least 1).
        totals: Every scored seat's total without those categories, by name.
    """

    categories: tuple[str, ...]
    leader: str
    margin: int
    totals: dict[str, int]


def read(
    result: Mapping[str, Any], *, members: Mapping[str, Sequence[str]] | None = None
) -> Game | None:
    """Read a result document for explaining, or ``None`` if it is not a consistent one.

    Args:
        result: The result document (``companion score --json``).
        members: Side name → its members, for sides whose entry has no ``members``.
    """
    if not isinstance(result, Mapping):
        return None
    game = result.get("game")
    players = result.get("players")
    winners = result.get("winners")
    tiebreak = result.get("tiebreak")
    if not isinstance(game, str) or not isinstance(players, list) or not isinstance(winners, list):
        return None
    if tiebreak is not None and not isinstance(tiebreak, str):
        return None
    if len(players) > MAX_SEATS or not winners:
        return None
    categories: list[str] = []
    scored: list[tuple[str, int, Mapping[str, Any], tuple[str, ...]]] = []
    for player in players:
        if not isinstance(player, Mapping):
            return None
        name, total, breakdown = player.get("name"), player.get("total"), player.get("breakdown")
        if not isinstance(name, str):
            return None
        if total is None:
            continue
        if not _is_int(total) or not isinstance(breakdown, Mapping):
            return None
        if len(breakdown) > MAX_CATEGORIES:
            return None
        if not all(isinstance(k, str) and _is_int(v) for k, v in breakdown.items()):
            return None
        if sum(breakdown.values()) != total:
            return None
        categories.extend(k for k in breakdown if k not in categories)
        side = player.get("members")
        if members is not None and name in members:
            side = members[name]
        people = tuple(side) if isinstance(side, list | tuple) else ()
        if len(people) > MAX_SEATS or not all(isinstance(m, str) for m in people):
            return None
        scored.append((name, total, breakdown, people))
    if len(categories) > MAX_CATEGORIES:
        return None
    seats = tuple(
        Seat(name, total, tuple(int(breakdown.get(c, 0)) for c in categories), people)
        for name, total, breakdown, people in scored
    )
    index = {seat.name: k for k, seat in enumerate(seats)}
    if len(index) != len(seats) or not all(isinstance(w, str) and w in index for w in winners):
        return None
    chosen = tuple(sorted({index[w] for w in winners}))
    top = max((seat.total for seat in seats), default=0)
    if any(seats[w].total != top for w in chosen):
        return None
    leaders = sum(1 for seat in seats if seat.total == top)
    if tiebreak is None and len(chosen) != leaders:
        return None
    return Game(game, tuple(categories), seats, chosen, tiebreak)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def explain(
    result: Mapping[str, Any],
    *,
    members: Mapping[str, Sequence[str]] | None = None,
    interim: bool = False,
) -> list[str]:
    """Explain a scored game in one to three plain sentences (see the module doc).

    Args:
        result: The result document of ``companion score --json``; seats with
            ``total`` ``None`` (not scored) are left out.
        members: Side name → its members (Shibuya with four players), for
            sides whose result entry does not carry ``members``.
        interim: The scoring is not the end of the game (Shogun's first
            winter): sentences say who leads.

    Returns:
        The outcome and closest margin, the decisive category and each
        player's strongest category, each a sentence ending with a full stop;
        a sentence the numbers do not support is left out. Empty for fewer
        than two scored seats or a document that is not a consistent result.
    """
    game = read(result, members=members)
    if game is None or len(game.seats) < 2:
        return []
    words = _INTERIM if interim else _FINAL
    sentences = [_outcome(game, words)]
    if len(game.categories) > 1:
        decided = _decided(game, words)
        if decided:
            sentences.append(decided)
        strongest = _strongest(game)
        if strongest:
            sentences.append(strongest)
    return sentences


def _amount(game: Game, value: int) -> str:
    one, many = UNITS.get(game.game, ("point", "points"))
    return f"{value} {one if value == 1 else many}"


def _names(seats: Sequence[Seat]) -> str:
    return join_names([seat.who for seat in seats])


def _levels(game: Game) -> list[tuple[int, list[Seat]]]:
    """Distinct totals, highest first, each with its seats in seat order."""
    levels: dict[int, list[Seat]] = {}
    for seat in game.seats:
        levels.setdefault(seat.total, []).append(seat)
    return sorted(levels.items(), key=lambda item: -item[0])


def _outcome(game: Game, words: Mapping[str, str]) -> str:
    levels = _levels(game)
    top, leaders = levels[0]
    winners = [game.seats[w] for w in game.winners]
    if len(leaders) > 1 and game.tiebreak is not None:
        scored = words["both"] if len(leaders) == 2 else words["all"]
        level = f"{_names(leaders)} {scored} {_amount(game, top)}"
        if len(winners) == 1:
            return f"{level}; {winners[0].who} {words['won']} on the tie-break ({game.tiebreak})."
        return (
            f"{level}; after the tie-break ({game.tiebreak}), {_names(winners)} {words['shared']}."
        )
    if len(leaders) > 1:
        shared = f"{_names(leaders)} {words['shared']} on {_amount(game, top)}"
        if len(levels) == 1:
            return shared + "."
        below, behind = levels[1]
        return f"{shared}, {_amount(game, top - below)} ahead of {_names(behind)}."
    winner = leaders[0]
    second, runners = levels[1]
    margin = top - second
    if len(game.seats) == 2:
        return f"{winner.who} {words['won']} by {_amount(game, margin)}, {top} to {second}."
    won = f"{winner.who} {words['won']} by {_amount(game, margin)} over {_names(runners)}"
    # The narrowest gap below the winner: a tie inside a level, or two neighbouring levels.
    closest: tuple[int, int] | None = None  # (gap, level index); a tie is (0, k)
    for k in range(1, len(levels)):
        if len(levels[k][1]) > 1:
            closest = (0, k)  # nothing is closer than a tie
            break
        if k + 1 < len(levels):
            gap = levels[k][0] - levels[k + 1][0]
            if closest is None or gap < closest[0]:
                closest = (gap, k)
    if closest is None or closest[0] >= margin:
        if closest is None:
            return won + "."
        return won + ", the closest gap at the table."
    gap, k = closest
    total, seats = levels[k]
    if gap == 0:
        if k == 1:
            return f"{won}, who {words['level']} {total}."
        return f"{won}; {_names(seats)} {words['level']} {total}."
    lower, under = levels[k + 1]
    return (
        f"{won}; the closest gap was {_amount(game, gap)}, "
        f"between {_names(seats)} on {total} and {_names(under)} on {lower}."
    )


def decisive(
    result: Mapping[str, Any] | Game,
    *,
    members: Mapping[str, Sequence[str]] | None = None,
) -> Decision | None:
    """The smallest set of categories whose removal changes the winner.

    Removing a set means not counting its points for anyone (see the module
    doc). The winner changes when exactly one seat then has the top total and
    that seat is not the winner; after a shared win, when any one seat then
    leads alone. Among sets of the smallest size the one holding the fewest
    points is taken, then the first in category order.

    Args:
        result: A result document, or a :class:`Game` from :func:`read`.
        members: As for :func:`read`.

    Returns:
        The set, or ``None`` when no set changes the winner, when the result is
        not consistent, or when more than :data:`SEARCH_LIMIT` sets would have
        to be tried.
    """
    game = result if isinstance(result, Game) else read(result, members=members)
    if game is None or len(game.seats) < 2:
        return None
    seats = game.seats
    count = len(seats)
    ks = range(len(game.categories))
    weight = [sum(seat.points[k] for seat in seats) for k in ks]
    single = game.winners[0] if len(game.winners) == 1 else -1
    # Per possible new leader: the categories worth removing for it (where someone
    # outscored it; removing any other only costs it ground) and a lower bound on
    # how many must go (it must get ahead of every other seat, one at a time).
    plans: list[tuple[int, int, list[int]]] = []  # (bound, seat, pool)
    for c in range(count):
        if c == single:
            continue
        mine = seats[c].points
        pool = [k for k in ks if any(seat.points[k] > mine[k] for seat in seats)]
        bound = 0
        for p in range(count):
            if p == c:
                continue
            needed = _fewest(seats[p].total - seats[c].total, seats[p].points, mine)
            if needed is None:
                break  # c can never get ahead of p
            bound = max(bound, needed)
        else:
            plans.append((max(bound, 1), c, pool))
    if not plans:
        return None
    tried = 0
    for size in range(min(bound for bound, _, _ in plans), len(game.categories) + 1):
        best: tuple[int, tuple[int, ...], int] | None = None
        for bound, c, pool in plans:
            if bound > size or size > len(pool):
                continue
            tried += comb(len(pool), size)
            if tried > SEARCH_LIMIT:
                return None
            found = _sets_that_lead(seats, c, pool, size)
            for chosen in found:
                points = sum(weight[k] for k in chosen)
                if best is None or (points, chosen) < best[:2]:
                    best = (points, chosen, c)
        if best is not None:
            _, chosen, leader = best
            left = [seat.total - sum(seat.points[k] for k in chosen) for seat in seats]
            runner_up = max(v for s, v in enumerate(left) if s != leader)
            return Decision(
                tuple(game.categories[k] for k in chosen),
                seats[leader].name,
                left[leader] - runner_up,
                {seat.name: left[s] for s, seat in enumerate(seats)},
            )
    return None


def _sets_that_lead(
    seats: Sequence[Seat], c: int, pool: Sequence[int], size: int
) -> list[tuple[int, ...]]:
    """Every ``size`` categories of ``pool`` whose removal puts seat ``c`` alone in the lead.

    The sums run inside ``itertools`` (one pass per other seat over all the
    sets), which keeps a thousand sets well under a millisecond.
    """
    mine = seats[c].points
    passing: list[bool] | None = None
    for p, seat in enumerate(seats):
        if p == c:
            continue
        lead = seats[c].total - seat.total
        gains = [seat.points[k] - mine[k] for k in pool]
        ok = [lead + gained > 0 for gained in map(sum, combinations(gains, size))]
        passing = ok if passing is None else [a and b for a, b in zip(passing, ok, strict=True)]
    if passing is None:
        return []
    return list(compress(combinations(pool, size), passing))


def _fewest(behind: int, theirs: Sequence[int], mine: Sequence[int]) -> int | None:
    """Fewest categories to remove so that ``mine`` gets strictly ahead of ``theirs``.

    Args:
        behind: Their total minus mine.
        theirs: Their points per category.
        mine: My points per category.

    Returns:
        The count (0 if already ahead), or ``None`` if no removal puts me ahead.
    """
    if behind < 0:
        return 0
    gained = 0
    for count, gain in enumerate(
        sorted((t - m for t, m in zip(theirs, mine, strict=True)), reverse=True), 1
    ):
        if gain <= 0:
            return None
        gained += gain
        if gained > behind:
            return count
    return None


def _decided(game: Game, words: Mapping[str, str]) -> str | None:
    decision = decisive(game)
    if decision is None:
        if len(game.winners) == 1 and _at_least_everywhere(game, game.winners[0]):
            who = game.seats[game.winners[0]].who
            return (
                f"{who} scored at least as many points as anyone in every category,"
                " so no category decided it."
            )
        return None
    by_name = {seat.name: seat for seat in game.seats}
    leader = by_name[decision.leader]
    verb = words["alone"] if len(game.winners) > 1 and leader in _winners(game) else words["would"]
    removed = join_names([label(game.game, c) for c in decision.categories])
    return f"Without {removed}, {leader.who} {verb} by {_amount(game, decision.margin)}."


def _winners(game: Game) -> list[Seat]:
    return [game.seats[w] for w in game.winners]


def _at_least_everywhere(game: Game, winner: int) -> bool:
    mine = game.seats[winner].points
    return all(
        mine[k] >= seat.points[k] for seat in game.seats for k in range(len(game.categories))
    )


def _percent(part: float) -> int:
    return int(part * 100 + 0.5)


def _strongest(game: Game) -> str | None:
    seats = game.seats
    if any(p < 0 for seat in seats for p in seat.points):
        return None  # shares of negative points mean nothing
    grand = sum(seat.total for seat in seats)
    if grand <= 0:
        return None
    sums = [sum(seat.points[k] for seat in seats) for k in range(len(game.categories))]
    parts: list[str] = []
    for seat in seats:
        overall = seat.total / grand
        best: tuple[float, int] | None = None
        for k, whole in enumerate(sums):
            if whole <= 0:
                continue
            share = seat.points[k] / whole
            if _percent(share) <= _percent(overall):
                continue  # not visibly above their own share once rounded
            if best is None or share - overall > best[0]:
                best = (share - overall, k)
        if best is not None:
            k = best[1]
            share = seat.points[k] / sums[k]
            verb = " was strongest in " if not parts else " in "
            parts.append(
                f"{seat.who}{verb}{label(game.game, game.categories[k])}"
                f" ({_percent(share)}% of the table's points there, against"
                f" {_percent(overall)}% of all points)"
            )
    if not parts:
        return None
    return "Against each player's share of all points, " + join_names(parts) + "."


def explain_result(result: dict[str, Any], score_file: str | None) -> list[str]:
    """The sentences of :func:`companion.analysis.explain.explain` for a result and its score file.

    A team's members are read from the score file's players (``members``);
    a file its game's interim rule marks (``GameInfo.is_interim``: a Shogun
    file of the first winter, ``"year": 1``) is an interim scoring, whose
    sentences say who leads (as :func:`companion.history.model.status_of`
    says, without loading the history).

    Args:
        result: The result document (``companion score --json``).
        score_file: The score file it was scored from, or ``None``.
    """
    try:
        data = json.loads(score_file) if score_file else None
    except ValueError:
        data = None
    game = result["game"]
    interim = game in SCORERS and SCORERS[game].info.is_interim(data)
    return explain(result, members=file_members(data, result), interim=interim)


def file_members(data: object, result: dict[str, Any]) -> dict[str, list[str]] | None:
    """Side name → members, from a parsed score file whose players are teams; else ``None``."""
    entries = data.get("players") if isinstance(data, dict) else None
    sides = result["players"]
    if not isinstance(entries, list) or len(entries) != len(sides):
        return None
    members = {}
    for entry, side in zip(entries, sides, strict=True):
        people = entry.get("members") if isinstance(entry, dict) else None
        if isinstance(people, list) and people and all(isinstance(m, str) for m in people):
            members[side["name"]] = list(people)
    return members or None
