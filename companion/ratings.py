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
and rises as the system becomes sure of a player.

Example:
    >>> from companion.played import PlayedGame, PlayedSeat
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
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import NamedTuple

from companion.played import FINAL, PlayedGame
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

OVERALL = ""
"""The scope of the ratings over every game (where a game id is expected)."""


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
    """

    play: int
    played_at: str
    mu: float
    sigma: float

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
    """The ratings after a sequence of plays; see :func:`rate`."""

    def __init__(
        self,
        slots: dict[str, dict[str, _Slot]],
        rated: list[tuple[int, str]],
        log: _Log | None,
    ) -> None:
        self._slots = slots
        self._rated = rated
        self._log = log

    @property
    def games(self) -> list[str]:
        """The games with at least one rated play, in the order first rated."""
        return [game for game in self._slots if game != OVERALL]

    @property
    def plays(self) -> int:
        """How many plays were rated (each counts once, for its game and overall)."""
        return len(self._rated)

    def _slot(self, person: str, game: str | None) -> _Slot | None:
        return self._slots.get(OVERALL if game is None else game, {}).get(name_key(person))

    def table(self, game: str | None = None) -> list[Rating]:
        """Everyone's rating, best first (by :attr:`Rating.ordinal`, then name).

        Args:
            game: A game id, or ``None`` for the ratings over every game.
        """
        slots = self._slots.get(OVERALL if game is None else game, {})
        ratings = [Rating(s.name, s.rating[0], s.rating[1], s.plays) for s in slots.values()]
        ratings.sort(key=lambda r: (-r.ordinal, name_key(r.name), r.name))
        return ratings

    def rating(self, person: str, game: str | None = None) -> Rating | None:
        """One person's rating (any spelling of the name), or ``None`` if never rated."""
        slot = self._slot(person, game)
        if slot is None:
            return None
        return Rating(slot.name, slot.rating[0], slot.rating[1], slot.plays)

    def history(self, person: str, game: str | None = None) -> list[Point]:
        """One person's rating after each of their rated plays, oldest first.

        Empty when the person was never rated, or when :func:`rate` was told
        not to keep the history. The first call indexes the whole history.
        """
        slot = self._slot(person, game)
        if slot is None or self._log is None:
            return []
        values, ends, rated = self._log.values, self._log.ends, self._rated
        with _collector_paused():
            return [
                Point(*rated[bisect_right(ends, entry)], values[2 * entry], values[2 * entry + 1])
                for entry in self._log.of(slot)
            ]


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


def rate(plays: Iterable[PlayedGame], *, history: bool = True) -> Ratings:
    """Rate everyone from the plays, given in play order (oldest first).

    Args:
        plays: The plays; those that do not count are skipped.
        history: Keep every person's rating after each play, for
            :meth:`Ratings.history` (about 16 bytes a person and play).
    """
    params = model()
    start = (params.mu, params.sigma)
    slots: dict[str, dict[str, _Slot]] = {OVERALL: {}}
    overall = slots[OVERALL]
    rated: list[tuple[int, str]] = []
    log = _Log() if history else None
    keys: dict[str, str] = {}  # name as written -> name_key (names repeat: work it out once)
    plans: dict[tuple[int, ...], _Plan] = {}  # ranks -> their order and ties
    for play in plays:
        if play.status != FINAL or play.ignored:
            continue
        seats = [(s, s.rank) for s in play.seats if s.total is not None and s.rank is not None]
        if len(seats) < 2:
            continue
        per_game = slots.get(play.game)
        if per_game is None:
            per_game = slots[play.game] = {}
        rated.append((play.id, play.played_at))
        game_teams: list[list[list[float]]] = []
        all_teams: list[list[list[float]]] = []
        ranks: list[int] = []
        touched: list[_Slot] = []
        seen: list[str] = []
        for seat, rank in seats:
            game_team: list[list[float]] = []
            all_team: list[list[float]] = []
            for person in seat.members or (seat.name,):
                key = keys.get(person)
                if key is None:
                    key = keys[person] = name_key(person)
                if seat.anonymous or key in seen:
                    game_team.append(list(start))  # a guest: a fresh rating, not kept
                    all_team.append(list(start))
                    continue
                seen.append(key)
                mine = per_game.get(key)
                if mine is None:
                    mine = per_game[key] = _Slot(person, list(start))
                ours = overall.get(key)
                if ours is None:
                    ours = overall[key] = _Slot(person, list(start))
                mine.name = ours.name = person
                game_team.append(mine.rating)
                all_team.append(ours.rating)
                touched.append(mine)
                touched.append(ours)
            game_teams.append(game_team)
            all_teams.append(all_team)
            ranks.append(rank)
        plan = plans.get(tuple(ranks))
        if plan is None:
            plan = plans[tuple(ranks)] = _plan(ranks)
        _update(game_teams, plan, params)
        _update(all_teams, plan, params)
        if log is None:
            for slot in touched:
                slot.plays += 1
        else:
            extend = log.values.extend
            for slot in touched:
                slot.plays += 1
                extend(slot.rating)
            log.slots.extend(touched)
            log.ends.append(len(log.slots))
    return Ratings({scope: s for scope, s in slots.items() if s}, rated, log)


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
        _update_two(teams[order[0]], teams[order[1]], len(ties) == 1, params)
        return
    sqrt = math.sqrt
    tau_squared = params.tau * params.tau
    beta_squared = params.beta**2
    kappa = params.kappa
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
    exp = math.exp
    exps = [exp(mu / c) for mu in team_mu]
    below = exps[:]  # below[k]: the sum of e over rank positions k and after
    for k in range(len(below) - 2, -1, -1):
        below[k] += below[k + 1]
    r1 = r2 = 0.0
    for start, end, tie in ties:
        total = below[start]
        r1 += 1.0 / total
        r2 += 1.0 / (total * total)
        for k in range(start, end):
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
                for player in team:
                    share = player[1] * player[1] / var
                    player[0] += share * omega
                    factor = 1.0 - share * delta
                    player[1] *= sqrt(factor if factor > kappa else kappa)


def _update_two(
    first: list[list[float]], second: list[list[float]], tied: bool, params: Model
) -> None:
    """:func:`_update` for two teams (``first`` ranked at or above ``second``), written out.

    With ``p = e_1 / (e_1 + e_2)`` and ``q = 1 - p`` the sums of :func:`_update`
    come to ``delta = p * q`` for both teams, and ``omega = q`` for the winner
    and ``-q`` for the loser, or ``1/2 - p`` and ``1/2 - q`` for a tie. Two
    teams are most plays (Shimoda and Shibuya always, the others often).
    """
    sqrt = math.sqrt
    tau_squared = params.tau * params.tau
    beta_squared = params.beta**2
    kappa = params.kappa
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
    e_1 = math.exp(mu_1 / c)
    e_2 = math.exp(mu_2 / c)
    p = e_1 / (e_1 + e_2)
    q = e_2 / (e_1 + e_2)
    both = (
        ((first, var_1, 0.5 - p), (second, var_2, 0.5 - q))
        if tied
        else (
            (first, var_1, q),
            (second, var_2, -q),
        )
    )
    for team, var, weight in both:
        omega = weight * var / c
        delta = p * q * var * sqrt(var) / c_cubed
        if len(team) == 1:
            player = team[0]
            player[0] += omega
            factor = 1.0 - delta
            player[1] *= sqrt(factor if factor > kappa else kappa)
        else:
            for player in team:
                share = player[1] * player[1] / var
                player[0] += share * omega
                factor = 1.0 - share * delta
                player[1] *= sqrt(factor if factor > kappa else kappa)
