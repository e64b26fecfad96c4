"""One valid score file of every game (two for Tokaido), as the limit and fuzz tests start from.

``EXAMPLES`` parametrizes tests at collection time, so it lives here rather than in a fixture.
"""

from __future__ import annotations

from typing import Any


def space(color: str, scoring: dict[str, Any], **tourists: int) -> dict[str, Any]:
    return {"card": {"color": color, "scoring": dict(scoring)}, "tourists": tourists, "chairs": 1}


YELLOW = {"type": "color", "color": "yellow", "points": 3, "range": 3}
PAIR = {"type": "pair", "colors": ["red", "pink"], "points": 5, "range": 5}
CHAIRS = {"type": "chairs", "points": 3, "range": 7}

SHIMODA = {
    "game": "shimoda",
    "players": [
        {
            "name": "Aki",
            "merchant": "Florist",
            "merchant_points": 4,
            "street": [
                space("blue", YELLOW, blue=1, yellow=1),
                *(space("red", YELLOW) for _ in range(6)),
            ],
        },
        {
            "name": "Ben",
            "street": [
                space("pink", PAIR, red=1, pink=2),
                *(space("black", CHAIRS) for _ in range(6)),
            ],
        },
    ],
}

SHIBUYA = {
    "game": "shibuya",
    "variant": "standard",
    "players": [
        {"name": "Red", "goals": 6, "members": ["Aki", "Ben"]},
        {"name": "Blue", "goals": 2, "members": ["Cho", "Dai"]},
    ],
}

TOKAIDO_FINAL = {
    "game": "tokaido",
    "mode": "final",
    "players": [
        {
            "name": name,
            "journey": 40 + k,
            "temple": k,
            "meal_cost": 5,
            "souvenirs": 3,
            "hot_springs": 2,
            "encounters": k,
            "panorama_achievements": 1 - k,
        }
        for k, name in enumerate(["Aki", "Ben"])
    ],
}

TOKAIDO_RECOUNT = {
    "game": "tokaido",
    "mode": "recount",
    "players": [
        {
            "name": name,
            "traveler": ("Umegae", "Hirotada")[k],
            "journey": 50,
            "panoramas": {"paddy": 3, "mountain": 1, "sea": 2},
            "panorama_achievements": 1 - k,
            "hot_springs": [2, 3],
            "meals": [1, 3],
            "souvenirs": {"small_object": 1, "clothing": 1, "art": 1 - k, "food": 0},
            "encounters": {"shokunin": 1, "annaibito": 1, "samurai": 1, "kuge": 0, "miko": 1},
            "temple": 3,
        }
        for k, name in enumerate(["Aki", "Ben"])
    ],
}

KAMAKURA = {
    "game": "kamakura",
    "advanced": False,
    "tours": [
        {"card": "A", "kind": "collection", "circles": ["B", "F"], "points": 5},
        {"card": "I", "kind": "genre", "color": "pink", "points": 4},
        {"card": "L", "kind": "big_eater", "points": 5},
    ],
    "players": [
        {
            "name": name,
            "track": 3 + k,
            "site_coins": [
                {"circle": "B", "value": 3, "color": "pink"},
                {"circle": "F", "value": 4, "color": "green"},
            ],
            "eat_coins": [2, 1],
            "pieces": ["A", "N"],
            "taxi_tickets": [{"circle": "B", "points": 2}],
        }
        for k, name in enumerate(["Aki", "Ben"])
    ],
}
KAMAKURA["players"].append(  # type: ignore[attr-defined]
    {"name": "Cho", "track": 1, "site_coins": [], "pieces": ["C", "D"]}
)

SHOGUN = {
    "game": "shogun",
    "year": 2,
    "board": "sun",
    "players": [
        {
            "name": name,
            "score_before": 20 + k,
            "war_chests": 4,
            "regions": {"brown": {"provinces": 2, "castles": 1, "temples": 1, "theaters": 1}},
        }
        for k, name in enumerate(["Aki", "Ben", "Cho"])
    ],
}

EXAMPLES = {
    "shimoda": SHIMODA,
    "shibuya": SHIBUYA,
    "tokaido final": TOKAIDO_FINAL,
    "tokaido recount": TOKAIDO_RECOUNT,
    "kamakura": KAMAKURA,
    "shogun": SHOGUN,
}
