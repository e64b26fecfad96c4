"""Playing Shogun along: two years of seasons, bids and turn order, winters and scoring."""

from __future__ import annotations

from functools import partial
from typing import Any

from companion.play.common import Outcome, ask_players, choose_player, run_checklist, validated
from companion.play.setup import shuffled
from companion.play.table import Table

GAME = "shogun"
SEASONS = ("Spring", "Summer", "Autumn")
REGIONS = ("brown", "yellow", "red", "purple", "green")
BIDS = ("4", "3", "2", "1", "0", "Province card")
ROUND_STEPS = (
    "Shuffle the 10 action cards: 5 face up in spaces 1-5, 5 face down in 6-10.",
    "Lay out the 5 special cards.",
    "Everyone plans actions and bids in secret.",
    "Reveal this round's event (event first, then special cards).",
    "Reveal bids, pay, and choose special cards in bid order.",
    "Carry out actions 1 to 10.",
)
# Rice shortfall -> (revolts, extra farmers each); 7 or more uses the last row.
SUPPLY = ((0, 0), (1, 1), (1, 2), (2, 2), (2, 2), (2, 3), (2, 3), (3, 3))


def flow(t: Table) -> Outcome:
    """Two years; the second winter's scoring is the result."""
    names = ask_players(t, GAME)
    run_checklist(t, GAME, len(names))
    t.at("setup", "claiming provinces")
    oldest = choose_player(t, "oldest", "Who is the oldest player?", names)
    t.say(f"{names[oldest]} claims a starting province first, then the others in turn.")
    before = [0] * len(names)
    file: dict[str, Any] = {}
    for year in (1, 2):
        for season in SEASONS:
            play_round(t, year, season, names)
        rice(t, year, names)
        file = validated(t, GAME, partial(winter_scores, t, year, names, before))
        from scorers import SCORERS

        result = SCORERS[GAME].score_json(file).to_json()
        before = [p["total"] for p in result["players"]]
        if year == 1:
            t.say(
                "After the first winter: "
                + ", ".join(f"{p['name']} {p['total']}" for p in result["players"])
                + "."
            )
            t.say("New year: 4 new event cards, rice markers to 0, revolt markers off.")
    return Outcome(file, start_player=oldest)


def play_round(t: Table, year: int, season: str, names: list[str]) -> None:
    """One of the first three rounds of a year: its steps, then bids to turn order."""
    key = f"y{year}.{season.lower()}"
    t.at("round", f"year {year}, {season.lower()}")
    t.say(f"Year {year}, {season}:")
    for k, step in enumerate(ROUND_STEPS, 1):
        t.say(f"  {k}. {step}")
    bids = [
        t.choose(f"{key}.bid.{seat}", f"{name}'s bid?", BIDS) for seat, name in enumerate(names)
    ]
    order = bid_order(t, key, names, bids)
    t.say("Special cards are chosen in this order: " + ", ".join(order) + ".")
    t.at("turn", f"year {year}, {season.lower()} actions")
    t.choose(f"{key}.done", "Carry out the 10 actions.", ["Round done"])


def bid_order(t: Table, key: str, names: list[str], bids: list[str]) -> list[str]:
    """Highest bid first; equal bids are drawn at random (a province card counts 0)."""
    value = {
        name: 0 if bid == "Province card" else int(bid)
        for name, bid in zip(names, bids, strict=True)
    }
    order: list[str] = []
    for amount in sorted(set(value.values()), reverse=True):
        tied = [n for n in names if value[n] == amount]
        if len(tied) > 1:
            seed = t.seed(f"{key}.tie.{amount}")
            tied = shuffled(tied, seed, "bids")
            t.say(
                f"Tie at {amount} between {', '.join(sorted(tied))}: drawn with seed {seed}: "
                f"{', '.join(tied)}."
            )
        order.extend(tied)
    return order


def supply(shortfall: int) -> tuple[int, int]:
    """Revolts and extra farmers for a rice shortfall."""
    return SUPPLY[min(shortfall, len(SUPPLY) - 1)]


def rice(t: Table, year: int, names: list[str]) -> None:
    """Winter supply: rice loss, shortfalls, revolts and extra farmers."""
    key = f"y{year}.winter"
    t.at("round", f"year {year}, winter")
    loss = t.number(f"{key}.loss", "Rice loss on the fourth event card?", high=20)
    for seat, name in enumerate(names):
        rice = t.number(f"{key}.rice.{seat}", f"{name}: rice on the supply track?", high=99)
        held = t.number(f"{key}.provinces.{seat}", f"{name}: provinces held?", high=45)
        shortfall = max(0, held - max(0, rice - loss))
        revolts, farmers = supply(shortfall)
        if shortfall:
            t.say(
                f"{name} is {shortfall} rice short: {revolts} revolt(s), {farmers} extra "
                "farmer(s) each. The player on the left draws the provinces."
            )
        else:
            t.say(f"{name} feeds every province.")


def winter_scores(t: Table, year: int, names: list[str], before: list[int]) -> dict[str, Any]:
    """The winter's score file, player by player and region by region."""
    key = f"y{year}.winter"
    t.at("scoring", f"year {year}, winter scoring")
    players = []
    for seat, name in enumerate(names):
        entry: dict[str, Any] = {
            "name": name,
            "score_before": before[seat],
            "war_chests": t.number(f"{key}.chests.{seat}", f"{name}: war chests?", high=200),
            "regions": {},
        }
        for region in REGIONS:
            text = t.text(
                f"{key}.{seat}.{region}",
                f"{name}, {region}: provinces castles temples theatres (e.g. 3 1 0 2; "
                "Enter for none)?",
                check=check_region,
            )
            if text:
                counts = [int(n) for n in text.split()] + [0] * 3
                entry["regions"][region] = dict(
                    zip(("provinces", "castles", "temples", "theaters"), counts[:4], strict=True)
                )
        players.append(entry)
    return {"game": GAME, "year": year, "players": players}


def check_region(text: str) -> str | None:
    """Up to four whole numbers; no more buildings of a kind than provinces."""
    parts = text.split()
    if len(parts) > 4 or not all(p.isdigit() for p in parts):
        return "up to four whole numbers: provinces castles temples theatres"
    numbers = [int(p) for p in parts]
    if numbers and numbers[0] > 9:
        return "a region has 9 provinces"
    if any(n > numbers[0] for n in numbers[1:]):
        return "at most one building of a kind per province"
    return None


def score_only(t: Table) -> Outcome:
    """One winter's scoring, for ``companion score shogun``."""
    names = ask_players(t, GAME)
    year = int(t.choose("year", "Which winter?", ["2", "1"]))
    before = [
        t.number(f"before.{seat}", f"{name}: score before this winter?", high=999)
        if year == 2
        else 0
        for seat, name in enumerate(names)
    ]
    return Outcome(validated(t, GAME, partial(winter_scores, t, year, names, before)))
