"""Playing Shimoda: Perry Road along: start player, 7 rounds, movement helper, scoring."""

from __future__ import annotations

from typing import Any

from companion.play.common import Outcome, ask_players, choose_player, run_checklist, validated
from companion.play.table import Table
from scorers.shimoda import COLORS

GAME = "shimoda"
ROUNDS = 7
INITIALS = {"b": "blue", "k": "black", "r": "red", "y": "yellow", "p": "pink"}
TYPES = {
    "any": "per tourist of any colour",
    "color": "per tourist of one colour",
    "pair": "per pair of two colours",
    "exactly_two": "per space with exactly 2 tourists",
    "all_colors": "per set of all five colours",
    "three_colors": "per set of three different colours",
    "chairs": "per chair icon",
    "victory_markers": "per victory marker",
}
RANGES = {
    "1 (its own space)": 1,
    "3 (short dashes)": 3,
    "5 (long dashes)": 5,
    "7 (whole street)": 7,
}


def flow(t: Table) -> Outcome:
    """The whole game, from players to the score file."""
    names = ask_players(t, GAME)
    run_checklist(t, GAME, 2)
    t.at("setup", "start player")
    holder = choose_player(t, "start", "Who crossed a bridge most recently?", names)
    first = holder
    t.say(
        f"{names[holder]} takes the start player marker. {names[1 - holder]} chooses a "
        f"merchant first, then {names[holder]}."
    )
    for number in range(1, ROUNDS + 1):
        t.at("round", f"round {number} of {ROUNDS}")
        t.say(f"Round {number} of {ROUNDS}: {names[holder]}, then {names[1 - holder]}.")
        for seat in (holder, 1 - holder):
            play_turn(t, number, names, seat)
        t.at("round", f"end of round {number}")
        if number < ROUNDS:
            t.say("Refill the display to 5 cards and each bridge to 4 tourists.")
        counts = [
            t.number(f"r{number}.tourists.{seat}", f"Tourists on {names[seat]}'s street?", high=21)
            for seat in (0, 1)
        ]
        if number < ROUNDS:
            holder = next_start(counts, holder)
            reason = "fewer tourists" if counts[0] != counts[1] else "a tie: the marker passes"
            t.say(f"{names[holder]} starts round {number + 1} ({reason}).")
    t.at("scoring", "final scoring")
    t.say("Game over: place the victory markers, then score.")
    return Outcome(validated(t, GAME, lambda: score_file(t, names)), start_player=first)


def next_start(tourists: list[int], holder: int) -> int:
    """Fewer tourists on the street starts; on a tie the marker passes."""
    if tourists[0] == tourists[1]:
        return 1 - holder
    return 0 if tourists[0] < tourists[1] else 1


def play_turn(t: Table, number: int, names: list[str], seat: int) -> None:
    """One turn: the players say when it is done; the helper counts moves."""
    t.at("turn", f"round {number}, {names[seat]}'s turn")
    for k in range(20):
        key = f"r{number}.{seat}.{k}"
        choice = t.choose(
            key,
            f"{names[seat]}: pick a shop card, move tourists, place the card.",
            ["Turn done", "Count my moves"],
        )
        if choice == "Turn done":
            return
        card = t.number(
            f"{key}.card", "Icons like the chosen card's on the card itself?", high=9, default=1
        )
        street = t.number(f"{key}.street", "Matching icons visible on your street?", high=30)
        merchant = t.yes(
            f"{key}.merchant", "Does your merchant add one of this icon?", default=False
        )
        steps = card + street + (1 if merchant else 0)
        t.say(f"{names[seat]} may make {steps} steps (one tourist one space per step).")


def score_file(t: Table, names: list[str]) -> dict[str, Any]:
    """The end state, street by street."""
    players = []
    for seat, name in enumerate(names):
        merchant = t.text(f"score.{seat}.merchant", f"{name}'s merchant (Enter to skip)?")
        entry: dict[str, Any] = {"name": name}
        if merchant:
            entry["merchant"] = merchant
        entry["merchant_points"] = t.number(
            f"score.{seat}.merchant_points",
            f"{name}'s merchant points at the end?",
            high=99,
            default=0,
        )
        entry["street"] = [space(t, seat, name, k) for k in range(7)]
        players.append(entry)
    return {"game": GAME, "players": players}


def space(t: Table, seat: int, name: str, k: int) -> dict[str, Any]:
    """One space of a street, as printed on its card and seen on the table."""
    key = f"score.{seat}.{k}"
    where = f"{name}, space {k + 1}"
    color = t.choose(f"{key}.color", f"{where}: card colour?", COLORS)
    described = [f"{kind}: {words}" for kind, words in TYPES.items()]
    kind = t.choose(f"{key}.type", f"{where}: what does the card score?", described)
    kind = kind.split(":")[0]
    scoring: dict[str, Any] = {"type": kind}
    if kind == "color":
        scoring["color"] = t.choose(f"{key}.scoring_color", f"{where}: which colour?", COLORS)
    if kind == "pair":
        one = t.choose(f"{key}.pair0", f"{where}: first colour of the pair?", COLORS)
        others = [c for c in COLORS if c != one]
        scoring["colors"] = [one, t.choose(f"{key}.pair1", f"{where}: second colour?", others)]
    scoring["points"] = t.number(f"{key}.points", f"{where}: points printed?", high=20)
    reach = t.choose(f"{key}.range", f"{where}: range?", list(RANGES))
    scoring["range"] = RANGES[reach]
    tourists = t.text(
        f"{key}.tourists",
        f"{where}: tourists (letters b k r y p, e.g. bbr; Enter for none)?",
        check=check_tourists,
    )
    result: dict[str, Any] = {
        "card": {"color": color, "scoring": scoring},
        "tourists": tourist_counts(tourists),
    }
    chairs = t.number(f"{key}.chairs", f"{where}: chair icons on the card?", high=9, default=0)
    if chairs:
        result["chairs"] = chairs
    return result


def check_tourists(text: str) -> str | None:
    """Letters b (blue), k (black), r (red), y (yellow), p (pink); at most 3."""
    letters = text.replace(" ", "").lower()
    wrong = sorted({c for c in letters if c not in INITIALS})
    if wrong:
        return f"unknown colour letter {', '.join(wrong)}: use b k r y p"
    if len(letters) > 3:
        return f"{len(letters)} tourists: a space holds at most 3"
    return None


def tourist_counts(text: str) -> dict[str, int]:
    """``bbr`` → ``{"blue": 2, "red": 1}``."""
    counts: dict[str, int] = {}
    for letter in text.replace(" ", "").lower():
        counts[INITIALS[letter]] = counts.get(INITIALS[letter], 0) + 1
    return counts


def score_only(t: Table) -> Outcome:
    """Just the end-of-game entry, for ``companion score shimoda``."""
    names = ask_players(t, GAME)
    t.at("scoring", "scoring")
    return Outcome(validated(t, GAME, lambda: score_file(t, names)))
