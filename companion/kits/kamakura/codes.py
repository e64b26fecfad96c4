"""Kamakura's entry codes: site coins (``Bp C2g``), tickets (``B2``), tour cards (``B F K 5``).

Pure text in, JSON values out: the play-along flow asks with them, and the
score pad's rows read and write a cell's value with the codecs here
(:class:`companion.kits.pad.Codec`). The colours, card kinds and limits are the
scorer's (:mod:`scorers.kamakura`).

Example:
    >>> CoinsCodec().read("Bp C2g")[0]
    [{'circle': 'B', 'value': 3, 'color': 'pink'}, {'circle': 'C', 'value': 2, 'color': 'green'}]
    >>> CoinsCodec().write([{"circle": "C", "value": 2, "color": "green"}])
    'C2g'
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from scorers.kamakura import (
    CARD_KINDS,
    COLORS,
    EAT_COINS,
    MAX_COIN_VALUE,
    MAX_TOUR_POINTS,
    MEMENTO_SPOTS,
    STATIONS,
    TAXI_TICKETS,
)

END_COINS = MEMENTO_SPOTS
"""A Memento board full of site coins ends the game."""
KNOWN_VALUES = {"B": 3, "O": 3, "K": 3, "M": 3, "F": 4}
"""Printed values the rulebook lists (its table of site coins)."""
EXCLUSIVE = ("collection", "genre")
"""The kinds of tour card only one player earns with the advanced rules."""
TICKET = re.compile(r"^([A-Za-z])(\d{1,2})$")
Circles = dict[str, tuple[int, str]]
"""What is printed on each circle's coin: its value and colour, by circle letter."""


def initial(color: str) -> str:
    """A colour's letter (``p`` for pink)."""
    return color[:1]


COLOR_LETTERS = {initial(c): c for c in COLORS}
"""Each colour by its letter (``p``: pink)."""
_LETTERS = "".join(COLOR_LETTERS)
COIN = re.compile(rf"^([A-Za-z])(\d{{0,2}})([{_LETTERS}{_LETTERS.upper()}]?)$")
"""A coin as typed: circle letter, value (optional), colour letter (optional)."""


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
        color = COLOR_LETTERS.get(match.group(3).lower())
        coins.append((match.group(1).upper(), value, color))
    return coins


def coin_token_problem(tokens: Sequence[str], what: str) -> str | None:
    """The tokens that are not coins (``B``, ``C2p``), named; or ``None``."""
    bad = [t for t in tokens if not COIN.match(t)]
    if bad:
        return f"not a coin: {' '.join(bad)} ({what})"
    return None


def circle_problem(circle: str, value: int | None, seen: set[str], twice: str) -> str | None:
    """What no coin of ``circle`` can be (named twice, a station, another printed value);
    ``circle`` joins ``seen``."""
    if circle in seen:
        return f"circle {circle} {twice}"
    seen.add(circle)
    if circle in STATIONS:
        return f"circle {circle} is a station: it holds no site coin"
    printed = KNOWN_VALUES.get(circle)
    if value is not None and printed is not None and value != printed:
        return f"circle {circle}'s coin is worth {printed} (the rulebook's value)"
    return None


def coins_problem(text: str, circles: Mapping[str, tuple[int, str]]) -> str | None:
    """What is wrong with a line of site coins, or ``None``."""
    tokens = none_dash(text).split()
    bad = coin_token_problem(
        tokens, "a circle letter, plus its value and colour for a new circle, e.g. G3p"
    )
    if bad:
        return bad
    if len(tokens) > END_COINS:
        return f"{len(tokens)} coins: a Memento board holds {END_COINS}"
    seen: set[str] = set()
    for circle, value, color in parse_coins(text):
        twice = "twice: each player holds one coin of a circle at most"
        found = circle_problem(circle, value, seen, twice)
        if found:
            return found
        known = circles.get(circle)
        if value is not None and value > MAX_COIN_VALUE:
            return f"circle {circle}'s coin: a value up to {MAX_COIN_VALUE}"
        if known and ((value is not None and value != known[0]) or (color and color != known[1])):
            return (
                f"circle {circle} was described as {known[0]} {known[1]}; change it on the "
                "score pad if that was wrong"
            )
    return None


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
    bad = coin_token_problem(tokens, "circle letter, value if needed, colour: C2p")
    if bad:
        return bad
    seen: set[str] = set()
    for circle, value, color in parse_coins(text):
        found = circle_problem(circle, value, seen, "twice")
        if found:
            return found
        printed = KNOWN_VALUES.get(circle)
        if color is None:
            return f"circle {circle}: add its colour letter (p, g or b), e.g. {circle}p"
        if value is None and printed is None:
            return f"circle {circle}: add the value printed on its coin, e.g. {circle}2p"
    return None


def parse_described(text: str) -> tuple[tuple[int, str] | None, str | None]:
    """``3 pink`` (or ``3p``) → ``(3, "pink")``; else ``None`` and the problem."""
    match = re.fullmatch(r"\s*(\d{1,2})\s*([a-z]+)\s*", text.lower())
    if not match:
        return None, "the value, then the colour: e.g. 3 pink"
    color = [c for c in COLORS if c == match.group(2) or initial(c) == match.group(2)]
    if len(color) != 1:
        return None, "the colour is pink, green or blue"
    return (int(match.group(1)), color[0]), None


def numbers_problem(text: str) -> str | None:
    """Whole numbers separated by blanks (``-`` or nothing for none), as many as the box has."""
    parts = none_dash(text).split()
    bad = [part for part in parts if not part.isdigit()]
    if bad:
        return f"not a value: {' '.join(bad)}"
    if len(parts) > EAT_COINS or any(int(p) > MAX_COIN_VALUE for p in parts):
        return f"at most {EAT_COINS} coins, each worth at most {MAX_COIN_VALUE}"
    return None


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
    if len(tokens) > TAXI_TICKETS:
        return f"there are {TAXI_TICKETS} taxi tickets"
    if any(t["points"] > MAX_COIN_VALUE for t in parse_tickets(text)):
        return f"a ticket's bonus is at most {MAX_COIN_VALUE}"
    return None


def show_tickets(tickets: Sequence[Mapping[str, Any]]) -> str:
    """``B2 F3`` (empty for none)."""
    return " ".join(f"{x['circle']}{x['points']}" for x in tickets)


def check_pieces(text: str) -> str | None:
    """Two circle letters."""
    parts = text.upper().split()
    if len(parts) != 2 or any(len(p) != 1 or not p.isalpha() for p in parts):
        return "two circle letters, like A N"
    if parts[0] == parts[1] and parts[0] not in STATIONS:
        return f"both pieces on circle {parts[0]}: only A and N hold more than one piece"
    return None


def check_cards(text: str, size: int | None = None) -> str | None:
    """Different tour card letters from A to M (``size`` of them, when given)."""
    cards = text.upper().split()
    if not cards or any(c not in CARD_KINDS for c in cards) or len(set(cards)) != len(cards):
        return "different letters from A to M, like A I L"
    if size is not None and len(cards) != size:
        return f"{size} cards are in play, you named {len(cards)}"
    return None


def kind_words(kind: str) -> str:
    """``big eater`` for ``big_eater``."""
    return kind.replace("_", " ")


def parse_tour(card: str, text: str) -> tuple[dict[str, Any] | None, str | None]:
    """A card's answer: ``B F K 5`` (collection), ``pink 4`` (genre), ``3``; or the problem."""
    kind = CARD_KINDS[card]
    parts = text.replace(",", " ").split()
    if not parts or not parts[-1].isdigit() or int(parts[-1]) > MAX_TOUR_POINTS:
        return None, f"end with the bonus printed on the card, a number up to {MAX_TOUR_POINTS}"
    points = int(parts[-1])
    if kind not in EXCLUSIVE:
        if len(parts) != 1:
            return None, "the bonus printed on the card, e.g. 3"
        return {"card": card, "kind": kind, "points": points}, None
    if len(parts) < 2:
        return None, f"end with the bonus printed on the card, a number up to {MAX_TOUR_POINTS}"
    if kind == "collection":
        circles = [p.upper() for p in parts[:-1]]
        if any(len(c) != 1 or not c.isalpha() for c in circles) or len(set(circles)) < len(circles):
            return None, "different circle letters, then the bonus: e.g. B F K 5"
        if len(circles) > MEMENTO_SPOTS:
            return None, f"at most {MEMENTO_SPOTS} circles, then the bonus"
        return {"card": card, "kind": kind, "circles": circles, "points": points}, None
    color = [c for c in COLORS if len(parts) == 2 and parts[0].lower() in (c, initial(c))]
    if not color:
        return None, "the colour (pink, green or blue), then the bonus: e.g. pink 4"
    return {"card": card, "kind": kind, "color": color[0], "points": points}, None


def tour_text(tour: Mapping[str, Any]) -> str:
    """A tour card's answer as :func:`parse_tour` reads it (``B F K 5``, ``pink 4``, ``3``)."""
    if tour.get("kind") == "collection":
        return " ".join([*tour.get("circles", []), str(tour.get("points", ""))])
    if tour.get("kind") == "genre":
        return f"{tour.get('color', '')} {tour.get('points', '')}"
    return str(tour.get("points", ""))


def tour_hint(card: str) -> str:
    """What to type for a card: its circles or colour, then the bonus."""
    kind = CARD_KINDS[card]
    if kind == "collection":
        return "circles shown, then the bonus, e.g. B F K 5"
    if kind == "genre":
        return "its colour, then the bonus, e.g. pink 4"
    return "the bonus printed, e.g. 3"


# --- The score pad's codecs -------------------------------------------------------


@dataclass
class CoinsCodec:
    """A player's site coins in Memento order: ``Bp O3g C2p`` (``-`` for none).

    A coin is its circle letter, its value when the rulebook gives none, and its
    colour's letter; a circle described already (``circles``, what the flow
    knows) may be typed as its letter alone.
    """

    circles: Mapping[str, tuple[int, str]] = field(default_factory=dict)
    hint: str = "from Memento spot 1, e.g. Bp O3g C2p; - for none"

    def read(self, text: str) -> tuple[Any, str | None]:
        """The coins, or ``None`` and the problem."""
        tokens = none_dash(text).split()
        problem = coin_token_problem(tokens, "circle letter, value if needed, colour: C2p")
        if problem:
            return None, problem
        if len(tokens) > END_COINS:
            return None, f"{len(tokens)} coins: a Memento board holds {END_COINS}"
        coins: list[dict[str, Any]] = []
        for circle, value, color in parse_coins(text):
            known = self.circles.get(circle)
            printed = KNOWN_VALUES.get(circle)
            if any(c["circle"] == circle for c in coins):
                return (
                    None,
                    f"circle {circle} twice: each player holds one coin of a circle at most",
                )
            if circle in STATIONS:
                return None, f"circle {circle} is a station: it holds no site coin"
            if value is not None and printed is not None and value != printed:
                return None, f"circle {circle}'s coin is worth {printed} (the rulebook's value)"
            value = value if value is not None else printed or (known[0] if known else None)
            color = color or (known[1] if known else None)
            if value is None or color is None:
                return None, f"circle {circle}: add its value and colour letter, e.g. {circle}2p"
            if value > MAX_COIN_VALUE:
                return None, f"circle {circle}'s coin: a value up to {MAX_COIN_VALUE}"
            coins.append({"circle": circle, "value": value, "color": color})
        return coins, None

    def write(self, value: Any) -> str:
        """``Bp O3g``: the value only where the rulebook gives none."""
        shown = []
        for coin in value or []:
            circle, points = coin.get("circle", "?"), coin.get("value")
            number = "" if KNOWN_VALUES.get(circle) == points else str(points)
            shown.append(f"{circle}{number}{initial(str(coin.get('color', '')))}")
        return " ".join(shown)


@dataclass
class NumbersCodec:
    """Eat-around coin values: ``2 1 3`` (``-`` for none)."""

    hint: str = "e.g. 2 1 3; - for none"

    def read(self, text: str) -> tuple[Any, str | None]:
        """The values, or ``None`` and the problem."""
        problem = numbers_problem(text)
        if problem:
            return None, problem
        return [int(p) for p in none_dash(text).split()], None

    def write(self, value: Any) -> str:
        """``2 1 3``."""
        return " ".join(map(str, value or []))


@dataclass
class PiecesCodec:
    """The circles of a player's two pieces: ``A N``."""

    hint: str = "e.g. A N"

    def read(self, text: str) -> tuple[Any, str | None]:
        """The two circles, or ``None`` and the problem."""
        problem = check_pieces(text)
        return (None, problem) if problem else (text.upper().split(), None)

    def write(self, value: Any) -> str:
        """``A N``."""
        return " ".join(value or [])


@dataclass
class TicketsCodec:
    """Unused taxi tickets, circle and bonus of each: ``B2 F3`` (``-`` for none)."""

    hint: str = "circle and bonus of each, e.g. B2 F3; - for none"

    def read(self, text: str) -> tuple[Any, str | None]:
        """The tickets, or ``None`` and the problem."""
        problem = check_tickets(text)
        return (None, problem) if problem else (parse_tickets(text), None)

    def write(self, value: Any) -> str:
        """``B2 F3``."""
        return show_tickets(value or [])


@dataclass
class TourCodec:
    """What is printed on one exclusive tour card (``B F K 5``, ``pink 4``, ``3``)."""

    card: str
    hint: str = ""

    def __post_init__(self) -> None:
        if not self.hint:
            self.hint = tour_hint(self.card)

    def read(self, text: str) -> tuple[Any, str | None]:
        """The card as the score file holds it, or ``None`` and the problem."""
        return parse_tour(self.card, text)

    def write(self, value: Any) -> str:
        """The card's answer."""
        return tour_text(value or {})


NOBODY = "Nobody completed it"
"""How older versions saved "nobody" (a choice of the list): still read."""


@dataclass
class ClaimCodec:
    """Who completed an exclusive card first: a player's name or column letter, ``-`` for nobody.

    Nobody can be typed, so that a name given by mistake can be taken back.
    """

    names: tuple[str, ...]
    hint: str = "a player's name or column letter; - for nobody"

    def read(self, text: str) -> tuple[Any, str | None]:
        """The name as the pad spells it, ``None`` for nobody; or the problem."""
        typed = text.strip()
        if typed in ("", "-", NOBODY):
            return None, None
        found = [n for n in self.names if n.casefold() == typed.casefold()]
        if found:
            return found[0], None
        columns = "ABCDEFGH"[: len(self.names)]
        if len(typed) == 1 and typed.upper() in columns:
            return self.names[columns.index(typed.upper())], None
        return None, f"one of {', '.join(self.names)} (or A to {columns[-1:]}), or - for nobody"

    def write(self, value: Any) -> str:
        """The name (empty for nobody)."""
        return str(value) if value else ""


@dataclass
class ToursCodec:
    """Every tour card in play, ``;`` between cards: ``A B F K 5 @Aki; I pink 4; L 3``.

    Each card is its letter, then what :class:`TourCodec` reads, then (for a
    collection or genre card, with the advanced rules) ``@`` and who claimed it.
    """

    hint: str = "card, circles or colour, bonus, @claimer; e.g. A B F K 5 @Aki; I pink 4; L 3"

    def read(self, text: str) -> tuple[Any, str | None]:
        """The cards, or ``None`` and the problem."""
        tours: list[dict[str, Any]] = []
        for chunk in none_dash(text.replace(";", "\n")).splitlines():
            words = chunk.split("@", 1)
            parts = words[0].split()
            if not parts:
                continue
            card = parts[0].upper()
            if card not in CARD_KINDS:
                return None, f"the tour cards are A to M, got {parts[0]}"
            if any(t["card"] == card for t in tours):
                return None, f"card {card} twice"
            tour, problem = parse_tour(card, " ".join(parts[1:]))
            if tour is None:
                return None, f"card {card}: {problem}"
            if len(words) == 2:
                if CARD_KINDS[card] not in EXCLUSIVE:
                    return None, f"card {card}: only collection and genre cards are claimed"
                tour["claimed_by"] = words[1].strip()
            tours.append(tour)
        return tours, None

    def write(self, value: Any) -> str:
        """``A B F K 5 @Aki; I pink 4``."""
        shown = []
        for tour in value or []:
            claim = f" @{tour['claimed_by']}" if tour.get("claimed_by") else ""
            shown.append(f"{tour.get('card', '?')} {tour_text(tour)}{claim}")
        return "; ".join(shown)
