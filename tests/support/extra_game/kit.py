"""Orchard's kit: a checklist, three rounds of picking, and a pad of four counts."""

from __future__ import annotations

from typing import Any

from companion.kits import Kit, PadOptions
from companion.kits.pad import PadSpec, number_row
from companion.kits.rounds import Rounds, RoundState, Step

GAME = "orchard"
ROWS = (
    ("apples", "Apples", "orchard-apples"),
    ("pears", "Pears", "orchard-pears"),
    ("plums", "Plums", "orchard-plums"),
    ("baskets", "Baskets", "tie-breaks"),
)


def checklist(players: int) -> list[str]:
    """The set-up steps."""
    return [f"Give each of the {players} players a basket.", "Trees in the middle."]


def draws(seats: list[str], seed: int) -> dict[str, Any]:
    """The first picker, drawn."""
    import random

    return {"start_player": random.Random(f"start:{seed}").choice(seats)}


def picked(state: RoundState) -> Step:
    """The next round; the player left of the starter starts it."""
    following = (state.start + 1) % len(state.names)
    if state.round >= 3:
        return Step("The third round is over: count the fruit below.", 3, state.start)
    return Step(
        f"{state.names[following]} starts round {state.round + 1}.", state.round + 1, following
    )


def pad(options: PadOptions) -> PadSpec:
    """One row per fruit and the baskets."""
    return PadSpec([number_row(GAME, field, label, topic) for field, label, topic in ROWS])


KIT = Kit(
    game=GAME,
    checklist=checklist,
    rounds=Rounds(
        word="Round",
        last=3,
        hint="Fruit picked this round, per player:",
        button="End the round",
        count_name="fruit picked",
        step=picked,
    ),
    pad=pad,
    flow="tests.support.extra_game.flow",
    draws=draws,
    describe_draws=lambda drawn: [f"Start player: {drawn['start_player']}"],
)
