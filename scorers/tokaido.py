"""Tokaido (2 to 5 players).

Rulebook: ``tokaido.txt`` ("End of the Game", the space descriptions), with
the award and temple facts of ``game-facts.md``.

Two modes. ``final`` takes the score track on arrival in Edo plus the counts
the end awards need. ``recount`` takes each traveller's whole collection and
recomputes every point.

Categories, ``final``:
    journey: the score track on arrival in Edo.
    temple: the donor ranking, 10/7/4 then 2 (dense ranking, donors only).
    gourmet, collector, bather, chatterbox: 3 points to every tied leader
        (most meal cost, souvenirs, hot springs, encounters; at least 1
        needed); Mitsukuni gets 4, his +1 per achievement card.

Categories, ``recount`` (the first eight make up the recounted journey):
    panoramas: 1+2+…+n per panorama type.
    panorama_achievements: 3 per panorama achievement card.
    hot_springs: the printed values.
    meals: 6 per meal.
    souvenirs: the best sets, k² for a set of k types.
    encounters: 3 per samurai (the other encounters score elsewhere).
    temple_coins: 1 per coin in the temple area.
    traveler: Mitsukuni +1 per hot spring and panorama achievement card,
        Umegae +1 per encounter card.
    then the end awards, named as in ``final``.

Tie-break: most achievement cards (panorama achievements and the four awards;
the temple ranking is not a card), then a shared win.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scorers._core import GameInfo, Result, Tiebreak, make_result, read_root
from scorers._validate import Reader, index_path, join_names, key_path

FINAL_CATEGORIES = ("journey", "temple", "gourmet", "collector", "bather", "chatterbox")
RECOUNT_CATEGORIES = (
    "panoramas",
    "panorama_achievements",
    "hot_springs",
    "meals",
    "souvenirs",
    "encounters",
    "temple_coins",
    "traveler",
)
AWARDS = ("gourmet", "collector", "bather", "chatterbox")


MODES = ("final", "recount")
TRAVELERS = (
    "Chuubei",
    "Hiroshige",
    "Hirotada",
    "Kinko",
    "Mitsukuni",
    "Sasayakko",
    "Satsuki",
    "Umegae",
    "Yoshiyasu",
    "Zen-emon",
)
PANORAMAS = {"paddy": 3, "mountain": 4, "sea": 5}
SOUVENIRS = ("small_object", "clothing", "art", "food")
ENCOUNTERS = ("shokunin", "annaibito", "samurai", "kuge", "miko")
TEMPLE_AWARDS = (10, 7, 4)
TEMPLE_OTHER_DONOR = 2
AWARD_POINTS = 3
ACHIEVEMENT_POINTS = 3
MEAL_POINTS = 6
SAMURAI_POINTS = 3
MAX_MEALS = 4
HOT_SPRING_VALUES = (2, 3)
HOT_SPRINGS_PER_VALUE = 6
SOUVENIRS_PER_TYPE = 6
ENCOUNTER_CARDS = {"shokunin": 2, "annaibito": 6, "samurai": 2, "kuge": 2, "miko": 2}
COINS = 50
"""Coins in the box: a temple area holds at most these."""
MAX_JOURNEY = 300
"""The score track on arrival: everything the cards can give on the way is about 260."""
FINAL_LIMITS = {
    "journey": MAX_JOURNEY,
    "temple": COINS,
    "meal_cost": MAX_MEALS * 3,
    "souvenirs": SOUVENIRS_PER_TYPE * 4,
    "hot_springs": HOT_SPRINGS_PER_VALUE * 2,
    "encounters": sum(ENCOUNTER_CARDS.values()),
}
"""The largest value of each count in ``final`` mode, from the cards in the box."""

INFO = GameInfo(
    id="tokaido",
    title="Tokaido",
    short_title="Tokaido",
    min_players=2,
    max_players=5,
    player_counts=(2, 3, 4, 5),
    categories=(*FINAL_CATEGORIES, *RECOUNT_CATEGORIES),
    labels={
        "journey": "the journey",
        "temple": "the temple ranking",
        "gourmet": "the gourmet award",
        "collector": "the collector award",
        "bather": "the bather award",
        "chatterbox": "the chatterbox award",
        "panoramas": "the panoramas",
        "panorama_achievements": "the panorama achievements",
        "hot_springs": "the hot springs",
        "meals": "the meals",
        "souvenirs": "the souvenirs",
        "encounters": "the samurai encounters",
        "temple_coins": "the temple coins",
        "traveler": "the traveller's ability",
    },
    rulebook="tokaido.txt",
    bgg_id=123540,
    bounds={
        **{key: (0, top) for key, top in FINAL_LIMITS.items()},
        "panorama_achievements": (0, len(PANORAMAS)),
    },
)

FINAL_FIELDS = (
    "journey",
    "temple",
    "meal_cost",
    "souvenirs",
    "hot_springs",
    "encounters",
    "panorama_achievements",
)
RECOUNT_FIELDS = (
    "panoramas",
    "panorama_achievements",
    "hot_springs",
    "meals",
    "souvenirs",
    "encounters",
    "temple",
)


@dataclass(frozen=True)
class Traveler:
    """A traveller's end state. ``collection`` is set in recount mode only.

    Attributes:
        name: The player.
        traveler: The traveller tile, if given.
        journey: The score track (``None`` when a recount file leaves it out).
        temple: Coins in the temple area.
        meal_cost: Sum of printed meal prices.
        souvenirs: Souvenir cards held.
        hot_springs: Hot spring cards held.
        encounters: Encounter cards held.
        panorama_achievements: Panorama achievement cards held.
        collection: The recount details.
    """

    name: str
    traveler: str | None
    journey: int | None
    temple: int
    meal_cost: int
    souvenirs: int
    hot_springs: int
    encounters: int
    panorama_achievements: int
    collection: Collection | None = None


@dataclass(frozen=True)
class Collection:
    """Everything a traveller collected, for a recount."""

    panoramas: dict[str, int]
    hot_springs: tuple[int, ...]
    meals: tuple[int, ...]
    souvenirs: dict[str, int]
    encounters: dict[str, int]


@dataclass(frozen=True)
class Game:
    """A validated Tokaido score file."""

    mode: str
    travelers: tuple[Traveler, ...]


def parse(data: object) -> Game:
    """Validate a Tokaido score file (either mode).

    Raises:
        ScoreFileError: With every problem found.
    """
    r = Reader()
    mode = "final"
    if isinstance(data, dict) and "mode" in data:
        mode = r.choice(data["mode"], "mode", MODES, what="mode") or "final"
    required = FINAL_FIELDS if mode == "final" else RECOUNT_FIELDS
    optional = ("traveler",) if mode == "final" else ("traveler", "journey")
    root = read_root(
        r, data, INFO, keys=("mode",), player_required=required, player_optional=optional
    )
    travelers: list[Traveler] = []
    for (path, entry), name in zip(root.players, root.names, strict=True):
        reader = _read_final if mode == "final" else _read_recount
        traveler = reader(r, entry, path, name)
        if traveler is not None:
            travelers.append(traveler)
    if mode == "recount" and len(travelers) == len(root.players):
        _check_supply(r, travelers)
    if len(travelers) == len(root.players):
        for index, key, message in table_problems(
            [t.traveler for t in travelers], [t.panorama_achievements for t in travelers]
        ):
            where = "players" if index is None else key_path(root.players[index][0], key)
            r.error(where, message)
    r.raise_if_problems()
    return Game(mode, tuple(travelers))


def _read_traveler_tile(r: Reader, entry: dict[str, object], path: str) -> str | None:
    return r.field(
        entry, path, "traveler", lambda v, p: r.choice(v, p, TRAVELERS, what="traveller")
    )


def _read_final(
    r: Reader, entry: dict[str, object], path: str, name: str | None
) -> Traveler | None:
    tile = _read_traveler_tile(r, entry, path)
    values = {key: _bounded(r, entry, path, key, FINAL_LIMITS[key]) for key in FINAL_FIELDS[:-1]}
    achievements = r.field(
        entry, path, "panorama_achievements", lambda v, p: r.integer(v, p, high=len(PANORAMAS))
    )
    if "traveler" in entry and tile is None:
        return None
    counts = [values[key] for key in FINAL_FIELDS[:-1]]
    if name is None or achievements is None or any(v is None for v in counts):
        return None
    journey, temple, meal_cost, souvenirs, hot_springs, encounters = (int(v or 0) for v in counts)
    return Traveler(
        name, tile, journey, temple, meal_cost, souvenirs, hot_springs, encounters, achievements
    )


def _bounded(r: Reader, entry: dict[str, object], path: str, key: str, top: int) -> int | None:
    return r.field(entry, path, key, lambda v, p: r.integer(v, p, high=top))


def _read_recount(
    r: Reader, entry: dict[str, object], path: str, name: str | None
) -> Traveler | None:
    tile = _read_traveler_tile(r, entry, path)
    journey = r.field(entry, path, "journey", lambda v, p: r.integer(v, p, high=MAX_JOURNEY))
    temple = r.field(entry, path, "temple", lambda v, p: r.integer(v, p, high=COINS))
    panoramas = r.field(entry, path, "panoramas", lambda v, p: _read_panoramas(r, v, p))
    achievements = r.field(
        entry, path, "panorama_achievements", lambda v, p: r.integer(v, p, high=len(PANORAMAS))
    )
    if panoramas is not None and achievements is not None:
        complete = sum(1 for kind, size in PANORAMAS.items() if panoramas[kind] == size)
        if achievements > complete:
            r.error(
                key_path(path, "panorama_achievements"),
                f"more achievement cards ({achievements}) than completed panoramas ({complete})",
            )
            achievements = None
    springs = r.field(
        entry,
        path,
        "hot_springs",
        lambda v, p: _read_values(
            r,
            v,
            p,
            HOT_SPRING_VALUES,
            what="hot spring card's value",
            most=HOT_SPRINGS_PER_VALUE * len(HOT_SPRING_VALUES),
        ),
    )
    meals = r.field(
        entry,
        path,
        "meals",
        lambda v, p: _read_values(r, v, p, (1, 2, 3), what="meal price", most=MAX_MEALS),
    )
    souvenirs = r.field(
        entry,
        path,
        "souvenirs",
        lambda v, p: r.counts(v, p, SOUVENIRS, high=SOUVENIRS_PER_TYPE, what="souvenir type"),
    )
    encounters = r.field(
        entry,
        path,
        "encounters",
        lambda v, p: r.counts(v, p, ENCOUNTERS, high=ENCOUNTER_CARDS, what="encounter"),
    )
    if "traveler" in entry and tile is None:
        return None
    if (
        name is None
        or ("journey" in entry and journey is None)
        or temple is None
        or panoramas is None
        or achievements is None
        or springs is None
        or meals is None
        or souvenirs is None
        or encounters is None
    ):
        return None
    return Traveler(
        name=name,
        traveler=tile,
        journey=journey,
        temple=temple,
        meal_cost=sum(meals),
        souvenirs=sum(souvenirs.values()),
        hot_springs=len(springs),
        encounters=sum(encounters.values()),
        panorama_achievements=achievements,
        collection=Collection(panoramas, springs, meals, souvenirs, encounters),
    )


def _read_panoramas(r: Reader, value: object, path: str) -> dict[str, int] | None:
    cards = r.counts(value, path, tuple(PANORAMAS), high=max(PANORAMAS.values()), what="panorama")
    if cards is None:
        return None
    for kind, size in PANORAMAS.items():
        if cards[kind] > size:
            r.error(key_path(path, kind), f"a {kind} panorama has {size} cards, got {cards[kind]}")
            return None
    return cards


def _read_values(
    r: Reader,
    value: object,
    path: str,
    allowed: Sequence[int],
    *,
    what: str,
    most: int | None = None,
) -> tuple[int, ...] | None:
    items = r.array(value, path, max_len=most, what="cards")
    if items is None:
        return None
    values: list[int] = []
    for k, item in enumerate(items):
        number = r.integer(item, index_path(path, k))
        if number is not None and number not in allowed:
            shown = join_names([str(a) for a in allowed], last=" or ")
            r.error(index_path(path, k), f"a {what} is {shown}, got {number}")
            number = None
        if number is None:
            return None
        values.append(number)
    if most is not None and len(values) > most:
        return None
    return tuple(values)


ACHIEVEMENT_CARDS = len(PANORAMAS)
"""The box has one panorama achievement card per panorama type."""


def table_problems(
    tiles: Sequence[str | None], achievements: Sequence[int | None]
) -> list[tuple[int | None, str, str]]:
    """What cannot be on one table: a traveller tile twice, more achievement cards than the box.

    The one check for score files and both score pads (a value not given yet is
    ``None`` and is not counted).

    Args:
        tiles: Each player's traveller tile, in seat order.
        achievements: Each player's panorama achievement cards, in seat order.

    Returns:
        ``(player, key, message)`` per problem: ``player`` is the seat the problem
        is at (``None`` for the whole table), ``key`` the score-file field.
    """
    problems: list[tuple[int | None, str, str]] = []
    first: dict[str, int] = {}
    for k, tile in enumerate(tiles):
        if tile is None:
            continue
        if tile in first:
            problems.append(
                (
                    k,
                    "traveler",
                    f"{tile} is already players[{first[tile]}]'s traveller "
                    "(the box has one of each tile)",
                )
            )
        else:
            first[tile] = k
    held = sum(a for a in achievements if a is not None)
    if held > ACHIEVEMENT_CARDS:
        problems.append(
            (
                None,
                "panorama_achievements",
                f"{held} panorama achievement cards in all (the box has {ACHIEVEMENT_CARDS})",
            )
        )
    return problems


def _check_supply(r: Reader, travelers: Sequence[Traveler]) -> None:
    """Cards of one kind across all travellers cannot exceed what the box holds."""
    collections = [t.collection for t in travelers if t.collection is not None]
    for value in HOT_SPRING_VALUES:
        held = sum(c.hot_springs.count(value) for c in collections)
        if held > HOT_SPRINGS_PER_VALUE:
            r.error(
                "players",
                f"{held} hot springs worth {value} in all (the box has {HOT_SPRINGS_PER_VALUE})",
            )
    for kind in SOUVENIRS:
        held = sum(c.souvenirs[kind] for c in collections)
        if held > SOUVENIRS_PER_TYPE:
            r.error("players", f"{held} {kind} souvenirs in all (the box has {SOUVENIRS_PER_TYPE})")


def souvenir_points(counts: Sequence[int]) -> int:
    """The best score for souvenir cards: set j holds every type with ≥ j cards."""
    deepest = max(counts, default=0)
    return sum(sum(1 for c in counts if c >= j) ** 2 for j in range(1, deepest + 1))


def temple_points(coins: Sequence[int]) -> list[int]:
    """The temple ranking: dense ranks among donors, 10/7/4 then 2; non-donors 0."""
    levels = sorted({c for c in coins if c > 0}, reverse=True)
    points = []
    for c in coins:
        if c == 0:
            points.append(0)
            continue
        place = levels.index(c)
        points.append(TEMPLE_AWARDS[place] if place < len(TEMPLE_AWARDS) else TEMPLE_OTHER_DONOR)
    return points


def award_winners(values: Sequence[int]) -> list[bool]:
    """Every tied leader wins an award; nobody wins it with none of the thing."""
    best = max(values)
    return [best > 0 and v == best for v in values]


def _recount(t: Traveler) -> dict[str, int]:
    c = t.collection
    assert c is not None
    mitsukuni = t.traveler == "Mitsukuni"
    traveler = 0
    if mitsukuni:
        traveler = len(c.hot_springs) + t.panorama_achievements
    elif t.traveler == "Umegae":
        traveler = t.encounters
    return {
        "panoramas": sum(n * (n + 1) // 2 for n in c.panoramas.values()),
        "panorama_achievements": ACHIEVEMENT_POINTS * t.panorama_achievements,
        "hot_springs": sum(c.hot_springs),
        "meals": MEAL_POINTS * len(c.meals),
        "souvenirs": souvenir_points(list(c.souvenirs.values())),
        "encounters": SAMURAI_POINTS * c.encounters["samurai"],
        "temple_coins": t.temple,
        "traveler": traveler,
    }


def score(game: Game) -> Result:
    """Score a validated Tokaido game in its mode."""
    ts = game.travelers
    temple = temple_points([t.temple for t in ts])
    won = {
        "gourmet": award_winners([t.meal_cost for t in ts]),
        "collector": award_winners([t.souvenirs for t in ts]),
        "bather": award_winners([t.hot_springs for t in ts]),
        "chatterbox": award_winners([t.encounters for t in ts]),
    }
    breakdowns: list[dict[str, int]] = []
    notes: list[str] = []
    for i, t in enumerate(ts):
        if game.mode == "final":
            part = {"journey": t.journey or 0}
        else:
            part = _recount(t)
            recounted = sum(part.values())
            if t.journey is not None and t.journey != recounted:
                notes.append(
                    f"{t.name}: the track shows {t.journey}, the recount gives {recounted}"
                )
        award = AWARD_POINTS + (1 if t.traveler == "Mitsukuni" else 0)
        part["temple"] = temple[i]
        for name in AWARDS:
            part[name] = award if won[name][i] else 0
        breakdowns.append(part)
    cards = tuple(
        t.panorama_achievements + sum(won[name][i] for name in AWARDS) for i, t in enumerate(ts)
    )
    return make_result(
        INFO.id,
        [t.name for t in ts],
        breakdowns,
        tiebreaks=[Tiebreak("most achievement cards", cards)],
        notes=notes,
    )
