"""Kamakura Collection (2 to 4 players).

Rulebook: ``kamakura-collection.txt`` ("Point Calculation and Determining the
Winner", "Memento Board Use and Point Bonuses", "Exclusive Tour Cards",
"2-Player Game Rules", "Advanced Rules"). Coin values, tour bonuses and taxi
bonuses are typed from the components, since the full lists are not known.

Categories:
    track: the point track before the end-of-game count.
    site_coins: the sum of the site coins' values.
    eat_coins: the sum of the eat-around coins' values.
    eat_bonus: +1 for the 5th and 6th eat-around coin, +2 for each from the 7th.
    remembrance: Memento-board spots 1&8 (3), 2&7 (2), 3&6 (2), 4&5 (3) when
        both are filled with coins of the same colour.
    tours: Exclusive Tour cards earned (collection, genre, big eater,
        rendezvous).
    taxi: unused taxi tickets whose circle matches one of the player's site
        coins.

Ties are a shared win. With the advanced rules (always with 2 players) a
collection or genre card goes only to the player who completed it first.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scorers._core import GameInfo, Result, make_result, read_root
from scorers._validate import Reader, ScoreFileError, index_path, join_names, key_path, show
from scorers.names import name_key

COLORS = ("pink", "green", "blue")
KINDS = ("collection", "genre", "big_eater", "rendezvous")
CARD_KINDS = {**dict.fromkeys("ABCDEFGH", "collection"), **dict.fromkeys("IJK", "genre")}
CARD_KINDS.update({"L": "big_eater", "M": "rendezvous"})
STATIONS = ("A", "N")
MEMENTO_SPOTS = 8
REMEMBRANCE = ((0, 7, 3), (1, 6, 2), (2, 5, 2), (3, 4, 3))
GENRE_COINS = 4
TOUR_CARDS = 13
COINS_PER_CIRCLE = 2
"""Site coins stacked on each lettered circle (one fewer with two players)."""
COINS_PER_CIRCLE_TWO = 1
"""Site coins on each lettered circle in a two-player game."""
EAT_COINS = 15
TAXI_TICKETS = 11
MAX_TRACK = 100
"""The point track before the end-of-game count: a start offset of 0-3 plus rests."""
MAX_COIN_VALUE = 10
"""Site and eat-around coins and taxi tickets carry small printed numbers (3 and 4 are known)."""
MAX_TOUR_POINTS = 20
"""The bonus printed on an Exclusive Tour card (the values are not known; this bounds them)."""

INFO = GameInfo(
    id="kamakura",
    title="Kamakura Collection",
    short_title="Kamakura Collection",
    min_players=2,
    max_players=4,
    player_counts=(2, 3, 4),
    categories=("track", "site_coins", "eat_coins", "eat_bonus", "remembrance", "tours", "taxi"),
    labels={
        "track": "the point track",
        "site_coins": "the site coins",
        "eat_coins": "the eat-around coins",
        "eat_bonus": "the eat-around bonus",
        "remembrance": "the remembrance bonus",
        "tours": "the tour cards",
        "taxi": "the taxi tickets",
    },
    rulebook="kamakura-collection.txt",
    name_fields=(("tours", "claimed_by"),),
    bounds={
        "track": (0, MAX_TRACK),
        "site_coins.value": (0, MAX_COIN_VALUE),
        "eat_coins": (0, MAX_COIN_VALUE),
        "taxi_tickets.points": (0, MAX_COIN_VALUE),
        "tours.points": (0, MAX_TOUR_POINTS),
    },
)


@dataclass(frozen=True)
class SiteCoin:
    """A site coin on a Memento board."""

    circle: str
    value: int
    color: str


@dataclass(frozen=True)
class TaxiTicket:
    """An unused taxi ticket."""

    circle: str
    points: int


@dataclass(frozen=True)
class Tour:
    """An Exclusive Tour card in play, with what is printed on it."""

    card: str
    kind: str
    points: int
    circles: tuple[str, ...] = ()
    color: str | None = None
    claimed_by: str | None = None


@dataclass(frozen=True)
class Player:
    """A player's end state."""

    name: str
    track: int
    site_coins: tuple[SiteCoin, ...]
    eat_coins: tuple[int, ...]
    pieces: tuple[str, str]
    taxi_tickets: tuple[TaxiTicket, ...] = ()


@dataclass(frozen=True)
class Game:
    """A validated Kamakura score file."""

    advanced: bool
    tours: tuple[Tour, ...]
    players: tuple[Player, ...]


def _circle(r: Reader, value: object, path: str) -> str | None:
    text = r.text(value, path)
    if text is None:
        return None
    letter = text.strip().upper()
    if len(letter) != 1 or not "A" <= letter <= "Z":
        r.error(path, f"a circle is one letter, got {show(text)}")
        return None
    return letter


def parse(data: object) -> Game:
    """Validate a Kamakura score file.

    Raises:
        ScoreFileError: With every problem found.
    """
    r = Reader()
    root = read_root(
        r,
        data,
        INFO,
        keys=("advanced",),
        required=("tours",),
        player_required=("track", "site_coins", "pieces"),
        player_optional=("eat_coins", "taxi_tickets"),
    )
    advanced = r.field(root.data, "$", "advanced", r.boolean, default=False)
    players = [
        _read_player(r, entry, path, name)
        for (path, entry), name in zip(root.players, root.names, strict=True)
    ]
    complete = [p for p in players if p is not None]
    two = len(root.players) == 2
    names = {name_key(n): n for n in root.names if n is not None}
    tours = r.field(
        root.data, "$", "tours", lambda v, p: _read_tours(r, v, p, names, two or bool(advanced))
    )
    if len(complete) == len(players):
        _check_coin_supply(r, complete, COINS_PER_CIRCLE_TWO if two else COINS_PER_CIRCLE)
        _check_supply(r, complete)
    r.raise_if_problems()
    game = Game(bool(advanced) or two, tuple(tours or ()), tuple(complete))
    claims(game)
    return game


def _read_player(r: Reader, entry: dict[str, object], path: str, name: str | None) -> Player | None:
    track = r.field(entry, path, "track", lambda v, p: r.integer(v, p, high=MAX_TRACK))
    coins = r.field(entry, path, "site_coins", lambda v, p: _read_site_coins(r, v, p))
    no_coins: tuple[int, ...] = ()
    no_tickets: tuple[TaxiTicket, ...] = ()
    eat = r.field(entry, path, "eat_coins", lambda v, p: _read_numbers(r, v, p), default=no_coins)
    pieces = r.field(entry, path, "pieces", lambda v, p: _read_pieces(r, v, p))
    tickets = r.field(
        entry, path, "taxi_tickets", lambda v, p: _read_tickets(r, v, p), default=no_tickets
    )
    if (
        name is None
        or track is None
        or coins is None
        or eat is None
        or pieces is None
        or tickets is None
    ):
        return None
    return Player(name, track, coins, eat, pieces, tickets)


def _read_site_coins(r: Reader, value: object, path: str) -> tuple[SiteCoin, ...] | None:
    items = r.array(value, path, max_len=MEMENTO_SPOTS, what="site coins")
    if items is None:
        return None
    coins: list[SiteCoin] = []
    ok = len(items) <= MEMENTO_SPOTS
    where: dict[str, int] = {}
    for k, item in enumerate(items):
        item_path = index_path(path, k)
        coin = r.obj(item, item_path, required=("circle", "value", "color"))
        if coin is None:
            ok = False
            continue
        circle = r.field(coin, item_path, "circle", lambda v, p: _circle(r, v, p))
        points = r.field(
            coin, item_path, "value", lambda v, p: r.integer(v, p, high=MAX_COIN_VALUE)
        )
        color = r.field(
            coin, item_path, "color", lambda v, p: r.choice(v, p, COLORS, what="colour")
        )
        if circle is not None and circle in where:
            r.error(
                key_path(item_path, "circle"),
                f"a second coin of circle {circle} (already at site_coins[{where[circle]}])",
            )
            circle = None
        if circle is None or points is None or color is None:
            ok = False
            continue
        where[circle] = k
        coins.append(SiteCoin(circle, points, color))
    return tuple(coins) if ok else None


def _read_numbers(r: Reader, value: object, path: str) -> tuple[int, ...] | None:
    items = r.array(value, path, max_len=EAT_COINS, what="coins")
    if items is None:
        return None
    numbers = [
        r.integer(item, index_path(path, k), high=MAX_COIN_VALUE) for k, item in enumerate(items)
    ]
    if any(n is None for n in numbers):
        return None
    return tuple(n for n in numbers if n is not None)


def _read_pieces(r: Reader, value: object, path: str) -> tuple[str, str] | None:
    items = r.array(value, path, min_len=2, max_len=2, what="pieces")
    if items is None or len(items) != 2:
        return None
    first = _circle(r, items[0], index_path(path, 0))
    second = _circle(r, items[1], index_path(path, 1))
    if first is None or second is None:
        return None
    if first == second and first not in STATIONS:
        r.error(path, f"both pieces on circle {first}: only A and N hold more than one piece")
        return None
    return (first, second)


def _read_tickets(r: Reader, value: object, path: str) -> tuple[TaxiTicket, ...] | None:
    items = r.array(value, path, max_len=TAXI_TICKETS, what="tickets")
    if items is None:
        return None
    tickets: list[TaxiTicket] = []
    ok = True
    for k, item in enumerate(items):
        item_path = index_path(path, k)
        ticket = r.obj(item, item_path, required=("circle", "points"))
        if ticket is None:
            ok = False
            continue
        circle = r.field(ticket, item_path, "circle", lambda v, p: _circle(r, v, p))
        points = r.field(
            ticket, item_path, "points", lambda v, p: r.integer(v, p, high=MAX_COIN_VALUE)
        )
        if circle is None or points is None:
            ok = False
            continue
        tickets.append(TaxiTicket(circle, points))
    return tuple(tickets) if ok else None


def _read_tours(
    r: Reader, value: object, path: str, names: dict[str, str], advanced: bool
) -> tuple[Tour, ...] | None:
    items = r.array(value, path, max_len=TOUR_CARDS, what="cards")
    if items is None:
        return None
    tours: list[Tour] = []
    seen: dict[str, int] = {}
    ok = True
    for k, item in enumerate(items):
        tour = _read_tour(r, item, index_path(path, k), names, advanced)
        if tour is None:
            ok = False
            continue
        if tour.card in seen:
            r.error(
                key_path(index_path(path, k), "card"),
                f"card {tour.card} is already at tours[{seen[tour.card]}]",
            )
            ok = False
            continue
        seen[tour.card] = k
        tours.append(tour)
    return tuple(tours) if ok else None


def _read_tour(
    r: Reader, value: object, path: str, names: dict[str, str], advanced: bool
) -> Tour | None:
    raw = r.obj(
        value,
        path,
        required=("card", "kind", "points"),
        optional=("circles", "color", "claimed_by"),
    )
    if raw is None:
        return None
    card = r.field(raw, path, "card", lambda v, p: _card(r, v, p))
    kind = r.field(raw, path, "kind", lambda v, p: r.choice(v, p, KINDS, what="kind"))
    points = r.field(raw, path, "points", lambda v, p: r.integer(v, p, high=MAX_TOUR_POINTS))
    ok = card is not None and kind is not None and points is not None
    if card is not None and kind is not None and CARD_KINDS[card] != kind:
        r.error(key_path(path, "kind"), f"card {card} is a {CARD_KINDS[card]} card, not {kind}")
        ok = False
    circles: tuple[str, ...] = ()
    color: str | None = None
    claimed: str | None = None
    for key, wanted in (("circles", ("collection",)), ("color", ("genre",))):
        if kind is not None and kind in wanted and key not in raw:
            r.error(key_path(path, key), f"missing (required for a {kind} card)")
            ok = False
        elif kind is not None and kind not in wanted and key in raw:
            r.error(key_path(path, key), f"only used on a {wanted[0]} card")
            ok = False
    if kind == "collection" and "circles" in raw:
        read = _read_circles(r, raw["circles"], key_path(path, "circles"))
        ok = ok and read is not None
        circles = read or ()
    if kind == "genre" and "color" in raw:
        color = r.choice(raw["color"], key_path(path, "color"), COLORS, what="colour")
        ok = ok and color is not None
    if "claimed_by" in raw:
        claim_path = key_path(path, "claimed_by")
        claimed = r.name(raw["claimed_by"], claim_path)
        if kind is not None and kind not in ("collection", "genre"):
            r.error(claim_path, "only collection and genre cards are claimed")
            ok = False
        elif not advanced:
            r.error(claim_path, "cards are claimed only with the advanced rules")
            ok = False
        elif claimed is not None and name_key(claimed) not in names:
            r.error(claim_path, f"{claimed!r} is not one of the players")
            ok = False
        elif claimed is not None:
            claimed = names[name_key(claimed)]
        ok = ok and claimed is not None
    if not ok or card is None or kind is None or points is None:
        return None
    return Tour(card, kind, points, circles, color, claimed)


def _card(r: Reader, value: object, path: str) -> str | None:
    text = r.text(value, path)
    if text is None:
        return None
    letter = text.strip().upper()
    if letter not in CARD_KINDS:
        r.error(path, f"the tour cards are A to M, got {show(text)}")
        return None
    return letter


def _read_circles(r: Reader, value: object, path: str) -> tuple[str, ...] | None:
    items = r.array(value, path, min_len=1, max_len=MEMENTO_SPOTS, what="circles")
    if items is None or not items:
        return None
    circles = [_circle(r, item, index_path(path, k)) for k, item in enumerate(items)]
    if any(c is None for c in circles):
        return None
    return tuple(c for c in circles if c is not None)


def _check_coin_supply(r: Reader, players: Sequence[Player], per_circle: int) -> None:
    held: dict[str, int] = {}
    for p in players:
        for coin in p.site_coins:
            held[coin.circle] = held.get(coin.circle, 0) + 1
    for circle, count in sorted(held.items()):
        if count > per_circle:
            r.error(
                "players",
                f"{count} site coins of circle {circle} in all (at most {per_circle} in this game)",
            )


def _check_supply(r: Reader, players: Sequence[Player]) -> None:
    eaten = sum(len(p.eat_coins) for p in players)
    if eaten > EAT_COINS:
        r.error("players", f"{eaten} eat-around coins in all (the box has {EAT_COINS})")
    tickets = sum(len(p.taxi_tickets) for p in players)
    if tickets > TAXI_TICKETS:
        r.error("players", f"{tickets} unused taxi tickets in all (the box has {TAXI_TICKETS})")


def meets(tour: Tour, player: Player, eat_counts: Sequence[int]) -> bool:
    """Whether ``player`` meets the card's condition at the end of the game."""
    if tour.kind == "collection":
        owned = {coin.circle for coin in player.site_coins}
        return all(c in owned for c in tour.circles)
    if tour.kind == "genre":
        return sum(1 for coin in player.site_coins if coin.color == tour.color) >= GENRE_COINS
    if tour.kind == "big_eater":
        best = max(eat_counts)
        return best >= 1 and len(player.eat_coins) == best
    first, second = player.pieces
    return first == second and first in STATIONS


def claims(game: Game) -> list[list[Tour]]:
    """Which tour cards each player earns.

    Raises:
        ScoreFileError: When a claimer does not meet the card, or with the
            advanced rules several players meet a card nobody claimed.
    """
    eat_counts = [len(p.eat_coins) for p in game.players]
    earned: list[list[Tour]] = [[] for _ in game.players]
    problems = []
    for k, tour in enumerate(game.tours):
        who = [i for i, p in enumerate(game.players) if meets(tour, p, eat_counts)]
        exclusive = game.advanced and tour.kind in ("collection", "genre")
        if exclusive and tour.claimed_by is not None:
            names = [p.name for p in game.players]
            claimer = names.index(tour.claimed_by)
            if claimer not in who:
                problems.append(
                    (f"tours[{k}].claimed_by", f"{tour.claimed_by} does not meet card {tour.card}")
                )
                continue
            who = [claimer]
        elif exclusive and len(who) > 1:
            both = join_names([game.players[i].name for i in who])
            problems.append(
                (
                    f"tours[{k}]",
                    f"{both} meet card {tour.card}: say who completed it first (claimed_by)",
                )
            )
            continue
        for i in who:
            earned[i].append(tour)
    if problems:
        raise ScoreFileError.many(problems)
    return earned


def eat_bonus(count: int) -> int:
    """+1 for the 5th and 6th eat-around coin, +2 for each from the 7th."""
    return max(0, min(count, 6) - 4) + 2 * max(0, count - 6)


def remembrance(coins: Sequence[SiteCoin]) -> int:
    """Points for Memento-board pairs of the same colour."""
    points = 0
    for a, b, worth in REMEMBRANCE:
        if b < len(coins) and coins[a].color == coins[b].color:
            points += worth
    return points


def score(game: Game) -> Result:
    """Score a validated Kamakura game."""
    earned = claims(game)
    breakdowns = []
    for player, tours in zip(game.players, earned, strict=True):
        circles = {coin.circle for coin in player.site_coins}
        breakdowns.append(
            {
                "track": player.track,
                "site_coins": sum(coin.value for coin in player.site_coins),
                "eat_coins": sum(player.eat_coins),
                "eat_bonus": eat_bonus(len(player.eat_coins)),
                "remembrance": remembrance(player.site_coins),
                "tours": sum(t.points for t in tours),
                "taxi": sum(t.points for t in player.taxi_tickets if t.circle in circles),
            }
        )
    return make_result(INFO.id, [p.name for p in game.players], breakdowns)
