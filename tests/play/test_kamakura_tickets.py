"""Kamakura's pad flags unused taxi tickets fewer than the turns noted, naming the player."""

from __future__ import annotations

from typing import Any

from companion.play.kamakura import with_noted_tickets
from companion.play.pad import Pad

FILE: dict[str, Any] = {"tours": [], "advanced": False}


def pad(tickets: list[int]) -> Pad:
    found = Pad(["Aki", "Ben"], [])
    for seat, count in enumerate(tickets):
        found.values[f"coins.{seat}"] = []
        found.values[f"tickets.{seat}"] = [{"circle": "B", "points": 2}] * count
    return found


def test_fewer_tickets_than_noted_are_flagged_once_then_kept() -> None:
    check = with_noted_tickets([2, 1])
    shown = pad([1, 1])
    assert check(shown, FILE) == [
        (
            "Aki: you noted 2 unused taxi tickets, 1 shown (Enter keeps the pad's count)",
            ["tickets.0"],
        )
    ]
    # Asked again, the players keep 1: the pad's count stands.
    assert check(shown, FILE) == []


def test_a_changed_count_still_short_is_flagged_again() -> None:
    check = with_noted_tickets([3, 0])
    assert check(pad([1, 0]), FILE)[0][0].startswith("Aki: you noted 3 unused taxi tickets, 1")
    assert check(pad([2, 0]), FILE)[0][0].startswith("Aki: you noted 3 unused taxi tickets, 2")
    assert check(pad([3, 0]), FILE) == []


def test_as_many_or_more_than_noted_is_fine() -> None:
    check = with_noted_tickets([1, 1])
    assert check(pad([1, 2]), FILE) == []
    assert with_noted_tickets(None)(pad([0, 0]), FILE) == []
    assert with_noted_tickets([1, 0])(pad([0, 0]), FILE)[0][0] == (
        "Aki: you noted 1 unused taxi ticket, 0 shown (Enter keeps the pad's count)"
    )
