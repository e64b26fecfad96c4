"""Tokaido's kit: travellers, the line at Kyoto, four stages to Edo, the final count.

Everything about Tokaido that is not pure scoring (:mod:`scorers.tokaido`):
the set-up checklist and its draws, the stages and their inns, the round
tracker's rule, and the score pad's rows. The play-along flow is
:mod:`companion.kits.tokaido.flow`.
"""

from __future__ import annotations

import random
from typing import Any

from companion.kits import Kit, PadOptions
from companion.kits.pad import PadRow, PadSpec, number_row
from companion.kits.rounds import NONE, Rounds, RoundState, Step

GAME = "tokaido"
TRAVELER_COINS = {
    "Chuubei": 4,
    "Hiroshige": 3,
    "Hirotada": 8,
    "Kinko": 7,
    "Mitsukuni": 6,
    "Sasayakko": 5,
    "Satsuki": 2,
    "Umegae": 5,
    "Yoshiyasu": 9,
    "Zen-emon": 6,
}
"""Each traveller tile and the coins it starts with."""
STAGES = ("the first inn", "the second inn", "the third inn", "Edo")
"""Where each of the four stages ends."""


def checklist(players: int) -> list[str]:
    """The set-up steps, with this group's numbers."""
    doubles = (
        "Double spaces are in play (4-5 players)."
        if players >= 4
        else "Double spaces: only the space on the road is used (2-3 players)."
    )
    steps = [
        "Board out; the 7 achievement cards face up beside it.",
        "Shuffle the meal, souvenir, encounter and hot spring piles.",
        "Sort the 60 panoramas by type and value (1 on top); coins form the bank.",
        f"{players} players: each takes a traveller piece, score marker (on 0) and token.",
        f"Deal 2 traveller tiles to each player ({2 * players} tiles); each keeps one and "
        "takes its starting coins.",
        "Line all traveller pieces up at Kyoto in a random order.",
        doubles,
        f"At each inn the first arrival will draw {players + 1} meal cards.",
    ]
    if players == 2:
        steps.append("Two players: add a neutral third traveller that blocks spaces.")
    return steps


def deal_travelers(players: int, seed: int) -> list[list[str]]:
    """Two different traveller tiles for each player."""
    tiles = random.Random(f"travelers:{seed}").sample(sorted(TRAVELER_COINS), 2 * players)
    return [tiles[2 * k : 2 * k + 2] for k in range(players)]


def line_up(names: list[str], seed: int) -> list[str]:
    """A random order of the travellers at Kyoto, the first nearest the road."""
    order = list(names)
    random.Random(f"lineup:{seed}").shuffle(order)
    return order


def draws(seats: list[str], seed: int) -> dict[str, Any]:
    """Two traveller tiles per seat, and the line at Kyoto."""
    dealt = deal_travelers(len(seats), seed)
    return {
        "travelers": {
            seat: [{"traveler": t, "coins": TRAVELER_COINS[t]} for t in tiles]
            for seat, tiles in zip(seats, dealt, strict=True)
        },
        "kyoto_line": line_up(seats, seed),
    }


def describe_draws(drawn: dict[str, Any]) -> list[str]:
    """The draws in words."""
    lines = []
    for seat, tiles in drawn.get("travelers", {}).items():
        offered = " or ".join(f"{t['traveler']} ({t['coins']} coins)" for t in tiles)
        lines.append(f"{seat}: {offered}")
    if "kyoto_line" in drawn:
        lines.append("Line at Kyoto, nearest the road first: " + ", ".join(drawn["kyoto_line"]))
    return lines


def arrived(state: RoundState) -> Step:
    """The player chosen as starting reached this stage's inn first."""
    first = state.names[state.start]
    stop = STAGES[state.round - 1]
    if state.round >= len(STAGES):
        return Step(
            f"{first} reached {stop} first: the journey is over, score it below.",
            state.round,
            state.start,
            over=True,
        )
    meals = len(state.names) + 1
    return Step(
        f"{first} reached {stop} first: draws {meals} meal cards and may buy one.",
        state.round + 1,
        state.start,
    )


ROUNDS = Rounds(
    word="Stage",
    last=len(STAGES),
    name=lambda number: f"Stage {number}: to {STAGES[number - 1]}",
    hint="Who reached the inn first? Choose them, then press the button.",
    button="Arrived at the inn",
    entry=NONE,
    step=arrived,
    picker="first at the inn:",
    picks_start=False,
)

# (field, row label, the question of the row's pass, rules topic)
COUNTS = (
    ("journey", "Score track", "Score track on arrival in Edo", "scoring-journey"),
    ("temple", "Temple coins", "Coins in the temple area", "scoring-temple"),
    (
        "meal_cost",
        "Meal prices",
        "Total printed price of meal cards (as printed, even for Kinko)",
        "scoring-gourmet",
    ),
    ("souvenirs", "Souvenir cards", "Souvenir cards", "scoring-collector"),
    ("hot_springs", "Hot spring cards", "Hot spring cards", "scoring-bather"),
    ("encounters", "Encounter cards", "Encounter cards", "scoring-chatterbox"),
    (
        "panorama_achievements",
        "Panorama achievements",
        "Panorama achievement cards",
        "panorama-achievements",
    ),
)


def table_problems(file: dict[str, Any]) -> list[tuple[str, list[str]]]:
    """What cannot be on one table: a tile twice, more achievement cards than the box holds.

    The check is the scorer's (:func:`scorers.tokaido.table_problems`); each
    problem names every value involved: both holders of a tile, every player
    holding achievement cards.
    """
    from scorers.tokaido import table_problems as problems_of

    players = [p if isinstance(p, dict) else {} for p in file.get("players", [])]
    names = [str(p.get("name", "")) for p in players]
    tiles = [p.get("traveler") for p in players]
    held = [p.get("panorama_achievements") for p in players]
    if not all(isinstance(h, int) for h in held) or None in tiles:
        return []
    found = []
    for seat, field, message in problems_of(tiles, held):
        if seat is None:
            paths = [f"players[{s}].{field}" for s in range(len(players)) if held[s]]
            found.append((message.replace(" in all", " in all on the pad"), paths))
        else:
            first = tiles.index(tiles[seat])
            shown = f"{tiles[seat]} is {names[first]}'s traveller too (one tile each)"
            found.append((shown, [f"players[{first}].{field}", f"players[{seat}].{field}"]))
    return found


def pad(options: PadOptions) -> PadSpec:
    """The final count: the traveller, then the seven counts read off the board."""
    from scorers.tokaido import TRAVELERS

    traveller = PadRow(
        "traveler",
        "Traveller",
        "traveler",
        "travelers",
        options=(("traveller…", ""), *((t, t) for t in sorted(TRAVELERS))),
    )
    counts = [
        number_row(GAME, field, label, topic, question=words)
        for field, label, words, topic in COUNTS
    ]
    return PadSpec([traveller, *counts], top={"mode": "final"}, extra=table_problems)


KIT = Kit(
    game=GAME,
    checklist=checklist,
    rounds=ROUNDS,
    pad=pad,
    flow="companion.kits.tokaido.flow",
    offers={4: "deal", 5: "lineup"},
    later={6: "stage 1", 7: "the first inn"},
    draws=draws,
    describe_draws=describe_draws,
)
