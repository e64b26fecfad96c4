"""Set-up checklists and random draws for any game and player count (pure functions).

The steps and the draws are the game's own (its kit: :mod:`companion.kits`);
here they are checked against the player count and put into words. Draws take
a seed, so the same seed always gives the same draw:
``companion setup tokaido --players 3 --seed 4242`` repeats what a game showed.
"""

from __future__ import annotations

import random
from typing import Any

from companion.kits import KITS
from companion.wording import hanging
from scorers import SCORERS

PLAYER_COUNTS = SCORERS.facts(lambda info: info.player_counts)


class SetupError(ValueError):
    """A player count the game does not allow."""


def check_count(game: str, players: int) -> None:
    """Raise :class:`SetupError` unless ``players`` suits ``game``."""
    allowed = PLAYER_COUNTS[game]
    if players not in allowed:
        shown = " or ".join(str(n) for n in allowed)
        raise SetupError(f"{game} is played by {shown} players, not {players}")


def checklist(game: str, players: int) -> list[str]:
    """The set-up steps in the rulebook's order, with this group's numbers."""
    check_count(game, players)
    return KITS[game].checklist(players)


def offers(game: str) -> dict[int, str]:
    """The checklist steps (0-based) the companion offers to do, by offer."""
    return dict(KITS[game].offers)


def later(game: str) -> dict[int, str]:
    """The checklist steps (0-based) that matter later, by where they are said again."""
    return dict(KITS[game].later)


def new_seed() -> int:
    """A fresh seed for a draw, short enough to read out."""
    return random.SystemRandom().randrange(1000, 1_000_000)


def pick(names: list[str], seed: int, purpose: str) -> str:
    """One name at random (a start player, or the order of tied bids)."""
    return random.Random(f"{purpose}:{seed}").choice(names)


def shuffled(names: list[str], seed: int, purpose: str) -> list[str]:
    """The names in a random order."""
    order = list(names)
    random.Random(f"{purpose}:{seed}").shuffle(order)
    return order


def draws(game: str, players: int, seed: int) -> dict[str, Any]:
    """The set-up draws for ``companion setup`` (players are seats 1..n)."""
    check_count(game, players)
    seats = [f"Player {k}" for k in range(1, players + 1)]
    kit = KITS[game]
    return kit.draws(seats, seed) if kit.draws is not None else {}


def describe_draws(game: str, drawn: dict[str, Any]) -> list[str]:
    """The draws of :func:`draws` in words."""
    return KITS[game].describe_draws(drawn)


def setup_text(game: str, players: int, steps: list[str], seed: int, drawn: dict[str, Any]) -> str:
    """What ``companion setup`` prints: the numbered checklist, then the draws and their seed."""
    lines = [f"Set-up for {game}, {players} players:"]
    lines.extend(hanging(f"  {k}. ", step) for k, step in enumerate(steps, 1))
    if drawn:
        lines.append(f"Draws (seed {seed}; --seed {seed} repeats them):")
        for line in describe_draws(game, drawn):
            indent = line[: len(line) - len(line.lstrip())]
            lines.append(hanging(f"  {indent}", line))
    return "\n".join(lines)
