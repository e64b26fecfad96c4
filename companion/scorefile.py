"""Reading a score file (or any JSON file a user gives us) with bounds, and scoring it.

Every file is read with a size limit (at most the limit plus one byte is ever
read, so ``/dev/zero`` or a FIFO cannot exhaust memory) and parsed strictly:
duplicate keys, nesting deeper than a limit and unpaired surrogates are
problems with their JSON path, like any other problem of the file.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

if TYPE_CHECKING:
    from scorers import Result, Scorer

MAX_SCORE_FILE_BYTES = 64_000
"""The largest real score file (four Kamakura players, every list full, indented) is
about 10 kB; a bigger file is not one, and reading it would only cost time."""
MAX_FILE_BYTES = 1_000_000
"""The limit of :func:`read_source` when its caller gives none."""
MAX_DEPTH = 32
"""The deepest nesting a score file needs is 6 levels."""
MAX_STRUCTURE_PROBLEMS = 50
"""Duplicate keys and unpaired surrogates listed before the rest are summed up."""

# A surrogate in the text, or a JSON escape of one: only then can a parsed
# text or key hold an unpaired surrogate (a pair of escapes makes one character).
_MAYBE_SURROGATE = re.compile(r"\\u[dD][89a-fA-F]|[\ud800-\udfff]")


class InputError(Exception):
    """The file could not be read at all (missing, unreadable, not text)."""


class FileTooLarge(InputError):
    """The file is over the size limit; nothing past the limit was read."""


class NotText(InputError):
    """The file was read but is not UTF-8 text."""


class _NulByte(Exception):
    """A NUL byte was read: no JSON text has one (so ``/dev/zero`` is not read to the limit)."""


def _read_limited(handle: BinaryIO, limit: int) -> bytearray:
    """At most ``limit + 1`` bytes, in one buffer (never a second copy of them).

    Raises:
        _NulByte: At the first chunk holding a NUL byte.
    """
    data = bytearray()
    while len(data) <= limit:
        chunk = handle.read(min(1 << 16, limit + 1 - len(data)))
        if not chunk:
            break
        if b"\0" in chunk:
            raise _NulByte
        data += chunk
    return data


def size_words(limit: int) -> str:
    """``1_000_000`` → ``1 MB``; ``64_000_000`` → ``64 MB``; ``500`` → ``500 bytes``."""
    if limit >= 1_000_000 and limit % 1_000_000 == 0:
        return f"{limit // 1_000_000} MB"
    if limit >= 1000 and limit % 1000 == 0:
        return f"{limit // 1000} kB"
    return f"{limit} bytes"


def read_source(source: str, *, limit: int = MAX_FILE_BYTES) -> str:
    """Return the text of ``source``, a path or ``-`` for standard input.

    Args:
        source: A file path, or ``-``.
        limit: The most bytes the file may have.

    Raises:
        FileTooLarge: The file has more than ``limit`` bytes.
        NotText: The file is not UTF-8 text, or holds a NUL byte (which no
            JSON text has: reading stops at the first one).
        InputError: The file cannot be read.
    """
    try:
        if source == "-":
            data = _read_limited(sys.stdin.buffer, limit)
        else:
            with Path(source).open("rb") as handle:
                data = _read_limited(handle, limit)
    except OSError as error:
        raise InputError(f"cannot read {source}: {error.strerror or error}") from error
    except _NulByte:
        raise NotText(f"{source} is not a text file (it holds NUL bytes)") from None
    if len(data) > limit:
        raise FileTooLarge(f"{source} is larger than {size_words(limit)}, too large to be read")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise NotText(f"{source} is not UTF-8 text ({error.reason})") from error


def _no_constants(name: str) -> object:
    raise ValueError(f"{name} is not a number JSON allows")


class _Object(dict[str, object]):
    """A JSON object that remembers the keys it was given more than once."""

    duplicates: tuple[str, ...] = ()


def _pairs(pairs: list[tuple[str, object]]) -> dict[str, object]:
    obj = dict(pairs)
    if len(obj) == len(pairs):
        return obj
    marked = _Object(obj)
    seen: set[str] = set()
    dups: dict[str, None] = {}
    for key, _ in pairs:
        if key in seen:
            dups[key] = None
        seen.add(key)
    marked.duplicates = tuple(dups)
    return marked


def _has_lone_surrogate(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _walk_problems(value: object, max_depth: int, *, strings: bool = True) -> list[tuple[str, str]]:
    """Duplicate keys, over-deep nesting and unpaired surrogates, with their paths.

    After :data:`MAX_STRUCTURE_PROBLEMS` the walk stops and one more problem
    says that there are more.

    Args:
        value: The parsed document.
        max_depth: The deepest nesting allowed.
        strings: Check every text and key for unpaired surrogates; ``False``
            when the document's text cannot hold one (then only objects and
            lists are visited).
    """
    if not strings:
        return _sorted_problems(_container_problems(value, max_depth))
    from scorers._validate import ROOT, index_path, key_path

    problems: list[tuple[str, str]] = []
    stack: list[tuple[object, str, int]] = [(value, ROOT, 0)]
    while stack and len(problems) <= MAX_STRUCTURE_PROBLEMS:
        item, path, depth = stack.pop()
        if isinstance(item, dict | list) and depth >= max_depth:
            problems.append((path, f"nested more than {max_depth} levels deep"))
            continue
        if isinstance(item, dict):
            for key in getattr(item, "duplicates", ())[: MAX_STRUCTURE_PROBLEMS + 1]:
                problems.append((key_path(path, key), "this key is given more than once"))
            for key, child in reversed(list(item.items())):
                if _has_lone_surrogate(key):
                    problems.append((path, "a key holds an unpaired surrogate (\\ud800-\\udfff)"))
                    continue
                stack.append((child, key_path(path, key), depth + 1))
        elif isinstance(item, list):
            for index in range(len(item) - 1, -1, -1):
                stack.append((item[index], index_path(path, index), depth + 1))
        elif isinstance(item, str) and _has_lone_surrogate(item):
            problems.append((path, "holds an unpaired surrogate (\\ud800-\\udfff), not text"))
    return _sorted_problems(problems)


# Where a container sits: ``None`` for the document, else (its parent's place, key or index).
_Place = tuple[object, str | int] | None


def _container_problems(value: object, max_depth: int) -> list[tuple[str, str]]:
    """Duplicate keys and over-deep nesting, visiting only objects and lists.

    The same walk in the same order as :func:`_walk_problems`; a path is
    spelled out only for a problem.
    """
    if not isinstance(value, dict | list):
        return []
    problems: list[tuple[str, str]] = []
    stack: list[tuple[dict[str, object] | list[object], int, _Place]] = [(value, 0, None)]
    while stack and len(problems) <= MAX_STRUCTURE_PROBLEMS:
        item, depth, place = stack.pop()
        if depth >= max_depth:
            problems.append((_path(place), f"nested more than {max_depth} levels deep"))
            continue
        if isinstance(item, dict):
            duplicates: tuple[str, ...] = getattr(item, "duplicates", ())
            if duplicates:
                from scorers._validate import key_path

                path = _path(place)
                for key in duplicates[: MAX_STRUCTURE_PROBLEMS + 1]:
                    problems.append((key_path(path, key), "this key is given more than once"))
            for key, child in reversed(item.items()):
                if isinstance(child, dict | list):
                    stack.append((child, depth + 1, (place, key)))
        else:
            for index in range(len(item) - 1, -1, -1):
                child = item[index]
                if isinstance(child, dict | list):
                    stack.append((child, depth + 1, (place, index)))
    return problems


def _path(place: _Place) -> str:
    """The JSON path of a place (``$`` for the document)."""
    from scorers._validate import ROOT, index_path, key_path

    steps: list[str | int] = []
    while place is not None:
        parent, step = place
        steps.append(step)
        place = parent  # type: ignore[assignment]
    path = ROOT
    for step in reversed(steps):
        path = index_path(path, step) if isinstance(step, int) else key_path(path, step)
    return path


def _sorted_problems(problems: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Problems by path; past :data:`MAX_STRUCTURE_PROBLEMS`, one that says there are more."""
    from scorers._validate import ROOT

    problems.sort(key=lambda p: p[0])
    if len(problems) > MAX_STRUCTURE_PROBLEMS:
        del problems[MAX_STRUCTURE_PROBLEMS:]
        problems.append((ROOT, "more duplicate keys or unpaired surrogates than these"))
    return problems


def parse_json(text: str, *, max_depth: int = MAX_DEPTH) -> object:
    """Parse JSON text strictly.

    Args:
        text: The JSON text.
        max_depth: The deepest nesting of objects and lists allowed.

    Raises:
        ScoreFileError: At ``$`` when the text is not JSON or is nested too
            deeply; at each place where a key is repeated or a text holds an
            unpaired surrogate.
    """
    from scorers import ScoreFileError

    try:
        value = json.loads(text, parse_constant=_no_constants, object_pairs_hook=_pairs)
    except json.JSONDecodeError as error:
        raise ScoreFileError.single(
            "$", f"not valid JSON: {error.msg} (line {error.lineno}, column {error.colno})"
        ) from error
    except RecursionError as error:
        raise ScoreFileError.single("$", f"nested more than {max_depth} levels deep") from error
    except ValueError as error:
        raise ScoreFileError.single("$", f"not valid JSON: {error}") from error
    problems = _walk_problems(value, max_depth, strings=_MAYBE_SURROGATE.search(text) is not None)
    if problems:
        raise ScoreFileError.many(problems)
    return value


def score_text(scorer: Scorer, text: str) -> Result:
    """Validate and score the text of a score file.

    Raises:
        ScoreFileError: With every problem found.
    """
    return scorer.score_json(parse_json(text))
