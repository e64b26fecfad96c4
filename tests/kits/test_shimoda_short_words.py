"""Shimoda's card codes take each word cut to the fewest letters that still read unambiguously."""

from __future__ import annotations

import pytest

from companion.kits.shimoda.codes import parse_card


@pytest.mark.parametrize(
    ("short", "long"),
    [
        ("bc33c1", "bchair33c1"),
        ("kv47", "kvm47"),
        ("ran11", "rany11"),
        ("ytw33", "ytwo33"),
        ("pal77", "pall77"),
        ("kth33", "kthree33"),
        ("b c 3 3 c2", "b chair 3 3 c2"),
    ],
)
def test_a_short_word_reads_as_the_whole_word(short: str, long: str) -> None:
    assert parse_card(short) == parse_card(long)
    assert parse_card(short)[0] is not None


def test_a_cut_that_two_words_share_is_refused() -> None:
    card, problem = parse_card("ba33")  # any or all?
    assert card is None
    assert problem is not None and problem.startswith("'a' is not what a card scores")
