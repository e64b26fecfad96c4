"""Every worked example and scoring claim in the rules topics, checked by the scorers.

Each row quotes the topic (so a changed text fails here until its check is
changed too) and scores a small file that shows the claim.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from companion.rules import load_topics
from scorers import SCORERS, ScoreFileError

BODIES = {(t.game, t.id): " ".join(t.body.split()) for t in load_topics()}


def breakdowns(game: str, data: dict[str, Any], category: str) -> list[int]:
    """The points of ``category`` for each player of a scored file."""
    result = SCORERS[game].score_json(data)
    return [dict(p.breakdown)[category] for p in result.players]


def refused(game: str, data: dict[str, Any]) -> bool:
    try:
        SCORERS[game].score_json(data)
    except ScoreFileError:
        return True
    return False


# --- Kamakura ---------------------------------------------------------------------


def kamakura(*players: dict[str, Any], tours: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    names = ["Aki", "Ben", "Cho", "Dan"]
    filled = [
        {"name": names[k], "track": 0, "site_coins": [], "pieces": ["A", "N"], **p}
        for k, p in enumerate(players)
    ]
    return {"game": "kamakura", "tours": tours or [], "players": filled}


def coins(colors: str) -> list[dict[str, Any]]:
    """Site coins of value 1 on circles B, C, ... in memento order, colours separated by blanks."""
    return [{"circle": "BCDEFGHI"[k], "value": 1, "color": c} for k, c in enumerate(colors.split())]


def eat_bonus_for(count: int) -> int:
    return breakdowns("kamakura", kamakura({"eat_coins": [1] * count}, {}, {}), "eat_bonus")[0]


BIG_EATER = [{"card": "L", "kind": "big_eater", "points": 5}]
RENDEZVOUS = [{"card": "M", "kind": "rendezvous", "points": 3}]

# --- Tokaido ------------------------------------------------------------------------


def tokaido(*players: dict[str, Any], mode: str = "final") -> dict[str, Any]:
    names = ["Aki", "Ben", "Cho", "Dan", "Eve"]
    if mode == "final":
        base = {
            "journey": 0,
            "temple": 0,
            "meal_cost": 0,
            "souvenirs": 0,
            "hot_springs": 0,
            "encounters": 0,
            "panorama_achievements": 0,
        }
    else:
        base = {
            "panoramas": {},
            "panorama_achievements": 0,
            "hot_springs": [],
            "meals": [],
            "souvenirs": {},
            "encounters": {},
            "temple": 0,
        }
    filled = [{"name": names[k], **base, **p} for k, p in enumerate(players)]
    return {"game": "tokaido", "mode": mode, "players": filled}


def recounted(category: str, **collection: Any) -> int:
    return breakdowns("tokaido", tokaido(collection, {}, mode="recount"), category)[0]


# --- Shimoda ------------------------------------------------------------------------

NOTHING = {"type": "chairs", "points": 3, "range": 1}


def space(color: str = "black", tourists: dict[str, int] | None = None, **scoring: Any) -> Any:
    return {"card": {"color": color, "scoring": scoring or NOTHING}, "tourists": tourists or {}}


def shimoda(first: list[Any], second: list[Any]) -> dict[str, Any]:
    def street(spaces: list[Any]) -> list[Any]:
        return spaces + [space() for _ in range(7 - len(spaces))]

    return {
        "game": "shimoda",
        "players": [
            {"name": "Aki", "street": street(first)},
            {"name": "Ben", "street": street(second)},
        ],
    }


# --- Shogun -------------------------------------------------------------------------


def shogun(*regions: dict[str, Any], year: int = 2) -> dict[str, Any]:
    names = ["Aki", "Ben", "Cho", "Dan", "Eve"]
    players = [{"name": names[k], "regions": {"brown": r}} for k, r in enumerate(regions)]
    return {"game": "shogun", "year": year, "players": players}


TIED = {"provinces": 2, "castles": 1, "temples": 1, "theaters": 1}

# --- Shibuya ------------------------------------------------------------------------


def shibuya(a: int, b: int, variant: str = "standard") -> dict[str, Any]:
    players = [{"name": "Red", "goals": a}, {"name": "Blue", "goals": b}]
    return {"game": "shibuya", "variant": variant, "players": players}


def shibuya_winners(a: int, b: int, variant: str = "standard") -> list[str]:
    return list(SCORERS["shibuya"].score_json(shibuya(a, b, variant)).winners)


# (game, topic, words the topic holds, what the scorer gives, what the words say)
EXAMPLES: list[tuple[str, str, str, Callable[[], object], object]] = [
    (
        "kamakura",
        "scoring-eat-bonus",
        "7 eat-around coins give 1 + 1 + 2 = 4 bonus points",
        lambda: eat_bonus_for(7),
        4,
    ),
    ("kamakura", "scoring-eat-bonus", "8 give 1 + 1 + 2 + 2 = 6", lambda: eat_bonus_for(8), 6),
    (
        "kamakura",
        "scoring-eat-bonus",
        "Four coins or fewer give no bonus",
        lambda: [eat_bonus_for(n) for n in range(5)],
        [0] * 5,
    ),
    (
        "kamakura",
        "scoring-remembrance",
        "pink, green, blue, blue, blue, green, green, pink score 3 (1 & 8) + 2 (2 & 7) + "
        "3 (4 & 5) = 8",
        lambda: breakdowns(
            "kamakura",
            kamakura({"site_coins": coins("pink green blue blue blue green green pink")}, {}, {}),
            "remembrance",
        )[0],
        8,
    ),
    (
        "kamakura",
        "scoring-remembrance",
        "4 & 5 can already score with five coins",
        lambda: breakdowns(
            "kamakura",
            kamakura({"site_coins": coins("pink green blue blue blue")}, {}, {}),
            "remembrance",
        )[0],
        3,
    ),
    (
        "kamakura",
        "scoring-remembrance",
        "A pair with an empty spot scores nothing",
        lambda: breakdowns(
            "kamakura",
            kamakura({"site_coins": coins("pink pink pink pink")}, {}, {}),
            "remembrance",
        )[0],
        0,
    ),
    (
        "kamakura",
        "taxi-tickets",
        "compares each ticket's circle with your site coins only",
        lambda: breakdowns(
            "kamakura",
            kamakura(
                {
                    "site_coins": coins("pink"),
                    "eat_coins": [3],
                    "taxi_tickets": [{"circle": "B", "points": 2}, {"circle": "K", "points": 4}],
                },
                {},
                {},
            ),
            "taxi",
        )[0],
        2,
    ),
    (
        "kamakura",
        "tour-cards",
        "Everyone tied for the most scores it",
        lambda: breakdowns(
            "kamakura",
            kamakura(
                {"eat_coins": [1, 1]}, {"eat_coins": [2, 3]}, {"eat_coins": [4]}, tours=BIG_EATER
            ),
            "tours",
        ),
        [5, 5, 0],
    ),
    (
        "kamakura",
        "tour-cards",
        "counted one by one (not their values)",
        lambda: breakdowns(
            "kamakura",
            kamakura({"eat_coins": [1, 1, 1]}, {"eat_coins": [9, 9]}, {}, tours=BIG_EATER),
            "tours",
        ),
        [5, 0, 0],
    ),
    (
        "kamakura",
        "tour-cards",
        "when nobody holds an eat-around coin, nobody scores big eater",
        lambda: breakdowns("kamakura", kamakura({}, {}, {}, tours=BIG_EATER), "tours"),
        [0, 0, 0],
    ),
    (
        "kamakura",
        "tour-cards",
        "both on A or both on N, when the game ends. Everyone who manages it scores it",
        lambda: breakdowns(
            "kamakura",
            kamakura({"pieces": ["A", "A"]}, {"pieces": ["N", "N"]}, {}, tours=RENDEZVOUS),
            "tours",
        ),
        [3, 3, 0],
    ),
    (
        "kamakura",
        "advanced-rules",
        "big eater (L) and rendezvous (M) are still decided at the end, as in the basic "
        "game: everyone who meets them scores",
        lambda: breakdowns(
            "kamakura",
            {
                **kamakura(
                    {"pieces": ["A", "A"], "eat_coins": [1]},
                    {"pieces": ["N", "N"], "eat_coins": [2]},
                    {},
                    tours=BIG_EATER + RENDEZVOUS,
                ),
                "advanced": True,
            },
            "tours",
        ),
        [8, 8, 0],
    ),
    (
        "kamakura",
        "advanced-rules",
        "if several do, `companion score` refuses the file until it names the first",
        lambda: refused(
            "kamakura",
            {
                **kamakura(
                    {"site_coins": coins("pink")},
                    {"site_coins": [{"circle": "B", "value": 1, "color": "pink"}]},
                    {},
                    tours=[{"card": "A", "kind": "collection", "circles": ["B"], "points": 5}],
                ),
                "advanced": True,
            },
        ),
        True,
    ),
    (
        "tokaido",
        "scoring-temple",
        "Coins 4, 3, 3, 2, 1 give 10, 7, 7, 4, 2",
        lambda: breakdowns(
            "tokaido",
            tokaido(*({"temple": c} for c in (4, 3, 3, 2, 1))),
            "temple",
        ),
        [10, 7, 7, 4, 2],
    ),
    (
        "tokaido",
        "scoring-temple",
        "A traveller who gave nothing gets nothing",
        lambda: breakdowns("tokaido", tokaido({"temple": 1}, {"temple": 0}), "temple"),
        [10, 0],
    ),
    (
        "tokaido",
        "two-players",
        "with two donors the places are 10 and 7",
        lambda: breakdowns("tokaido", tokaido({"temple": 5}, {"temple": 2}), "temple"),
        [10, 7],
    ),
    (
        "tokaido",
        "village",
        "A full set of four is 16 points",
        lambda: recounted(
            "souvenirs", souvenirs={"small_object": 1, "clothing": 1, "art": 1, "food": 1}
        ),
        16,
    ),
    (
        "tokaido",
        "village",
        "a set of k types is worth k × k",
        lambda: recounted("souvenirs", souvenirs={"small_object": 2, "clothing": 2, "art": 1}),
        9 + 4,
    ),
    (
        "tokaido",
        "panoramas",
        "A paddy panorama has 3 cards (1+2+3 = 6 points), a mountain 4 (10 points) and a sea "
        "5 (15 points)",
        lambda: [
            recounted("panoramas", panoramas={kind: size})
            for kind, size in (("paddy", 3), ("mountain", 4), ("sea", 5))
        ],
        [6, 10, 15],
    ),
    (
        "tokaido",
        "panorama-achievements",
        "scores 3 points at once (category `panorama_achievements`)",
        lambda: recounted("panorama_achievements", panoramas={"paddy": 3}, panorama_achievements=1),
        3,
    ),
    (
        "tokaido",
        "hot-springs",
        "Each is worth 2 or 3 points",
        lambda: refused("tokaido", tokaido({"hot_springs": [4]}, {}, mode="recount")),
        True,
    ),
    (
        "tokaido",
        "inns",
        "Every meal is worth 6 points",
        lambda: recounted("meals", meals=[1, 3]),
        12,
    ),
    (
        "tokaido",
        "encounters",
        "only the samurai's points are in category `encounters`",
        lambda: recounted("encounters", encounters={"samurai": 1, "kuge": 1, "miko": 1}),
        3,
    ),
    (
        "tokaido",
        "scoring-traveler",
        "the end awards give him 4 instead of 3",
        lambda: breakdowns(
            "tokaido",
            tokaido({"traveler": "Mitsukuni", "souvenirs": 3}, {"souvenirs": 1}),
            "collector",
        ),
        [4, 0],
    ),
    (
        "tokaido",
        "scoring-traveler",
        "Umegae: +1 before each encounter, so +1 per encounter card",
        lambda: recounted("traveler", traveler="Umegae", encounters={"kuge": 1, "miko": 1}),
        2,
    ),
    (
        "tokaido",
        "scoring-bather",
        "all tied leaders get it; nobody gets it without a hot spring",
        lambda: [
            breakdowns("tokaido", tokaido({"hot_springs": 3}, {"hot_springs": 3}), "bather"),
            breakdowns("tokaido", tokaido({}, {}), "bather"),
        ],
        [[3, 3], [0, 0]],
    ),
    (
        "tokaido",
        "scoring-gourmet",
        "add the prices printed on the meals",
        lambda: breakdowns(
            "tokaido",
            tokaido({"meals": [3]}, {"meals": [1, 1]}, mode="recount"),
            "gourmet",
        ),
        [3, 0],
    ),
    (
        "tokaido",
        "tie-breaks",
        "panorama achievements and the four end awards count, the temple ranking does not",
        lambda: (
            SCORERS["tokaido"]
            .score_json(
                tokaido(
                    {"journey": 10, "temple": 3, "panorama_achievements": 1},
                    {"journey": 20, "temple": 0},
                )
            )
            .winners
        ),
        ("Aki",),
    ),
    (
        "shimoda",
        "scoring-victory-markers",
        "two tourists of other colours against a blue card holding one blue and one red "
        "tourist: 2 against 3, so the blue card's side gets the marker",
        lambda: breakdowns(
            "shimoda",
            shimoda(
                [space("blue", {"blue": 1, "red": 1})],
                [space("black", {"red": 1, "yellow": 1})],
            ),
            "victory_markers",
        ),
        [5, 0],
    ),
    (
        "shimoda",
        "scoring-victory-markers",
        "if the counts are equal nobody gets one",
        lambda: breakdowns(
            "shimoda",
            shimoda([space("blue", {"red": 2})], [space("red", {"red": 1})]),
            "victory_markers",
        ),
        [0, 0],
    ),
    (
        "shimoda",
        "scoring-shops",
        "a short-dashed card on the first space covers spaces 1 and 2 only",
        lambda: breakdowns(
            "shimoda",
            shimoda(
                [
                    space(tourists={"red": 1}, type="any", points=1, range=3),
                    space(tourists={"red": 1}),
                    space(tourists={"red": 1}),
                ],
                [],
            ),
            "shops",
        )[0],
        2,
    ),
    (
        "shimoda",
        "scoring-shops",
        "range 7: the whole street, wherever the card stands",
        lambda: breakdowns(
            "shimoda",
            shimoda(
                [space(tourists={"red": 1}, type="any", points=1, range=7)]
                + [space(tourists={"red": 1}) for _ in range(6)],
                [],
            ),
            "shops",
        )[0],
        7,
    ),
    (
        "shimoda",
        "scoring-shops",
        "range 1: the card's own space only",
        lambda: breakdowns(
            "shimoda",
            shimoda(
                [
                    space(tourists={"red": 1}),
                    space(tourists={"red": 2}, type="any", points=1, range=1),
                ],
                [],
            ),
            "shops",
        )[0],
        2,
    ),
    (
        "shimoda",
        "scoring-shops",
        "three tourists of three different colours: 5 per set (no tourist in two sets)",
        lambda: [
            breakdowns(
                "shimoda",
                shimoda(
                    [
                        space(tourists=first, type="three_colors", points=5, range=3),
                        space(tourists={"red": 1, "yellow": 1, "pink": 1}),
                    ],
                    [],
                ),
                "shops",
            )[0]
            for first in ({"red": 1, "blue": 1, "black": 1}, {"red": 2, "blue": 1})
        ],
        [10, 5],
    ),
    (
        "shimoda",
        "tie-breaks",
        "the bigger crowd wins (a plain count; matching colours do not count double here)",
        lambda: (
            SCORERS["shimoda"]
            .score_json(
                shimoda(
                    [space("red", {"red": 1}), space("red", {"red": 1})],
                    [space("red", {"red": 2}), space("blue", {"blue": 1})],
                )
            )
            .winners
        ),
        ("Ben",),
    ),
    (
        "shimoda",
        "scoring-victory-markers",
        "Each victory marker is worth 5 points",
        lambda: breakdowns(
            "shimoda",
            shimoda([space(tourists={"red": 1}) for _ in range(7)], []),
            "victory_markers",
        ),
        [35, 0],
    ),
    (
        "shogun",
        "scoring-majorities",
        "each of them scores one point less (2, 1 and 0)",
        lambda: [
            breakdowns("shogun", shogun(TIED, TIED, {}), category)
            for category in ("castle_majorities", "temple_majorities", "theater_majorities")
        ],
        [[2, 2, 0], [1, 1, 0], [0, 0, 0]],
    ),
    (
        "shogun",
        "scoring-majorities",
        "castles 3 points, temples 2, Noh theatres 1",
        lambda: [
            breakdowns("shogun", shogun(TIED, {}, {}), category)[0]
            for category in ("castle_majorities", "temple_majorities", "theater_majorities")
        ],
        [3, 2, 1],
    ),
    (
        "shogun",
        "scoring-majorities",
        "You need at least one building of that kind to score",
        lambda: breakdowns("shogun", shogun({"provinces": 1}, {}, {}), "castle_majorities"),
        [0, 0, 0],
    ),
    (
        "shogun",
        "scoring-buildings",
        "refuses more castles, temples or theatres in a region than provinces held there",
        lambda: refused("shogun", shogun({"provinces": 1, "castles": 2}, {}, {})),
        True,
    ),
    (
        "shogun",
        "tie-breaks",
        "players level on points compare war chests: the one with more wins",
        lambda: (
            SCORERS["shogun"]
            .score_json(
                {
                    **shogun({"provinces": 1}, {"provinces": 1}, {}),
                    "players": [
                        {"name": "Aki", "war_chests": 2, "regions": {"brown": {"provinces": 1}}},
                        {"name": "Ben", "war_chests": 5, "regions": {"red": {"provinces": 1}}},
                        {"name": "Cho", "regions": {}},
                    ],
                }
            )
            .winners
        ),
        ("Ben",),
    ),
    (
        "shogun",
        "tie-breaks",
        "After the first winter nothing is decided, so equal scores simply share a place",
        lambda: [
            p.rank
            for p in SCORERS["shogun"]
            .score_json(
                {
                    "game": "shogun",
                    "year": 1,
                    "players": [
                        {"name": "Aki", "war_chests": 2, "regions": {"brown": {"provinces": 1}}},
                        {"name": "Ben", "war_chests": 5, "regions": {"red": {"provinces": 1}}},
                        {"name": "Cho", "regions": {}},
                    ],
                }
            )
            .players
        ],
        [1, 1, 3],
    ),
    (
        "shibuya",
        "how-to-win",
        "it has 6 of its 8 pawns on its goals",
        lambda: shibuya_winners(6, 4),
        ["Red"],
    ),
    (
        "shibuya",
        "how-to-win",
        "it has 3 more pawns at goal than the other side",
        lambda: shibuya_winners(0, 3),
        ["Blue"],
    ),
    (
        "shibuya",
        "optional-rule",
        "the target drops to 4 pawns at goal instead of 6",
        lambda: (shibuya_winners(4, 2, "no_construction"), refused("shibuya", shibuya(4, 2))),
        (["Red"], True),
    ),
    (
        "shibuya",
        "optional-rule",
        "a lead of 3 pawns at goal still wins at once under this rule",
        lambda: shibuya_winners(3, 0, "no_construction"),
        ["Red"],
    ),
    (
        "shibuya",
        "tie-breaks",
        "A score file where neither side has won yet, or where both sides would have, is refused",
        lambda: (refused("shibuya", shibuya(2, 1)), refused("shibuya", shibuya(6, 6))),
        (True, True),
    ),
]


@pytest.mark.parametrize(
    ("game", "topic", "words", "check", "expected"),
    EXAMPLES,
    ids=[f"{g}-{t}-{k}" for k, (g, t, *_) in enumerate(EXAMPLES)],
)
def test_the_topic_says_what_the_scorer_does(
    game: str, topic: str, words: str, check: Callable[[], object], expected: object
) -> None:
    assert words in BODIES[(game, topic)], f"{game}/{topic} no longer says: {words}"
    assert check() == expected


def test_every_scored_topic_with_an_example_is_checked() -> None:
    """A topic that writes "Example" has at least one check here."""
    checked = {(g, t) for g, t, *_ in EXAMPLES}
    with_examples = {key for key, body in BODIES.items() if "Example" in body}
    assert with_examples <= checked
