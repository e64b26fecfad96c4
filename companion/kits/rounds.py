"""A game's rounds: what a round is called, the last one, and the round tracker's rule.

The web page's round tracker (:mod:`companion.widgets.tracker`) shows the round,
who starts it and one box per player (a count, or a choice such as Shogun's
bids), and a button that applies the game's rule: a pure function from the
:class:`RoundState` to the :class:`Step` that follows.

Example:
    >>> rounds = Rounds(word="Round", last=7)
    >>> rounds.text(3)
    'Round 3 of 7'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

COUNT = "count"
CHOICE = "choice"
NONE = "none"


@dataclass(frozen=True)
class RoundState:
    """What the tracker shows when its button is pressed.

    Attributes:
        names: The people, in seat order.
        sides: The sides (a team game: the teams; otherwise the people).
        round: The round's number, from 1.
        start: The seat of the player who starts it.
        values: Each player's box: a count, or a choice's value.
        option: The tracker's option (Shibuya's rules variant), or ``""``.
        seed: A fresh seed for a draw the rule may make (shown when used).
    """

    names: Sequence[str]
    sides: Sequence[str]
    round: int
    start: int
    values: Sequence[Any]
    option: str = ""
    seed: int = 0


@dataclass(frozen=True)
class Step:
    """What the button did.

    Attributes:
        message: What to say under the button.
        round: The round's number now.
        start: The seat that starts now.
        clear: The players' boxes start empty again (each season's bids are new).
        over: The rounds are over with this press: the scoring follows (the
            clock's last round ends here).
        last: The last round is under way: it ends when the scoring begins
            (the first change on the score pad).
    """

    message: str
    round: int
    start: int
    clear: bool = False
    over: bool = False
    last: bool = False


@dataclass(frozen=True)
class Rounds:
    """A game's rounds and its round tracker.

    Attributes:
        word: What a round is called (``Round``, ``Stage``, ``Season``).
        last: The last round's number, ``None`` when the game ends otherwise.
        name: A round in words, for :meth:`text` (``Year 1, summer``); ``None``:
            the word and the number.
        hint: Said above the players' boxes.
        button: The button that applies the rule.
        entry: Each player's box: :data:`COUNT`, :data:`CHOICE` or :data:`NONE`.
        count_name: What a box holds, after the player's name (``bid``).
        choices: For :data:`CHOICE` boxes: ``(shown, value)``, the first "no choice yet".
        options: The tracker's own option (``(shown, value)``; the first is the default).
        option_name: What that option is called.
        step: The rule: the state when the button is pressed → what follows.
        count_max: The largest count a box takes.
        picker: What the tracker's choice of a player says, beside the round.
        picks_start: The choice is who starts the round, so the first round's
            choice is the game's start player. ``False`` when it names something
            else (Tokaido: who reached the inn first): the game's start player
            then comes from the set-up's draw or the pad alone.
        opens_round: The button is pressed as the round begins, not as it ends
            (Shogun's action order, from the season's bids): the time after a
            press is the round it was pressed in, though the tracker then shows
            the next one. ``False``: a press ends the round under way.
    """

    word: str = "Round"
    last: int | None = None
    name: Callable[[int], str] | None = None
    hint: str = ""
    button: str = "Next round"
    entry: str = COUNT
    count_name: str = ""
    choices: tuple[tuple[str, str], ...] = ()
    options: tuple[tuple[str, str], ...] = ()
    option_name: str = ""
    step: Callable[[RoundState], Step] | None = None
    count_max: int = 99
    picker: str = "starts:"
    picks_start: bool = True
    opens_round: bool = False

    def text(self, number: int) -> str:
        """``Round 3 of 7``, ``Year 1, summer``, ``Stage 2: to the second inn``."""
        if self.name is not None:
            return self.name(number)
        if self.last is not None:
            return f"{self.word} {number} of {self.last}"
        return f"{self.word} {number}"

    def advanced(self, number: int) -> int:
        """The round after ``number`` (the last round stays the last)."""
        return number + 1 if self.last is None or number < self.last else number

    def apply(self, state: RoundState) -> Step:
        """The game's rule, or the next round with the next player when it has none."""
        if self.step is not None:
            return self.step(state)
        following = (state.start + 1) % max(1, len(state.names))
        return Step(
            f"{self.text(self.advanced(state.round))}: {state.names[following]} starts.",
            self.advanced(state.round),
            following,
        )
