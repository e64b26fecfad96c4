"""The three-way merge's rules, for any versions (no server needed)."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from companion.club.merge import merge

values = st.one_of(st.none(), st.integers(-3, 3), st.sampled_from(["", "a", "b"]))
entries = st.fixed_dictionaries(
    {
        "notes": values,
        "duration_min": values,
        "result": st.fixed_dictionaries(
            {"players": st.lists(st.fixed_dictionaries({"total": values}), min_size=2, max_size=2)}
        ),
    }
)


@given(entries, entries)
def test_a_side_that_changed_nothing_takes_the_others_version(base: Any, other: Any) -> None:
    assert merge(base, base, other).kept == other
    assert merge(base, other, base).kept == other
    assert merge(base, other, base).differs == []


@given(entries, entries, entries)
def test_no_conflict_means_both_merges_agree_and_every_change_is_kept(
    base: Any, newer: Any, older: Any
) -> None:
    done = merge(base, newer, older)
    assert (done.differs == []) == (done.kept == done.other)
    for key in ("notes", "duration_min"):
        if older[key] == base[key]:
            assert done.kept[key] == newer[key]
        elif newer[key] == base[key]:
            assert done.kept[key] == older[key]
        else:
            assert done.kept[key] == newer[key] and done.other[key] == older[key]
    conflicting = {d.path for d in done.differs}
    for k in range(2):
        path = ("result", "players", k, "total")
        n, o, b = (v["result"]["players"][k]["total"] for v in (newer, older, base))
        assert (path in conflicting) == (n != o and n != b and o != b)
