"""Bounded, strict reading of JSON files: companion.bounded_json."""

from __future__ import annotations

import io
import json
import sys
import tracemalloc
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import bounded_json
from companion.bounded_json import (
    FileTooLarge,
    JsonDocument,
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


# ---------------------------------------------------------------- JsonDocument


def document_of(text: str, size: int, *, max_depth: int = 32) -> JsonDocument:
    """A document of ``text`` given ``size`` characters at a time."""
    pieces = [text[k : k + size] for k in range(0, len(text), size)]
    return JsonDocument(lambda: iter(pieces), max_depth=max_depth)


def read_whole(document: JsonDocument) -> object:
    """Every member, the list ``l`` item by item; the problems as parse_json words them."""
    from scorers._validate import key_path

    found: dict[str, object] = {}
    try:
        for key in document.members():
            if key == "l" and document.peek() == "[":
                found[key] = list(document.items("l", 1))
            else:
                found[key] = document.value(key_path("$", key), 1)
        document.end()
    except ScoreFileError as error:
        return [str(p) for p in error.problems]
    return found


def parsed(text: str, max_depth: int = 32) -> object:
    try:
        return parse_json(text, max_depth=max_depth)
    except ScoreFileError as error:
        return [str(p) for p in error.problems]


_CUTS = st.sampled_from(["", ",", "]", "}", '"', "x", "\n", "1.", "e", "\\u"])


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    items=st.lists(_JSON_TEXT, max_size=4),
    other=_JSON_TEXT,
    size=st.integers(min_value=1, max_value=9),
    depth=st.integers(min_value=2, max_value=6),
    cut=st.none() | st.tuples(st.floats(min_value=0, max_value=1), _CUTS),
)
def test_a_document_read_in_pieces_is_read_as_parse_json_reads_it(
    monkeypatch: pytest.MonkeyPatch,
    items: list[str],
    other: str,
    size: int,
    depth: int,
    cut: tuple[float, str] | None,
) -> None:
    """Same values, same problems, same words for text that is not JSON (line and
    column included), wherever the pieces and the reading window end."""
    monkeypatch.setattr(bounded_json, "_WINDOW", 2)
    text = '{"l": [' + ",\n ".join(items) + '], "a": ' + other + "}"
    if cut is not None:  # something changed or missing somewhere
        at = int(cut[0] * (len(text) - 1))
        text = text[:at] + cut[1] + text[at + 1 :]
    if not text.startswith("{"):
        return
    assert read_whole(document_of(text, size, max_depth=depth)) == parsed(text, depth)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"l": [{"a": 1}, {"a": 1, "a": 2}]}', ["l[1].a: this key is given more than once"]),
        (
            '{"l": [["\\ud800"]]}',
            ["l[0][0]: holds an unpaired surrogate (\\ud800-\\udfff), not text"],
        ),
        ('{"l": [1], "l": [2]}', ["l: this key is given more than once"]),
        ('{"l": [[[[1]]]]}', ["l[0][0][0]: nested more than 4 levels deep"]),
        ('{"l": [' + "[" * 5000 + "]" * 5000 + "]}", ["l[0]: nested more than 4 levels deep"]),
        ('{"l": [1, 2,\n 3 4]}', ["$: not valid JSON: Expecting ',' delimiter (line 2, column 4)"]),
        ('{"l": [1]} []', ["$: not valid JSON: Extra data (line 1, column 12)"]),
        ('{"l": [NaN]}', ["$: not valid JSON: NaN is not a number JSON allows"]),
    ],
)
def test_a_document_names_each_problem_where_it_is(text: str, expected: list[str]) -> None:
    assert read_whole(document_of(text, 3, max_depth=4)) == expected


def test_past_the_limit_of_problems_reading_stops_at_once() -> None:
    text = '{"l": [' + ",".join(['{"a": 1, "a": 2}'] * 60) + "], " + "x" * 10 + "}"
    found = read_whole(document_of(text, 5))
    assert found[-1] == "$: more duplicate keys or unpaired surrogates than these"  # type: ignore[index]
    assert len(found) == 51  # type: ignore[arg-type]  (the broken end is never reached)


def test_counting_items_reads_past_them_unchecked() -> None:
    text = '{"l": [1, {"a": [2, "]"]}, "x,y" , [], {"a": 1, "a": 2}], "b": 3}'
    document = document_of(text, 4)
    keys = document.members()
    assert next(keys) == "l"
    assert document.count_items("l", 10, begun=False) == 5
    assert next(keys) == "b"
    assert document.value("b", 1) == 3
    assert list(keys) == []
    document.end()  # the duplicate key in l was read past, not noted

    document = document_of(text, 4)
    keys = document.members()
    next(keys)
    assert document.count_items("l", 2, begun=False) == 3  # stops one past the limit

    document = document_of(text, 4)
    keys = document.members()
    next(keys)
    items = document.items("l", 1)
    assert next(items) == 1
    assert document.count_items("l", 10, begun=True) == 4  # the rest, after the first
    assert next(keys) == "b"


def test_a_large_list_is_read_in_little_memory(tmp_path: Path) -> None:
    """8 MB of items: only a window of the text (1 MB) and one item are ever held."""
    path = tmp_path / "big.json"
    item = json.dumps({"name": "x" * 1000, "scores": [1, 2, 3]})
    with path.open("w") as handle:
        handle.write('{"l": [')
        handle.writelines((item + ",") * 1000 for _ in range(8))
        handle.write(item + "]}")
    tracemalloc.start()
    try:
        with JsonDocument.open(str(path), limit=30_000_000, max_depth=32) as document:
            for key in document.members():
                count = sum(1 for _ in document.items(key, 1))
            document.end()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert count == 8_001
    assert peak < 4_000_000, peak


def test_a_document_is_read_again_from_a_file_or_standard_input(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "doc.json"
    path.write_text('{"a": [1, 2]}')
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(path.read_bytes())))
    for source in (str(path), "-"):
        with JsonDocument.open(source, limit=1000, max_depth=32) as document:
            for _ in range(2):
                assert [(k, document.value(k, 1)) for k in document.members()] == [("a", [1, 2])]
                document.end()
                document.restart()


def test_a_document_is_bounded_like_read_source(tmp_path: Path) -> None:
    big = tmp_path / "big.json"
    with big.open("wb") as handle:
        handle.truncate(2_001)  # (never read: its size says enough)
    with pytest.raises(FileTooLarge) as caught:
        JsonDocument.open(str(big), limit=2_000, max_depth=32)
    assert str(caught.value) == f"{big} is larger than 2 kB, too large to be read"

    late = tmp_path / "late.json"
    late.write_bytes(b'{"l": [' + b"1," * 100_000 + b"\0]}")
    with (
        pytest.raises(NotText) as refused,
        JsonDocument.open(str(late), limit=1_000_000, max_depth=32) as document,
    ):
        read_whole(document)
    assert str(refused.value) == f"{late} is not a text file (it holds NUL bytes)"

    with pytest.raises(NotText) as zero:
        JsonDocument.open("/dev/zero", limit=100_000, max_depth=32)
    assert str(zero.value) == "/dev/zero is not a text file (it holds NUL bytes)"


@settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    items=st.lists(_JSON_TEXT, max_size=8),
    space=st.sampled_from(["", " ", ",\n  "[1:], "\n\t "]),
    size=st.integers(min_value=1, max_value=9),
    first=st.integers(min_value=0, max_value=3),
)
def test_counting_items_counts_what_json_reads(
    monkeypatch: pytest.MonkeyPatch, items: list[str], space: str, size: int, first: int
) -> None:
    """However the items are spaced and the text cut, the count is the list's length."""
    monkeypatch.setattr(bounded_json, "_WINDOW", 2)
    joined = space + ("," + space).join(items) + space
    text = '{"l": [' + joined + '], "b": 1}'
    length = len(json.loads(text)["l"])
    document = document_of(text, size)
    keys = document.members()
    assert next(keys) == "l"
    if first and first <= length:  # some items read first, the rest counted
        read = document.items("l", 1)
        for _ in range(first):
            next(read)
        assert document.count_items("l", 100, begun=True) == length - first
    else:
        assert document.count_items("l", 100, begun=False) == length
    assert list(keys) == ["b"]


PLAY = '{"uuid": "X", "seats": [{"id": 1, "score": 5}, {"id": 2, "score": 7}]}'


@pytest.mark.parametrize(
    "items",
    [
        [PLAY] * 30_000,  # counted many at a time
        [PLAY, json.dumps({"uuid": '}, {"uuid": "'})] * 9_000,  # the same marks in texts
        ['{"a": [{"a": 1}, {"a": 2}, {"a": 3}]}', '{"a": []}'] * 9_000,  # and in items
        ["1", "[1, 2]", "1.5e3", '"1,1"', "null"] * 9_000,
    ],
)
def test_counting_many_items_at_a_time_counts_them_all(items: list[str]) -> None:
    for space in ("", "\n    "):
        text = '{"l": [' + space + ("," + space).join(items) + space + '], "b": 1}'
        document = document_of(text, 70_000)
        assert next(document.members()) == "l"
        assert document.count_items("l", 10**6, begun=False) == len(items)
        assert document.peek() == ","  # right after the list


def test_counting_items_still_finds_text_that_is_not_json() -> None:
    for bad in ('{"uuid": "X",}', '{"uuid": "X" "a": 1}', "[1, 2,]", "NaN"):
        text = '{"l": [' + ",".join([PLAY] * 5_000 + [bad] + [PLAY] * 5_000) + "]}"
        document = document_of(text, 70_000)
        next(document.members())
        with pytest.raises(ScoreFileError) as caught:
            document.count_items("l", 10**6, begun=False)
        assert [str(p) for p in caught.value.problems] == parsed(text), bad
