"""The one name rule: scorers.names."""

from __future__ import annotations

import unicodedata

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
        ("Aki\u3164", "the name must not contain the invisible character U+3164 (hangul filler)"),
        (
            "\u115fAki",
            "the name must not contain the invisible character U+115F (hangul choseong filler)",
        ),
        (
            "\u2800",
            "the name must not contain the invisible character U+2800 (braille pattern blank)",
        ),
        (
            "Aki\uffa0",
            "the name must not contain the invisible character U+FFA0 (halfwidth hangul filler)",
        ),
        (
            "\u0301",
            "the name must not contain a lone combining mark U+0301 (combining acute accent)",
        ),
        (
            "Aki \u0301",
            "the name must not contain a lone combining mark U+0301 (combining acute accent)",
        ),
        ("Aki\ue000", "the name must not contain the private-use character U+E000"),
        ("Aki\U000f0000", "the name must not contain the private-use character U+F0000"),
        ("Aki\u0378", "the name must not contain the unassigned character U+0378"),
        (
            "Aki\ufe0f",
            "the name must not contain the invisible character U+FE0F (variation selector-16)",
        ),
    ],
)
def test_clean_name_refuses_with_the_reason(typed: str, message: str) -> None:
    with pytest.raises(InvalidName) as caught:
        clean_name(typed)
    assert str(caught.value) == message
    assert name_problem(typed) == message


@pytest.mark.parametrize(
    "typed", ["Zoe\u0308", "e\u0301\u0302", "\u0915\u094d\u0937", "\u2764\ufe0f"]
)
def test_marks_on_a_letter_are_part_of_the_name(typed: str) -> None:
    assert clean_name(typed) == unicodedata.normalize("NFC", typed)


def test_a_name_and_the_same_with_an_invisible_letter_are_not_two_people() -> None:
    for hidden in ("\u3164", "\u115f", "\u2800", "\ue000", "\u200b", " \u0301"):
        assert name_problem("Aki" + hidden) is not None
    assert clean_name("Aki\u00a0") == "Aki"  # a no-break space is a blank, trimmed


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
