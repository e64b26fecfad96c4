"""Hypothesis strategies that build valid score files, one per registered game.

They are written from the score-file contract, independently of the scorers,
so that the conformance test can feed every scorer files it must accept.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

from hypothesis import strategies as st

Draw = Callable[[st.SearchStrategy[Any]], Any]
NAMES = ("Aki", "Ben", "Cho", "Dai", "Emi")


def names(count: int) -> list[str]:
    return list(NAMES[:count])


# --- shimoda -------------------------------------------------------------

SHIMODA_COLORS = ("blue", "black", "red", "yellow", "pink")
SHIMODA_TYPES = (
    "exactly_two",
    "color",
    "any",
    "pair",
    "all_colors",
    "three_colors",
    "chairs",
    "victory_markers",
)


@st.composite
def shimoda_scoring(draw: Draw) -> dict[str, Any]:
    kind = draw(st.sampled_from(SHIMODA_TYPES))
    scoring: dict[str, Any] = {
        "type": kind,
        "points": draw(st.integers(0, 7)),
        "range": draw(st.sampled_from((1, 3, 5, 7))),
    }
    if kind == "color":
        scoring["color"] = draw(st.sampled_from(SHIMODA_COLORS))
    if kind == "pair":
        scoring["colors"] = draw(st.permutations(SHIMODA_COLORS))[:2]
    return scoring


@st.composite
def shimoda(draw: Draw) -> dict[str, Any]:
    bag = draw(st.permutations([c for c in SHIMODA_COLORS for _ in range(7)]))
    players = []
    for name in names(2):
        street = []
        for _ in range(7):
            count = min(draw(st.integers(0, 3)), len(bag))
            tourists: dict[str, int] = {}
            for color in bag[:count]:
                tourists[color] = tourists.get(color, 0) + 1
            bag = bag[count:]
            space: dict[str, Any] = {
                "card": {
                    "color": draw(st.sampled_from(SHIMODA_COLORS)),
                    "scoring": draw(shimoda_scoring()),
                },
                "tourists": tourists,
            }
            if draw(st.booleans()):
                space["chairs"] = draw(st.integers(0, 2))
            street.append(space)
        player: dict[str, Any] = {"name": name, "street": street}
        if draw(st.booleans()):
            player["merchant_points"] = draw(st.integers(0, 10))
        players.append(player)
    return {"game": "shimoda", "players": players}


# --- shibuya -------------------------------------------------------------


def _shibuya_over(variant: str, a: int, b: int) -> bool:
    target = 6 if variant == "standard" else 4
    won = [x >= target or x - y >= 3 for x, y in ((a, b), (b, a))]
    return won.count(True) == 1


@st.composite
def shibuya(draw: Draw) -> dict[str, Any]:
    variant = draw(st.sampled_from(("standard", "no_construction")))
    a, b = draw(
        st.tuples(st.integers(0, 8), st.integers(0, 8)).filter(lambda g: _shibuya_over(variant, *g))
    )
    players: list[dict[str, Any]] = [{"name": "Red", "goals": a}, {"name": "Blue", "goals": b}]
    if draw(st.booleans()):
        players[0]["members"] = ["Aki", "Ben"]
        players[1]["members"] = ["Cho", "Dai"]
    data: dict[str, Any] = {"players": players}
    if draw(st.booleans()) or variant != "standard":
        data["variant"] = variant
    return data


# --- tokaido -------------------------------------------------------------

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


@st.composite
def tokaido_final(draw: Draw, name: str) -> dict[str, Any]:
    player: dict[str, Any] = {
        "name": name,
        "journey": draw(st.integers(0, 90)),
        "temple": draw(st.integers(0, 12)),
        "meal_cost": draw(st.integers(0, 12)),
        "souvenirs": draw(st.integers(0, 8)),
        "hot_springs": draw(st.integers(0, 4)),
        "encounters": draw(st.integers(0, 5)),
        "panorama_achievements": draw(st.integers(0, 3)),
    }
    if draw(st.booleans()):
        player["traveler"] = draw(st.sampled_from(TRAVELERS))
    return player


@st.composite
def tokaido_recount(draw: Draw, name: str) -> dict[str, Any]:
    sizes = {"paddy": 3, "mountain": 4, "sea": 5}
    panoramas = {kind: draw(st.integers(0, size)) for kind, size in sizes.items()}
    complete = sum(1 for kind, size in sizes.items() if panoramas[kind] == size)
    player: dict[str, Any] = {
        "name": name,
        "panoramas": panoramas,
        "panorama_achievements": draw(st.integers(0, complete)),
        "hot_springs": draw(st.lists(st.sampled_from((2, 3)), max_size=2, unique=True)),
        "meals": draw(st.lists(st.integers(1, 3), max_size=4)),
        "souvenirs": {
            t: draw(st.integers(0, 1)) for t in ("small_object", "clothing", "art", "food")
        },
        "encounters": {
            k: draw(st.integers(0, 2)) for k in ("shokunin", "annaibito", "samurai", "kuge", "miko")
        },
        "temple": draw(st.integers(0, 12)),
    }
    if draw(st.booleans()):
        player["traveler"] = draw(st.sampled_from(TRAVELERS))
    if draw(st.booleans()):
        player["journey"] = draw(st.integers(0, 90))
    return player


@st.composite
def tokaido(draw: Draw) -> dict[str, Any]:
    count = draw(st.integers(2, 5))
    mode = draw(st.sampled_from(("final", "recount")))
    build = tokaido_final if mode == "final" else tokaido_recount
    players = [draw(build(name)) for name in names(count)]
    # One table: each traveller tile once, at most 3 panorama achievement cards in all.
    seen: set[str] = set()
    left = 3
    for player in players:
        if player.get("traveler") in seen:
            del player["traveler"]
        elif "traveler" in player:
            seen.add(player["traveler"])
        player["panorama_achievements"] = min(player["panorama_achievements"], left)
        left -= player["panorama_achievements"]
    data: dict[str, Any] = {"players": players}
    if mode == "recount" or draw(st.booleans()):
        data["mode"] = mode
    return data


# --- kamakura ------------------------------------------------------------

CIRCLES = "BCDEFGHIJKLMOPQR"
KAMAKURA_COLORS = ("pink", "green", "blue")


def _meets(tour: dict[str, Any], player: dict[str, Any]) -> bool:
    owned = {c["circle"] for c in player["site_coins"]}
    if tour["kind"] == "collection":
        return set(tour["circles"]) <= owned
    return sum(1 for c in player["site_coins"] if c["color"] == tour["color"]) >= 4


@st.composite
def kamakura(draw: Draw) -> dict[str, Any]:
    count = draw(st.integers(2, 4))
    capacity = dict.fromkeys(CIRCLES, 1 if count == 2 else 2)
    coin_of = {
        c: (draw(st.integers(1, 5)), draw(st.sampled_from(KAMAKURA_COLORS))) for c in CIRCLES
    }
    players = []
    eat_left = 15  # eat-around coins in the box
    for name in names(count):
        coins = []
        for _ in range(draw(st.integers(0, 8))):
            free = [c for c in CIRCLES if capacity[c] and c not in {x["circle"] for x in coins}]
            if not free:
                break
            circle = draw(st.sampled_from(free))
            capacity[circle] -= 1
            value, color = coin_of[circle]
            coins.append({"circle": circle, "value": value, "color": color})
        players.append(
            {
                "name": name,
                "track": draw(st.integers(0, 10)),
                "site_coins": coins,
                "eat_coins": draw(st.lists(st.integers(1, 3), max_size=min(9, eat_left))),
                "pieces": draw(st.sampled_from((["A", "N"], ["A", "A"], ["N", "N"], ["B", "C"]))),
                "taxi_tickets": draw(
                    st.lists(
                        st.fixed_dictionaries(
                            {"circle": st.sampled_from(CIRCLES), "points": st.integers(1, 3)}
                        ),
                        max_size=2,
                    )
                ),
            }
        )
        eat_left -= len(players[-1]["eat_coins"])
    advanced = count == 2 or draw(st.booleans())
    tours = []
    for card in draw(st.lists(st.sampled_from("ABCDEFGHIJKLM"), unique=True, max_size=count + 1)):
        tour: dict[str, Any] = {"card": card, "points": draw(st.integers(1, 6))}
        if card in "ABCDEFGH":
            tour["kind"] = "collection"
            tour["circles"] = draw(
                st.lists(st.sampled_from(CIRCLES), min_size=1, max_size=3, unique=True)
            )
        elif card in "IJK":
            tour["kind"] = "genre"
            tour["color"] = draw(st.sampled_from(KAMAKURA_COLORS))
        else:
            tour["kind"] = "big_eater" if card == "L" else "rendezvous"
        if advanced and tour["kind"] in ("collection", "genre"):
            meeting = [p["name"] for p in players if _meets(tour, p)]
            if len(meeting) > 1 or (meeting and draw(st.booleans())):
                tour["claimed_by"] = draw(st.sampled_from(meeting))
        tours.append(tour)
    data: dict[str, Any] = {"tours": tours, "players": players}
    if count > 2 or draw(st.booleans()):
        data["advanced"] = advanced
    return data


# --- shogun --------------------------------------------------------------

SHOGUN_REGIONS = ("brown", "yellow", "red", "purple", "green")


@st.composite
def shogun(draw: Draw) -> dict[str, Any]:
    count = draw(st.integers(3, 5))
    per_region = 7 if count == 3 else 9
    players: list[dict[str, Any]] = [{"name": name, "regions": {}} for name in names(count)]
    for region in SHOGUN_REGIONS:
        left = per_region
        for player in players:
            provinces = draw(st.integers(0, min(left, 4)))
            left -= provinces
            if provinces or draw(st.booleans()):
                player["regions"][region] = {
                    "provinces": provinces,
                    "castles": draw(st.integers(0, provinces)),
                    "temples": draw(st.integers(0, provinces)),
                    "theaters": draw(st.integers(0, provinces)),
                }
    for player in players:
        player["score_before"] = draw(st.integers(0, 40))
        player["war_chests"] = draw(st.integers(0, 20))
    return {"year": draw(st.sampled_from((1, 2))), "players": players}


class Strategies(Mapping[str, st.SearchStrategy[dict[str, Any]]]):
    """A strategy per registered game: the five here, or a ``strategy`` module beside a kit.

    A game registered from elsewhere (Orchard, the test suite's own) brings its
    strategy beside its kit, as its scripted games.
    """

    def __init__(self, built_in: dict[str, st.SearchStrategy[dict[str, Any]]]) -> None:
        self.built_in = built_in

    def __getitem__(self, game: str) -> st.SearchStrategy[dict[str, Any]]:
        if game in self.built_in:
            return self.built_in[game]
        import importlib

        from companion.kits import KITS

        beside = KITS.module_of(game).rpartition(".")[0] + ".strategy"
        try:
            strategy: st.SearchStrategy[dict[str, Any]] = importlib.import_module(beside).STRATEGY
        except ModuleNotFoundError:
            raise KeyError(game) from None
        return strategy

    def __iter__(self) -> Iterator[str]:
        from scorers import GAME_IDS

        return iter([g for g in GAME_IDS if g in self])

    def __len__(self) -> int:
        return len(list(iter(self)))

    def __contains__(self, game: object) -> bool:
        try:
            self[str(game)]
        except KeyError:
            return False
        return True


STRATEGIES = Strategies(
    {
        "shimoda": shimoda(),
        "shibuya": shibuya(),
        "tokaido": tokaido(),
        "kamakura": kamakura(),
        "shogun": shogun(),
    }
)
