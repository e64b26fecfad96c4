"""Kamakura Collection's kit: tour cards, site coins, the 8-coin end and the final count.

Everything about Kamakura that is not pure scoring (:mod:`scorers.kamakura`):
the set-up checklist and its draws, the round tracker's rule, and the score
pad's rows. The entry codes are :mod:`companion.kits.kamakura.codes`, the
play-along flow :mod:`companion.kits.kamakura.flow`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from companion.kits import Kit, PadOptions
from companion.kits.kamakura.codes import (
    END_COINS,
    EXCLUSIVE,
    ClaimCodec,
    CoinsCodec,
    NumbersCodec,
    PiecesCodec,
    TicketsCodec,
    TourCodec,
    ToursCodec,
)
from companion.kits.pad import (
    CHOICE,
    FLAG,
    LETTER,
    NUMBER,
    TEXT,
    Extra,
    PadRow,
    PadSpec,
    Part,
    bound,
    number_row,
)
from companion.kits.rounds import COUNT, Rounds, RoundState, Step
from scorers.kamakura import (
    CARD_KINDS,
    COINS_PER_CIRCLE,
    COINS_PER_CIRCLE_TWO,
    COLORS,
    EAT_COINS,
    GENRE_COINS,
    MEMENTO_SPOTS,
    STATIONS,
    TAXI_TICKETS,
)

GAME = "kamakura"
TOUR_CARDS = "".join(CARD_KINDS)
"""The exclusive tour cards' letters, A to M."""
FIRST_GAME_OUT = tuple(c for c, kind in CARD_KINDS.items() if kind not in EXCLUSIVE)
"""The cards left out of a first game (L and M)."""
RENDEZVOUS = next(c for c, kind in CARD_KINDS.items() if kind == "rendezvous")
"""The card that reads the pieces (M): without it the pad does not ask them."""
START_PIECES = list(STATIONS)
"""Where each player's two pieces start (A and N): the file records them when not asked."""


def tour_count(players: int, *, advanced: bool) -> int:
    """Exclusive tour cards in play: one per player, one more with the advanced rules."""
    return players + 1 if advanced or players == 2 else players


def checklist(players: int) -> list[str]:
    """The set-up steps, with this group's numbers."""
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


def draw_tours(players: int, seed: int, *, advanced: bool, first_game: bool) -> list[str]:
    """Exclusive tour cards, without L and M for a first game."""
    pool = [c for c in TOUR_CARDS if not (first_game and c in FIRST_GAME_OUT)]
    count = tour_count(players, advanced=advanced)
    return random.Random(f"tours:{seed}").sample(pool, count)


def draw_start(names: Sequence[str], seed: int) -> str:
    """The start player, at random."""
    return random.Random(f"start:{seed}").choice(list(names))


def draws(seats: list[str], seed: int) -> dict[str, Any]:
    """The tour cards (and a first game's), and the start player."""
    players = len(seats)
    return {
        "tours": draw_tours(players, seed, advanced=players == 2, first_game=False),
        "tours_first_game": draw_tours(players, seed, advanced=players == 2, first_game=True),
        "start_player": draw_start(seats, seed),
    }


def describe_draws(drawn: dict[str, Any]) -> list[str]:
    """The draws in words."""
    lines = []
    if "tours" in drawn:
        lines.append("Exclusive tour cards: " + ", ".join(drawn["tours"]))
        lines.append("  first game (no L or M): " + ", ".join(drawn["tours_first_game"]))
    if "start_player" in drawn:
        lines.append(f"Start player: {drawn['start_player']}")
    return lines


def check_end(state: RoundState) -> Step:
    """A full Memento board ends the game: everyone else then has one last turn."""
    done = [k for k, c in enumerate(state.values) if isinstance(c, int) and c >= END_COINS]
    if not done:
        return Step(
            f"Nobody has {END_COINS} site coins yet: round {state.round + 1}.",
            state.round + 1,
            state.start,
        )
    first = done[0]
    count = len(state.names)
    others = ", ".join(state.names[(first + k) % count] for k in range(1, count))
    return Step(
        f"{state.names[first]} has {END_COINS} site coins: one last turn each for {others}.",
        state.round,
        state.start,
    )


ROUNDS = Rounds(
    word="Round",
    hint="Site coins per player:",
    button="Check the end",
    entry=COUNT,
    count_name="site coins",
    step=check_end,
)


# --- The score pad ----------------------------------------------------------------

LETTER_WIDTH = "3.2em"
POINTS_WIDTH = "3.3em"
COLOUR_WIDTH = "6.5em"


def colour_options(prompt: str) -> tuple[tuple[str, str], ...]:
    """A colour dropdown's options, the empty one first."""
    return ((prompt, ""), *((c, c) for c in COLORS))


def points_part(key: str, field_name: str, words: str = "points") -> Part:
    """A printed value: a small number box, its bound the scorer's."""
    low, high = bound(GAME, field_name)
    return Part(key, words, NUMBER, width=POINTS_WIDTH, placeholder="pts", low=low, high=high)


def finish_pieces(value: Any) -> Any:
    """Both pieces left empty leave the field out."""
    return None if value == ["", ""] else value


def finish_tour(entry: Any) -> Any:
    """A tour card's kind from its letter; its circles typed in one box as a list."""
    if not isinstance(entry, dict):
        return entry
    kind = CARD_KINDS.get(str(entry.get("card", "")))
    if kind is not None:
        entry["kind"] = kind
    if isinstance(entry.get("circles"), str):
        entry["circles"] = [c.upper() for c in entry["circles"].replace(",", " ").split()]
    return entry


def cards_of(*kinds: str) -> tuple[str, ...]:
    """The card letters of those kinds."""
    return tuple(c for c, kind in CARD_KINDS.items() if kind in kinds)


def player_rows(pieces: bool, circles: Mapping[str, tuple[int, str]]) -> list[PadRow]:
    """Per player: track, site coins, eat-around coins, pieces (card M), taxi tickets."""
    coin_low, coin_high = bound(GAME, "site_coins.value")
    rows = [
        number_row(GAME, "track", "Point track", "scoring-track"),
        PadRow(
            "coins",
            "Site coins (Memento order)",
            "site_coins",
            "memento-board",
            parts=(
                Part("circle", "circle", LETTER, width=LETTER_WIDTH, placeholder="A"),
                Part(
                    "value",
                    "points",
                    NUMBER,
                    width=POINTS_WIDTH,
                    placeholder="pts",
                    low=coin_low,
                    high=coin_high,
                ),
                Part("color", "colour", CHOICE, colour_options("colour…"), width=COLOUR_WIDTH),
            ),
            repeat=MEMENTO_SPOTS,
            add="+ coin",
            codec=CoinsCodec(dict(circles)),
        ),
        PadRow(
            "eat",
            "Eat-around coins",
            "eat_coins",
            "scoring-eat-coins",
            parts=(points_part("", "eat_coins"),),
            repeat=EAT_COINS,
            add="+ coin",
            codec=NumbersCodec(),
            css="inline",
        ),
    ]
    if pieces:
        rows.append(
            PadRow(
                "pieces",
                "Pieces at the end",
                "pieces",
                "tour-cards",
                parts=(
                    Part("[0]", "first piece", LETTER, width=LETTER_WIDTH, placeholder="A"),
                    Part("[1]", "second piece", LETTER, width=LETTER_WIDTH, placeholder="N"),
                ),
                base=["", ""],
                finish=finish_pieces,
                codec=PiecesCodec(),
            )
        )
    rows.append(
        PadRow(
            "tickets",
            "Unused taxi tickets",
            "taxi_tickets",
            "taxi-tickets",
            parts=(
                Part("circle", "circle", LETTER, width=LETTER_WIDTH, placeholder="A"),
                points_part("points", "taxi_tickets.points"),
            ),
            repeat=TAXI_TICKETS,
            add="+ ticket",
            codec=TicketsCodec(),
        )
    )
    return rows


def tour_parts(cards: Sequence[str]) -> tuple[Part, ...]:
    """A tour card's controls: the card, its circles or colour, its bonus, who claimed it."""
    collection, genre = cards_of("collection"), cards_of("genre")
    return (
        Part("card", "card", CHOICE, (("card…", ""), *((c, c) for c in cards)), width="5.5em"),
        Part(
            "circles",
            "circles",
            TEXT,
            width="7em",
            placeholder="circles B F K",
            shown_when=("card", collection),
        ),
        Part(
            "color",
            "colour",
            CHOICE,
            colour_options("colour…"),
            width=COLOUR_WIDTH,
            shown_when=("card", genre),
        ),
        points_part("points", "tours.points"),
        Part(
            "claimed_by",
            "claimed by",
            TEXT,
            width="7em",
            placeholder="claimed by",
            shown_when=("card", collection + genre),
        ),
    )


def table_rows(names: Sequence[str]) -> list[PadRow]:
    """The web pad's rows for the table (nothing known yet): the rules and the tour cards."""
    return [
        PadRow(
            "advanced",
            "Advanced rules",
            "advanced",
            "advanced-rules",
            shared=True,
            parts=(Part("", "advanced rules (always with 2 players)", FLAG, width=""),),
        ),
        PadRow(
            "tours",
            "Tour cards in play",
            "tours",
            "tour-cards",
            shared=True,
            parts=tour_parts(TOUR_CARDS),
            repeat=len(CARD_KINDS),
            add="+ tour card",
            codec=ToursCodec(),
            finish=finish_tour,
        ),
    ]


def card_rows(tours: Sequence[str], advanced: bool, names: Sequence[str]) -> list[PadRow]:
    """The rows of the tour cards in play (the flow knows them): each card, who claimed it."""
    rows = []
    for k, card in enumerate(tours):
        kind = CARD_KINDS[card]
        parts = tuple(
            part
            for part in tour_parts((card,))
            if part.key == "points"
            or (part.key == "circles" and kind == "collection")
            or (part.key == "color" and kind == "genre")
        )
        rows.append(
            PadRow(
                f"tour.{card}",
                f"Card {card}",
                f"tours[{k}]",
                "tour-cards",
                shared=True,
                parts=tuple(replace(p, shown_when=None) for p in parts),
                base={"card": card, "kind": kind},
                finish=finish_tour,
                codec=TourCodec(card),
            )
        )
        if advanced and kind in EXCLUSIVE:
            rows.append(
                PadRow(
                    f"claim.{card}",
                    f"Card {card} completed first by",
                    f"tours[{k}].claimed_by",
                    "advanced-rules",
                    shared=True,
                    parts=(
                        Part(
                            "",
                            "claimed by",
                            CHOICE,
                            (("nobody", ""), *((n, n) for n in names)),
                            width="7em",
                        ),
                    ),
                    codec=ClaimCodec(tuple(names)),
                    show=lambda value: str(value) if value else "not named (not needed)",
                )
            )
    return rows


def _players(file: Mapping[str, Any]) -> list[dict[str, Any]]:
    players = file.get("players")
    return [p if isinstance(p, dict) else {} for p in players] if isinstance(players, list) else []


def _coins(player: Mapping[str, Any]) -> list[dict[str, Any]]:
    coins = player.get("site_coins")
    if not isinstance(coins, list):
        return []
    return [c for c in coins if isinstance(c, dict) and isinstance(c.get("circle"), str)]


def meets(tour: Mapping[str, Any], coins: Sequence[Mapping[str, Any]]) -> bool:
    """Whether a player with these site coins meets a collection or genre card."""
    if tour.get("kind") == "collection":
        held = {c["circle"] for c in coins}
        return all(c in held for c in tour.get("circles") or [])
    return sum(1 for c in coins if c.get("color") == tour.get("color")) >= GENRE_COINS


def table_problems(file: dict[str, Any]) -> list[tuple[str, list[str]]]:
    """Coins over the supply, a circle's coin told two ways, and exclusive cards in doubt."""
    found: list[tuple[str, list[str]]] = []
    players = _players(file)
    names = [str(p.get("name", "")) for p in players]
    count = len(players)
    per_circle = COINS_PER_CIRCLE_TWO if count == 2 else COINS_PER_CIRCLE
    holders: dict[str, list[int]] = {}
    printed: dict[str, dict[tuple[Any, Any], list[int]]] = {}
    for seat, player in enumerate(players):
        for coin in _coins(player):
            holders.setdefault(coin["circle"], []).append(seat)
            told = (coin.get("value"), coin.get("color"))
            printed.setdefault(coin["circle"], {}).setdefault(told, []).append(seat)
    for circle, seats in sorted(holders.items()):
        if len(seats) > per_circle:
            found.append(
                (
                    f"{len(seats)} site coins of circle {circle} (at most {per_circle} "
                    f"with {count} players)",
                    [f"players[{s}].site_coins" for s in seats],
                )
            )
    for circle, ways in sorted(printed.items()):
        if len(ways) > 1:
            text = ", ".join(
                f"{value} {color} for {' and '.join(names[s] for s in seats)}"
                for (value, color), seats in ways.items()
            )
            found.append(
                (
                    f"circle {circle}'s coin is {text}: one coin, printed once",
                    [f"players[{s}].site_coins" for seats in ways.values() for s in seats],
                )
            )
    tours = file.get("tours")
    advanced = bool(file.get("advanced")) or count == 2
    for k, tour in enumerate(tours if isinstance(tours, list) else []):
        if not advanced or not isinstance(tour, dict) or tour.get("kind") not in EXCLUSIVE:
            continue
        who = [names[s] for s, p in enumerate(players) if meets(tour, _coins(p))]
        claimed = tour.get("claimed_by")
        path = f"tours[{k}].claimed_by"
        if len(who) > 1 and claimed not in who:
            found.append(
                (
                    f"{' and '.join(who)} meet card {tour.get('card')}: who completed it first?",
                    [path],
                )
            )
        elif claimed and claimed not in who:
            found.append((f"{claimed} does not meet card {tour.get('card')}", [path]))
    return found


def with_noted_tickets(noted: Sequence[int] | None) -> Extra:
    """:func:`table_problems`, and a player's unused taxi tickets on the pad fewer than
    the turns noted (taken and not used): flagged, naming the player ("you noted 2, 1
    shown"). Kept as it is when asked again, the pad's count stands."""
    flagged: dict[int, int] = {}  # seat -> the count shown when it was flagged

    def problems(file: dict[str, Any]) -> list[tuple[str, list[str]]]:
        found = table_problems(file)
        players = _players(file)
        for seat, expected in enumerate(noted or []):
            if seat >= len(players):
                break
            tickets = players[seat].get("taxi_tickets")
            shown = len(tickets) if isinstance(tickets, list) else 0
            if shown >= expected:
                flagged.pop(seat, None)
                continue
            if flagged.get(seat) == shown:
                continue  # flagged, asked again and kept: the pad's count stands
            flagged[seat] = shown
            found.append(
                (
                    f"{players[seat].get('name', '')}: you noted {expected} unused taxi "
                    f"{'ticket' if expected == 1 else 'tickets'}, {shown} shown "
                    "(Enter keeps the pad's count)",
                    [f"players[{seat}].taxi_tickets"],
                )
            )
        return found

    return problems


def pad(options: PadOptions) -> PadSpec:
    """The final count: five rows per player, then the table's tour cards.

    ``options.context`` (what the play-along flow knows) may hold ``tours`` (the
    cards in play, by letter), ``advanced``, ``circles`` (each circle's coin as
    described: value and colour) and ``tickets`` (the unused tickets the turns
    noted, per seat). Without ``tours`` (the web pad), the table's rows are the
    rules' tick box and the list of tour cards in play; with them, one row per
    card and, with the advanced rules, one for who completed it first; the
    pieces are asked only when card M is in play (else the file records them
    on A and N).
    """
    context = options.context
    tours = context.get("tours")
    circles = context.get("circles") or {}
    pieces = tours is None or RENDEZVOUS in tours
    rows = player_rows(pieces, circles)
    entry: dict[str, Any] = {} if pieces else {"pieces": START_PIECES}
    top: dict[str, Any] = {}
    if tours is None:
        rows += table_rows(options.names)
    else:
        advanced = bool(context.get("advanced"))
        top = {"advanced": advanced, "tours": []}
        rows += card_rows(list(tours), advanced, options.names)
    return PadSpec(rows, top=top, entry=entry, extra=with_noted_tickets(context.get("tickets")))


KIT = Kit(
    game=GAME,
    checklist=checklist,
    rounds=ROUNDS,
    pad=pad,
    flow="companion.kits.kamakura.flow",
    offers={5: "tours", 6: "start"},
    draws=draws,
    describe_draws=describe_draws,
    pad_width="15em",
)
