"""The one rule for player (and team) names, used by every way a name comes in.

Score files, the terminal prompts, the web form and the imports all pass names
through :func:`clean_name`, so that a name is stored once in one shape:

- surrounding blanks (line breaks and tabs too) are trimmed and runs of
  inner blanks become one space;
- the text is NFC-normalised (``e`` + combining accent and ``é`` are one name);
- it has 1 to :data:`MAX_NAME_LENGTH` characters;
- it holds no control, format, separator-line or unpaired-surrogate character
  (no tabs, line breaks, escape sequences, zero-width spaces or NUL).

Two names with the same :func:`name_key` (equal after case-folding) are the
same player.

Example:
    >>> clean_name("  Zoe   Ann ")
    'Zoe Ann'
    >>> name_key("ZOË") == name_key("zoë")
    True
"""

from __future__ import annotations

import unicodedata

MAX_NAME_LENGTH = 40
"""The most characters a name may have."""

# Cc control, Cf format (zero-width, bidi overrides), Cs surrogates,
# Zl/Zp line and paragraph separators.
_FORBIDDEN = {"Cc", "Cf", "Cs", "Zl", "Zp"}
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
    """Return ``text`` as a name in its one stored shape.

    Args:
        text: The name as typed or read from a file.
        what: The word used in messages ("name", "team name").

    Raises:
        InvalidName: Empty, too long, or holding a forbidden character.
    """
    stripped = text.strip()
    for char in stripped:
        if unicodedata.category(char) in _FORBIDDEN:
            raise InvalidName(f"the {what} must not contain {_describe(char)}")
    name = unicodedata.normalize("NFC", " ".join(stripped.split()))
    if not name:
        raise InvalidName(f"the {what} must not be empty")
    if len(name) > MAX_NAME_LENGTH:
        raise InvalidName(f"the {what} is {len(name)} characters long (at most {MAX_NAME_LENGTH})")
    return name


def name_problem(text: str, *, what: str = "name") -> str | None:
    """What is wrong with ``text`` as a name, or ``None`` when it is fine."""
    try:
        clean_name(text, what=what)
    except InvalidName as error:
        return str(error)
    return None


def name_key(name: str) -> str:
    """The identity of a player: names with the same key are the same player."""
    return unicodedata.normalize("NFC", " ".join(name.split()).casefold())
