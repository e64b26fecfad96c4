"""Shimoda: Perry Road (exactly 2 players).

Rulebook: ``shimoda-perry-road.txt`` ("Game End and Scoring", "Shop Card
Explanations"). The shop cards' conditions, colours, points and ranges are
typed by the players from the cards, since the full card list is not known.

Categories:
    shops: the sum of what the 7 shop cards on the player's street pay.
    victory_markers: 5 points per victory marker won on the player's side.
    merchant: end-game points of the merchant's ability, as typed.

Victory markers are placed first: each of the 7 facing pairs compares the
tourists on both spaces, a tourist of the card's own colour counting 2; the
stronger space gets a marker, a tie gives none. Tie-break: more tourists on the
street (a plain count), then a shared win.
"""

from __future__ import annotations

from dataclasses import dataclass

from scorers._core import GameInfo, Result, Tiebreak, make_result, read_root
from scorers._validate import Reader, index_path, key_path

COLORS = ("blue", "black", "red", "yellow", "pink")
SCORING_TYPES = (
    "exactly_two",
    "color",
    "any",
    "pair",
    "all_colors",
    "three_colors",
    "chairs",
    "victory_markers",
)
RANGES = (1, 3, 5, 7)
STREET_LENGTH = 7
MAX_PER_SPACE = 3
TOURISTS_PER_COLOR = 7
MARKER_POINTS = 5
MAX_CARD_POINTS = 10
"""Points printed on a shop card (the known cards print 1 to 7)."""
MAX_CHAIRS = 5
"""Chair icons visible on one shop card."""
MAX_MERCHANT_POINTS = 99
"""End-game points of a merchant's ability, as typed from the card."""


INFO = GameInfo(
    id="shimoda",
    title="Shimoda: Perry Road",
    short_title="Shimoda",
    min_players=2,
    max_players=2,
    player_counts=(2,),
    categories=("shops", "victory_markers", "merchant"),
    labels={
        "shops": "the shops",
        "victory_markers": "the victory markers",
        "merchant": "the merchant's points",
    },
    rulebook="shimoda-perry-road.txt",
    aliases=("perry road",),
    bounds={
        "merchant_points": (0, MAX_MERCHANT_POINTS),
        "points": (0, MAX_CARD_POINTS),
        "chairs": (0, MAX_CHAIRS),
        "tourists": (0, MAX_PER_SPACE),
    },
)


@dataclass(frozen=True)
class ShopScoring:
    """What a shop card pays for, as printed on it."""

    type: str
    points: int
    range: int
    color: str | None = None
    colors: tuple[str, str] | None = None


@dataclass(frozen=True)
class Space:
    """One space of a street: its card, tourists (in ``COLORS`` order) and chairs."""

    color: str
    scoring: ShopScoring
    tourists: tuple[int, ...]
    chairs: int = 0

    @property
    def count(self) -> int:
        """Tourists on the space, whatever their colour."""
        return sum(self.tourists)

    @property
    def strength(self) -> int:
        """Tourists counted for the victory marker: the card's colour counts 2."""
        return self.count + self.tourists[COLORS.index(self.color)]


@dataclass(frozen=True)
class Player:
    """A player's street, left to right as seen from the first player."""

    name: str
    street: tuple[Space, ...]
    merchant: str | None = None
    merchant_points: int = 0


@dataclass(frozen=True)
class Game:
    """A validated Shimoda score file."""

    players: tuple[Player, ...]


def parse(data: object) -> Game:
    """Validate a Shimoda score file.

    Raises:
        ScoreFileError: With every problem found.
    """
    r = Reader()
    root = read_root(
        r,
        data,
        INFO,
        player_required=("street",),
        player_optional=("merchant", "merchant_points"),
    )
    players: list[Player | None] = []
    for (path, entry), name in zip(root.players, root.names, strict=True):
        merchant = r.field(entry, path, "merchant", lambda v, p: r.name(v, p, what="merchant"))
        points = r.field(
            entry,
            path,
            "merchant_points",
            lambda v, p: r.integer(v, p, high=MAX_MERCHANT_POINTS),
            default=0,
        )
        street = _read_street(r, entry, path)
        if name is None or points is None or street is None:
            players.append(None)
        else:
            players.append(Player(name, street, merchant, points))
    complete = [p for p in players if p is not None]
    if len(complete) == len(players) == 2:
        for c, color in enumerate(COLORS):
            total = sum(space.tourists[c] for p in complete for space in p.street)
            if total > TOURISTS_PER_COLOR:
                r.error(
                    "players",
                    f"{total} {color} tourists on the streets (there are {TOURISTS_PER_COLOR})",
                )
    r.raise_if_problems()
    return Game(tuple(complete))


def _read_street(r: Reader, entry: dict[str, object], path: str) -> tuple[Space, ...] | None:
    street_path = key_path(path, "street")
    items = r.field(
        entry,
        path,
        "street",
        lambda v, p: r.array(v, p, min_len=STREET_LENGTH, max_len=STREET_LENGTH, what="spaces"),
    )
    if items is None:
        return None
    spaces = [_read_space(r, item, index_path(street_path, k)) for k, item in enumerate(items)]
    if len(spaces) != STREET_LENGTH or any(s is None for s in spaces):
        return None
    return tuple(s for s in spaces if s is not None)


def _read_space(r: Reader, value: object, path: str) -> Space | None:
    space = r.obj(value, path, required=("card", "tourists"), optional=("chairs",))
    if space is None:
        return None
    chairs = r.field(
        space, path, "chairs", lambda v, p: r.integer(v, p, high=MAX_CHAIRS), default=0
    )
    tourists = r.field(
        space,
        path,
        "tourists",
        lambda v, p: r.counts(v, p, COLORS, high=MAX_PER_SPACE, what="colour"),
    )
    if tourists is not None and sum(tourists.values()) > MAX_PER_SPACE:
        r.error(
            key_path(path, "tourists"),
            f"{sum(tourists.values())} tourists on one space (at most {MAX_PER_SPACE})",
        )
        tourists = None
    card = r.field(space, path, "card", lambda v, p: r.obj(v, p, required=("color", "scoring")))
    if card is None:
        return None
    card_path = key_path(path, "card")
    color = r.field(card, card_path, "color", lambda v, p: r.choice(v, p, COLORS, what="colour"))
    scoring = r.field(card, card_path, "scoring", lambda v, p: _read_scoring(r, v, p))
    if chairs is None or tourists is None or color is None or scoring is None:
        return None
    return Space(color, scoring, tuple(tourists[c] for c in COLORS), chairs)


def _read_scoring(r: Reader, value: object, path: str) -> ShopScoring | None:
    obj = r.obj(value, path, required=("type", "points", "range"), optional=("color", "colors"))
    if obj is None:
        return None
    kind = r.field(obj, path, "type", lambda v, p: r.choice(v, p, SCORING_TYPES, what="type"))
    points = r.field(obj, path, "points", lambda v, p: r.integer(v, p, high=MAX_CARD_POINTS))
    reach = r.field(obj, path, "range", r.integer)
    if reach is not None and reach not in RANGES:
        r.error(key_path(path, "range"), f"must be 1, 3, 5 or 7, got {reach}")
        reach = None
    color: str | None = None
    colors: tuple[str, str] | None = None
    ok = kind is not None and points is not None and reach is not None
    for key, wanted in (("color", "color"), ("colors", "pair")):
        if kind is None:
            break
        if kind == wanted and key not in obj:
            r.error(key_path(path, key), f"missing (required for type '{wanted}')")
            ok = False
        elif kind != wanted and key in obj:
            r.error(key_path(path, key), f"only used with type '{wanted}'")
            ok = False
    if kind == "color" and "color" in obj:
        color = r.choice(obj["color"], key_path(path, "color"), COLORS, what="colour")
        ok = ok and color is not None
    if kind == "pair" and "colors" in obj:
        colors = _read_pair(r, obj["colors"], key_path(path, "colors"))
        ok = ok and colors is not None
    if not ok or kind is None or points is None or reach is None:
        return None
    return ShopScoring(kind, points, reach, color, colors)


def _read_pair(r: Reader, value: object, path: str) -> tuple[str, str] | None:
    items = r.array(value, path, min_len=2, max_len=2, what="colours")
    if items is None or len(items) != 2:
        return None
    first = r.choice(items[0], index_path(path, 0), COLORS, what="colour")
    second = r.choice(items[1], index_path(path, 1), COLORS, what="colour")
    if first is None or second is None:
        return None
    if first == second:
        r.error(path, "must be two different colours")
        return None
    return (first, second)


def covered(position: int, reach: int) -> range:
    """The street positions a card at ``position`` with range ``reach`` scores."""
    if reach >= STREET_LENGTH:
        return range(STREET_LENGTH)
    half = reach // 2
    return range(max(0, position - half), min(STREET_LENGTH - 1, position + half) + 1)


def max_three_color_sets(counts: list[int]) -> int:
    """The largest number of disjoint sets of 3 tourists of 3 different colours.

    ``k`` sets are possible exactly when every colour can give at most ``k``
    tourists (one per set) and these add up to ``3k``.
    """
    best = 0
    for k in range(1, sum(counts) // 3 + 1):
        if sum(min(c, k) for c in counts) >= 3 * k:
            best = k
    return best


def card_points(street: tuple[Space, ...], markers: list[bool], position: int) -> int:
    """What the card at ``position`` pays at the end of the game."""
    rule = street[position].scoring
    spaces = list(covered(position, rule.range))
    per_color = [sum(street[k].tourists[c] for k in spaces) for c in range(len(COLORS))]
    if rule.type == "exactly_two":
        times = sum(1 for k in spaces if street[k].count == 2)
    elif rule.type == "color":
        times = per_color[COLORS.index(rule.color or "")]
    elif rule.type == "any":
        times = sum(per_color)
    elif rule.type == "pair":
        a, b = rule.colors or ("", "")
        times = min(per_color[COLORS.index(a)], per_color[COLORS.index(b)])
    elif rule.type == "all_colors":
        times = min(per_color)
    elif rule.type == "three_colors":
        times = max_three_color_sets(per_color)
    elif rule.type == "chairs":
        times = sum(street[k].chairs for k in spaces)
    else:  # victory_markers
        times = sum(1 for k in spaces if markers[k])
    return times * rule.points


def score(game: Game) -> Result:
    """Score a validated Shimoda game."""
    first, second = game.players
    markers: list[list[bool]] = [[], []]
    for mine, theirs in zip(first.street, second.street, strict=True):
        markers[0].append(mine.strength > theirs.strength)
        markers[1].append(theirs.strength > mine.strength)
    breakdowns = []
    for player, won in zip(game.players, markers, strict=True):
        shops = sum(card_points(player.street, won, k) for k in range(STREET_LENGTH))
        breakdowns.append(
            {
                "shops": shops,
                "victory_markers": MARKER_POINTS * sum(won),
                "merchant": player.merchant_points,
            }
        )
    tourists = tuple(sum(s.count for s in p.street) for p in game.players)
    return make_result(
        INFO.id,
        [p.name for p in game.players],
        breakdowns,
        tiebreaks=[Tiebreak("more tourists on the street", tourists)],
    )
