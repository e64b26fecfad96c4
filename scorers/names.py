"""The one rule for player (and team) names, used by every way a name comes in.

Score files, the terminal prompts, the web form and the imports all pass names
through :func:`clean_name`, so that a name is stored once in one shape:

- surrounding blanks (line breaks and tabs too) are trimmed and runs of
  inner blanks become one space;
- the text is NFC-normalised (``e`` + combining accent and ``é`` are one name);
- it has 1 to :data:`MAX_NAME_LENGTH` characters;
- it holds no control, format, separator-line or unpaired-surrogate character
  (no tabs, line breaks, escape sequences, zero-width spaces or NUL), no
  private-use or unassigned code point, no blank that looks like a letter
  (the Hangul fillers U+3164, U+115F, U+1160 and U+FFA0, the Braille blank
  U+2800, the invisible Khmer vowels, the combining grapheme joiner) and no
  combining mark without a letter before it (nor a variation selector after
  a letter), so that a name cannot hide a second one that looks the same.

Two names with the same :func:`name_key` (equal after case-folding) are the
same player.

Example:
    >>> clean_name("  Zoe   Ann ")
    'Zoe Ann'
    >>> name_key("ZOË") == name_key("zoë")
    True
"""

from __future__ import annotations

import functools
import unicodedata

MAX_NAME_LENGTH = 40
"""The most characters a name may have."""

# Cc control, Cf format (zero-width, bidi overrides), Cs surrogates,
# Zl/Zp line and paragraph separators.
_FORBIDDEN = {"Cc", "Cf", "Cs", "Zl", "Zp"}
# Co private use, Cn unassigned: nobody can see what they are.
_UNSEEN = {"Co", "Cn"}
_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u034f\u17b4\u17b5")
"""Characters that show as nothing (or a blank) but are letters or marks to Unicode."""
_NAMES = {"\t": "a tab", "\n": "a line break", "\r": "a line break", "\x1b": "an escape character"}


class InvalidName(ValueError):
    """A name that breaks the rule; the message says why, in a player's words."""


def _describe(char: str) -> str:
    if char in _NAMES:
        return _NAMES[char]
    code = f"U+{ord(char):04X}"
    try:
        return f"the invisible character {code} ({unicodedata.name(char).lower()})"
    except ValueError:
        return f"the invisible character {code}"


def clean_name(text: str, *, what: str = "name") -> str:
    """Return ``text`` as a name in its one stored shape (the same few names are
    read over and over: a short one's answer is remembered).

    Args:
        text: The name as typed or read from a file.
        what: The word used in messages ("name", "team name").

    Raises:
        InvalidName: Empty, too long, or holding a forbidden character.
    """
    if len(text) <= _REMEMBERED:
        return _clean_name(text, what)
    return _cleaned(text, what)


_REMEMBERED = 2 * MAX_NAME_LENGTH
"""Names at most this long have their answers remembered (a refusal never is)."""


@functools.lru_cache(maxsize=4096)
def _clean_name(text: str, what: str) -> str:
    return _cleaned(text, what)


def _cleaned(text: str, what: str) -> str:
    stripped = text.strip()
    for char in stripped:
        category = unicodedata.category(char)
        if category in _FORBIDDEN or char in _BLANK_LETTERS:
            raise InvalidName(f"the {what} must not contain {_describe(char)}")
        if category in _UNSEEN:
            kind = "private-use" if category == "Co" else "unassigned"
            raise InvalidName(f"the {what} must not contain the {kind} character U+{ord(char):04X}")
    name = unicodedata.normalize("NFC", " ".join(stripped.split()))
    _check_marks(name, what)
    if not name:
        raise InvalidName(f"the {what} must not be empty")
    if len(name) > MAX_NAME_LENGTH:
        raise InvalidName(f"the {what} is {len(name)} characters long (at most {MAX_NAME_LENGTH})")
    return name


def _is_variation_selector(char: str) -> bool:
    code = ord(char)
    return 0xFE00 <= code <= 0xFE0F or 0xE0100 <= code <= 0xE01EF or 0x180B <= code <= 0x180F


def _check_marks(name: str, what: str) -> None:
    """Refuse a combining mark with no letter (or other base) before it, and a
    variation selector on a letter or digit (it changes nothing one can see)."""
    before = " "
    for char in name:
        if unicodedata.category(char).startswith("M"):
            if _is_variation_selector(char):
                if unicodedata.category(before)[0] in "LN":
                    raise InvalidName(f"the {what} must not contain {_describe(char)}")
            elif before == " ":
                raise InvalidName(
                    f"the {what} must not contain a lone combining mark "
                    f"U+{ord(char):04X} ({unicodedata.name(char, 'combining mark').lower()})"
                )
            if before != " ":
                continue  # a mark after a mark keeps the letter they are on
        before = char


def name_problem(text: str, *, what: str = "name") -> str | None:
    """What is wrong with ``text`` as a name, or ``None`` when it is fine."""
    try:
        clean_name(text, what=what)
    except InvalidName as error:
        return str(error)
    return None


def name_key(name: str) -> str:
    """The identity of a player: names with the same key are the same player."""
    if len(name) <= _REMEMBERED:
        return _name_key(name)
    return unicodedata.normalize("NFC", " ".join(name.split()).casefold())


@functools.lru_cache(maxsize=4096)
def _name_key(name: str) -> str:
    return unicodedata.normalize("NFC", " ".join(name.split()).casefold())
