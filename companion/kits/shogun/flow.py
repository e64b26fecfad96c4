"""Playing Shogun along: two years of seasons, bids and action order, winters and scoring.

Each winter runs as the rulebook's steps do: everyone lowers their rice marker
by the loss on the fourth event card, then each player gives their provinces
and buildings by region (one answer, e.g. ``b3102 y21 g1``) and the rice left
on the track; the companion works out the shortfall, the revolts and who draws
them; the revolts are resolved; then the winter is scored on the score pad.

The second winter starts from the first: each player's regions as the first
winter left them are shown, and only the regions that changed are typed
(``y31`` for yellow, ``r0`` for a region lost; Enter when nothing changed).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from companion.kits import KITS, PadOptions
from companion.kits.shogun import GAME
from companion.kits.shogun.codes import (
    BID_RANKS,
    BIDS,
    COUNTS,
    SEASONS,
    order_bids,
    region_problem,
    region_value,
    short,
    shuffled,
)
from companion.play.common import Outcome, ask_players, choose_player, row_message, run_checklist
from companion.play.score_pad import Pad, review
from companion.play.table import Table
from companion.wording import plural
from scorers.shogun import REGIONS, YEARS

ROUND_STEPS = (
    "Shuffle the 10 action cards: 5 face up in spaces 1-5, 5 face down in 6-10.",
    "Lay out the 5 special cards.",
    "Everyone plans actions and bids in secret.",
    "Reveal this round's event (event first, then special cards).",
    "Reveal bids, pay, and take special cards from the highest bid down.",
    "Carry out actions 1 to 10.",
)
# Rice shortfall -> (revolts, extra farmers each); 7 or more uses the last row.
SUPPLY = ((0, 0), (1, 1), (1, 2), (2, 2), (2, 2), (2, 3), (2, 3), (3, 3))
GRID_HELP = (
    "by region: its letter (b y r p g), then provinces castles temples theatres, "
    "e.g. b3102 y21 g1; - for none"
)
Grid = dict[str, list[int]]
FINAL_WINTER = "2: the second winter, the final scoring"
FIRST_WINTER = "1: the first winter, an interim scoring"


def flow(t: Table) -> Outcome:
    """Two years; the second winter's scoring is the result."""
    names = ask_players(t, GAME)
    steps = run_checklist(t, GAME, len(names))
    t.at("setup", "claiming provinces", "claiming-provinces")
    oldest = choose_player(t, "oldest", "Who is the oldest player?", names)
    steps.done(t, "oldest")
    t.say(f"{names[oldest]} claims a starting province first, then the others in turn.")
    before = [0] * len(names)
    file: dict[str, Any] = {}
    known: list[Grid] | None = None
    for year in YEARS:
        for season in SEASONS:
            play_round(t, year, season, names)
        fed: list[Fed] = []
        grids = winter(t, year, names, known, fed)
        file = winter_pad(t, year, names, before, grids, chests=None, final=year == YEARS[-1])
        file = recheck_winter(t, year, names, before, fed, file)
        known = [file_grid(player) for player in file["players"]]
        from scorers import SCORERS

        result = SCORERS[GAME].score_json(file).to_json()
        before = [p["total"] for p in result["players"]]
        if year == YEARS[0]:
            t.say(
                "After the first winter: "
                + ", ".join(f"{p['name']} {p['total']}" for p in result["players"])
                + "."
            )
            t.say("New year: 4 new event cards, rice markers to 0, revolt markers off.")
    return Outcome(file, start_player=oldest)


def play_round(t: Table, year: int, season: str, names: list[str]) -> None:
    """One of the first three rounds of a year: its steps, then bids to the action order."""
    key = f"y{year}.{season.lower()}"
    t.round(f"year {year} {season.lower()}")
    t.at("round", f"year {year}, {season.lower()}", "turn-order")
    t.say(f"Year {year}, {season.capitalize()}:")
    for k, step in enumerate(ROUND_STEPS, 1):
        t.say(f"  {k}. {step}")
    bids = [
        t.choose(f"{key}.bid.{seat}", f"{name}'s bid?", BIDS) for seat, name in enumerate(names)
    ]
    order = bid_order(t, key, names, bids)
    shown = [f"{name} ({short(bids[names.index(name)])})" for name in order]
    t.say(
        "Action order (province-card bids, then chests from the highest, then no bid): "
        + ", ".join(shown)
        + "."
    )
    t.say("Special cards are taken from the highest bid down, equal bids in the drawn order.")
    t.at("turn", f"year {year}, {season.lower()} actions", "actions")
    t.choose(f"{key}.done", "Carry out the 10 actions.", ["Round done"])


def bid_order(t: Table, key: str, names: list[str], bids: list[str]) -> list[str]:
    """Province-card bids first, then chest bids from the highest, then no bid.

    Equal bids are put in order by a draw (its seed is kept with the game).
    """

    def draw(tied: list[str], rank: int) -> list[str]:
        seed = t.seed(f"{key}.tie.{rank}")
        drawn = shuffled(tied, seed, "bids")
        t.say(
            f"Equal bids ({short(BID_RANKS[rank])}) from {', '.join(sorted(tied))}: drawn with "
            f"seed {seed}: {', '.join(drawn)}."
        )
        return drawn

    return order_bids(names, bids, draw)


def supply(shortfall: int) -> tuple[int, int]:
    """Revolts and extra farmers for a rice shortfall."""
    return SUPPLY[min(shortfall, len(SUPPLY) - 1)]


def parse_grid(text: str) -> tuple[Grid | None, str | None]:
    """``b3102 y21 g1`` → ``{"brown": [3, 1, 0, 2], "yellow": [2, 1, 0, 0], ...}``.

    Returns:
        The grid, or ``None`` and what is wrong.
    """
    grid: Grid = {}
    region: str | None = None
    for token in re.findall(r"[^\W\d_]+|\d+|\S", text.lower()):
        if token.isalpha():
            match = [r for r in REGIONS if r == token or r[0] == token]
            if len(match) != 1:
                return None, f"{token!r} is not a region: b y r p g (brown yellow red purple green)"
            region = match[0]
            if region in grid:
                return None, f"{region} is given twice"
            grid[region] = []
        elif token.isdigit():
            if region is None:
                return None, "start with a region letter, e.g. b3102"
            counts = grid[region]
            digits = [int(c) for c in token] if len(token) > 1 else [int(token)]
            counts.extend(digits)
            if len(counts) > len(COUNTS):
                return None, f"{region}: at most 4 numbers (provinces castles temples theatres)"
        elif token not in ",;/-":
            return None, f"unexpected {token!r}: {GRID_HELP}"
    for region, counts in grid.items():
        problem = region_problem(region, counts)
        if problem:
            return None, problem
        counts.extend([0] * (len(COUNTS) - len(counts)))
    return grid, None


def grid_text(grid: Grid) -> str:
    """A grid back as an answer: ``b3102 y2100``."""
    return " ".join(f"{r[0]}{''.join(str(n) for n in grid[r])}" for r in REGIONS if r in grid)


def preview_grid(text: str) -> str:
    """What a grid answer means, shown below the prompt as it is typed."""
    grid, problem = parse_grid(text)
    if grid is None:
        return f"  {problem}"
    if not grid:
        return "  no provinces"
    words = [("province", "provinces"), ("castle", "castles"), ("temple", "temples")]
    words.append(("theatre", "theatres"))
    parts = [
        f"{r}: " + ", ".join(f"{n} {w[n != 1]}" for n, w in zip(grid[r], words, strict=True) if n)
        for r in REGIONS
        if r in grid
    ]
    total = sum(c[0] for c in grid.values())
    return "  " + " | ".join(parts) + f"  ({total} provinces)"


def ask_grid(t: Table, key: str, message: str, default: Grid | None = None) -> Grid:
    """A player's provinces and buildings by region, in one answer."""

    def check(text: str) -> str | None:
        return parse_grid(text)[1]

    text = t.text(
        key,
        f"{message} ({GRID_HELP})",
        check=check,
        default=grid_text(default) if default else "",
        preview=preview_grid,
    )
    grid, _ = parse_grid(text)
    assert grid is not None
    return grid


def file_grid(player: dict[str, Any]) -> Grid:
    """A player's regions in a winter's score file, as a grid."""
    return {
        region: [counts[c] for c in COUNTS]
        for region, counts in player["regions"].items()
        if region in REGIONS
    }


def merge_grid(known: Grid, changes: Grid) -> Grid:
    """``known`` with the regions typed in ``changes`` put in (a region of 0 is dropped)."""
    merged = {r: list(c) for r, c in known.items()}
    for region, counts in changes.items():
        if any(counts):
            merged[region] = list(counts)
        else:
            merged.pop(region, None)
    return {r: merged[r] for r in REGIONS if r in merged}


def ask_changes(t: Table, key: str, name: str, known: Grid) -> Grid:
    """A player's regions from the last winter's, with only the regions that changed typed."""
    shown = grid_text(known) or "none"

    def check(text: str) -> str | None:
        return parse_grid(text)[1]

    def preview(text: str) -> str:
        changes, problem = parse_grid(text)
        if changes is None:
            return f"  {problem}"
        return preview_grid(grid_text(merge_grid(known, changes)) or "-")

    text = t.text(
        key,
        f"{name}: provinces and buildings; first winter {shown}. Type only the regions "
        "that changed (e.g. y31; r0 for a region lost), Enter if none",
        check=check,
        preview=preview,
    )
    changes, _ = parse_grid(text)
    assert changes is not None
    return merge_grid(known, changes)


@dataclass(frozen=True)
class Fed:
    """What the table worked out for one player in a winter's supply.

    Attributes:
        rice: Rice on the supply track (after the loss).
        held: Provinces held before the revolts.
        lost: Provinces lost in the revolts.
        revolts: Revolts resolved.
    """

    rice: int
    held: int
    lost: int
    revolts: int


def winter(
    t: Table,
    year: int,
    names: list[str],
    known: list[Grid] | None = None,
    fed: list[Fed] | None = None,
) -> list[Grid]:
    """Winter supply and revolts; returns each player's regions after the revolts.

    Args:
        known: The regions of the last winter, when there was one: only the
            changes are typed (a session saved before this asks them whole).
        fed: Gets what was worked out for each player (to check it again once
            the pad's values are fixed: :func:`recheck_winter`).
    """
    key = f"y{year}.winter"
    t.round(f"year {year} winter")
    t.at("round", f"year {year}, winter", "winter")
    t.say(f"Year {year}, Winter")
    t.say("1. Everyone lowers their rice marker by the rice loss on the fourth event card.")
    grids: list[Grid] = []
    rices: list[int] = []
    revolting: list[int] = []
    for seat, name in enumerate(names):
        t.at("round", f"year {year}, winter", "scoring-winter")
        changed = f"{key}.changes.{seat}"
        if known is not None and t.next_saved() in (None, changed):
            grid = ask_changes(t, changed, name, known[seat])
        else:
            grid = ask_grid(t, f"{key}.regions.{seat}", f"{name}: provinces and buildings")
        held = sum(c[0] for c in grid.values())
        t.at("round", f"year {year}, winter", "winter")
        rice = t.number(
            f"{key}.rice.{seat}",
            f"{name}: rice on the supply track, after lowering it by the loss?",
            high=99,
        )
        grids.append(grid)
        rices.append(rice)
        shortfall = max(0, held - rice)
        if shortfall:
            revolts, farmers = supply(shortfall)
            left = names[(seat + 1) % len(names)]
            t.say(
                f"{name} holds {held} provinces with {rice} rice: {shortfall} short, so "
                f"{plural(revolts, 'revolt')}, {plural(farmers, 'extra farmer')} each. {left}, "
                f"on {name}'s "
                f"left, draws {revolts} of {name}'s province cards at random."
            )
            revolting.append(seat)
        else:
            t.say(f"{name} holds {held} provinces with {rice} rice: every province is fed.")
    first = list(grids)
    if revolting:
        t.at("round", f"year {year}, revolts", "battles")
        t.say("2. Resolve the revolts now, each as a battle in the tower.")
        t.choose(f"{key}.revolts", "Resolve the revolts now.", ["Revolts resolved"])
        for seat in revolting:
            grids[seat] = ask_grid(
                t,
                f"{key}.after.{seat}",
                f"{names[seat]}: provinces and buildings after the revolts (Enter if none lost)",
                default=grids[seat],
            )
    else:
        t.say("2. No revolts this winter.")
    if fed is not None:
        for seat, (grid, after) in enumerate(zip(first, grids, strict=True)):
            held = sum(c[0] for c in grid.values())
            shortfall = max(0, held - rices[seat])
            revolts = supply(shortfall)[0] if shortfall else 0
            lost = held - sum(c[0] for c in after.values())
            fed.append(Fed(rices[seat], held, lost, revolts))
    t.say("3. Scoring.")
    return grids


def _provinces(entry: dict[str, Any]) -> int:
    """The provinces a winter score file's player holds."""
    return sum(int(r.get("provinces", 0)) for r in entry.get("regions", {}).values())


def recheck_winter(
    t: Table,
    year: int,
    names: list[str],
    before: list[int],
    fed: list[Fed],
    file: dict[str, Any],
) -> dict[str, Any]:
    """Work the supply out again from the pad's provinces (once values were fixed there).

    When the revolts differ from those the table resolved, say so plainly and
    what to do: resolve the others on the board and correct the pad, or keep it.
    """
    for step in range(1, 10):
        differ = []
        for seat, (entry, was) in enumerate(zip(file["players"], fed, strict=True)):
            held = _provinces(entry) + was.lost
            shortfall = max(0, held - was.rice)
            revolts = supply(shortfall)[0] if shortfall else 0
            if revolts != was.revolts:
                differ.append(
                    f"{names[seat]}: with the pad's values {names[seat]} held {held} "
                    f"provinces with {was.rice} rice, so {plural(revolts, 'revolt')} "
                    f"this winter, not the {was.revolts} resolved at the table."
                )
        if not differ:
            return file
        t.say("\n".join(["The corrected pad changes this winter's revolts:", *differ]))
        again = "Resolve them on the board, then correct the pad"
        choice = t.choose(
            f"y{year}.winter.recheck{step}",
            "Resolve the difference on the board and correct the pad, or keep the pad?",
            [again, "Keep the pad as it is (the table has it right)"],
            topic="winter",
        )
        if choice != again:
            return file
        grids = [_grid_of(entry) for entry in file["players"]]
        last = year == YEARS[-1]
        chests = [int(p.get("war_chests", 0)) for p in file["players"]] if last else None
        file = winter_pad(t, year, names, before, grids, chests=chests, final=year == YEARS[-1])
    return file


def _grid_of(entry: dict[str, Any]) -> Grid:
    """A winter score file's player back as a grid of region counts."""
    return {
        region: [int(counts.get(c, 0)) for c in COUNTS]
        for region, counts in entry.get("regions", {}).items()
    }


def winter_spec(names: list[str], year: int) -> Any:
    """The kit's score pad for this winter (the year known, so its rows are the year's)."""
    return KITS[GAME].pad(PadOptions(len(names), tuple(names), context={"year": year}))


def high_of(spec: Any, row_id: str) -> int:
    """The most a number row of the pad takes (the scorer's bound)."""
    high = next(row.high for row in spec.rows if row.id == row_id)
    assert isinstance(high, int)
    return high


def winter_pad(
    t: Table,
    year: int,
    names: list[str],
    before: list[int],
    grids: list[Grid],
    *,
    chests: list[int] | None,
    final: bool,
) -> dict[str, Any]:
    """The winter's score pad: chests asked in the last year, then checked and saved (or kept)."""
    t.at("scoring", f"year {year}, winter scoring", "scoring-winter")
    spec = winter_spec(names, year)
    pad = Pad(GAME, names, spec)
    pad.put("year", None, year)
    last = year == YEARS[-1]
    for seat in range(len(names)):
        for region in REGIONS:
            pad.put(region, seat, region_value(grids[seat].get(region, [])))
        if last:
            pad.put("before", seat, before[seat])
    if last:
        if chests is None:
            chests = t.numbers(
                f"y{year}.winter.chests",
                row_message("War chests (the tie-break)", names),
                len(names),
                high=high_of(spec, "chests"),
                topic="tie-breaks",
            )
        for seat, value in enumerate(chests):
            pad.put("chests", seat, value)
    topic = "scoring-final-winter" if last else "scoring-winter"
    t.at("scoring", f"year {year}, winter scoring", topic)
    return review(
        t,
        pad,
        title=f"Shogun: year {year}, winter scoring (provinces castles temples theatres)",
        done="save the game" if final else f"go on to year {year + 1}",
    )


def score_only(t: Table) -> Outcome:
    """One winter's scoring, for ``companion score shogun``; year 1 is an interim scoring."""
    names = ask_players(t, GAME)
    t.at("scoring", "which winter", "game-end")
    which = t.choose("year", "Which winter?", [FINAL_WINTER, FIRST_WINTER])
    year = YEARS[0] if which == FIRST_WINTER else YEARS[-1]
    before = [0] * len(names)
    chests = None
    t.at("scoring", "scoring", "scoring-previous")
    if year == YEARS[-1]:
        spec = winter_spec(names, year)
        before = t.numbers(
            "before",
            row_message("Scores before this winter", names),
            len(names),
            high=high_of(spec, "before"),
        )
        chests = t.numbers(
            "chests",
            row_message("War chests (the tie-break)", names),
            len(names),
            high=high_of(spec, "chests"),
            topic="tie-breaks",
        )
    t.at("scoring", "scoring", "scoring-winter")
    grids = [
        ask_grid(t, f"regions.{seat}", f"{name}: provinces and buildings")
        for seat, name in enumerate(names)
    ]
    file = winter_pad(t, year, names, before, grids, chests=chests, final=True)
    if year == YEARS[0]:
        t.say("Year 1 is an interim scoring: it is saved as such, out of wins and stats.")
    return Outcome(file, status="interim" if year == YEARS[0] else "final")
