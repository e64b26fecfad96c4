"""The grammar of one end-count question, and the reading of what was heard.

A :class:`Question` holds what the grammar is built from: the table's names in
seat order, the seats asked, the field's least and most value (the scorer's
bounds, as the pad's row has them) and whether the field takes entry codes.
:func:`grammar` writes it as JSGF for pocketsphinx; :func:`read` turns the
words heard into the values per seat, as the answer line and the pad's cells
accept them (``"58"``, ``"B2 F3"``, ``"-"``).

What may be said for each seat asked, in the ``pairs`` design (the chosen one,
docs/voice.md says why): its name, then its value:

- a number of the field (``fifty eight``, ``one hundred and five``), ``zero``;
- ``none`` (``0``, or ``-`` for a field of entry codes);
- ``same as Aki`` (Aki's value said in the same breath);
- for a field of entry codes: letters each with an optional number
  (``bee two eff three`` is ``B2 F3``).

``nobody`` alone means none for every seat asked. The ``numbers`` design says
the values only, in seat order, with no names.

Example:
    >>> q = Question(("Aki", "Ben"), low=0, high=60)
    >>> read(q, "aki fifty eight ben same as aki").values
    {0: '58', 1: '58'}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from companion.voice.words import (
    LETTERS,
    MOST,
    TENS,
    UNITS,
    ascii_word,
    number_words,
    split_numbers,
)

PAIRS = "pairs"
NUMBERS = "numbers"
EITHER = "either"
DESIGNS = (PAIRS, NUMBERS, EITHER)
"""``pairs``: each value after its seat's name; ``numbers``: the values alone, in seat order;
``either``: pairs, or a value for every seat asked in seat order with no names."""
DESIGN = PAIRS
"""The design the companion uses (benchmarks/voice.py compares them)."""
NONE_WORDS = ("none", "nothing")
ZERO = "zero"


@dataclass(frozen=True)
class Question:
    """One end-count question, as the grammar needs it.

    Attributes:
        names: The table's names (or sides), in seat order.
        seats: The seats whose values are asked (every seat for a row, one for a cell).
        low: The field's least value.
        high: Its most value (``None``: no bound but :data:`MOST`).
        codes: The field takes entry codes (letters with numbers; ``-`` for none)
            instead of one number.
        design: :data:`PAIRS` or :data:`NUMBERS`.
    """

    names: tuple[str, ...]
    seats: tuple[int, ...] = ()
    low: int = 0
    high: int | None = None
    codes: bool = False
    design: str = DESIGN

    def __post_init__(self) -> None:
        if not self.seats:
            object.__setattr__(self, "seats", tuple(range(len(self.names))))
        if self.design not in DESIGNS:
            raise ValueError(f"no grammar design {self.design!r}: one of {', '.join(DESIGNS)}")

    @property
    def top(self) -> int:
        """The most number the grammar holds."""
        return MOST if self.high is None else min(self.high, MOST)

    @property
    def none(self) -> str:
        """The value "none" gives: ``0``, or ``-`` for entry codes."""
        return "-" if self.codes else "0"


@dataclass(frozen=True)
class Heard:
    """What was heard for a question.

    Attributes:
        words: The words the recognizer heard (``""``: nothing it could place).
        values: Seat → the value heard, as the answer line and the pad's cells take it.
        seconds: The time from the end of the sound to the words (decoding).
    """

    words: str
    values: Mapping[int, str] = field(default_factory=dict)
    seconds: float = 0.0

    def line(self, question: Question) -> str:
        """The answer line: the seats' values in order, ``?`` for a seat not heard."""
        return " ".join(self.values.get(seat, "?") for seat in question.seats)

    def shown(self, question: Question) -> str:
        """The words heard as the table reads them: its names in their own spelling.

        Each name said starts a new part after a comma, and a ten and its unit are
        joined (``"aki fifty eight ben sixty"`` is ``"Aki fifty-eight, Ben sixty"``).
        """
        words = self.words.split()
        said = spoken_names(question.names)
        out: list[str] = []
        k = 0
        while k < len(words):
            name = next(
                (
                    (seat, len(spoken.split()))
                    for seat, spoken in sorted(
                        enumerate(said), key=lambda pair: -len(pair[1].split())
                    )
                    if spoken and words[k : k + len(spoken.split())] == spoken.split()
                ),
                None,
            )
            if name is not None:
                after_same = out[-2:] == ["same", "as"]
                if out and not after_same:
                    out[-1] += ","
                out.append(question.names[name[0]].strip())
                k += name[1]
                continue
            word = words[k]
            if out and out[-1] in TENS[2:] and word in UNITS[1:10]:
                out[-1] += f"-{word}"
            else:
                out.append(word)
            k += 1
        return " ".join(out)


@dataclass(frozen=True)
class Grammar:
    """A question's JSGF grammar and the words it adds to the dictionary.

    Attributes:
        jsgf: The grammar text.
        words: Word → phones, for the names the dictionary may lack (added only
            when it does).
        names: The spoken form of each seat's name (``""``: it cannot be said).
    """

    jsgf: str
    words: Mapping[str, str]
    names: tuple[str, ...]


def spoken_names(names: Sequence[str]) -> tuple[str, ...]:
    """Each name as it is said (plain lower-case words); ``""`` for one that cannot be.

    A name whose spoken form another one already has is left out (``""``) after its first.
    """
    said: list[str] = []
    for name in names:
        words = ascii_word(name)
        said.append("" if not words or words in said else words)
    return tuple(said)


def _numbers(low: int, high: int) -> str:
    choices = []
    for value in range(low, high + 1):
        words = number_words(value)
        if value >= 100 and value % 100:
            head, _, tail = words.partition(" hundred ")
            words = f"{head} hundred [and] {tail}"
        choices.append(words)
    return " | ".join(choices)


def grammar(question: Question) -> Grammar:
    """The JSGF grammar of what may be said for ``question`` (see the module's list)."""
    from companion.voice.words import guess_phones

    said = spoken_names(question.names)
    rules = ["#JSGF V1.0;", "", "grammar count;", ""]
    known = [s for s in said if s]
    words: dict[str, str] = {}
    for spoken in known:
        for word in spoken.split():
            words.setdefault(word, guess_phones(word))
    value = ["<number>", *NONE_WORDS]  # "zero" is a number of a field that starts at 0
    if known:
        value.append("same as <anyone>")
        rules.append(f"<anyone> = {' | '.join(known)};")
    if question.codes:
        letters = " | ".join(LETTERS)
        rules.append(f"<code> = ({letters}) [<number>];")
        value.append("<code>+")
    rules.append(f"<number> = {_numbers(max(0, question.low), question.top)};")
    rules.append(f"<value> = {' | '.join(value)};")
    asked = [said[s] for s in question.seats if said[s]]
    if _pairs(question):
        rules.append(f"<seat> = {' | '.join(asked)};")
        rules.append("<entry> = <seat> <value>;")
        body = "<entry>+ | nobody"
        if len(question.seats) == 1:  # one player's value: the name may be left out
            body = "<entry> | <value> | nobody"
        elif question.design == EITHER:  # or every value, in seat order, with no name
            body = f"<entry>+ | {' '.join(['<value>'] * len(question.seats))} | nobody"
    else:
        body = " ".join(["<value>"] * len(question.seats)) + " | nobody"
    rules.append(f"public <line> = {body};")
    return Grammar("\n".join(rules) + "\n", words, said)


def _pairs(question: Question) -> bool:
    """Whether the values are said after names (the design, and a name to say)."""
    said = spoken_names(question.names)
    return question.design in (PAIRS, EITHER) and any(said[s] for s in question.seats)


class RowFacts(Protocol):
    """What a score pad's row tells the grammar (``companion.kits.pad.PadRow`` has it)."""

    @property
    def kind(self) -> str:
        """``number``, ``choice`` or ``parts``."""
        ...

    @property
    def low(self) -> int:
        """The least value."""
        ...

    @property
    def high(self) -> int | None:
        """The most value."""
        ...

    @property
    def codec(self) -> Any:
        """The entry code, or ``None``."""
        ...

    @property
    def parts(self) -> Sequence[Any]:
        """The parts of a structured value (each may have a ``high``)."""
        ...

    @property
    def shared(self) -> bool:
        """One value for the whole table."""
        ...


def question_for(row: RowFacts, names: Sequence[str], seat: int | None = None) -> Question | None:
    """The question of one cell of a pad's row (``seat`` ``None``: the whole row), or ``None``.

    A number row is heard as numbers in its bounds; a row with an entry code as
    letters with numbers (the greatest of its parts' bounds, else 9); a choice, or
    a structured row without an entry code, is not heard (it is picked or typed).
    A shared row (one value for the table) is heard as one value, with no name.
    """
    if row.kind == "number":
        low, high, codes = row.low, row.high, False
    elif row.codec is not None:
        highs = [p.high for p in row.parts if getattr(p, "high", None) is not None]
        low, high, codes = 0, max(highs, default=9), True
    else:
        return None
    if row.shared:
        return Question(("",), (0,), low, high, codes)
    seats = tuple(range(len(names))) if seat is None else (seat,)
    return Question(tuple(names), seats, low, high, codes)


def _read_value(question: Question, words: Sequence[str]) -> str | int | None:
    """One value's words: its text, a seat (``same as``), or ``None`` when unreadable."""
    said = spoken_names(question.names)
    if not words:
        return None
    text = " ".join(words)
    if text in NONE_WORDS:
        return question.none
    if text == ZERO:
        return "0"
    if words[:2] == ["same", "as"]:
        who = " ".join(words[2:])
        return said.index(who) if who and who in said else None
    numbers = split_numbers(words, 1, max(0, question.low), question.top)
    if numbers is not None:
        return str(numbers[0])
    if question.codes:
        return _read_codes(question, words)
    return None


def _read_codes(question: Question, words: Sequence[str]) -> str | None:
    codes: list[str] = []
    k = 0
    while k < len(words):
        if words[k] not in LETTERS:
            return None
        letter = words[k].upper()
        end = k + 1
        while end < len(words) and words[end] not in LETTERS:
            end += 1
        if end > k + 1:
            number = split_numbers(words[k + 1 : end], 1, max(0, question.low), question.top)
            if number is None:
                return None
            codes.append(f"{letter}{number[0]}")
        else:
            codes.append(letter)
        k = end
    return " ".join(codes) or None


def read(question: Question, heard: str, seconds: float = 0.0) -> Heard:
    """The values ``heard`` (the recognizer's words) gives each seat of ``question``.

    A seat whose value cannot be read, or is not said, is left out (the line shows ``?``).
    """
    words = heard.split()
    if words == ["nobody"]:
        return Heard(heard, {seat: question.none for seat in question.seats}, seconds)
    said = spoken_names(question.names)
    found: dict[int, str | int | None] = {}
    if _pairs(question):
        starts: list[tuple[int, int, int]] = []  # (word index, length, seat)
        k = 0
        while k < len(words):
            match = None
            for seat in question.seats:
                name = said[seat].split()
                if name and words[k : k + len(name)] == name:
                    before = words[k - 2 : k] if k >= 2 else []
                    if before != ["same", "as"] and (match is None or len(name) > match[1]):
                        match = (k, len(name), seat)
            if match:
                starts.append(match)
                k += match[1]
            else:
                k += 1
        for n, (start, length, seat) in enumerate(starts):
            end = starts[n + 1][0] if n + 1 < len(starts) else len(words)
            value = _read_value(question, words[start + length : end])
            if value is not None or seat not in found:  # said again: the later value wins
                found[seat] = value
        if not starts and len(question.seats) == 1 and words:
            found[question.seats[0]] = _read_value(question, words)
        elif not starts and question.design == EITHER and words:
            found.update(_in_order(question, words))
    else:
        found.update(_in_order(question, words))
    values: dict[int, str] = {}
    for _ in range(len(found) + 1):  # "same as" may follow a chain
        for seat, value in found.items():
            if isinstance(value, str):
                values[seat] = value
            elif isinstance(value, int) and value in values:
                values[seat] = values[value]
    return Heard(heard, {s: values[s] for s in question.seats if s in values}, seconds)


def _in_order(question: Question, words: Sequence[str]) -> dict[int, str | int | None]:
    """The ``numbers`` design: the values in seat order (a ``same as`` is one value)."""
    pieces: list[list[str]] = [[]]
    k = 0
    said = spoken_names(question.names)
    while k < len(words):  # "same as <name>" stands apart from the numbers around it
        if words[k : k + 2] == ["same", "as"]:
            rest = words[k + 2 :]
            name = next((s for s in said if s and rest[: len(s.split())] == s.split()), "")
            size = 2 + len(name.split())
            pieces += [list(words[k : k + size]), []]
            k += size
        elif words[k] in (*NONE_WORDS, ZERO):
            pieces += [[words[k]], []]
            k += 1
        else:
            pieces[-1].append(words[k])
            k += 1
    groups = [p for p in pieces if p]
    values: list[str | int | None] = []
    low = max(0, question.low)
    for n, group in enumerate(groups):
        if group[:2] == ["same", "as"] or group[0] in (*NONE_WORDS, ZERO):
            values.append(_read_value(question, group))
            continue
        left = len(question.seats) - len(values) - (len(groups) - n - 1)
        numbers = split_numbers(group, max(1, left), low, question.top)
        if numbers is None:
            numbers = split_numbers(group, 1, low, question.top)
        if numbers is None:
            values.append(None)
        else:
            values.extend(str(number) for number in numbers)
    return dict(zip(question.seats, values, strict=False))
