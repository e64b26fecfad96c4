"""Records: a hand-made history worked out by hand, and invariants over random ones."""

from __future__ import annotations

import doctest
import json
import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import companion.analysis.played_game
import companion.analysis.records
from companion.analysis.played_game import INTERIM, PlayedGame, PlayedSeat, from_result
from companion.analysis.records import (
    GameRecords,
    Mark,
    PersonRecords,
    RecordBook,
    describe,
    records,
    set_after,
    set_by,
)
from companion.analysis.stats import compute
from companion.cli.app import app
from companion.history import after_game as past
from companion.history.store import History
from scorers import short_title as title
from scorers.names import name_key

FILES = Path(__file__).parents[1] / "files"
runner = CliRunner()


def seat(
    name: str,
    total: int | None,
    *,
    won: bool = False,
    members: tuple[str, ...] = (),
    anonymous: bool = False,
    **breakdown: int,
) -> PlayedSeat:
    return PlayedSeat(
        name,
        total,
        None if total is None else 0,
        won,
        tuple(breakdown.items()),
        members,
        anonymous,
    )


def play(n: int, game: str, *seats: PlayedSeat, **options: Any) -> PlayedGame:
    return PlayedGame(n, f"2025-06-{n:02d}T20:00:00Z", game, seats, **options)


def tokaido(
    name: str, journey: int, temple: int, gourmet: int = 0, won: bool = False
) -> PlayedSeat:
    return seat(
        name, journey + temple + gourmet, won=won, journey=journey, temple=temple, gourmet=gourmet
    )


HISTORY = [
    # 1: the first Tokaido; nothing to beat yet.
    play(1, "tokaido", tokaido("Aki", 70, 10, won=True), tokaido("Ben", 65, 7)),
    # 2: Ben's best; Aki's streak ends. Ben's margin 3.
    play(2, "tokaido", tokaido("Aki", 62, 4), tokaido("Ben", 68, 2, 3, won=True)),
    # 3: interim and ignored plays count for nothing.
    play(3, "tokaido", tokaido("Aki", 99, 10, won=True), tokaido("Ben", 1, 0), status=INTERIM),
    play(4, "tokaido", tokaido("Aki", 99, 10, won=True), tokaido("Ben", 1, 0), ignored=True),
    # 5: "BEN" is Ben; Cho joins; Aki's seat was not scored (a play and a loss for Aki,
    # no score); Ben wins again.
    play(
        5,
        "tokaido",
        tokaido("BEN", 75, 10, 3, won=True),
        tokaido("Cho", 60, 7),
        seat("Aki", None),
    ),
    # 6: Ben's third win in a row, equalling the group's total; a guest wins nothing.
    play(
        6,
        "tokaido",
        tokaido("Ben", 80, 8, won=True),
        tokaido("Aki", 75, 10),
        seat("Guest", 50, anonymous=True, journey=50),
    ),
    # 7: a Shibuya team game: both partners of the winning side are credited.
    play(
        7,
        "shibuya",
        seat("Red", 6, won=True, members=("Aki", "Cho"), goals=6),
        seat("Blue", 2, members=("Ben", "Dai"), goals=2),
    ),
    play(
        8,
        "shibuya",
        seat("Red", 7, won=True, members=("Aki", "Dai"), goals=7),
        seat("Blue", 4, members=("Ben", "Cho"), goals=4),
    ),
]


def test_group_records_by_hand() -> None:
    games = records(HISTORY)
    assert sorted(games) == ["shibuya", "tokaido"]
    t = games["tokaido"]
    assert t.plays == 4
    assert t.best_total == Mark(88, ("BEN",), 5, "2025-06-05T20:00:00Z")
    assert t.biggest_margin == Mark(21, ("BEN",), 5, "2025-06-05T20:00:00Z")
    assert t.longest_streak == Mark(3, ("Ben",), 6, "2025-06-06T20:00:00Z")
    assert {c: (m.value, m.holders, m.play) for c, m in t.categories.items()} == {
        "journey": (80, ("Ben",), 6),
        "temple": (10, ("Aki",), 1),
        "gourmet": (3, ("Ben",), 2),
    }
    s = games["shibuya"]
    assert s.best_total == Mark(7, ("Aki", "Dai"), 8, "2025-06-08T20:00:00Z")
    assert s.longest_streak == Mark(2, ("Aki",), 8, "2025-06-08T20:00:00Z")
    assert s.categories == {}  # one category: the total itself


def test_personal_records_by_hand() -> None:
    people = records(HISTORY)["tokaido"].people
    assert sorted(people) == ["aki", "ben", "cho"]  # the guest holds nothing
    aki, ben, cho = people["aki"], people["ben"], people["cho"]
    assert (aki.name, aki.plays, aki.wins, aki.current_streak) == ("Aki", 4, 1, 0)
    assert (ben.name, ben.plays, ben.wins, ben.current_streak) == ("Ben", 4, 3, 3)
    assert (cho.plays, cho.wins, cho.current_streak) == (1, 0, 0)
    assert aki.best_total is not None and (aki.best_total.value, aki.best_total.play) == (85, 6)
    assert ben.best_total is not None and ben.best_total.value == 88
    assert aki.longest_streak is not None and aki.longest_streak.value == 1
    assert ben.longest_streak is not None and ben.longest_streak.value == 3
    assert aki.biggest_margin is not None and aki.biggest_margin.value == 8
    assert ben.biggest_margin is not None and ben.biggest_margin.value == 21
    assert cho.longest_streak is None and cho.biggest_margin is None
    assert {c: m.value for c, m in aki.categories.items()} == {"journey": 75, "temple": 10}
    shibuya = records(HISTORY)["shibuya"].people
    assert {k: (p.plays, p.wins, p.current_streak) for k, p in shibuya.items()} == {
        "aki": (2, 2, 2),
        "cho": (2, 1, 0),
        "ben": (2, 0, 0),
        "dai": (2, 1, 1),
    }


def test_what_each_play_set() -> None:
    book = RecordBook()
    told = [describe(book.add(p), categories=True) for p in HISTORY]
    assert told == [
        [],
        ["Ben's best Tokaido: 73, was 72.", "Ben's best Tokaido in the journey: 68, was 65."],
        [],
        [],
        [
            "BEN set the group's Tokaido record: 88, was 80 by Aki.",
            "BEN won by 21, the group's biggest Tokaido margin (was 8 by Aki).",
            "BEN has won 2 Tokaido games in a row, the group's longest streak (was 1 by Aki).",
            "BEN set the group's Tokaido record in the journey: 75, was 70 by Aki.",
            "BEN's best Tokaido in the temple ranking: 10, was 7.",
        ],
        [
            "Ben equalled their own group record for Tokaido: 88.",
            "Ben has won 3 Tokaido games in a row, the group's longest streak (was 2).",
            "Ben set the group's Tokaido record in the journey: 80, was 75.",
            "Aki's best Tokaido: 85, was 80.",
            "Aki's best Tokaido in the journey: 75, was 70.",
        ],
        [],
        [
            "Aki and Dai set the group's Shibuya record: 7, was 6 by Aki and Cho.",
            "Aki has won 2 Shibuya games in a row, the group's longest streak"
            " (was 1 by Aki and Cho).",
            "Ben's best Shibuya: 4, was 2.",
        ],
    ]


def test_personal_category_bests_are_told_only_on_request() -> None:
    book = RecordBook()
    book.add(HISTORY[0])
    assert describe(book.add(HISTORY[1])) == ["Ben's best Tokaido: 73, was 72."]


def test_set_by_reads_only_the_same_game() -> None:
    assert set_by(HISTORY[:6], HISTORY[7]) == []  # the first Shibuya
    assert set_by(HISTORY[:7], HISTORY[7]) == [
        "Aki and Dai set the group's Shibuya record: 7, was 6 by Aki and Cho.",
        "Aki has won 2 Shibuya games in a row, the group's longest streak (was 1 by Aki and Cho).",
        "Ben's best Shibuya: 4, was 2.",
    ]


def test_a_persons_first_game_says_nothing() -> None:
    book = RecordBook()
    book.add(play(1, "tokaido", tokaido("Aki", 50, 10, won=True), tokaido("Ben", 40, 7)))
    news = book.add(play(2, "tokaido", tokaido("Cho", 30, 10, won=True), tokaido("Ben", 20, 7)))
    # Cho is new (no personal best yet), and beat no record of the group.
    assert describe(news, categories=True) == []


def test_margins_need_a_sole_winner_ahead_on_points() -> None:
    book = RecordBook()
    book.add(play(1, "shogun", seat("Aki", 30, won=True), seat("Ben", 20), seat("Cho", 10)))
    # A win on the tie-break (margin 0) and a shared win set no margin.
    book.add(play(2, "shogun", seat("Aki", 30, won=True), seat("Ben", 30), seat("Cho", 10)))
    book.add(
        play(3, "shogun", seat("Aki", 40, won=True), seat("Ben", 40, won=True), seat("Cho", 0))
    )
    shogun = book.game("shogun")
    assert shogun is not None
    assert shogun.biggest_margin == Mark(10, ("Aki",), 1, "2025-06-01T20:00:00Z")
    assert shogun.longest_streak == Mark(3, ("Aki",), 3, "2025-06-03T20:00:00Z")
    assert book.game("tokaido") is None


def test_from_result_reads_a_result_document() -> None:
    doc = {
        "game": "shibuya",
        "players": [
            {"name": "Red", "total": 6, "rank": 1, "breakdown": {"goals": 6}},
            {"name": "Blue", "total": None, "rank": None, "breakdown": {}},
        ],
        "winners": ["Red"],
        "tiebreak": None,
    }
    made = from_result(3, "2025-06-03", doc, members={"Red": ["Aki", "Cho"]}, status=INTERIM)
    assert made == PlayedGame(
        3,
        "2025-06-03",
        "shibuya",
        (
            PlayedSeat("Red", 6, 1, True, (("goals", 6),), ("Aki", "Cho")),
            PlayedSeat("Blue", None, None, False, (), ()),
        ),
        status=INTERIM,
    )
    assert not made.counts
    assert made.seats[0].people == ("Aki", "Cho")
    assert made.seats[1].people == ("Blue",)


def test_titles() -> None:
    assert [title(g) for g in ("shimoda", "kamakura", "tokaido", "other")] == [
        "Shimoda",
        "Kamakura Collection",
        "Tokaido",
        "other",
    ]


def test_the_examples_in_the_docstrings() -> None:
    for module in (companion.analysis.records, companion.analysis.played_game):
        assert doctest.testmod(module).failed == 0


# --- invariants over random histories --------------------------------------------


NAMES = ("Aki", "aki", "Ben", "Cho", "Dai")


@st.composite
def histories(draw: st.DrawFn) -> list[PlayedGame]:
    """Up to 40 plays of two games: not-scored seats, guests, interim and ignored plays.

    Some plays are BG Stats' blank scores: no seat scored, with a winner marked
    (or none), or a seat not scored marked winner beside scored ones.

    Built from one drawn seed: far quicker than drawing each number on its own,
    which keeps these tests to a second or two.
    """
    rng = random.Random(draw(st.integers(0, 2**32)))
    plays = []
    for n in range(rng.randint(0, 40)):
        seats = []
        blank = rng.randint(0, 5) == 0  # no seat scored
        for name in rng.sample(NAMES, rng.randint(2, 4)):
            if blank or rng.randint(0, 9) == 0:
                seats.append(seat(name, None, a=rng.randint(0, 3)))  # a breakdown, no total
                continue
            a, b = rng.randint(0, 12), rng.randint(0, 12)
            seats.append(seat(name, a + b, a=a, b=b, anonymous=rng.randint(0, 9) == 0))
        top = max((s.total for s in seats if s.total is not None), default=None)
        won = [s.total is not None and s.total == top for s in seats]
        if blank or rng.randint(0, 9) == 0:  # marked by hand: one seat, or none
            won = [False] * len(seats)
            if rng.randint(0, 4) > 0:
                won[rng.randrange(len(seats))] = True
        seats = [
            PlayedSeat(s.name, s.total, s.rank, w, s.breakdown, (), s.anonymous)
            for s, w in zip(seats, won, strict=True)
        ]
        status = INTERIM if rng.randint(0, 9) == 0 else "final"
        game = rng.choice(["tokaido", "kamakura"])
        plays.append(play(n + 1, game, *seats, status=status, ignored=rng.randint(0, 9) == 0))
    return plays


def reference(plays: list[PlayedGame], game: str) -> dict[str, Any]:
    """The records the slow, obvious way (one person per key and play, their first seat,
    scored or not; totals from scored seats only)."""
    rows: list[tuple[str, PlayedSeat]] = []
    for p in plays:
        if not p.counts or p.game != game:
            continue
        seen = set()
        for s in p.seats:
            key = name_key(s.name)
            if not s.anonymous and key not in seen:
                seen.add(key)
                rows.append((key, s))
    best = max(
        (
            s.total
            for p in plays
            if p.counts and p.game == game
            for s in p.seats
            if s.total is not None and not s.anonymous
        ),
        default=None,
    )
    people: dict[str, dict[str, int]] = {}
    for key in {k for k, _ in rows}:
        mine = [s for k, s in rows if k == key]
        longest = run = 0
        for s in mine:
            run = run + 1 if s.winner else 0
            longest = max(longest, run)
        people[key] = {
            "best": max((s.total for s in mine if s.total is not None), default=None),
            "plays": len(mine),
            "wins": sum(s.winner for s in mine),
            "longest": longest,
            "current": run,
        }
    return {"best": best, "people": people}


@settings(max_examples=100, deadline=None)
@given(histories())
def test_records_agree_with_the_obvious_computation(plays: list[PlayedGame]) -> None:
    games = records(plays)
    for game in ("tokaido", "kamakura"):
        expected = reference(plays, game)
        got = games.get(game)
        if got is None:
            assert not any(p.counts and p.game == game for p in plays)
            continue
        assert got.plays == sum(p.counts and p.game == game for p in plays)
        assert (got.best_total.value if got.best_total else None) == expected["best"]
        assert {
            key: {
                "best": p.best_total.value if p.best_total else None,
                "plays": p.plays,
                "wins": p.wins,
                "longest": p.longest_streak.value if p.longest_streak else 0,
                "current": p.current_streak,
            }
            for key, p in got.people.items()
        } == expected["people"]
        longest = max((p["longest"] for p in expected["people"].values()), default=0)
        assert (got.longest_streak.value if got.longest_streak else 0) == longest


@settings(max_examples=100, deadline=None)
@given(histories())
def test_plays_that_do_not_count_change_nothing(plays: list[PlayedGame]) -> None:
    assert records(plays) == records([p for p in plays if p.counts])
    book = RecordBook()
    for p in plays:
        news = book.add(p)
        assert p.counts or news == []
        for n in news:
            # Set by this play, beating an earlier value (or equalling a total).
            assert n.mark.play == p.id
            assert n.previous.play != p.id
            assert n.mark.value > n.previous.value or (n.equalled and n.kind == "total")


@settings(max_examples=100, deadline=None)
@given(histories())
def test_set_after_reads_only_the_plays_people_and_categories(plays: list[PlayedGame]) -> None:
    """What a play set is the same from the records before it, cut down to its people and
    categories, as after every earlier play."""
    book = RecordBook()
    for p in plays:
        before = book.game(p.game)
        if before is not None:
            keys = {name_key(n) for s in p.seats if not s.anonymous for n in s.people}
            categories = {c for s in p.seats for c, _ in s.breakdown}
            before = replace(
                before,
                plays=0,
                categories={c: m for c, m in before.categories.items() if c in categories},
                people={k: r for k, r in before.people.items() if k in keys},
            )
        assert set_after(before, p) == book.add(p)


@pytest.mark.parametrize(
    "doc",
    [{}, {"game": "tokaido"}, {"game": "tokaido", "players": [{"total": 3}]}],
)
def test_from_result_refuses_what_is_not_a_result(doc: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match="not a result document"):
        from_result(1, "2025-06-01", doc)


# --- blank scores (BG Stats): plays and wins as the statistics count them ----------


def test_a_streak_runs_through_wins_with_blank_scores() -> None:
    """A win with no score at all, and a win where only the winner's score is blank."""
    plays = [
        play(1, "tokaido", seat("Aki", 70, won=True), seat("Ben", 60)),
        play(2, "tokaido", seat("Aki", None, won=True), seat("Ben", None)),
        play(3, "tokaido", seat("Aki", None, won=True), seat("Ben", 50), seat("Cho", 45)),
        play(4, "tokaido", seat("Aki", 65, won=True), seat("Ben", 64)),
    ]
    book = RecordBook()
    assert [describe(book.add(p)) for p in plays] == [
        [],
        ["Aki has won 2 Tokaido games in a row, the group's longest streak (was 1)."],
        # A blank winner sets no margin, and Ben's 50 is no best.
        ["Aki has won 3 Tokaido games in a row, the group's longest streak (was 2)."],
        [
            "Aki has won 4 Tokaido games in a row, the group's longest streak (was 3).",
            "Ben's best Tokaido: 64, was 60.",
        ],
    ]
    tokaido = book.game("tokaido")
    assert tokaido is not None
    assert tokaido.plays == 4
    assert tokaido.longest_streak == Mark(4, ("Aki",), 4, "2025-06-04T20:00:00Z")
    assert tokaido.best_total == Mark(70, ("Aki",), 1, "2025-06-01T20:00:00Z")
    assert tokaido.biggest_margin == Mark(10, ("Aki",), 1, "2025-06-01T20:00:00Z")
    aki, ben = tokaido.people["aki"], tokaido.people["ben"]
    assert (aki.plays, aki.wins, aki.current_streak) == (4, 4, 4)
    assert aki.best_total == Mark(70, ("Aki",), 1, "2025-06-01T20:00:00Z")  # no blank is 0
    assert (ben.plays, ben.wins, ben.current_streak) == (4, 0, 0)


def test_a_blank_score_that_did_not_win_ends_a_streak() -> None:
    plays = [
        play(1, "shogun", seat("Aki", 30, won=True), seat("Ben", 20)),
        play(2, "shogun", seat("Aki", 31, won=True), seat("Ben", 21)),
        # Aki's score left blank, Ben ticked winner: a loss for Aki, and no margin for Ben
        # (nobody scored lost to him).
        play(3, "shogun", seat("Aki", None), seat("Ben", 25, won=True)),
        play(4, "shogun", seat("Aki", None), seat("Ben", None, won=True)),  # nobody scored
        play(5, "shogun", seat("Aki", 40, won=True), seat("Ben", 10)),
    ]
    book = RecordBook()
    assert [describe(book.add(p)) for p in plays] == [
        [],
        [
            "Aki set the group's Shogun record: 31, was 30.",
            "Aki has won 2 Shogun games in a row, the group's longest streak (was 1).",
            "Ben's best Shogun: 21, was 20.",
        ],
        ["Ben's best Shogun: 25, was 21."],
        ["Ben has won 2 Shogun games in a row, their longest streak (was 1)."],
        [
            "Aki set the group's Shogun record: 40, was 31.",
            "Aki won by 30, the group's biggest Shogun margin (was 10).",
        ],
    ]
    shogun = book.game("shogun")
    assert shogun is not None
    assert shogun.longest_streak == Mark(2, ("Aki",), 2, "2025-06-02T20:00:00Z")  # Ben equals it
    aki, ben = shogun.people["aki"], shogun.people["ben"]
    assert (aki.plays, aki.wins, aki.current_streak) == (5, 3, 1)
    assert aki.longest_streak == Mark(2, ("Aki",), 2, "2025-06-02T20:00:00Z")
    assert (ben.plays, ben.wins, ben.current_streak) == (5, 2, 0)
    assert ben.longest_streak == Mark(2, ("Ben",), 4, "2025-06-04T20:00:00Z")
    assert ben.biggest_margin is None  # won twice, never over a scored seat


def test_a_play_with_no_scores_at_all() -> None:
    """A play, and a loss for everyone in it when no winner is marked; no score from it."""
    book = RecordBook()
    guest = seat("Guest", None, anonymous=True)
    assert book.add(play(1, "kamakura", seat("Aki", None), seat("Ben", None), guest)) == []
    assert book.game("kamakura") == GameRecords(
        "kamakura",
        1,
        None,
        {},
        None,
        None,
        {
            "aki": PersonRecords("Aki", 1, 0, 0, None, {}, None, None),
            "ben": PersonRecords("Ben", 1, 0, 0, None, {}, None, None),
        },
    )
    # Ben ticked winner, still no score: a win, a streak of 1, and no total of 0.
    assert book.add(play(2, "kamakura", seat("Aki", None), seat("Ben", None, won=True))) == []
    kamakura = book.game("kamakura")
    assert kamakura is not None and kamakura.best_total is None
    assert kamakura.longest_streak == Mark(1, ("Ben",), 2, "2025-06-02T20:00:00Z")
    ben = kamakura.people["ben"]
    assert (ben.plays, ben.wins, ben.current_streak, ben.best_total) == (2, 1, 1, None)
    # The first scores: nothing beaten (nothing to beat), and Ben's streak goes on.
    news = book.add(play(3, "kamakura", seat("Aki", 12), seat("Ben", 14, won=True)))
    assert describe(news) == [
        "Ben has won 2 Kamakura Collection games in a row, the group's longest streak (was 1)."
    ]
    kamakura = book.game("kamakura")
    assert kamakura is not None and kamakura.plays == 3
    assert kamakura.best_total == Mark(14, ("Ben",), 3, "2025-06-03T20:00:00Z")
    assert kamakura.biggest_margin == Mark(2, ("Ben",), 3, "2025-06-03T20:00:00Z")
    aki = kamakura.people["aki"]
    assert (aki.plays, aki.wins) == (3, 0)
    assert aki.best_total == Mark(12, ("Aki",), 3, "2025-06-03T20:00:00Z")


def test_a_blank_score_sets_no_total_category_or_margin() -> None:
    book = RecordBook()
    book.add(play(1, "tokaido", tokaido("Aki", 50, 5, won=True), tokaido("Ben", 40, 2)))
    # Aki's blank (with a breakdown left in it) is no best, and no 0 either.
    blank = seat("Aki", None, journey=90, temple=9)
    assert describe(book.add(play(2, "tokaido", blank, tokaido("Ben", 30, 1, won=True)))) == []
    # A win shared with a seat not scored is no sole win: no margin.
    shared = (seat("Aki", None, won=True), tokaido("Ben", 80, 8, won=True), tokaido("Cho", 10, 0))
    news = describe(book.add(play(3, "tokaido", *shared)), categories=True)
    assert news == [
        "Ben set the group's Tokaido record: 88, was 55 by Aki.",
        "Ben has won 2 Tokaido games in a row, the group's longest streak (was 1 by Aki).",
        "Ben set the group's Tokaido record in the journey: 80, was 50 by Aki.",
        "Ben set the group's Tokaido record in the temple ranking: 8, was 5 by Aki.",
    ]
    tokaido_records = book.game("tokaido")
    assert tokaido_records is not None
    assert tokaido_records.biggest_margin == Mark(13, ("Aki",), 1, "2025-06-01T20:00:00Z")
    aki = tokaido_records.people["aki"]
    assert aki.best_total == Mark(55, ("Aki",), 1, "2025-06-01T20:00:00Z")
    assert {c: m.value for c, m in aki.categories.items()} == {"journey": 50, "temple": 5}
    assert (aki.plays, aki.wins, aki.current_streak) == (3, 2, 1)  # the shared win is a win


def test_one_person_in_two_seats_counts_once_with_the_first_even_if_blank() -> None:
    """As before, a person written twice in one play counts once, with their first seat,
    scored or not: here a blank loss, though their second seat won with 40."""
    book = RecordBook()
    book.add(play(1, "shogun", seat("Aki", None), seat("aki", 40, won=True), seat("Ben", 30)))
    shogun = book.game("shogun")
    assert shogun is not None
    aki = shogun.people["aki"]
    assert (aki.name, aki.plays, aki.wins, aki.current_streak) == ("Aki", 1, 0, 0)
    assert aki.best_total is None and aki.biggest_margin is None
    assert shogun.best_total == Mark(40, ("aki",), 1, "2025-06-01T20:00:00Z")  # the group's


def seat_rows(plays: list[PlayedGame], game: str) -> list[tuple[Any, ...]]:
    """The rows :func:`stat_queries.seat_rows` gives the statistics, for one game's plays."""
    return [
        (p.id, p.game, k, s.name, s.total, s.rank, s.winner, name_key(n), n, s.anonymous)
        for p in plays
        if p.counts and p.game == game
        for k, s in enumerate(p.seats)
        for n in s.people
    ]


@settings(max_examples=100, deadline=None)
@given(histories())
def test_plays_wins_and_streaks_are_those_of_the_statistics(plays: list[PlayedGame]) -> None:
    """Each person's plays, wins, current streak and best total in a game are what
    ``history stats --game`` says. (One name per person here: the statistics count a
    person written in two seats of one play twice, records once.)"""
    plays = [
        replace(p, seats=tuple(replace(s, name="Eve") if s.name == "aki" else s for s in p.seats))
        for p in plays
    ]
    for game, found in records(plays).items():
        stats = compute(seat_rows(plays, game))
        assert [g.plays for g in stats.games] == [found.plays]
        assert {
            name_key(p.name): (p.name, p.plays, p.wins, p.streak, p.games[game].best)
            for p in stats.players
        } == {
            key: (r.name, r.plays, r.wins, r.current_streak, r.best_total and r.best_total.value)
            for key, r in found.people.items()
        }


def test_history_records_agrees_with_history_stats_on_a_bg_stats_backup(
    tmp_path: Path, db_path: Path
) -> None:
    """The BG Stats backup, with blank-score Tokaido plays added as BG Stats writes them
    (``"score": ""``, the winner ticked): Aki's streak of 4 runs through two of them."""
    backup = json.loads((FILES / "bgstats-backup.bgsplay").read_text())
    model = backup["plays"][0]  # Tokaido: Aki won; Ben; Cho's score blank

    def tokaido(day: int, *scores: tuple[int, str, bool]) -> dict[str, Any]:
        entries = [
            {**model["playerScores"][0], "playerRefId": who, "score": score, "winner": won}
            for who, score, won in scores
        ]
        date = f"2026-10-{day} 20:00:00"
        uuid = f"5A1C0E00-0000-4000-8000-0000000001{day}"
        return {**model, "uuid": uuid, "playDate": date, "entryDate": date, "playerScores": entries}

    aki, ben, cho, dai = 1, 2, 3, 4
    backup["plays"] += [
        tokaido(10, (aki, "", True), (ben, "", False), (cho, "", False)),  # no score, Aki ticked
        tokaido(11, (aki, "", True), (ben, "50", False), (dai, "45", False)),
        tokaido(12, (aki, "70", True), (ben, "60", False)),
        tokaido(13, (cho, "", False), (dai, "", False)),  # no score, no winner: both lose
    ]
    source = tmp_path / "blank-scores.bgsplay"
    source.write_text(json.dumps(backup))
    imported = runner.invoke(app, ["history", "import", str(source)])
    assert imported.exit_code == 0, imported.output
    assert imported.stdout.startswith("Imported 9 games;")

    stats = runner.invoke(app, ["history", "stats", "--game", "tokaido", "--json"])
    shown = runner.invoke(app, ["history", "records", "tokaido", "--json"])
    assert stats.exit_code == shown.exit_code == 0, stats.output + shown.output
    by_stats = {
        p["name"]: (p["plays"], p["wins"], p["current_streak"], p["games"]["tokaido"]["best_score"])
        for p in json.loads(stats.stdout)["players"]
    }
    [found] = json.loads(shown.stdout)["games"]
    by_records = {
        p["name"]: (
            p["plays"],
            p["wins"],
            p["current_streak"],
            (p["best_total"] or {}).get("value"),
        )
        for p in found["people"]
    }
    assert (
        by_records
        == by_stats
        == {
            "Aki": (4, 4, 4, 80),
            "Ben": (4, 0, 0, 60),
            "Cho": (4, 0, 0, 61),
            "Dai": (3, 0, 0, 64),
        }
    )
    assert found["plays"] == 6  # 2 from the backup (its ignored one stays out) and 4 added
    assert found["longest_streak"]["value"] == 4 and found["longest_streak"]["holders"] == ["Aki"]
    table = runner.invoke(app, ["history", "records"]).stdout
    assert (
        " Tokaido   Highest total               80   Aki           #1, 2026-10-03\n"
        "           Biggest winning margin      22   Aki           #1, 2026-10-03\n"
        "           Longest win streak           4   Aki           #8, 2026-10-12\n"
    ) in table
    # What the save of the last Aki win said, read without replaying the history.
    with History(db_path) as history:
        last_win = [p.id for p in history.plays() if p.played_at.startswith("2026-10-12")]
        assert past.records_set(history, last_win[0]) == [
            "Aki has won 4 Tokaido games in a row, the group's longest streak (was 3).",
            "Ben's best Tokaido: 60, was 58.",
        ]


def test_a_game_never_scored_has_a_line_in_every_records_table(db_path: Path) -> None:
    """Kamakura played twice with blank scores (Ben ticked winner): its plays and Ben's
    streak are shown, and its highest total says there is no score yet."""
    from companion.history.model import Play
    from companion.widgets.history import records_html

    def stored(day: int, game: str, winner: str, *seats: tuple[str, int | None]) -> Play:
        players = [
            {"name": n, "total": t, "rank": None if t is None else 1, "breakdown": {}}
            for n, t in seats
        ]
        result = {"game": game, "players": players, "winners": [winner], "tiebreak": None}
        return Play(0, f"u{day}", f"2026-03-0{day}T20:00:00Z", game, None, result)

    blank = (("Aki", None), ("Ben", None))
    with History(db_path) as history:
        history.add(
            [
                stored(1, "kamakura", "Ben", *blank),
                stored(2, "kamakura", "Ben", *blank),
                stored(3, "tokaido", "Aki", ("Aki", 50), ("Ben", 40)),
            ],
            keep_ids=False,
        )
        found = past.records(history)
    every = runner.invoke(app, ["history", "records"])
    one = runner.invoke(app, ["history", "records", "kamakura"])
    shown = runner.invoke(app, ["history", "records", "kamakura", "--json"])
    assert every.exit_code == one.exit_code == shown.exit_code == 0
    assert (
        " Kamakura            Highest total            -   no score yet\n"
        " Collection\n"
        "                     Longest win streak       2   Ben            #2, 2026-03-02\n"
    ) in every.stdout
    assert one.stdout == (
        "Kamakura Collection records (2 games)\n"
        " Record               Value   Held by        Set in\n"
        "────────────────────────────────────────────────────────────\n"
        " Highest total            -   no score yet\n"
        " Longest win streak       2   Ben            #2, 2026-03-02\n"
        "\n"
        "Personal bests\n"
        " Player   Games   Wins   Best total   Biggest win   Longest streak\n"
        "───────────────────────────────────────────────────────────────────\n"
        " Aki          2      0            -             -                -\n"
        " Ben          2      2            -             -                2\n"
    )
    [kamakura] = json.loads(shown.stdout)["games"]
    assert (kamakura["plays"], kamakura["highest_total"], kamakura["biggest_margin"]) == (
        2,
        None,
        None,
    )
    assert [(p["name"], p["plays"], p["wins"], p["best_total"]) for p in kamakura["people"]] == [
        ("Aki", 2, 0, None),
        ("Ben", 2, 2, None),
    ]
    assert (
        "<tr><td>Kamakura Collection</td><td>Highest total</td><td>-</td><td>no score yet</td>"
        "<td></td></tr><tr><td></td><td>Longest win streak</td><td>2</td><td>Ben</td>"
        "<td>#2, <span class='nobr'>2026-03-02</span></td></tr>"
    ) in records_html(found, None, None)
    page = records_html(found, "kamakura", None)
    assert "<tr><td>Highest total</td><td>-</td><td>no score yet</td><td></td></tr>" in page
    assert "<tr><td>Ben</td><td>2</td><td>2</td><td>-</td><td>-</td><td>2</td></tr>" in page


def test_the_same_game_scored_twice_is_not_said_to_equal_a_record() -> None:
    from companion.analysis.records import is_repeat, repeat_sentence

    book = RecordBook()
    book.add(HISTORY[0])
    first = play(9, "tokaido", seat("Aki", 90, won=True), seat("Ben", 60))
    again = play(10, "tokaido", seat("Ben", 60), seat("aki", 90, won=True))
    other = play(11, "tokaido", seat("Aki", 90, won=True), seat("Cho", 50))
    book.add(first)
    (equalled, *_) = book.add(again)
    assert equalled.equalled and is_repeat(equalled, first, again)
    assert repeat_sentence(equalled) == (
        "Same people and scores as game #9, the group's Tokaido record (90): if it is the "
        "same game scored twice, remove one with companion history delete 10."
    )
    (genuine, *_) = book.add(other)
    assert genuine.equalled and not is_repeat(genuine, first, other)
    assert describe([genuine]) == ["Aki equalled their own group record for Tokaido: 90."]
