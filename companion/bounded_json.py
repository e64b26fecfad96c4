"""Reading JSON a user gives us (a score file, a history import) with bounds.

Every file is read with a size limit (at most the limit plus one byte is ever
read, so ``/dev/zero`` or a FIFO cannot exhaust memory) and parsed strictly:
duplicate keys, nesting deeper than a limit and unpaired surrogates are
problems with their JSON path, like any other problem of the file.

A large file (a history import) is read as a :class:`JsonDocument` instead: the
same rules, applied piece by piece as the file is read, so that memory stays
small and a caller can stop reading once the file is hopeless.
"""

from __future__ import annotations

import codecs
import json
import os
import re
import stat
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from types import TracebackType
from typing import BinaryIO, NoReturn

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
# Two searches: the first has a plain prefix (fast), the second is needed only
# when the text is not ASCII.
_ESCAPED_SURROGATE = re.compile(r"\\u[dD][89a-fA-F]")
_RAW_SURROGATE = re.compile("[\ud800-\udfff]")


def _first_surrogate(text: str, start: int = 0) -> int:
    """Where the first surrogate, or escape of one, of ``text`` from ``start`` is
    (``len(text)`` when there is none)."""
    escaped = _ESCAPED_SURROGATE.search(text, start)
    at = escaped.start() if escaped else len(text)
    if not text.isascii():
        raw = _RAW_SURROGATE.search(text, start, at)
        if raw:
            at = raw.start()
    return at


class InputError(Exception):
    """The file could not be read at all (missing, unreadable, not text)."""


class FileTooLarge(InputError):
    """The file is over the size limit; nothing past the limit was read."""


class NotText(InputError):
    """The file was read but is not UTF-8 text."""


class _NulByte(Exception):
    """A NUL byte was read: no JSON text has one (so ``/dev/zero`` is not read to the limit)."""


def _chunks(handle: BinaryIO, limit: int) -> Iterator[bytes]:
    """The bytes of ``handle`` in chunks of at most 64 kB, at most ``limit + 1`` in all.

    Raises:
        _NulByte: At the first chunk holding a NUL byte.
    """
    total = 0
    while total <= limit:
        chunk = handle.read(min(1 << 16, limit + 1 - total))
        if not chunk:
            return
        if b"\0" in chunk:
            raise _NulByte
        total += len(chunk)
        yield chunk


def _read_limited(handle: BinaryIO, limit: int) -> bytearray:
    """At most ``limit + 1`` bytes, in one buffer (never a second copy of them).

    Raises:
        _NulByte: At the first chunk holding a NUL byte.
    """
    data = bytearray()
    for chunk in _chunks(handle, limit):
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
        raise _unreadable(source, error) from error
    except _NulByte:
        raise _nul(source) from None
    if len(data) > limit:
        raise _too_large(source, limit)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise _not_utf8(source, error) from error


def _unreadable(source: str, error: OSError) -> InputError:
    return InputError(f"cannot read {source}: {error.strerror or error}")


def _nul(source: str) -> NotText:
    return NotText(f"{source} is not a text file (it holds NUL bytes)")


def _too_large(source: str, limit: int) -> FileTooLarge:
    return FileTooLarge(f"{source} is larger than {size_words(limit)}, too large to be read")


def _not_utf8(source: str, error: UnicodeDecodeError) -> NotText:
    return NotText(f"{source} is not UTF-8 text ({error.reason})")


def _pieces(source: str, handle: BinaryIO, limit: int) -> Iterator[str]:
    """The text of ``handle`` piece by piece, with the checks of :func:`read_source`.

    Raises:
        FileTooLarge: Once more than ``limit`` bytes were read.
        NotText: At the first NUL byte or the first byte that is not UTF-8.
        InputError: The file cannot be read.
    """
    decoder = codecs.getincrementaldecoder("utf-8-sig")()
    total = 0
    try:
        for chunk in _chunks(handle, limit):
            total += len(chunk)
            if total > limit:
                raise _too_large(source, limit)
            yield decoder.decode(chunk)
        yield decoder.decode(b"", True)
    except OSError as error:
        raise _unreadable(source, error) from error
    except _NulByte:
        raise _nul(source) from None
    except UnicodeDecodeError as error:
        raise _not_utf8(source, error) from error


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
    return _sorted_problems(_found_problems(value, max_depth, strings=strings))


def _found_problems(
    value: object, max_depth: int, *, strings: bool = True, root: str = "$", depth: int = 0
) -> list[tuple[str, str]]:
    """The problems of :func:`_walk_problems`, in the order found (at most one past the cap).

    The walk goes depth first, keeping one iterator per open container (so it holds
    as many as the nesting is deep, never one entry per item of a long list).

    Args:
        value: The parsed document, or one value of it.
        max_depth: The deepest nesting allowed.
        strings: As for :func:`_walk_problems`.
        root: The path of ``value`` in its document.
        depth: How deep ``value`` is in its document (0 for the document).
    """
    if not strings:
        return _container_problems(value, max_depth, root=root, depth=depth)
    from scorers._validate import index_path, key_path

    problems: list[tuple[str, str]] = []

    def entered(item: object, path: str, depth: int) -> Iterator[tuple[object, str]] | None:
        """Check ``item``; the children to visit next when it is a container to go into."""
        if isinstance(item, dict | list) and depth >= max_depth:
            problems.append((path, f"nested more than {max_depth} levels deep"))
            return None
        if isinstance(item, dict):
            for key in getattr(item, "duplicates", ())[: MAX_STRUCTURE_PROBLEMS + 1]:
                problems.append((key_path(path, key), "this key is given more than once"))
            lone = [key for key in item if _has_lone_surrogate(key)]
            for _ in lone:
                problems.append((path, "a key holds an unpaired surrogate (\\ud800-\\udfff)"))
            return (
                (child, key_path(path, key))
                for key, child in item.items()
                if not (lone and key in lone)
            )
        if isinstance(item, list):
            return ((child, index_path(path, index)) for index, child in enumerate(item))
        if isinstance(item, str) and _has_lone_surrogate(item):
            problems.append((path, "holds an unpaired surrogate (\\ud800-\\udfff), not text"))
        return None

    first = entered(value, root, depth)
    stack: list[tuple[Iterator[tuple[object, str]], int]] = [(first, depth)] if first else []
    while stack and len(problems) <= MAX_STRUCTURE_PROBLEMS:
        children, level = stack[-1]
        found = next(children, None)
        if found is None:
            stack.pop()
            continue
        inner = entered(found[0], found[1], level + 1)
        if inner is not None:
            stack.append((inner, level + 1))
    return problems


# Where a container sits: ``None`` for the document, else (its parent's place, key or index).
_Place = tuple[object, str | int] | None


def _container_problems(
    value: object, max_depth: int, *, root: str = "$", depth: int = 0
) -> list[tuple[str, str]]:
    """Duplicate keys and over-deep nesting, visiting only objects and lists.

    The same walk in the same order as :func:`_walk_problems`; a path is
    spelled out only for a problem.
    """
    if not isinstance(value, dict | list):
        return []
    problems: list[tuple[str, str]] = []

    def entered(item: dict[str, object] | list[object], depth: int, place: _Place) -> bool:
        """Check a container; whether to go into it."""
        if depth >= max_depth:
            problems.append((_path(place, root), f"nested more than {max_depth} levels deep"))
            return False
        duplicates: tuple[str, ...] = getattr(item, "duplicates", ())
        if duplicates:
            from scorers._validate import key_path

            path = _path(place, root)
            for key in duplicates[: MAX_STRUCTURE_PROBLEMS + 1]:
                problems.append((key_path(path, key), "this key is given more than once"))
        return True

    def inside(item: dict[str, object] | list[object], place: _Place) -> Iterator[_Child]:
        steps = item.items() if isinstance(item, dict) else enumerate(item)
        return ((child, (place, step)) for step, child in steps if isinstance(child, dict | list))

    stack: list[tuple[Iterator[_Child], int]] = []
    if entered(value, depth, None):
        stack.append((inside(value, None), depth))
    while stack and len(problems) <= MAX_STRUCTURE_PROBLEMS:
        children, level = stack[-1]
        found = next(children, None)
        if found is None:
            stack.pop()
            continue
        child, place = found
        if entered(child, level + 1, place):
            stack.append((inside(child, place), level + 1))
    return problems


_Child = tuple["dict[str, object] | list[object]", _Place]
"""A container inside another, and its place."""


def _path(place: _Place, root: str = "$") -> str:
    """The JSON path of a place (``root`` for the value the walk began at)."""
    from scorers._validate import index_path, key_path

    steps: list[str | int] = []
    while place is not None:
        parent, step = place
        steps.append(step)
        place = parent  # type: ignore[assignment]
    path = root
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
    problems = _walk_problems(value, max_depth, strings=_first_surrogate(text) < len(text))
    if problems:
        raise ScoreFileError.many(problems)
    return value


_WINDOW = 1 << 20
"""How much text a :class:`JsonDocument` reads ahead (more only for a longer value)."""
_SPACE = " \t\n\r"
_SKIP_SPACE = re.compile(r"[ \t\n\r]*").match
_NUMBER_GOES_ON = re.compile(r"[0-9.eE+-]*\Z").match
"""Whether the rest of a buffer may be the rest of a number (so that more text may
make it longer)."""
_VALUE_START = frozenset('[{"-0123456789tfn')


class JsonDocument:
    """A JSON document read as it is needed, with the rules of :func:`parse_json`.

    The top-level object is read member by member (:meth:`members`); a
    member's value is read whole (:meth:`value`) or, for a list, item by
    item (:meth:`items`), so that only a window of the text and the value at
    hand are in memory. Every value is checked as it is read: a duplicate key,
    a nesting deeper than ``max_depth`` or an unpaired surrogate is noted in
    :attr:`problems` with its path (past :data:`MAX_STRUCTURE_PROBLEMS` they
    are raised at once); text that is not JSON raises at once, at ``$``, with
    its line and column. :meth:`end` checks that nothing follows the document
    and raises the problems noted.

    Use it as a context manager: the file is closed at the end.
    """

    def __init__(
        self,
        pieces: Callable[[], Iterator[str]],
        *,
        max_depth: int,
        close: Callable[[], None] | None = None,
        max_value: int | None = None,
    ) -> None:
        """A document whose text ``pieces()`` gives, piece by piece (again at each call);
        ``max_value``: the most characters one value may take (a longer one is refused,
        at its path, before more of it is read)."""
        self.max_depth = max_depth
        self.max_value = max_value
        self._text = pieces
        self._close = close
        self.restart()
        self._marked = 0  # objects with a duplicate key made so far
        self._reads = 0  # values read by the caller

        def pairs(items: list[tuple[str, object]]) -> dict[str, object]:
            obj = dict(items)
            if len(obj) == len(items):
                return obj
            self._marked += 1
            return _pairs(items)

        decoder = json.JSONDecoder(object_pairs_hook=pairs, parse_constant=_no_constants)
        # The json module's C scanner: one value from a place in a text (not in the stubs).
        self._scan: Callable[[str, int], tuple[object, int]] = decoder.scan_once  # type: ignore[attr-defined]
        # The same, making no object (each is its number of keys): to read past values.
        skipper = json.JSONDecoder(object_pairs_hook=len, parse_constant=_no_constants)
        self._skim: Callable[[str, int], tuple[object, int]] = skipper.scan_once  # type: ignore[attr-defined]

    def restart(self) -> None:
        """Read the document again from its beginning (the problems found are forgotten)."""
        self.problems: list[tuple[str, str]] = []
        """Duplicate keys, over-deep nesting and unpaired surrogates found so far."""
        self._pieces = self._text()
        self._buf = ""
        self._pos = 0
        self._eof = False
        self._lines = 0  # newlines in the text before the buffer
        self._column = 0  # characters after the last of them, before the buffer
        self._surrogate_at = -1  # the next possible surrogate in the buffer (-1: not looked for)

    @classmethod
    def open(
        cls, source: str, *, limit: int, max_depth: int, max_value: int | None = None
    ) -> JsonDocument:
        """The document in ``source`` (a path, or ``-`` for standard input).

        Standard input is read whole at once (it can be read only once); a
        file as it is needed.

        Raises:
            FileTooLarge: The file has more than ``limit`` bytes (a regular
                file at once; anything else once that much has been read).
            NotText: At the first NUL byte or byte that is not UTF-8.
            InputError: The file cannot be read.
        """
        if source == "-":
            return cls._whole(source, sys.stdin.buffer, limit, max_depth, max_value)
        try:
            handle = Path(source).open("rb")  # noqa: SIM115 (closed by the document)
        except OSError as error:
            raise _unreadable(source, error) from error
        try:
            status = os.fstat(handle.fileno())
            if not stat.S_ISREG(status.st_mode):  # a pipe or a device: it can be read once
                with handle:
                    return cls._whole(source, handle, limit, max_depth, max_value)
            if status.st_size > limit:
                raise _too_large(source, limit)
        except BaseException:
            handle.close()
            raise
        return cls.of_handle(source, handle, limit=limit, max_depth=max_depth, max_value=max_value)

    @classmethod
    def of_handle(
        cls,
        source: str,
        handle: BinaryIO,
        *,
        limit: int,
        max_depth: int,
        max_value: int | None = None,
    ) -> JsonDocument:
        """The document in ``handle``, an open file that can be read again from its start
        (such as a temporary copy of standard input), named ``source`` in messages;
        it is closed with the document."""

        def pieces() -> Iterator[str]:
            handle.seek(0)
            return _pieces(source, handle, limit)

        return cls(pieces, max_depth=max_depth, close=handle.close, max_value=max_value)

    @classmethod
    def _whole(
        cls, source: str, handle: BinaryIO, limit: int, max_depth: int, max_value: int | None
    ) -> JsonDocument:
        """The document of a file that can be read only once (standard input, a pipe):
        copied into an anonymous temporary file (gone once closed, or when the process
        ends), so that it is read again piece by piece as a file is, never held whole."""
        import tempfile

        copy = tempfile.TemporaryFile(prefix="companion-")  # noqa: SIM115 (the document's)
        try:
            for chunk in _chunks(handle, limit):
                copy.write(chunk)
        except OSError as error:
            copy.close()
            raise _unreadable(source, error) from error
        except _NulByte:
            copy.close()
            raise _nul(source) from None
        except BaseException:
            copy.close()
            raise
        return cls.of_handle(source, copy, limit=limit, max_depth=max_depth, max_value=max_value)

    @classmethod
    def of_text(cls, text: str, *, max_depth: int) -> JsonDocument:
        """The document in ``text`` (already read)."""
        return cls(lambda: iter([text]), max_depth=max_depth)

    def __enter__(self) -> JsonDocument:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self._close is not None:
            self._close()

    # ------------------------------------------------------------ the document

    def peek(self) -> str:
        """The next character that is not white space (``""`` at the end)."""
        buf, pos = self._buf, self._pos
        if pos < len(buf) and buf[pos] not in _SPACE:  # (the usual case, at once)
            return buf[pos]
        while True:
            self._pos = _space_end(self._buf, self._pos)
            if self._pos < len(self._buf):
                return self._buf[self._pos]
            if not self._fill(1):
                return ""

    def rest(self, limit: int) -> str | None:
        """All the text from here, or ``None`` when there is more than ``limit`` characters."""
        while not self._eof and len(self._buf) - self._pos <= limit:
            self._fill(len(self._buf) - self._pos + 1)
        text = self._buf[self._pos :]
        return text if len(text) <= limit else None

    def members(self) -> Iterator[str]:
        """The keys of the top-level object, in order.

        After each key the caller reads its value with :meth:`value` or
        :meth:`items` (a value left unread is read and checked anyway). A key
        given twice is a problem at its path.

        Raises:
            ScoreFileError: The text is not JSON, or (past
                :data:`MAX_STRUCTURE_PROBLEMS`) the problems found.
        """
        from scorers._validate import ROOT, key_path

        if self.peek() != "{":
            self._fail("Expecting value", self._pos)
        self._pos += 1
        seen: set[str] = set()
        ahead = self.peek()
        if ahead == "}":
            self._pos += 1
            return
        while True:
            if ahead != '"':
                self._fail("Expecting property name enclosed in double quotes", self._pos)
            found, _, self._pos = self._scanned()
            key = str(found)  # a text: it began with a quote
            if self.peek() != ":":
                self._fail("Expecting ':' delimiter", self._pos)
            self._pos += 1
            self.peek()
            if _has_lone_surrogate(key):
                self._note(ROOT, "a key holds an unpaired surrogate (\\ud800-\\udfff)")
            elif key in seen:
                self._note(key_path(ROOT, key), "this key is given more than once")
            seen.add(key)
            reads = self._reads
            yield key
            if self._reads == reads:
                self.value(key_path(ROOT, key), 1)
            ahead = self.peek()
            if ahead == ",":
                self._pos += 1
                ahead = self.peek()
                continue
            if ahead == "}":
                self._pos += 1
                return
            self._fail("Expecting ',' delimiter", self._pos)

    def value(self, path: str, depth: int) -> object:
        """The value at the current place, checked (``path`` and ``depth`` are its own).

        Raises:
            ScoreFileError: As :meth:`members`.
        """
        self._reads += 1
        self.peek()
        marked = self._marked
        try:
            value, start, end = self._scanned(path=path)
        except RecursionError:
            from scorers import ScoreFileError

            raise ScoreFileError.single(
                path, f"nested more than {self.max_depth} levels deep"
            ) from None
        self._pos = end
        buf = self._buf
        strings = self._surrogate_in(start, end)
        if (
            strings
            or self._marked != marked
            or buf.count("[", start, end) + buf.count("{", start, end) > self.max_depth - depth
        ):
            self._note_all(
                _found_problems(value, self.max_depth, strings=strings, root=path, depth=depth)
            )
        return value

    def items(self, path: str, depth: int, *, skip: int = 0) -> Iterator[object]:
        """The items of the list at the current place (``depth`` is the list's), one by one.

        Args:
            path: The list's path.
            depth: The list's depth.
            skip: Read past this many items first, unchecked (as
                :meth:`count_items` does): items already read.

        Raises:
            ScoreFileError: As :meth:`members`.
        """
        from scorers._validate import index_path

        self._reads += 1
        if self.peek() != "[" or depth >= self.max_depth:
            yield from _one_list(self.value(path, depth))
            return
        self._pos += 1
        if self.peek() == "]":
            self._pos += 1
            return
        index = 0
        while True:
            if index < skip:
                self._skip(path)
            else:
                yield self.value(index_path(path, index), depth + 1)
            index += 1
            ahead = self.peek()
            if ahead == ",":
                self._pos += 1
                continue
            if ahead == "]":
                self._pos += 1
                return
            self._fail("Expecting ',' delimiter", self._pos)

    def count_items(self, path: str, limit: int, *, begun: bool) -> int:
        """Read past the items of a list without checking them, and count them.

        As quickly as the json module's C parser can (making no object):
        to refuse a list that is too long before its items are checked.
        Text that is not JSON still raises; the problems :meth:`value` looks
        for are not looked for.

        Args:
            path: The list's path.
            limit: Stop counting past this many (the list is then left unread).
            begun: ``False`` at the list; ``True`` after the item :meth:`items`
                gave last (the iteration must then end: this reads the rest).

        Returns:
            How many items were read past: more than ``limit`` when there are
            more (then the list is left part read).
        """
        if not begun:
            self._reads += 1
            if self.peek() != "[":
                self._fail("Expecting value", self._pos)  # (only called at a list)
            self._pos += 1
            if self.peek() == "]":
                self._pos += 1
                return 0
            self._skip(path)
            count = 1
        else:
            count = 0
        skim, space, batches, tried = self._skim, _SPACE, True, ""
        while count <= limit:
            buf, pos = self._buf, self._pos
            if pos < len(buf) and buf[pos] in space:
                pos = _space_end(buf, pos)
            if pos < len(buf) - 1 and buf[pos] == ",":
                comma, pos = pos, pos + 1
                if buf[pos] in space:
                    pos = _space_end(buf, pos)
                if batches and buf is not tried:  # many items in one call, when it can be
                    found = _batch(skim, buf, comma, pos)
                    if isinstance(found, tuple):
                        self._pos, count = found[0], count + found[1]
                        continue
                    batches = found is None  # (once a batch fails, one at a time)
                    tried = buf  # (no place for one in this buffer: not before the next)
                try:  # usually the next item is whole in the buffer
                    _, end = skim(buf, pos)
                    if not _NUMBER_GOES_ON(buf, end):
                        self._pos = end
                        count += 1
                        continue
                except (StopIteration, ValueError, RecursionError):
                    pass
            ahead = self.peek()
            if ahead == "]":
                self._pos += 1
                return count
            if ahead != ",":
                self._fail("Expecting ',' delimiter", self._pos)
            self._pos += 1
            self._skip(path)
            count += 1
        return count

    def end(self) -> None:
        """Check that nothing follows the document; raise the problems found.

        Raises:
            ScoreFileError: Something follows, or problems were found.
        """
        if self.peek():
            self._fail("Extra data", self._pos)
        self.raise_problems()

    def raise_problems(self) -> None:
        """Raise the problems found so far, if any.

        Raises:
            ScoreFileError: The problems, by path (past
                :data:`MAX_STRUCTURE_PROBLEMS`, one says there are more).
        """
        from scorers import ScoreFileError

        if self.problems:
            raise ScoreFileError.many(_sorted_problems(list(self.problems)))

    # ------------------------------------------------------------ reading

    def _skip(self, path: str) -> None:
        """Read past the value at the current place, unchecked."""
        self.peek()
        try:
            _, _, self._pos = self._scanned(self._skim, path=path)
        except RecursionError:
            from scorers import ScoreFileError

            raise ScoreFileError.single(
                path, f"nested more than {self.max_depth} levels deep"
            ) from None

    def _scanned(
        self, scan: Callable[[str, int], tuple[object, int]] | None = None, path: str = "$"
    ) -> tuple[object, int, int]:
        """The JSON value at the current place (at ``path``), with where it starts and
        ends in the buffer.

        Reads on while the buffer may cut the value short (up to :attr:`max_value`
        characters of it).
        """
        scan = scan or self._scan
        while True:
            buf, start = self._buf, self._pos
            try:
                value, end = scan(buf, start)
            except StopIteration as stop:
                self._read_on_or_fail("Expecting value", stop.value, path)
                continue
            except json.JSONDecodeError as error:
                self._read_on_or_fail(error.msg, error.pos, path)
                continue
            except RecursionError:
                raise
            except ValueError as error:  # NaN, or a number too long to read
                from scorers import ScoreFileError

                raise ScoreFileError.single("$", f"not valid JSON: {error}") from error
            if self._eof or not _NUMBER_GOES_ON(buf, end):
                return value, start, end
            # A number at the end of the buffer (or a container or text just
            # ending it, all the same) may go on past it: read on, scan again.
            self._bound(path)
            self._fill(2 * (len(buf) - start))

    def _read_on_or_fail(self, message: str, at: int, path: str = "$") -> None:
        """Read on when the error may only mean that the buffer ends too soon, else fail."""
        if self._eof or not (
            at >= len(self._buf) - 16 or message.startswith("Unterminated string")
        ):
            self._fail(message, at)
        self._bound(path)
        self._fill(2 * (len(self._buf) - self._pos))

    def _bound(self, path: str) -> None:
        """Refuse the value at the current place (at ``path``) when it is longer than
        :attr:`max_value` and not whole yet: no more of it is read.

        Raises:
            ScoreFileError: At ``path``.
        """
        if self.max_value is not None and len(self._buf) - self._pos > self.max_value:
            from scorers import ScoreFileError

            raise ScoreFileError.single(
                path, f"is more than {self.max_value:,} characters long (too long to be read)"
            )

    def _fill(self, wanted: int) -> bool:
        """Read until at least ``wanted`` characters follow the current place.

        Returns:
            Whether anything was read (``False`` at the end of the file).
        """
        if self._eof:
            return False
        buf, pos = self._buf, self._pos
        if pos:
            newlines = buf.count("\n", 0, pos)
            if newlines:
                self._lines += newlines
                self._column = pos - buf.rfind("\n", 0, pos) - 1
            else:
                self._column += pos
        parts = [buf[pos:]]
        size = len(parts[0])
        target = size + max(wanted - size, _WINDOW)
        while size < target:
            piece = next(self._pieces, None)
            if piece is None:
                self._eof = True
                break
            parts.append(piece)
            size += len(piece)
        self._buf = "".join(parts)
        self._pos = 0
        self._surrogate_at = -1
        return len(parts) > 1

    def _surrogate_in(self, start: int, end: int) -> bool:
        """Whether the text from ``start`` to ``end`` may hold an unpaired surrogate."""
        if self._surrogate_at < start:
            self._surrogate_at = _first_surrogate(self._buf, start)
        return self._surrogate_at < end

    def _note(self, path: str, message: str) -> None:
        self._note_all([(path, message)])

    def _note_all(self, found: list[tuple[str, str]]) -> None:
        from scorers import ScoreFileError

        self.problems += found
        if len(self.problems) > MAX_STRUCTURE_PROBLEMS:
            raise ScoreFileError.many(_sorted_problems(list(self.problems)))

    def _fail(self, message: str, at: int) -> NoReturn:
        """Raise "not valid JSON" with the line and column of ``at`` in the buffer."""
        from scorers import ScoreFileError

        buf = self._buf
        newline = buf.rfind("\n", 0, at)
        line = self._lines + buf.count("\n", 0, at) + 1
        column = at - newline if newline >= 0 else self._column + at + 1
        raise ScoreFileError.single(
            "$", f"not valid JSON: {message} (line {line}, column {column})"
        )


_OPENING = re.compile(r'\{[ \t\n\r]*"[^"\\]{0,40}"|.', re.DOTALL)
"""How an item opens: an object up to its first key, or its first character."""


def _batch(
    skim: Callable[[str, int], tuple[object, int]], text: str, comma: int, start: int
) -> tuple[int, int] | bool | None:
    """Read past many items of a list at once, from the item at ``start`` (after ``comma``).

    The items are parsed together as a list, up to the last place in ``text``
    that looks like the comma before ``start`` (the end of the item before it,
    the comma, the opening of the next one). If they parse as a whole list,
    each of them is an item, whole, and that place is a comma between two
    items: a place inside a text or an item cannot end a list that parses.

    Returns:
        The place of that comma and how many items come before it; ``None``
        when no such place follows; ``False`` when the items before it do not
        parse as a list (not a comma between items, or not JSON).
    """
    before = comma - 1
    while before > 0 and text[before] in _SPACE:
        before -= 1
    opening = _OPENING.match(text, start)
    if before < 0 or opening is None:
        return None
    mark = text[before : opening.end()]
    found = text.rfind(mark, start, len(text) - 1)
    if found < 0:
        return None
    cut = found + (comma - before)
    try:
        items, end = skim("[" + text[start:cut] + "]", 0)
    except (StopIteration, ValueError, RecursionError):
        return False
    if not isinstance(items, list) or not items or end != cut - start + 2:
        return False
    return cut, len(items)


def _space_end(text: str, at: int) -> int:
    """Where the white space at ``at`` in ``text`` ends."""
    space = _SKIP_SPACE(text, at)  # always matches, perhaps nothing
    return space.end() if space else at


def _one_list(value: object) -> Iterator[object]:
    """The items of ``value`` when it is a list (a value read whole)."""
    if isinstance(value, list):
        yield from value
