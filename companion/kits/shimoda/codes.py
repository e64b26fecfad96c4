"""Shimoda's entry codes: shop cards, a space's tourists and a street typed in one line.

A shop card is one short code (``b y 3 3``, or run together, ``by33``: a blue
card scoring 3 per yellow tourist over 3 spaces; ``c1`` added for a card
showing a chair icon). A space's tourists are their colours' letters (``kyp``,
``-`` for none). A street's tourists are one answer (``bb - r kyp - - b``) and
its seven cards may be typed in one line too (:func:`read_street_cards`, the
web pad's street entry). The second street's cards are often the first
street's: ``=3`` repeats the card on the other player's space 3.

Pure functions, for the play-along flow, the score pad's codecs and the web
pad's street entry alike.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from companion.wording import plural
from scorers.shimoda import COLORS, MAX_CARD_POINTS, MAX_CHAIRS, MAX_PER_SPACE, STREET_LENGTH
from scorers.shimoda import RANGES as REACHES

SPACES = STREET_LENGTH
INITIALS = {"b": "blue", "k": "black", "r": "red", "y": "yellow", "p": "pink"}
LETTER = {color: letter for letter, color in INITIALS.items()}
EMPTY = "-"
TYPES = {
    "any": ("any", "per tourist", "per tourist of any colour"),
    "color": ("", "per colour", "per tourist of one colour"),
    "pair": ("", "per pair", "per pair of two colours"),
    "exactly_two": ("two", "per space of 2", "per space with exactly 2 tourists"),
    "all_colors": ("all", "per 5 colours", "per set of all five colours"),
    "three_colors": ("three", "per 3 colours", "per set of three different colours"),
    "chairs": ("chair", "per chair", "per chair icon"),
    "victory_markers": ("vm", "per marker", "per victory marker"),
}
"""What a card scores, by the scorer's type: its word in a card code ("" where the code
is the colours themselves: ``y``, ``rp``), its words on the web pad's dropdown, spelled out."""
KINDS = {code: (kind, words) for kind, (code, _, words) in TYPES.items() if code}
"""A card code's word for what it scores → the scorer's type and the words spelled out."""
KIND_WORDS = {kind: word for word, (kind, _) in KINDS.items()}
SHORT_KINDS = {"an": "any", "tw": "two", "al": "all", "th": "three", "c": "chair", "v": "vm"}
"""The fewest letters that name each word unambiguously (no colour letter is among them):
``bc33c1`` is ``bchair33c1``, ``kv47`` is ``kvm47``, ``ran11`` is ``rany11``."""
RANGES = dict(
    zip(
        REACHES,
        ("its own space", "3 spaces centred on it", "5 spaces", "the whole street"),
        strict=True,
    )
)
"""Each range the scorer knows, in words."""
CODE_HELP = "\n".join(
    [
        "Shop card codes: colour, what it scores, points, range (b y 3 3 is a blue card",
        "scoring 3 points per yellow tourist over 3 spaces).",
        "  colour   b k r y p (blue, black, red, yellow, pink)",
        "  scores   a colour (y), a pair (rp), any, two (spaces with exactly 2",
        "           tourists), all (sets of all five colours), three (sets of three",
        "           colours), chair, vm (victory markers)",
        "  range    1 (its own space), 3, 5 or 7 (the whole street)",
        "  chairs   only a card showing chair icons: add c1 (one chair) or c2 (two)",
        "Run together works too (by33, bchair33c1); the words may be cut to an, tw,",
        "al, th, c, v (bc33c1, kv47); =3 repeats the card on the other player's",
        "space 3 (their own numbering). Tab offers what fits.",
    ]
)
"""The card codes, said once before the first card: every line fits 80 columns."""
COMPACT = re.compile(rf"^([a-z])([a-z+]+?)(\d{{1,2}})([{''.join(map(str, REACHES))}])(c\d)?$")
REFERENCE = re.compile(rf"^=\s*([1-{SPACES}])$")


# --- shop card codes ---------------------------------------------------------


def colour(word: str) -> str | None:
    """``b``/``blue`` → ``blue``."""
    word = word.lower()
    if word in INITIALS:
        return INITIALS[word]
    return word if word in COLORS else None


def parse_card(text: str) -> tuple[dict[str, Any] | None, str | None]:
    """A shop card code → ``{"card": ..., "chairs": n}``; or ``None`` and the problem."""
    parts = text.lower().replace(",", " ").split()
    if len(parts) == 2 and re.fullmatch(r"c\d", parts[1]):
        parts = [parts[0] + parts[1]]  # by33 c1: the chairs of a run-together code
    compact = COMPACT.match(parts[0]) if len(parts) == 1 else None
    if compact:
        parts = [g for g in compact.groups() if g]
    chairs = 0
    if parts and re.fullmatch(r"c\d", parts[-1]):
        chairs = int(parts.pop()[1:])
    if len(parts) != 4:
        return None, "four parts: colour, what it scores, points, range (e.g. b y 3 3)"
    card_colour, scores, points, reach = parts
    color = colour(card_colour)
    if color is None:
        return None, f"{card_colour!r} is not a card colour: b k r y p"
    scoring: dict[str, Any]
    word = scores.replace("+", "")
    word = SHORT_KINDS.get(word, word)
    if word in KINDS:
        scoring = {"type": KINDS[word][0]}
    elif colour(word):
        scoring = {"type": "color", "color": colour(word)}
    elif len(word) == 2 and colour(word[0]) and colour(word[1]) and word[0] != word[1]:
        scoring = {"type": "pair", "colors": [colour(word[0]), colour(word[1])]}
    else:
        return None, (
            f"{scores!r} is not what a card scores: a colour, a pair (rp), {', '.join(KINDS)}"
        )
    if not points.isdigit() or int(points) > MAX_CARD_POINTS:
        return None, f"{points!r} is not the points printed (0 to {MAX_CARD_POINTS})"
    if not reach.isdigit() or int(reach) not in RANGES:
        return None, f"{reach!r} is not a range: 1, 3, 5 or 7"
    scoring.update(points=int(points), range=int(reach))
    return {"card": {"color": color, "scoring": scoring}, "chairs": chairs}, None


def card_code(space: dict[str, Any]) -> str:
    """A parsed card back as its code: ``b y 3 3``."""
    card = space["card"]
    scoring = card["scoring"]
    kind = scoring["type"]
    if kind == "color":
        scores = LETTER[scoring["color"]]
    elif kind == "pair":
        scores = "".join(LETTER[c] for c in scoring["colors"])
    else:
        scores = KIND_WORDS[kind]
    code = f"{LETTER[card['color']]} {scores} {scoring['points']} {scoring['range']}"
    return code + (f" c{space['chairs']}" if space.get("chairs") else "")


STAND_IN = ("b", "any", "0", "1")  # the parts of a card not typed yet, to read the others


def card_so_far(text: str) -> tuple[dict[str, Any] | None, str | None]:
    """A card code being typed: the card it makes so far, the parts not typed yet stood in
    for (``b y`` and ``by`` read as a blue card per yellow tourist, ``b y 3 3 c`` as a card
    whose chairs are being typed); or ``None`` and what is wrong."""
    space, problem = parse_card(text)
    if space is not None:
        return space, None
    parts = text.lower().replace(",", " ").split()
    tries = []
    if len(parts) < 4:
        spaced = " ".join(parts + list(STAND_IN[len(parts) :]))
        tries.append(spaced)
        problem = parse_card(spaced)[1]
    if len(parts) == 1:
        tries += run_together_so_far(parts[0])
        for whole in (parts[0], parts[0] + "1"):
            if COMPACT.match(whole):  # a run-together code: say what is wrong in it
                problem = parse_card(whole)[1]
                break
    if parts and parts[-1] == "c":
        tries.append(text + "1")
    for attempt in tries:
        space, _ = parse_card(attempt)
        if space is not None:
            return space, None
    return None, problem


def run_together_so_far(word: str) -> list[str]:
    """Whole codes that a run-together code being typed (``by``, ``bthr``, ``by1``) may
    become: what it scores completed, then points and range stood in for."""
    letters = re.fullmatch(r"([a-z])([a-z+]*)", word)
    if letters is None:
        return [word + tail for tail in ("1", "01")]
    typed = letters.group(2).replace("+", "")
    pairs = [a + b for a in INITIALS for b in INITIALS if a != b]
    scores = [*KINDS, *INITIALS, *pairs]
    return [word + s[len(typed) :] + "01" for s in scores if s.startswith(typed)]


def describe_card(text: str) -> str:
    """What a card code means so far, in words (shown below the prompt as it is typed)."""
    parts = text.lower().replace(",", " ").split()
    if not parts:
        return "  colour, what it scores, points, range: e.g. b y 3 3 (Tab offers what fits)"
    space, problem = card_so_far(text)
    if space is None:
        return f"  {problem}"
    if parse_card(text)[0] is not None:
        parts = card_code(space).split()  # a whole run-together code is said whole
    card = space["card"]
    scoring = card["scoring"]
    kind = scoring["type"]
    if kind == "color":
        what = f"per {scoring['color']} tourist"
    elif kind == "pair":
        what = f"per pair of {scoring['colors'][0]} + {scoring['colors'][1]}"
    else:
        what = next(words for k, words in KINDS.values() if k == kind)
    words = [f"a {card['color']} card"]
    if len(parts) >= 2:
        words.append(what)
    if len(parts) >= 3:
        words[-1] = f"{plural(scoring['points'], 'point')} {what}"
    if len(parts) >= 4:
        words.append(f"over {RANGES[scoring['range']]}")
    if space["chairs"]:
        words.append(f"{plural(space['chairs'], 'chair icon')} on it")
    return "  " + ", ".join(words) + ("" if len(parts) >= 4 else " ...")


def complete_card(before: str) -> list[tuple[str, str]]:
    """Offer what fits the part of the code being typed."""
    parts = before.lower().split(" ")
    word, position = parts[-1], len([p for p in parts[:-1] if p])
    if not word:
        return []  # nothing typed of this part yet: Tab would only insert a guess
    if position == 0:
        options = [(letter, f"a {c} card") for letter, c in INITIALS.items()]
    elif position == 1:
        options = [(letter, f"per {c} tourist") for letter, c in INITIALS.items()]
        options += [(w, words) for w, (_, words) in KINDS.items()]
        options += [("rp", "per pair, e.g. red + pink")]
    elif position == 2:
        options = []
    elif position == 3:
        options = [(str(r), words) for r, words in RANGES.items()]
    else:
        options = [("c1", "1 chair icon on the card"), ("c2", "2 chair icons on the card")]
    return [(text, meta) for text, meta in options if text.startswith(word) and text != word]


# --- streets -------------------------------------------------------------------


def parse_street(text: str) -> tuple[list[str] | None, str | None]:
    """``bb - r kyp - - b`` → the 7 spaces' tourists, from the owner's left."""
    groups = text.lower().replace(",", " ").split()
    if len(groups) != SPACES:
        return None, (
            f"{len(groups)} spaces typed: give all {SPACES}, from your left, '-' for an empty "
            "one (e.g. bb - r kyp - - b)"
        )
    spaces = []
    for k, group in enumerate(groups, 1):
        letters = "" if group in ("-", ".", "0") else group
        wrong = sorted({c for c in letters if c not in INITIALS})
        if wrong:
            return None, f"space {k}: unknown colour letter {', '.join(wrong)} (use b k r y p)"
        if len(letters) > MAX_PER_SPACE:
            return None, (
                f"space {k}: {len(letters)} tourists (a space holds at most {MAX_PER_SPACE})"
            )
        spaces.append(letters)
    return spaces, None


def facing(streets: list[list[str] | None]) -> list[list[str] | None]:
    """Both streets in the score file's order: from the first player's left."""
    first, second = streets
    return [first, None if second is None else list(reversed(second))]


def typed_so_far(text: str) -> list[str | None]:
    """The spaces of a street answer being typed: what each group shows, ``None`` if not yet."""
    groups = text.lower().replace(",", " ").split()[:SPACES]
    shown: list[str | None] = ["" if g in ("-", ".", "0") else g[:3] for g in groups]
    return shown + [None] * (SPACES - len(shown))


def card_or_reference(
    text: str, other: list[dict[str, Any] | None]
) -> tuple[dict[str, Any] | None, str | None]:
    """A card code, or ``=3`` for the card on the other street's space 3; else the problem.

    Args:
        text: The answer.
        other: The other player's cards, by their space (``None`` if not given yet).
    """
    match = REFERENCE.match(text.strip())
    if match is None:
        return parse_card(text)
    found = other[int(match.group(1)) - 1]
    if found is None:
        return None, f"the other street's space {match.group(1)} has no card yet"
    return dict(found), None


# --- a street's cards in one answer (the web pad's street entry) ------------------

MOST_PARTS = 8  # the most words tried for one card of a street (a card has at most 5)
CARD_BREAK = "/"  # may stand between two cards of a street; spaces are enough


@dataclass(frozen=True)
class StreetCards:
    """A street's shop cards typed in one answer, read as far as they go.

    Attributes:
        spaces: The cards read, in order (``{"card": ..., "chairs": n}``).
        typed: What each card was typed as (``by33``, ``b y 3 3``, ``=5``).
        rest: The start of the next card, still being typed ("" when none).
        problem: What is wrong, naming the space (``None``: nothing so far).
    """

    spaces: tuple[dict[str, Any], ...] = ()
    typed: tuple[str, ...] = ()
    rest: str = ""
    problem: str | None = None

    @property
    def complete(self) -> bool:
        """All seven cards read and nothing wrong or left over."""
        return self.problem is None and not self.rest and len(self.spaces) == SPACES


def reference_so_far(text: str, other: list[dict[str, Any] | None]) -> str | None:
    """What is wrong with ``=N`` typed so far (``None``: nothing, or just ``=``)."""
    if re.fullmatch(r"=\s*", text.strip()):
        return None
    if REFERENCE.match(text.strip()) is None:
        return f"after = comes the other street's space number, 1 to {SPACES} (e.g. =3)"
    return card_or_reference(text, other)[1]


def read_street_cards(text: str, other: list[dict[str, Any] | None]) -> StreetCards:
    """A street's seven cards in one answer: the card codes one after another.

    Each card is typed as :func:`card_or_reference` takes it (``by33``, ``b y 3 3``,
    ``bchair33c1``, ``=5``), separated by spaces (a ``/`` between two cards is
    allowed); each card is the longest run of words that reads as one card. A card
    still being typed at the end is ``rest``; a card that cannot be one is the
    ``problem``, named by its space, and reading stops there.

    Args:
        text: The answer.
        other: The other street's cards by space (``None`` where there is none), for
            ``=N``.
    """
    spaces: list[dict[str, Any]] = []
    typed: list[str] = []
    chunks = text.lower().split(CARD_BREAK)
    for index, chunk in enumerate(chunks):
        words = chunk.replace(",", " ").split()
        start = 0
        while start < len(words):
            found: tuple[int, dict[str, Any]] | None = None
            wrong: tuple[str, str] | None = None
            for end in range(start + 1, min(len(words), start + MOST_PARTS) + 1):
                candidate = " ".join(words[start:end])
                space, _ = card_or_reference(candidate, other)
                if space is not None:
                    found = (end, space)
                    continue
                if candidate.startswith("="):
                    problem = reference_so_far(candidate, other)
                else:
                    problem = card_so_far(candidate)[1]
                if problem is not None:
                    wrong = (candidate, problem)
                    break  # no card starts so: more words cannot make one
            if found is None:
                rest = " ".join(words[start:])
                number = len(spaces) + 1
                last = index == len(chunks) - 1
                if wrong is not None and last and 0 < start == len(words) - 1:
                    # by33 c: the chairs of the card before, being typed
                    joined = f"{typed[-1]} {rest}"
                    if card_so_far(joined)[1] is None:
                        spaces.pop()
                        return street_cards(spaces, typed[:-1], joined)
                if wrong is None and last:
                    return street_cards(spaces, typed, rest)
                if wrong is None:  # a card left unfinished before a '/'
                    wrong = (rest, parse_card(rest)[1] or "not a card")
                where = f"space {number}" if number <= SPACES else f"card {number}"
                return street_cards(spaces, typed, rest, f"{where} ({wrong[0]}): {wrong[1]}")
            end, space = found
            spaces.append(space)
            typed.append(" ".join(words[start:end]))
            start = end
    return street_cards(spaces, typed, "")


def street_cards(
    spaces: list[dict[str, Any]], typed: list[str], rest: str, problem: str | None = None
) -> StreetCards:
    """The reading, with more cards than a street has said as its problem."""
    count = len(spaces) + (1 if rest else 0)
    if problem is None and count > SPACES:
        problem = f"{count} cards typed: a street has {SPACES} spaces"
    return StreetCards(tuple(spaces), tuple(typed), rest, problem)


def compact_code(space: dict[str, Any]) -> str:
    """A card as its run-together code (``by33``, ``bchair33c1``)."""
    return card_code(space).replace(" ", "")


# --- one cell of the score pad: a shop card, a space's tourists ----------------

CHAIRS = re.compile(r"^c(\d+)$")


def tourists_of(letters: str) -> dict[str, int]:
    """``kyp`` → ``{"black": 1, "yellow": 1, "pink": 1}`` (in the order typed)."""
    return {INITIALS[c]: letters.count(c) for c in dict.fromkeys(letters)}


def letters_of(tourists: dict[str, Any]) -> str:
    """``{"black": 1, "yellow": 2}`` → ``kyy`` (``""`` for none)."""
    return "".join(
        LETTER.get(c, "?") * n for c, n in tourists.items() if isinstance(n, int) and n > 0
    )


def parse_space(text: str) -> tuple[dict[str, Any] | None, str | None]:
    """One space's tourists and chair icons: ``kyp``, ``-``, ``kyp c1`` → its value.

    The value is the space's entry in the score file without its card:
    ``{"tourists": {"black": 1, ...}}``, with ``"chairs": n`` when the card
    there shows chair icons.
    """
    words = text.lower().replace(",", " ").split()
    chairs = 0
    if words and (match := CHAIRS.match(words[-1])):
        chairs = int(match.group(1))
        words.pop()
        if chairs > MAX_CHAIRS:
            return None, f"{chairs} chair icons: a card shows at most {MAX_CHAIRS}"
    if len(words) != 1:
        return None, "the tourists' colour letters (b k r y p, e.g. kyp), '-' for none"
    group = words[0]
    letters = "" if group in ("-", ".", "0") else group
    wrong = sorted({c for c in letters if c not in INITIALS})
    if wrong:
        return None, f"unknown colour letter {', '.join(wrong)} (use b k r y p)"
    if len(letters) > MAX_PER_SPACE:
        return None, f"{len(letters)} tourists (a space holds at most {MAX_PER_SPACE})"
    space: dict[str, Any] = {"tourists": tourists_of(letters)}
    if chairs:
        space["chairs"] = chairs
    return space, None


def space_code(space: dict[str, Any]) -> str:
    """A space's value back as its code: ``kyp``, ``-``, ``kyp c1``."""
    tourists = space.get("tourists")
    code = (letters_of(tourists) if isinstance(tourists, dict) else "") or EMPTY
    chairs = space.get("chairs")
    return code + (f" c{chairs}" if isinstance(chairs, int) and chairs else "")


@dataclass
class CardCodec:
    """A shop card typed as its code (``b y 3 3``, ``by33``); the card alone, no chairs."""

    hint: str = "e.g. b y 3 3 or by33"

    def read(self, text: str) -> tuple[Any, str | None]:
        """The card a code means (``{"color": ..., "scoring": ...}``), or the problem."""
        space, problem = parse_card(text)
        if space is None:
            return None, problem
        if space["chairs"]:
            return None, "chair icons go with the space's tourists (e.g. kyp c1), not the card"
        return space["card"], None

    def write(self, value: Any) -> str:
        """The card's code (``b y 3 3``); ``""`` for a value that is not a whole card."""
        try:
            return card_code({"card": value})
        except (KeyError, TypeError):
            return ""


@dataclass
class SpaceCodec:
    """One space's tourists (``kyp``, ``-`` for none) and its card's chair icons (``c1``)."""

    hint: str = "e.g. kyp, - for none; add c1 for a chair icon"

    def read(self, text: str) -> tuple[Any, str | None]:
        """The space's value (``{"tourists": {...}, "chairs": n}``), or the problem."""
        return parse_space(text)

    def write(self, value: Any) -> str:
        """The space's code (``kyp c1``)."""
        return space_code(value) if isinstance(value, dict) else ""
