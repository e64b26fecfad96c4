"""Playing Kamakura Collection along: tour cards, trackers, turns and the last round.

During the turns the companion notes what the count needs: the site coins taken
(in Memento-board order), rests (the point track) and taxi tickets. A circle's
coin is described once for the whole table: its colour, and its value when
the rulebook does not give it (B, O, K and M are worth 3, F 4), either all
at set-up in one answer (``Bp Og C2p``, as the board shows them) or when a
coin of the circle is first taken. The end count then asks only what the
table has not told it yet.

A turn is one short answer: ``w`` walked, ``r`` rested, ``c`` called a taxi,
``u`` used a ticket, ``n`` no action, ``v B`` visited circle B (``8`` when a
player took an 8th coin the companion did not see). Enter takes the action
offered: the one the player did before their last, never their last one.
Answers saved by older versions (the list's words) still replay.
"""

from __future__ import annotations

import functools
from typing import Any

from companion.kits import KITS, PadOptions
from companion.kits.kamakura import GAME, RENDEZVOUS, draw_tours, tour_count
from companion.kits.kamakura.codes import (
    END_COINS,
    KNOWN_VALUES,
    Circles,
    NumbersCodec,
    PiecesCodec,
    TicketsCodec,
    TourCodec,
    board_coins,
    board_problem,
    check_cards,
    coins_problem,
    kind_words,
    parse_coins,
    parse_described,
)
from companion.kits.pad import bound
from companion.play.common import (
    Outcome,
    ask_players,
    choose_start,
    order_from,
    row_message,
    run_checklist,
)
from companion.play.score_pad import Pad, review
from companion.play.table import Table
from scorers.kamakura import CARD_KINDS, COLORS

__all__ = ["board_coins", "board_problem", "coins_problem", "flow", "score_only"]

VISIT = "Visited: took a site coin"
WALK = "Walked or took a rickshaw"
REST = "Rested (+1 point)"
CALL = "Called a taxi (took a ticket)"
USE = "Used a taxi ticket"
NONE = "No action"
SHORT = {
    VISIT: "visited",
    WALK: "walked",
    REST: "rested",
    CALL: "called a taxi",
    USE: "used a taxi ticket",
    NONE: "no action",
}
EIGHTH = "8"
LETTERS = {"v": VISIT, "w": WALK, "r": REST, "c": CALL, "u": USE, "n": NONE}
TURN_HELP = (
    "B (or v B) visited circle B, w walked, r rested, c called a taxi, u used a ticket, n none"
)


def flow(t: Table) -> Outcome:
    """The whole trip: set-up draws, turns until 8 site coins, and the count."""
    names = ask_players(t, GAME)
    count = len(names)
    steps = run_checklist(t, GAME, count)
    t.at("setup", "tour cards", "advanced-rules")
    advanced = count == 2 or t.yes("advanced", "Play with the advanced rules?", default=False)
    t.at("setup", "tour cards", "tour-cards")
    first_game = t.yes("first_game", "First game (leave out tour cards L and M)?", default=False)
    size = tour_count(count, advanced=advanced)
    if t.yes("draw_tours", f"Draw the {size} exclusive tour cards for you?"):
        seed = t.seed("tours")
        tours = draw_tours(count, seed, advanced=advanced, first_game=first_game)
        t.say(f"Exclusive tour cards (seed {seed}, {size}): {', '.join(tours)}.")
        left_out = " (L and M left out: first game)" if first_game else ""
        steps.done(t, "tours", f"Turn up {size} exclusive tour cards{left_out}.")
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
    t.at("setup", "start player", "setup")
    first = choose_start(t, "Who visited Kamakura most recently?", names)
    steps.done(t, "start")
    order = order_from(names, first)
    t.say("Point trackers: " + ", ".join(f"{n} on {k}" for k, n in enumerate(order)) + ".")
    circles: Circles = {}
    if t.next_saved() in (None, "circles"):  # older sessions were not asked this
        t.at("setup", "site coins", "site-coins")
        circles = ask_board(t, "circles")
    noted = play_turns(t, names, order, circles)
    t.round("final count")
    t.at("scoring", "final count", "tour-cards")
    t.say("Count the points.")
    file = count_up(
        t,
        names,
        tours,
        advanced,
        track=[order.index(n) + noted.rests[n] for n in names],
        coins=[noted.coins[n] for n in names] if noted.complete else None,
        noted_coins=[noted.coins[n] for n in names],
        tickets=[noted.tickets[n] for n in names],
        circles=noted.circles,
    )
    return Outcome(file, start_player=first)


class Noted:
    """What the turns told the companion."""

    def __init__(self, names: list[str]) -> None:
        self.coins: dict[str, list[str]] = {n: [] for n in names}
        self.rests = dict.fromkeys(names, 0)
        self.tickets = dict.fromkeys(names, 1)
        self.circles: Circles = {}
        self.complete = True


def ask_board(t: Table, key: str) -> Circles:
    """The site coins on the board at set-up, described in one answer (Enter: later).

    Each circle as the board shows it: its letter, the value printed when the
    rulebook gives none, and the colour's letter (``Bp Og C2p D3g``).
    """

    def check(text: str) -> str | None:
        return board_problem(text)

    text = t.text(
        key,
        "Site coins on the board for the whole table: each circle's letter, value (C, D, ...) "
        "and colour letter, e.g. Bp Og C2p (B O K M are worth 3, F 4; Enter: describe each "
        "coin when it is first taken)?",
        check=check,
        topic="site-coins",
    )
    return {c: (v, col) for c, v, col in board_coins(text)}


def likely(history: list[str]) -> str:
    """The action offered first: the player's usual one, never the last one, never a visit.

    A visit is never offered: its circle is typed anyway, and a circle's
    letter alone is a visit. The offer is the action other than a visit that
    the player took most often, leaving out the last one (no action twice in a
    row); of equals, the latest. A first turn offers a walk: every piece starts
    on a station, where there is no site coin to take.
    """
    last = history[-1] if history else None
    taken = [action for action in history if action not in (VISIT, last)]
    if not taken:
        return REST if last == WALK else WALK
    latest = {action: k for k, action in enumerate(taken)}
    return max(latest, key=lambda action: (taken.count(action), latest[action]))


ONE_SPOT = (REST, CALL)
"""Actions with a single spot on the action board: a cat marker already there cannot stay."""


def again_problem(name: str, action: str) -> str | None:
    """Why ``action`` cannot follow the same action by ``name`` (``None``: it can).

    A cat marker must move to another spot each turn. Rest and the taxi call
    have one spot each, so neither can be taken two turns running; walking
    and visiting have a spot per colour (and the rickshaw), and using a ticket
    or no action takes the marker off the board, so those may follow themselves.
    """
    if action not in ONE_SPOT:
        return None
    return (
        f"{name} {SHORT[action]} last turn: not the same action twice in a row "
        "(another action, or n for none)"
    )


def turn_code(action: str) -> str:
    """The short answer for an action (``v`` for a visit, whose circle follows)."""
    return next((k for k, v in LETTERS.items() if v == action), "v")


def parse_turn(
    text: str, options: list[str]
) -> tuple[str | None, tuple[str, int | None, str | None] | None, str | None]:
    """A turn's answer → its action, the coin taken (for ``v B``) and the problem.

    The list's words (answers saved by older versions) are taken as they are.
    A circle's letter alone is a visit there (``B``); the action letters keep
    their meaning, so circle C alone is a capital ``C`` (``c`` calls a taxi).
    """
    if text in options:
        return text, None, None
    parts = text.split(maxsplit=1)
    head = parts[0].lower() if parts else ""
    eighth = options[-1] if options[-1] not in SHORT else None
    if head == EIGHTH and len(parts) == 1:
        if eighth is None:
            return None, None, "the last turns have begun already: no 8 here"
        return eighth, None, None
    if head.startswith("v") and (len(parts) == 2 or len(head) > 1):
        rest = parts[1] if len(parts) == 2 else parts[0][1:]
        coins = parse_coins(rest)
        if len(rest.split()) != 1 or len(coins) != 1:
            return None, None, "v and one circle letter, like v B"
        return VISIT, coins[0], None
    if head in LETTERS and len(parts) == 1 and parts[0] != "C":
        return LETTERS[head], None, None
    if len(parts) == 1 and head != EIGHTH:  # a circle alone: ``B`` is ``v B`` (``C``, not ``c``)
        coins = parse_coins(parts[0])
        if len(coins) == 1:
            return VISIT, coins[0], None
    extra = ", 8 someone took an 8th coin" if eighth else ""
    return None, None, f"one of: {TURN_HELP}{extra}"


def play_turns(
    t: Table, names: list[str], order: list[str], circles: Circles | None = None
) -> Noted:
    """Turns clockwise until someone has 8 site coins, then everyone else's last turn."""
    count = len(names)
    noted = Noted(names)
    noted.circles = circles if circles is not None else {}
    last: dict[str, str] = {}
    done: dict[str, list[str]] = {n: [] for n in names}
    final: list[str] | None = None
    number = 0
    while final is None or final:
        name = final.pop(0) if final is not None else order[number % count]
        number += 1
        held = len(noted.coins[name])
        t.round(f"round {(number - 1) // count + 1}")
        t.at("turn", f"round {(number - 1) // count + 1}, {name}'s turn", "actions")
        heading = (
            f"Last turns: {name} ({len(final) + 1} to go)"
            if final is not None
            else f"Round {(number - 1) // count + 1} · {name}'s turn"
        )
        previous = f"; last turn: {SHORT[last[name]]}" if name in last else ""
        eighth = f"{name} took an 8th site coin (from here, everyone's last turn)"
        options = [VISIT, WALK, REST, CALL, USE, NONE]
        if final is None:
            options.append(eighth)

        def check(
            text: str, options: list[str] = options, name: str = name, before: str | None = None
        ) -> str | None:
            action, coin, problem = parse_turn(text, options)
            if problem:
                return problem
            # Live answers only: a game saved before this check replays as it was played.
            again = action == before and action is not None and t.next_saved() is None
            if again and (wrong := again_problem(name, str(action))):
                return wrong
            if coin is None:
                return None
            return visit_problem(coin, noted.coins[name], noted.circles, name)

        offered = likely(done[name])
        answer = t.text(
            f"turn.{number}",
            f"{heading} ({held} site coin{'' if held == 1 else 's'}{previous}). "
            f"Not the same action twice in a row. {TURN_HELP}"
            + (", 8 an 8th coin not seen" if final is None else "")
            + "?",
            check=functools.partial(check, before=last.get(name)),
            default=turn_code(offered) + (" " if offered == VISIT else ""),
        )
        action, typed, _ = parse_turn(answer, options)
        assert action is not None
        done[name].append(action if action in SHORT else VISIT)
        last[name] = action if action in SHORT else VISIT
        if action == VISIT:
            t.at("turn", f"round {(number - 1) // count + 1}, {name}'s turn", "coins")
            if typed is None:
                coin = ask_coin(t, f"turn.{number}.coin", name, noted.coins[name], noted.circles)
            else:
                circle, value, color = typed
                describe(t, circle, value, color, noted.circles)
                coin = circle
            noted.coins[name].append(coin)
        elif action == REST:
            noted.rests[name] += 1
        elif action == CALL:
            noted.tickets[name] += 1
        elif action == USE:
            noted.tickets[name] = max(0, noted.tickets[name] - 1)
        elif action == eighth:
            noted.complete = False
        if final is None and (len(noted.coins[name]) >= END_COINS or action == eighth):
            seat = order.index(name)
            final = [order[(seat + k) % count] for k in range(1, count)]
            t.say(f"{name} has {END_COINS} site coins: everyone else gets one last turn.")
    return noted


def visit_problem(
    coin: tuple[str, int | None, str | None], held: list[str], circles: Circles, name: str
) -> str | None:
    """What is wrong with the coin of a visit (``v B``), or ``None``."""
    circle, value, color = coin
    text = f"{circle}{'' if value is None else value}{(color or '')[:1]}"
    problem = coins_problem(text, circles)
    if problem:
        return problem
    if circle in held:
        return f"{name} already has the coin of circle {circle}"
    return None


def ask_coin(t: Table, key: str, name: str, held: list[str], circles: Circles) -> str:
    """The site coin just taken: its circle (described once if it is new)."""

    def check(text: str) -> str | None:
        problem = coins_problem(text, circles)
        if problem:
            return problem
        letters = parse_coins(text)
        if len(letters) != 1:
            return "one coin: its circle letter, like B"
        return visit_problem(letters[0], held, circles, name)

    text = t.text(key, f"{name}: which site coin (its circle letter, e.g. B)?", check=check)
    [(circle, value, color)] = parse_coins(text)
    describe(t, circle, value, color, circles)
    return circle


def describe(t: Table, circle: str, value: int | None, color: str | None, circles: Circles) -> None:
    """Ask what is printed on a circle's coin, unless known (once for the whole table)."""
    if circle in circles:
        return
    value = value if value is not None else KNOWN_VALUES.get(circle)
    if color is None or value is None:
        value, color = ask_circle(t, f"circle.{circle}", circle, value)
    circles[circle] = (value, color)


def ask_circle(
    t: Table, key: str, circle: str, value: int | None, current: tuple[int, str] | None = None
) -> tuple[int, str]:
    """A circle's coin as printed: its colour, and its value when the rulebook has none."""
    printed = KNOWN_VALUES.get(circle, value if current is None else None)
    if circle in KNOWN_VALUES:
        color = t.choose(
            key,
            f"Circle {circle}'s site coin ({KNOWN_VALUES[circle]} points): colour?",
            COLORS,
            current[1] if current else None,
            topic="site-coins",
        )
        return KNOWN_VALUES[circle], color

    def check(text: str) -> str | None:
        return parse_described(text)[1]

    shown = f"{current[0]} {current[1]}" if current else (f"{printed} " if printed else "")
    text = t.text(
        key,
        f"Circle {circle}'s site coin as printed: value and colour (e.g. 3 pink)?",
        check=check,
        default=shown.strip(),
        topic="site-coins",
    )
    described, _ = parse_described(text)
    assert described is not None
    return described


def ask_coins(
    t: Table, key: str, name: str, circles: Circles, default: list[str] | None = None
) -> list[str]:
    """A player's site coins in Memento-board order, in one answer; new circles described."""
    text = t.text(
        key,
        f"{name}: site coins from Memento spot 1 (e.g. B F K; a new circle with its value and "
        "colour, e.g. G3p; - for none)?",
        check=lambda text: coins_problem(text, circles),
        default=" ".join(default or []),
        topic="memento-board",
    )
    coins = parse_coins(text)
    for circle, value, color in coins:
        describe(t, circle, value, color, circles)
    return [c for c, _, _ in coins]


def numbers_line(t: Table, key: str, message: str, default: list[int], topic: str) -> list[int]:
    """Whole numbers separated by blanks (``-`` or nothing for none)."""
    codec = NumbersCodec()
    text = t.text(
        key,
        message,
        check=lambda text: codec.read(text)[1],
        default=codec.write(default),
        topic=topic,
    )
    values, _ = codec.read(text)
    return list(values)


def ask_tour(
    t: Table, key: str, card: str, current: dict[str, Any] | None = None
) -> dict[str, Any]:
    """What is printed on one exclusive tour card, in one answer."""
    kind = CARD_KINDS[card]
    codec = TourCodec(card)
    if kind in ("big_eater", "rendezvous"):
        _, high = bound(GAME, "tours.points")
        points = t.number(
            key,
            f"Card {card} ({kind_words(kind)}): bonus printed?",
            high=high,
            default=current["points"] if current else None,
            topic="tour-cards",
        )
        return {"card": card, "kind": kind, "points": points}
    if kind == "collection":
        message = f"Card {card} (collection): circles shown, then the bonus (e.g. B F K 5)?"
    else:
        message = f"Card {card} (genre): its colour, then the bonus (e.g. pink 4)?"
    text = t.text(
        key,
        message,
        check=lambda text: codec.read(text)[1],
        default=codec.write(current) if current else "",
        topic="tour-cards",
    )
    tour, _ = codec.read(text)
    assert tour is not None
    return dict(tour)


def ask_pieces(t: Table, key: str, name: str, current: list[str] | None = None) -> list[str]:
    """The circles of a player's two pieces (for card M, the rendezvous)."""
    codec = PiecesCodec()
    text = t.text(
        key,
        f"{name}: circles of your two pieces (e.g. A N)?",
        check=lambda text: codec.read(text)[1],
        default=codec.write(current),
        topic="tour-cards",
    )
    return list(codec.read(text)[0])


def ask_tickets(
    t: Table, key: str, name: str, expected: int | None, current: list[dict[str, Any]] | None
) -> list[dict[str, Any]]:
    """A player's unused taxi tickets: circle and bonus of each, in one answer."""
    codec = TicketsCodec()
    hint = f" (you noted {expected})" if expected is not None else ""
    text = t.text(
        key,
        f"{name}: unused taxi tickets{hint}, circle and bonus of each (e.g. B2 F3; - for none)?",
        check=lambda text: codec.read(text)[1],
        default=codec.write(current),
        topic="taxi-tickets",
    )
    return list(codec.read(text)[0])


def coin_values(coins: list[str], circles: Circles) -> list[dict[str, Any]]:
    """Circle letters → the site coins as the score file holds them (value and colour)."""
    return [{"circle": c, "value": circles[c][0], "color": circles[c][1]} for c in coins]


def count_up(
    t: Table,
    names: list[str],
    tours: list[str],
    advanced: bool,
    *,
    track: list[int] | None,
    coins: list[list[str]] | None,
    noted_coins: list[list[str]] | None = None,
    tickets: list[int] | None,
    circles: Circles,
) -> dict[str, Any]:
    """Ask what the turns did not tell, then the score pad."""
    count = len(names)
    context = {"tours": tours, "advanced": advanced, "tickets": tickets}
    t.at("scoring", "final count", "tour-cards")
    printed = {card: ask_tour(t, f"score.tour.{card}", card) for card in tours}
    if track is None:
        t.at("scoring", "final count", "scoring-track")
        spec = KITS[GAME].pad(PadOptions(count, tuple(names), context=context))
        high = next(row.high for row in spec.rows if row.id == "track")
        assert high is not None
        track = t.numbers(
            "score.track", row_message("Point track before the count", names), count, high=high
        )
    if coins is None:
        t.at("scoring", "final count", "memento-board")
        coins = [
            ask_coins(t, f"score.{seat}.coins", name, circles, (noted_coins or [[]] * count)[seat])
            for seat, name in enumerate(names)
        ]
    t.at("scoring", "final count", "scoring-eat-coins")
    eat = [
        numbers_line(
            t,
            f"score.{seat}.eat",
            f"{name}: eat-around coin values (e.g. 2 1 3; - for none)?",
            [],
            "scoring-eat-coins",
        )
        for seat, name in enumerate(names)
    ]
    pieces = RENDEZVOUS in tours
    where = (
        [ask_pieces(t, f"score.{seat}.pieces", n) for seat, n in enumerate(names)] if pieces else []
    )
    held = [
        ask_tickets(
            t, f"score.{seat}.tickets", name, None if tickets is None else tickets[seat], None
        )
        if tickets is None or tickets[seat]
        else []
        for seat, name in enumerate(names)
    ]
    spec = KITS[GAME].pad(
        PadOptions(count, tuple(names), context={**context, "circles": dict(circles)})
    )
    pad = Pad(GAME, names, spec)
    for seat in range(count):
        pad.put("track", seat, track[seat])
        pad.put("coins", seat, coin_values(coins[seat], circles))
        pad.put("eat", seat, eat[seat])
        pad.put("tickets", seat, held[seat])
        if pieces:
            pad.put("pieces", seat, where[seat])
    for card in tours:
        pad.put(f"tour.{card}", None, printed[card])
    t.at("scoring", "score pad", "game-end")
    return review(t, pad, title="Kamakura Collection: final count")


def score_only(t: Table) -> Outcome:
    """Just the final count, for ``companion score kamakura``."""
    names = ask_players(t, GAME)
    t.at("scoring", "tour cards", "advanced-rules")
    advanced = len(names) == 2 or t.yes(
        "advanced", "Played with the advanced rules?", default=False
    )
    t.at("scoring", "tour cards", "tour-cards")
    cards = t.text("tours", "Exclusive tour cards in play (e.g. A I L)?", check=check_cards)
    circles: Circles = {}
    return Outcome(
        count_up(
            t,
            names,
            cards.upper().split(),
            advanced,
            track=None,
            coins=None,
            tickets=None,
            circles=circles,
        )
    )
