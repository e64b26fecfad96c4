"""Playing Shibuya along: sides or teams, the construction count-down, the crossing."""

from __future__ import annotations

from companion.play.common import Outcome, ask_players, choose_start, run_checklist, validated
from companion.play.table import Table

GAME = "shibuya"
CONSTRUCTION_TILES = 16
ALL_TILES = 30
TARGETS = {"standard": 6, "no_construction": 4}
LEAD = 3
MOVE, GOAL, BUILD = "Moved a pedestrian", "A pedestrian reached its goal", "Built a street tile"


def flow(t: Table) -> Outcome:
    """The whole game: who plays, the two parts, and the winner."""
    teams = t.choose("mode", "Who is playing?", ["2 players", "4 players in two teams"])
    count = 4 if teams.startswith("4") else 2
    names = ask_players(t, GAME, count=count)
    if count == 4:
        sides = ["Red", "Blue"]
        members = [[names[0], names[2]], [names[1], names[3]]]
        t.say(f"Red: {names[0]} and {names[2]}. Blue: {names[1]} and {names[3]}.")
    else:
        colour = t.choose("colour", f"{names[0]}'s colour?", ["Red", "Blue"])
        sides = names
        members = [[names[0]], [names[1]]]
        t.say(
            f"{names[0]} plays {colour}, {names[1]} plays {'Blue' if colour == 'Red' else 'Red'}."
        )
    variant = t.choose(
        "variant", "Which rules?", ["standard", "no_construction (optional rule, 4 pawns)"]
    ).split(" ")[0]
    run_checklist(t, GAME, count)
    t.at("setup", "start player")
    first = choose_start(t, "Who goes first?", names)
    turn = first
    tiles = ALL_TILES
    if variant == "standard":
        t.at("round", "construction")
        t.say("Construction: lay the 16 tiles in the 4 x 4 area, taking turns.")
        for left in range(CONSTRUCTION_TILES, 0, -1):
            t.choose(f"build.{left}", f"{names[turn]} lays a tile ({left} to go).", ["Laid"])
            turn = (turn + 1) % count
        tiles -= CONSTRUCTION_TILES
    t.at("turn", "crossing")
    t.say("Crossing: move a pedestrian or build on a tile.")
    goals = [0, 0]
    target = TARGETS[variant]
    for number in range(1, 1000):
        side = turn % 2
        options = [MOVE, GOAL] + ([BUILD] if tiles else [])
        action = t.choose(
            f"cross.{number}",
            f"{names[turn]}'s turn ({sides[0]} {goals[0]} - {goals[1]} {sides[1]} at goal).",
            options,
        )
        if action == BUILD:
            tiles -= 1
        if action == GOAL:
            goals[side] += 1
            winner = winner_of(goals, target)
            if winner is not None:
                t.say(f"{sides[winner]} wins with {goals[winner]} pawns at goal!")
                break
        turn = (turn + 1) % count
    t.at("scoring", "result")
    players = []
    for k in (0, 1):
        entry: dict[str, object] = {"name": sides[k], "goals": goals[k]}
        if count == 4:
            entry["members"] = members[k]
        players.append(entry)
    return Outcome({"game": GAME, "variant": variant, "players": players}, start_player=first)


def winner_of(goals: list[int], target: int) -> int | None:
    """The side that has the target at goal or leads by 3, if any."""
    for side in (0, 1):
        if goals[side] >= target or goals[side] - goals[1 - side] >= LEAD:
            return side
    return None


def score_only(t: Table) -> Outcome:
    """Just the result, for ``companion score shibuya``."""
    teams = t.choose("mode", "Who played?", ["2 players", "4 players in two teams"])
    count = 4 if teams.startswith("4") else 2
    names = ask_players(t, GAME, count=count)
    variant = t.choose(
        "variant", "Which rules?", ["standard", "no_construction (optional rule, 4 pawns)"]
    ).split(" ")[0]
    t.at("scoring", "scoring")
    sides = ["Red", "Blue"] if count == 4 else names

    def build() -> dict[str, object]:
        players = []
        for k, side in enumerate(sides):
            entry: dict[str, object] = {
                "name": side,
                "goals": t.number(f"score.{k}.goals", f"{side}: pawns at goal?", high=8),
            }
            if count == 4:
                entry["members"] = [names[k], names[k + 2]]
            players.append(entry)
        return {"game": GAME, "variant": variant, "players": players}

    return Outcome(validated(t, GAME, build))
