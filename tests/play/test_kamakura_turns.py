"""Kamakura's turn answer: the usual action offered (never a visit), a circle alone is a visit."""

from __future__ import annotations

from companion.kits.kamakura.flow import CALL, REST, USE, VISIT, WALK, likely, parse_turn

OPTIONS = [VISIT, WALK, REST, CALL, USE, "No action"]


def test_a_first_turn_offers_a_walk_not_a_visit() -> None:
    assert likely([]) == WALK


def test_a_visit_is_never_offered() -> None:
    assert likely([WALK]) == REST
    assert likely([WALK, VISIT]) == WALK
    assert likely([VISIT, VISIT]) == WALK


def test_the_usual_action_but_the_last_one_is_offered() -> None:
    assert likely([WALK, VISIT, REST, VISIT, REST, WALK]) == REST
    assert likely([WALK, REST, WALK, VISIT]) == WALK
    assert likely([WALK, CALL, VISIT, USE]) == CALL  # of equals, the latest


def test_a_circle_letter_alone_is_a_visit_and_c_calls_a_taxi() -> None:
    assert parse_turn("B", OPTIONS) == (VISIT, ("B", None, None), None)
    assert parse_turn("g3p", OPTIONS) == (VISIT, ("G", 3, "pink"), None)
    assert parse_turn("C", OPTIONS) == (VISIT, ("C", None, None), None)
    assert parse_turn("c", OPTIONS) == (CALL, None, None)
    assert parse_turn("w", OPTIONS) == (WALK, None, None)
