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

import re
from collections.abc import Callable
from typing import Any

from companion.play.common import (
    Outcome,
    ask_players,
    choose_start,
    order_from,
    row_message,
    run_checklist,
)
from companion.play.pad import Pad, Row, review
from companion.play.setup import draw_tours, tour_count
from companion.play.table import Table
from scorers.kamakura import STATIONS

GAME = "kamakura"
COLORS = ("pink", "green", "blue")
END_COINS = 8
PER_CIRCLE = {2: 1, 3: 2, 4: 2}
# Printed values the rulebook lists (its table of site coins).
KNOWN_VALUES = {"B": 3, "O": 3, "K": 3, "M": 3, "F": 4}
VISIT = "Visited: took a site coin"
WALK = "Walked or took a rickshaw"
REST = "Rested (+1 point)"
CALL = "Called a taxi (took a ticket)"
USE = "Used a taxi ticket"
NONE = "No action"
KINDS = {**dict.fromkeys("ABCDEFGH", "collection"), **dict.fromkeys("IJK", "genre")}
KINDS.update({"L": "big_eater", "M": "rendezvous"})
EXCLUSIVE = ("collection", "genre")
SHORT = {
    VISIT: "visited",
    WALK: "walked",
    REST: "rested",
    CALL: "called a taxi",
    USE: "used a taxi ticket",
    NONE: "no action",
}
COIN = re.compile(r"^([A-Za-z])(\d{0,2})([pgbPGB]?)$")
TICKET = re.compile(r"^([A-Za-z])(\d{1,2})$")
Circles = dict[str, tuple[int, str]]
EIGHTH = "8"
LETTERS = {"v": VISIT, "w": WALK, "r": REST, "c": CALL, "u": USE, "n": NONE}
TURN_HELP = "v B visited circle B, w walked, r rested, c called a taxi, u used a ticket, n none"


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
        steps.done(t, "tours")
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


def board_coins(text: str) -> list[tuple[str, int, str]]:
    """``Bp C2g`` → circle, value (the rulebook's when it has one) and colour of each."""
    found = []
    for circle, value, color in parse_coins(text):
        value = value if value is not None else KNOWN_VALUES.get(circle)
        if value is not None and color is not None:
            found.append((circle, value, color))
    return found


def board_problem(text: str) -> str | None:
    """What is wrong with a set-up description of the board's site coins, or ``None``."""
    tokens = none_dash(text).split()
    bad = [token for token in tokens if not COIN.match(token)]
    if bad:
        return f"not a coin: {' '.join(bad)} (circle letter, value if needed, colour: C2p)"
    seen: set[str] = set()
    for circle, value, color in parse_coins(text):
        if circle in seen:
            return f"circle {circle} twice"
        seen.add(circle)
        if circle in STATIONS:
            return f"circle {circle} is a station: it holds no site coin"
        printed = KNOWN_VALUES.get(circle)
        if value is not None and printed is not None and value != printed:
            return f"circle {circle}'s coin is worth {printed} (the rulebook's value)"
        if color is None:
            return f"circle {circle}: add its colour letter (p, g or b), e.g. {circle}p"
        if value is None and printed is None:
            return f"circle {circle}: add the value printed on its coin, e.g. {circle}2p"
    return None


def likely(history: list[str]) -> str:
    """The action offered first: the one before the player's last, never the last one."""
    if not history:
        return VISIT
    last = history[-1]
    for action in reversed(history[:-1]):
        if action != last:
            return action
    return WALK if last == VISIT else VISIT


def turn_code(action: str) -> str:
    """The short answer for an action (``v`` for a visit, whose circle follows)."""
    return next((k for k, v in LETTERS.items() if v == action), "v")


def parse_turn(
    text: str, options: list[str]
) -> tuple[str | None, tuple[str, int | None, str | None] | None, str | None]:
    """A turn's answer → its action, the coin taken (for ``v B``) and the problem.

    The list's words (answers saved by older versions) are taken as they are.
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
    if head in LETTERS and len(parts) == 1:
        return LETTERS[head], None, None
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

        def check(text: str, options: list[str] = options, name: str = name) -> str | None:
            _, coin, problem = parse_turn(text, options)
            if problem or coin is None:
                return problem
            return visit_problem(coin, noted.coins[name], noted.circles, name)

        offered = likely(done[name])
        answer = t.text(
            f"turn.{number}",
            f"{heading} ({held} site coin{'' if held == 1 else 's'}{previous}). "
            f"Not the same action twice in a row. {TURN_HELP}"
            + (", 8 an 8th coin not seen" if final is None else "")
            + "?",
            check=check,
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


def none_dash(text: str) -> str:
    """An answer's items, commas as blanks; a lone ``-`` means none."""
    text = text.replace(",", " ")
    return "" if text.strip() == "-" else text


def parse_coins(text: str) -> list[tuple[str, int | None, str | None]]:
    """``B F G3p`` → circle, value (if typed) and colour (if typed) of each coin."""
    coins = []
    for token in none_dash(text).split():
        match = COIN.match(token)
        if not match:
            continue
        value = int(match.group(2)) if match.group(2) else None
        color = {"p": "pink", "g": "green", "b": "blue"}.get(match.group(3).lower())
        coins.append((match.group(1).upper(), value, color))
    return coins


def coins_problem(text: str, circles: Circles) -> str | None:
    """What is wrong with a line of site coins, or ``None``."""
    tokens = none_dash(text).split()
    bad = [token for token in tokens if not COIN.match(token)]
    if bad:
        return (
            f"not a coin: {' '.join(bad)} (a circle letter, plus its value and colour "
            "for a new circle, e.g. G3p)"
        )
    if len(tokens) > END_COINS:
        return f"{len(tokens)} coins: a Memento board holds {END_COINS}"
    seen: set[str] = set()
    for circle, value, color in parse_coins(text):
        if circle in seen:
            return f"circle {circle} twice: each player holds one coin of a circle at most"
        seen.add(circle)
        if circle in STATIONS:
            return f"circle {circle} is a station: it holds no site coin"
        known = circles.get(circle)
        printed = KNOWN_VALUES.get(circle)
        if value is not None and printed is not None and value != printed:
            return f"circle {circle}'s coin is worth {printed} (the rulebook's value)"
        if known and ((value is not None and value != known[0]) or (color and color != known[1])):
            return (
                f"circle {circle} was described as {known[0]} {known[1]}; change it on the "
                "score pad if that was wrong"
            )
    return None


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


def parse_described(text: str) -> tuple[tuple[int, str] | None, str | None]:
    """``3 pink`` (or ``3p``) → ``(3, "pink")``; else ``None`` and the problem."""
    match = re.fullmatch(r"\s*(\d{1,2})\s*([a-z]+)\s*", text.lower())
    if not match:
        return None, "the value, then the colour: e.g. 3 pink"
    color = [c for c in COLORS if c == match.group(2) or c[0] == match.group(2)]
    if len(color) != 1:
        return None, "the colour is pink, green or blue"
    return (int(match.group(1)), color[0]), None


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

    def check(text: str) -> str | None:
        bad = [part for part in none_dash(text).split() if not part.isdigit()]
        if bad:
            return f"not a value: {' '.join(bad)}"
        parts = none_dash(text).split()
        if len(parts) > 20 or any(int(p) > 20 for p in parts):
            return "at most 20 coins, each worth at most 20"
        return None

    text = t.text(key, message, check=check, default=" ".join(map(str, default)), topic=topic)
    return [int(p) for p in none_dash(text).split()]


def parse_tickets(text: str) -> list[dict[str, Any]]:
    """``B2 F3`` → taxi tickets (circle, bonus printed)."""
    tickets = []
    for token in none_dash(text).split():
        match = TICKET.match(token)
        if match:
            tickets.append({"circle": match.group(1).upper(), "points": int(match.group(2))})
    return tickets


def check_tickets(text: str) -> str | None:
    """Tokens like ``B2``: the ticket's circle and the bonus printed on it."""
    tokens = none_dash(text).split()
    bad = [token for token in tokens if not TICKET.match(token)]
    if bad:
        return f"not a ticket: {' '.join(bad)} (circle letter and bonus, e.g. B2)"
    if len(tokens) > 11:
        return "there are 11 taxi tickets"
    return None


def show_tickets(tickets: list[dict[str, Any]]) -> str:
    """``B2 F3`` or ``-``."""
    return " ".join(f"{x['circle']}{x['points']}" for x in tickets) or "-"


def ask_tour(
    t: Table, key: str, card: str, current: dict[str, Any] | None = None
) -> dict[str, Any]:
    """What is printed on one exclusive tour card, in one answer."""
    kind = KINDS[card]
    if kind in ("big_eater", "rendezvous"):
        points = t.number(
            key,
            f"Card {card} ({'big eater' if kind == 'big_eater' else 'rendezvous'}): bonus printed?",
            high=30,
            default=current["points"] if current else None,
            topic="tour-cards",
        )
        return {"card": card, "kind": kind, "points": points}
    if kind == "collection":
        message = f"Card {card} (collection): circles shown, then the bonus (e.g. B F K 5)?"
        shown = f"{' '.join(current['circles'])} {current['points']}" if current else ""
    else:
        message = f"Card {card} (genre): its colour, then the bonus (e.g. pink 4)?"
        shown = f"{current['color']} {current['points']}" if current else ""
    text = t.text(
        key,
        message,
        check=lambda text: parse_tour(card, text)[1],
        default=shown,
        topic="tour-cards",
    )
    tour, _ = parse_tour(card, text)
    assert tour is not None
    return tour


def parse_tour(card: str, text: str) -> tuple[dict[str, Any] | None, str | None]:
    """A collection (``B F K 5``) or genre (``pink 4``) card's answer; or the problem."""
    parts = text.replace(",", " ").split()
    if len(parts) < 2 or not parts[-1].isdigit() or int(parts[-1]) > 30:
        return None, "end with the bonus printed on the card, a number up to 30"
    points = int(parts[-1])
    if KINDS[card] == "collection":
        circles = [p.upper() for p in parts[:-1]]
        if any(len(c) != 1 or not c.isalpha() for c in circles) or len(set(circles)) < len(circles):
            return None, "different circle letters, then the bonus: e.g. B F K 5"
        return {"card": card, "kind": "collection", "circles": circles, "points": points}, None
    color = [c for c in COLORS if len(parts) == 2 and parts[0].lower() in (c, c[0])]
    if not color:
        return None, "the colour (pink, green or blue), then the bonus: e.g. pink 4"
    return {"card": card, "kind": "genre", "color": color[0], "points": points}, None


def show_tour(tour: dict[str, Any]) -> str:
    """A tour card as printed, in a few words."""
    if tour["kind"] == "collection":
        return f"{' '.join(tour['circles'])}: {tour['points']}"
    if tour["kind"] == "genre":
        return f"4+ {tour['color']}: {tour['points']}"
    return str(tour["points"])


def meets(tour: dict[str, Any], coins: list[str], circles: Circles) -> bool:
    """Whether a player with ``coins`` meets a collection or genre card."""
    if tour["kind"] == "collection":
        return all(c in coins for c in tour["circles"])
    return sum(1 for c in coins if c in circles and circles[c][1] == tour["color"]) >= 4


def check_pieces(text: str) -> str | None:
    """Two circle letters."""
    parts = text.upper().split()
    if len(parts) != 2 or any(len(p) != 1 or not p.isalpha() for p in parts):
        return "two circle letters, like A N"
    if parts[0] == parts[1] and parts[0] not in ("A", "N"):
        return f"both pieces on circle {parts[0]}: only A and N hold more than one piece"
    return None


def pad_rows(
    names: list[str], tours: list[str], advanced: bool, circles: Circles, pieces: bool
) -> list[Row]:
    """Per player: track, site coins, eat-around coins, pieces (card M), taxi tickets;
    for the table: each tour card, who completed it first, and each circle's coin."""

    def track(t: Table, key: str, seat: int | None, current: Any) -> int:
        assert seat is not None
        return t.number(
            key,
            f"{names[seat]}: point track before the count?",
            high=99,
            default=current,
            topic="scoring-track",
        )

    def coins(t: Table, key: str, seat: int | None, current: Any) -> list[str]:
        assert seat is not None
        return ask_coins(t, key, names[seat], circles, current)

    def eat(t: Table, key: str, seat: int | None, current: Any) -> list[int]:
        assert seat is not None
        return numbers_line(
            t,
            key,
            f"{names[seat]}: eat-around coin values (e.g. 2 1 3; - for none)?",
            current or [],
            "scoring-eat-coins",
        )

    def where(t: Table, key: str, seat: int | None, current: Any) -> list[str]:
        assert seat is not None
        return ask_pieces(t, key, names[seat], current)

    def tickets(t: Table, key: str, seat: int | None, current: Any) -> list[dict[str, Any]]:
        assert seat is not None
        return ask_tickets(t, key, names[seat], None, current)

    rows = [
        Row("track", "Point track", track),
        Row("coins", "Site coins", coins, lambda v: " ".join(v) or "-"),
        Row("eat", "Eat-around coins", eat, lambda v: " ".join(map(str, v)) or "-"),
    ]
    if pieces:
        rows.append(Row("pieces", "Pieces", where, " ".join))
    rows.append(Row("tickets", "Taxi tickets", tickets, show_tickets))
    for card in tours:

        def tour(t: Table, key: str, seat: int | None, current: Any, card: str = card) -> Any:
            return ask_tour(t, key, card, current)

        rows.append(Row(f"tour.{card}", f"Card {card}", tour, show_tour, shared=True))
        if advanced and KINDS[card] in EXCLUSIVE:

            def claim(t: Table, key: str, seat: int | None, current: Any, card: str = card) -> Any:
                return ask_claim(t, key, card, names, current)

            rows.append(
                Row(
                    f"claim.{card}",
                    f"Card {card} completed first by",
                    claim,
                    lambda v: v or "-",
                    shared=True,
                )
            )
    return rows


def circle_row(circle: str, circles: Circles) -> Row:
    """The shared row describing one circle's coin (a fix changes it for every player)."""

    def coin(t: Table, key: str, seat: int | None, current: Any) -> tuple[int, str]:
        circles[circle] = ask_circle(t, key, circle, None, current)
        return circles[circle]

    return Row(f"circle.{circle}", f"Circle {circle} coin", coin, lambda v: f"{v[0]} {v[1]}", True)


def sync_circles(pad: Pad, circles: Circles) -> None:
    """A row for every circle described so far (a fixed coin line may add one)."""
    for circle in sorted(circles):
        if f"circle.{circle}" not in pad.values:
            pad.rows.append(circle_row(circle, circles))
            pad.values[f"circle.{circle}"] = circles[circle]


def ask_pieces(t: Table, key: str, name: str, current: list[str] | None = None) -> list[str]:
    """The circles of a player's two pieces (for card M, the rendezvous)."""
    text = t.text(
        key,
        f"{name}: circles of your two pieces (e.g. A N)?",
        check=check_pieces,
        default=" ".join(current or []),
        topic="tour-cards",
    )
    return text.upper().split()


def ask_tickets(
    t: Table, key: str, name: str, expected: int | None, current: list[dict[str, Any]] | None
) -> list[dict[str, Any]]:
    """A player's unused taxi tickets: circle and bonus of each, in one answer."""
    hint = f" (you noted {expected})" if expected is not None else ""
    text = t.text(
        key,
        f"{name}: unused taxi tickets{hint}, circle and bonus of each (e.g. B2 F3; - for none)?",
        check=check_tickets,
        default=show_tickets(current).replace("-", "") if current else "",
        topic="taxi-tickets",
    )
    return parse_tickets(text)


NOBODY = "Nobody completed it"


def ask_claim(t: Table, key: str, card: str, names: list[str], current: Any) -> str | None:
    """Who completed an exclusive tour card first (advanced rules); ``None`` for nobody.

    Nobody can be chosen, so that a name given by mistake can be taken back.
    """
    answer = t.choose(
        key,
        f"Card {card}: who completed it first?",
        [*names, NOBODY],
        current,
        topic="advanced-rules",
    )
    return None if answer == NOBODY else answer


def build(pad: Pad, tours: list[str], advanced: bool, circles: Circles) -> dict[str, Any]:
    """The score file from the pad."""
    sync_circles(pad, circles)
    circles_known: Circles = {
        row.id.split(".")[1]: pad.get(row.id) for row in pad.rows if row.id.startswith("circle.")
    }
    cards = []
    for k, card in enumerate(tours):
        tour = dict(pad.get(f"tour.{card}"))
        pad.paths[f"tours[{k}]"] = f"tour.{card}"
        if advanced and KINDS[card] in EXCLUSIVE:
            claimed = pad.get(f"claim.{card}")
            pad.paths[f"tours[{k}].claimed_by"] = f"claim.{card}"
            if claimed:
                tour["claimed_by"] = claimed
        cards.append(tour)
    players = []
    for seat, name in enumerate(pad.names):
        path = f"players[{seat}]"
        for field, row in (
            ("track", "track"),
            ("site_coins", "coins"),
            ("eat_coins", "eat"),
            ("pieces", "pieces"),
            ("taxi_tickets", "tickets"),
        ):
            pad.paths[f"{path}.{field}"] = pad.key(row, seat)
        coins = []
        for k, circle in enumerate(pad.get("coins", seat)):
            value, color = circles_known[circle]
            coins.append({"circle": circle, "value": value, "color": color})
            pad.paths[f"{path}.site_coins[{k}].value"] = f"circle.{circle}"
            pad.paths[f"{path}.site_coins[{k}].color"] = f"circle.{circle}"
        has_pieces = any(r.id == "pieces" for r in pad.rows)
        players.append(
            {
                "name": name,
                "track": pad.get("track", seat),
                "site_coins": coins,
                "eat_coins": pad.get("eat", seat),
                # Only card M reads the pieces: without it they are not asked, and
                # the file records them at their start circles.
                "pieces": pad.get("pieces", seat) if has_pieces else ["A", "N"],
                "taxi_tickets": pad.get("tickets", seat),
            }
        )
    return {"game": GAME, "advanced": advanced, "tours": cards, "players": players}


def table_problems(pad: Pad, file: dict[str, Any]) -> list[tuple[str, list[str]]]:
    """Coins over the supply, and exclusive cards several players meet with nobody named."""
    found: list[tuple[str, list[str]]] = []
    count = len(pad.names)
    per_circle = PER_CIRCLE.get(count, 2)
    holders: dict[str, list[int]] = {}
    for seat in range(count):
        for circle in pad.get("coins", seat):
            holders.setdefault(circle, []).append(seat)
    for circle, seats in sorted(holders.items()):
        if len(seats) > per_circle:
            found.append(
                (
                    f"{len(seats)} site coins of circle {circle} (at most {per_circle} "
                    f"with {count} players)",
                    [pad.key("coins", s) for s in seats],
                )
            )
    circles = {
        row.id.split(".")[1]: pad.get(row.id) for row in pad.rows if row.id.startswith("circle.")
    }
    for tour in file["tours"]:
        if not file["advanced"] or tour["kind"] not in EXCLUSIVE:
            continue
        who = [n for s, n in enumerate(pad.names) if meets(tour, pad.get("coins", s), circles)]
        claimed = tour.get("claimed_by")
        cell = f"claim.{tour['card']}"
        if len(who) > 1 and claimed not in who:
            found.append(
                (f"{' and '.join(who)} meet card {tour['card']}: who completed it first?", [cell])
            )
        elif claimed and claimed not in who:
            found.append((f"{claimed} does not meet card {tour['card']}", [cell]))
    return found


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
    t.at("scoring", "final count", "tour-cards")
    printed = {card: ask_tour(t, f"score.tour.{card}", card) for card in tours}
    if track is None:
        t.at("scoring", "final count", "scoring-track")
        track = t.numbers(
            "score.track", row_message("Point track before the count", names), count, high=99
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
    pieces = "M" in tours
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
    pad = Pad(names, pad_rows(names, tours, advanced, circles, pieces))
    sync_circles(pad, circles)
    for seat in range(count):
        pad.values[pad.key("track", seat)] = track[seat]
        pad.values[pad.key("coins", seat)] = coins[seat]
        pad.values[pad.key("eat", seat)] = eat[seat]
        pad.values[pad.key("tickets", seat)] = held[seat]
        if pieces:
            pad.values[pad.key("pieces", seat)] = where[seat]
    for card in tours:
        pad.values[f"tour.{card}"] = printed[card]
        if advanced and KINDS[card] in EXCLUSIVE:
            pad.values[f"claim.{card}"] = None
    t.at("scoring", "score pad", "game-end")
    return review(
        t,
        pad,
        game=GAME,
        build=lambda p: build(p, tours, advanced, circles),
        extra=with_noted_tickets(tickets),
        title="Kamakura Collection: final count",
    )


def with_noted_tickets(
    noted: list[int] | None,
) -> Callable[[Pad, dict[str, Any]], list[tuple[str, list[str]]]]:
    """:func:`table_problems`, and a player's unused taxi tickets on the pad fewer than
    the turns noted (taken and not used): flagged, naming the player ("you noted 2, 1
    shown"). Kept as it is when asked again, the pad's count stands."""
    flagged: dict[int, int] = {}  # seat -> the count shown when it was flagged

    def problems(pad: Pad, file: dict[str, Any]) -> list[tuple[str, list[str]]]:
        found = table_problems(pad, file)
        for seat, expected in enumerate(noted or []):
            shown = len(pad.get("tickets", seat))
            if shown >= expected:
                flagged.pop(seat, None)
                continue
            if flagged.get(seat) == shown:
                continue  # flagged, asked again and kept: the pad's count stands
            flagged[seat] = shown
            found.append(
                (
                    f"{pad.names[seat]}: you noted {expected} unused taxi "
                    f"{'ticket' if expected == 1 else 'tickets'}, {shown} shown "
                    "(Enter keeps the pad's count)",
                    [pad.key("tickets", seat)],
                )
            )
        return found

    return problems


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


def check_cards(text: str, size: int | None = None) -> str | None:
    """Different tour card letters from A to M (``size`` of them, when given)."""
    cards = text.upper().split()
    if not cards or any(c not in KINDS for c in cards) or len(set(cards)) != len(cards):
        return "different letters from A to M, like A I L"
    if size is not None and len(cards) != size:
        return f"{size} cards are in play, you named {len(cards)}"
    return None
