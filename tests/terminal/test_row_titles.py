"""A results table names Shogun's theatre majorities as the rest of the game spells them."""

from __future__ import annotations

from companion.terminal.results import label


def test_theatre_is_spelt_as_elsewhere_in_shogun() -> None:
    assert label("theater_majorities", "shogun") == "Theatre majorities"
    assert label("castle_majorities", "shogun") == "Castle majorities"
    assert label("victory_markers", "shimoda") == "Victory markers"
    assert label("victory_markers") == "Victory markers"
