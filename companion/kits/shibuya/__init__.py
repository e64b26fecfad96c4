"""Shibuya's kit: two sides (two players, or four in two teams), the rules variant, the win check.

Everything about Shibuya that is not pure scoring (:mod:`scorers.shibuya`):
the set-up checklist and its draw, the team colours, the rules variants in
players' words, the round tracker's rule (the scorer's own win check) and the
score pad's rows. The play-along flow is :mod:`companion.kits.shibuya.flow`.

With four players the seats alternate between the two teams (partners sit
opposite, play goes clockwise): in seat order the people are side 0's first
member, side 1's first, side 0's second and side 1's second.
"""

from __future__ import annotations

import random
from typing import Any

from companion.kits import Kit, PadOptions
from companion.kits.pad import PadRow, PadSpec, number_row
from companion.kits.rounds import COUNT, Rounds, RoundState, Step
from scorers.shibuya import INFO, LEAD, TARGETS

GAME = "shibuya"
TEAM_COUNT = INFO.team_counts[0]
"""The player count played in two teams of two."""
TEAMS = ("Red", "Blue")
"""The two sides' colours: what a side is called before its team name is typed."""
VARIANTS = {
    f"Standard: build the city, then {TARGETS['standard']} pawns at goal": "standard",
    "Optional rule: no construction, "
    f"{TARGETS['no_construction']} pawns at goal": "no_construction",
}
"""The rules as players choose them at the terminal → the score file's variant (never shown)."""
FORMER_VARIANTS = {
    "standard": f"Standard: build the city, then {TARGETS['standard']} pawns at goal",
    "no_construction (optional rule, 4 pawns)": "Optional rule: no construction, "
    f"{TARGETS['no_construction']} pawns at goal",
}
"""What games saved by earlier versions answered (they replay as they were)."""
VARIANT_OPTIONS = (
    (f"standard ({TARGETS['standard']} at goal)", "standard"),
    (f"optional rule ({TARGETS['no_construction']})", "no_construction"),
)
"""The rules as the score pad's and the round tracker's dropdowns show them (the first: the
default)."""
RULES = "Rules"
"""What the variant's choice is called, on the score pad and the round tracker."""


def checklist(players: int) -> list[str]:
    """The set-up steps, with this group's numbers."""
    steps = [
        "Each side takes a colour: 8 pawns and 2 goal tiles.",
        "Shuffle the 30 street tiles into a face-down pile.",
        "Pawns and goals around an empty 4 x 4 area, as in the diagram.",
    ]
    if players == TEAM_COUNT:
        steps.insert(0, "Two teams of two; partners sit opposite each other.")
    return steps


def draws(seats: list[str], seed: int) -> dict[str, Any]:
    """The start player, drawn among the seats."""
    return {"start_player": random.Random(f"start:{seed}").choice(seats)}


def describe_draws(drawn: dict[str, Any]) -> list[str]:
    """The draws in words."""
    if "start_player" in drawn:
        return [f"Start player: {drawn['start_player']}"]
    return []


def seat_label(seat: int, players: int) -> str:
    """``Red 1``, ``Blue 1``, ``Red 2``, ``Blue 2`` with four players, else ``Player N``."""
    if players == TEAM_COUNT:
        return f"{TEAMS[seat % 2]} {seat // 2 + 1}"
    return f"Player {seat + 1}"


def members_of(names: list[str]) -> list[list[str]]:
    """The two sides' members, from the people in seat order."""
    if len(names) == TEAM_COUNT:
        return [[names[0], names[2]], [names[1], names[3]]]
    return [[names[0]], [names[1]]]


def check_winner(state: RoundState) -> Step:
    """The scorer's win check over the pawns at goal (each side's members' counts added up).

    No winner yet: the next player plays the next turn. A count the rules
    cannot give (both sides won) is said, and the turn stays.
    """
    from scorers import SCORERS, ScoreFileError

    goals = [int(value or 0) for value in state.values]
    sides = [sum(goals[k] for k in range(side, len(goals), 2)) for side in (0, 1)]
    people = [list(state.names[side::2]) for side in (0, 1)]
    players: list[dict[str, Any]] = []
    for side in (0, 1):
        entry: dict[str, Any] = {"name": state.sides[side], "goals": sides[side]}
        if len(state.names) == TEAM_COUNT:
            entry["members"] = people[side]
        players.append(entry)
    variant = state.option or VARIANT_OPTIONS[0][1]
    document = {"game": GAME, "variant": variant, "players": players}
    score = f"{state.sides[0]} {sides[0]} – {sides[1]} {state.sides[1]}"
    try:
        result = SCORERS[GAME].score_json(document).to_json()
    except ScoreFileError as error:
        messages = [p.message for p in error.problems]
        if any("not over" in m for m in messages):
            following = (state.start + 1) % len(state.names)
            return Step(
                f"No winner yet ({score}); {state.names[following]} plays next.",
                ROUNDS.advanced(state.round),
                following,
            )
        return Step(f"{score}: " + "; ".join(messages), state.round, state.start)
    return Step(
        f"{', '.join(result['winners'])} wins! ({score})", state.round, state.start, over=True
    )


ROUNDS = Rounds(
    word="Turn",
    hint="Pawns at goal, per player:",
    button="Check for a winner",
    entry=COUNT,
    count_name="pawns at goal",
    options=VARIANT_OPTIONS,
    option_name=RULES,
    step=check_winner,
)


def winner_of(goals: list[int], target: int) -> int | None:
    """The side that has the target at goal or leads by 3, if any."""
    for side in (0, 1):
        if goals[side] >= target or goals[side] - goals[1 - side] >= LEAD:
            return side
    return None


def result_problems(file: dict[str, Any]) -> list[tuple[str, list[str]]]:
    """A result the rules cannot give (no side has won yet, or both have), as the scorer's own
    rule says it (:func:`scorers.shibuya.winner_of`), naming both counts and the rules.

    Counts not typed yet (or not whole numbers) and an unknown variant are
    left to the scorer to report.
    """
    from scorers import ScoreFileError
    from scorers.shibuya import Game, Side, winner_of

    players = file.get("players")
    if not isinstance(players, list) or len(players) != 2:
        return []
    typed = [p.get("goals") if isinstance(p, dict) else None for p in players]
    goals = [g for g in typed if isinstance(g, int) and not isinstance(g, bool)]
    variant = str(file.get("variant", VARIANT_OPTIONS[0][1]))
    if variant not in TARGETS or len(goals) != len(typed):
        return []
    try:
        winner_of(Game(variant, tuple(Side(f"side {k}", n) for k, n in enumerate(goals))))
    except ScoreFileError as error:
        paths = ["players[0].goals", "players[1].goals", "variant"]  # the rules decide too
        return [(problem.message, paths) for problem in error.problems]
    return []


def pad(options: PadOptions) -> PadSpec:
    """Each side's pawns at goal, and the rules played (the terminal fills it from its question)."""
    return PadSpec(
        [
            number_row(GAME, "goals", "Pawns at goal", "how-to-win"),
            PadRow(
                "variant",
                RULES,
                "variant",
                "optional-rule",
                shared=True,
                options=VARIANT_OPTIONS,
                width="16em",
            ),
        ],
        extra=result_problems,
    )


KIT = Kit(
    game=GAME,
    checklist=checklist,
    rounds=ROUNDS,
    pad=pad,
    flow="companion.kits.shibuya.flow",
    draws=draws,
    describe_draws=describe_draws,
    seat_label=seat_label,
    team_names=TEAMS,
    css="@media (max-width: 700px) { PAD .grid { --companion-col: 6em; } }\n",
)
