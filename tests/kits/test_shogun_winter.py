"""Shogun's winter codes: changes since the last winter, the rice, what the revolts took."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from companion.kits.shogun.winter import apply_changes, apply_taken, grid_text, read_rice
from scorers.shogun import REGIONS

KNOWN = {"brown": [3, 1, 0, 2], "yellow": [2, 1, 0, 0]}
NAMES = ["Aki", "Ben", "Cho", "Dai", "Eve"]


def test_changes_read_as_changes() -> None:
    assert apply_changes(KNOWN, "") == (KNOWN, None)
    assert apply_changes(KNOWN, "by-") == (
        {"brown": [4, 1, 0, 2], "yellow": [1, 1, 0, 0]},
        None,
    )
    assert apply_changes(KNOWN, "b+c g") == (
        {"brown": [4, 2, 0, 2], "yellow": [2, 1, 0, 0], "green": [1, 0, 0, 0]},
        None,
    )
    assert apply_changes(KNOWN, "b-n yt") == (
        {"brown": [2, 1, 0, 1], "yellow": [2, 1, 1, 0]},
        None,
    )
    assert apply_changes(KNOWN, "y--c") == ({"brown": [3, 1, 0, 2]}, None)


def test_a_whole_region_is_set_only_after_an_equals_sign() -> None:
    assert apply_changes(KNOWN, "b=1") == ({"brown": [1, 0, 0, 0], "yellow": [2, 1, 0, 0]}, None)
    assert apply_changes(KNOWN, "y=0") == ({"brown": [3, 1, 0, 2]}, None)
    # b1 could mean "brown is now 1" or "one more brown": refused, never read as either.
    assert apply_changes(KNOWN, "b1", "Aki") == (
        None,
        "Aki · b1 is a holding: b=1 for brown now 1, b+ or b- for one more or fewer",
    )


def test_changes_the_rules_do_not_allow_are_refused() -> None:
    assert apply_changes(KNOWN, "r-", "Aki") == (
        None,
        "Aki would hold -1 red provinces: fewer lost, or none",
    )
    assert apply_changes(KNOWN, "gc", "Aki") == (
        None,
        "Aki · green: 1 castle in 0 provinces (one per province at most)",
    )
    assert apply_changes(KNOWN, "bbbbbbb", "Aki")[1] == "Aki · brown: a region has 9 provinces"
    assert apply_changes(KNOWN, "x")[1] == (
        "'x' is not a region: b y r p g (brown yellow red purple green)"
    )
    assert apply_changes(KNOWN, "c")[1] == "'c': start with the region letter (b y r p g), e.g. bc"
    assert apply_changes(KNOWN, "b+1")[1] == (
        "numbers only after = (b=3102: brown whole); b++ is two more"
    )


region_codes = st.lists(
    st.tuples(st.sampled_from("bygrp"), st.sampled_from(["", "+", "-", "c", "t", "n", "+c", "-c"])),
    max_size=4,
)


@given(region_codes)
def test_changes_never_touch_a_region_not_typed(parts: list[tuple[str, str]]) -> None:
    text = " ".join(letter + change for letter, change in parts)
    after, problem = apply_changes(KNOWN, text)
    if after is None:
        assert problem
        return
    typed = {next(r for r in REGIONS if r[0] == letter) for letter, _ in parts}
    for region in REGIONS:
        if region not in typed:
            assert after.get(region) == KNOWN.get(region)


def test_rice_only_of_those_short_or_everyone_s() -> None:
    assert read_rice("", NAMES) == ({}, None)
    assert read_rice("c4", NAMES) == ({2: 4}, None)
    assert read_rice("cho 4, e2", NAMES) == ({2: 4, 4: 2}, None)
    assert read_rice("6 5 4 7 9", NAMES) == ({0: 6, 1: 5, 2: 4, 3: 7, 4: 9}, None)
    assert read_rice("6 5", NAMES)[1] == (
        "5 numbers, one per player in seat order, or only who is short by name and rice (e.g. c6)"
    )
    assert read_rice("c", NAMES)[1] == "Cho · how much rice is left? e.g. c4"
    assert read_rice("z3", NAMES)[1] == "'z' is no player's name: Aki, Ben, Cho, Dai, Eve"
    assert read_rice("a3", ["Aki", "Ann", "Ben"])[1] == (
        "'a': Aki or Ann? type more letters, or every player's rice in seat order"
    )
    assert read_rice("p2", ["P1", "P2", "P3"])[1] == (
        "'p': P1 or P2 or P3? type more letters, or every player's rice in seat order"
    )
    assert read_rice("3 4 5", ["P1", "P2", "P3"]) == ({0: 3, 1: 4, 2: 5}, None)
    assert read_rice("c4 c5", NAMES)[1] == "Cho is given twice"


def test_revolts_are_typed_as_what_they_took() -> None:
    assert apply_taken(KNOWN, "", 1, "Cho") == (KNOWN, 0, None)
    assert apply_taken(KNOWN, "-", 1, "Cho") == (KNOWN, 0, None)
    assert apply_taken(KNOWN, "y", 1, "Cho") == (
        {"brown": [3, 1, 0, 2], "yellow": [1, 1, 0, 0]},
        1,
        None,
    )
    assert apply_taken(KNOWN, "bn yc", 2, "Cho") == (
        {"brown": [2, 1, 0, 1], "yellow": [1, 0, 0, 0]},
        2,
        None,
    )


def test_b1_at_the_revolts_is_refused_and_drops_nothing() -> None:
    after, lost, problem = apply_taken(KNOWN, "b1", 1, "Cho")
    assert (after, lost) == (None, 0)
    assert problem == "Cho · b1: type what the revolts took, not what is left: b (a brown province)"
    assert apply_taken(KNOWN, "b=1", 1, "Cho")[2] == problem.replace("b1:", "b=1:")


def test_a_revolt_takes_one_province_at_most() -> None:
    assert apply_taken(KNOWN, "yy", 1, "Cho")[2] == (
        "Cho had 1 revolt, and a revolt takes one province at most: 1 province lost at most"
    )
    assert apply_taken(KNOWN, "byb", 2, "Cho")[2] == (
        "Cho had 2 revolts, and a revolt takes one province at most: 2 provinces lost at most"
    )
    assert apply_taken(KNOWN, "r", 1, "Cho")[2] == (
        "Cho held no red province: the revolts cannot take more"
    )
    assert apply_taken({"brown": [1, 1, 0, 0]}, "b", 1, "Cho")[2] == (
        "brown: each brown province Cho holds has a castle, so the lost one had one too: add c (bc)"
    )
    assert apply_taken(KNOWN, "ycc", 1, "Cho")[2] == (
        "Cho · yellow: a province holds one castle at most"
    )
    assert apply_taken(KNOWN, "yt", 1, "Cho")[2] == "Cho had no temple in yellow to lose"


@given(st.text(alphabet="bygrpctn- 0123+=", max_size=8), st.integers(0, 3))
def test_revolts_never_lose_more_than_they_may(text: str, revolts: int) -> None:
    after, lost, problem = apply_taken(KNOWN, text, revolts, "Cho")
    if after is None:
        assert problem and lost == 0
        return
    held = sum(c[0] for c in KNOWN.values())
    assert sum(c[0] for c in after.values()) == held - lost
    assert 0 <= lost <= revolts
    for region, counts in after.items():
        assert counts[0] <= KNOWN[region][0]
        assert all(0 <= n <= counts[0] for n in counts[1:])


def test_grid_text_says_nothing_held() -> None:
    assert grid_text({}) == "-"
    assert grid_text(KNOWN) == "b3102 y2100"


def test_a_refused_change_selects_the_region_entry_at_fault() -> None:
    from companion.play.table import Refusal

    wrong = apply_changes(KNOWN, "y+ gc b-", "Aki")[1]
    assert wrong == "Aki · green: 1 castle in 0 provinces (one per province at most)"
    assert isinstance(wrong, Refusal) and wrong.span == (3, 5)
    holding = apply_changes(KNOWN, "y, b1", "Aki")[1]
    assert isinstance(holding, Refusal) and holding.span == (3, 5)
    lost = apply_changes(KNOWN, "b r-", "Aki")[1]
    assert lost == "Aki would hold -1 red provinces: fewer lost, or none"
    assert isinstance(lost, Refusal) and lost.span == (2, 4)


def test_a_refused_revolt_names_the_player_and_selects_only_the_entry_at_fault() -> None:
    from companion.play.table import Refusal

    cases = [
        (
            "y  b1",
            2,
            "Cho · b1: type what the revolts took, not what is left: b (a brown province)",
            (3, 5),
        ),
        (
            "b y",
            1,
            "Cho had 1 revolt, and a revolt takes one province at most: 1 province lost at most",
            (2, 3),
        ),
        ("y, rc", 2, "Cho held no red province: the revolts cannot take more", (3, 5)),
        ("b yt", 2, "Cho had no temple in yellow to lose", (2, 4)),
        ("b ycc", 2, "Cho · yellow: a province holds one castle at most", (2, 5)),
        ("b x", 2, "Cho · 'x' is not a region: b y r p g (brown yellow red purple green)", (2, 3)),
        ("c b", 2, "Cho · 'c': the region letter first, e.g. bc", (0, 1)),
    ]
    for text, revolts, message, span in cases:
        problem = apply_taken(KNOWN, text, revolts, "Cho")[2]
        assert (problem, getattr(problem, "span", None)) == (message, span), text
        assert isinstance(problem, Refusal)
    castle = apply_taken({"brown": [2, 2, 0, 0]}, "y b", 2, "Cho")[2]
    assert isinstance(castle, Refusal) and castle.span == (2, 3)


def test_a_refused_rice_names_the_player_and_selects_only_the_entry_at_fault() -> None:
    from companion.play.table import Refusal

    cases = [
        ("a3, cho", "Cho · how much rice is left? e.g. cho4", (4, 7)),
        ("a3 c 120", "Cho · 120 rice: the supply track goes to 99 at most", (3, 8)),
        ("6 5 4 7 100", "Eve · 100 rice: the supply track goes to 99 at most", (8, 11)),
        ("a3 z3", "'z' is no player's name: Aki, Ben, Cho, Dai, Eve", (3, 5)),
        ("c4 b2 c5", "Cho is given twice", (6, 8)),
    ]
    for text, message, span in cases:
        problem = read_rice(text, NAMES)[1]
        assert (problem, getattr(problem, "span", None)) == (message, span), text
        assert isinstance(problem, Refusal)
