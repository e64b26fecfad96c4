"""Playing Orchard along: players, set-up, three rounds, the count."""

from __future__ import annotations

from typing import Any

from companion.kits import KITS, PadOptions
from companion.play.common import Outcome, ask_players, choose_start, row_message, run_checklist
from companion.play.score_pad import Pad, review
from companion.play.table import Table

GAME = "orchard"


def count(t: Table, names: list[str]) -> dict[str, Any]:
    """Each row in one answer, then the score pad."""
    spec = KITS[GAME].pad(PadOptions(len(names), tuple(names)))
    pad = Pad(GAME, names, spec)
    for row in spec.rows:
        assert row.high is not None
        values = t.numbers(
            f"score.{row.id}",
            row_message(row.label, names),
            len(names),
            high=row.high,
            topic=row.topic,
        )
        for seat, value in enumerate(values):
            pad.put(row.id, seat, value)
    return review(t, pad, title="Orchard: the count")


def flow(t: Table) -> Outcome:
    """The whole game."""
    names = ask_players(t, GAME)
    run_checklist(t, GAME, len(names))
    start = choose_start(t, "Who picks first?", names)
    for number in range(1, 4):
        t.round(f"round {number}")
        t.at("round", f"round {number}", "picking")
        t.say(f"Round {number}: pick.")
    t.round("count")
    t.at("scoring", "count", "end")
    return Outcome(count(t, names), start_player=start)


def score_only(t: Table) -> Outcome:
    """Just the count."""
    names = ask_players(t, GAME)
    t.at("scoring", "count", "end")
    return Outcome(count(t, names))
