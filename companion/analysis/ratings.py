"""Skill ratings per person, per game and over every game (openskill's Plackett-Luce).

Every person starts at openskill's default rating (mu 25, sigma 25/3) and each
counted play moves the ratings of the people in it, in play order: a later
play is rated with the ratings as they were then, so the same plays in another
order give other numbers, and the same plays in the same order always give the
same numbers. The history adapter passes plays in play order (``played_at``,
then id) and recomputes from scratch, so edits and deletions are reflected.

What is rated:
    - Plays that count: final and not ignored (:attr:`PlayedGame.counts`).
    - Seats with a rank; seats that were not scored are left out, and a play
      with fewer than two rated seats changes nothing.
    - Ranks as the result gives them: tied seats share a rank (a shared win
      or a tie lower down is a tie for the model).
    - A side of a team game (Shibuya with four players) is one team of its
      members: both partners are rated by the side's result.
    - An anonymous seat (a guest) plays with a fresh default rating that is
      not kept; a person named in two seats of one play is rated in the
      first only, the second plays as a guest.

Each play updates two ratings per person: the one for that game and the
overall one (every game together).

The model is openskill's :class:`openskill.models.PlackettLuce` with its
default parameters (mu 25, sigma 25/3, beta 25/6, kappa 0.0001, tau 25/300;
no margin, balance, weights or sigma limit), which :func:`rate` reads from
openskill itself. Its ``rate()`` deep-copies every rating, checks its
arguments and builds objects for every team: about 190 µs a play on this
machine, some 40 s for 100,000 plays rated twice (per game and overall),
against a target of 2 s. So :func:`rate_match` computes the same update
(Weng & Lin's Algorithm 4, as ``PlackettLuce._compute`` does it) directly on
floats, with its double sum over teams folded into running sums (see
:func:`_update`). The tests hold it to openskill's own ``rate()`` within 1e-9
on thousands of random matches (2–5 teams of 1–3 people, ties, any ratings),
and whole histories to openskill rating them play by play.

What to show: :attr:`Rating.mu` is the skill estimate and :attr:`Rating.sigma`
its uncertainty; :attr:`Rating.ordinal` (mu - 3·sigma, openskill's
``ordinal()``) is the conservative rating that tables sort by: it starts at 0
and rises as the system becomes sure of a player. :meth:`Ratings.history`
gives a person's rating after each of their plays, for a chart.

Example:
    >>> from companion.analysis.played_game import PlayedGame, PlayedSeat
    >>> play = PlayedGame(1, "2025-06-01", "shimoda", (
    ...     PlayedSeat("Aki", 30, 1, True), PlayedSeat("Ben", 25, 2)))
    >>> ratings = rate([play])
    >>> [(r.name, round(r.mu, 3), round(r.sigma, 3), r.plays) for r in ratings.table("shimoda")]
    [('Aki', 27.635, 8.066, 1), ('Ben', 22.365, 8.066, 1)]
"""

from __future__ import annotations

import gc
import math
from array import array
from bisect import bisect_right
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import NamedTuple

from companion.analysis.played_game import FINAL, PlayedGame, Position, in_play_order
from scorers.names import name_key

MU = 25.0
"""A new player's skill estimate (openskill's default)."""
SIGMA = 25.0 / 3.0
"""A new player's uncertainty (openskill's default)."""
BETA = 25.0 / 6.0
"""The spread of a performance around the skill (openskill's default)."""
KAPPA = 0.0001
"""The smallest factor a variance may shrink by in one play (openskill's default)."""
TAU = 25.0 / 300.0
"""Uncertainty added before each play, so ratings keep moving (openskill's default)."""


@dataclass(frozen=True)
class Model:
    """The Plackett-Luce parameters a rating uses (see :func:`model`)."""

    mu: float = MU
    sigma: float = SIGMA
    beta: float = BETA
    kappa: float = KAPPA
    tau: float = TAU


def model() -> Model:
    """openskill's default Plackett-Luce parameters, read from openskill itself.

    Raises:
        ValueError: openskill's defaults use an option the update here does
            not compute (a margin, balance, sigma limit or custom gamma).
    """
    from openskill.models import PlackettLuce  # heavy (0.1 s): only when rating
    from openskill.models.weng_lin.plackett_luce import _gamma

    pl = PlackettLuce()
    if pl.margin or pl.balance or pl.limit_sigma or pl.gamma is not _gamma:
        raise ValueError("openskill's Plackett-Luce defaults changed: the ratings need a review")
    return Model(pl.mu, pl.sigma, pl.beta, pl.kappa, pl.tau)


@dataclass(frozen=True)
class Rating:
    """One person's rating in one game, or overall.

    Attributes:
        name: The person's name as most recently written.
        mu: The skill estimate.
        sigma: Its uncertainty (one standard deviation).
        plays: Rated plays.
    """

    name: str
    mu: float
    sigma: float
    plays: int

    @property
    def ordinal(self) -> float:
        """The conservative rating, ``mu - 3 * sigma`` (what tables sort by)."""
        return self.mu - 3.0 * self.sigma


class Point(NamedTuple):
    """A person's rating just after one play, for a chart over time.

    A named tuple: a history has a point for every play of a person, and
    tuples are quick to make by the hundred thousand.

    Attributes:
        play: The play's id.
        played_at: When it was played.
        mu: The skill estimate after it.
        sigma: The uncertainty after it.
        uuid: The play's uuid (with ``played_at``, its place in play order).
    """

    play: int
    played_at: str
    mu: float
    sigma: float
    uuid: str = ""

    @property
    def position(self) -> Position:
        """The play's key in play order (see :func:`~.played_game.in_play_order`)."""
        return self.played_at, self.uuid, self.play

    @property
    def ordinal(self) -> float:
        """The conservative rating, ``mu - 3 * sigma``."""
        return self.mu - 3.0 * self.sigma


class _Slot:
    """One person's running rating in one scope: ``rating`` is ``[mu, sigma]``."""

    __slots__ = ("name", "plays", "rating")

    def __init__(self, name: str, rating: list[float]) -> None:
        self.name = name
        self.rating = rating
        self.plays = 0

    def copy(self) -> _Slot:
        """A slot of its own with the same rating (ratings are changed in place)."""
        slot = _Slot(self.name, list(self.rating))
        slot.plays = self.plays
        return slot


class _Log:
    """Every rated play's new ratings, kept flat while rating, sorted out on first use.

    ``slots`` lists the slots each play changed, one play after another;
    ``values`` their ``mu, sigma`` just after it; ``ends[k]`` is where play
    ``k``'s entries end. Appending is a few calls a play; :meth:`of` indexes
    the entries by slot the first time a history is asked for.
    """

    def __init__(self) -> None:
        self.slots: list[_Slot] = []
        self.values: array[float] = array("d")
        self.ends: array[int] = array("q")
        self._index: dict[_Slot, list[int]] | None = None

    def of(self, slot: _Slot) -> list[int]:
        """The entries of ``slot``, oldest first."""
        if self._index is None:
            index: defaultdict[_Slot, list[int]] = defaultdict(list)
            for entry, owner in enumerate(self.slots):
                index[owner].append(entry)
            self._index = dict(index)
        return self._index.get(slot, [])


class Ratings:
    """The ratings after a sequence of plays; see :func:`rate`.

    A :class:`Ratings` can go on: :meth:`more` rates further plays, later in
    play order, from where it stands, giving the same numbers as rating every
    play from the start (see :mod:`companion.history.rating_cache`, which keeps them in the
    history between calls). :meth:`snapshot` and :meth:`resume` write it down
    and read it back, exactly.
    """

    def __init__(
        self,
        slots: dict[str | None, dict[str, _Slot]],
        counts: dict[str | None, int],
        last: Position | None,
        params: Model,
        plays: list[PlayedGame] | Callable[[], list[PlayedGame]],
    ) -> None:
        self._slots = slots
        self._counts = counts
        self._last = last
        self._params = params
        self._plays = plays
        self._logged: tuple[dict[str | None, dict[str, _Slot]], list[PlayedGame], _Log] | None = (
            None
        )

    @property
    def games(self) -> list[str]:
        """The games with someone rated, in the order first rated."""
        return [game for game, slots in self._slots.items() if game is not None and slots]

    @property
    def plays(self) -> int:
        """How many plays were rated (each counts once, for its game and overall)."""
        return self._counts.get(None, 0)

    @property
    def last(self) -> Position | None:
        """The last rated play, as its key in play order; ``None`` before any."""
        return self._last

    def table(self, game: str | None = None) -> list[Rating]:
        """Everyone's rating, best first (by :attr:`Rating.ordinal`, then name).

        Args:
            game: A game id, or ``None`` for the ratings over every game.
        """
        slots = self._slots.get(game, {})
        ratings = [Rating(s.name, s.rating[0], s.rating[1], s.plays) for s in slots.values()]
        ratings.sort(key=lambda r: (-r.ordinal, name_key(r.name), r.name))
        return ratings

    def rating(self, person: str, game: str | None = None) -> Rating | None:
        """One person's rating (any spelling of the name), or ``None`` if never rated."""
        slot = _find(self._slots, person, game)
        if slot is None:
            return None
        return Rating(slot.name, slot.rating[0], slot.rating[1], slot.plays)

    def history(self, person: str, game: str | None = None) -> list[Point]:
        """One person's rating after each of their rated plays, oldest first.

        Empty when the person was never rated. The ratings over time are not
        kept while rating (that would cost every table); the first call rates
        the plays again, noting every step (the same numbers: rating is
        deterministic), and indexes them. Ratings read back from the history
        (:mod:`companion.history.rating_cache`) read the plays for this on the first call,
        while the history is open.
        """
        if self._logged is None:
            log = _Log()
            plays = self._plays if isinstance(self._plays, list) else self._plays()
            slots: dict[str | None, dict[str, _Slot]] = {}
            rated: list[PlayedGame] = []
            _rate(plays, self._params, log, slots, {}, rated)
            self._logged = (slots, rated, log)
        slots, rated, log = self._logged
        slot = _find(slots, person, game)
        if slot is None:
            return []
        values, ends = log.values, log.ends
        points = []
        with _collector_paused():
            for entry in log.of(slot):
                play = rated[bisect_right(ends, entry)]
                points.append(
                    Point(
                        play.id,
                        play.played_at,
                        values[2 * entry],
                        values[2 * entry + 1],
                        play.uuid,
                    )
                )
        return points

    def only(self, game: str) -> Ratings:
        """These ratings as if only ``game`` had been played.

        A game's ratings depend on its own plays only, and over one game the
        ratings over every game are that game's (the same updates from the
        same start), so this is exact. Its :meth:`history` rates that game's
        plays again; it cannot go on (:meth:`more`), and has no :attr:`last`.
        """
        slots = self._slots.get(game, {})
        count = self._counts.get(game, 0)
        plays = self._plays

        def of_game() -> list[PlayedGame]:
            every = plays if isinstance(plays, list) else plays()
            return [play for play in every if play.game == game]

        scoped = {None: slots, game: slots} if count else {}
        counts = {None: count, game: count} if count else {}
        return Ratings(scoped, counts, None, self._params, of_game)

    def more(
        self,
        plays: Iterable[PlayedGame],
        every: Callable[[], list[PlayedGame]] | None = None,
    ) -> Ratings:
        """These ratings after further plays, each later in play order than :attr:`last`.

        Args:
            plays: The further plays.
            every: Reads every play up to the last of these, for :meth:`history`
                (by default the plays so far, then these).

        Raises:
            ValueError: A play that counts comes at or before :attr:`last` (then
                every play must be rated again from the start).
        """
        if self._counts and self._last is None:
            raise ValueError("ratings of one game (only()) cannot go on")
        played = sorted(plays, key=in_play_order)
        for play in played:
            if play.counts and self._last is not None and in_play_order(play) <= self._last:
                raise ValueError(f"play {play.id} comes before the last rated play")
        slots = {
            scope: {key: slot.copy() for key, slot in scoped.items()}
            for scope, scoped in self._slots.items()
        }
        counts = dict(self._counts)
        last = _rate(played, self._params, None, slots, counts) or self._last
        before = self._plays

        def so_far() -> list[PlayedGame]:
            earlier = before if isinstance(before, list) else before()
            return [*earlier, *played]

        return Ratings(slots, counts, last, self._params, every or so_far)

    def snapshot(self) -> tuple[list[tuple[str | None, int]], list[tuple[str | None, Snapshot]]]:
        """Everything needed to :meth:`resume`: each scope with its rated plays (in the
        order first rated, ``None`` for every game first; a scope may have no one
        rated, when only guests played), and every slot as ``(scope, (key, name,
        mu, sigma, plays))``."""
        scopes = [(scope, self._counts[scope]) for scope in self._slots if self._counts.get(scope)]
        slots = [
            (scope, (key, slot.name, slot.rating[0], slot.rating[1], slot.plays))
            for scope, scoped in self._slots.items()
            for key, slot in scoped.items()
        ]
        return scopes, slots

    @classmethod
    def resume(
        cls,
        scopes: Sequence[tuple[str | None, int]],
        slots: Iterable[tuple[str | None, Snapshot]],
        last: Position | None,
        plays: list[PlayedGame] | Callable[[], list[PlayedGame]],
    ) -> Ratings:
        """The ratings written down by :meth:`snapshot`, after the plays up to ``last``.

        Args:
            scopes: Each scope and its rated plays, as :meth:`snapshot` gives them.
            slots: Every slot, as :meth:`snapshot` gives them.
            last: The last rated play, as its key in play order.
            plays: The plays rated, or a function reading them (for :meth:`history`).
        """
        found: dict[str | None, dict[str, _Slot]] = {None: {}}
        counts: dict[str | None, int] = {}
        for scope, count in scopes:
            found.setdefault(scope, {})
            counts[scope] = count
        for scope, (key, name, mu, sigma, rated) in slots:
            slot = _Slot(name, [mu, sigma])
            slot.plays = rated
            found.setdefault(scope, {})[key] = slot
        if not counts:
            found = {}
        return cls(found, counts, last, model(), plays)


Snapshot = tuple[str, str, float, float, int]
"""One person's rating in one scope, written down: ``(key, name, mu, sigma, plays)``."""


def _find(slots: dict[str | None, dict[str, _Slot]], person: str, game: str | None) -> _Slot | None:
    return slots.get(game, {}).get(name_key(person))


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Pause the cycle collector while tens of thousands of (acyclic) tuples are made.

    Each batch of new objects that survive would otherwise start a collection
    that walks the whole heap, which doubled the time of a long history.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def rate(plays: Iterable[PlayedGame]) -> Ratings:
    """Rate everyone from the plays, given in play order (oldest first).

    Args:
        plays: The plays; those that do not count are skipped.
    """
    played = list(plays)
    params = model()
    slots: dict[str | None, dict[str, _Slot]] = {}
    counts: dict[str | None, int] = {}
    last = _rate(played, params, None, slots, counts)
    return Ratings(slots, counts, last, params, played)


def _rate(
    plays: list[PlayedGame],
    params: Model,
    log: _Log | None,
    slots: dict[str | None, dict[str, _Slot]],
    counts: dict[str | None, int],
    rated: list[PlayedGame] | None = None,
) -> Position | None:
    """Rate the plays, in the order given, from the ratings in ``slots`` (changed in place).

    Args:
        plays: The plays, in play order; those that do not count are skipped.
        params: The model.
        log: Where each step is noted, for :meth:`Ratings.history`.
        slots: Every scope's slots (``None``: every game together), by
            person's key; empty to start from nothing. Scopes come in the order
            first rated, ``None`` first.
        counts: Rated plays per scope, added to.
        rated: Where the plays rated are appended.

    Returns:
        The last play rated, as its key in play order, or ``None`` if none was.
    """
    start = (params.mu, params.sigma)
    overall = slots.setdefault(None, {})  # None: every game together
    keys: dict[str, str] = {}  # name as written -> name_key (names repeat: work it out once)
    # Per game, name as written -> (that game's slot, the overall slot, the person's key).
    pairs: dict[str, dict[str, tuple[_Slot, _Slot, str]]] = {}
    plans: dict[tuple[int, ...], _Plan] = {}  # ranks -> their order and ties
    update = _updater(params)
    last: Position | None = None
    with _collector_paused():  # nothing here makes a cycle; a collection only walks the heap
        for play in plays:
            if play.status != FINAL or play.ignored:
                continue
            seats = [(s, s.rank) for s in play.seats if s.total is not None and s.rank is not None]
            if len(seats) < 2:
                continue
            game = play.game
            known = pairs.get(game)
            if known is None:
                known = pairs[game] = {}
                slots.setdefault(game, {})
            if rated is not None:
                rated.append(play)
            last = in_play_order(play)
            counts[game] = counts.get(game, 0) + 1
            counts[None] = counts.get(None, 0) + 1
            game_teams: list[list[list[float]]] = []
            all_teams: list[list[list[float]]] = []
            ranks: list[int] = []
            touched: list[_Slot] = []
            seen: list[str] = []
            for seat, rank in seats:
                game_team: list[list[float]] = []
                all_team: list[list[float]] = []
                for person in seat.members or (seat.name,):
                    pair = None if seat.anonymous else known.get(person)
                    if pair is None and not seat.anonymous:
                        pair = known[person] = _pair(slots[game], overall, keys, person, start)
                    if pair is None or pair[2] in seen:
                        # A guest, or someone already seated in this play: a fresh rating.
                        game_team.append(list(start))
                        all_team.append(list(start))
                        continue
                    mine, ours, key = pair
                    seen.append(key)
                    mine.name = ours.name = person
                    mine.plays += 1
                    ours.plays += 1
                    game_team.append(mine.rating)
                    all_team.append(ours.rating)
                    if log is not None:
                        touched.append(mine)
                        touched.append(ours)
                game_teams.append(game_team)
                all_teams.append(all_team)
                ranks.append(rank)
            plan = plans.get(tuple(ranks))
            if plan is None:
                plan = plans[tuple(ranks)] = _plan(ranks)
            update(game_teams, plan)
            update(all_teams, plan)
            if log is not None:
                for slot in touched:
                    log.values.extend(slot.rating)
                log.slots.extend(touched)
                log.ends.append(len(log.slots))
    return last


def _pair(
    per_game: dict[str, _Slot],
    overall: dict[str, _Slot],
    keys: dict[str, str],
    person: str,
    start: tuple[float, float],
) -> tuple[_Slot, _Slot, str]:
    """A person's slots in a game and overall (made on their first play), and their key."""
    key = keys.get(person)
    if key is None:
        key = keys[person] = name_key(person)
    mine = per_game.get(key)
    if mine is None:
        mine = per_game[key] = _Slot(person, list(start))
    ours = overall.get(key)
    if ours is None:
        ours = overall[key] = _Slot(person, list(start))
    return mine, ours, key


def rate_match(
    teams: Sequence[Sequence[tuple[float, float]]],
    ranks: Sequence[int],
    params: Model | None = None,
) -> list[list[tuple[float, float]]]:
    """The ratings after one match: openskill's ``PlackettLuce().rate(teams, ranks=ranks)``.

    Args:
        teams: Each team's players as ``(mu, sigma)``; at least two teams.
        ranks: One per team, lower is better, equal for a tie.
        params: The model's parameters (openskill's defaults if not given).

    Returns:
        The new ``(mu, sigma)`` of every player, in the order given.

    Raises:
        ValueError: Fewer than two teams, an empty team, or not one rank per team.
    """
    if len(teams) < 2 or len(ranks) != len(teams) or any(not team for team in teams):
        raise ValueError("a match needs two or more teams, each with players, and a rank each")
    ratings = [[[float(mu), float(sigma)] for mu, sigma in team] for team in teams]
    _update(ratings, _plan([int(rank) for rank in ranks]), params or Model())
    return [[(mu, sigma) for mu, sigma in team] for team in ratings]


_Plan = tuple[list[int], list[tuple[int, int, float]]]


def _plan(ranks: Sequence[int]) -> _Plan:
    """The teams in rank order, and each tie as ``(start, end, 1 / size)`` in that order."""
    order = sorted(range(len(ranks)), key=ranks.__getitem__)
    ties = []
    start = 0
    while start < len(order):
        end = start + 1
        while end < len(order) and ranks[order[end]] == ranks[order[start]]:
            end += 1
        ties.append((start, end, 1.0 / (end - start)))
        start = end
    return order, ties


def _update(teams: list[list[list[float]]], plan: _Plan, params: Model) -> None:
    """Rate one match in place (see :func:`_updater`)."""
    _updater(params)(teams, plan)


def _updater(params: Model) -> Callable[[list[list[list[float]]], _Plan], None]:
    """The update of one match with these parameters, as a function of the teams and plan.

    ``update(teams, plan)`` rates one match in place: each player is ``[mu,
    sigma]``, ``plan`` is :func:`_plan` of the ranks. The parameters are
    bound once, since this runs twice for every play of the history.
    """
    sqrt = math.sqrt
    exp = math.exp
    tau_squared = params.tau * params.tau
    beta_squared = params.beta**2
    kappa = params.kappa

    def update(teams: list[list[list[float]]], plan: _Plan) -> None:
        """Rate one match in place: each player is ``[mu, sigma]``.

        openskill's ``PlackettLuce`` update with no weights, scores or balance:
        tau is added to every sigma, the teams are taken in rank order, and for
        team ``i``, with ``p_q = e_i / S_q`` over the teams ``q`` ranked at or
        above the end of ``i``'s tie,

            omega_i = 1 / A_i - sum(p_q / A_q)
            delta_i = sum(p_q * (1 - p_q) / A_q)

        where ``e = exp(mu / c)``, ``S_q`` sums ``e`` over the teams ranked at or
        below ``q`` and ``A_q`` is the size of ``q``'s tie. openskill runs both
        sums over every pair of teams. ``S_q`` and ``A_q`` are the same across a
        tie of ``A`` teams, so the tie adds exactly ``1 / S`` and ``1 / S**2`` to
        two running sums ``R1``, ``R2``, and each team needs only those:
        ``omega_i = 1 / A_i - e_i * R1`` and ``delta_i = e_i * R1 - e_i**2 * R2``.
        Then, as openskill does, ``omega *= var_i / c``, ``delta *= var_i /
        c**2 * sqrt(var_i) / c``, and each player moves by their share
        ``sigma**2 / var_i`` of the team's variance. The same numbers up to
        rounding, in one pass; this runs twice for every play of the history.

        openskill 6's ``_compute`` ends with a step meant to give tied teams the
        average of their mu changes; it compares each updated rating with itself
        (the same object), so it changes nothing, and nothing here does it
        either. The agreement tests use ties on purpose: a release where that
        step starts to work would fail them.
        """
        order, ties = plan
        if len(order) == 2:
            update_two(teams[order[0]], teams[order[1]], len(ties) == 1)
            return
        members: list[list[list[float]]] = []
        team_mu: list[float] = []
        team_var: list[float] = []
        collective = 0.0
        for i in order:
            team = teams[i]
            if len(team) == 1:
                player = team[0]
                sigma = player[1] = sqrt(player[1] * player[1] + tau_squared)
                mu = player[0]
                var = sigma * sigma
            else:
                mu = var = 0.0
                for player in team:
                    sigma = player[1] = sqrt(player[1] * player[1] + tau_squared)
                    mu += player[0]
                    var += sigma * sigma
            members.append(team)
            team_mu.append(mu)
            team_var.append(var)
            collective += var + beta_squared
        c = sqrt(collective)
        c_cubed = c * c * c
        exps = [exp(mu / c) for mu in team_mu]
        below = exps[:]  # below[k]: the sum of e over rank positions k and after
        for k in range(len(below) - 2, -1, -1):
            below[k] += below[k + 1]
        r1 = r2 = 0.0
        for first, end, tie in ties:
            total = below[first]
            r1 += 1.0 / total
            r2 += 1.0 / (total * total)
            for k in range(first, end):
                e = exps[k]
                var = team_var[k]
                omega = (tie - e * r1) * var / c
                delta = (e * r1 - e * e * r2) * var * sqrt(var) / c_cubed
                team = members[k]
                if len(team) == 1:
                    player = team[0]
                    player[0] += omega
                    factor = 1.0 - delta
                    player[1] *= sqrt(factor if factor > kappa else kappa)
                else:
                    move(team, var, omega, delta)

    def update_two(first: list[list[float]], second: list[list[float]], tied: bool) -> None:
        """:func:`_update` for two teams (``first`` ranked at or above ``second``), written out.

        With ``p = e_1 / (e_1 + e_2)`` and ``q = 1 - p`` the sums of :func:`_update`
        come to ``delta = p * q`` for both teams, and ``omega = q`` for the winner
        and ``-q`` for the loser, or ``1/2 - p`` and ``1/2 - q`` for a tie. Two
        teams are most plays (Shimoda and Shibuya always, the others often).
        """
        mu_1 = var_1 = mu_2 = var_2 = 0.0
        for player in first:
            sigma = player[1] = sqrt(player[1] * player[1] + tau_squared)
            mu_1 += player[0]
            var_1 += sigma * sigma
        for player in second:
            sigma = player[1] = sqrt(player[1] * player[1] + tau_squared)
            mu_2 += player[0]
            var_2 += sigma * sigma
        c = sqrt(var_1 + beta_squared + (var_2 + beta_squared))
        c_cubed = c * c * c
        e_1 = exp(mu_1 / c)
        e_2 = exp(mu_2 / c)
        p = e_1 / (e_1 + e_2)
        q = e_2 / (e_1 + e_2)
        spread = p * q / c_cubed
        omega = (0.5 - p if tied else q) * var_1 / c
        delta = spread * var_1 * sqrt(var_1)
        if len(first) == 1:
            player = first[0]
            player[0] += omega
            factor = 1.0 - delta
            player[1] *= sqrt(factor if factor > kappa else kappa)
        else:
            move(first, var_1, omega, delta)
        omega = (0.5 - q if tied else -q) * var_2 / c
        delta = spread * var_2 * sqrt(var_2)
        if len(second) == 1:
            player = second[0]
            player[0] += omega
            factor = 1.0 - delta
            player[1] *= sqrt(factor if factor > kappa else kappa)
        else:
            move(second, var_2, omega, delta)

    def move(team: list[list[float]], var: float, omega: float, delta: float) -> None:
        """Each player takes their share ``sigma**2 / var`` of the team's omega and delta.

        (A team of one takes all of it: the callers do that inline, it is most teams.)
        """
        for player in team:
            share = player[1] * player[1] / var
            player[0] += share * omega
            factor = 1.0 - share * delta
            player[1] *= sqrt(factor if factor > kappa else kappa)

    return update
