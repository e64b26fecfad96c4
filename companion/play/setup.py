"""Set-up checklists and random draws for each game and player count (pure functions).

Draws take a seed, so the same seed always gives the same draw:
``companion setup tokaido --players 3 --seed 4242`` repeats what a game showed.
"""

from __future__ import annotations

import random
from typing import Any

from companion.wording import hanging
from scorers import SCORERS

PLAYER_COUNTS = SCORERS.facts(lambda info: info.player_counts)
TRAVELER_COINS = {
    "Chuubei": 4,
    "Hiroshige": 3,
    "Hirotada": 8,
    "Kinko": 7,
    "Mitsukuni": 6,
    "Sasayakko": 5,
    "Satsuki": 2,
    "Umegae": 5,
    "Yoshiyasu": 9,
    "Zen-emon": 6,
}
TOUR_CARDS = "ABCDEFGHIJKLM"
WAR_CHESTS = {3: 18, 4: 15, 5: 12}
SHIMODA_FIRST_MERCHANTS = ("Veterinarian", "Antique Dealer", "Lantern Maker", "Florist")


class SetupError(ValueError):
    """A player count the game does not allow."""


def check_count(game: str, players: int) -> None:
    """Raise :class:`SetupError` unless ``players`` suits ``game``."""
    allowed = PLAYER_COUNTS[game]
    if players not in allowed:
        shown = " or ".join(str(n) for n in allowed)
        raise SetupError(f"{game} is played by {shown} players, not {players}")


def _kit(game: str) -> Any:
    from companion.kits import KITS, KitMissing

    try:
        return KITS[game]
    except KitMissing:  # TRANSITION: a game not moved into its kit yet
        return None


def checklist(game: str, players: int) -> list[str]:
    """The set-up steps in the rulebook's order, with this group's numbers."""
    check_count(game, players)
    kit = _kit(game)
    if kit is not None:
        return kit.checklist(players)  # type: ignore[no-any-return]
    return _CHECKLISTS[game](players)


def offers(game: str) -> dict[int, str]:
    """The checklist steps (0-based) the companion offers to do, by offer."""
    kit = _kit(game)
    return dict(kit.offers) if kit is not None else COMPANION_STEPS.get(game, {})


def later(game: str) -> dict[int, str]:
    """The checklist steps (0-based) that matter later, by where they are said again."""
    kit = _kit(game)
    return dict(kit.later) if kit is not None else LATER_STEPS.get(game, {})


COMPANION_STEPS = {
    "tokaido": {4: "deal", 5: "lineup"},
    "kamakura": {5: "tours", 6: "start"},
    "shogun": {2: "oldest"},
    "shimoda": {5: "start"},
    "shibuya": {},
}
"""Per game, the checklist steps (0-based) the companion offers to do, by offer."""
LATER_STEPS = {"tokaido": {6: "stage 1", 7: "the first inn"}}
"""Per game, checklist steps (0-based) that matter later, by where they are said again."""


def _shimoda(players: int) -> list[str]:
    return [
        "Board between the players, a street of seven spaces in front of each.",
        "Bridges across spaces 2 and 6 of both streets.",
        "All 35 tourists in the bag; draw 4 onto each bridge (8 in all).",
        "Shuffle the shop cards; lay the top 5 face down as the display.",
        "Shuffle the merchants; turn 4 face up, box the rest. First game: use "
        + ", ".join(SHIMODA_FIRST_MERCHANTS)
        + ".",
        "Start player marker to whoever crossed a bridge most recently.",
    ]


def _shibuya(players: int) -> list[str]:
    steps = [
        "Each side takes a colour: 8 pawns and 2 goal tiles.",
        "Shuffle the 30 street tiles into a face-down pile.",
        "Pawns and goals around an empty 4 x 4 area, as in the diagram.",
    ]
    if players == 4:
        steps.insert(0, "Two teams of two; partners sit opposite each other.")
    return steps


def _tokaido(players: int) -> list[str]:
    doubles = (
        "Double spaces are in play (4-5 players)."
        if players >= 4
        else "Double spaces: only the space on the road is used (2-3 players)."
    )
    steps = [
        "Board out; the 7 achievement cards face up beside it.",
        "Shuffle the meal, souvenir, encounter and hot spring piles.",
        "Sort the 60 panoramas by type and value (1 on top); coins form the bank.",
        f"{players} players: each takes a traveller piece, score marker (on 0) and token.",
        f"Deal 2 traveller tiles to each player ({2 * players} tiles); each keeps one and "
        "takes its starting coins.",
        "Line all traveller pieces up at Kyoto in a random order.",
        doubles,
        f"At each inn the first arrival will draw {players + 1} meal cards.",
    ]
    if players == 2:
        steps.append("Two players: add a neutral third traveller that blocks spaces.")
    return steps


def tour_count(players: int, *, advanced: bool) -> int:
    """Exclusive tour cards in play: one per player, one more with the advanced rules."""
    return players + 1 if advanced or players == 2 else players


def _kamakura(players: int) -> list[str]:
    coins = "1 site coin" if players == 2 else "2 site coins (stacked)"
    steps = [
        f"Put {coins} on each lettered circle.",
        "Shuffle the eat-around coins; one face up on each small circle.",
        "Action board in reach, cat markers beside it.",
        f"Deal 1 taxi ticket to each player ({players} tickets); stack the rest.",
        "Each player: a memento board and two pieces, one on A and one on N.",
        f"Turn up {tour_count(players, advanced=False)} exclusive tour cards "
        f"({tour_count(players, advanced=True)} with the advanced rules); "
        "first game: leave out L and M.",
        "Start player: whoever visited Kamakura most recently (or draw).",
        "Point trackers: "
        + ", ".join(f"{n}" for n in range(players))
        + " in turn order from the start player.",
    ]
    if players == 2:
        steps.append("Two players: the advanced rules are always on.")
    return steps


def _shogun(players: int) -> list[str]:
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
        steps.insert(1, "Three players: the 8 light-bordered provinces are out (37 in play).")
    return steps


_CHECKLISTS = {
    "shimoda": _shimoda,
    "shibuya": _shibuya,
    "tokaido": _tokaido,
    "kamakura": _kamakura,
    "shogun": _shogun,
}


def new_seed() -> int:
    """A fresh seed for a draw, short enough to read out."""
    return random.SystemRandom().randrange(1000, 1_000_000)


def deal_travelers(players: int, seed: int) -> list[list[str]]:
    """Two different traveller tiles for each player."""
    tiles = random.Random(f"travelers:{seed}").sample(sorted(TRAVELER_COINS), 2 * players)
    return [tiles[2 * k : 2 * k + 2] for k in range(players)]


def line_up(names: list[str], seed: int) -> list[str]:
    """A random order of the travellers at Kyoto, the first nearest the road."""
    order = list(names)
    random.Random(f"lineup:{seed}").shuffle(order)
    return order


def draw_tours(players: int, seed: int, *, advanced: bool, first_game: bool) -> list[str]:
    """Exclusive tour cards, without L and M for a first game."""
    pool = [c for c in TOUR_CARDS if not (first_game and c in "LM")]
    count = tour_count(players, advanced=advanced)
    return random.Random(f"tours:{seed}").sample(pool, count)


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
    kit = _kit(game)
    if kit is not None:
        return kit.draws(seats, seed) if kit.draws is not None else {}  # type: ignore[no-any-return]
    if game == "tokaido":
        dealt = deal_travelers(players, seed)
        return {
            "travelers": {
                seat: [{"traveler": t, "coins": TRAVELER_COINS[t]} for t in tiles]
                for seat, tiles in zip(seats, dealt, strict=True)
            },
            "kyoto_line": line_up(seats, seed),
        }
    if game == "kamakura":
        return {
            "tours": draw_tours(players, seed, advanced=players == 2, first_game=False),
            "tours_first_game": draw_tours(players, seed, advanced=players == 2, first_game=True),
            "start_player": pick(seats, seed, "start"),
        }
    if game == "shibuya":
        return {"start_player": pick(seats, seed, "start")}
    return {}


def describe_draws(drawn: dict[str, Any]) -> list[str]:
    """The draws of ``setup.draws`` in words."""
    lines = []
    for seat, tiles in drawn.get("travelers", {}).items():
        offered = " or ".join(f"{t['traveler']} ({t['coins']} coins)" for t in tiles)
        lines.append(f"{seat}: {offered}")
    if "kyoto_line" in drawn:
        lines.append("Line at Kyoto, nearest the road first: " + ", ".join(drawn["kyoto_line"]))
    if "tours" in drawn:
        lines.append("Exclusive tour cards: " + ", ".join(drawn["tours"]))
        lines.append("  first game (no L or M): " + ", ".join(drawn["tours_first_game"]))
    if "start_player" in drawn:
        lines.append(f"Start player: {drawn['start_player']}")
    return lines


def setup_text(game: str, players: int, steps: list[str], seed: int, drawn: dict[str, Any]) -> str:
    """What ``companion setup`` prints: the numbered checklist, then the draws and their seed."""
    lines = [f"Set-up for {game}, {players} players:"]
    lines.extend(hanging(f"  {k}. ", step) for k, step in enumerate(steps, 1))
    if drawn:
        lines.append(f"Draws (seed {seed}; --seed {seed} repeats them):")
        for line in describe_draws(drawn):
            indent = line[: len(line) - len(line.lstrip())]
            lines.append(hanging(f"  {indent}", line))
    return "\n".join(lines)
