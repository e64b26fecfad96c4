"""Orchard (2 to 4 players): apples, pears and plums picked; most baskets breaks a tie.

Rulebook: ``orchard.txt`` (made up for the test suite).

Categories:
    apples: 1 point each (0 to 30).
    pears: 2 points each (0 to 20).
    plums: 3 points each (0 to 10).

Equal totals: the player with more baskets wins (baskets: 0 to 6); still equal, they share.
"""

from __future__ import annotations

from dataclasses import dataclass

from scorers._core import GameInfo, Result, Tiebreak, make_result, read_root
from scorers._validate import Reader

POINTS = {"apples": 1, "pears": 2, "plums": 3}
MOST = {"apples": 30, "pears": 20, "plums": 10, "baskets": 6}

INFO = GameInfo(
    id="orchard",
    title="Orchard Day",
    short_title="Orchard",
    min_players=2,
    max_players=4,
    player_counts=(2, 3, 4),
    categories=tuple(POINTS),
    labels={"apples": "the apples", "pears": "the pears", "plums": "the plums"},
    rulebook="orchard.txt",
    bounds={key: (0, most) for key, most in MOST.items()},
)


@dataclass(frozen=True)
class Picker:
    """One player's harvest."""

    name: str
    counts: dict[str, int]
    baskets: int


def parse(data: object) -> list[Picker]:
    """Validate an Orchard score file.

    Raises:
        ScoreFileError: With every problem found.
    """
    r = Reader()
    root = read_root(r, data, INFO, player_required=(*POINTS, "baskets"))
    pickers = []
    for (path, entry), name in zip(root.players, root.names, strict=True):
        counts = {
            fruit: r.field(entry, path, fruit, lambda v, p, f=fruit: r.integer(v, p, high=MOST[f]))
            for fruit in (*POINTS, "baskets")
        }
        if name is not None and all(v is not None for v in counts.values()):
            baskets = int(counts.pop("baskets") or 0)
            pickers.append(Picker(name, {k: int(v or 0) for k, v in counts.items()}, baskets))
    r.raise_if_problems()
    return pickers


def score(pickers: list[Picker]) -> Result:
    """Points per fruit; most baskets breaks a tie."""
    return make_result(
        INFO.id,
        [p.name for p in pickers],
        [{fruit: n * POINTS[fruit] for fruit, n in p.counts.items()} for p in pickers],
        tiebreaks=[Tiebreak("most baskets", tuple(p.baskets for p in pickers))],
    )
