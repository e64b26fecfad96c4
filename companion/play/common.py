"""Steps every game's flow shares: players, the set-up checklist, the start player."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from companion.play.setup import PLAYER_COUNTS, checklist
from companion.play.table import Table


@dataclass
class Outcome:
    """What a finished flow hands back to be scored and saved.

    Attributes:
        score_file: The score file the prompts built.
        start_player: The seat that started the game, if known.
    """

    score_file: dict[str, Any]
    start_player: int | None = None


def ask_players(t: Table, game: str, *, count: int | None = None) -> list[str]:
    """Names in seat order, with the history's names offered."""
    counts = PLAYER_COUNTS[game]
    if count is None:
        if len(counts) == 1:
            count = counts[0]
        else:
            low, high = counts[0], counts[-1]
            count = t.number(
                "players.count", f"How many players ({low}-{high})?", low=low, high=high
            )
    names: list[str] = []

    def check(text: str) -> str | None:
        if not text:
            return "type a name"
        if text in names:
            return f"{text} is already playing: use another name"
        return None

    for seat in range(count):
        names.append(
            t.text(
                f"players.{seat}",
                f"Player {seat + 1}'s name (seat order)?",
                check=check,
                suggestions=[n for n in t.known_names if n not in names],
            )
        )
    return names


def run_checklist(t: Table, game: str, players: int) -> None:
    """Show the set-up steps; the players say which they skipped."""
    t.at("setup", "setup")
    steps = checklist(game, players)
    t.say("Set-up:")
    for k, step in enumerate(steps, 1):
        t.say(f"  {k}. {step}")

    def check(text: str) -> str | None:
        for part in text.replace(",", " ").split():
            if not part.isdigit() or not 1 <= int(part) <= len(steps):
                return f"step numbers from 1 to {len(steps)}, or Enter when all are done"
        return None

    skipped = t.text(
        "setup.skipped", "Steps you skipped (numbers), Enter when all are done:", check=check
    )
    if skipped:
        t.say(f"Skipped steps: {skipped}.")


def choose_start(t: Table, message: str, names: list[str]) -> int:
    """The start player's seat: named by the players, or drawn at random (seed shown)."""
    from companion.play.setup import pick

    starter = t.choose("start", message, [*names, "Draw at random"])
    if starter == "Draw at random":
        seed = t.seed("start")
        starter = pick(names, seed, "start")
        t.say(f"Drawn with seed {seed}: {starter} starts.")
    return names.index(starter)


def choose_player(t: Table, key: str, message: str, names: list[str]) -> int:
    """A seat, chosen by name."""
    return names.index(t.choose(key, message, names))


def order_from(names: list[str], first: int) -> list[str]:
    """Clockwise turn order starting at seat ``first``."""
    return names[first:] + names[:first]


def validated(t: Table, game: str, build: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """Build a score file with ``build`` until the scorer accepts it.

    Each field is checked as it is typed; what only shows across fields (too
    many tourists of a colour, provinces over the region's nine) is reported
    with its path, and the entries are asked again.
    """
    from scorers import SCORERS, ScoreFileError

    for attempt in range(1, 1000):
        t.prefix = "" if attempt == 1 else f"retry{attempt}."
        file = build()
        try:
            SCORERS[game].score_json(file)
        except ScoreFileError as error:
            t.say("These answers do not fit together:")
            for problem in error.problems:
                t.say(f"  {problem}")
            t.say("Please enter the scores again.")
            continue
        finally:
            t.prefix = ""
        return file
    raise RuntimeError("unreachable")
