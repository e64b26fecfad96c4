"""Play order is the same at every table: ties of time are broken by uuid, not by id.

Two tables of a club hold the same games, but each numbers them in the order it
took them: two games saved in the same second at two tables have swapped ids
here. Streaks, records and ratings must not see the difference.
"""

from __future__ import annotations

import dataclasses
import json
import time
from pathlib import Path
from typing import Any
from uuid import RFC_4122, UUID

import pytest

from companion.analysis.records import Mark, set_after
from companion.analysis.stats import compute
from companion.history import after_game as past
from companion.history.model import Play
from companion.history.play_order import new_uuid
from companion.history.record_queries import play as played
from companion.history.record_queries import records_before
from companion.history.stat_queries import of_history, seat_rows
from companion.history.store import History
from companion.widgets.history import ratings_html
from tests.support.history_fixture import result

SAME_SECOND = "2026-02-02T20:00:00Z"
# (uuid, played_at, winner first); the uuids put Ben's win before Aki's in the same second.
GAMES = [
    ("00000000-0000-4000-8000-00000000000a", "2026-02-01T20:00:00Z", ["Aki", "Ben", "Cho"]),
    ("10000000-0000-4000-8000-00000000000b", SAME_SECOND, ["Ben", "Aki", "Cho"]),
    ("f0000000-0000-4000-8000-00000000000c", SAME_SECOND, ["Aki", "Cho", "Ben"]),
]


def game(play_id: int, uuid: str, played_at: str, order: list[str]) -> Play:
    seats = [(name, 60 - 7 * k, k + 1) for k, name in enumerate(order)]
    return Play(play_id, uuid, played_at, "tokaido", None, result("tokaido", seats, [order[0]]))


def table(path: Path, ids: list[int]) -> History:
    """A history holding ``GAMES``, the k-th numbered ``ids[k]``."""
    history = History(path)
    plays = [game(i, *g) for i, g in zip(ids, GAMES, strict=True)]
    assert history.add(plays, keep_ids=True) == (3, 0)
    assert {p.uuid: p.id for p in history.plays()} == {p.uuid: p.id for p in plays}
    return history


def by_uuid(history: History, value: Any) -> Any:
    """``value`` with every mark's play named by its uuid instead of this table's id."""
    if isinstance(value, Mark):
        return dataclasses.replace(value, play=history.get(value.play).uuid)  # type: ignore[arg-type]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.replace(
            value,
            **{f.name: by_uuid(history, getattr(value, f.name)) for f in dataclasses.fields(value)},
        )
    if isinstance(value, dict):
        return {k: by_uuid(history, v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(by_uuid(history, v) for v in value)
    return value


def seen(history: History) -> dict[str, Any]:
    """What a table makes of its games: stats, records, what the last game set, ratings."""
    last = played(history, history.plays()[-1].id)
    assert last is not None
    rated = past.ratings(history)
    return {
        "stats": json.dumps(of_history(history).to_json()),
        "stats from every seat": json.dumps(compute(seat_rows(history)).to_json()),
        "records": by_uuid(history, past.records(history)),
        "set by the last game": by_uuid(history, set_after(records_before(history, last), last)),
        "ratings": rated.table(),
        "ratings kept": past.ratings(history).table(),
        "ratings chart": ratings_html(rated, None, None),
    }


def test_games_of_one_second_come_in_the_same_order_at_every_table(tmp_path: Path) -> None:
    with table(tmp_path / "one.sqlite3", [1, 2, 3]) as one:
        here = seen(one)
        last = one.plays()[-1]
    with table(tmp_path / "two.sqlite3", [1, 3, 2]) as two:
        there = seen(two)
        assert here == there
        assert two.plays()[-1].uuid == last.uuid  # by uuid at both, though its id is 2 there
    assert last.uuid == GAMES[2][0] and last.id == 3
    # Ben's win comes before Aki's: Aki is on a streak of one, Ben on none.
    streaks = {p["name"]: p["current_streak"] for p in json.loads(here["stats"])["players"]}
    assert streaks == {"Aki": 1, "Ben": 0, "Cho": 0}
    records = here["records"]["tokaido"]
    assert records.people["aki"].current_streak == 1
    assert records.people["ben"].current_streak == 0
    assert records.longest_streak.value == 1
    assert here["ratings"][0].name == "Aki"


def test_games_saved_here_in_one_second_keep_the_order_they_were_saved_in(
    tmp_path: Path,
) -> None:
    """A game saved here gets a time-ordered uuid: of twenty games saved in one second
    (random uuids would put them in any of 20! orders), the last saved is the last."""
    with History(tmp_path / "one.sqlite3") as history:
        for k in range(20):
            winner, loser = ("Aki", "Ben") if k % 2 else ("Ben", "Aki")
            seats = [(winner, 60, 1), (loser, 50, 2)]
            history.record(
                game="tokaido",
                score_file=None,
                result=result("tokaido", seats, [winner]),
                played_at=SAME_SECOND,
            )
        assert [p.id for p in history.plays()] == list(range(1, 21))
        streaks = {p["name"]: p["current_streak"] for p in of_history(history).to_json()["players"]}
        assert streaks == {"Aki": 1, "Ben": 0}  # Aki won the twentieth, saved last


def test_a_new_uuid_is_version_7_and_later_than_the_one_before(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    made = [new_uuid() for _ in range(1000)]  # many in one millisecond
    assert made == sorted(made) and len(set(made)) == 1000
    assert {(UUID(u).version, UUID(u).variant) for u in made} == {(7, RFC_4122)}
    assert all(u == str(UUID(u)) for u in made)  # lower case, as it is kept
    # Its first 48 bits are the time in milliseconds.
    now_ms = time.time_ns() // 1_000_000
    assert 0 <= now_ms - (UUID(made[-1]).int >> 80) < 60_000
    # A clock put back an hour still gives a later uuid.
    monkeypatch.setattr(time, "time_ns", lambda: (now_ms - 3_600_000) * 1_000_000)
    after = new_uuid()
    assert after > made[-1]
    assert UUID(after).int >> 80 == UUID(made[-1]).int >> 80
