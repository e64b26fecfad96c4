"""Ratings: the direct update against openskill's own rate(), and what a history rates."""

from __future__ import annotations

import doctest
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce, PlackettLuceRating

import companion.analysis.ratings
from companion.analysis.played_game import INTERIM, PlayedGame, PlayedSeat
from companion.analysis.ratings import Model, model, rate, rate_match
from scorers.names import name_key

TOLERANCE = 1e-9
PL = PlackettLuce()


def openskill_rate(
    teams: list[list[tuple[float, float]]], ranks: list[int]
) -> list[list[tuple[float, float]]]:
    rated = PL.rate(
        [[PL.rating(mu, sigma) for mu, sigma in team] for team in teams],
        ranks=[float(rank) for rank in ranks],
    )
    return [[(r.mu, r.sigma) for r in team] for team in rated]


def assert_close(
    ours: list[list[tuple[float, float]]], theirs: list[list[tuple[float, float]]]
) -> None:
    assert [len(t) for t in ours] == [len(t) for t in theirs]
    for team_a, team_b in zip(ours, theirs, strict=True):
        for (mu_a, sigma_a), (mu_b, sigma_b) in zip(team_a, team_b, strict=True):
            assert abs(mu_a - mu_b) <= TOLERANCE
            assert abs(sigma_a - sigma_b) <= TOLERANCE


def test_the_parameters_are_openskills_defaults() -> None:
    assert model() == Model()
    assert (PL.mu, PL.sigma, PL.beta, PL.kappa, PL.tau) == (25.0, 25 / 3, 25 / 6, 0.0001, 25 / 300)


def test_one_match_by_hand() -> None:
    # Two new players, the first wins: openskill's numbers for this match.
    assert rate_match([[(25.0, 25 / 3)], [(25.0, 25 / 3)]], [1, 2]) == [
        [(27.635389493140497, 8.06590141354368)],
        [(22.364610506859503, 8.06590141354368)],
    ]


def test_agrees_with_openskill_on_a_thousand_random_matches() -> None:
    rng = random.Random(2024)
    for _ in range(1000):
        count = rng.randint(2, 5)
        teams = [
            [(rng.uniform(-10, 60), rng.uniform(0.01, 12)) for _ in range(rng.randint(1, 3))]
            for _ in range(count)
        ]
        ranks = [rng.randint(1, count) for _ in range(count)]
        assert_close(rate_match(teams, ranks), openskill_rate(teams, ranks))


ratings_st = st.tuples(st.floats(-50, 100, allow_nan=False), st.floats(0.001, 20, allow_nan=False))


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.lists(ratings_st, min_size=1, max_size=3), min_size=2, max_size=5).flatmap(
        lambda teams: st.tuples(
            st.just(teams),
            st.lists(st.integers(1, len(teams)), min_size=len(teams), max_size=len(teams)),
        )
    )
)
def test_agrees_with_openskill_on_any_match(match: tuple[Any, list[int]]) -> None:
    teams, ranks = match
    assert_close(rate_match(teams, ranks), openskill_rate(teams, ranks))


@pytest.mark.parametrize(
    ("teams", "ranks"),
    [([[(25.0, 8.0)]], [1]), ([[(25.0, 8.0)], []], [1, 2]), ([[(25.0, 8.0)], [(1.0, 1.0)]], [1])],
)
def test_a_match_needs_two_teams_of_players_and_their_ranks(
    teams: list[list[tuple[float, float]]], ranks: list[int]
) -> None:
    with pytest.raises(ValueError, match="two or more teams"):
        rate_match(teams, ranks)


# --- histories -----------------------------------------------------------------------


def seat(name: str, rank: int | None, **options: Any) -> PlayedSeat:
    total = None if rank is None else 10 - rank
    return PlayedSeat(name, total, rank, rank == 1, (), **options)


def play(n: int, game: str, *seats: PlayedSeat, **options: Any) -> PlayedGame:
    return PlayedGame(n, f"2025-06-{n:02d}", game, seats, **options)


def test_a_history_by_hand() -> None:
    plays = [
        play(1, "shimoda", seat("Aki", 1), seat("Ben", 2)),
        play(2, "tokaido", seat("aki", 2), seat("Ben", 1), seat("Cho", 2)),
        play(3, "tokaido", seat("Cho", 1), seat("Ben", 2), status=INTERIM),
        play(4, "tokaido", seat("Cho", 1), seat("Ben", 2), ignored=True),
        play(5, "shimoda", seat("Aki", 1), seat("Dai", None)),  # one rated seat: nothing
    ]
    ratings = rate(plays)
    assert ratings.plays == 2
    assert ratings.games == ["shimoda", "tokaido"]
    # Each game on its own, from fresh ratings.
    new = (25.0, 25 / 3)
    shimoda = openskill_rate([[new], [new]], [1, 2])
    tokaido = openskill_rate([[new], [new], [new]], [2, 1, 2])
    assert [(r.name, r.mu, r.sigma, r.plays) for r in ratings.table("shimoda")] == [
        ("Aki", *shimoda[0][0], 1),
        ("Ben", *shimoda[1][0], 1),
    ]
    got = {r.name: (r.mu, r.sigma) for r in ratings.table("tokaido")}
    assert_close([[got["aki"]], [got["Ben"]], [got["Cho"]]], tokaido)
    # Overall: the second play starts from the first play's ratings.
    overall = openskill_rate([shimoda[0], shimoda[1], [new]], [2, 1, 2])
    everyone = {r.name: r for r in ratings.table()}
    assert sorted(everyone) == ["Ben", "Cho", "aki"]  # latest spelling; Dai was never rated
    assert_close([[(everyone[n].mu, everyone[n].sigma)] for n in ("aki", "Ben", "Cho")], overall)
    assert [everyone[n].plays for n in ("aki", "Ben", "Cho")] == [2, 2, 1]
    assert ratings.rating("AKI") == ratings.rating("aki")
    assert ratings.rating("Dai") is None and ratings.rating("Aki", "shogun") is None
    assert [(p.play, p.played_at) for p in ratings.history("Aki")] == [
        (1, "2025-06-01"),
        (2, "2025-06-02"),
    ]
    last = ratings.history("Ben", "tokaido")[-1]
    ben = ratings.rating("Ben", "tokaido")
    assert ben is not None and (last.mu, last.sigma) == (ben.mu, ben.sigma)


def test_a_team_game_rates_both_partners() -> None:
    plays = [
        play(
            1,
            "shibuya",
            PlayedSeat("Red", 6, 1, True, (), ("Aki", "Cho")),
            PlayedSeat("Blue", 3, 2, False, (), ("Ben", "Dai")),
        )
    ]
    ratings = rate(plays)
    new = (25.0, 25 / 3)
    expected = openskill_rate([[new, new], [new, new]], [1, 2])
    got = {r.name: (r.mu, r.sigma) for r in ratings.table("shibuya")}
    assert_close([[got["Aki"], got["Cho"]], [got["Ben"], got["Dai"]]], expected)
    assert got["Aki"][0] > 25 > got["Ben"][0]


def test_a_guest_plays_with_a_fresh_rating_that_is_not_kept() -> None:
    plays = [
        play(1, "tokaido", seat("Aki", 1), seat("Ben", 2)),
        play(2, "tokaido", seat("Guest", 1, anonymous=True), seat("Aki", 2)),
        play(3, "tokaido", seat("Guest", 1, anonymous=True), seat("Aki", 2)),
    ]
    ratings = rate(plays)
    assert sorted(r.name for r in ratings.table()) == ["Aki", "Ben"]  # no guest
    new = (25.0, 25 / 3)
    first = openskill_rate([[new], [new]], [1, 2])
    second = openskill_rate([[new], first[0]], [1, 2])
    third = openskill_rate([[new], second[1]], [1, 2])
    aki = ratings.rating("Aki")
    assert aki is not None and aki.plays == 3
    assert_close([[(aki.mu, aki.sigma)]], [third[1]])


def test_the_same_plays_give_the_same_numbers_and_order_matters() -> None:
    a = play(1, "kamakura", seat("Aki", 1), seat("Ben", 2), seat("Cho", 3))
    b = play(2, "kamakura", seat("Aki", 3), seat("Ben", 1), seat("Cho", 1))
    once, again, swapped = rate([a, b]), rate([a, b]), rate([b, a])
    assert once.table() == again.table()
    assert once.table("kamakura") != swapped.table("kamakura")
    assert {r.name for r in once.table()} == {r.name for r in swapped.table()}


def test_the_history_is_worked_out_on_first_use() -> None:
    plays = [
        play(1, "shimoda", seat("Aki", 1), seat("Ben", 2)),
        play(2, "shimoda", seat("Ben", 1), seat("Aki", 2)),
    ]
    ratings = rate(p for p in plays)  # any iterable, read once
    aki = ratings.rating("Aki", "shimoda")
    assert aki is not None
    first = openskill_rate([[(25.0, 25 / 3)], [(25.0, 25 / 3)]], [1, 2])
    history = ratings.history("aki", "shimoda")
    assert [(p.play, p.played_at) for p in history] == [(1, "2025-06-01"), (2, "2025-06-02")]
    assert (history[0].mu, history[0].sigma) == first[0][0]
    assert (history[1].mu, history[1].sigma) == (aki.mu, aki.sigma)
    assert history[1].ordinal == aki.ordinal
    assert ratings.history("Cho") == []
    assert ratings.history("Aki", "tokaido") == []


def test_the_table_is_sorted_by_the_conservative_rating() -> None:
    plays = [play(n, "shogun", seat("Aki", 1), seat("Ben", 2), seat("Cho", 3)) for n in range(5)]
    plays.append(play(9, "shogun", seat("Dai", 1), seat("Emi", 2), seat("Fay", 3)))
    table = rate(plays).table("shogun")
    ordinals = [r.ordinal for r in table]
    assert ordinals == sorted(ordinals, reverse=True)
    assert table[0].name == "Aki"
    assert table[0].ordinal == pytest.approx(table[0].mu - 3 * table[0].sigma)


NAMES = ("Aki", "aki", "Ben", "Cho", "Dai", "Emi")


@st.composite
def histories(draw: st.DrawFn) -> list[PlayedGame]:
    """Up to 60 plays with ties, teams, guests, unscored seats, interim and ignored plays."""
    rng = random.Random(draw(st.integers(0, 2**32)))
    plays = []
    for n in range(rng.randint(0, 60)):
        game = rng.choice(["tokaido", "shibuya", "shogun"])
        if game == "shibuya" and rng.random() < 0.5:
            people = rng.sample(NAMES, 4)
            ranks = [1, 2] if rng.random() < 0.5 else [2, 1]
            seats = [
                PlayedSeat("Red", 9, ranks[0], ranks[0] == 1, (), tuple(people[:2])),
                PlayedSeat("Blue", 8, ranks[1], ranks[1] == 1, (), tuple(people[2:])),
            ]
        else:
            names = rng.sample(NAMES, rng.randint(2, 5))
            seats = []
            for name in names:
                rank = None if rng.random() < 0.1 else rng.randint(1, len(names))
                seats.append(seat(name, rank, anonymous=rng.random() < 0.1))
        status = INTERIM if rng.random() < 0.1 else "final"
        plays.append(play(n + 1, game, *seats, status=status, ignored=rng.random() < 0.1))
    return plays


def openskill_history(
    plays: list[PlayedGame],
) -> dict[str | None, dict[str, PlackettLuceRating]]:
    """Rate the plays with openskill's own rate(), one play at a time."""
    scopes: dict[str | None, dict[str, PlackettLuceRating]] = {None: {}}  # None: overall
    for p in plays:
        if not p.counts:
            continue
        seats = [s for s in p.seats if s.total is not None and s.rank is not None]
        if len(seats) < 2:
            continue
        for scope in (p.game, None):
            known = scopes.setdefault(scope, {})
            teams: list[list[PlackettLuceRating]] = []
            who: list[list[str | None]] = []
            seen: set[str] = set()
            for s in seats:
                team: list[PlackettLuceRating] = []
                names: list[str | None] = []
                for person in s.people:
                    key = name_key(person)
                    if s.anonymous or key in seen:
                        team.append(PL.rating())
                        names.append(None)
                    else:
                        seen.add(key)
                        team.append(known.get(key, PL.rating()))
                        names.append(key)
                teams.append(team)
                who.append(names)
            rated = PL.rate(teams, ranks=[float(s.rank or 0) for s in seats])
            for keys, new in zip(who, rated, strict=True):
                for owner, rating in zip(keys, new, strict=True):
                    if owner is not None:
                        known[owner] = rating
    return scopes


@settings(max_examples=40, deadline=None)
@given(histories())
def test_whole_histories_agree_with_openskill(plays: list[PlayedGame]) -> None:
    ours = rate(plays)
    theirs = openskill_history(plays)
    for game, known in theirs.items():
        for key, expected in known.items():
            got = ours.rating(key, game)
            assert got is not None
            assert abs(got.mu - expected.mu) <= TOLERANCE
            assert abs(got.sigma - expected.sigma) <= TOLERANCE
        assert len(ours.table(game)) == len(known)
    for game in [*ours.games, None]:
        for r in ours.table(game):
            points = ours.history(r.name, game)
            assert len(points) == r.plays
            assert (points[-1].mu, points[-1].sigma) == (r.mu, r.sigma)


def test_the_example_in_the_docstring() -> None:
    assert doctest.testmod(companion.analysis.ratings).failed == 0
