"""Counts are worded for their number: "1 revolt", never "1 revolt(s)" or "1 points"."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).parents[1]


def test_no_word_with_an_s_in_brackets_in_what_players_read() -> None:
    found = []
    for path in sorted((ROOT / "companion").rglob("*.py")) + sorted(
        (ROOT / "scorers").rglob("*.py")
    ):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            text = node.value if isinstance(node, ast.Constant) else None
            if isinstance(text, str) and re.search(r"\w\(s\)", text):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {text!r}")
    assert found == []


def test_a_shimoda_card_of_one_point() -> None:
    from companion.kits.shimoda.codes import describe_card

    assert describe_card("b y 1 3") == (
        "  a blue card, 1 point per yellow tourist, over 3 spaces centred on it"
    )
    assert describe_card("b y 3 3").startswith("  a blue card, 3 points per yellow tourist")
