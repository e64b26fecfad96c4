"""Shimoda's picture of both streets on the web pad (SVG text, from the score file so far).

Pure functions: the score file typed so far and the players' names give the
picture; every name is escaped, what players type is data, never markup.
"""

from __future__ import annotations

import html
from typing import Any

from scorers.shimoda import STREET_LENGTH

STREET_COLOURS = {
    "blue": "#3b6fd1",
    "black": "#333",
    "red": "#d23c3c",
    "yellow": "#e3b90e",
    "pink": "#e37bb5",
    "": "#ddd",
}
BLANK = STREET_COLOURS[""]
"""A space with no card yet."""


def tourist_counts(document: dict[str, Any], seat: int) -> list[dict[str, int]]:
    """Per space of a Shimoda street, the whole-number tourist counts typed so far."""
    try:
        street = document["players"][seat]["street"]
    except (KeyError, IndexError, TypeError):
        return [{} for _ in range(STREET_LENGTH)]
    if not isinstance(street, list):
        return [{} for _ in range(STREET_LENGTH)]
    spaces = []
    for k in range(STREET_LENGTH):
        space = street[k] if k < len(street) and isinstance(street[k], dict) else {}
        tourists = space.get("tourists", {})
        if not isinstance(tourists, dict):
            tourists = {}
        spaces.append({c: n for c, n in tourists.items() if isinstance(n, int) and 0 < n < 10})
    return spaces


def card_colours(document: dict[str, Any], seat: int) -> list[str]:
    """Per space, the colour of the shop card chosen so far ("" when none)."""
    try:
        street = document["players"][seat]["street"]
    except (KeyError, IndexError, TypeError):
        return [""] * STREET_LENGTH
    if not isinstance(street, list):
        return [""] * STREET_LENGTH
    found = []
    for k in range(STREET_LENGTH):
        space = street[k] if k < len(street) and isinstance(street[k], dict) else {}
        card = space.get("card", {})
        found.append(str(card.get("color", "")) if isinstance(card, dict) else "")
    return found


def street_drawing(document: dict[str, Any], names: list[str]) -> str:
    """Both Shimoda streets facing each other: card colours, tourists and the stronger side."""
    size, gap, top = 44, 6, 22
    rows = []
    counts = [tourist_counts(document, seat) for seat in (0, 1)]
    cards = [card_colours(document, seat) for seat in (0, 1)]
    for k in range(STREET_LENGTH):
        x = k * (size + gap)
        strength = []
        for seat in (0, 1):
            spaces = counts[seat][k]
            own = cards[seat][k]
            strength.append(sum(spaces.values()) + spaces.get(own, 0))
        for seat, y in ((1, top), (0, top + size + 14)):
            colour = STREET_COLOURS.get(cards[seat][k], BLANK)
            rows.append(
                f"<rect x='{x}' y='{y}' width='{size}' height='{size}' rx='5' fill='{colour}' "
                "fill-opacity='0.35' stroke='#555'/>"
            )
            dots = [c for c, n in counts[seat][k].items() for _ in range(min(n, 3))]
            for d, dot in enumerate(dots[:9]):
                cx = x + 9 + (d % 3) * 13
                cy = y + 9 + (d // 3) * 13
                rows.append(
                    f"<circle cx='{cx}' cy='{cy}' r='5' fill='{STREET_COLOURS.get(dot, BLANK)}' "
                    "stroke='#fff'/>"
                )
            other = strength[1 - seat]
            if strength[seat] > other:
                rows.append(
                    f"<text x='{x + size - 4}' y='{y + size - 5}' text-anchor='end' "
                    "font-size='14'>★</text>"
                )
        rows.append(
            f"<text x='{x + size / 2}' y='{top + size + 11}' text-anchor='middle' "
            f"font-size='10' fill='#555'>{k + 1}</text>"
        )
    width = STREET_LENGTH * (size + gap)
    height = top + 2 * size + 14 + 22
    labels = (
        f"<text x='0' y='14' font-size='12'>{html.escape(names[1] if len(names) > 1 else '')}"
        "'s street</text>"
        f"<text x='0' y='{height - 4}' font-size='12'>"
        f"{html.escape(names[0] if names else '')}'s street (★ wins the victory marker)</text>"
    )
    return (
        f"<svg class='streets' viewBox='-2 0 {width + 4} {height}' width='{width + 4}' "
        f"role='img' aria-label='Both streets'>{labels}{''.join(rows)}</svg>"
    )
