"""Playing Kamakura Collection along: tour cards, trackers, turns and the last round."""

from __future__ import annotations

from typing import Any

from companion.play.common import (
    Outcome,
    ask_players,
    choose_start,
    order_from,
    run_checklist,
    validated,
)
from companion.play.setup import draw_tours, tour_count
from companion.play.table import Table

GAME = "kamakura"
COLORS = ("pink", "green", "blue")
END_COINS = 8
COIN, OTHER, TAXI, NONE = "Took a site coin", "Another action", "Used a taxi ticket", "No action"
KINDS = {**dict.fromkeys("ABCDEFGH", "collection"), **dict.fromkeys("IJK", "genre")}
KINDS.update({"L": "big_eater", "M": "rendezvous"})


def flow(t: Table) -> Outcome:
    """The whole trip: set-up draws, turns until 8 site coins, and the count."""
    names = ask_players(t, GAME)
    count = len(names)
    run_checklist(t, GAME, count)
    advanced = count == 2 or t.yes("advanced", "Play with the advanced rules?", default=False)
    first_game = t.yes("first_game", "First game (leave out tour cards L and M)?", default=False)
    size = tour_count(count, advanced=advanced)
    if t.yes("draw_tours", f"Draw the {size} exclusive tour cards for you?"):
        seed = t.seed("tours")
        tours = draw_tours(count, seed, advanced=advanced, first_game=first_game)
        t.say(f"Exclusive tour cards (seed {seed}, {size}): {', '.join(tours)}.")
    else:
        tours = (
            t.text(
                "tours",
                f"Which {size} tour cards are face up (e.g. A I L)?",
                check=lambda text: check_cards(text, size),
            )
            .upper()
            .split()
        )
    t.at("setup", "start player")
    first = choose_start(t, "Who visited Kamakura most recently?", names)
    order = order_from(names, first)
    t.say("Point trackers: " + ", ".join(f"{n} on {k}" for k, n in enumerate(order)) + ".")
    coins = dict.fromkeys(names, 0)
    last: dict[str, str] = {}
    final: list[str] | None = None
    number = 0
    while final is None or final:
        name = final.pop(0) if final is not None else order[number % count]
        number += 1
        t.at("turn", f"turn {number}")
        previous = f"; last turn: {last[name].lower()}" if name in last else ""
        ending = f" Last turns: {len(final) + 1} to go." if final is not None else ""
        action = t.choose(
            f"turn.{number}",
            f"{name}'s turn ({coins[name]} site coins{previous}). "
            f"Not the same action twice in a row.{ending}",
            [COIN, OTHER, TAXI, NONE],
        )
        last[name] = action
        if action == COIN:
            coins[name] += 1
        if final is None and coins[name] >= END_COINS:
            seat = order.index(name)
            final = [order[(seat + k) % count] for k in range(1, count)]
            t.say(f"{name} has {END_COINS} site coins: everyone else gets one last turn.")
    t.at("scoring", "final count")
    t.say("Count the points.")
    return Outcome(
        validated(t, GAME, lambda: score_file(t, names, tours, advanced, order, coins)),
        start_player=first,
    )


def score_file(
    t: Table,
    names: list[str],
    tours: list[str],
    advanced: bool,
    order: list[str],
    coins: dict[str, int],
) -> dict[str, Any]:
    """Tour cards as printed, then each player's memento board."""
    cards = [tour(t, card, names, advanced) for card in tours]
    players = []
    for seat, name in enumerate(names):
        key = f"score.{seat}"
        entry: dict[str, Any] = {
            "name": name,
            "track": t.number(
                f"{key}.track",
                f"{name}: point track before the count?",
                high=99,
                default=order.index(name),
            ),
        }
        held = t.number(
            f"{key}.coins", f"{name}: how many site coins?", high=8, default=coins[name]
        )
        entry["site_coins"] = [site_coin(t, f"{key}.coin.{k}", name, k) for k in range(held)]
        entry["eat_coins"] = numbers(
            t, f"{key}.eat", f"{name}: eat-around coin values (e.g. 2 1 3; Enter for none)?"
        )
        pieces = t.text(
            f"{key}.pieces", f"{name}: circles of your two pieces (e.g. A N)?", check=check_pieces
        )
        entry["pieces"] = pieces.upper().split()
        tickets = t.number(f"{key}.tickets", f"{name}: unused taxi tickets?", high=11, default=0)
        entry["taxi_tickets"] = [
            {
                "circle": t.text(
                    f"{key}.ticket.{k}.circle",
                    f"{name}: ticket {k + 1} circle?",
                    check=check_circle,
                ).upper(),
                "points": t.number(
                    f"{key}.ticket.{k}.points", f"{name}: ticket {k + 1} bonus printed?", high=20
                ),
            }
            for k in range(tickets)
        ]
        players.append(entry)
    return {"game": GAME, "advanced": advanced, "tours": cards, "players": players}


def tour(t: Table, card: str, names: list[str], advanced: bool) -> dict[str, Any]:
    """One exclusive tour card, as printed on it."""
    kind = KINDS[card]
    entry: dict[str, Any] = {"card": card, "kind": kind}
    key = f"score.tour.{card}"
    if kind == "collection":
        circles = t.text(
            f"{key}.circles", f"Card {card}: circles shown (e.g. B F K)?", check=check_circles
        )
        entry["circles"] = circles.upper().split()
    if kind == "genre":
        entry["color"] = t.choose(f"{key}.color", f"Card {card}: colour?", COLORS)
    entry["points"] = t.number(f"{key}.points", f"Card {card}: bonus printed?", high=30)
    if advanced and kind in ("collection", "genre"):
        who = t.choose(
            f"{key}.claimed", f"Card {card}: who completed it first?", [*names, "Nobody"]
        )
        if who != "Nobody":
            entry["claimed_by"] = who
    return entry


def site_coin(t: Table, key: str, name: str, k: int) -> dict[str, Any]:
    """A site coin on the memento board, spot ``k + 1``."""
    where = f"{name}: site coin in spot {k + 1}"
    return {
        "circle": t.text(f"{key}.circle", f"{where}, circle letter?", check=check_circle).upper(),
        "value": t.number(f"{key}.value", f"{where}, value?", high=9),
        "color": t.choose(f"{key}.color", f"{where}, colour?", COLORS),
    }


def numbers(t: Table, key: str, message: str) -> list[int]:
    """Whole numbers separated by blanks."""

    def check(text: str) -> str | None:
        bad = [part for part in text.split() if not part.isdigit()]
        return f"not a value: {' '.join(bad)}" if bad else None

    return [int(part) for part in t.text(key, message, check=check).split()]


def check_circle(text: str) -> str | None:
    """One letter."""
    return None if len(text) == 1 and text.isalpha() else "a circle is one letter, like B"


def check_circles(text: str) -> str | None:
    """Letters separated by blanks."""
    parts = text.split()
    if not parts or any(check_circle(p) for p in parts):
        return "circle letters separated by spaces, like B F K"
    return None


def check_pieces(text: str) -> str | None:
    """Two circle letters."""
    parts = text.split()
    if len(parts) != 2 or any(check_circle(p) for p in parts):
        return "two circle letters, like A N"
    return None


def score_only(t: Table) -> Outcome:
    """Just the final count, for ``companion score kamakura``."""
    names = ask_players(t, GAME)
    advanced = len(names) == 2 or t.yes(
        "advanced", "Played with the advanced rules?", default=False
    )

    cards = t.text("tours", "Exclusive tour cards in play (e.g. A I L)?", check=check_cards)
    tours = cards.upper().split()
    coins = dict.fromkeys(names, 0)
    t.at("scoring", "scoring")
    return Outcome(validated(t, GAME, lambda: score_file(t, names, tours, advanced, names, coins)))


def check_cards(text: str, size: int | None = None) -> str | None:
    """Different tour card letters from A to M (``size`` of them, when given)."""
    cards = text.upper().split()
    if any(c not in KINDS for c in cards) or len(set(cards)) != len(cards):
        return "different letters from A to M, like A I L"
    if size is not None and len(cards) != size:
        return f"{size} cards are in play, you named {len(cards)}"
    return None
