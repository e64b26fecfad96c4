"""The history fed to the after-game engines: people and teams, play order, what counts."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from openskill.models import PlackettLuce

from companion.history import after_game as past
from companion.history.formats.dispatch import parse
from companion.history.model import Person, Play
from companion.history.store import History
from companion.history.to_played import played
from tests.support.history_fixture import fill

FILES = Path(__file__).parents[1] / "files"
PL = PlackettLuce()


def backup(db_path: Path) -> History:
    """The hand-written BG Stats backup: a team game, blank scores, an ignored play won by
    the anonymous player, and two plays without a winner marked."""
    history = History(db_path)
    history.add(parse((FILES / "bgstats-backup.bgsplay").read_text()).plays, keep_ids=False)
    return history


def seats(play: Any) -> list[tuple[Any, ...]]:
    return [(s.name, s.total, s.rank, s.winner, s.members, s.anonymous) for s in play.seats]


def test_plays_become_seats_with_their_people(db_path: Path) -> None:
    with backup(db_path) as history:
        counted = past._counted(history, None)
        rated = past._rated(history, None)
        every = [played(p) for p in history.plays()]
    # The ignored play (the anonymous player won) is read by played() but counts for nothing.
    assert [(p.game, p.ignored) for p in every] == [
        ("tokaido", False),
        ("shogun", False),
        ("shibuya", False),
        ("tokaido", True),
        ("tokaido", False),
    ]
    assert seats(every[3]) == [
        ("Anonymous player", 90, 1, True, (), True),
        ("Aki", 70, 2, False, (), False),
        ("Anonymous player 2", 65, 3, False, (), True),
    ]
    assert [p.id for p in counted] == [p.id for p in rated] == [1, 2, 3, 5]
    assert seats(rated[2]) == [
        ("Red", 6, 1, True, ("Aki", "Cho"), False),
        ("Blue", 3, 2, False, ("Ben", "Dai"), False),
    ]
    assert seats(rated[0]) == [
        ("Aki", 80, 1, True, (), False),
        ("Ben", 58, 2, False, (), False),
        ("Cho", None, 3, False, (), False),
    ]
    # Both readings of the history agree, seat for seat; only records read the breakdowns.
    assert [seats(p) for p in counted] == [seats(p) for p in rated]
    assert counted[0].seats[0].breakdown == (("imported", 80),)
    assert [seats(p) for p in counted] == [seats(p) for p in every if not p.ignored]


def test_a_side_without_named_people_is_anonymous(db_path: Path) -> None:
    result = {
        "game": "shibuya",
        "players": [
            {"name": "Red", "total": 6, "rank": 1, "breakdown": {"goals": 6}},
            {"name": "Blue", "total": 2, "rank": 2, "breakdown": {"goals": 2}},
        ],
        "winners": ["Red"],
        "tiebreak": None,
    }
    people = (Person("Aki", 0), Person("Guest", 0, anonymous=True), Person("Guest 2", 1, True))
    with History(db_path) as history:
        history.add(
            [Play(0, "u-1", "2026-01-01T20:00:00Z", "shibuya", None, result, people=people)]
        )
        [rated] = past._rated(history, None)
        [counted] = past._counted(history, "shibuya")
    assert (
        seats(rated)
        == seats(counted)
        == [
            ("Red", 6, 1, True, ("Aki",), False),
            ("Blue", 2, 2, False, (), True),
        ]
    )


def openskill_ratings(matches: list[tuple[list[list[str]], list[int]]]) -> dict[str, Any]:
    """openskill's own ratings after the matches, one after the other."""
    ratings: dict[str, Any] = {}
    for teams, ranks in matches:
        rated = PL.rate(
            [[ratings.get(n) or PL.rating(name=n) for n in team] for team in teams],
            ranks=[float(r) for r in ranks],
        )
        for team, new in zip(teams, rated, strict=True):
            for name, rating in zip(team, new, strict=True):
                ratings[name] = rating
    return ratings


def test_ratings_follow_the_history_in_play_order_without_what_does_not_count(
    db_path: Path,
) -> None:
    with backup(db_path) as history:
        ratings = past.ratings(history)
        shibuya = past.ratings(history, "shibuya")
    # In play order; the ignored play and the seats without a score are left out,
    # and both partners of the Shibuya team game are rated by their side's result.
    expected = openskill_ratings(
        [
            ([["Aki"], ["Ben"]], [1, 2]),
            ([["Aki"], ["Dai"]], [2, 1]),
            ([["Aki", "Cho"], ["Ben", "Dai"]], [1, 2]),
            ([["Cho"], ["Dai"]], [2, 1]),
        ]
    )
    table = ratings.table()
    assert {r.name: r.plays for r in table} == {"Aki": 3, "Ben": 2, "Cho": 2, "Dai": 3}
    for rating in table:
        assert rating.mu == pytest.approx(expected[rating.name].mu, abs=1e-9)
        assert rating.sigma == pytest.approx(expected[rating.name].sigma, abs=1e-9)
    # One team game alone: partners move together, by openskill's own numbers.
    partners = openskill_ratings([([["Aki", "Cho"], ["Ben", "Dai"]], [1, 2])])
    team = shibuya.table("shibuya")
    assert [(r.name, r.plays) for r in team] == [("Aki", 1), ("Cho", 1), ("Ben", 1), ("Dai", 1)]
    for rating in team:
        assert rating.mu == pytest.approx(partners[rating.name].mu, abs=1e-9)
        assert rating.sigma == pytest.approx(partners[rating.name].sigma, abs=1e-9)
    assert team[0].mu == team[1].mu > 25 > team[2].mu == team[3].mu


def tokaido(aki: int, ben: int) -> dict[str, Any]:
    totals = {"Aki": aki, "Ben": ben}
    return {
        "game": "tokaido",
        "players": [
            {
                "name": n,
                "total": t,
                "rank": 1 + sum(o > t for o in totals.values()),
                "breakdown": {"journey": t},
            }
            for n, t in totals.items()
        ],
        "winners": [max(totals, key=totals.__getitem__)],
        "tiebreak": None,
    }


def test_records_set_by_a_play_are_against_the_plays_before_it_in_play_order(
    db_path: Path,
) -> None:
    with History(db_path) as history:
        # Saved first, but played a day after the next one.
        later = history.record(
            game="tokaido",
            score_file=None,
            result=tokaido(88, 70),
            played_at="2026-02-02T20:00:00Z",
        )
        earlier = history.record(
            game="tokaido",
            score_file=None,
            result=tokaido(81, 90),
            played_at="2026-02-01T20:00:00Z",
        )
        assert past.records_set(history, earlier) == []
        assert past.records_set(history, later) == [
            "Aki won by 18, the group's biggest Tokaido margin (was 9 by Ben).",
            "Aki's best Tokaido: 88, was 81.",
        ]
        found = past.records(history)
        assert list(found) == ["tokaido"]
        assert (found["tokaido"].best_total.value, found["tokaido"].best_total.holders) == (  # type: ignore[union-attr]
            90,
            ("Ben",),
        )
        ratings = past.ratings(history, "tokaido")
        assert [p.play for p in ratings.history("Aki", "tokaido")] == [earlier, later]
        assert past.rating_history(history, "aki", "tokaido") == ratings.history("Aki", "tokaido")


def test_interim_and_ignored_plays_stay_out_of_records_and_ratings(db_path: Path) -> None:
    winter = {
        "game": "shogun",
        "year": 1,
        "players": [
            {"name": "Aki", "regions": {"green": {"provinces": 3}}},
            {"name": "Ben", "regions": {"green": {"provinces": 1}}},
            {"name": "Cho", "regions": {}},
        ],
    }
    from scorers import SCORERS

    result = SCORERS["shogun"].score_json(winter).to_json()
    with History(db_path) as history:
        play_id = history.record(game="shogun", score_file=json.dumps(winter), result=result)
        history.add(
            [Play(0, "u-2", "2026-01-01T20:00:00Z", "tokaido", None, tokaido(99, 10), ignored=True)]
        )
        assert history.get(play_id).status == "interim"
        assert past.records(history) == {}
        assert past.ratings(history).plays == 0
        assert past.records_set(history, play_id) == []
        # Shown all the same: an interim scoring says who leads.
        assert past.explanation(history.get(play_id))[0] == (
            "Aki leads by 2 points over Ben; the closest gap was 1 point, between Ben on 1 and "
            "Cho on 0."
        )


def test_lengths_per_game_and_player_count(db_path: Path) -> None:
    fill(db_path)  # durations 45 to 51 minutes
    with backup(db_path) as history:
        found = [
            (n.game, n.players, n.plays, round(n.average_min, 2)) for n in past.lengths(history)
        ]
    # The backup's team game counts its four people; its ignored play has no length.
    assert found == [
        ("shibuya", 2, 1, 49.0),
        ("shibuya", 4, 1, 40.0),
        ("tokaido", 2, 2, 52.5),
        ("tokaido", 3, 4, 47.25),
        ("shogun", 3, 2, 73.0),
        ("shogun", 4, 1, 47.0),
    ]


def test_after_game_of_a_scored_game(db_path: Path) -> None:
    with History(db_path) as history:
        play_id = history.record(
            game="tokaido", score_file=None, result=tokaido(60, 50), location="Aki's"
        )
        after = past.after_game(history, play_id)
    assert after == past.AfterGame(["Aki won by 10 points, 60 to 50."], [], None, "Aki's")
