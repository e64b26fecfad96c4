"""Shogun's kit: two years of three seasons, bids for the action order, two winters scored.

Everything about Shogun that is not pure scoring (:mod:`scorers.shogun`): the
set-up checklist, the seasons and the round tracker's rule (the action order
from the bids), and the score pad's rows. The entry codes are in
:mod:`companion.kits.shogun.codes`; the play-along flow is
:mod:`companion.kits.shogun.flow`.

The year: the pad always has the shared row "Winter of year". The flow knows
the winter it scores (``PadOptions.context["year"]``): it fills that row, and
the year stays the flow's (a pad changed to another year is asked again). The
first winter has no score before it and no tie-break, so its pad has no
"Score before this winter" and no "War chests" rows; without a year in the
context (the web page, which scores either winter) both rows are there, and
asked for (``required``). The flow's final winter leaves the war chests out
(``context["chests"]`` false) and asks them only of players with equal totals.
"""

from __future__ import annotations

from typing import Any

from companion.kits import Kit, PadOptions
from companion.kits.pad import PadRow, PadSpec, Part, bound, number_row
from companion.kits.rounds import CHOICE, Rounds, RoundState, Step
from companion.kits.shogun.codes import (
    BID_CHOICES,
    BID_RANKS,
    BUILDING_LETTERS,
    COUNTS,
    NO_CHOICE,
    SEASONS,
    YEAR_OPTIONS,
    RegionCodec,
    YearCodec,
    order_bids,
    short,
    shuffled,
    year_shown,
)
from scorers import join_names
from scorers.shogun import PROVINCES_IN_PLAY, PROVINCES_PER_REGION, REGIONS, YEARS

GAME = "shogun"
WAR_CHESTS = {3: 18, 4: 15, 5: 12}
"""War chests each player starts with, by player count."""
LAST_SEASON = len(YEARS) * len(SEASONS)


def checklist(players: int) -> list[str]:
    """The set-up steps, with this group's numbers."""
    steps = [
        "Choose the sun or moon side; box the other side's province cards.",
        f"Each player: board, 62 cubes, daimyo card, war chest cards 0-4 and "
        f"{WAR_CHESTS[players]} war chests.",
        "Claim starting provinces, the oldest player first.",
        "Victory markers on 0; rice markers at the bottom of the supply track.",
        f"Battle tower: 7 cubes per player and 10 farmers ({7 * players + 10} cubes).",
        "Shuffle the events; turn up 4 for this year.",
        "Action and special cards face down in reach; the rest of the chests are the bank.",
    ]
    if players == 3:
        out = max(PROVINCES_IN_PLAY.values()) - PROVINCES_IN_PLAY[3]
        steps.insert(
            1,
            f"Three players: the {out} light-bordered provinces are out "
            f"({PROVINCES_IN_PLAY[3]} in play).",
        )
    return steps


def season_name(number: int) -> str:
    """``Year 1, summer`` for the season ``number`` (from 1)."""
    year, season = divmod(number - 1, len(SEASONS))
    return f"Year {year + 1}, {SEASONS[season]}"


def action_order(state: RoundState) -> Step:
    """The action order from the bids; equal bids are drawn with ``state.seed`` (shown)."""
    bids = [str(bid or NO_CHOICE) for bid in state.values]
    missing = [name for name, bid in zip(state.names, bids, strict=True) if bid == NO_CHOICE]
    if missing:
        return Step(f"Choose the bid of {join_names(missing)} first.", state.round, state.start)
    names = list(state.names)
    ties: list[str] = []

    def draw(tied: list[str], rank: int) -> list[str]:
        drawn = shuffled(tied, state.seed, f"bids.{rank}")
        ties.append(f"equal bids ({short(BID_RANKS[rank])}) drawn: {', '.join(drawn)}")
        return drawn

    order = order_bids(names, bids, draw)
    shown = [f"{name} ({short(bids[names.index(name)])})" for name in order]
    text = f"{season_name(state.round)}: action order {', '.join(shown)}."
    if ties:
        text += f" Seed {state.seed}: " + "; ".join(ties) + "."
    text += " Special cards are taken from the highest bid down, equal bids in the drawn order."
    if state.round % len(SEASONS) == 0:
        year = state.round // len(SEASONS)
        text += f" After the actions: winter of year {year}" + (
            ", the final scoring: score it below."
            if year == YEARS[-1]
            else " (an interim scoring)."
        )
    following = state.round + 1 if state.round < LAST_SEASON else state.round
    final = state.round >= LAST_SEASON  # its actions, then the final winter's scoring
    return Step(text, following, names.index(order[0]), clear=True, last=final)


ROUNDS = Rounds(
    word="Season",
    last=LAST_SEASON,
    name=season_name,
    hint="Each player's bid (a province card acts first, then war chests from 4 down):",
    button="Action order",
    entry=CHOICE,
    count_name="bid",
    choices=BID_CHOICES,
    step=action_order,
    opens_round=True,
)


def _provinces(player: Any, region: str) -> int:
    """The provinces a score file's player holds in a region (0 when not a count)."""
    regions = player.get("regions") if isinstance(player, dict) else None
    value = regions.get(region) if isinstance(regions, dict) else None
    held = value.get("provinces", 0) if isinstance(value, dict) else 0
    return held if isinstance(held, int) and held > 0 else 0


def board_problems(file: dict[str, Any]) -> list[tuple[str, list[str]]]:
    """More provinces held than a region (or the board) has: every value involved."""
    players = file.get("players")
    players = players if isinstance(players, list) else []
    count = len(players)
    found = []
    for region in REGIONS:
        holders = [s for s in range(count) if _provinces(players[s], region)]
        held = sum(_provinces(players[s], region) for s in holders)
        if held > PROVINCES_PER_REGION:
            found.append(
                (
                    f"{held} {region} provinces held in all "
                    f"(the region has {PROVINCES_PER_REGION})",
                    [f"players[{s}].regions.{region}" for s in holders],
                )
            )
    limit = PROVINCES_IN_PLAY.get(count, max(PROVINCES_IN_PLAY.values()))
    total = sum(_provinces(p, r) for r in REGIONS for p in players)
    if total > limit and not found:
        paths = [
            f"players[{s}].regions.{r}"
            for r in REGIONS
            for s in range(count)
            if _provinces(players[s], r)
        ]
        found.append((f"{total} provinces held in all (at most {limit} with {count})", paths))
    return found


REGION_PARTS = tuple(
    Part(count, count, width="3em", high=bound(GAME, count)[1], heading=BUILDING_LETTERS[count])
    for count in COUNTS
)
"""A region's four number boxes on the web pad, headed ``prov cast tmpl thtr``."""


def pad(options: PadOptions) -> PadSpec:
    """The winter's pad: score before, the five regions, war chests; the year and the board.

    ``options.context["year"]`` is the winter the flow scores (see the module's words).
    """
    year = options.context.get("year")
    region_topic = "scoring-final-winter" if year == YEARS[-1] else "scoring-winter"
    regions = [
        PadRow(
            region,
            region.capitalize(),
            f"regions.{region}",
            region_topic,
            parts=REGION_PARTS,
            codec=RegionCodec(region),
            heading=True,
            css="region",
        )
        for k, region in enumerate(REGIONS)
    ]
    rows: list[PadRow] = []
    if year != YEARS[0]:
        rows.append(
            number_row(
                GAME,
                "score_before",
                "Score before this winter",
                "scoring-previous",
                id="before",
                required=True,
            )
        )
    rows.extend(regions)
    if year != YEARS[0] and options.context.get("chests", True):
        rows.append(
            number_row(GAME, "war_chests", "War chests", "tie-breaks", id="chests", required=True)
        )
    rows.append(
        PadRow(
            "year",
            "Winter of year",
            "year",
            "game-end",
            shared=True,
            options=YEAR_OPTIONS,
            width="14em",
            codec=YearCodec(),
            show=year_shown,
        )
    )
    # The board side (sun or moon) scores nothing and no question asks it: the pad
    # leaves it out (a score file may still name it, see docs/score-files.md).

    def checks(file: dict[str, Any]) -> list[tuple[str, list[str]]]:
        found = board_problems(file)
        if year is not None and file.get("year") != year:
            found.append((f"this pad scores the winter of year {year}: keep {year}", ["year"]))
        return found

    return PadSpec(rows, entry={"regions": {}}, extra=checks)


KIT = Kit(
    game=GAME,
    checklist=checklist,
    rounds=ROUNDS,
    pad=pad,
    flow="companion.kits.shogun.flow",
    offers={2: "oldest"},
    pad_width="12.8em",
    css="PAD .grid { --companion-label: 9em; }\n",
)
