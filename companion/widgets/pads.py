"""Each game's score pad: the shared cells and one row of cells per score-file field.

``shared_cells(game)`` are above the pad (rules, year, tour cards);
``player_rows(game, seat)`` are the pad's rows for one column. Every value
typed goes into the score file at the cell's path and is checked by the
scorer itself.
"""

from __future__ import annotations

from typing import Any

import ipywidgets as w

from companion.play.setup import TRAVELER_COINS
from companion.widgets.cells import (
    OMIT,
    PART_NAMES,
    Cell,
    ListCell,
    check_cell,
    choice,
    choice_cell,
    clip,
    int_cell,
    label,
    number,
    text_cell,
    text_input,
)
from companion.widgets.street_entry import LABEL as STREET_LABEL
from companion.widgets.street_entry import StreetEntry, entry_path
from scorers import kamakura as kamakura_rules
from scorers import shimoda as shimoda_rules
from scorers import shogun as shogun_rules

Row = tuple[str, Cell]

SHIMODA_TYPES = [
    ("scores…", ""),
    ("per tourist", "any"),
    ("per colour", "color"),
    ("per pair", "pair"),
    ("per space of 2", "exactly_two"),
    ("per 5 colours", "all_colors"),
    ("per 3 colours", "three_colors"),
    ("per chair", "chairs"),
    ("per marker", "victory_markers"),
]
SHIMODA_RANGES = [("range…", ""), *((f"range {r}", str(r)) for r in shimoda_rules.RANGES)]
SHIMODA_INITIALS = {"blue": "b", "black": "k", "red": "r", "yellow": "y", "pink": "p"}
BUILDINGS = ("provinces", *shogun_rules.BUILDINGS)
BUILDING_LETTERS = {"provinces": "prov", "castles": "cast", "temples": "tmpl", "theaters": "thtr"}


PAD_REQUIRED: dict[str, tuple[str, ...]] = {"shogun": ("score_before", "war_chests")}
"""Fields a score file may leave out (they count 0) that the pad still asks for: an
untouched cell is empty, never a value, so a pad with nothing typed cannot be valid."""


def pad_problems(game: str, document: dict[str, Any]) -> list[tuple[str, str]]:
    """``(path, message)`` for the :data:`PAD_REQUIRED` fields left empty on the pad."""
    found = []
    for seat, player in enumerate(document.get("players", [])):
        for key in PAD_REQUIRED.get(game, ()):
            if isinstance(player, dict) and key not in player:
                found.append((f"players[{seat}].{key}", "missing (type 0 when there is none)"))
    return found


def colours(words: tuple[str, ...], prompt: str) -> list[tuple[str, str]]:
    """Dropdown options for colours, with an empty first choice."""
    return [(prompt, ""), *((c, c) for c in words)]


def shared_cells(game: str) -> list[Row]:
    """The cells that belong to the whole game, not to one player."""
    if game == "shibuya":
        return [
            (
                "Rules",
                choice_cell(
                    "variant",
                    [
                        ("standard (6 at goal)", "standard"),
                        ("optional rule (4)", "no_construction"),
                    ],
                    width="16em",
                ),
            )
        ]
    if game == "shogun":
        return [
            (
                "Winter of year",
                choice_cell(
                    "year",
                    [("winter…", ""), ("2 (end of the game)", "2"), ("1", "1")],
                    convert=int,
                    width="14em",
                ),
            ),
            (
                "Board side",
                choice_cell(
                    "board", [("not said", ""), ("sun", "sun"), ("moon", "moon")], width="14em"
                ),
            ),
        ]
    if game == "kamakura":
        return [
            ("Advanced rules", check_cell("advanced", "advanced rules (always with 2 players)")),
            ("Tour cards in play", tour_list()),
        ]
    return []


def player_rows(game: str, seat: int, *, teams: bool = False) -> list[Row]:
    """The pad's rows for the player (or side) in ``seat``."""
    p = f"players[{seat}]"
    if game == "tokaido":
        travellers = [("traveller…", ""), *((t, t) for t in sorted(TRAVELER_COINS))]
        return [
            ("Traveller", choice_cell(f"{p}.traveler", travellers)),
            ("Score track", int_cell(f"{p}.journey")),
            ("Temple coins", int_cell(f"{p}.temple")),
            ("Meal prices (sum)", int_cell(f"{p}.meal_cost")),
            ("Souvenir cards", int_cell(f"{p}.souvenirs")),
            ("Hot spring cards", int_cell(f"{p}.hot_springs")),
            ("Encounter cards", int_cell(f"{p}.encounters")),
            ("Panorama achievements", int_cell(f"{p}.panorama_achievements")),
        ]
    if game == "shibuya":
        return [("Pawns at goal", int_cell(f"{p}.goals"))]
    if game == "shogun":
        rows: list[Row] = [
            ("Score before this winter", int_cell(f"{p}.score_before")),
            ("War chests", int_cell(f"{p}.war_chests")),
            ("", region_heading()),
        ]
        for region in shogun_rules.REGIONS:
            rows.append((region.capitalize(), region_cell(f"{p}.regions.{region}")))
        return rows
    if game == "kamakura":
        return [
            ("Point track", int_cell(f"{p}.track")),
            ("Site coins (Memento order)", site_coins(f"{p}.site_coins")),
            ("Eat-around coins", eat_coins(f"{p}.eat_coins")),
            ("Pieces at the end", pieces(f"{p}.pieces")),
            ("Unused taxi tickets", taxi_tickets(f"{p}.taxi_tickets")),
        ]
    if game == "shimoda":
        rows = [
            ("Merchant", text_cell(f"{p}.merchant", placeholder="name (optional)")),
            ("Merchant points", int_cell(f"{p}.merchant_points", placeholder="0")),
            (STREET_LABEL, StreetEntry(entry_path(seat))),
        ]
        for k in range(shimoda_rules.STREET_LENGTH):
            rows.append((f"Space {k + 1} card", shop_card(f"{p}.street[{k}].card")))
            rows.append((f"Space {k + 1} tourists", street_space(f"{p}.street[{k}]")))
        return rows
    raise KeyError(game)


# Shogun ----------------------------------------------------------------------


def region_heading() -> Cell:
    """The column headings of a player's region × building grid."""
    labels = [label(f"<span>{BUILDING_LETTERS[b]}</span>") for b in BUILDINGS]
    for heading in labels:
        heading.add_class("minihead")
    cell = Cell("", {}, lambda raw: OMIT, css="heading")
    cell.box.children = labels
    return cell


def region_cell(path: str) -> Cell:
    """Provinces, castles, temples and theatres held in one region."""
    controls: dict[str, w.ValueWidget] = {b: text_input("3em", numeric=True) for b in BUILDINGS}

    def build(raw: dict[str, Any]) -> Any:
        region = {}
        for key in BUILDINGS:
            value = number(clip(raw[key]))
            if value is not OMIT:
                region[key] = value
        return region or OMIT

    return Cell(path, controls, build, css="region")


# Kamakura --------------------------------------------------------------------


def letter_input(placeholder: str = "A") -> w.Text:
    """A circle letter."""
    return text_input("3.2em", placeholder=placeholder)


def upper(text: Any) -> Any:
    """A circle letter as the scorer wants it (empty: left out)."""
    cleaned = clip(text).strip().upper()
    return cleaned or OMIT


def without_omitted(entry: dict[str, Any]) -> dict[str, Any]:
    """An object without the keys whose value is :data:`OMIT`."""
    return {k: v for k, v in entry.items() if v is not OMIT}


def site_coins(path: str) -> ListCell:
    """Site coins in Memento order: circle, value, colour."""

    def item() -> dict[str, w.ValueWidget]:
        return {
            "circle": letter_input(),
            "value": text_input("3.3em", numeric=True, placeholder="pts"),
            "color": choice(colours(kamakura_rules.COLORS, "colour…"), "6.5em"),
        }

    def build(raw: dict[str, Any]) -> Any:
        return without_omitted(
            {
                "circle": upper(raw["circle"]),
                "value": number(clip(raw["value"])),
                "color": raw["color"] or OMIT,
            }
        )

    return ListCell(path, item, build, "+ coin", limit=kamakura_rules.MEMENTO_SPOTS)


def eat_coins(path: str) -> ListCell:
    """The values of the eat-around coins."""

    def item() -> dict[str, w.ValueWidget]:
        return {"value": text_input("3.3em", numeric=True, placeholder="pts")}

    def build(raw: dict[str, Any]) -> Any:
        value = number(clip(raw["value"]))
        return "" if value is OMIT else value

    return ListCell(path, item, build, "+ coin", css="inline")


def pieces(path: str) -> Cell:
    """The circles of the player's two pieces."""

    def build(raw: dict[str, Any]) -> Any:
        first, second = upper(raw["first"]), upper(raw["second"])
        if first is OMIT and second is OMIT:
            return OMIT
        return ["" if first is OMIT else first, "" if second is OMIT else second]

    cell = Cell(path, {"first": letter_input("A"), "second": letter_input("N")}, build)
    cell.parts = {"first": "first piece", "second": "second piece"}
    return cell


def taxi_tickets(path: str) -> ListCell:
    """Unused taxi tickets: the circle and the bonus printed on each."""

    def item() -> dict[str, w.ValueWidget]:
        return {
            "circle": letter_input(),
            "points": text_input("3.3em", numeric=True, placeholder="pts"),
        }

    def build(raw: dict[str, Any]) -> Any:
        return without_omitted(
            {"circle": upper(raw["circle"]), "points": number(clip(raw["points"]))}
        )

    return ListCell(path, item, build, "+ ticket")


def tour_list() -> ListCell:
    """The exclusive tour cards in play, with what is printed on them."""
    cards = [("card…", ""), *((c, c) for c in kamakura_rules.CARD_KINDS)]

    def item() -> dict[str, w.ValueWidget]:
        controls: dict[str, w.ValueWidget] = {
            "card": choice(cards, "5.5em"),
            "circles": text_input("7em", placeholder="circles B F K", own_layout=True),
            "color": choice(colours(kamakura_rules.COLORS, "colour…"), "6.5em", own_layout=True),
            "points": text_input("3.3em", numeric=True, placeholder="pts"),
            "claimed_by": text_input("7em", placeholder="claimed by", own_layout=True),
        }

        def show(_: Any = None) -> None:
            kind = kamakura_rules.CARD_KINDS.get(str(controls["card"].value))
            controls["circles"].layout.display = "" if kind == "collection" else "none"
            controls["color"].layout.display = "" if kind == "genre" else "none"
            claimable = kind in ("collection", "genre")
            controls["claimed_by"].layout.display = "" if claimable else "none"

        controls["card"].observe(show, names="value")
        show()
        return controls

    def build(raw: dict[str, Any]) -> Any:
        card = str(raw["card"])
        kind = kamakura_rules.CARD_KINDS.get(card)
        entry: dict[str, Any] = {"card": card or OMIT, "kind": kind or OMIT}
        entry["points"] = number(clip(raw["points"]))
        if kind == "collection":
            entry["circles"] = [c.upper() for c in clip(raw["circles"]).replace(",", " ").split()]
        if kind == "genre":
            entry["color"] = raw["color"] or OMIT
        if kind in ("collection", "genre"):
            entry["claimed_by"] = clip(raw["claimed_by"]).strip() or OMIT
        return without_omitted(entry)

    return ListCell("tours", item, build, "+ tour card", limit=len(kamakura_rules.CARD_KINDS))


# Shimoda ---------------------------------------------------------------------


def shop_card(path: str) -> Cell:
    """A shop card: its colour, what it scores, its points and range."""
    controls: dict[str, w.ValueWidget] = {
        "color": choice(colours(shimoda_rules.COLORS, "colour…"), "5em"),
        "type": choice(SHIMODA_TYPES, "7.8em"),
        "points": text_input("2.6em", numeric=True, placeholder="pts"),
        "range": choice(SHIMODA_RANGES, "4.6em"),
        "scored": choice(colours(shimoda_rules.COLORS, "of colour…"), "7em", own_layout=True),
        "second": choice(colours(shimoda_rules.COLORS, "and…"), "6em", own_layout=True),
    }

    def show(_: Any = None) -> None:
        kind = controls["type"].value
        controls["scored"].layout.display = "" if kind in ("color", "pair") else "none"
        controls["second"].layout.display = "" if kind == "pair" else "none"

    controls["type"].observe(show, names="value")
    show()

    def build(raw: dict[str, Any]) -> Any:
        kind = raw["type"]
        scoring: dict[str, Any] = {
            "type": kind or OMIT,
            "points": number(clip(raw["points"])),
            "range": number(raw["range"]),
        }
        if kind == "color":
            scoring["color"] = raw["scored"] or OMIT
        if kind == "pair":
            scoring["colors"] = [raw["scored"], raw["second"]]
        return {"color": raw["color"] or OMIT, "scoring": without_omitted(scoring)}

    cell = Cell(path, controls, lambda raw: without_omitted(build(raw)), css="card")
    cell.parts = {k: PART_NAMES[k] for k in controls}
    for key, control in controls.items():
        if key in ("color", "scored", "second"):
            control.add_class("colour-choice")
    return cell


def street_space(path: str) -> Cell:
    """The tourists on one space, by colour, and its chair icons."""
    controls: dict[str, w.ValueWidget] = {}
    for colour in shimoda_rules.COLORS:
        box = text_input("2.9em", numeric=True, placeholder=SHIMODA_INITIALS[colour])
        box.add_class(f"tourist-{colour}")
        controls[colour] = box
    chairs = text_input("4.2em", numeric=True, placeholder="chairs")
    chairs.add_class("chairs")
    controls["chairs"] = chairs

    def build(raw: dict[str, Any]) -> Any:
        tourists = {}
        for colour in shimoda_rules.COLORS:
            value = number(clip(raw[colour]))
            if value is not OMIT and value != 0:
                tourists[colour] = value
        space: dict[str, Any] = {"tourists": tourists}
        chairs_value = number(clip(raw["chairs"]))
        if chairs_value is not OMIT:
            space["chairs"] = chairs_value
        return space

    return Cell(path, controls, build, css="space")


def tourist_counts(document: dict[str, Any], seat: int) -> list[dict[str, int]]:
    """Per space of a Shimoda street, the whole-number tourist counts typed so far."""
    try:
        street = document["players"][seat]["street"]
    except (KeyError, IndexError, TypeError):
        return [{} for _ in range(shimoda_rules.STREET_LENGTH)]
    spaces = []
    for k in range(shimoda_rules.STREET_LENGTH):
        space = street[k] if k < len(street) and isinstance(street[k], dict) else {}
        tourists = space.get("tourists", {})
        spaces.append({c: n for c, n in tourists.items() if isinstance(n, int) and 0 < n < 10})
    return spaces


def card_colours(document: dict[str, Any], seat: int) -> list[str]:
    """Per space, the colour of the shop card chosen so far ("" when none)."""
    try:
        street = document["players"][seat]["street"]
    except (KeyError, IndexError, TypeError):
        return [""] * shimoda_rules.STREET_LENGTH
    found = []
    for k in range(shimoda_rules.STREET_LENGTH):
        space = street[k] if k < len(street) and isinstance(street[k], dict) else {}
        card = space.get("card", {})
        found.append(str(card.get("color", "")) if isinstance(card, dict) else "")
    return found
