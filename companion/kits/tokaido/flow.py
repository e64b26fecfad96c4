"""Playing Tokaido along: travellers, the line at Kyoto, the four stages and their inns.

The final count fills the score pad row by row, as the table reads it: one
answer per row with every traveller's number in seat order.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.kits import KITS, PadOptions
from companion.kits.tokaido import COUNTS, GAME, STAGES, TRAVELER_COINS, deal_travelers, line_up
from companion.play.common import Checklist, Outcome, ask_players, row_message, run_checklist
from companion.play.score_pad import Pad, review
from companion.play.table import Table

INN_POWERS = {
    "Chuubei": "Chuubei: an extra encounter at this inn.",
    "Hiroshige": "Hiroshige: a free panorama card at this inn.",
}
MEAL_POWERS = {
    "Kinko": "Kinko pays 1 coin less for a meal.",
    "Satsuki": "Satsuki may take the top meal of the pile for free.",
}
GAINS = (
    (
        "meal_cost",
        "Printed price of the meal bought at the inn (0 for none; as printed, even for Kinko)",
        3,
        "inns",
    ),
    ("souvenirs", "Souvenir cards gained on this stage", 12, "village"),
    ("hot_springs", "Hot spring cards gained on this stage", 12, "hot-springs"),
    ("encounters", "Encounter cards gained on this stage", 14, "encounters"),
    ("temple", "Coins given to the temple on this stage", 30, "temple"),
)


def flow(t: Table) -> Outcome:
    """The whole journey, from Kyoto to the final count."""
    names = ask_players(t, GAME)
    count = len(names)
    steps = run_checklist(t, GAME, count)
    travelers = choose_travelers(t, names, steps)
    gains: dict[str, list[int]] = {}
    t.at("setup", "line-up at Kyoto", "setup")
    if t.yes("lineup", "Draw the line-up at Kyoto for you?"):
        seed = t.seed("lineup")
        line = line_up(names, seed)
        t.say(f"Line at Kyoto (seed {seed}), nearest the road first: {', '.join(line)}.")
        steps.done(t, "lineup")
    else:
        last = t.choose("lineup.last", "Who stands furthest back at Kyoto?", names)
        line = [n for n in names if n != last] + [last]
    t.say(f"{line[-1]} is furthest back and moves first.")
    if count == 2:
        t.say("Two players: place the neutral traveller too.")
    noting = False  # the table's choice stays the default for the stages after it
    for stage, inn in enumerate(STAGES, 1):
        t.round(f"stage {stage}")
        t.at("turn", f"stage {stage}: to {inn}", "turn-order")
        t.say(f"Stage {stage}: travel to {inn}. The traveller furthest back always moves.")
        steps.again(t, f"stage {stage}")
        t.at("round", f"arriving at {inn}", "inns")
        first = t.choose(f"inn{stage}.first", f"Who reached {inn} first?", names)
        steps.again(t, inn)
        t.say(
            f"{first} draws {count + 1} meal cards and may buy one; the others buy in "
            "arrival order."
        )
        for name, traveler in travelers.items():
            if stage < len(STAGES) and traveler in INN_POWERS:
                t.say(f"Reminder for {name}: {INN_POWERS[traveler]}")
            if traveler in MEAL_POWERS:
                t.say(f"Reminder for {name}: {MEAL_POWERS[traveler]}")
        noting = t.yes(
            f"inn{stage}.notes", "Note what each traveller gained on this stage?", default=noting
        )
        if noting:
            note_gains(t, stage, names, gains)
        if stage < len(STAGES):
            t.say("Unbought meals go under the pile; the last to arrive sets off first.")
    t.round("final count")
    t.at("scoring", "final scoring", "scoring-achievements")
    t.say(
        "Everyone is in Edo. Read each score track as it stands first: the "
        "achievements and the temple points are counted after it, not moved onto it."
    )
    file = count_up(t, names, [travelers[n] for n in names], gains)
    return Outcome(file, start_player=names.index(line[-1]))


def note_gains(t: Table, stage: int, names: list[str], gains: dict[str, list[int]]) -> None:
    """What the travellers gained on a stage, one answer per kind; sums pre-fill the count."""
    for field, words, high, topic in GAINS:
        row = t.numbers(
            f"inn{stage}.gain.{field}",
            row_message(words, names),
            len(names),
            high=high,
            default=[0] * len(names),
            topic=topic,
        )
        total = gains.setdefault(field, [0] * len(names))
        gains[field] = [a + b for a, b in zip(total, row, strict=True)]


def choose_travelers(t: Table, names: list[str], steps: Checklist | None = None) -> dict[str, str]:
    """Deal two traveller tiles to each player (or take what they drew by hand)."""
    t.at("setup", "travellers", "travelers")
    travelers: dict[str, str] = {}
    if t.yes("deal", "Deal the traveller tiles for you?"):
        seed = t.seed("travelers")
        dealt = deal_travelers(len(names), seed)
        if steps is not None:
            steps.done(t, "deal")
        t.say(f"Traveller tiles (seed {seed}):")
        for name, tiles in zip(names, dealt, strict=True):
            shown = " or ".join(f"{tile} ({TRAVELER_COINS[tile]} coins)" for tile in tiles)
            t.say(f"  {name}: {shown}")
        for seat, (name, tiles) in enumerate(zip(names, dealt, strict=True)):
            travelers[name] = t.choose(f"traveler.{seat}", f"{name} keeps?", tiles)
    else:
        for seat, name in enumerate(names):
            taken = {tile: who for who, tile in travelers.items()}  # one tile each
            travelers[name] = ask_traveler(t, f"traveler.{seat}", name, taken=taken)
    for name, traveler in travelers.items():
        t.say(f"{name} is {traveler}: starts with {TRAVELER_COINS[traveler]} coins.")
    return travelers


def ask_traveler(
    t: Table,
    key: str,
    name: str,
    current: str | None = None,
    *,
    taken: Mapping[str, str] | None = None,
) -> str:
    """One player's traveller, from the ten tiles; those ``taken`` (tile → whose) are
    shown but cannot be picked, so every tile keeps its number from player to player."""
    tiles = sorted(TRAVELER_COINS)
    unavailable = {tile: f"{who}'s" for tile, who in (taken or {}).items()}
    return t.choose(
        key, f"{name}'s traveller?", tiles, current, topic="travelers", unavailable=unavailable
    )


def count_up(
    t: Table, names: list[str], travelers: list[str], gains: dict[str, list[int]]
) -> dict[str, Any]:
    """The final count, one row per answer (noted gains offered), then the score pad."""
    spec = KITS[GAME].pad(PadOptions(len(names), tuple(names)))
    pad = Pad(GAME, names, spec)
    for seat, traveler in enumerate(travelers):
        pad.put("traveler", seat, traveler)
    rows = {row.id: row for row in spec.rows}
    for field, _, words, topic in COUNTS:
        high = rows[field].high
        assert high is not None
        if field in gains:  # right after "gained on this stage": say it takes the whole game
            words = f"{words} in all, the whole game (the stages noted are added up)"
        answers = t.numbers(
            f"score.{field}",
            row_message(words, names),
            len(names),
            high=high,
            default=gains.get(field),
            topic=topic,
        )
        for seat, value in enumerate(answers):
            pad.put(field, seat, value)
    t.at("scoring", "score pad", "scoring-achievements")
    return review(t, pad, title="Tokaido: final count")


def score_only(t: Table) -> Outcome:
    """Just the final count, for ``companion score tokaido``."""
    names = ask_players(t, GAME)
    t.at("scoring", "travellers", "travelers")
    travelers: list[str] = []
    for seat, name in enumerate(names):
        taken = dict(zip(travelers, names, strict=False))
        travelers.append(ask_traveler(t, f"traveler.{seat}", name, taken=taken))
    t.at("scoring", "scoring", "scoring-journey")
    return Outcome(count_up(t, names, travelers, {}))
