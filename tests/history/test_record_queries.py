"""What a play set, read from the history without replaying it, is what the replay says."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from companion.analysis.records import (
    CATEGORY,
    PERSONAL,
    NewRecord,
    RecordBook,
    describe,
    set_after,
)
from companion.history import after_game as past
from companion.history import record_queries as records_before
from companion.history.model import Person, Play
from companion.history.record_queries import play
from companion.history.record_queries import records_before as before
from companion.history.store import History
from scorers.names import name_key

TWIN = "Same people and scores as game #"
# Two names of one person, a name that JSON may escape, and guests.
NAMES = ("Aki", "aki", "Ben", "Cho", "Émi")
CATEGORIES = ("journey", "temple", "bäder")


def side(rng: random.Random, k: int, taken: set[str]) -> tuple[str, list[Person]]:
    """A side's name and its people: a player, a guest, a team, or a side nobody is known in."""
    kind = rng.choices(["player", "guest", "team", "unknown", "renamed"], [8, 1, 2, 1, 1])[0]
    if kind == "player":
        name = rng.choice([n for n in NAMES if n not in taken] or ["Fay"])
        return name, [Person(name, k)]
    if kind == "guest":
        return f"Anonymous player {k}", [Person(f"Anonymous player {k}", k, anonymous=True)]
    if kind == "renamed":  # one person under another name: a team of one
        return f"Side {k}", [Person(rng.choice(NAMES), k)]
    people = []
    if kind == "team":
        for name in rng.sample(NAMES, rng.randint(1, 2)):
            people.append(Person(name, k))
        if rng.randint(0, 2) == 0:
            people.append(Person(f"Guest {k}", k, anonymous=True))
    return f"Team {k}", people


def breakdown(rng: random.Random, total: int, split: bool) -> dict[str, Any]:
    """Points by category: several in a play scored by category, else one (or none)."""
    if not split:
        one = {rng.choice(CATEGORIES): total}
        odd = {**one, "bonus": rng.choice([True, 1.5])}  # still one category in whole points
        return rng.choice([{"score": total}, {}, one, odd])
    points: dict[str, Any] = {c: rng.randint(-1, 6) for c in rng.sample(CATEGORIES, 2)}
    if rng.randint(0, 9) == 0:
        points["bonus"] = rng.choice([True, 1.5])  # not whole points: never a category record
    return points


def generated(seed: int) -> list[Play]:
    """Up to 25 plays of three games, saved out of play order, as an import would add them.

    Blank scores as BG Stats has them: seats not scored, some marked winner,
    and plays with no seat scored (a winner marked, or none). Most histories
    also hold a run of wins by one person through plays with no score (see
    :func:`run`).
    """
    rng = random.Random(seed)
    plays = []
    for n in range(rng.randint(1, 25)):
        game = rng.choice(["tokaido", "kamakura", "shibuya"])
        result, people = sides(rng, game, (), rng.randint(0, 5) == 0)  # 1 in 6: no score
        plays.append(
            Play(
                0,
                f"u-{n}",
                f"2026-01-0{rng.randint(1, 6)}T20:00:00Z",  # many at one time: the id decides
                game,
                None,
                result,
                people=people,
                ignored=rng.randint(0, 9) == 0,
                status="interim" if rng.randint(0, 9) == 0 else "final",
            )
        )
    if rng.randint(0, 3) > 0:
        at = rng.randint(0, len(plays))
        plays[at:at] = run(rng)
    return plays


def sides(
    rng: random.Random,
    game: str,
    first: tuple[str, ...],
    blank: bool,
    won: str | None = None,
    *,
    first_blank: bool = False,
) -> tuple[dict[str, Any], tuple[Person, ...]]:
    """A play's result and its people: random sides after the players ``first``.

    Args:
        rng: The random numbers.
        game: The game id.
        first: Players of their own in the first seats.
        blank: No seat is scored.
        won: The one side marked winner whatever the scores; by default the
            best scored sides, or now and then one side (or none) by hand.
        first_blank: The first seat is not scored.
    """
    entries: list[dict[str, Any]] = []
    people: list[Person] = []
    split = rng.randint(0, 2) > 0
    for k in range(max(len(first) + 1, rng.randint(2, 4))):
        if k < len(first):
            name, mine = first[k], [Person(first[k], k)]
        else:
            name, mine = side(rng, k, {s["name"] for s in entries} | set(first))
        people += mine
        total = None if blank or rng.randint(0, 7) == 0 else rng.randint(0, 12)
        if k == 0 and first_blank:
            total = None
        points = breakdown(rng, total or 0, split and rng.randint(0, 3) > 0)
        entries.append({"name": name, "total": total, "rank": None, "breakdown": points})
    totals = [s["total"] for s in entries if s["total"] is not None]
    for s in entries:
        if s["total"] is not None:
            s["rank"] = 1 + sum(t > s["total"] for t in totals)
    winners = [s["name"] for s in entries if s["rank"] == 1]
    if blank or rng.randint(0, 9) == 0:  # marked by hand: none, or one side, scored or not
        winners = rng.choice([[], *([s["name"]] for s in entries)])
    elif rng.randint(0, 9) == 0:  # the best and a side not scored share the win
        winners += [s["name"] for s in entries if s["total"] is None][:1]
    if won is not None:
        winners = [won]
    result = {"game": game, "players": entries, "winners": winners, "tiebreak": None}
    return result, tuple(people)


def run(rng: random.Random) -> list[Play]:
    """Three to five plays of one game in a row, one person winning each: the second
    with no seat scored, any other middle one with no seat or only the winner's not
    scored."""
    game = rng.choice(["tokaido", "kamakura", "shibuya"])
    who = rng.choice(NAMES)
    day = rng.randint(1, 6)
    plays = []
    length = rng.randint(3, 5)
    for k in range(length):
        blank = k == 1 or (0 < k < length - 1 and rng.randint(0, 1) > 0)
        result, people = sides(rng, game, (who,), blank, who, first_blank=0 < k < length - 1)
        plays.append(
            Play(
                0,
                f"run-{k}",
                f"2026-01-0{day}T21:00:0{k}Z",  # a time of its own: nothing comes between
                game,
                None,
                result,
                people=people,
            )
        )
    return plays


def replayed(history: History) -> dict[int, list[NewRecord]]:
    """What each counted play set, replaying every play of its game in play order."""
    found: dict[int, list[NewRecord]] = {}
    book = RecordBook()
    for earlier in past._counted(history, None):
        found[earlier.id] = book.add(earlier)
    return found


@pytest.mark.slow
@settings(max_examples=50, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from([(8192, 16), (3, 1), (5, 2)]))
@example(742796001, (8192, 16))  # a game scored twice: its twin is named
def test_what_a_play_set_is_what_the_replay_says(
    tmp_path_factory: pytest.TempPathFactory, seed: int, batches: tuple[int, int]
) -> None:
    """For every play of a random history, exactly the records the replay finds it set.

    Also with small batches: the results searched a few ids at a time, and the
    search for the best in a category stopping early.
    """
    path = tmp_path_factory.mktemp("records") / "history.sqlite3"
    saved_batches = records_before._BATCH, records_before._FIRST_BATCH
    records_before._BATCH, records_before._FIRST_BATCH = batches
    try:
        with History(path) as history:
            history.add(generated(seed), keep_ids=False)
            expected = replayed(history)
            for saved in history.plays():
                found = play(history, saved.id)
                assert found is not None and found.counts == (saved.id in expected)
                if not found.counts:
                    assert past.records_set(history, saved.id) == []
                    continue
                news = set_after(before(history, found), found)
                assert news == expected[saved.id]
                # Without personal bests in a category: the rest, and the same sentences.
                told = set_after(before(history, found, personal_categories=False), found)
                assert told == [n for n in news if (n.scope, n.kind) != (PERSONAL, CATEGORY)]
                said, plain = past.records_set(history, saved.id), describe(news)
                if said != plain:
                    # The same people and totals as the record's game: "one game scored
                    # twice?" takes the place of the record it equalled, nothing else.
                    twins = [n for n, line in enumerate(said) if line.startswith(TWIN)]
                    assert twins and len(said) == len(plain)
                    assert all("equalled" in plain[n] for n in twins)
                    assert [x for n, x in enumerate(said) if n not in twins] == [
                        x for n, x in enumerate(plain) if n not in twins
                    ]
    finally:
        records_before._BATCH, records_before._FIRST_BATCH = saved_batches


def test_the_random_histories_hold_streaks_through_plays_with_no_score(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """What the property above must meet: plays with no seat scored and a winner marked,
    and someone winning the plays of a game before and after one of them."""
    through = 0
    for seed in range(12):
        path = tmp_path_factory.mktemp("runs") / "history.sqlite3"
        with History(path) as history:
            history.add(generated(seed), keep_ids=False)
            counted = past._counted(history, None)
        results: dict[tuple[str, str], list[tuple[bool, bool]]] = {}  # -> [(won, no score)]
        for p in counted:
            blank = all(s.total is None for s in p.seats)
            first: dict[str, bool] = {}  # a person's first seat in the play counts
            for s in p.seats:
                for name in s.people if not s.anonymous else ():
                    first.setdefault(name_key(name), s.winner)
            for key, won in first.items():
                results.setdefault((p.game, key), []).append((won, blank))
        through += any(
            mine[k - 1][0] and mine[k] == (True, True) and mine[k + 1][0]
            for mine in results.values()
            for k in range(1, len(mine) - 1)
        )
    assert through >= 6, through


def test_a_history_where_every_record_changes_hands(db_path: Path) -> None:
    """A fixed history: the group's streak record broken, a margin, a category, a team."""

    def result(game: str, *seats: tuple[str, int, dict[str, int]]) -> dict[str, Any]:
        top = max(t for _, t, _ in seats)
        return {
            "game": game,
            "players": [
                {"name": n, "total": t, "rank": 1 + sum(o > t for _, o, _ in seats), "breakdown": b}
                for n, t, b in seats
            ],
            "winners": [n for n, t, _ in seats if t == top],
            "tiebreak": None,
        }

    def tokaido(n: int, aki: int, ben: int, temple: int = 0) -> Play:
        seats = (
            ("Aki", aki, {"journey": aki - temple, "temple": temple}),
            ("Ben", ben, {"journey": ben, "temple": 0}),
        )
        return Play(
            0, f"t-{n}", f"2026-02-{n:02}T20:00:00Z", "tokaido", None, result("tokaido", *seats)
        )

    plays = [tokaido(1, 50, 60), tokaido(2, 40, 45), tokaido(3, 61, 50, 5)]
    plays += [tokaido(4, 70, 50, 3), tokaido(5, 64, 60, 9)]
    with History(db_path) as history:
        history.add(plays, keep_ids=False)
        assert [past.records_set(history, n) for n in range(1, 6)] == [
            [],
            ["Ben has won 2 Tokaido games in a row, the group's longest streak (was 1)."],
            [
                "Aki set the group's Tokaido record: 61, was 60 by Ben.",
                "Aki won by 11, the group's biggest Tokaido margin (was 10 by Ben).",
            ],
            [
                "Aki set the group's Tokaido record: 70, was 61.",
                "Aki won by 20, the group's biggest Tokaido margin (was 11).",
                "Aki set the group's Tokaido record in the journey: 67, was 60 by Ben.",
                "Aki has won 2 Tokaido games in a row, their longest streak (was 1).",
            ],
            [
                "Aki has won 3 Tokaido games in a row, the group's longest streak (was 2 by Ben).",
                "Aki set the group's Tokaido record in the temple ranking: 9, was 5.",
            ],
        ]


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32))
def test_the_search_finds_every_earlier_play_that_names_a_category(
    tmp_path_factory: pytest.TempPathFactory, seed: int
) -> None:
    """Searched in batches of any size, exactly the earlier counted plays of the game
    whose stored result names one of the categories."""
    path = tmp_path_factory.mktemp("search") / "history.sqlite3"
    saved_batch = records_before._BATCH
    try:
        with History(path) as history:
            history.add(generated(seed), keep_ids=False)
            db = history._db
            stored = db.execute(
                "SELECT id, played_at, game, result, uuid FROM plays WHERE ignored = 0 "
                "AND status = 'final'"
            ).fetchall()
            for saved in history.plays():
                found = play(history, saved.id)
                assert found is not None
                written = {json.dumps(c, ensure_ascii=a) for c in CATEGORIES for a in (False, True)}
                expected = sorted(
                    i
                    for i, at, game, text, uuid in stored
                    if game == found.game
                    and (at, uuid) < (found.played_at, found.uuid)
                    and any(name in text for name in written)
                )
                for batch in (1, 2, 3, 8192):
                    records_before._BATCH = batch
                    reader = records_before._Reader(db, found, False)
                    assert reader.mentioning(CATEGORIES) == expected
    finally:
        records_before._BATCH = saved_batch
