"""Shimoda's kit: two streets, merchants, seven rounds, the shop cards and tourists counted.

Everything about Shimoda: Perry Road that is not pure scoring
(:mod:`scorers.shimoda`): the set-up checklist, the merchants the rulebook
describes, the rounds and the round tracker's fewer-tourists rule, the score
pad's rows, and the web pad's picture of both streets
(:mod:`companion.kits.shimoda.drawing`). The entry codes (shop cards, a
space's tourists, a street in one line) are :mod:`companion.kits.shimoda.codes`,
the web pad's *Shop cards* box (a street's cards in one line) is
:mod:`companion.kits.shimoda.street_line`, and the play-along flow is
:mod:`companion.kits.shimoda.flow`.

The score pad numbers both streets as the score file does, from the first
player's seat: a space of the second street is numbered as the first player's
space it faces (the second player's own space 1, at their left hand, is
``Shop 7`` of their column).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from companion.kits import Kit, PadOptions
from companion.kits.pad import CHOICE, NUMBER, TEXT, PadRow, PadSpec, Part, number_row
from companion.kits.rounds import COUNT, Rounds, RoundState, Step
from companion.kits.shimoda.codes import INITIALS, TYPES, CardCodec, SpaceCodec
from companion.kits.shimoda.drawing import STREET_COLOURS, street_drawing
from companion.kits.shimoda.street_line import CARD_ROWS, SPACE_ROWS, STREET_LINE
from scorers.names import clean_name, name_problem
from scorers.shimoda import (
    COLORS,
    MAX_CARD_POINTS,
    MAX_CHAIRS,
    MAX_PER_SPACE,
    RANGES,
    STREET_LENGTH,
    TOURISTS_PER_COLOR,
)

GAME = "shimoda"
ROUNDS = 7
"""The game lasts seven rounds."""
BRIDGES = (2, 6)
"""The spaces the two bridges cross, on both streets."""
MERCHANT_ICONS = {
    "Veterinarian": "cat",
    "Antique Dealer": "chair",
    "Lantern Maker": "lantern",
    "Bookseller": None,
    "Builder": None,
    "Wrecker": None,
}
"""Merchants the rulebook describes: the icon they add when moving, or ``None``."""
FIRST_GAME = ("Veterinarian", "Antique Dealer", "Lantern Maker", "Florist")
"""The rulebook's merchants for a first game."""
KNOWN_MERCHANTS = (*FIRST_GAME, *(m for m in MERCHANT_ICONS if m not in FIRST_GAME))
"""The rulebook's first-game four first, then the others it describes."""


def checklist(players: int) -> list[str]:
    """The set-up steps (always two players)."""
    return [
        "Board between the players, a street of seven spaces in front of each.",
        "Bridges across spaces 2 and 6 of both streets.",
        "All 35 tourists in the bag; draw 4 onto each bridge (8 in all).",
        "Shuffle the shop cards; lay the top 5 face down as the display.",
        "Shuffle the merchants; turn 4 face up, box the rest. First game: use "
        + ", ".join(FIRST_GAME)
        + ".",
        "Start player marker to whoever crossed a bridge most recently.",
    ]


def next_start(tourists: list[int], holder: int) -> int:
    """Fewer tourists on the street starts; on a tie the marker passes."""
    if tourists[0] == tourists[1]:
        return 1 - holder
    return 0 if tourists[0] < tourists[1] else 1


def end_round(state: RoundState) -> Step:
    """The round ends: the player with fewer tourists on their street starts the next."""
    if state.round >= ROUNDS:
        return Step(
            f"Round {ROUNDS} was the last: place the victory markers and score the game below.",
            state.round,
            state.start,
            over=True,
        )
    tourists = [int(v or 0) for v in state.values[:2]]
    following = next_start(tourists, state.start)
    reason = "a tie: the marker passes" if tourists[0] == tourists[1] else "fewer tourists"
    return Step(
        f"{state.names[following]} starts round {state.round + 1} ({reason}).",
        state.round + 1,
        following,
    )


ROUNDS_OF_PLAY = Rounds(
    word="Round",
    last=ROUNDS,
    hint="Tourists on each street at the end of the round:",
    button="End the round",
    entry=COUNT,
    count_name="tourists on the street",
    step=end_round,
)

# --- the score pad -------------------------------------------------------------

CARD_TYPES = (("scores…", ""), *((short, kind) for kind, (_, short, _) in TYPES.items()))
"""What a card scores, as the web pad's dropdown offers it."""
CARD_RANGES = (("range…", ""), *((f"range {r}", str(r)) for r in RANGES))
"""A card's range, as the web pad's dropdown offers it."""
COLOUR_CSS = "colour-choice"


def colours(prompt: str) -> tuple[tuple[str, str], ...]:
    """Dropdown options for the five colours, after an empty first choice."""
    return ((prompt, ""), *((c, c) for c in COLORS))


CARD_PARTS = (
    Part("color", "colour", CHOICE, colours("colour…"), "5em", css=COLOUR_CSS),
    Part("scoring.type", "scores", CHOICE, CARD_TYPES, "7.8em"),
    Part(
        "scoring.points", "points", NUMBER, width="2.6em", placeholder="pts", high=MAX_CARD_POINTS
    ),
    Part("scoring.range", "range", CHOICE, CARD_RANGES, "4.6em"),
    Part(
        "scoring.color",
        "of colour",
        CHOICE,
        colours("of colour…"),
        "7em",
        shown_when=("scoring.type", ("color",)),
        css=COLOUR_CSS,
    ),
    Part(
        "scoring.colors[0]",
        "of colour",
        CHOICE,
        colours("of colour…"),
        "7em",
        shown_when=("scoring.type", ("pair",)),
        css=COLOUR_CSS,
    ),
    Part(
        "scoring.colors[1]",
        "and colour",
        CHOICE,
        colours("and…"),
        "6em",
        shown_when=("scoring.type", ("pair",)),
        css=COLOUR_CSS,
    ),
)
"""A shop card on the web pad: its colour, what it scores, its points and range."""
SPACE_PARTS = (
    *(
        Part(
            f"tourists.{c}",
            f"{c} tourists",
            NUMBER,
            width="2.9em",
            placeholder=letter,
            css=f"tourist-{c}",
            high=MAX_PER_SPACE,
        )
        for letter, c in INITIALS.items()
    ),
    Part(
        "chairs",
        "chairs",
        NUMBER,
        width="4.2em",
        placeholder="chairs",
        css="chairs",
        high=MAX_CHAIRS,
    ),
)
"""A space on the web pad: its tourists by colour, and the chair icons on its card."""


def finish_card(card: Any) -> Any:
    """A card from the web pad's parts: its range a number, as the score file holds it."""
    if isinstance(card, dict) and isinstance(card.get("scoring"), dict):
        reach = card["scoring"].get("range")
        if isinstance(reach, str) and reach.isdigit():
            card["scoring"]["range"] = int(reach)
    return card


def finish_space(space: Any) -> Any:
    """A space from the web pad's parts: a colour with no tourist is left out."""
    if isinstance(space, dict) and isinstance(space.get("tourists"), dict):
        space["tourists"] = {c: n for c, n in space["tourists"].items() if n != 0}
    return space


@dataclass
class MerchantCodec:
    """A merchant's name as printed (``-`` or nothing: no merchant)."""

    hint: str = "its name, - for none"

    def read(self, text: str) -> tuple[Any, str | None]:
        """The merchant's name (``None`` for none), or the problem."""
        if text.strip() in ("", "-"):
            return None, None
        problem = name_problem(text, what="merchant's name")
        if problem is not None:
            return None, problem
        return clean_name(text, what="merchant's name"), None

    def write(self, value: Any) -> str:
        """The name (``""`` for none)."""
        return str(value) if value else ""


def tourist_problems(file: dict[str, Any]) -> list[tuple[str, list[str]]]:
    """More tourists of a colour than the box has: every space holding that colour."""
    players = [p if isinstance(p, dict) else {} for p in file.get("players", [])]
    holders: dict[str, list[str]] = {c: [] for c in COLORS}
    totals = dict.fromkeys(COLORS, 0)
    for seat, player in enumerate(players):
        street = player.get("street")
        for k, space in enumerate(street if isinstance(street, list) else []):
            tourists = space.get("tourists") if isinstance(space, dict) else None
            for c, n in (tourists if isinstance(tourists, dict) else {}).items():
                if c in totals and isinstance(n, int) and n > 0:
                    totals[c] += n
                    holders[c].append(f"players[{seat}].street[{k}].tourists")
    return [
        (f"{totals[c]} {c} tourists on the streets (there are {TOURISTS_PER_COLOR})", holders[c])
        for c in COLORS
        if totals[c] > TOURISTS_PER_COLOR
    ]


def shop_row(space: int) -> PadRow:
    """The shop card on a space (0-based, numbered from the first player's seat)."""
    return PadRow(
        CARD_ROWS[space],
        f"Shop {space + 1}",
        f"street[{space}].card",
        "scoring-shops",
        parts=CARD_PARTS,
        codec=CardCodec(),
        finish=finish_card,
        seat_words=own_space(space, f"Shop {space + 1}"),
    )


def tourists_row(space: int) -> PadRow:
    """The tourists on a space and the chair icons of its card."""
    return PadRow(
        SPACE_ROWS[space],
        f"Shop {space + 1} tourists",
        f"street[{space}]",
        "scoring-victory-markers",
        parts=SPACE_PARTS,
        base={"tourists": {}},
        codec=SpaceCodec(),
        finish=finish_space,
        seat_words=own_space(space, f"Shop {space + 1} tourists"),
    )


def pad(options: PadOptions) -> PadSpec:
    """The merchant and its points, then each space's shop card and tourists, space 1 to 7."""
    merchant = PadRow(
        "merchant",
        "Merchant",
        "merchant",
        "merchants",
        parts=(Part("", "", TEXT, width="100%", placeholder="name (optional)"),),
        codec=MerchantCodec(),
    )
    points = number_row(GAME, "merchant_points", "Merchant points", "scoring-merchant", id="points")
    spaces = [row for k in range(STREET_LENGTH) for row in (shop_row(k), tourists_row(k))]
    return PadSpec([merchant, points, *spaces], extra=tourist_problems)


def drawing(document: dict[str, Any], names: list[str]) -> str:
    """Both streets facing each other (SVG): card colours, tourists, who wins each marker."""
    return street_drawing(document, names)


CSS = (
    # Room at the right for the list's arrow, which is drawn over the padding.
    "PAD .widget-dropdown select { padding: 0 18px 0 2px; }\n"
    + "".join(
        f".companion .tourist-{c} input {{ border-left: 8px solid {STREET_COLOURS[c]}; }}\n"
        for c in COLORS
    )
    + ":root[data-scheme=dark] .companion .tourist-black input { border-left-color: #9a9a9a; }\n"
)
"""The web pad's own style: each tourist box edged in its colour."""


def own_space(space: int, label: str) -> Callable[[int], str]:
    """A row's name in a question to a seat: the second street's own number too."""

    def words(seat: int) -> str:
        return label if seat == 0 else f"{label} (your space {STREET_LENGTH - space})"

    return words


KIT = Kit(
    game=GAME,
    checklist=checklist,
    rounds=ROUNDS_OF_PLAY,
    pad=pad,
    flow="companion.kits.shimoda.flow",
    offers={5: "start"},
    pad_width="20.2em",
    label_width="6em",
    css=CSS,
    drawing=drawing,
    line_entry=STREET_LINE,
)
