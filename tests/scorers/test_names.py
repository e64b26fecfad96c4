"""The one name rule: scorers.names."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorers.names import MAX_NAME_LENGTH, InvalidName, clean_name, name_key, name_problem


@pytest.mark.parametrize(
    ("typed", "stored"),
    [
        ("Aki", "Aki"),
        ("  Aki  ", "Aki"),
        ("Zoe   Ann", "Zoe Ann"),
        ("\tBen\n", "Ben"),
        ("Zoe\u0308", "Zoë"),
        ("太郎", "太郎"),
        ("Dad [/]", "Dad [/]"),
        ("[red]Aki", "[red]Aki"),
        ("x" * MAX_NAME_LENGTH, "x" * MAX_NAME_LENGTH),
    ],
)
def test_clean_name_keeps_one_shape(typed: str, stored: str) -> None:
    assert clean_name(typed) == stored


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("", "the name must not be empty"),
        ("   ", "the name must not be empty"),
        ("x" * 41, "the name is 41 characters long (at most 40)"),
        ("A\tB", "the name must not contain a tab"),
        ("A\nB", "the name must not contain a line break"),
        ("A\x1b[31mB", "the name must not contain an escape character"),
        ("A\x00B", "the name must not contain the invisible character U+0000"),
        ("A\u200bB", "the name must not contain the invisible character U+200B (zero width space)"),
        ("A\ud800B", "the name must not contain the invisible character U+D800"),
        ("A\u2028B", "the name must not contain the invisible character U+2028 (line separator)"),
    ],
)
def test_clean_name_refuses_with_the_reason(typed: str, message: str) -> None:
    with pytest.raises(InvalidName) as caught:
        clean_name(typed)
    assert str(caught.value) == message
    assert name_problem(typed) == message


def test_the_word_for_what_is_named() -> None:
    assert name_problem("", what="team name") == "the team name must not be empty"


def test_names_equal_after_case_folding_are_one_player() -> None:
    assert name_key("AKI") == name_key("aki") == name_key(" Aki ")
    assert name_key("Straße") == name_key("STRASSE")
    assert name_key("Aki") != name_key("Ako")


@given(st.text(max_size=60))
def test_a_clean_name_is_clean_and_stable(text: str) -> None:
    problem = name_problem(text)
    if problem is None:
        name = clean_name(text)
        assert 1 <= len(name) <= MAX_NAME_LENGTH
        assert clean_name(name) == name
        assert name == name.strip()
