"""Cell.put: a JSON value shown in a cell's controls reads back as the same value."""

from __future__ import annotations

from typing import Any

import pytest

from companion.kits import KITS, PadOptions
from companion.kits.pad import CHOICE, FLAG, LETTER, NUMBER, TEXT, PadRow, Part
from companion.widgets.cells import OMIT, Cell
from companion.widgets.pads import cell_for, entry_value, raw_of

SHIMODA = {row.id: row for row in KITS["shimoda"].pad(PadOptions(2)).rows}
CARD, SPACE, MERCHANT = SHIMODA["shop3"], SHIMODA["tourists3"], SHIMODA["merchant"]
# A region of counts, as Shogun's pad has them: a number per building, a heading above.
REGION = PadRow(
    "north",
    "North",
    "regions.north",
    parts=tuple(Part(b, f"{b}s", NUMBER, placeholder=b[0].upper()) for b in ("castle", "temple")),
    heading=True,
)


def card(colour: str, **scoring: Any) -> dict[str, Any]:
    return {"color": colour, "scoring": scoring}


MIXED = PadRow(
    "mixed",
    "Mixed",
    "mixed",
    parts=(
        Part("flag", "flag", FLAG),
        Part("letter", "letter", LETTER),
        Part("name", "name", TEXT),
        Part("size", "size", CHOICE, (("size…", ""), ("small", 1), ("large", 2))),
    ),
)


@pytest.mark.parametrize(
    ("row", "value"),
    [
        (CARD, card("red", type="color", color="yellow", points=3, range=3)),
        (CARD, card("yellow", type="pair", colors=["red", "pink"], points=5, range=3)),
        (CARD, card("pink", type="victory_markers", points=4, range=7)),
        (SPACE, {"tourists": {"blue": 1, "red": 2}, "chairs": 1}),
        (SPACE, {"tourists": {}}),
        (MERCHANT, "Florist"),
        (REGION, {"castle": 3, "temple": 0}),
        (REGION, {"temple": "lots"}),  # text that is not a number stays text, for the scorer
        (MIXED, {"flag": True, "letter": "Q", "name": "Sea", "size": 2}),
        (MIXED, {"flag": False}),
    ],
)
def test_a_value_put_reads_back(row: PadRow, value: Any) -> None:
    cell = cell_for(row, 0)
    cell.put(value)
    assert entry_value(row, cell.raw()) == value
    assert cell.value() == value
    cell.put(None)  # and back to empty
    assert cell.value() == entry_value(row, cell.defaults)


def test_put_sets_every_control_the_value_names() -> None:
    cell = cell_for(CARD, 1)
    cell.put(card("blue", type="color", color="red", points=2, range=5))
    assert cell.raw() == {
        "color": "blue",
        "scoring.type": "color",
        "scoring.points": "2",
        "scoring.range": "5",  # the option "5" for the number 5
        "scoring.color": "red",
        "scoring.colors[0]": "",
        "scoring.colors[1]": "",
    }


def test_a_partial_value_changes_only_its_parts() -> None:
    cell = cell_for(SPACE, 0)
    cell.put({"tourists": {"blue": 2}, "chairs": 1})
    cell.put({"chairs": 2}, partial=True)
    assert cell.value() == {"tourists": {"blue": 2}, "chairs": 2}
    cell.put({"chairs": None}, partial=True)
    assert cell.value() == {"tourists": {"blue": 2}}
    cell.put({"chairs": 3})  # whole: the tourists go
    assert cell.value() == {"tourists": {}, "chairs": 3}


def test_rows_without_parts_put_their_number_or_choice() -> None:
    number = cell_for(SHIMODA["points"], 0)
    number.put(12)
    assert number.raw() == {"n": "12"} and number.value() == 12
    number.put(None)
    assert number.value() is OMIT
    choice = PadRow("mode", "Mode", "mode", options=(("mode…", ""), ("final", "final")))
    chosen = cell_for(choice, None)
    chosen.put("final")
    assert chosen.value() == "final"
    chosen.put("unknown")  # no such option: the empty one
    assert chosen.value() is OMIT
    assert raw_of(choice, "final") == {"c": "final"}


def test_a_list_row_puts_one_entry_per_item() -> None:
    coins = PadRow("coins", "Coins", "coins", parts=(Part("", "circle", NUMBER),), repeat=3)
    cell = cell_for(coins, 0)
    cell.put([1, 4])
    assert cell.value() == [1, 4]
    cell.put([])
    assert cell.value() == []


def test_a_cell_made_without_unbuild_cannot_be_put() -> None:
    with pytest.raises(TypeError):
        Cell("x", {}, lambda raw: OMIT).put(1)
