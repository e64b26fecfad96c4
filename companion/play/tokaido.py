"""Playing Tokaido along: travellers, the line at Kyoto, the four stages and their inns."""

from __future__ import annotations

from typing import Any

from companion.play.common import Outcome, ask_players, run_checklist, validated
from companion.play.setup import TRAVELER_COINS, deal_travelers, line_up
from companion.play.table import Table

GAME = "tokaido"
STAGES = ("the first inn", "the second inn", "the third inn", "Edo")
INN_POWERS = {
    "Chuubei": "Chuubei: an extra encounter at this inn.",
    "Hiroshige": "Hiroshige: a free panorama card at this inn.",
}
MEAL_POWERS = {
    "Kinko": "Kinko pays 1 coin less for a meal.",
    "Satsuki": "Satsuki may take the top meal of the pile for free.",
}
FIELDS = (
    ("journey", "score track on arrival in Edo", 200),
    ("temple", "coins in the temple area", 60),
    ("meal_cost", "total printed price of meal cards", 12),
    ("souvenirs", "souvenir cards", 24),
    ("hot_springs", "hot spring cards", 12),
    ("encounters", "encounter cards", 14),
    ("panorama_achievements", "panorama achievement cards", 3),
)


def flow(t: Table) -> Outcome:
    """The whole journey, from Kyoto to the final count."""
    names = ask_players(t, GAME)
    count = len(names)
    run_checklist(t, GAME, count)
    travelers = choose_travelers(t, names)
    gains: dict[str, dict[str, int]] = {name: {} for name in names}
    t.at("setup", "line-up at Kyoto")
    if t.yes("lineup", "Draw the line-up at Kyoto for you?"):
        seed = t.seed("lineup")
        line = line_up(names, seed)
        t.say(f"Line at Kyoto (seed {seed}), nearest the road first: {', '.join(line)}.")
    else:
        last = t.choose("lineup.last", "Who stands furthest back at Kyoto?", names)
        line = [n for n in names if n != last] + [last]
    t.say(f"{line[-1]} is furthest back and moves first.")
    if count == 2:
        t.say("Two players: place the neutral traveller too.")
    for stage, inn in enumerate(STAGES, 1):
        t.at("turn", f"stage {stage}: to {inn}")
        t.say(f"Stage {stage}: travel to {inn}. The traveller furthest back always moves.")
        t.at("round", f"arriving at {inn}")
        first = t.choose(f"inn{stage}.first", f"Who reached {inn} first?", names)
        t.say(
            f"{first} draws {count + 1} meal cards and may buy one; the others buy in "
            "arrival order."
        )
        for name, traveler in travelers.items():
            if stage < len(STAGES) and traveler in INN_POWERS:
                t.say(f"Reminder for {name}: {INN_POWERS[traveler]}")
            if traveler in MEAL_POWERS:
                t.say(f"Reminder for {name}: {MEAL_POWERS[traveler]}")
        if t.yes(
            f"inn{stage}.notes", "Note what each traveller gained on this stage?", default=False
        ):
            note_gains(t, stage, names, gains)
        if stage < len(STAGES):
            t.say("Unbought meals go under the pile; the last to arrive sets off first.")
    t.at("scoring", "final scoring")
    t.say("Everyone is in Edo: hand out the achievements and the temple points.")
    return Outcome(
        validated(t, GAME, lambda: score_file(t, names, travelers, gains)),
        start_player=names.index(line[-1]),
    )


GAINS = (
    ("meal_cost", "price of the meal bought at the inn (0 for none)", 3),
    ("souvenirs", "souvenir cards gained", 12),
    ("hot_springs", "hot spring cards gained", 12),
    ("encounters", "encounter cards gained", 14),
    ("temple", "coins given to the temple", 30),
)


def note_gains(t: Table, stage: int, names: list[str], gains: dict[str, dict[str, int]]) -> None:
    """What each traveller gained on a stage; the sums pre-fill the final count."""
    for seat, name in enumerate(names):
        for field, words, high in GAINS:
            value = t.number(
                f"inn{stage}.gain.{seat}.{field}", f"{name}: {words}?", high=high, default=0
            )
            gains[name][field] = gains[name].get(field, 0) + value


def choose_travelers(t: Table, names: list[str]) -> dict[str, str]:
    """Deal two traveller tiles to each player (or take what they drew by hand)."""
    t.at("setup", "travellers")
    travelers: dict[str, str] = {}
    if t.yes("deal", "Deal the traveller tiles for you?"):
        seed = t.seed("travelers")
        dealt = deal_travelers(len(names), seed)
        t.say(f"Traveller tiles (seed {seed}):")
        for name, tiles in zip(names, dealt, strict=True):
            shown = " or ".join(f"{tile} ({TRAVELER_COINS[tile]} coins)" for tile in tiles)
            t.say(f"  {name}: {shown}")
        for seat, (name, tiles) in enumerate(zip(names, dealt, strict=True)):
            travelers[name] = t.choose(f"traveler.{seat}", f"{name} keeps?", tiles)
    else:
        for seat, name in enumerate(names):
            travelers[name] = t.choose(
                f"traveler.{seat}", f"{name}'s traveller?", sorted(TRAVELER_COINS)
            )
    for name, traveler in travelers.items():
        t.say(f"{name} is {traveler}: starts with {TRAVELER_COINS[traveler]} coins.")
    return travelers


def score_file(
    t: Table,
    names: list[str],
    travelers: dict[str, str],
    gains: dict[str, dict[str, int]] | None = None,
) -> dict[str, Any]:
    """The final-mode score file, field by field (noted gains are offered)."""
    players = []
    for seat, name in enumerate(names):
        entry: dict[str, Any] = {"name": name, "traveler": travelers[name]}
        noted = (gains or {}).get(name, {})
        for field, words, high in FIELDS:
            entry[field] = t.number(
                f"score.{seat}.{field}", f"{name}: {words}?", high=high, default=noted.get(field)
            )
        players.append(entry)
    return {"game": GAME, "mode": "final", "players": players}


def score_only(t: Table) -> Outcome:
    """Just the final count, for ``companion score tokaido``."""
    names = ask_players(t, GAME)
    travelers = {
        name: t.choose(f"traveler.{seat}", f"{name}'s traveller?", sorted(TRAVELER_COINS))
        for seat, name in enumerate(names)
    }
    t.at("scoring", "scoring")
    return Outcome(validated(t, GAME, lambda: score_file(t, names, travelers)))
