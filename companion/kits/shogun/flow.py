"""Playing Shogun along: two years of seasons, bids and action order, winters and scoring.

Each winter runs as the rulebook's steps do: everyone lowers their rice marker
by the loss on the fourth event card; each player's holding is given (the
first winter: the whole holding by region, e.g. ``b3102 y21 g1``; the second:
only what changed since the first, e.g. ``by-``); one question takes the rice
of those short of it; the companion works out the shortfall, the revolts and
who draws them; each revolt is resolved and typed as what it took (``r``, ``bc``),
a revolt taking one province at most; then the winter is scored on the score
pad. War chests are asked in the final winter only when totals are equal.
Every question says whether it takes changes or a whole holding; the codes
are in :mod:`companion.kits.shogun.winter`.

Sessions saved before these questions (whole regions after the revolts, rice
player by player, war chests always) replay with the questions they answered.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from companion.kits import KITS, PadOptions
from companion.kits.shogun import GAME
from companion.kits.shogun import winter as codes
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
from companion.play.table import Refusal, Table
from companion.wording import hanging, plural
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


def parse_grid(text: str, who: str = "") -> tuple[Grid | None, str | None]:
    """``b3102 y21 g1`` → ``{"brown": [3, 1, 0, 2], "yellow": [2, 1, 0, 0], ...}``.

    Returns:
        The grid, or ``None`` and what is wrong: a :class:`Refusal` whose span
        is the region's entry at fault (``y2500``), naming ``who`` when given.
    """
    grid: Grid = {}
    spans: dict[str, tuple[int, int]] = {}
    region: str | None = None

    def refused(problem: str, span: tuple[int, int]) -> tuple[None, str]:
        return None, Refusal(f"{who} · {problem}" if who else problem, span)

    for found in re.finditer(r"[^\W\d_]+|\d+|\S", text.lower()):
        token, span = found.group(0), found.span()
        if token.isalpha():
            match = [r for r in REGIONS if r == token or r[0] == token]
            if len(match) != 1:
                return refused(
                    f"{token!r} is not a region: b y r p g (brown yellow red purple green)", span
                )
            region = match[0]
            if region in grid:
                return refused(f"{region} is given twice", span)
            grid[region] = []
            spans[region] = span
        elif token.isdigit():
            if region is None:
                return refused("start with a region letter, e.g. b3102", span)
            spans[region] = (spans[region][0], span[1])
            counts = grid[region]
            digits = [int(c) for c in token] if len(token) > 1 else [int(token)]
            counts.extend(digits)
            if len(counts) > len(COUNTS):
                return refused(
                    f"{region}: at most 4 numbers (provinces castles temples theatres)",
                    spans[region],
                )
        elif token not in ",;/-":
            return refused(f"unexpected {token!r}: {GRID_HELP}", span)
    for region, counts in grid.items():
        problem = region_problem(region, counts)
        if problem:
            return refused(problem, spans[region])
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


def ask_grid(t: Table, key: str, message: str, default: Grid | None = None, who: str = "") -> Grid:
    """A player's provinces and buildings by region, in one answer (``who``'s, named when wrong)."""

    def check(text: str) -> str | None:
        return parse_grid(text, who)[1]

    text = t.text(
        key,
        f"{message} ({GRID_HELP})",
        check=check,
        default=grid_text(default) if default else "",
        preview=lambda text: below(preview_grid(text).strip()),
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
        rice: Rice on the supply track (after the loss); ``None`` when not typed
            (the player was said to have rice for every province).
        held: Provinces held before the revolts (as typed at the table).
        lost: Provinces lost in the revolts.
        revolts: Revolts resolved.
    """

    rice: int | None
    held: int
    lost: int
    revolts: int


def provinces(grid: Grid) -> int:
    """The provinces a holding has."""
    return sum(c[0] for c in grid.values())


def below(*lines: str) -> str:
    """What is shown below a prompt: each line wrapped at whole words to the terminal."""
    return "\n".join(hanging("  ", line) for line in lines)


def ask_holding_changes(t: Table, key: str, name: str, known: Grid) -> Grid:
    """A player's holding from the last winter's: only what changed is typed."""

    def check(text: str) -> str | None:
        return codes.apply_changes(known, text, name)[1]

    def preview(text: str) -> str:
        if not text.strip():
            return below(codes.CHANGES_HELP, "Enter: nothing changed")
        after, problem = codes.apply_changes(known, text, name)
        if after is None:
            return below(str(problem))
        said = codes.changes_said(known, after)
        return below(f"{said} | now {codes.grid_text(after)} ({provinces(after)} provinces)")

    text = t.text(
        key,
        f"{name}: what changed since the first winter (was {codes.grid_text(known)})? "
        "Changes only, e.g. b+ y- (a brown province more, a yellow one fewer); Enter if none",
        check=check,
        preview=preview,
    )
    after, _ = codes.apply_changes(known, text, name)
    assert after is not None
    return after


def ask_rice(t: Table, key: str, names: list[str], held: list[int]) -> dict[int, int]:
    """One question: the rice of those short of it (or everyone's); seat → rice typed."""
    shown = ", ".join(f"{n} {h}" for n, h in zip(names, held, strict=True))

    def check(text: str) -> str | None:
        return codes.read_rice(text, names)[1]

    def preview(text: str) -> str:
        if not text.strip():
            return below(codes.RICE_HELP, "Enter: every player has rice for each province")
        rice, problem = codes.read_rice(text, names)
        if rice is None:
            return below(str(problem))
        said = []
        for seat, left in sorted(rice.items()):
            short = held[seat] - left
            said.append(f"{names[seat]} {left} rice, " + (f"{short} short" if short > 0 else "fed"))
        return below("; ".join(said))

    text = t.text(
        key,
        f"Rice after the loss: who is short, and how much rice is left (e.g. c4)? Enter if "
        f"everyone has a rice per province. Provinces: {shown}",
        check=check,
        preview=preview,
    )
    rice, _ = codes.read_rice(text, names)
    assert rice is not None
    return rice


def ask_taken(t: Table, key: str, name: str, held: Grid, revolts: int) -> tuple[Grid, int]:
    """What a player's revolts took, typed as the provinces lost; the holding after them."""

    def check(text: str) -> str | None:
        return codes.apply_taken(held, text, revolts, name)[2]

    def preview(text: str) -> str:
        if not text.strip():
            return below(codes.TAKEN_HELP, "Enter: no province lost, the revolts were put down")
        after, lost, problem = codes.apply_taken(held, text, revolts, name)
        if after is None:
            return below(str(problem))
        said = codes.changes_said(held, after)
        return below(f"{plural(lost, 'province')} lost: {said} | now {codes.grid_text(after)}")

    text = t.text(
        key,
        f"{name}: what did the {plural(revolts, 'revolt')} take? Only the provinces lost, "
        "e.g. r, or bc with its castle; Enter if put down",
        check=check,
        preview=preview,
        topic="battles",
    )
    after, lost, _ = codes.apply_taken(held, text, revolts, name)
    assert after is not None
    return after, lost


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
            changes are typed.
        fed: Gets what was worked out for each player (to check it again once
            the pad's values are fixed: :func:`recheck_winter`).
    """
    key = f"y{year}.winter"
    t.round(f"year {year} winter")
    t.at("round", f"year {year}, winter", "winter")
    t.say(f"Year {year}, Winter")
    t.say("1. Everyone lowers their rice marker by the rice loss on the fourth event card.")
    if t.next_saved() in (f"{key}.regions.0", f"{key}.changes.0"):
        return saved_winter(t, year, names, known, fed)
    grids: list[Grid] = []
    t.at("round", f"year {year}, winter", "scoring-winter")
    for seat, name in enumerate(names):
        if known is None:
            message = f"{name}: the whole holding now, every region"
            grids.append(ask_grid(t, f"{key}.held.{seat}", message, who=name))
        else:
            grids.append(ask_holding_changes(t, f"{key}.changed.{seat}", name, known[seat]))
    held = [provinces(grid) for grid in grids]
    t.at("round", f"year {year}, winter", "winter")
    rice = ask_rice(t, f"{key}.rice", names, held)
    revolting: list[tuple[int, int]] = []
    for seat, name in enumerate(names):
        shortfall = max(0, held[seat] - rice.get(seat, held[seat]))
        if shortfall:
            revolts, farmers = supply(shortfall)
            left = names[(seat + 1) % len(names)]
            t.say(
                f"{name} holds {held[seat]} provinces with {rice[seat]} rice: {shortfall} "
                f"short, so {plural(revolts, 'revolt')}, {plural(farmers, 'extra farmer')} "
                f"each. {left}, on {name}'s left, draws {revolts} of {name}'s province cards "
                "at random."
            )
            revolting.append((seat, revolts))
    after = list(grids)
    lost = [0] * len(names)
    if revolting:
        t.at("round", f"year {year}, revolts", "battles")
        t.say(
            "2. Resolve the revolts now, each as a battle in the tower; "
            "a revolt takes at most its one province."
        )
        for seat, revolts in revolting:
            after[seat], lost[seat] = ask_taken(
                t, f"{key}.taken.{seat}", names[seat], grids[seat], revolts
            )
    else:
        t.say("2. No revolts this winter: every province is fed.")
    if fed is not None:
        counted = dict(revolting)
        for seat in range(len(names)):
            fed.append(Fed(rice.get(seat), held[seat], lost[seat], counted.get(seat, 0)))
    t.say("3. Scoring.")
    return after


def saved_winter(
    t: Table, year: int, names: list[str], known: list[Grid] | None, fed: list[Fed] | None
) -> list[Grid]:
    """A winter saved before its questions took changes: replayed with the questions it had."""
    key = f"y{year}.winter"
    grids: list[Grid] = []
    rices: list[int] = []
    revolting: list[int] = []
    for seat, name in enumerate(names):
        t.at("round", f"year {year}, winter", "scoring-winter")
        changed = f"{key}.changes.{seat}"
        if known is not None and t.next_saved() in (None, changed):
            grid = ask_changes(t, changed, name, known[seat])
        else:
            grid = ask_grid(
                t, f"{key}.regions.{seat}", f"{name}: provinces and buildings", who=name
            )
        held = sum(c[0] for c in grid.values())
        t.at("round", f"year {year}, winter", "winter")
        rice = t.number(
            f"{key}.rice.{seat}",
            f"{name}: rice on the supply track, after lowering it by the loss?",
            high=99,
        )
        grids.append(grid)
        rices.append(rice)
        if max(0, held - rice):
            revolting.append(seat)
    first = list(grids)
    if revolting:
        t.at("round", f"year {year}, revolts", "battles")
        t.choose(f"{key}.revolts", "Resolve the revolts now.", ["Revolts resolved"])
        for seat in revolting:
            grids[seat] = ask_grid(
                t,
                f"{key}.after.{seat}",
                f"{names[seat]}: the whole holding after the revolts (Enter if none lost)",
                default=grids[seat],
                who=names[seat],
            )
    if fed is not None:
        for seat, (grid, after) in enumerate(zip(first, grids, strict=True)):
            held = sum(c[0] for c in grid.values())
            shortfall = max(0, held - rices[seat])
            revolts = supply(shortfall)[0] if shortfall else 0
            lost = held - sum(c[0] for c in after.values())
            fed.append(Fed(rices[seat], held, lost, revolts))
    return grids


def _provinces(entry: dict[str, Any]) -> int:
    """The provinces a winter score file's player holds."""
    return sum(int(r.get("provinces", 0)) for r in entry.get("regions", {}).values())


FIX_PAD = "Correct the pad"
KEEP_PAD = "Keep the pad as it is (the table has it right)"
FORMERLY = {"Resolve them on the board, then correct the pad": FIX_PAD}
"""The words an earlier version offered (a saved game replays)."""


def supply_problems(names: list[str], fed: list[Fed], file: dict[str, Any]) -> list[str]:
    """Where the pad's provinces cannot follow from this winter's supply, said as it is known.

    Only what the table typed is stated: the provinces before the revolts, the
    rice, the revolts resolved (each takes one province at most).
    """
    found = []
    for seat, (entry, was) in enumerate(zip(file["players"], fed, strict=True)):
        name, now = names[seat], _provinces(entry)
        least = was.held - was.revolts
        if now > was.held:
            rice = f" with {was.rice} rice" if was.rice is not None else ""
            found.append(
                f"{name}: the pad has {now} provinces, more than the {was.held} typed before "
                f"the revolts; this winter's supply was worked out from those {was.held}{rice}."
            )
        elif now < least:
            took = f"{name} had no revolt"
            if was.revolts == 1:
                took = "the 1 revolt takes one province at most"
            elif was.revolts:
                took = f"{was.revolts} revolts take one province each at most"
            found.append(
                f"{name}: the pad has {now} provinces, but {was.held} were typed for {name} "
                f"before the revolts, and {took}: {least} at least."
            )
    return found


def recheck_winter(
    t: Table,
    year: int,
    names: list[str],
    before: list[int],
    fed: list[Fed],
    file: dict[str, Any],
) -> dict[str, Any]:
    """Check the pad's provinces against this winter's supply (once values were fixed there).

    A pad that lost more provinces than the revolts could take, or holds more
    than was typed before them, is said plainly (only what the table typed),
    and the players correct the pad or keep it.
    """
    for step in range(1, 10):
        found = supply_problems(names, fed, file)
        if not found:
            return file
        t.say("\n".join(["The pad does not fit this winter's supply:", *found]))
        choice = t.choose(
            f"y{year}.winter.recheck{step}",
            "Correct the pad, or keep it as it is?",
            [FIX_PAD, KEEP_PAD],
            topic="winter",
            formerly=FORMERLY,
        )
        if choice != FIX_PAD:
            return file
        grids = [_grid_of(entry) for entry in file["players"]]
        last = year == YEARS[-1]
        players = file["players"]
        chests = (
            [int(p["war_chests"]) for p in players]
            if last and all("war_chests" in p for p in players)
            else None
        )
        file = winter_pad(t, year, names, before, grids, chests=chests, final=last)
    return file


def _grid_of(entry: dict[str, Any]) -> Grid:
    """A winter score file's player back as a grid of region counts."""
    return {
        region: [int(counts.get(c, 0)) for c in COUNTS]
        for region, counts in entry.get("regions", {}).items()
    }


def winter_spec(names: list[str], year: int, *, chests: bool = True) -> Any:
    """The kit's score pad for this winter (the year known, so its rows are the year's).

    ``chests``: whether the final winter's pad has the war chests row.
    """
    context = {"year": year, "chests": chests}
    return KITS[GAME].pad(PadOptions(len(names), tuple(names), context=context))


def high_of(spec: Any, row_id: str) -> int:
    """The most a number row of the pad takes (the scorer's bound)."""
    high = next(row.high for row in spec.rows if row.id == row_id)
    assert isinstance(high, int)
    return high


def tied_seats(file: dict[str, Any]) -> list[list[int]]:
    """The groups of seats with equal totals in a winter's score file (the tie-break's)."""
    from scorers import SCORERS

    totals = [p["total"] for p in SCORERS[GAME].score_json(file).to_json()["players"]]
    groups: dict[int, list[int]] = {}
    for seat, total in enumerate(totals):
        groups.setdefault(total, []).append(seat)
    return [seats for _, seats in sorted(groups.items(), reverse=True) if len(seats) > 1]


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
    """The winter's score pad, checked and saved (or kept).

    In the last year the war chests are the tie-break: given (``chests``, a
    session saved when they were always asked), or asked once the pad is
    saved, and then only of the players with equal totals.
    """
    t.at("scoring", f"year {year}, winter scoring", "scoring-winter")
    last = year == YEARS[-1]
    if last and chests is None and t.next_saved() == f"y{year}.winter.chests":
        chests = t.numbers(
            f"y{year}.winter.chests",
            row_message("War chests (the tie-break)", names),
            len(names),
            high=high_of(winter_spec(names, year), "chests"),
            topic="tie-breaks",
        )
    spec = winter_spec(names, year, chests=chests is not None)
    pad = Pad(GAME, names, spec)
    pad.put("year", None, year)
    for seat in range(len(names)):
        for region in REGIONS:
            pad.put(region, seat, region_value(grids[seat].get(region, [])))
        if last:
            pad.put("before", seat, before[seat])
    if last and chests is not None:
        for seat, value in enumerate(chests):
            pad.put("chests", seat, value)
    topic = "scoring-final-winter" if last else "scoring-winter"
    t.at("scoring", f"year {year}, winter scoring", topic)
    file = review(
        t,
        pad,
        title=f"Shogun: year {year}, winter scoring (provinces castles temples theatres)",
        done="save the game" if final else f"go on to year {year + 1}",
        totals=not last,  # the first winter's totals, seen before Enter
    )
    if last and chests is None:
        file = ask_tie_break(t, year, names, file)
    return file


def ask_tie_break(t: Table, year: int, names: list[str], file: dict[str, Any]) -> dict[str, Any]:
    """The war chests of the players with equal totals (nobody else's are asked)."""
    groups = tied_seats(file)
    if not groups:
        return file
    tied = [seat for group in groups for seat in group]
    equal = "; ".join(" and ".join(names[s] for s in group) for group in groups)
    t.at("scoring", f"year {year}, tie-break", "tie-breaks")
    counts = t.numbers(
        f"y{year}.winter.tied",
        f"Equal totals ({equal}): war chests, the tie-break, of "
        f"{' '.join(names[s] for s in tied)} in that order?",
        len(tied),
        high=high_of(winter_spec(names, year), "chests"),
        topic="tie-breaks",
    )
    file = {**file, "players": [dict(p) for p in file["players"]]}
    for seat, value in zip(tied, counts, strict=True):
        file["players"][seat]["war_chests"] = value
    return file


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
        if t.next_saved() == "chests":  # saved when war chests were always asked
            chests = t.numbers(
                "chests",
                row_message("War chests (the tie-break)", names),
                len(names),
                high=high_of(spec, "chests"),
                topic="tie-breaks",
            )
    t.at("scoring", "scoring", "scoring-winter")
    grids = [
        ask_grid(t, f"regions.{seat}", f"{name}: the whole holding now, every region", who=name)
        for seat, name in enumerate(names)
    ]
    file = winter_pad(t, year, names, before, grids, chests=chests, final=True)
    if year == YEARS[0]:
        t.say("Year 1 is an interim scoring: it is saved as such, out of wins and stats.")
    return Outcome(file, status="interim" if year == YEARS[0] else "final")
