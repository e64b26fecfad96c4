"""Bounded, strict reading of JSON files: companion.scorefile."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.scorefile import (
    FileTooLarge,
    NotText,
    _pairs,
    _walk_problems,
    parse_json,
    read_source,
    size_words,
)
from scorers import ScoreFileError


def problems(text: str) -> list[str]:
    with pytest.raises(ScoreFileError) as caught:
        parse_json(text)
    return [str(p) for p in caught.value.problems]


def test_duplicate_keys_are_problems_with_their_paths() -> None:
    assert problems('{"players": [{"name": "A", "name": "B", "x": 1, "x": 2}], "a": 1}') == [
        "players[0].name: this key is given more than once",
        "players[0].x: this key is given more than once",
    ]


def test_deep_nesting_is_one_problem() -> None:
    assert problems("[" * 40 + "]" * 40) == ["[0]" * 32 + ": nested more than 32 levels deep"]


def test_nesting_beyond_the_parser_is_a_problem_not_a_crash() -> None:
    assert problems("[" * 100_000 + "]" * 100_000) == ["$: nested more than 32 levels deep"]


def test_unpaired_surrogates_are_problems() -> None:
    assert problems('{"players": [{"name": "A\\ud800"}]}') == [
        "players[0].name: holds an unpaired surrogate (\\ud800-\\udfff), not text"
    ]


def test_a_paired_surrogate_is_text() -> None:
    assert parse_json('{"name": "\\ud83d\\ude00"}') == {"name": "😀"}


def test_nan_is_not_json() -> None:
    assert problems('{"a": NaN}') == ["$: not valid JSON: NaN is not a number JSON allows"]


def test_read_source_stops_past_the_limit(tmp_path: Path) -> None:
    big = tmp_path / "big.json"
    big.write_bytes(b" " * 2_000)
    with pytest.raises(FileTooLarge) as caught:
        read_source(str(big), limit=1_000)
    assert str(caught.value) == f"{big} is larger than 1 kB, too large to be read"
    assert read_source(str(big), limit=2_000) == " " * 2_000


def test_read_source_reads_a_bounded_amount_of_an_endless_file() -> None:
    with pytest.raises(NotText) as caught:  # it stops at the first chunk: NUL is never JSON
        read_source("/dev/zero", limit=100_000)
    assert str(caught.value) == "/dev/zero is not a text file (it holds NUL bytes)"


def test_read_source_from_stdin_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = io.TextIOWrapper(io.BytesIO(b"x" * 5_000))
    monkeypatch.setattr(sys, "stdin", fake)
    with pytest.raises(FileTooLarge):
        read_source("-", limit=4_096)


@pytest.mark.parametrize(
    ("limit", "words"),
    [(1_000_000, "1 MB"), (64_000_000, "64 MB"), (2_000, "2 kB"), (10, "10 bytes")],
)
def test_size_words(limit: int, words: str) -> None:
    assert size_words(limit) == words


# JSON text built by hand, so that objects may repeat a key.
_LEAF = st.sampled_from(["1", "true", "null", '"x"', '"a b"', "2.5"])
_KEYS = st.sampled_from(["a", "b", "name", "x y", "", "é", "1"])
_JSON_TEXT = st.recursive(
    _LEAF,
    lambda inner: (
        st.lists(inner, max_size=4).map(lambda items: "[" + ",".join(items) + "]")
        | st.lists(st.tuples(_KEYS, inner), max_size=4).map(
            lambda pairs: "{" + ",".join(f"{json.dumps(k)}: {v}" for k, v in pairs) + "}"
        )
    ),
    max_leaves=40,
)


@settings(max_examples=300, deadline=None)
@given(text=_JSON_TEXT, depth=st.integers(min_value=1, max_value=6))
def test_the_walk_of_objects_and_lists_finds_what_the_full_walk_finds(
    text: str, depth: int
) -> None:
    """Without a surrogate in the text only objects and lists are visited: same problems."""
    value = json.loads(text, object_pairs_hook=_pairs)
    assert _walk_problems(value, depth, strings=False) == _walk_problems(value, depth)


def test_many_duplicate_keys_are_summed_up_the_same_way() -> None:
    text = "[" + ",".join('{"a": 1, "a": 2}' for _ in range(80)) + "]"
    value = json.loads(text, object_pairs_hook=_pairs)
    found = _walk_problems(value, 32, strings=False)
    assert found == _walk_problems(value, 32)
    assert len(found) == 51 and found[-1][0] == "$"
