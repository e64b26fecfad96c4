"""Time at the table: how long a played-along game took, pauses left out, and each round.

A session's event log (see :mod:`companion.history.sessions`) holds every answer with
the moment it was saved, and two marks: ``meta:start`` when a terminal starts
or resumes driving the game, ``meta:stop`` when the players pause it, press
Ctrl-C or stop. The clock runs only while a terminal drives the game:

- A *stretch* runs from a start mark to the last event saved after it: its
  stop mark or, when the terminal was closed or crashed (which leaves no
  mark), the last answer saved before that. The time between the end of a
  stretch and the next start mark is time away and never counts.
- An answer's time is the time spent in stretches since the answer before it
  (for the first one, since the game started). The time between the last
  answer and a pause goes to the question that was open, and so does the time
  after the resume: it is all time spent on that question.
- A round's time is the sum of the times of the answers asked in it. Each
  answer belongs to the round the game was in when it was asked (see
  :meth:`companion.play.table.Table.round`). An answer that was undone gives
  its time to the answer that replaced it, so undoing loses no time.

Events saved before the first start mark (a game begun by an older companion)
are not timed, and a log without any start mark has no time at all. Times are
whole seconds, the log's resolution; a clock that went backwards (a game
resumed on another machine) counts as no time, never as negative time.

Example:
    >>> log = [("2026-01-01T20:00:00Z", "meta:start"), ("2026-01-01T20:05:00Z", "players.0"),
    ...        ("2026-01-01T20:06:00Z", "meta:stop"), ("2026-01-01T23:00:00Z", "meta:start"),
    ...        ("2026-01-01T23:04:00Z", "round.1")]
    >>> timing = measure(log, ["set-up", "round 1"], ended_at="2026-01-01T23:04:00Z")
    >>> timing.seconds // 60, timing.rounds
    (10, (('set-up', 300), ('round 1', 300)))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, NamedTuple

from companion.events import START, STOP, is_answer

STAMP = "%Y-%m-%dT%H:%M:%SZ"
MAX_ROUNDS = 1000
"""Most rounds a stored timing may list (a hostile import cannot make it larger)."""
MAX_LABEL = 80
"""Longest round name a stored timing may hold."""


def seconds_of(stamp: str) -> int:
    """A stored time (``2026-01-01T20:00:00Z``) as seconds since the epoch.

    Raises:
        ValueError: Not a stored time.
    """
    return int(datetime.strptime(stamp, STAMP).replace(tzinfo=UTC).timestamp())


@dataclass(frozen=True)
class Timing:
    """How long a played-along game took.

    Attributes:
        seconds: Time at the table, pauses and time away left out.
        rounds: ``(round, seconds)`` in the order the rounds were first played.
        started_at: When a terminal first started the game (its first start mark).
        ended_at: When it was saved.
    """

    seconds: int
    rounds: tuple[tuple[str, int], ...] = ()
    started_at: str | None = None
    ended_at: str | None = None

    @property
    def minutes(self) -> int:
        """The time in whole minutes, as the history stores it (at least 1 once it runs)."""
        return minutes_for(self.seconds)

    def to_json(self) -> dict[str, Any]:
        """``seconds``, ``minutes``, ``started_at``, ``ended_at`` and ``rounds``.

        ``rounds`` is a list of ``{"round", "seconds"}``.
        """
        return {
            "seconds": self.seconds,
            "minutes": self.minutes,
            "started_at": self.started_at,
            "ended_at": self.ended_at,
            "rounds": [{"round": label, "seconds": s} for label, s in self.rounds],
        }

    @classmethod
    def from_json(cls, value: object) -> Timing | None:
        """A timing read back from the log, or ``None`` when it is not one (a damaged record)."""
        if not isinstance(value, Mapping):
            return None
        total, rounds = value.get("seconds"), value.get("rounds")
        started, ended = value.get("started_at"), value.get("ended_at")
        if not isinstance(total, int) or not _count(total):
            return None
        if not isinstance(rounds, list) or len(rounds) > MAX_ROUNDS:
            return None
        if not all(v is None or (isinstance(v, str) and len(v) <= 40) for v in (started, ended)):
            return None
        read: list[tuple[str, int]] = []
        for entry in rounds:
            if not isinstance(entry, Mapping):
                return None
            label, spent = entry.get("round"), entry.get("seconds")
            if not isinstance(label, str) or len(label) > MAX_LABEL:
                return None
            if not isinstance(spent, int) or not _count(spent):
                return None
            read.append((label, spent))
        return cls(total, tuple(read), started, ended)


def _count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 10**9


class _Walk(NamedTuple):
    spans: list[int]
    """Each answer's time, in the order of the answers."""
    pending: int
    """Time in stretches since the last answer."""
    started_at: str | None
    """The first start mark's time."""
    running: int | None
    """The time of the last event, when a stretch is open (no stop since its start)."""


def _walk(timeline: Sequence[tuple[str, str]]) -> _Walk:
    spans: list[int] = []
    pending = 0
    started_at: str | None = None
    last: int | None = None
    for at, key in timeline:
        try:
            moment = seconds_of(at)
        except ValueError:
            moment = None  # a damaged time: it counts for nothing
        if key == START:
            if started_at is None and moment is not None:
                started_at = at
            last = moment
            continue
        if last is not None and moment is not None:
            pending += max(0, moment - last)
            last = moment
        if key == STOP:
            last = None
        elif is_answer(key):
            spans.append(pending)
            pending = 0
    return _Walk(spans, pending, started_at, last)


def _rounds(spans: Sequence[int], parts: Sequence[str], extra: int) -> tuple[tuple[str, int], ...]:
    """Sum each round's answers; ``extra`` (time since the last answer) goes to the last round."""
    totals: dict[str, int] = {}
    for spent, part in zip(spans, parts, strict=False):
        totals[part] = totals.get(part, 0) + spent
    if parts and extra:
        totals[parts[-1]] = totals.get(parts[-1], 0) + extra
    return tuple(totals.items())


def measure(
    timeline: Sequence[tuple[str, str]], parts: Sequence[str], *, ended_at: str
) -> Timing | None:
    """The timing of a game saved at ``ended_at``.

    Args:
        timeline: ``(at, key)`` of every event of the session, in order.
        parts: The round each answer was asked in, in the order of the answers.
        ended_at: When the game is saved: an open stretch runs until then.

    Returns:
        The timing, or ``None`` when the log has no start mark.
    """
    walk = _walk(timeline)
    if walk.started_at is None:
        return None
    tail = 0
    if walk.running is not None:
        try:
            tail = max(0, seconds_of(ended_at) - walk.running)
        except ValueError:
            tail = 0
    extra = walk.pending + tail
    total = sum(walk.spans) + extra
    return Timing(total, _rounds(walk.spans, parts, extra), walk.started_at, ended_at)


def so_far(
    timeline: Sequence[tuple[str, str]], parts: Sequence[str], current: str, *, now: str
) -> tuple[int, int] | None:
    """Time at the table so far, and in the current round, while a game is played.

    Args:
        timeline: ``(at, key)`` of every event so far, in order.
        parts: The round of each answer so far.
        current: The round the open question belongs to.
        now: The time now.

    Returns:
        ``(seconds in all, seconds in the current round)``, or ``None`` when
        the log has no start mark.
    """
    walk = _walk(timeline)
    if walk.started_at is None:
        return None
    open_question = walk.pending
    if walk.running is not None:
        with suppress(ValueError):
            open_question += max(0, seconds_of(now) - walk.running)
    in_round = sum(s for s, part in zip(walk.spans, parts, strict=False) if part == current)
    return sum(walk.spans) + open_question, in_round + open_question


def minutes_for(seconds: int) -> int:
    """Whole minutes, rounded to the nearest; at least 1 for any time at all."""
    if seconds <= 0:
        return 0
    return max(1, (seconds + 30) // 60)


def minutes_text(minutes: int) -> str:
    """``45 min``, ``1 h``, ``2 h 5 min``."""
    hours, rest = divmod(max(0, minutes), 60)
    if not hours:
        return f"{rest} min"
    return f"{hours} h" + (f" {rest} min" if rest else "")


def duration_text(seconds: int) -> str:
    """A time for the players: ``under a minute``, ``12 min``, ``1 h 5 min``."""
    if seconds < 60:
        return "under a minute"
    return minutes_text(minutes_for(seconds))


def round_texts(rounds: Sequence[tuple[str, int]]) -> list[str]:
    """``["set-up 6 min", "round 1 12 min", "round 2 <1 min"]``.

    A round under a minute is ``<1 min``, as :func:`duration_text` says "under a
    minute": a round never reads longer than the whole game.
    """
    return [
        f"{label} {'<1 min' if spent < 60 else minutes_text(minutes_for(spent))}"
        for label, spent in rounds
    ]


def rounds_text(rounds: Sequence[tuple[str, int]]) -> str:
    """``set-up 6 min, round 1 12 min, round 2 <1 min``."""
    return ", ".join(round_texts(rounds))
