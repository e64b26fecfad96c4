"""Why the game was won: hand-made games of every game, and the claims checked by brute force."""

from __future__ import annotations

import doctest
import itertools
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import companion.analysis.explain
from companion.analysis.explain import LABELS, Game, decisive, explain, label, read
from scorers import SCORERS
from tests.support.strategies import STRATEGIES

Breakdown = dict[str, int]


def result(
    game: str,
    *players: tuple[str, Breakdown | None],
    winners: list[str] | None = None,
    tiebreak: str | None = None,
) -> dict[str, Any]:
    """A result document as ``companion score --json`` writes it (``None``: not scored)."""
    docs: list[dict[str, Any]] = []
    for name, breakdown in players:
        total = None if breakdown is None else sum(breakdown.values())
        docs.append({"name": name, "total": total, "rank": None, "breakdown": breakdown or {}})
    scored = [d for d in docs if d["total"] is not None]
    for d in scored:
        d["rank"] = 1 + sum(1 for o in scored if o["total"] > d["total"])
    top = max(d["total"] for d in scored)
    chosen = winners or [d["name"] for d in scored if d["total"] == top]
    return {"game": game, "players": docs, "winners": chosen, "tiebreak": tiebreak}


def tokaido(
    journey: int,
    temple: int = 0,
    gourmet: int = 0,
    collector: int = 0,
    bather: int = 0,
    chat: int = 0,
) -> Breakdown:
    return {
        "journey": journey,
        "temple": temple,
        "gourmet": gourmet,
        "collector": collector,
        "bather": bather,
        "chatterbox": chat,
    }


def shogun(
    previous: int, provinces: int, buildings: int, castles: int, temples: int, theaters: int
) -> Breakdown:
    return {
        "previous": previous,
        "provinces": provinces,
        "buildings": buildings,
        "castle_majorities": castles,
        "temple_majorities": temples,
        "theater_majorities": theaters,
    }


def kamakura(*values: int) -> Breakdown:
    keys = ("track", "site_coins", "eat_coins", "eat_bonus", "remembrance", "tours", "taxi")
    return dict(zip(keys, values, strict=True))


def shimoda(shops: int, markers: int, merchant: int) -> Breakdown:
    return {"shops": shops, "victory_markers": markers, "merchant": merchant}


SHARE = "Against each player's share of all points, "


def at(share: int, overall: int) -> str:
    """A strongest category's percentages, as the sentence gives them."""
    return f"({share}% of the table's points there, against {overall}% of all points)"


CASES: list[tuple[str, dict[str, Any], list[str]]] = [
    (
        "tokaido: the temple ranking decided it",
        result(
            "tokaido",
            ("Aki", tokaido(50, 10, gourmet=3)),
            ("Ben", tokaido(56, 4)),
            ("Cho", tokaido(44, 7, collector=3, bather=3)),
        ),
        [
            "Aki won by 3 points over Ben, the closest gap at the table.",
            "Without the temple ranking, Ben would have won by 3 points.",
            SHARE + "Aki was strongest in the gourmet award " + at(100, 35) + ", "
            "Ben in the journey " + at(37, 33) + " "
            "and Cho in the collector award " + at(100, 32) + ".",
        ],
    ),
    (
        "tokaido: a win on the tie-break",
        result(
            "tokaido",
            ("Aki", tokaido(50, 7, gourmet=3)),
            ("Ben", tokaido(50, 10)),
            ("Cho", tokaido(40, 4, bather=3)),
            winners=["Aki"],
            tiebreak="most achievement cards",
        ),
        [
            "Aki and Ben both scored 60 points; Aki won on the tie-break (most achievement cards).",
            "Without the gourmet award, Ben would have won by 3 points.",
            SHARE + "Aki was strongest in the gourmet award " + at(100, 36) + ", "
            "Ben in the temple ranking " + at(48, 36) + " "
            "and Cho in the bather award " + at(100, 28) + ".",
        ],
    ),
    (
        "tokaido: a shared win; two awards of 3 would each break it, the first counts",
        result(
            "tokaido",
            ("Aki", tokaido(50, 7, chat=3)),
            ("Ben", tokaido(47, 10, collector=3)),
            ("Cho", tokaido(46, 4)),
        ),
        [
            "Aki and Ben shared the win on 60 points, 10 points ahead of Cho.",
            "Without the collector award, Aki would have won alone by 3 points.",
            SHARE + "Aki was strongest in the chatterbox award " + at(100, 35) + ", "
            "Ben in the collector award " + at(100, 35) + " "
            "and Cho in the journey " + at(32, 29) + ".",
        ],
    ),
    (
        "tokaido: five players, the closest gap is for second place",
        result(
            "tokaido",
            ("Aki", tokaido(60, 10, gourmet=3)),
            ("Ben", tokaido(62, 4)),
            ("Cho", tokaido(55, 7, collector=3)),
            ("Dai", tokaido(58, 2, bather=3)),
            ("Emi", tokaido(40, 0, chat=3)),
        ),
        [
            "Aki won by 7 points over Ben; the closest gap was 1 point, "
            "between Ben on 66 and Cho on 65.",
            "Without the temple ranking and the gourmet award, Ben would have won by 1 point.",
            SHARE + "Aki was strongest in the gourmet award " + at(100, 24) + ", "
            "Ben in the journey " + at(23, 21) + ", "
            "Cho in the collector award " + at(100, 21) + ", "
            "Dai in the bather award " + at(100, 20) + " "
            "and Emi in the chatterbox award " + at(100, 14) + ".",
        ],
    ),
    (
        "tokaido: a seat that was not scored takes no part",
        result(
            "tokaido",
            ("Aki", tokaido(50, 10, gourmet=3)),
            ("Ben", tokaido(56, 4)),
            ("Cho", None),
            ("Dai", tokaido(44, 7, collector=3, bather=3)),
        ),
        [
            "Aki won by 3 points over Ben, the closest gap at the table.",
            "Without the temple ranking, Ben would have won by 3 points.",
            SHARE + "Aki was strongest in the gourmet award " + at(100, 35) + ", "
            "Ben in the journey " + at(37, 33) + " "
            "and Dai in the collector award " + at(100, 32) + ".",
        ],
    ),
    (
        "shimoda: the merchant's 2 points decided a 1-point game",
        result("shimoda", ("Aki", shimoda(14, 10, 0)), ("Ben", shimoda(18, 5, 2))),
        [
            "Ben won by 1 point, 25 to 24.",
            "Without the merchant's points, Aki would have won by 1 point.",
            SHARE + "Aki was strongest in the victory markers " + at(67, 49) + " "
            "and Ben in the merchant's points " + at(100, 51) + ".",
        ],
    ),
    (
        "shimoda: equal in everything, the tie-break decided",
        result(
            "shimoda",
            ("Aki", shimoda(15, 10, 0)),
            ("Ben", shimoda(15, 10, 0)),
            winners=["Aki"],
            tiebreak="more tourists on the street",
        ),
        [
            "Aki and Ben both scored 25 points; Aki won on the tie-break "
            "(more tourists on the street).",
            "Aki scored at least as many points as anyone in every category, "
            "so no category decided it.",
        ],
    ),
    (
        "shimoda: the winner led everywhere",
        result("shimoda", ("Aki", shimoda(20, 10, 1)), ("Ben", shimoda(12, 10, 0))),
        [
            "Aki won by 9 points, 31 to 22.",
            "Aki scored at least as many points as anyone in every category, "
            "so no category decided it.",
            SHARE + "Aki was strongest in the merchant's points " + at(100, 58) + " "
            "and Ben in the victory markers " + at(50, 42) + ".",
        ],
    ),
    (
        "shibuya: one category, one sentence",
        result("shibuya", ("Red", {"goals": 6}), ("Blue", {"goals": 4})),
        ["Red won by 2 pawns at goal, 6 to 4."],
    ),
    (
        "shibuya: a side's members come with its entry",
        {
            "game": "shibuya",
            "players": [
                {
                    "name": "Red",
                    "members": ["Aki", "Cho"],
                    "total": 4,
                    "rank": 1,
                    "breakdown": {"goals": 4},
                },
                {
                    "name": "Blue",
                    "members": ["Ben", "Dai"],
                    "total": 1,
                    "rank": 2,
                    "breakdown": {"goals": 1},
                },
            ],
            "winners": ["Red"],
            "tiebreak": None,
        },
        ["Red (Aki and Cho) won by 3 pawns at goal, 4 to 1."],
    ),
    (
        "kamakura: nobody scored, a shared win and nothing more to say",
        result("kamakura", *((n, kamakura(0, 0, 0, 0, 0, 0, 0)) for n in ("Aki", "Ben", "Cho"))),
        ["Aki, Ben and Cho shared the win on 0 points."],
    ),
    (
        "kamakura: three categories had to go; a tie lower down is the closest gap",
        result(
            "kamakura",
            ("Aki", kamakura(12, 9, 4, 0, 3, 2, 0)),
            ("Ben", kamakura(10, 7, 6, 1, 0, 0, 1)),
            ("Cho", kamakura(8, 6, 3, 0, 2, 0, 1)),
            ("Dai", kamakura(9, 5, 5, 0, 0, 0, 1)),
        ),
        [
            "Aki won by 5 points over Ben; Cho and Dai finished level on 20.",
            "Without the site coins, the remembrance bonus and the tour cards, "
            "Ben would have won by 2 points.",
            SHARE + "Aki was strongest in the tour cards " + at(100, 32) + ", "
            "Ben in the eat-around bonus " + at(100, 26) + ", "
            "Cho in the remembrance bonus " + at(40, 21) + " "
            "and Dai in the taxi tickets " + at(33, 21) + ".",
        ],
    ),
    (
        "kamakura: one point in the whole game",
        result(
            "kamakura",
            ("Aki", kamakura(0, 0, 0, 0, 0, 0, 1)),
            ("Ben", kamakura(0, 0, 0, 0, 0, 0, 0)),
        ),
        [
            "Aki won by 1 point, 1 to 0.",
            "Aki scored at least as many points as anyone in every category, "
            "so no category decided it.",
        ],
    ),
    (
        "kamakura: the two runners-up are alike, so no removal gives one new winner",
        result(
            "kamakura",
            ("Aki", kamakura(12, 9, 4, 0, 3, 2, 0)),
            ("Ben", kamakura(10, 7, 6, 1, 0, 0, 1)),
            ("Cho", kamakura(10, 7, 6, 1, 0, 0, 1)),
        ),
        [
            "Aki won by 5 points over Ben and Cho, who finished level on 25.",
            SHARE + "Aki was strongest in the remembrance bonus " + at(100, 38) + ", "
            "Ben in the eat-around bonus " + at(50, 31) + " "
            "and Cho in the eat-around bonus " + at(50, 31) + ".",
        ],
    ),
    (
        "kamakura: second place shared, one of them would have won",
        result(
            "kamakura",
            ("Aki", kamakura(12, 9, 4, 0, 3, 2, 0)),
            ("Ben", kamakura(10, 7, 6, 1, 0, 0, 1)),
            ("Cho", kamakura(9, 7, 6, 1, 0, 0, 2)),
        ),
        [
            "Aki won by 5 points over Ben and Cho, who finished level on 25.",
            "Without the point track and the remembrance bonus, Cho would have won by 1 point.",
            SHARE + "Aki was strongest in the remembrance bonus " + at(100, 38) + ", "
            "Ben in the eat-around bonus " + at(50, 31) + " "
            "and Cho in the taxi tickets " + at(67, 31) + ".",
        ],
    ),
    (
        "shogun: three tied, the tie-break left two sharing the win",
        result(
            "shogun",
            ("Aki", shogun(20, 10, 5, 3, 0, 1)),
            ("Ben", shogun(22, 9, 6, 0, 2, 0)),
            ("Cho", shogun(18, 12, 6, 3, 0, 0)),
            ("Dai", shogun(15, 8, 4, 0, 2, 1)),
            winners=["Aki", "Cho"],
            tiebreak="most war chests",
        ),
        [
            "Aki, Ben and Cho all scored 39 points; after the tie-break (most war chests), "
            "Aki and Cho shared the win.",
            "Without the castle majorities, Ben would have won by 3 points.",
            SHARE + "Aki was strongest in the castle majorities " + at(50, 27) + ", "
            "Ben in the temple majorities " + at(50, 27) + ", "
            "Cho in the castle majorities " + at(50, 27) + " "
            "and Dai in the temple majorities " + at(50, 20) + ".",
        ],
    ),
]


@pytest.mark.parametrize(("case", "doc", "sentences"), CASES, ids=[c[0] for c in CASES])
def test_hand_made_games(case: str, doc: dict[str, Any], sentences: list[str]) -> None:
    assert explain(doc) == sentences


def test_interim_scoring_speaks_of_the_lead() -> None:
    doc = result(
        "shogun",
        ("Aki", shogun(0, 10, 5, 3, 2, 0)),
        ("Ben", shogun(0, 9, 4, 3, 0, 1)),
        ("Cho", shogun(0, 7, 3, 0, 2, 1)),
    )
    assert explain(doc, interim=True) == [
        "Aki leads by 3 points over Ben, the closest gap at the table.",
        "Without the provinces, the buildings and the temple majorities, "
        "Ben would lead by 1 point.",
        SHARE + "Aki was strongest in the castle majorities " + at(50, 40) + ", "
        "Ben in the castle majorities " + at(50, 34) + " "
        "and Cho in the temple majorities " + at(50, 26) + ".",
    ]


def test_interim_ties_share_the_lead() -> None:
    doc = result(
        "shogun",
        ("Aki", shogun(0, 10, 5, 0, 0, 0)),
        ("Ben", shogun(0, 9, 6, 0, 0, 0)),
        ("Cho", shogun(0, 7, 3, 0, 0, 0)),
    )
    assert explain(doc, interim=True) == [
        "Aki and Ben share the lead on 15 points, 5 points ahead of Cho.",
        "Without the buildings, Aki would lead alone by 1 point.",
        SHARE + "Ben was strongest in the buildings " + at(43, 38) + " "
        "and Cho in the provinces " + at(27, 25) + ".",
    ]


def test_members_given_by_the_caller() -> None:
    doc = result("shibuya", ("Red", {"goals": 3}), ("Blue", {"goals": 6}))
    members = {"Red": ["Aki", "Cho"], "Blue": ["Ben", "Dai"]}
    assert explain(doc, members=members) == ["Blue (Ben and Dai) won by 3 pawns at goal, 6 to 3."]


def test_a_tie_after_removal_is_not_a_change() -> None:
    # Without the gourmet award (or the journey) Aki and Ben would be level, which a
    # tie-break would settle: not a new winner. It takes both to put Ben ahead.
    doc = result(
        "tokaido",
        ("Aki", tokaido(50, 7, gourmet=3)),
        ("Ben", tokaido(47, 10)),
        ("Cho", tokaido(30)),
    )
    decision = decisive(doc)
    assert decision is not None
    assert decision.categories == ("journey", "gourmet")
    assert (decision.leader, decision.margin) == ("Ben", 3)
    assert decision.totals == {"Aki": 7, "Ben": 10, "Cho": 0}
    assert (
        explain(doc)[1]
        == "Without the journey and the gourmet award, Ben would have won by 3 points."
    )


@pytest.mark.parametrize(
    "doc",
    [
        {},
        [],
        {"game": "tokaido", "players": "Aki", "winners": ["Aki"], "tiebreak": None},
        # The breakdown does not add up to the total.
        {
            "game": "tokaido",
            "players": [
                {"name": "Aki", "total": 5, "rank": 1, "breakdown": {"journey": 4}},
                {"name": "Ben", "total": 3, "rank": 2, "breakdown": {"journey": 3}},
            ],
            "winners": ["Aki"],
            "tiebreak": None,
        },
        # The named winner does not have the top total.
        result("shimoda", ("Aki", shimoda(1, 0, 0)), ("Ben", shimoda(2, 0, 0)), winners=["Aki"]),
        # A single winner of a tie with no tie-break named.
        result("shimoda", ("Aki", shimoda(2, 0, 0)), ("Ben", shimoda(2, 0, 0)), winners=["Aki"]),
        # A winner nobody is called.
        result("shimoda", ("Aki", shimoda(2, 0, 0)), ("Ben", shimoda(1, 0, 0)), winners=["Cho"]),
        # true is not a number.
        {
            "game": "shibuya",
            "players": [
                {"name": "Red", "total": True, "rank": 1, "breakdown": {"goals": True}},
                {"name": "Blue", "total": 0, "rank": 2, "breakdown": {"goals": 0}},
            ],
            "winners": ["Red"],
            "tiebreak": None,
        },
        # Only one seat was scored.
        result("tokaido", ("Aki", tokaido(40)), ("Ben", None)),
        # Far more categories than any game has.
        result("tokaido", ("Aki", {f"c{k}": 1 for k in range(500)}), ("Ben", {"c0": 0})),
    ],
)
def test_documents_that_are_not_consistent_results_give_no_sentences(doc: Any) -> None:
    assert explain(doc) == []
    assert decisive(doc) is None


def test_labels() -> None:
    assert label("tokaido", "temple") == "the temple ranking"
    assert label("shogun", "theater_majorities") == "the theatre majorities"
    assert label("tokaido", "new_award") == "the new award"
    assert label("unknown", "x_y") == "the x y"
    # Every category a scorer reports has a label written for people.
    assert {game: set(LABELS[game]) for game in SCORERS} == {
        game: set(scorer.info.categories) for game, scorer in SCORERS.items()
    }


def test_names_are_kept_verbatim() -> None:
    doc = result(
        "shimoda", ("[bold]Aki[/]", shimoda(14, 10, 0)), ("Ben in Kyoto", shimoda(18, 5, 2))
    )
    assert explain(doc)[0] == "Ben in Kyoto won by 1 point, 25 to 24."
    assert explain(doc)[2].startswith(SHARE + "[bold]Aki[/] was strongest in the victory markers")


# --- the claims, checked by brute force ------------------------------------------------


def flips(game: Game, removed: tuple[int, ...]) -> str | None:
    """Who would win outright without ``removed`` (category indexes), if the winner changes."""
    left = [s.total - sum(s.points[k] for k in removed) for s in game.seats]
    top = max(left)
    if left.count(top) != 1:
        return None
    leader = left.index(top)
    if len(game.winners) == 1 and leader == game.winners[0]:
        return None
    return game.seats[leader].name


def check_claims(doc: dict[str, Any]) -> None:
    game = read(doc)
    assert game is not None
    categories = game.categories
    decision = decisive(game)
    useful = [k for k in range(len(categories)) if len({s.points[k] for s in game.seats}) > 1]
    if decision is None:
        if len(useful) <= 10:
            for size in range(1, len(useful) + 1):
                for removed in itertools.combinations(useful, size):
                    assert flips(game, removed) is None, removed
        return
    removed = tuple(categories.index(c) for c in decision.categories)
    assert flips(game, removed) == decision.leader
    totals = decision.totals
    assert totals == {s.name: s.total - sum(s.points[k] for k in removed) for s in game.seats}
    others = [v for name, v in totals.items() if name != decision.leader]
    assert decision.margin == totals[decision.leader] - max(others) > 0
    # No smaller set changes the winner.
    for size in range(1, len(removed)):
        for smaller in itertools.combinations(useful, size):
            assert flips(game, smaller) is None, smaller
    sentences = explain(doc)
    assert 1 <= len(sentences) <= 3
    names = [label(game.game, c) for c in decision.categories]
    assert any(s.startswith("Without " + names[0]) for s in sentences)


@st.composite
def made_up_results(draw: st.DrawFn) -> dict[str, Any]:
    """Any numbers at all: 2–5 seats, 1–8 categories, ties, tie-breaks and shared wins."""
    seats = draw(st.integers(2, 5))
    count = draw(st.integers(1, 8))
    points = st.sampled_from([0, 0, 1, 2, 3, 4, 5, 7, 10, 15])
    players = []
    for k in range(seats):
        breakdown = {f"c{c}": draw(points) for c in range(count)}
        players.append((f"P{k}", breakdown))
    doc = result("tokaido", *players)
    leaders = doc["winners"]
    if len(leaders) > 1 and draw(st.booleans()):
        doc["winners"] = [draw(st.sampled_from(leaders))]
        doc["tiebreak"] = "most achievement cards"
    return doc


@settings(max_examples=300, deadline=None)
@given(made_up_results())
def test_the_decisive_claim_is_true_and_minimal(doc: dict[str, Any]) -> None:
    check_claims(doc)


@pytest.mark.parametrize("game", sorted(SCORERS))
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_real_results_of_every_game(game: str, data: st.DataObject) -> None:
    file = data.draw(STRATEGIES[game], label="score file")
    doc = SCORERS[game].score_json(file).to_json()
    sentences = explain(doc)
    assert 1 <= len(sentences) <= 3
    assert all(s.endswith(".") and "\n" not in s for s in sentences)
    check_claims(doc)


def test_the_example_in_the_docstring() -> None:
    assert doctest.testmod(companion.analysis.explain).failed == 0
