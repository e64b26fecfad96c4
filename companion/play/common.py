"""Steps every game's flow shares: players, the set-up checklist, the start player."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from companion.play.setup import PLAYER_COUNTS, checklist, later, offers
from companion.play.table import Table
from companion.wording import hanging, terminal_columns
from scorers.names import clean_name, name_key, name_problem


@dataclass
class Outcome:
    """What a finished flow hands back to be scored and saved.

    Attributes:
        score_file: The score file the players checked on the score pad.
        start_player: The seat that started the game, if known (in a team game,
            the person's index in seat order).
        status: ``final``, or ``interim`` for a scoring that does not end the
            game (Shogun's first winter scored on its own).
    """

    score_file: dict[str, Any]
    start_player: int | None = None
    status: str = "final"


def ask_players(
    t: Table,
    game: str,
    *,
    count: int | None = None,
    labels: Sequence[str] | None = None,
    topic: str = "setup",
) -> list[str]:
    """Names in seat order (clockwise), with the history's names offered.

    Args:
        t: The table.
        game: The game id (its player counts).
        count: How many, when already known.
        labels: A word about each seat, shown in its question (e.g. its team).
        topic: The rules topic for these questions.
    """
    t.at("setup", "players", topic)
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
        problem = name_problem(text)
        if problem:
            return problem
        if name_key(text) in {name_key(n) for n in names}:
            return f"{clean_name(text)} is already playing: use another name"
        return None

    for seat in range(count):
        about = f"{labels[seat]}; " if labels else ""
        names.append(
            clean_name(
                t.text(
                    f"players.{seat}",
                    f"Player {seat + 1}'s name ({about}seat order, clockwise)?",
                    check=check,
                    suggestions=[n for n in t.known_names if n not in names],
                )
            )
        )
    t.players = list(names)
    return names


@dataclass
class Checklist:
    """The set-up steps as shown, and the ones the players said they skipped.

    Attributes:
        game: The game id.
        steps: The steps, in order (numbered from 1 when shown).
        skipped: The 0-based indexes of the steps skipped.
    """

    game: str
    steps: list[str]
    skipped: list[int]

    def done(self, t: Table, offer: str, said: str | None = None) -> None:
        """Say that the companion has done the step of ``offer`` (dealt, drawn, chosen).

        ``said``: the step as it was done, instead of the checklist's words (which
        may cover cases that did not apply, such as a first game's cards).
        """
        for index, name in offers(self.game).items():
            if name == offer:
                step = said if said is not None else self.steps[index]
                t.say(f"Done by the companion: step {index + 1}, {step}")

    def again(self, t: Table, where: str) -> None:
        """Say again each skipped step that matters ``where`` (e.g. at the first inn)."""
        for index, place in later(self.game).items():
            if place == where and index in self.skipped:
                t.say(f"Skipped at set-up, needed now: {self.steps[index]}")


def run_checklist(t: Table, game: str, players: int, topic: str = "setup") -> Checklist:
    """Show the set-up steps; the players say which they skipped.

    Steps the companion offers to do are marked so, not left to tick; each
    skipped step is said back in words, and :meth:`Checklist.again` says it
    again where it matters.
    """
    t.at("setup", "setup", topic)
    steps = checklist(game, players)
    offered = offers(game)
    t.say("Set-up:")
    width = terminal_columns()
    for k, step in enumerate(steps, 1):
        mark = " (the companion offers to do this next)" if k - 1 in offered else ""
        t.say(hanging(f"  {k}. ", step + mark, width))

    def check(text: str) -> str | None:
        for part in text.replace(",", " ").split():
            if not (part.isascii() and part.isdigit()) or not 1 <= int(part) <= len(steps):
                return f"step numbers from 1 to {len(steps)}, or Enter when all are done"
        return None

    skipped = t.text(
        "setup.skipped",
        "Steps not done (numbers; not the ones offered next), Enter when all are done:",
        check=check,
    )
    numbers = sorted({int(p) - 1 for p in skipped.replace(",", " ").split()})
    left = [k for k in numbers if k not in offered]
    for k in numbers:
        if k in offered:
            t.say(f"Step {k + 1} is the companion's: it offers to do it next.")
    for k in left:
        said_later = later(game).get(k)
        when = f" (said again at {said_later})" if said_later else " (do it before the first turn)"
        t.say(f"Skipped: {k + 1}. {steps[k]}{when}")
    return Checklist(game, steps, left)


def choose_start(t: Table, message: str, names: list[str]) -> int:
    """The start player's seat: named by the players, or drawn at random (seed shown).

    The seed is kept with the game: undoing and drawing again gives the same player.
    """
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


def row_message(words: str, names: Sequence[str]) -> str:
    """A question for one row of the score pad: ``Souvenir cards (Aki Ben Cho)?``."""
    return f"{words}, in seat order ({' '.join(names)})?"
