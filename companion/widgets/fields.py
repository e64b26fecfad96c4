"""The fields of each game's score form: where each value goes in the score file.

A :class:`Field` is one input with the JSON path it fills (``players[0].journey``)
and how its text becomes a JSON value. Conversions never refuse: a value that
is not a number stays text, so the scorer's own check reports it at that path,
beside the field, with the same words as ``companion score``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from companion.play.setup import TRAVELER_COINS
from scorers import shimoda as shimoda_rules

Convert = Callable[[Any], Any]
OMIT = object()  # a converted value that leaves the key out of the score file


@dataclass(frozen=True)
class Field:
    """One input of a score form.

    Attributes:
        path: Where the value goes, e.g. ``players[1].street[3].tourists``.
        label: What the players see.
        kind: ``text``, ``int``, ``choice`` or ``check``.
        options: The choices of a ``choice`` field.
        convert: Turns the widget's value into the JSON value (or :data:`OMIT`).
        default: The starting value.
    """

    path: str
    label: str
    kind: str = "text"
    options: tuple[str, ...] = ()
    convert: Convert | None = None
    default: Any = ""


def number(text: Any) -> Any:
    """A whole number, or the text itself for the scorer to report."""
    cleaned = str(text).strip()
    if cleaned.lstrip("-").isdigit():
        return int(cleaned)
    return cleaned


def optional_text(text: Any) -> Any:
    """Left out of the file when empty."""
    return str(text).strip() or OMIT


def optional_number(text: Any) -> Any:
    """Left out of the file when empty."""
    return number(text) if str(text).strip() else OMIT


def words(text: Any) -> list[str]:
    """``"A  N"`` → ``["A", "N"]``."""
    return str(text).upper().split()


def numbers(text: Any) -> list[Any]:
    """``"2 1 3"`` → ``[2, 1, 3]``."""
    return [number(part) for part in str(text).replace(",", " ").split()]


def entries(keys: tuple[str, ...]) -> Convert:
    """``"B 3 pink, F 4 green"`` → objects with ``keys`` (numbers where they are numbers)."""

    def convert(text: Any) -> list[dict[str, Any]]:
        result = []
        for chunk in str(text).split(","):
            parts = chunk.split()
            if parts:
                values = [number(p) if p.lstrip("-").isdigit() else p for p in parts]
                result.append(dict(zip(keys, values, strict=False)))
        return result

    return convert


def region(text: Any) -> Any:
    """``"3 1 0 2"`` → provinces, castles, temples, theaters (empty: left out)."""
    values = numbers(text)
    if not values:
        return OMIT
    names = ("provinces", "castles", "temples", "theaters")
    return dict(zip(names, values, strict=False))


def tours(text: Any) -> list[dict[str, Any]]:
    """One card a line: ``A collection B F K 5``, ``I genre pink 4``, ``L big_eater 5``."""
    cards = []
    for line in str(text).splitlines():
        parts = line.split()
        if not parts:
            continue
        card: dict[str, Any] = {"card": parts[0].upper()}
        if len(parts) > 1:
            card["kind"] = parts[1]
        rest = parts[2:]
        if rest:
            card["points"] = number(rest[-1])
            middle = rest[:-1]
            if card.get("kind") == "collection":
                card["circles"] = [c.upper() for c in middle]
            elif card.get("kind") == "genre" and middle:
                card["color"] = middle[0]
        cards.append(card)
    return cards


def tourists(text: Any) -> Any:
    """``bbr`` → ``{"blue": 2, "red": 1}``; other letters are left for the scorer."""
    letters = {"b": "blue", "k": "black", "r": "red", "y": "yellow", "p": "pink"}
    counts: dict[str, int] = {}
    for letter in str(text).replace(" ", "").lower():
        color = letters.get(letter, letter)
        counts[color] = counts.get(color, 0) + 1
    return counts


def int_field(path: str, label: str, default: Any = "") -> Field:
    """A whole-number field."""
    return Field(path, label, "int", convert=number, default=default)


def shared_fields(game: str) -> list[Field]:
    """Fields that belong to the whole game, not to one player."""
    if game == "shibuya":
        return [Field("variant", "Rules", "choice", ("standard", "no_construction"))]
    if game == "shogun":
        return [
            Field("year", "Winter of year", "choice", ("2", "1"), convert=number),
            Field("board", "Board side", "choice", ("", "sun", "moon"), convert=optional_text),
        ]
    if game == "kamakura":
        return [
            Field("advanced", "Advanced rules", "check", default=False),
            Field(
                "tours",
                "Tour cards, one a line (A collection B F K 5 / I genre pink 4 / L big_eater 5)",
                convert=tours,
            ),
        ]
    if game == "tokaido":
        return [Field("mode", "Mode", "choice", ("final",))]
    return []


def player_fields(game: str, seat: int, *, teams: bool = False) -> list[Field]:
    """The fields of one player (or side) in seat order."""
    p = f"players[{seat}]"
    fields = [Field(f"{p}.name", "Name")]
    if game == "tokaido":
        travelers = ("", *sorted(TRAVELER_COINS))
        fields.append(
            Field(f"{p}.traveler", "Traveller", "choice", travelers, convert=optional_text)
        )
        for key, label in (
            ("journey", "Score track"),
            ("temple", "Temple coins"),
            ("meal_cost", "Meal prices"),
            ("souvenirs", "Souvenirs"),
            ("hot_springs", "Hot springs"),
            ("encounters", "Encounters"),
            ("panorama_achievements", "Panorama achievements"),
        ):
            fields.append(int_field(f"{p}.{key}", label))
    elif game == "shibuya":
        fields.append(int_field(f"{p}.goals", "Pawns at goal"))
        if teams:
            fields.append(
                Field(
                    f"{p}.members",
                    "Members (two names)",
                    convert=lambda t: [n.strip() for n in str(t).split(",")],
                )
            )
    elif game == "shogun":
        fields.append(int_field(f"{p}.score_before", "Score before this winter", 0))
        fields.append(int_field(f"{p}.war_chests", "War chests", 0))
        for name in ("brown", "yellow", "red", "purple", "green"):
            fields.append(
                Field(
                    f"{p}.regions.{name}",
                    f"{name}: provinces castles temples theatres",
                    convert=region,
                )
            )
    elif game == "kamakura":
        fields += [
            int_field(f"{p}.track", "Point track"),
            Field(
                f"{p}.site_coins",
                "Site coins in Memento order (B 3 pink, F 4 green)",
                convert=entries(("circle", "value", "color")),
            ),
            Field(f"{p}.eat_coins", "Eat-around coin values (2 1 3)", convert=numbers),
            Field(f"{p}.pieces", "Circles of the two pieces (A N)", convert=words),
            Field(
                f"{p}.taxi_tickets",
                "Unused taxi tickets (B 2, K 3)",
                convert=entries(("circle", "points")),
            ),
        ]
    elif game == "shimoda":
        fields += [
            Field(f"{p}.merchant", "Merchant", convert=optional_text),
            int_field(f"{p}.merchant_points", "Merchant points", 0),
        ]
        for k in range(7):
            fields += space_fields(f"{p}.street[{k}]", k)
    return fields


SHIMODA_COLORS = shimoda_rules.COLORS
# "any" first: the form's default card type.
SHIMODA_TYPES = ("any", *(t for t in shimoda_rules.SCORING_TYPES if t != "any"))


def space_fields(path: str, k: int) -> list[Field]:
    """A Shimoda street space: its card and what stands on it."""
    s = f"Space {k + 1}"
    return [
        Field(f"{path}.card.color", f"{s} card colour", "choice", SHIMODA_COLORS),
        Field(f"{path}.card.scoring.type", f"{s} scores", "choice", SHIMODA_TYPES),
        int_field(f"{path}.card.scoring.points", f"{s} points", 0),
        Field(
            f"{path}.card.scoring.range",
            f"{s} range",
            "choice",
            ("1", "3", "5", "7"),
            convert=number,
        ),
        Field(
            f"{path}.card.scoring.color",
            f"{s} colour scored (colour cards)",
            "choice",
            ("", *SHIMODA_COLORS),
            convert=optional_text,
        ),
        Field(
            f"{path}.card.scoring.colors",
            f"{s} pair colours (red pink)",
            convert=lambda t: str(t).split() or OMIT,
        ),
        Field(f"{path}.tourists", f"{s} tourists (letters b k r y p)", convert=tourists),
        int_field(f"{path}.chairs", f"{s} chairs", 0),
    ]
