"""Ratings kept in the history: the same numbers as rating every play again, whatever changed."""

from __future__ import annotations

import json
import random
import sqlite3
from dataclasses import replace
from pathlib import Path
from typing import Any
from uuid import uuid4

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.analysis.ratings import Ratings, rate
from companion.history import after_game as past
from companion.history import rating_cache as kept
from companion.history.model import Play
from companion.history.store import History
from tests.support.history_fixture import fill, random_play, result

NAMES = ["Aki", "Ben", "Cho", "Dai", "Eri"]


def play(day: int, game: str, order: list[str]) -> Play:
    """A play on ``day`` (of January 2026 onwards) won in ``order``, ties for equal totals."""
    seats = [(name, 50 - 5 * k, k + 1) for k, name in enumerate(order)]
    return Play(
        0,
        str(uuid4()),
        f"2026-{1 + day // 28:02d}-{1 + day % 28:02d}T20:00:00Z",
        game,
        None,
        result(game, seats, [order[0]]),
    )


LOAD = past._load


def from_scratch(history: History) -> Ratings:
    """Every play rated from the start (read without the spy below)."""
    return rate(LOAD(history, None, breakdowns=False))


def same(got: Ratings, expected: Ratings, *, last: bool = True) -> None:
    """Exactly the same ratings: every scope, every number, the order games were first rated."""
    assert got.games == expected.games
    assert got.plays == expected.plays
    assert got.last == expected.last or not last
    for scope in [None, *expected.games]:
        assert got.table(scope) == expected.table(scope)


@pytest.fixture
def loads(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str, int] | None]:
    """The plays each call reads: ``None`` for every play, or the play they come after."""
    calls: list[tuple[str, str, int] | None] = []
    load = past._load

    def spy(history: History, game: str | None, **kwargs: Any) -> Any:
        calls.append(kwargs.get("after"))
        return load(history, game, **kwargs)

    monkeypatch.setattr(past, "_load", spy)
    return calls


def in_order(history: History, play_id: int) -> tuple[str, str, int]:
    """A play's key in play order: its time, its uuid and its id."""
    played_at, uuid = history._db.execute(
        "SELECT played_at, uuid FROM plays WHERE id = ?", (play_id,)
    ).fetchone()
    return played_at, uuid, play_id


def test_a_saved_game_is_rated_on_from_the_kept_ratings(
    db_path: Path, loads: list[tuple[str, str, int] | None]
) -> None:
    fill(db_path)
    with History(db_path) as history:
        seventh = in_order(history, 7)  # the fixture's last play
        assert seventh[0] == "2026-01-07T20:00:00Z"
        first = past.ratings(history)
        assert loads == [None]  # nothing kept yet: every play
        changes = history._db.total_changes
        same(past.ratings(history), first)
        assert loads == [None, seventh]  # kept: only what came after the last rated play
        assert history._db.total_changes == changes  # nothing new: nothing written
        new = history.add([play(60, "tokaido", ["Dai", "Aki"])], keep_ids=False)
        assert new == (1, 0)
        on = past.ratings(history)
        assert loads == [None, seventh, seventh]  # the game added, rated on from the kept
        same(on, from_scratch(history))
        assert on.rating("Dai", "tokaido") is not None
        same(past.ratings(history), on)
        assert loads[-1] == in_order(history, 8)  # kept again, after the new game
        assert loads[-1][0] == "2026-03-05T20:00:00Z"


@pytest.mark.parametrize(
    "change",
    [
        pytest.param(lambda h: h.delete(3), id="deleted"),
        pytest.param(lambda h: h.replace(replace(h.get(2), played_at="2026-03-01")), id="moved"),
        pytest.param(lambda h: h.replace(replace(h.get(5), ignored=True)), id="ignored"),
        pytest.param(
            lambda h: h.add([play(0, "shogun", ["Cho", "Ben"])], keep_ids=False), id="older game"
        ),
        pytest.param(
            lambda h: h._db.execute(
                "UPDATE play_players SET rank = 3 WHERE play_id = 1 AND seat = 0"
            ),
            id="rank changed by hand",
        ),
        pytest.param(
            lambda h: h._db.execute("DELETE FROM play_people WHERE play_id = 4"),
            id="people removed by hand",
        ),
    ],
)
def test_any_other_change_rates_every_play_again(
    db_path: Path, loads: list[tuple[str, str, int] | None], change: Any
) -> None:
    fill(db_path)
    with History(db_path) as history:
        before = past.ratings(history)
        change(history)
        after = past.ratings(history)
        assert loads == [None, None]  # every play read again
        same(after, from_scratch(history))
        assert after.table() != before.table()
        same(past.ratings(history), after)
        assert loads[2] is not None  # kept again


def test_an_interim_or_ignored_game_added_changes_nothing(
    db_path: Path, loads: list[tuple[str, str, int] | None]
) -> None:
    fill(db_path)
    with History(db_path) as history:
        before = past.ratings(history)
        history.add(
            [
                replace(play(70, "tokaido", ["Dai", "Aki"]), ignored=True),
                replace(play(71, "shogun", ["Dai", "Aki"]), status="interim"),
            ],
            keep_ids=False,
        )
        after = past.ratings(history)
        assert loads == [None, in_order(history, 7)]
        same(after, before)


def test_kept_ratings_changed_by_hand_are_rated_again(
    db_path: Path, loads: list[tuple[str, str, int] | None]
) -> None:
    fill(db_path)
    with History(db_path) as history:
        expected = past.ratings(history)
        history._db.execute("UPDATE rating_slots SET mu = 'a lot' WHERE key = 'aki'")
        same(past.ratings(history), expected)
        history._db.execute("UPDATE rating_slots SET sigma = -1.0")
        same(past.ratings(history), expected)
        history._db.execute("UPDATE rating_state SET model = '{}'")
        same(past.ratings(history), expected)
        assert loads == [None, None, None, None]


def test_ratings_kept_in_the_order_by_id_are_rated_again_once(
    db_path: Path, loads: list[tuple[str, str, int] | None]
) -> None:
    """Ratings kept before play order broke ties by uuid (their model names no order)."""
    from dataclasses import asdict

    from companion.analysis.ratings import model

    fill(db_path)
    with History(db_path) as history:
        expected = past.ratings(history)
        assert history._db.execute("SELECT model FROM rating_state").fetchone() == (
            json.dumps({**asdict(model()), "order": "played_at, uuid"}, sort_keys=True),
        )
        old = json.dumps(asdict(model()), sort_keys=True)
        history._db.execute("UPDATE rating_state SET model = ?", (old,))
        same(past.ratings(history), expected)  # rated again, and kept in play order
        same(past.ratings(history), expected)
        assert loads == [None, None, in_order(history, 7)]


def test_the_kept_ratings_are_not_written_while_another_process_writes(db_path: Path) -> None:
    fill(db_path)
    other = sqlite3.connect(db_path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        with History(db_path, write=False) as history:
            rated = past.ratings(history)  # no wait for the other writer
            assert history._db.execute("SELECT count(*) FROM rating_state").fetchone() == (0,)
            assert history._db.execute("PRAGMA busy_timeout").fetchone()[0] > 0
    finally:
        other.execute("ROLLBACK")
        other.close()
    with History(db_path, write=False) as history:
        same(past.ratings(history), rated)
        assert history._db.execute("SELECT count(*) FROM rating_state").fetchone() == (1,)


def test_ratings_are_not_kept_when_the_plays_changed_meanwhile(db_path: Path) -> None:
    fill(db_path)
    with History(db_path) as history:
        past.ratings(history)
        state = history._db.execute("SELECT * FROM rating_state").fetchone()
        read = kept._kept(history._db, state[3])
        assert read is not None and read.edits == 0
        history.add([play(60, "tokaido", ["Dai", "Aki"])], keep_ids=False)
        newer = past.ratings(history, keep=False)
        history.delete(2)  # after these ratings were worked out, before they are written
        kept._write(history, newer, 0, 8, read, state[3])
        assert history._db.execute("SELECT * FROM rating_state").fetchone() == state
        same(past.ratings(history), from_scratch(history))


def test_a_read_only_history_is_rated_and_left_as_it_is(db_path: Path) -> None:
    fill(db_path)
    before = db_path.read_bytes()
    uri = f"{db_path.as_uri()}?mode=ro"
    with History(db_path, write=False) as history:
        history._db.close()
        history._db = sqlite3.connect(uri, uri=True, isolation_level=None)
        rated = past.ratings(history)
    assert db_path.read_bytes() == before
    with History(db_path) as history:
        same(rated, from_scratch(history))


# Operations on a history, for the property below: (kind, a number, a day, a game, an order).
OPERATIONS = st.lists(
    st.tuples(
        st.sampled_from(["add", "any", "any", "later", "later", "delete", "move", "ignore", "ask"]),
        st.integers(0, 50),
        st.integers(0, 120),
        st.sampled_from(["tokaido", "shogun", "shibuya"]),
        st.permutations(NAMES).flatmap(lambda names: st.integers(2, 5).map(lambda n: names[:n])),
    ),
    max_size=25,
)


@pytest.mark.slow
@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(operations=OPERATIONS)
def test_kept_ratings_are_always_the_ratings_of_every_play(
    tmp_path: Path, operations: list[tuple[str, int, int, str, list[str]]]
) -> None:
    db = tmp_path / f"h{len(list(tmp_path.iterdir()))}.sqlite3"
    latest = 0
    with History(db) as history:
        for kind, number, day, game, order in operations:
            ids = [row[0] for row in history._db.execute("SELECT id FROM plays ORDER BY id")]
            if kind == "add":
                history.add([play(day, game, order)], keep_ids=False)
            elif kind == "any":  # teams, guests, blank scores, no ranks, ignored, interim
                shaped = random_play(random.Random(number * 1000 + day), len(ids))
                history.add([replace(shaped, uuid=str(uuid4()))], keep_ids=False)
            elif kind == "later":
                latest = max(latest, day) + 1
                history.add([play(latest, game, order)], keep_ids=False)
            elif kind == "ask":
                same(past.ratings(history), from_scratch(history))
            elif ids:
                chosen = history.get(ids[number % len(ids)])
                if kind == "delete":
                    history.delete(chosen.id)
                elif kind == "move":
                    history.replace(replace(chosen, played_at=play(day, game, order).played_at))
                else:
                    history.replace(replace(chosen, ignored=not chosen.ignored))
        same(past.ratings(history), from_scratch(history))
        for game in ["tokaido", "shogun", "shibuya", "kamakura"]:
            alone = rate(LOAD(history, game, breakdowns=False))
            same(past.ratings(history, game), alone, last=False)
