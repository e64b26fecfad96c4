"""Playing Shimoda: Perry Road along: start player, merchants, 7 rounds, movement helper, scoring.

Each player reads their own street from their own left: space 1 is at their
left hand. The two players sit opposite, so Aki's space 1 faces Ben's space 7;
the drawing shows it. The count asks each street from its owner's left; the
score pad (and the score file) numbers both streets from the first player's
seat, so a space of the second street is numbered as the space it faces.

A street's tourists are one answer (``bb - r kyp - - b``) and each shop card is
one short code (:mod:`companion.kits.shimoda.codes`); the prompt completes and
explains the code as it is typed. The second street's cards are often the
first street's: ``=3`` repeats the card on the other player's space 3.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.kits import KITS, PadOptions
from companion.kits.pad import bound
from companion.kits.shimoda import (
    BRIDGES,
    GAME,
    KNOWN_MERCHANTS,
    MERCHANT_ICONS,
    ROUNDS,
    next_start,
)
from companion.kits.shimoda.codes import (
    CODE_HELP,
    EMPTY,
    REFERENCE,
    SPACES,
    card_code,
    card_or_reference,
    complete_card,
    describe_card,
    parse_street,
    tourists_of,
    typed_so_far,
)
from companion.play.common import Outcome, ask_players, choose_player, row_message, run_checklist
from companion.play.score_pad import Pad, review
from companion.play.table import Drawing, Table
from companion.wording import hanging
from scorers.names import clean_name, name_problem
from scorers.shimoda import MAX_PER_SPACE

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
            high=SPACES * MAX_PER_SPACE,
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
        drawing = draw(names, shown)  # kept on screen when the line is refused
        return Drawing(drawing + (f"\n  {problem}" if problem else ""), drawing)

    text = t.text(
        key,
        f"{names[seat]}'s street from {names[seat]}'s left: tourists on spaces 1-7 "
        f"(b k r y p, '-' for none; {names[seat]}'s space 1 faces {other}'s space 7)?",
        check=lambda text: street_refusal(text, names[seat]),
        default=" ".join(s or EMPTY for s in current) if current else "",
        preview=preview,
        topic="scoring-victory-markers",
    )
    spaces, _ = parse_street(text)
    assert spaces is not None
    return spaces


def street_refusal(text: str, name: str) -> str | None:
    """What is wrong with a street's tourists, naming whose street, at the space at fault."""
    import re

    from companion.play.table import Refusal

    problem = parse_street(text)[1]
    if problem is None:
        return None
    found = re.match(r"space (\d+):", problem)
    groups = [m.span() for m in re.finditer(r"[^\s,]+", text)]
    if found and int(found.group(1)) <= len(groups):
        return Refusal(f"{name}'s street, {problem}", groups[int(found.group(1)) - 1])
    return Refusal(f"{name}'s street: {problem}", (len(text), len(text)))  # add what is missing


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

    def said(text: str) -> str:
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

    def preview(text: str) -> str:
        # Wrapped at whole words: a line below the prompt is cut at the terminal's edge.
        return hanging("  ", said(text))

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
        high=bound(GAME, "merchant_points")[1],
        default=current if current is not None else 0,
        topic="scoring-merchant",
    )


def file_index(seat: int, space: int) -> int:
    """Where a player's own space (0-based, from their left) is in the score file."""
    return space if seat == 0 else SPACES - 1 - space


def count_up(
    t: Table, names: list[str], merchants: list[Merchant], points: list[int] | None = None
) -> dict[str, Any]:
    """Each player's shop cards and street (and merchant points if needed), then the pad."""
    # Kit.pad is annotated as returning rows; the kits return a PadSpec (see the report).
    spec = KITS[GAME].pad(PadOptions(len(names), tuple(names)))
    pad = Pad(GAME, names, spec)
    cards: list[list[dict[str, Any] | None]] = [[None] * SPACES for _ in names]
    streets: list[list[str] | None] = [None for _ in names]
    t.say(CODE_HELP)
    for seat, name in enumerate(names):
        pad.put("merchant", seat, merchants[seat].name or None)
        t.at("scoring", f"{name}'s street", "scoring-shops")
        for k in range(SPACES):
            cards[seat][k] = ask_card(
                t, f"score.{seat}.shop{k + 1}", names, seat, k, None, cards[1 - seat]
            )
        streets[seat] = ask_street(t, f"score.{seat}.tourists", names, seat, streets)
        t.say(draw(names, streets))
        for k, (space, letters) in enumerate(zip(cards[seat], streets[seat] or [], strict=True)):
            assert space is not None
            index = file_index(seat, k)
            pad.put(f"shop{index + 1}", seat, space["card"])
            value: dict[str, Any] = {"tourists": tourists_of(letters)}
            if space["chairs"]:
                value["chairs"] = space["chairs"]
            pad.put(f"tourists{index + 1}", seat, value)
        if points is not None:
            pad.put("points", seat, points[seat])
        elif merchants[seat].scores:
            pad.put(
                "points",
                seat,
                ask_points(t, f"score.{seat}.points", name, merchants[seat].name, None),
            )
        else:
            pad.put("points", seat, 0)
    t.at("scoring", "score pad", "scoring-victory-markers")
    return review(
        t,
        pad,
        title=(
            f"Shimoda: final count (spaces numbered from {names[0]}'s left: "
            f"{names[1]}'s space 1 is Shop {SPACES})"
        ),
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
    most = bound(GAME, "merchant_points")[1]
    if points > most:
        return f"at most {most} points"
    return name_problem(name, what="merchant's name") if name else None
