"""Spoken words of the end count: numbers, letters, names, and reading them back.

Pure and free of the recognizer, so that the grammar and its reading are tested
exactly without any sound.

Example:
    >>> number_words(58)
    'fifty eight'
    >>> read_number("one hundred and five".split())
    105
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

UNITS = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
]
TENS = ["_", "_", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
LETTERS = tuple("abcdefghijklmnopqrstuvwxyz")
"""Each letter is said as its name; the dictionary knows every one as a word."""
MOST = 999
"""The largest number said as words (a field without a bound is heard up to it)."""


def number_words(value: int) -> str:
    """The canonical words of ``0 <= value <= 999`` (no "and"): ``one hundred five``."""
    if not 0 <= value <= MOST:
        raise ValueError(f"{value} is not from 0 to {MOST}")
    if value < 20:
        return UNITS[value]
    if value < 100:
        tens, unit = divmod(value, 10)
        return TENS[tens] + ("" if unit == 0 else f" {UNITS[unit]}")
    hundreds, rest = divmod(value, 100)
    said = f"{UNITS[hundreds]} hundred"
    return said if rest == 0 else f"{said} {number_words(rest)}"


def read_number(words: Sequence[str]) -> int | None:
    """The number ``words`` say as a whole (``and`` after a hundred allowed), else ``None``."""
    found = _SAID
    said = list(words)
    if len(said) > 2 and said[1] == "hundred" and said[2] == "and":
        said = said[:2] + said[3:]
        if len(said) == 2:
            return None
    if said[:1] == ["a"] and said[1:2] == ["hundred"]:
        said = ["one", *said[1:]]
    return found.get(" ".join(said))


_SAID = {number_words(v): v for v in range(MOST + 1)}


def split_numbers(words: Sequence[str], count: int, low: int, high: int) -> list[int] | None:
    """``words`` cut into exactly ``count`` numbers from ``low`` to ``high``, else ``None``.

    Where the words can be cut several ways ("twenty one five": 21 5 or 20 1 5),
    each number takes as many words as it can, from the left, as people say them.
    """
    memo: dict[tuple[int, int], list[int] | None] = {}

    def cut(start: int, left: int) -> list[int] | None:
        if (start, left) in memo:
            return memo[start, left]
        result: list[int] | None = None
        if left == 0:
            result = [] if start == len(words) else None
        else:
            for end in range(min(len(words), start + 5), start, -1):
                value = read_number(words[start:end])
                if value is None or not low <= value <= high:
                    continue
                rest = cut(end, left - 1)
                if rest is not None:
                    result = [value, *rest]
                    break
        memo[start, left] = result
        return result

    return cut(0, count)


def ascii_word(name: str) -> str:
    """A name as plain lower-case letters and spaces: ``Zoë-Ann`` → ``zoe ann``."""
    folded = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return " ".join(re.findall(r"[a-z]+", folded.lower()))


# A small spelling-to-sound guess for a name the dictionary does not know:
# the letter groups first (longest first), then single letters.
GROUPS = {
    "tch": "CH",
    "sch": "SH",
    "sh": "SH",
    "ch": "CH",
    "th": "TH",
    "ph": "F",
    "ck": "K",
    "ng": "NG",
    "qu": "K W",
    "ee": "IY",
    "ea": "IY",
    "oo": "UW",
    "ou": "AW",
    "ai": "EY",
    "ay": "EY",
    "ei": "EY",
    "ie": "IY",
    "oa": "OW",
    "au": "AO",
    "aw": "AO",
    "oi": "OY",
    "oy": "OY",
}
SINGLE = {
    "a": "AA",
    "b": "B",
    "c": "K",
    "d": "D",
    "e": "EH",
    "f": "F",
    "g": "G",
    "h": "HH",
    "i": "IY",
    "j": "JH",
    "k": "K",
    "l": "L",
    "m": "M",
    "n": "N",
    "o": "OW",
    "p": "P",
    "q": "K",
    "r": "R",
    "s": "S",
    "t": "T",
    "u": "UW",
    "v": "V",
    "w": "W",
    "x": "K S",
    "y": "Y",
    "z": "Z",
}


def guess_phones(word: str) -> str:
    """Phones for a lower-case word the dictionary lacks (``kenji`` → ``K EH N JH IY``)."""
    phones: list[str] = []
    k = 0
    if len(word) > 3 and word.endswith("e") and word[-2] not in "aeiou":
        word = word[:-1]  # a silent final e (Jane)
    while k < len(word):
        for size in (3, 2):
            group = word[k : k + size]
            if len(group) == size and group in GROUPS:
                phones.append(GROUPS[group])
                k += size
                break
        else:
            letter = word[k]
            if letter == "y":
                phones.append("IY" if k > 0 else "Y")
            elif letter == "e" and k == len(word) - 1 and k > 0 and word[k - 1] in "aou":
                phones.append("IY")  # Zoe, Chloe
            elif letter in SINGLE and not (phones and phones[-1] == SINGLE[letter]):
                phones.append(SINGLE[letter])
            k += 1
    return " ".join(phones)
