"""Live questions with questionary, plus the three requests any prompt accepts.

In a list, the last three entries are Undo, Rules and Pause. In a text prompt,
type ``:undo``, ``:rules`` or ``:pause`` (``:u``, ``:r``, ``:p``). Ctrl-C is
left to the caller, which tells the players how to resume.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import questionary

from companion.play.table import Pause, Undo

UNDO = "↩ Undo the last answer"
RULES = "? Rules for this part of the game"
PAUSE = "⏸ Pause (save and quit)"
CONTROLS = {":undo": UNDO, ":u": UNDO, ":rules": RULES, ":r": RULES, ":pause": PAUSE, ":p": PAUSE}
HINT = "(:undo  :rules  :pause)"


class QuestionaryPrompter:
    """Asks in the terminal; shows rules through ``show_rules`` and asks again.

    Args:
        show_rules: Prints the rules for the current part of the game.
    """

    def __init__(self, show_rules: Callable[[], None]) -> None:
        self.show_rules = show_rules

    def _control(self, answer: str) -> None:
        if answer == UNDO:
            raise Undo
        if answer == PAUSE:
            raise Pause

    def select(self, message: str, choices: Sequence[str], default: str | None) -> str:
        """One of ``choices`` (or a request)."""
        options: list[str | questionary.Separator] = [
            *choices,
            questionary.Separator(),
            UNDO,
            RULES,
            PAUSE,
        ]
        while True:
            answer = questionary.select(message, choices=options, default=default).unsafe_ask()
            if answer == RULES:
                self.show_rules()
                continue
            self._control(answer)
            return str(answer)

    def text(
        self,
        message: str,
        validate: Callable[[str], str | None],
        default: str,
        suggestions: Sequence[str],
    ) -> str:
        """A line of text that ``validate`` accepts (or a request)."""

        def check(text: str) -> bool | str:
            if text.strip().lower() in CONTROLS:
                return True
            problem = validate(text)
            return True if problem is None else problem

        while True:
            if suggestions:
                question = questionary.autocomplete(
                    f"{message} {HINT}", choices=list(suggestions), default=default, validate=check
                )
            else:
                question = questionary.text(
                    message, default=default, validate=check, instruction=HINT
                )
            answer = str(question.unsafe_ask())
            control = CONTROLS.get(answer.strip().lower())
            if control == RULES:
                self.show_rules()
                continue
            if control:
                self._control(control)
            return answer
