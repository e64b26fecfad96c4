"""The clock: time at the table from a session's log, pauses and time away left out."""

from __future__ import annotations

import doctest

import pytest

import companion.analysis.clock
from companion.analysis.clock import (
    Timing,
    duration_text,
    measure,
    minutes_for,
    minutes_text,
    round_texts,
    rounds_text,
    so_far,
)

START, STOP = "meta:start", "meta:stop"


def at(minute: float) -> str:
    """A time on 1 March 2026, ``minute`` minutes after 19:00 (whole seconds)."""
    seconds = round(minute * 60)
    hours, rest = divmod(19 * 3600 + seconds, 3600)
    return f"2026-03-{1 + hours // 24:02d}T{hours % 24:02d}:{rest // 60:02d}:{rest % 60:02d}Z"


def log(*events: tuple[float, str]) -> list[tuple[str, str]]:
    return [(at(minute), key) for minute, key in events]


def test_the_module_example() -> None:
    assert doctest.testmod(companion.analysis.clock).failed == 0


@pytest.mark.parametrize(
    ("events", "rounds", "ended", "seconds", "by_round"),
    [
        # One stretch: every answer's time since the one before it.
        (
            [(0, START), (3, "a"), (5, "b"), (9, "c")],
            ["set-up", "round 1", "round 1"],
            9,
            9 * 60,
            (("set-up", 180), ("round 1", 360)),
        ),
        # A pause: the two hours away never count; the minute before pausing and the
        # two after resuming both go to the question that was open.
        (
            [(0, START), (3, "a"), (4, STOP), (124, START), (126, "b")],
            ["set-up", "round 1"],
            126,
            6 * 60,
            (("set-up", 180), ("round 1", 180)),
        ),
        # A closed terminal leaves no stop mark: its stretch ends at its last answer,
        # and the night until the resume is not counted.
        (
            [(0, START), (3, "a"), (5, "b"), (600, START), (601, "c")],
            ["set-up", "set-up", "round 1"],
            601,
            6 * 60,
            (("set-up", 300), ("round 1", 60)),
        ),
        # Draws and other facts are no answers: their time goes to the next answer.
        (
            [(0, "meta:location"), (0, START), (1, "seed:tours"), (2, "a"), (2.5, "b")],
            ["set-up", "round 1"],
            3,
            3 * 60,
            (("set-up", 120), ("round 1", 60)),
        ),
        # An undone answer is gone from the log: the new answer takes its time.
        (
            [(0, START), (3, "a"), (7, "b")],
            ["set-up", "round 1"],
            7,
            7 * 60,
            (("set-up", 180), ("round 1", 240)),
        ),
        # A clock that went backwards (a resume on another machine) counts nothing.
        (
            [(0, START), (10, "a"), (5, "b")],
            ["set-up", "set-up"],
            6,
            11 * 60,
            (("set-up", 660),),
        ),
        # A round met again (after an undo across rounds) adds up in one place.
        (
            [(0, START), (1, "a"), (2, "b"), (3, "c")],
            ["round 1", "round 2", "round 1"],
            3,
            180,
            (("round 1", 120), ("round 2", 60)),
        ),
    ],
)
def test_measure(
    events: list[tuple[float, str]],
    rounds: list[str],
    ended: float,
    seconds: int,
    by_round: tuple[tuple[str, int], ...],
) -> None:
    timing = measure(log(*events), rounds, ended_at=at(ended))
    assert timing is not None
    assert (timing.seconds, timing.rounds) == (seconds, by_round)
    assert sum(s for _, s in timing.rounds) == timing.seconds
    assert timing.started_at == at(next(m for m, k in events if k == START))


def test_answers_before_the_first_mark_are_not_timed() -> None:
    # A game begun by an older companion, resumed by this one.
    timing = measure(
        log((0, "a"), (30, "b"), (60, START), (62, "c")), ["x", "x", "y"], ended_at=at(62)
    )
    assert timing == Timing(120, (("x", 0), ("y", 120)), at(60), at(62))
    assert measure(log((0, "a"), (30, "b")), ["x", "x"], ended_at=at(30)) is None
    assert so_far(log((0, "a")), ["x"], "x", now=at(5)) is None


def test_so_far_counts_the_open_question_in_the_current_round() -> None:
    events = log((0, START), (4, "a"), (6, "b"), (7, STOP), (60, START), (61, "c"))
    rounds = ["set-up", "round 1", "round 2"]
    assert so_far(events, rounds, "round 2", now=at(64)) == (11 * 60, 5 * 60)
    # Paused (no stretch open): the time stands still, whatever the clock says.
    assert so_far(events[:4], rounds[:2], "round 2", now=at(50)) == (7 * 60, 60)


def test_a_timing_reads_back_from_its_json_and_refuses_a_damaged_one() -> None:
    timing = Timing(2040, (("set-up", 840), ("crossing", 1200)), at(0), at(34))
    assert timing.to_json() == {
        "seconds": 2040,
        "minutes": 34,
        "started_at": "2026-03-01T19:00:00Z",
        "ended_at": "2026-03-01T19:34:00Z",
        "rounds": [{"round": "set-up", "seconds": 840}, {"round": "crossing", "seconds": 1200}],
    }
    assert Timing.from_json(timing.to_json()) == timing
    for damaged in (
        None,
        [],
        {"seconds": -1, "rounds": []},
        {"seconds": True, "rounds": []},
        {"seconds": 5, "rounds": [{"round": "x" * 81, "seconds": 1}]},
        {"seconds": 5, "rounds": [{"round": "x"}]},
        {"seconds": 5, "rounds": [["x", 1]]},
        {"seconds": 5, "rounds": [{"round": "x", "seconds": 1}] * 1001},
        {"seconds": 5, "rounds": [], "started_at": 7},
    ):
        assert Timing.from_json(damaged) is None


@pytest.mark.parametrize(
    ("seconds", "minutes", "text"),
    [
        (0, 0, "under a minute"),
        (29, 1, "under a minute"),
        (89, 1, "1 min"),
        (90, 2, "2 min"),
        (3600, 60, "1 h"),
        (3900, 65, "1 h 5 min"),
        (7260, 121, "2 h 1 min"),
    ],
)
def test_durations_in_words(seconds: int, minutes: int, text: str) -> None:
    assert minutes_for(seconds) == minutes
    assert duration_text(seconds) == text


def test_minutes_and_rounds_in_words() -> None:
    assert [minutes_text(m) for m in (0, 45, 60, 125)] == ["0 min", "45 min", "1 h", "2 h 5 min"]
    assert rounds_text([("set-up", 20), ("round 1", 700), ("final count", 3700)]) == (
        "set-up <1 min, round 1 12 min, final count 1 h 2 min"
    )


@pytest.mark.parametrize("seconds", [0, 1, 30, 45, 59, 60, 89, 90, 149, 3599, 3600])
def test_a_round_never_reads_longer_than_the_game(seconds: int) -> None:
    # Found at the table: 50 s in all read "under a minute" beside "set-up 1 min".
    total = duration_text(seconds)
    [round_text] = round_texts([("set-up", seconds)])
    if total == "under a minute":
        assert round_text == "set-up <1 min"
    else:
        assert round_text == f"set-up {total}"
