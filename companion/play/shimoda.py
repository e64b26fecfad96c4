"""Playing Shimoda: Perry Road along: start player, merchants, 7 rounds, movement helper, scoring.

Each player reads their own street from their own left: space 1 is at their
left hand. The two players sit opposite, so Aki's space 1 faces Ben's space 7;
the drawing shows it, and the score file lists both streets from the first
player's seat as the score-file contract asks.

A street's tourists are one answer (``bb - r kyp - - b``) and each shop card is
one short code (``b y 3 3``, or run together, ``by33``: a blue card scoring 3
per yellow tourist over 3 spaces; ``c1`` added for a card showing a chair
icon); the prompt completes and explains the code as it is typed. The second
street's cards are often the first street's: ``=3`` repeats the card on the
other player's space 3.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from companion.play.common import Outcome, ask_players, choose_player, row_message, run_checklist
from companion.play.pad import Pad, Row, review
from companion.play.table import Table
from companion.wording import plural
from scorers.names import clean_name, name_problem
from scorers.shimoda import COLORS

GAME = "shimoda"
ROUNDS = 7
SPACES = 7
BRIDGES = (2, 6)
PER_COLOUR = 7
INITIALS = {"b": "blue", "k": "black", "r": "red", "y": "yellow", "p": "pink"}
LETTER = {color: letter for letter, color in INITIALS.items()}
EMPTY = "-"
KINDS = {
    "any": ("any", "per tourist of any colour"),
    "two": ("exactly_two", "per space with exactly 2 tourists"),
    "all": ("all_colors", "per set of all five colours"),
    "three": ("three_colors", "per set of three different colours"),
    "chair": ("chairs", "per chair icon"),
    "vm": ("victory_markers", "per victory marker"),
}
KIND_WORDS = {kind: word for word, (kind, _) in KINDS.items()}
RANGES = {1: "its own space", 3: "3 spaces centred on it", 5: "5 spaces", 7: "the whole street"}
CODE_HELP = "\n".join(
    [
        "Shop card codes: colour, what it scores, points, range; e.g. b y 3 3 is a blue card",
        "scoring 3 points per yellow tourist over 3 spaces.",
        "  colour   b k r y p (blue, black, red, yellow, pink)",
        "  scores   a colour (y), a pair (rp), any, two (spaces with exactly 2 tourists),",
        "           all (sets of all five colours), three (sets of three colours), chair,",
        "           vm (victory markers)",
        "  range    1 (its own space), 3, 5 or 7 (the whole street)",
        "  chairs   only for a card that shows chair icons: add c1 (one chair) or c2 (two)",
        "Run together works too (by33, bchair33c1); =3 repeats the card on the other",
        "player's space 3 (their own numbering). Tab offers what fits.",
    ]
)
COMPACT = re.compile(r"^([a-z])([a-z+]+?)(\d{1,2})([1357])(c\d)?$")
REFERENCE = re.compile(r"^=\s*([1-7])$")
# Merchants the rulebook describes: the icon they add when moving, or None.
MERCHANT_ICONS = {
    "Veterinarian": "cat",
    "Antique Dealer": "chair",
    "Lantern Maker": "lantern",
    "Bookseller": None,
    "Builder": None,
    "Wrecker": None,
}
# The rulebook's first-game four first, then the others it describes.
FIRST_GAME = ("Veterinarian", "Antique Dealer", "Lantern Maker", "Florist")
KNOWN_MERCHANTS = (*FIRST_GAME, *(m for m in MERCHANT_ICONS if m not in FIRST_GAME))
OTHER = "Another merchant (type its name)"
WHEN_MOVING = "When moving: it counts as one more icon of a kind"
AT_END = "After the game: it scores points"
ELSEWHEN = "At another time (nothing for the companion to count)"


@dataclass(frozen=True)
class Merchant:
    """A player's merchant: its name, the icon it adds when moving, whether it scores."""

    name: str
    icon: str | None = None
    scores: bool = False


def flow(t: Table) -> Outcome:
    """The whole game, from players to the score pad."""
    names = ask_players(t, GAME)
    steps = run_checklist(t, GAME, 2)
    t.at("setup", "start player", "setup")
    holder = choose_player(t, "start", "Who crossed a bridge most recently?", names)
    steps.done(t, "start")
    first = holder
    t.say(
        f"{names[holder]} takes the start player marker. {names[1 - holder]} chooses a "
        f"merchant first, then {names[holder]}."
    )
    merchants = choose_merchants(t, names, holder)
    for number in range(1, ROUNDS + 1):
        t.round(f"round {number}")
        t.at("round", f"round {number} of {ROUNDS}", "rounds")
        t.say(f"Round {number} of {ROUNDS}: {names[holder]}, then {names[1 - holder]}.")
        for seat in (holder, 1 - holder):
            play_turn(t, number, names, seat, merchants[seat])
        if number == ROUNDS:
            break
        t.at("round", f"end of round {number}", "round-end")
        t.say("Refill the display to 5 cards and each bridge to 4 tourists.")
        counts = t.numbers(
            f"r{number}.tourists",
            row_message("Tourists on each street", names),
            2,
            high=21,
        )
        holder = next_start(counts, holder)
        reason = "fewer tourists" if counts[0] != counts[1] else "a tie: the marker passes"
        t.say(f"{names[holder]} starts round {number + 1} ({reason}).")
    t.round("final count")
    t.at("scoring", "final scoring", "scoring-victory-markers")
    t.say("Game over: place the victory markers, then score.")
    return Outcome(count_up(t, names, merchants), start_player=first)


def choose_merchants(t: Table, names: list[str], holder: int) -> list[Merchant]:
    """Each player's merchant, the player without the start marker first."""
    t.at("setup", "merchants", "merchants")
    chosen: list[Merchant | None] = [None, None]
    for seat in (1 - holder, holder):
        taken = [m.name for m in chosen if m is not None]
        options = [m for m in KNOWN_MERCHANTS if m not in taken] + [OTHER]
        name = t.choose(f"merchant.{seat}", f"{names[seat]}'s merchant?", options)
        if name == OTHER:
            name = clean_name(
                t.text(
                    f"merchant.{seat}.name",
                    "The merchant's name, as printed?",
                    check=lambda text: name_problem(text, what="merchant's name"),
                ),
                what="merchant's name",
            )
        chosen[seat] = learn_merchant(t, f"merchant.{seat}", name)
    return [m for m in chosen if m is not None]


def learn_merchant(t: Table, key: str, name: str) -> Merchant:
    """What a merchant does, from the rulebook, or (once) from its card."""
    if name in MERCHANT_ICONS:
        return Merchant(name, MERCHANT_ICONS[name], False)
    when = t.choose(
        f"{key}.when", f"When does {name} act (see its card)?", [WHEN_MOVING, AT_END, ELSEWHEN]
    )
    if when == WHEN_MOVING:
        icon = t.text(
            f"{key}.icon",
            f"Which icon does {name} add (e.g. flower)?",
            check=lambda text: None if 0 < len(text) <= 20 else "the icon in a word or two",
        )
        return Merchant(name, icon.lower(), False)
    return Merchant(name, None, when == AT_END)


def next_start(tourists: list[int], holder: int) -> int:
    """Fewer tourists on the street starts; on a tie the marker passes."""
    if tourists[0] == tourists[1]:
        return 1 - holder
    return 0 if tourists[0] < tourists[1] else 1


def play_turn(t: Table, number: int, names: list[str], seat: int, merchant: Merchant) -> None:
    """One turn: the players say when it is done; the helper counts moves."""
    for k in range(20):
        key = f"r{number}.{seat}.{k}"
        t.at("turn", f"round {number}, {names[seat]}'s turn", "select-card")
        choice = t.choose(
            key,
            f"{names[seat]}: pick a shop card, move tourists, place the card.",
            ["Turn done", "Count my moves"],
        )
        if choice == "Turn done":
            return
        t.at("turn", f"round {number}, {names[seat]}'s turn", "movement")
        icons = t.number(
            f"{key}.icons",
            "Icons like the chosen card's, on it and visible on your street?",
            high=30,
        )
        extra = 0
        if merchant.icon and t.yes(
            f"{key}.merchant",
            f"Is the chosen card's icon a {merchant.icon} ({merchant.name} adds one)?",
            default=False,
        ):
            extra = 1
        t.say(f"{names[seat]} may make {icons + extra} steps (one tourist one space per step).")


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
    if not points.isdigit() or int(points) > 20:
        return None, f"{points!r} is not the points printed (0 to 20)"
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
        if len(letters) > 3:
            return None, f"space {k}: {len(letters)} tourists (a space holds at most 3)"
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


def draw(names: list[str], streets: list[list[str] | None] | list[list[str | None]]) -> str:
    """Both streets facing each other, each space with its owner's number.

    The first player sits at the bottom; the other's street is drawn as the
    first player sees it across the board, so facing spaces are one above the
    other (the first player's space 1 faces the other's space 7).
    """
    top, bottom = names[1], names[0]
    mine = list(streets[0]) if streets[0] is not None else [None] * SPACES
    theirs = list(streets[1]) if streets[1] is not None else [None] * SPACES
    theirs.reverse()

    def boxes(spaces: list[Any]) -> str:
        return " ".join("[ ? ]" if s is None else f"[{s.ljust(3)}]" for s in spaces)

    def numbers(order: range) -> str:
        return " ".join(f"{n:^5}" for n in order)

    board = " ".join("  |  " if k + 1 in BRIDGES else "-----" for k in range(SPACES))
    return "\n".join(
        [
            f"  {top}'s street ({top}'s space numbers, seen from {bottom}'s seat)",
            f"  {numbers(range(SPACES, 0, -1))}".rstrip(),
            f"  {boxes(theirs)}",
            f"  {board}   (| bridges)",
            f"  {boxes(mine)}",
            f"  {numbers(range(1, SPACES + 1))}".rstrip(),
            f"  {bottom}'s street",
        ]
    )


def ask_street(
    t: Table, key: str, names: list[str], seat: int, streets: list[list[str] | None]
) -> list[str]:
    """A street's tourists in one answer, with a live drawing of both streets."""
    other = names[1 - seat]
    current = streets[seat]

    def preview(text: str) -> str:
        shown: list[list[str | None]] = [
            list(s) if s is not None else [None] * SPACES for s in streets
        ]
        shown[seat] = typed_so_far(text)
        problem = parse_street(text)[1] if len(text.split()) >= SPACES else None
        return draw(names, shown) + (f"\n  {problem}" if problem else "")

    text = t.text(
        key,
        f"{names[seat]}'s street from {names[seat]}'s left: tourists on spaces 1-7 "
        f"(b k r y p, '-' for none; {names[seat]}'s space 1 faces {other}'s space 7)?",
        check=lambda text: parse_street(text)[1],
        default=" ".join(s or EMPTY for s in current) if current else "",
        preview=preview,
        topic="scoring-victory-markers",
    )
    spaces, _ = parse_street(text)
    assert spaces is not None
    return spaces


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
        return "after = comes the other street's space number, 1 to 7 (e.g. =3)"
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


def ask_card(
    t: Table,
    key: str,
    names: list[str],
    seat: int,
    space: int,
    current: dict[str, Any] | None,
    other: list[dict[str, Any] | None] | None = None,
) -> dict[str, Any]:
    """One shop card as its code (or ``=N``: the card on the other street's space N)."""
    theirs = other or [None] * SPACES
    known = any(c is not None for c in theirs)

    def preview(text: str) -> str:
        match = REFERENCE.match(text.strip())
        if match is None:
            return describe_card(text)
        found, problem = card_or_reference(text, theirs)
        if found is None:
            return f"  {problem}"
        return (
            f"  as {names[1 - seat]}'s space {match.group(1)}: "
            + describe_card(card_code(found)).lstrip()
        )

    text = t.text(
        key,
        f"{names[seat]}, space {space + 1} from the left (faces {names[1 - seat]}'s "
        f"{SPACES - space}): shop card code"
        + (f" (=N: as {names[1 - seat]}'s space N)" if known else "")
        + "?",
        check=lambda text: card_or_reference(text, theirs)[1],
        default=card_code(current) if current else "",
        complete=complete_card,
        preview=preview,
        topic="scoring-shops",
    )
    parsed, _ = card_or_reference(text, theirs)
    assert parsed is not None
    return parsed


def ask_points(t: Table, key: str, name: str, merchant: str, current: int | None) -> int:
    """A merchant's end-game points, as its card says."""
    return t.number(
        key,
        f"{name}: points from {merchant or 'the merchant'} at the end (as its card says)?",
        high=99,
        default=current if current is not None else 0,
        topic="scoring-merchant",
    )


def pad_rows(names: list[str], merchants: list[Merchant], values: dict[str, Any]) -> list[Row]:
    """Merchant, its points, the 7 shop cards and the tourists, per player.

    ``values`` are the pad's values (the other street is drawn beside the one asked).
    """

    def merchant(t: Table, key: str, seat: int | None, current: Any) -> str:
        assert seat is not None
        text = t.text(
            key,
            f"{names[seat]}'s merchant (- for none)?",
            check=lambda text: (
                None if text in ("", "-") else name_problem(text, what="merchant's name")
            ),
            default=current or "",
            suggestions=KNOWN_MERCHANTS,
            topic="merchants",
        )
        merchants[seat] = Merchant(text, MERCHANT_ICONS.get(text), merchants[seat].scores)
        return clean_name(text) if text not in ("", "-") else ""

    def points(t: Table, key: str, seat: int | None, current: Any) -> int:
        assert seat is not None
        return ask_points(t, key, names[seat], merchants[seat].name, current)

    def shop(space: int) -> Row:
        def ask(t: Table, key: str, seat: int | None, current: Any) -> dict[str, Any]:
            assert seat is not None
            other = [values.get(Pad.key(f"shop{k + 1}", 1 - seat)) for k in range(SPACES)]
            return ask_card(t, key, names, seat, space, current, other)

        return Row(f"shop{space + 1}", f"Shop {space + 1}", ask, card_code)

    def tourists(t: Table, key: str, seat: int | None, current: Any) -> list[str]:
        assert seat is not None
        streets = [values.get(Pad.key("tourists", s)) for s in (0, 1)]
        return ask_street(t, key, names, seat, streets)

    return [
        Row("merchant", "Merchant", merchant, lambda v: v or "-"),
        Row("points", "Merchant points", points),
        *(shop(k) for k in range(SPACES)),
        Row("tourists", "Tourists", tourists, lambda v: " ".join(s or EMPTY for s in v)),
    ]


def build(pad: Pad) -> dict[str, Any]:
    """The score file: both streets from the first player's seat."""
    players = []
    for seat, name in enumerate(pad.names):
        own = pad.get("tourists", seat)
        street: list[dict[str, Any]] = [{} for _ in range(SPACES)]
        for k in range(SPACES):
            index = k if seat == 0 else SPACES - 1 - k
            space = pad.get(f"shop{k + 1}", seat)
            entry: dict[str, Any] = {
                "card": space["card"],
                "tourists": {INITIALS[c]: own[k].count(c) for c in dict.fromkeys(own[k])},
            }
            if space["chairs"]:
                entry["chairs"] = space["chairs"]
            street[index] = entry
            pad.paths[f"players[{seat}].street[{index}]"] = pad.key(f"shop{k + 1}", seat)
            pad.paths[f"players[{seat}].street[{index}].tourists"] = pad.key("tourists", seat)
        player: dict[str, Any] = {"name": name}
        if pad.get("merchant", seat):
            player["merchant"] = pad.get("merchant", seat)
        player["merchant_points"] = pad.get("points", seat)
        pad.paths[f"players[{seat}].merchant_points"] = pad.key("points", seat)
        player["street"] = street
        players.append(player)
    return {"game": GAME, "players": players}


def colour_problems(pad: Pad, file: dict[str, Any]) -> list[tuple[str, list[str]]]:
    """More tourists of a colour than the box has: the streets holding that colour."""
    found = []
    for letter, color in INITIALS.items():
        holders = [s for s in (0, 1) if any(letter in space for space in pad.get("tourists", s))]
        total = sum("".join(pad.get("tourists", s)).count(letter) for s in (0, 1))
        if total > PER_COLOUR:
            found.append(
                (
                    f"{total} {color} tourists on the streets (there are {PER_COLOUR})",
                    [pad.key("tourists", s) for s in holders],
                )
            )
    return found


def count_up(
    t: Table, names: list[str], merchants: list[Merchant], points: list[int] | None = None
) -> dict[str, Any]:
    """Each player's shop cards and street (and merchant points if needed), then the pad."""
    values: dict[str, Any] = {}
    pad = Pad(names, pad_rows(names, merchants, values), values)
    t.say(CODE_HELP)
    for seat, name in enumerate(names):
        pad.values[pad.key("merchant", seat)] = merchants[seat].name
        t.at("scoring", f"{name}'s street", "scoring-shops")
        for k in range(SPACES):
            pad.ask(t, f"score.{seat}.shop{k + 1}", pad.key(f"shop{k + 1}", seat))
        pad.ask(t, f"score.{seat}.tourists", pad.key("tourists", seat))
        t.say(draw(names, [pad.values.get(pad.key("tourists", s)) for s in (0, 1)]))
        if points is not None:
            pad.values[pad.key("points", seat)] = points[seat]
        elif merchants[seat].scores:
            pad.values[pad.key("points", seat)] = ask_points(
                t, f"score.{seat}.points", name, merchants[seat].name, None
            )
        else:
            pad.values[pad.key("points", seat)] = 0
    t.at("scoring", "score pad", "scoring-victory-markers")
    return review(
        t,
        pad,
        game=GAME,
        build=build,
        extra=colour_problems,
        title="Shimoda: final count (spaces numbered from each player's own left)",
    )


def score_only(t: Table) -> Outcome:
    """Just the end-of-game entry, for ``companion score shimoda``."""
    names = ask_players(t, GAME)
    t.at("scoring", "merchants", "scoring-merchant")
    merchants = []
    points = []
    for seat, name in enumerate(names):
        text = t.text(
            f"merchant.{seat}",
            f"{name}'s merchant and its end-game points (e.g. Florist 3; - for none)?",
            check=check_merchant,
            suggestions=KNOWN_MERCHANTS,
        )
        merchant, scored = split_merchant(text)
        merchants.append(Merchant(clean_name(merchant) if merchant else "", None, scored > 0))
        points.append(scored)
    return Outcome(count_up(t, names, merchants, points))


def split_merchant(text: str) -> tuple[str, int]:
    """``Florist 3`` → ``("Florist", 3)``."""
    words = [] if text.strip() == "-" else text.split()
    if words and words[-1].isdigit():
        return " ".join(words[:-1]), int(words[-1])
    return " ".join(words), 0


def check_merchant(text: str) -> str | None:
    """A merchant's name (or nothing), then optionally its points."""
    name, points = split_merchant(text)
    if points > 99:
        return "at most 99 points"
    return name_problem(name, what="merchant's name") if name else None
