"""Reading a score file while collecting every problem with its JSON path.

A :class:`Reader` walks the parsed JSON value. Each method checks one value,
records a :class:`Problem` when it is wrong and returns ``None`` so that
parsing can go on and report the next problem too. Scorers raise
:class:`ScoreFileError` once the whole file has been read.
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

from scorers.names import InvalidName, clean_name

T = TypeVar("T")

ROOT = "$"
INT64_MAX = 2**63 - 1
"""No number in a score file may be larger: SQLite stores 64-bit integers."""
MAX_UNKNOWN_KEYS = 10
"""More unknown keys than this in one object are one problem, not one each."""

_PLAIN_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a score file.

    Attributes:
        path: Where it is, e.g. ``players[1].street[3].tourists`` (``$`` is the
            whole file).
        message: What is wrong, in words a player understands.
    """

    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"


class ScoreFileError(ValueError):
    """A score file that cannot be scored; carries every problem found."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = tuple(problems)
        super().__init__("\n".join(str(p) for p in self.problems))

    @classmethod
    def single(cls, path: str, message: str) -> ScoreFileError:
        """An error with one problem."""
        return cls([Problem(path, message)])

    @classmethod
    def many(cls, problems: Sequence[tuple[str, str]]) -> ScoreFileError:
        """An error with several ``(path, message)`` problems."""
        return cls([Problem(path, message) for path, message in problems])


def join_names(names: Sequence[str], *, last: str = " and ") -> str:
    """``a``, ``a and b``, ``a, b and c`` (or another word before the last)."""
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + last + names[-1]


def printable(text: str) -> str:
    """``text`` with every invisible or control character written as an escape.

    Example:
        >>> printable("A\\x1b[31mB")
        'A\\\\x1b[31mB'
    """
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in text)


def quoted(text: str) -> str:
    """``repr(text)`` for a message, cut to about 40 characters."""
    return repr(text) if len(text) <= 40 else repr(text[:37]) + "..."


def key_path(path: str, key: str) -> str:
    """Return the path of ``key`` inside the object at ``path``.

    A key that is not a short plain word (a user's typo, say) is shown quoted,
    cut short and with invisible characters escaped: ``players[0]["x y"]``.
    """
    if len(key) > 40 or not _PLAIN_KEY.match(key):
        quoted = f"[{show(key)}]"
        return quoted if path == ROOT else f"{path}{quoted}"
    return key if path == ROOT else f"{path}.{key}"


def index_path(path: str, index: int) -> str:
    """Return the path of item ``index`` of the list at ``path``."""
    return f"[{index}]" if path == ROOT else f"{path}[{index}]"


def show(value: object) -> str:
    """Render a JSON value compactly for an error message (at most 40 characters).

    Invisible and control characters are escaped, so a message never carries
    them to the terminal.
    """
    if isinstance(value, str) and len(value) > 40:
        value = value[:40]
    elif isinstance(value, int) and not isinstance(value, bool) and abs(value) > 10**40:
        return ("-" if value < 0 else "") + "a number of more than 40 digits"
    text = printable(json.dumps(value, ensure_ascii=False))
    return text if len(text) <= 40 else text[:37] + "..."


def _describe(value: object) -> str:
    if isinstance(value, bool):
        return f"got {show(value)}"
    if isinstance(value, float):
        return f"got {show(value)}"
    if isinstance(value, str):
        return f"got the text {show(value)}"
    if value is None:
        return "got null"
    if isinstance(value, list):
        return "got a list"
    if isinstance(value, dict):
        return "got an object"
    return f"got {show(value)}"


def _entry_order(problem: Problem) -> tuple[int, ...]:
    return tuple(int(n) for n in re.findall(r"\[(\d+)\]", problem.path))


class Reader:
    """Checks values of a parsed JSON document and collects problems."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def error(self, path: str, message: str) -> None:
        """Record a problem at ``path``."""
        self.problems.append(Problem(path, message))

    def raise_if_problems(self) -> None:
        """Raise :class:`ScoreFileError` if anything was recorded.

        Problems come whole-file first, then entry by entry (``players[0]``
        before ``players[1]``), each entry's in the order they were found.
        """
        if self.problems:
            raise ScoreFileError(sorted(self.problems, key=_entry_order))

    def field(
        self,
        obj: Mapping[str, object],
        path: str,
        key: str,
        check: Callable[[object, str], T | None],
        default: T | None = None,
    ) -> T | None:
        """Check ``obj[key]`` with ``check``, or return ``default`` when it is absent.

        A missing required key was already reported by :meth:`obj`.
        """
        if key not in obj:
            return default
        return check(obj[key], key_path(path, key))

    def obj(
        self,
        value: object,
        path: str,
        *,
        required: Collection[str] = (),
        optional: Collection[str] = (),
        allow_unknown: bool = False,
    ) -> dict[str, object] | None:
        """Check an object: its required keys are there and no key is unknown.

        ``allow_unknown`` lets keys beyond ``required`` and ``optional`` pass,
        for files written by other apps.

        Returns:
            The object, or ``None`` when ``value`` is not an object at all.
        """
        if not isinstance(value, dict):
            self.error(path, f"must be an object, {_describe(value)}")
            return None
        known = [*required, *optional]
        for key in required:
            if key not in value:
                self.error(key_path(path, key), "missing (this field is required)")
        unknown = [] if allow_unknown else [str(key) for key in value if key not in known]
        if len(unknown) > MAX_UNKNOWN_KEYS:
            self.error(path, f"{len(unknown)} unknown keys, the first {show(unknown[0])}")
            return value
        for key in unknown:
            hint = difflib.get_close_matches(key, known, n=1)
            extra = f" (did you mean '{hint[0]}'?)" if hint else ""
            self.error(key_path(path, key), f"unknown key{extra}")
        return value

    def integer(
        self, value: object, path: str, *, low: int = 0, high: int | None = None
    ) -> int | None:
        """Check a whole number in ``low..high`` (booleans and 3.0 are not numbers).

        Without ``high`` the number still fits SQLite's 64 bits; every field of
        a score file gives its own, much smaller, bound from the game.
        """
        if type(value) is not int:
            self.error(path, f"must be a whole number, {_describe(value)}")
            return None
        top = INT64_MAX if high is None else high
        if value < low or value > top:
            self.error(path, f"must be between {low} and {top}, got {show(value)}")
            return None
        return value

    def boolean(self, value: object, path: str) -> bool | None:
        """Check ``true`` or ``false``."""
        if not isinstance(value, bool):
            self.error(path, f"must be true or false, {_describe(value)}")
            return None
        return value

    def text(self, value: object, path: str) -> str | None:
        """Check a non-empty string (surrounding blanks are not content)."""
        if not isinstance(value, str):
            self.error(path, f"must be a text, {_describe(value)}")
            return None
        if not value.strip():
            self.error(path, "must not be empty")
            return None
        return value

    def name(self, value: object, path: str, *, what: str = "name") -> str | None:
        """Check a name by the one name rule (:mod:`scorers.names`).

        Returns:
            The name in its stored shape: trimmed, NFC, 1 to 40 characters.
        """
        if not isinstance(value, str):
            self.error(path, f"must be a text, {_describe(value)}")
            return None
        try:
            return clean_name(value, what=what)
        except InvalidName as error:
            self.error(path, str(error).removeprefix(f"the {what} "))
            return None

    def choice(
        self, value: object, path: str, choices: Sequence[str], *, what: str = "value"
    ) -> str | None:
        """Check one of ``choices``, compared case-insensitively.

        Returns:
            The matching entry of ``choices`` (its canonical spelling).
        """
        if not isinstance(value, str):
            self.error(path, f"must be a text, {_describe(value)}")
            return None
        for option in choices:
            if value.strip().casefold() == option.casefold():
                return option
        self.error(path, f"unknown {what} {show(value)} (one of: {', '.join(choices)})")
        return None

    def array(
        self,
        value: object,
        path: str,
        *,
        min_len: int = 0,
        max_len: int | None = None,
        what: str = "entries",
    ) -> list[object] | None:
        """Check a list whose length is within bounds.

        Returns:
            The list (also when it is too short, so that its entries are
            checked too), or ``None`` when it is not a list or is too long: a
            list that is too long is one problem, its entries are not read.
        """
        if not isinstance(value, list):
            self.error(path, f"must be a list, {_describe(value)}")
            return None
        n = len(value)
        if min_len == max_len and n != min_len:
            self.error(path, f"must have exactly {min_len} {what}, got {n}")
        elif n < min_len:
            self.error(path, f"must have at least {min_len} {what}, got {n}")
        elif max_len is not None and n > max_len:
            self.error(path, f"must have at most {max_len} {what}, got {n}")
        if max_len is not None and n > max_len:
            return None
        return value

    def counts(
        self,
        value: object,
        path: str,
        keys: Sequence[str],
        *,
        high: int | Mapping[str, int],
        what: str = "key",
    ) -> dict[str, int] | None:
        """Check an object mapping some of ``keys`` to whole numbers ≥ 0.

        Args:
            value: The object.
            path: Where it is.
            keys: The keys it may have.
            high: The largest count, for every key or per key.
            what: The word for a key in messages.

        Keys left out count 0. Returns the full mapping with every key.
        """
        if not isinstance(value, dict):
            self.error(path, f"must be an object, {_describe(value)}")
            return None
        result = dict.fromkeys(keys, 0)
        ok = True
        unknown = [key for key in value if key not in keys]
        if len(unknown) > MAX_UNKNOWN_KEYS:
            self.error(path, f"{len(unknown)} unknown {what}s (one of: {', '.join(keys)})")
            return None
        for key, item in value.items():
            if key not in keys:
                self.error(key_path(path, key), f"unknown {what} (one of: {', '.join(keys)})")
                ok = False
                continue
            top = high if isinstance(high, int) else high[key]
            number = self.integer(item, key_path(path, key), high=top)
            if number is None:
                ok = False
            else:
                result[key] = number
        return result if ok else None
