"""Shimoda's street entry on the score pad, driven by ``.value``: each player's seven
shop cards typed in one line, in the terminal's codes, filling that player's cells."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from companion.widgets import GamePage
from scorers import SCORERS

EXAMPLE = json.loads((Path(__file__).parents[2] / "examples" / "shimoda.json").read_text())


def blank(color: str = "blue", **extra: Any) -> dict[str, Any]:
    """A space with a card that scores nothing (as in the scorer's tests)."""
    return {
        "card": {"color": color, "scoring": {"type": "any", "points": 0, "range": 1}},
        "tourists": {},
        **extra,
    }


def two_streets(first: list[dict[str, Any]], second: list[dict[str, Any]]) -> dict[str, Any]:
    players = [{"name": "Aki", "street": first}, {"name": "Ben", "street": second}]
    return {"game": "shimoda", "players": players}


# The rulebook's victory-marker example: 2 tourists against 3, the blue one on a blue card
# counting twice; the other spaces hold cards that score nothing.
MARKER_EXAMPLE = two_streets(
    [blank("red", tourists={"black": 1, "yellow": 1})] + [blank() for _ in range(6)],
    [blank(tourists={"blue": 1, "red": 1})] + [blank() for _ in range(6)],
)
CHAIRS = two_streets(
    [
        blank(chairs=1),
        {
            "card": {"color": "red", "scoring": {"type": "chairs", "points": 3, "range": 3}},
            "tourists": {},
            "chairs": 2,
        },
        blank(),
        blank(chairs=4),
        blank(tourists={"red": 1}),
        {
            "card": {
                "color": "black",
                "scoring": {"type": "victory_markers", "points": 4, "range": 3},
            },
            "tourists": {"black": 1},
        },
        blank(),
    ],
    [blank() for _ in range(5)] + [blank(tourists={"red": 1}), blank(tourists={"blue": 1})],
)

STREETS = [
    pytest.param(
        EXAMPLE,
        "ry33 btwo35c1 y rp 5 3 pvm47 kany11 rchair35c2 ball75",
        "y three 5 3 / k any 1 3 / pp31 rtwo33 bvm45 ychair33 c1 =5",
        (59, 61),
        id="the-example-game-with-a-card-of-the-other-street",
    ),
    pytest.param(
        MARKER_EXAMPLE,
        "rany01 bany01 bany01 bany01 bany01 bany01 bany01",
        "b any 0 1 =2 =3 =4 =5 =6 =7",
        (0, 5),
        id="rulebook-victory-marker-2-vs-3",
    ),
    pytest.param(
        CHAIRS,
        "bany01c1 r chair 3 3 c2 bany01 bany01 c4 bany01 kvm43 bany01",
        "=3 =3 =3 =3 =3 =3 =3",
        (27, 5),
        id="chairs-and-victory-marker-cards",
    ),
]


def shimoda_page(names: tuple[str, str] = ("Aki", "Ben")) -> GamePage:
    page = GamePage("shimoda")
    for seat, name in enumerate(names):
        page.name_inputs[seat].value = name
    return page


def entry(page: GamePage, seat: int) -> Any:
    return page.form.cells[f"players[{seat}].shop_cards"]


def type_street(page: GamePage, seat: int, text: str) -> None:
    entry(page, seat).controls["t"].value = text


def said(page: GamePage, seat: int) -> str:
    return str(entry(page, seat).said.value)


def enter_others(page: GamePage, document: dict[str, Any]) -> None:
    """Merchant points and tourists, as the boxes take them (the entry leaves them be)."""
    for seat, player in enumerate(document["players"]):
        points = page.form.cells[f"players[{seat}].merchant_points"].controls["n"]
        points.value = str(player.get("merchant_points", 0))
        if player.get("merchant"):
            page.form.cells[f"players[{seat}].merchant"].controls[""].value = player["merchant"]
        for k, space in enumerate(player["street"]):
            cell = page.form.cells[f"players[{seat}].street[{k}]"]
            for colour, count in space["tourists"].items():
                cell.controls[f"tourists.{colour}"].value = str(count)


def enter_cards_cell_by_cell(page: GamePage, document: dict[str, Any]) -> None:
    """Every card through its dropdowns and every chair through its box."""
    for seat, player in enumerate(document["players"]):
        for k, space in enumerate(player["street"]):
            card = page.form.cells[f"players[{seat}].street[{k}].card"].controls
            scoring = space["card"]["scoring"]
            card["color"].value = space["card"]["color"]
            card["scoring.type"].value = scoring["type"]
            card["scoring.points"].value = str(scoring["points"])
            card["scoring.range"].value = str(scoring["range"])
            if scoring["type"] == "color":
                card["scoring.color"].value = scoring["color"]
            if scoring["type"] == "pair":
                card["scoring.colors[0]"].value, card["scoring.colors[1]"].value = scoring["colors"]
            if space.get("chairs"):
                chairs = page.form.cells[f"players[{seat}].street[{k}]"].controls["chairs"]
                chairs.value = str(space["chairs"])


def street_cells(page: GamePage, seat: int) -> list[Any]:
    return [page.form.cells[f"players[{seat}].street[{k}].card"].raw() for k in range(7)] + [
        page.form.cells[f"players[{seat}].street[{k}]"].raw() for k in range(7)
    ]


@pytest.mark.parametrize(("document", "first", "second", "totals"), STREETS)
def test_a_typed_street_scores_as_the_same_street_entered_cell_by_cell(
    document: dict[str, Any], first: str, second: str, totals: tuple[int, int]
) -> None:
    typed = shimoda_page()
    enter_others(typed, document)
    type_street(typed, 0, first)
    type_street(typed, 1, second)
    by_cell = shimoda_page()
    enter_others(by_cell, document)
    enter_cards_cell_by_cell(by_cell, document)
    assert "Every cell is filled in and valid" in typed.form.summary.value
    assert typed.form.document() == by_cell.form.document()
    assert typed.form.result() == by_cell.form.result()
    expected = SCORERS["shimoda"].score_json(copy.deepcopy(document)).to_json()
    assert typed.form.result()["players"] == expected["players"]
    assert tuple(p["total"] for p in typed.form.result()["players"]) == totals
    assert [label.value for label in typed.form.total_labels] == [f"<b>{t}</b>" for t in totals]
    for seat in (0, 1):
        assert said(typed, seat).endswith("<div class='ok'>All 7 cards are on the pad.</div>")


def test_each_card_is_spelled_out_as_the_street_is_typed() -> None:
    page = shimoda_page()
    assert said(page, 0) == (
        "<div class='hint'>Aki's 7 cards, space 1 to 7 from Aki's left, in the terminal's "
        "codes: by33 bany15 … (=5: the card on Ben's space 5)</div>"
    )
    assert said(page, 1) == (
        "<div class='hint'>Ben's 7 cards, space 1 to 7 as the pad numbers them (space 1 faces "
        "Aki's space 1), in the terminal's codes: by33 bany15 … (=5: the card on Aki's "
        "space 5)</div>"
    )
    type_street(page, 0, "ry33 b two 3")
    assert said(page, 0) == (
        "<div>Space 1: a red card, 3 points per yellow tourist, over 3 spaces centred on it</div>"
        "<div class='typing'>Space 2: a blue card, 3 points per space with exactly 2 tourists "
        "...</div>"
        "<div class='hint'>6 more cards to type.</div>"
    )


def test_a_half_typed_street_changes_no_cell() -> None:
    page = shimoda_page()
    enter_cards_cell_by_cell(page, EXAMPLE)
    before = [street_cells(page, seat) for seat in (0, 1)]
    document = page.form.document()
    for text in ("", "k", "bany15 kany15", "bany15 kany15 y rp 5", "bany15 kany15 =3"):
        type_street(page, 0, text)
        assert [street_cells(page, seat) for seat in (0, 1)] == before
        assert page.form.document() == document


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        (
            "ry33 bx35 y rp 5 3 pvm47 kany11 rchair35c2 ball75",
            "Space 2 (bx35): 'x' is not what a card scores: a colour, a pair (rp), any, two, "
            "all, three, chair, vm",
        ),
        (
            "ry33 btwo35c1 y rp 5 4 pvm47 kany11 rchair35c2 ball75",
            "Space 3 (y rp 5 4): '4' is not a range: 1, 3, 5 or 7",
        ),
        (
            "ry33 btwo35c1 yrp53 pvm47 kany11 rchair35c2 ball75 kany11",
            "8 cards typed: a street has 7 spaces",
        ),
        (
            "ry33 btwo35c1 yrp53 pvm47 kany11 rchair35c2 =8",
            "Space 7 (=8): after = comes the other street's space number, 1 to 7 (e.g. =3)",
        ),
    ],
)
def test_a_bad_code_is_said_and_changes_nothing(text: str, problem: str) -> None:
    page = shimoda_page()
    type_street(page, 0, "bany15 bany15 bany15 bany15 bany15 bany15 bany15")
    before = street_cells(page, 0)
    document = page.form.document()
    type_street(page, 0, text)
    assert f"<div class='problem'>{problem}</div>" in said(page, 0)
    assert street_cells(page, 0) == before
    assert page.form.document() == document


def test_a_card_of_the_other_street_is_repeated_by_its_space_number() -> None:
    page = shimoda_page()
    type_street(page, 1, "=4 bany15 bany15 bany15 bany15 bany15 bany15")
    assert (
        "<div class='problem'>Space 1 (=4): the other street's space 4 has no card yet</div>"
        in (said(page, 1))
    )
    type_street(page, 0, "bany15 bany15 bany15 k rp 5 5 c1 bany15 bany15 bany15")
    type_street(page, 1, "=4 bany15 bany15 bany15 bany15 bany15 bany15 ")
    assert page.form.document()["players"][1]["street"][0] == {
        "card": {
            "color": "black",
            "scoring": {"type": "pair", "points": 5, "range": 5, "colors": ["red", "pink"]},
        },
        "tourists": {},
        "chairs": 1,
    }
    assert said(page, 1).startswith(
        "<div>Space 1: as Aki's space 4: a black card, 5 points per pair of red + pink, over "
        "5 spaces, 1 chair icon on it</div>"
    )


def test_a_card_fixed_on_the_pad_is_written_back_into_the_line() -> None:
    page = shimoda_page()
    type_street(page, 0, "ry33 btwo35c1 y rp 5 3 pvm47 kany11 rchair35c2 ball75")
    card = page.form.cells["players[0].street[2].card"].controls
    card["scoring.points"].value = "4"
    assert (
        entry(page, 0).controls["t"].value == "ry33 btwo35c1 yrp43 pvm47 kany11 rchair35c2 ball75"
    )
    card["scoring.points"].value = ""  # no whole card at space 3: the line stays, and says so
    assert (
        entry(page, 0).controls["t"].value == "ry33 btwo35c1 yrp43 pvm47 kany11 rchair35c2 ball75"
    )
    assert said(page, 0).endswith(
        "<div class='note'>The pad holds other cards at space 3: change this line to put "
        "these back, or fix them below.</div>"
    )
    type_street(page, 0, "ry33 btwo35c1 yrp43 pvm47 kany11 rchair35c2 ball75 ")
    assert card["scoring.points"].value == "4"
    fresh = shimoda_page()
    enter_cards_cell_by_cell(fresh, EXAMPLE)  # the last card chosen makes the line
    assert (
        entry(fresh, 1).controls["t"].value == "ythree53 kany13 pp31 rtwo33 bvm45 ychair33c1 kany11"
    )


def test_the_street_entry_is_named_player_and_field() -> None:
    page = GamePage("shimoda")
    box = entry(page, 1).controls["t"]
    assert box.tooltip == "Player 2: Shop cards"
    page.name_inputs[1].value = "Ben"
    assert box.tooltip == "Ben: Shop cards"
    assert page.form.rows[1][2][0] == "Shop cards"
    assert "c-players-1-shop-cards" in entry(page, 1).widget._dom_classes
    assert page.cell_name("players[1].shop_cards") == "Ben: shop cards"


def test_each_street_is_a_cell_of_its_own_kept_in_the_draft(db_path: Path) -> None:
    page = shimoda_page()
    type_street(page, 0, "ry33 btwo35c1 y rp 5 3 pvm47 kany11 rchair35c2 ball75")
    type_street(page, 1, "ythree53 kany13")  # the other phone, at the same time
    assert entry(page, 0).controls["t"].value.startswith("ry33")
    assert page.form.document()["players"][0]["street"][6]["card"]["color"] == "blue"
    assert "players[1].street[0].card" not in page.form.touched
    reloaded = GamePage("shimoda")
    assert reloaded.load_draft()
    assert entry(reloaded, 1).controls["t"].value == "ythree53 kany13"
    assert "<div class='hint'>5 more cards to type.</div>" in said(reloaded, 1)
    assert reloaded.form.document() == page.form.document()


def test_a_street_typed_after_save_is_refused(db_path: Path) -> None:
    page = shimoda_page()
    enter_others(page, EXAMPLE)
    type_street(page, 0, "ry33 btwo35c1 y rp 5 3 pvm47 kany11 rchair35c2 ball75")
    type_street(page, 1, "ythree53 kany13 pp31 rtwo33 bvm45 ychair33c1 =5")
    assert page.form.save() == 1
    document = page.form.document()
    type_street(page, 0, "bany15 bany15 bany15 bany15 bany15 bany15 bany15")
    assert entry(page, 0).controls["t"].value.startswith("ry33")
    assert page.form.document() == document
    assert "Game #1 is saved: that change was not kept" in page.form.status.value
    assert said(page, 0).endswith("<div class='ok'>All 7 cards are on the pad.</div>")


def test_a_line_naming_a_card_not_typed_yet_fills_when_the_other_street_arrives() -> None:
    page = shimoda_page()
    type_street(page, 1, "ythree53 kany13 pp31 rtwo33 bvm45 ychair33c1 =5")  # Ben is quicker
    assert "Space 7 (=5): the other street's space 5 has no card yet" in said(page, 1)
    assert page.form.cells["players[1].street[0].card"].controls["color"].value == ""
    type_street(page, 0, "ry33 btwo35c1 y rp 5 3 pvm47 kany11 rchair35c2 ball75")
    assert (
        page.form.document()["players"][1]["street"][6]["card"]
        == EXAMPLE["players"][1]["street"][6]["card"]
    )
    assert said(page, 1).endswith("<div class='ok'>All 7 cards are on the pad.</div>")
    card = page.form.cells["players[1].street[6].card"].controls
    card["scoring.range"].value = "3"  # fixed by hand afterwards: a later change of Aki's keeps it
    assert entry(page, 1).controls["t"].value.endswith("ychair33c1 kany13")
    type_street(page, 0, "ry33 btwo35c1 y rp 5 3 pvm47 kany15 rchair35c2 ball75")
    assert card["scoring.range"].value == "3"
