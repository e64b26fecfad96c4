"""Shogun's entry codes and table words: seasons, bids and their action order, a region's counts.

Pure, importable without the play layer: the round tracker, the web pad and the
terminal flow all read them here.

Example:
    >>> order_bids(["Aki", "Ben"], ["0 chests", PROVINCE], lambda tied, rank: tied)
    ['Ben', 'Aki']
    >>> RegionCodec("brown").read("3102")
    ({'provinces': 3, 'castles': 1, 'temples': 0, 'theaters': 2}, None)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from scorers.shogun import BUILDINGS, PROVINCES_PER_REGION, YEARS

SEASONS = ("spring", "summer", "autumn")
"""The three rounds of a year before its winter."""
COUNTS = ("provinces", *BUILDINGS)
"""What a player holds in a region, in the order typed: provinces castles temples theatres."""
BUILDING_LETTERS = {"provinces": "prov", "castles": "cast", "temples": "tmpl", "theaters": "thtr"}
"""The web pad's short headings above a region's four counts."""
PROVINCE = "Province card"
NO_BID = "No bid (no card left to bid)"
BIDS = ("4 chests", "3 chests", "2 chests", "1 chest", "0 chests", PROVINCE, NO_BID)
"""What a player may bid for the action order, as the tracker and the flow offer it."""
BID_RANKS = (PROVINCE, *BIDS[:5], NO_BID)
"""The rulebook's action order: province-card bids, chests from 4 down to 0, no bid."""
NO_CHOICE = ""
"""A bid not chosen yet (each season's bids start so)."""
BID_CHOICES = (("– choose –", NO_CHOICE), *((bid, bid) for bid in BIDS))
"""The round tracker's bid boxes: "choose" first, then :data:`BIDS`."""
COUNTS_WORDS = "provinces castles temples theatres"
FINAL_YEAR = YEARS[-1]
YEAR_OPTIONS: tuple[tuple[str, Any], ...] = (
    ("winter…", ""),
    *((f"{y} (end of the game)" if y == FINAL_YEAR else str(y), y) for y in reversed(YEARS)),
)
"""The web pad's choice of the winter scored (the last year first)."""


def short(bid: str) -> str:
    """``3 chests`` → ``3``; the other bids in a word or two."""
    if bid == PROVINCE:
        return "province card"
    if bid == NO_BID:
        return "no bid"
    return bid.split()[0]


def order_bids(
    names: Sequence[str], bids: Sequence[str], draw: Callable[[list[str], int], list[str]]
) -> list[str]:
    """The players in the rulebook's action order (pure; for the tracker and the flow).

    Args:
        names: The players.
        bids: Each one's bid, one of :data:`BIDS`.
        draw: Puts equal bids in order: ``(tied names, rank in BID_RANKS)``.
    """
    order: list[str] = []
    for rank, bid in enumerate(BID_RANKS):
        tied = [n for n, b in zip(names, bids, strict=True) if b == bid]
        order.extend(draw(tied, rank) if len(tied) > 1 else tied)
    return order


def shuffled(names: Sequence[str], seed: int, purpose: str) -> list[str]:
    """The names in a random order (the same seed and purpose, the same order)."""
    order = list(names)
    random.Random(f"{purpose}:{seed}").shuffle(order)
    return order


def parse_counts(text: str) -> list[int]:
    """``3 1 0 2`` or ``3102`` → ``[3, 1, 0, 2]`` (every count is one digit)."""
    parts = [] if text.strip() == "-" else text.split()
    if len(parts) == 1 and parts[0].isdigit():
        parts = list(parts[0])
    return [int(p) for p in parts]


def region_problem(region: str, counts: Sequence[int]) -> str | None:
    """What is wrong with a region's counts (provinces first), or ``None``."""
    if not counts:
        return f"{region}: give at least the provinces"
    if counts[0] > PROVINCES_PER_REGION:
        return f"{region}: a region has {PROVINCES_PER_REGION} provinces"
    for kind, number in zip(COUNTS[1:], counts[1:], strict=False):
        if number > counts[0]:
            things = kind if number != 1 else kind[:-1]
            held = "province" if counts[0] == 1 else "provinces"
            return f"{region}: {number} {things} in {counts[0]} {held} (one per province at most)"
    return None


def region_value(counts: Sequence[int]) -> dict[str, int] | None:
    """A region's four counts as the score file holds them; ``None`` for nothing held."""
    full = [*counts, *[0] * (len(COUNTS) - len(counts))]
    return dict(zip(COUNTS, full, strict=True)) if any(full) else None


def region_counts(value: Any) -> list[int]:
    """A region's value back as its four counts (``[0, 0, 0, 0]`` for none)."""
    if not isinstance(value, dict):
        return [0] * len(COUNTS)
    return [n if isinstance(n := value.get(c, 0), int) else 0 for c in COUNTS]


@dataclass(unsafe_hash=True)
class RegionCodec:
    """One region's counts at the terminal: ``3 1 0 2`` (or ``3102``), ``-`` for none.

    Attributes:
        region: The region (its name is in the problems said).
        hint: What to type.
    """

    region: str
    hint: str = f"the whole region now: {COUNTS_WORDS}, e.g. 3 1 0 2; - for none"

    def read(self, text: str) -> tuple[Any, str | None]:
        """The region's value (``None``: nothing held), or ``(None, problem)``."""
        parts = [] if text.strip() == "-" else text.split()
        if not parts:
            return None, None
        wrong = f"up to four whole numbers: {COUNTS_WORDS}"
        if not all(p.isdigit() and len(p) <= len(COUNTS) for p in parts):
            return None, wrong
        counts = parse_counts(text)
        if len(counts) > len(COUNTS):
            return None, wrong
        problem = region_problem(self.region, counts)
        if problem:
            return None, problem
        return region_value(counts), None

    def write(self, value: Any) -> str:
        """``3 1 0 2``; empty for a region where nothing is held."""
        counts = region_counts(value)
        return " ".join(str(n) for n in counts) if any(counts) else ""


def year_shown(value: Any) -> str:
    """The winter scored as the pads show it: ``2 (end of the game)``, ``1``."""
    return next((shown for shown, v in YEAR_OPTIONS if v and v == value), "-")


@dataclass(unsafe_hash=True)
class YearCodec:
    """The winter scored at the terminal: ``2`` (the final scoring) or ``1``.

    Attributes:
        hint: What to type.
    """

    hint: str = f"{FINAL_YEAR} for the end of the game, {YEARS[0]} for the first winter"

    def read(self, text: str) -> tuple[Any, str | None]:
        """The year, or ``(None, problem)``."""
        words = text.split()
        if not words:
            return None, None
        if words[0] in {str(y) for y in YEARS}:
            return int(words[0]), None
        return None, "the winter of year " + " or ".join(str(y) for y in YEARS)

    def write(self, value: Any) -> str:
        """``2``; empty when not given."""
        return str(value) if value in YEARS else ""
