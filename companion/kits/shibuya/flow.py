"""Playing Shibuya along: sides or teams, the construction count-down, the crossing.

With four players the seats alternate between the two teams (partners sit
opposite, play goes clockwise): in seat order the people are side 0's first
member, side 1's first, side 0's second and side 1's second. The start player
is saved as a person, by that index.

The result fills the score pad drawn from the kit's description
(:func:`companion.kits.shibuya.pad`): each side's pawns at goal, and the rules
played, as asked at the start.
"""

from __future__ import annotations

from companion.kits import KITS, PadOptions
from companion.kits.shibuya import (
    FORMER_VARIANTS,
    GAME,
    TEAM_COUNT,
    TEAMS,
    VARIANTS,
    members_of,
    winner_of,
)
from companion.play.common import Outcome, ask_players, choose_start, run_checklist
from companion.play.score_pad import Pad, review
from companion.play.table import Table
from scorers.shibuya import TARGETS

CONSTRUCTION_TILES = 16
ALL_TILES = 30
MOVE, GOAL, BUILD = "Moved a pedestrian", "A pedestrian reached its goal", "Built a street tile"
LAID, ALL_LAID = "Laid", "All 16 tiles are laid"
MODES = ["2 players", "4 players in two teams"]


def choose_variant(t: Table) -> str:
    """The rules played: the score file's variant id."""
    label = t.choose("variant", "Which rules?", list(VARIANTS), formerly=FORMER_VARIANTS)
    return VARIANTS[label]


SEATS_4 = ("team 1", "team 2", "team 1, opposite player 1", "team 2, opposite player 2")
OWNER_RULE = (
    "Team rule: only a pawn's owner moves it off the start; once it is on the board, "
    "either partner may move it."
)


def who_plays(t: Table, message: str) -> tuple[int, list[str], list[str], list[str]]:
    """How many play, their names (teams announced first), the sides' names and colours."""
    t.at("setup", "players", "four-players")
    count = TEAM_COUNT if t.choose("mode", message, MODES) == MODES[1] else 2
    if count == TEAM_COUNT:
        t.at("setup", "players", "four-players")
        t.say(
            "Two teams of two. Partners sit opposite and play goes clockwise, so in seat "
            "order the teams alternate: players 1 and 3 are team 1, players 2 and 4 team 2."
        )
        names = ask_players(t, GAME, count=TEAM_COUNT, labels=SEATS_4, topic="four-players")
        t.at("setup", "colours", "four-players")
        colour = t.choose("colour", f"Which colour do {names[0]} and {names[2]} play?", TEAMS)
    else:
        names = ask_players(t, GAME, count=2)
        t.at("setup", "colours", "setup")
        colour = t.choose("colour", f"{names[0]}'s colour?", TEAMS)
    other = TEAMS[1 - TEAMS.index(colour)]
    members = members_of(names)
    if count == TEAM_COUNT:
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
    setup = "four-players" if count == TEAM_COUNT else "setup"
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
    t.at("turn", "crossing", "four-players" if count == TEAM_COUNT else "crossing-move")
    t.say("Crossing: move a pedestrian or build on a tile.")
    if count == TEAM_COUNT:
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
    pad = side_pad(sides, names, variant)
    for k in (0, 1):
        pad.put("goals", k, goals[k])
    file = review(t, pad, title=pad_title(sides, names, count))
    return Outcome(file, start_player=first)


def win_line(sides: list[str], goals: list[int], winner: int, target: int) -> str:
    """How the side won: ``Aki wins with 6 pawns at goal!``, or by a lead of 3."""
    mine, theirs = goals[winner], goals[1 - winner]
    if mine >= target:
        return f"{sides[winner]} wins with {mine} pawns at goal!"
    return f"{sides[winner]} wins with a lead of {mine - theirs}: {mine} pawns at goal to {theirs}!"


def pad_title(sides: list[str], names: list[str], count: int) -> str:
    """``Shibuya: result``, with each team's members when four play."""
    if count != TEAM_COUNT:
        return "Shibuya: result"
    teams = "; ".join(
        f"{side}: {' and '.join(people)}"
        for side, people in zip(sides, members_of(names), strict=True)
    )
    return f"Shibuya: result ({teams})"


def side_pad(sides: list[str], names: list[str], variant: str) -> Pad:
    """One column per side (its members with teams), the rules as asked filled in."""
    teams = len(names) == TEAM_COUNT
    spec = KITS[GAME].pad(
        PadOptions(len(sides), tuple(sides), teams=teams, context={"variant": variant})
    )
    pad = Pad(GAME, list(sides), spec, members=members_of(names) if teams else None)
    pad.put("variant", None, variant)
    return pad


def score_only(t: Table) -> Outcome:
    """Just the result, for ``companion score shibuya``."""
    count, names, sides, _ = who_plays(t, "Who played?")
    t.at("setup", "rules", "optional-rule")
    variant = choose_variant(t)
    t.at("scoring", "scoring", "how-to-win")
    pad = side_pad(sides, names, variant)
    for k in (0, 1):
        pad.ask(t, f"score.{k}.goals", pad.key("goals", k))
    return Outcome(review(t, pad, title=pad_title(sides, names, count)))
