"""Kamakura's pad flags unused taxi tickets fewer than the turns noted, naming the player."""

from __future__ import annotations

from typing import Any

from companion.kits.kamakura import with_noted_tickets


def file(tickets: list[int]) -> dict[str, Any]:
    players = [
        {"name": name, "site_coins": [], "taxi_tickets": [{"circle": "B", "points": 2}] * count}
        for name, count in zip(["Aki", "Ben"], tickets, strict=True)
    ]
    return {"tours": [], "advanced": False, "players": players}


def test_fewer_tickets_than_noted_are_flagged_once_then_kept() -> None:
    check = with_noted_tickets([2, 1])
    shown = file([1, 1])
    assert check(shown) == [
        (
            "Aki: you noted 2 unused taxi tickets, 1 shown (Enter keeps the pad's count)",
            ["players[0].taxi_tickets"],
        )
    ]
    # Asked again, the players keep 1: the pad's count stands.
    assert check(shown) == []


def test_a_changed_count_still_short_is_flagged_again() -> None:
    check = with_noted_tickets([3, 0])
    assert check(file([1, 0]))[0][0].startswith("Aki: you noted 3 unused taxi tickets, 1")
    assert check(file([2, 0]))[0][0].startswith("Aki: you noted 3 unused taxi tickets, 2")
    assert check(file([3, 0])) == []


def test_as_many_or_more_than_noted_is_fine() -> None:
    check = with_noted_tickets([1, 1])
    assert check(file([1, 2])) == []
    assert with_noted_tickets(None)(file([0, 0])) == []
    assert with_noted_tickets([1, 0])(file([0, 0]))[0][0] == (
        "Aki: you noted 1 unused taxi ticket, 0 shown (Enter keeps the pad's count)"
    )
