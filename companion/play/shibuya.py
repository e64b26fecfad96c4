"""Playing Shibuya along: sides or teams, the construction count-down, the crossing.

With four players the seats alternate between the two teams (partners sit
opposite, play goes clockwise): in seat order the people are side 0's first
member, side 1's first, side 0's second and side 1's second. The start player
is saved as a person, by that index.
"""

from __future__ import annotations

from typing import Any

from companion.play.common import Outcome, ask_players, choose_start, run_checklist
from companion.play.pad import Pad, Row, review
from companion.play.table import Table
from scorers.shibuya import LEAD, PAWNS, TARGETS

GAME = "shibuya"
CONSTRUCTION_TILES = 16
ALL_TILES = 30
MOVE, GOAL, BUILD = "Moved a pedestrian", "A pedestrian reached its goal", "Built a street tile"
LAID, ALL_LAID = "Laid", "All 16 tiles are laid"
MODES = ["2 players", "4 players in two teams"]
VARIANTS = {
    "Standard: build the city, then 6 pawns at goal": "standard",
    "Optional rule: no construction, 4 pawns at goal": "no_construction",
}
"""The rules as players choose them → the score file's variant (never shown)."""
_FORMER_VARIANTS = {
    "standard": "Standard: build the city, then 6 pawns at goal",
    "no_construction (optional rule, 4 pawns)": "Optional rule: no construction, 4 pawns at goal",
}
"""What games saved by earlier versions answered (they replay as they were)."""


def choose_variant(t: Table) -> str:
    """The rules played: the score file's variant id."""
    label = t.choose("variant", "Which rules?", list(VARIANTS), formerly=_FORMER_VARIANTS)
    return VARIANTS[label]


COLOURS = ("Red", "Blue")
SEATS_4 = ("team 1", "team 2", "team 1, opposite player 1", "team 2, opposite player 2")
OWNER_RULE = (
    "Team rule: only a pawn's owner moves it off the start; once it is on the board, "
    "either partner may move it."
)


def members_of(names: list[str]) -> list[list[str]]:
    """The two sides' members, from the people in seat order."""
    if len(names) == 4:
        return [[names[0], names[2]], [names[1], names[3]]]
    return [[names[0]], [names[1]]]


def who_plays(t: Table, message: str) -> tuple[int, list[str], list[str], list[str]]:
    """How many play, their names (teams announced first), the sides' names and colours."""
    t.at("setup", "players", "four-players")
    count = 4 if t.choose("mode", message, MODES) == MODES[1] else 2
    if count == 4:
        t.at("setup", "players", "four-players")
        t.say(
            "Two teams of two. Partners sit opposite and play goes clockwise, so in seat "
            "order the teams alternate: players 1 and 3 are team 1, players 2 and 4 team 2."
        )
        names = ask_players(t, GAME, count=4, labels=SEATS_4, topic="four-players")
        t.at("setup", "colours", "four-players")
        colour = t.choose("colour", f"Which colour do {names[0]} and {names[2]} play?", COLOURS)
    else:
        names = ask_players(t, GAME, count=2)
        t.at("setup", "colours", "setup")
        colour = t.choose("colour", f"{names[0]}'s colour?", COLOURS)
    other = COLOURS[1 - COLOURS.index(colour)]
    members = members_of(names)
    if count == 4:
        sides = [colour, other]
        t.say(f"{colour}: {' and '.join(members[0])}. {other}: {' and '.join(members[1])}.")
    else:
        sides = names
        t.say(f"{names[0]} plays {colour}, {names[1]} plays {other}.")
    return count, names, sides, [colour, other]


def flow(t: Table) -> Outcome:
    """The whole game: who plays, the two parts, and the winner."""
    count, names, sides, colours = who_plays(t, "Who is playing?")
    t.at("setup", "rules", "optional-rule")
    variant = choose_variant(t)
    setup = "four-players" if count == 4 else "setup"
    run_checklist(t, GAME, count, setup)
    t.at("setup", "start player", setup)
    first = choose_start(t, "Who goes first?", names)
    turn = first
    tiles = ALL_TILES
    if variant == "standard":
        t.round("construction")
        t.at("round", "construction", "construction")
        t.say("Construction: lay the 16 tiles in the 4 x 4 area, taking turns.")
        for left in range(CONSTRUCTION_TILES, 0, -1):
            laid = t.choose(
                f"build.{left}", f"{names[turn]} lays a tile ({left} to go).", [LAID, ALL_LAID]
            )
            turn = (turn + 1) % count
            if laid == ALL_LAID:
                turn = (first + CONSTRUCTION_TILES) % count
                break
        tiles -= CONSTRUCTION_TILES
    t.round("crossing")
    t.at("turn", "crossing", "four-players" if count == 4 else "crossing-move")
    t.say("Crossing: move a pedestrian or build on a tile.")
    if count == 4:
        t.say(OWNER_RULE)
    goals = [0, 0]
    target = TARGETS[variant]
    for number in range(1, 10_000):
        side = turn % 2
        options = [MOVE, GOAL] + ([BUILD] if tiles else [])
        action = t.choose(
            f"cross.{number}",
            f"{names[turn]}'s turn, {colours[side]} ({sides[0]} {goals[0]} - {goals[1]} "
            f"{sides[1]} at goal).",
            options,
        )
        if action == BUILD:
            tiles -= 1
        if action == GOAL:
            goals[side] += 1
            winner = winner_of(goals, target)
            if winner is not None:
                t.say(win_line(sides, goals, winner, target))
                break
        turn = (turn + 1) % count
    t.round("final count")
    t.at("scoring", "result", "how-to-win")
    pad = side_pad(sides, names, count)
    for k in (0, 1):
        pad.values[pad.key("goals", k)] = goals[k]
    file = review(
        t,
        pad,
        game=GAME,
        build=lambda p: build(p, variant, names, count),
        extra=extra,
        title=pad_title(sides, names, count),
    )
    return Outcome(file, start_player=first)


def winner_of(goals: list[int], target: int) -> int | None:
    """The side that has the target at goal or leads by 3, if any."""
    for side in (0, 1):
        if goals[side] >= target or goals[side] - goals[1 - side] >= LEAD:
            return side
    return None


def win_line(sides: list[str], goals: list[int], winner: int, target: int) -> str:
    """How the side won: ``Aki wins with 6 pawns at goal!``, or by a lead of 3."""
    mine, theirs = goals[winner], goals[1 - winner]
    if mine >= target:
        return f"{sides[winner]} wins with {mine} pawns at goal!"
    return f"{sides[winner]} wins with a lead of {mine - theirs}: {mine} pawns at goal to {theirs}!"


def pad_title(sides: list[str], names: list[str], count: int) -> str:
    """``Shibuya: result``, with each team's members when four play."""
    if count != 4:
        return "Shibuya: result"
    teams = "; ".join(
        f"{side}: {' and '.join(people)}"
        for side, people in zip(sides, members_of(names), strict=True)
    )
    return f"Shibuya: result ({teams})"


def side_pad(sides: list[str], names: list[str], count: int) -> Pad:
    """One column per side, its pawns at goal (and its members, with teams)."""

    def goals(t: Table, key: str, seat: int | None, current: Any) -> int:
        assert seat is not None
        return t.number(
            key, f"{sides[seat]}: pawns at goal?", high=PAWNS, default=current, topic="how-to-win"
        )

    return Pad(list(sides), [Row("goals", "Pawns at goal", goals)])


def build(pad: Pad, variant: str, names: list[str], count: int) -> dict[str, Any]:
    """The score file: two sides, with their members when four play."""
    players = []
    members = members_of(names)
    for k, side in enumerate(pad.names):
        entry: dict[str, Any] = {"name": side, "goals": pad.get("goals", k)}
        if count == 4:
            entry["members"] = members[k]
        pad.paths[f"players[{k}].goals"] = pad.key("goals", k)
        players.append(entry)
    return {"game": GAME, "variant": variant, "players": players}


def extra(pad: Pad, file: dict[str, Any]) -> list[tuple[str, list[str]]]:
    """A result the rules cannot give: name both sides' goals."""
    goals = [pad.get("goals", k) for k in (0, 1)]
    target = TARGETS[file["variant"]]
    won = [s for s in (0, 1) if goals[s] >= target or goals[s] - goals[1 - s] >= LEAD]
    cells = [pad.key("goals", 0), pad.key("goals", 1)]
    if not won:
        return [(f"the game is not over: no side has {target} at goal or a lead of 3", cells)]
    if len(won) == 2:
        return [("both sides cannot have won: one of the counts is wrong", cells)]
    return []


def score_only(t: Table) -> Outcome:
    """Just the result, for ``companion score shibuya``."""
    count, names, sides, _ = who_plays(t, "Who played?")
    t.at("setup", "rules", "optional-rule")
    variant = choose_variant(t)
    t.at("scoring", "scoring", "how-to-win")
    pad = side_pad(sides, names, count)
    for k in (0, 1):
        pad.ask(t, f"score.{k}.goals", pad.key("goals", k))
    return Outcome(
        review(
            t,
            pad,
            game=GAME,
            build=lambda p: build(p, variant, names, count),
            extra=extra,
            title=pad_title(sides, names, count),
        )
    )
