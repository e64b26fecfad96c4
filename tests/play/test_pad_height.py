"""The score pad fits a 24-line terminal at 80 columns: the players' rows stay in view."""

from __future__ import annotations

import pytest

from companion.kits import KITS, PadOptions
from companion.play.score_pad import Pad, render


def test_kamakura_with_four_players_and_five_cards_fits_80x24(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    names = ["Aki", "Ben", "Cho", "Dai"]
    context = {"tours": ["A", "I", "L", "M", "E"], "advanced": True, "tickets": [1, 0, 0, 0]}
    spec = KITS["kamakura"].pad(PadOptions(4, tuple(names), context=context))
    pad = Pad("kamakura", names, spec)
    for seat in range(4):
        pad.put("track", seat, 10 + seat)
    lines = render(pad, {}, "Kamakura Collection: final count").splitlines()
    assert len(lines) <= 24 - 4  # a blank line and the question's lines below it
    assert max(len(line) for line in lines) <= 80
    assert lines[3].startswith("1   Point track") and lines[3].split()[-4:] == [
        "10",
        "11",
        "12",
        "13",
    ]
    assert lines[7].startswith("5   Unused taxi tickets")
    assert lines[8] == "For the whole table"
    assert lines[9].startswith("6 Card A: -    7 Card A completed first by")
