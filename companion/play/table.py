"""The driver between a game's flow, the prompts and the saved answers.

A flow is a plain function that asks questions through a :class:`Table`. The
table first replays the session's saved answers (silently), then asks the
players, saving each answer before the flow goes on. Undo drops the last answer
and replays the flow from the start; resuming after a crash is the same replay.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

Event = tuple[str, Any]
SEED_PREFIX = "seed:"
CONTEXT_LINES = 4


class Undo(Exception):
    """The player asked to take back the last answer."""


class Pause(Exception):
    """The player asked to save and stop."""


class Prompter(Protocol):
    """Asks one live question; raises :class:`Undo` or :class:`Pause` on request."""

    def select(self, message: str, choices: Sequence[str], default: str | None) -> str:
        """One of ``choices``."""
        ...

    def text(
        self,
        message: str,
        validate: Callable[[str], str | None],
        default: str,
        suggestions: Sequence[str],
    ) -> str:
        """A line of text that ``validate`` accepts (it returns an error or ``None``)."""
        ...


class Table:
    """What a flow talks to: questions, announcements, draws and the phase.

    Args:
        game: The game id.
        events: The answers saved so far.
        save: Saves one new answer ``(key, value, note)`` before returning.
        forget: Drops every saved answer after the first ``n``.
        prompter: Asks the live questions.
        out: Prints a line for the players.
        known_names: Player names from the history, offered as suggestions.
    """

    def __init__(
        self,
        game: str,
        events: list[Event],
        *,
        save: Callable[[str, Any, str], None],
        forget: Callable[[int], None],
        prompter: Prompter,
        out: Callable[[str], None],
        known_names: Sequence[str] = (),
    ) -> None:
        self.game = game
        self.events = events
        self.position = 0
        self.phase = "setup"
        self.where = "setup"
        self._save = save
        self._forget = forget
        self.prompter = prompter
        self._out = out
        self.known_names = list(known_names)
        self.prefix = ""
        self._backlog: list[str] = []
        self._replaying = bool(events)

    @property
    def live(self) -> bool:
        """Whether the saved answers are used up (new questions reach the players)."""
        return self.position >= len(self.events)

    def say(self, text: str) -> None:
        """Announce something; while replaying, keep it for the resume context."""
        if self.live and not self._replaying:
            self._out(text)
        else:
            self._backlog.append(text)

    def at(self, phase: str, where: str) -> None:
        """Mark the part of the game the next questions belong to.

        Args:
            phase: A rules phase (``setup``, ``round``, ``turn``, ``scoring``, ``end``).
            where: Words for the players and the resume list, e.g. "round 3".
        """
        self.phase, self.where = phase, where

    # ``prefix`` is put before every key: a second attempt at the score file
    # (see ``common.validated``) saves its answers under new keys.

    def _answer(self, key: str, ask: Callable[[], Any]) -> Any:
        key = self.prefix + key
        if self.position < len(self.events):
            saved_key, value = self.events[self.position]
            if saved_key == key:
                self.position += 1
                return value
            # The flow changed under a saved game: keep what still matches.
            self._forget(self.position)
            del self.events[self.position :]
        if self._replaying:
            self._replaying = False
            for line in self._backlog[-CONTEXT_LINES:]:
                self._out(line)
            self._backlog.clear()
        value = ask()
        self._save(key, value, self.where)
        self.events.append((key, value))
        self.position += 1
        return value

    def choose(
        self, key: str, message: str, choices: Sequence[str], default: str | None = None
    ) -> str:
        """One of ``choices``."""
        value = self._answer(key, lambda: self.prompter.select(message, choices, default))
        return str(value)

    def yes(self, key: str, message: str, *, default: bool = True) -> bool:
        """Yes or no."""
        answer = self.choose(key, message, ["Yes", "No"], "Yes" if default else "No")
        return answer == "Yes"

    def number(
        self,
        key: str,
        message: str,
        *,
        low: int = 0,
        high: int | None = None,
        default: int | None = None,
    ) -> int:
        """A whole number in ``low..high``, asked again until it is one."""

        def check(text: str) -> str | None:
            cleaned = text.strip()
            if not cleaned.lstrip("-").isdigit():
                return "type a whole number, like 3"
            value = int(cleaned)
            if value < low:
                return f"{value} is too small: at least {low}"
            if high is not None and value > high:
                return f"{value} is too big: at most {high}"
            return None

        shown = "" if default is None else str(default)
        value = self._answer(key, lambda: self.prompter.text(message, check, shown, ()))
        return int(value)

    def text(
        self,
        key: str,
        message: str,
        *,
        check: Callable[[str], str | None] | None = None,
        default: str = "",
        suggestions: Sequence[str] = (),
    ) -> str:
        """A line of text (stripped) that ``check`` accepts."""

        def validate(text: str) -> str | None:
            return check(text.strip()) if check else None

        value = self._answer(
            key, lambda: self.prompter.text(message, validate, default, suggestions).strip()
        )
        return str(value)

    def seed(self, key: str) -> int:
        """A random seed, drawn once and kept with the game so draws replay the same."""
        from companion.play.setup import new_seed

        return int(self._answer(SEED_PREFIX + key, new_seed))


def undo_point(events: list[Event]) -> int:
    """How many answers remain after undoing the last one the players gave.

    Seeds drawn after that answer go too, so the draw is made again.
    """
    keep = len(events)
    while keep and events[keep - 1][0].startswith(SEED_PREFIX):
        keep -= 1
    return max(0, keep - 1)
