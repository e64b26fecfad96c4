"""Live questions with questionary, plus the four requests any prompt accepts.

In a list, the last four entries are Undo, Rules, Pause and Time. In a text or
number prompt, type ``:undo``, ``:rules``, ``:pause`` or ``:time`` (``:u``,
``:r``, ``:p``, ``:t``). Rules and Time are shown and the question is asked
again. A prompt's default stands in the field already selected: Enter takes
it, typing replaces it (the arrow keys let you edit it instead). Ctrl-C is
left to the caller, which tells the players how to resume.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from contextlib import suppress
from typing import Any

import questionary
from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document
from prompt_toolkit.selection import SelectionState, SelectionType
from prompt_toolkit.styles import Style

from companion.play.table import Complete, Pause, Preview, Undo

UNDO = "↩ Undo the last answer"
RULES = "? Rules for this part of the game"
PAUSE = "⏸ Pause (save and quit)"
TIME = "⏱ Time at the table so far"
CONTROLS = {
    ":undo": UNDO,
    ":u": UNDO,
    ":rules": RULES,
    ":r": RULES,
    ":pause": PAUSE,
    ":p": PAUSE,
    ":time": TIME,
    ":t": TIME,
}
HINT = "(:undo  :rules  :pause  :time)"
DEFAULT_HINT = "(Enter keeps it; :undo  :rules  :pause  :time)"
STYLE = Style([("bottom-toolbar", "noreverse"), ("selected", "reverse")])


class WordCompleter(Completer):
    """Completes the word being typed with what a :data:`Complete` function offers."""

    def __init__(self, complete: Complete) -> None:
        self.complete = complete

    def get_completions(self, document: Document, event: CompleteEvent) -> Iterable[Completion]:
        """Completions for the word before the cursor."""
        before = document.text_before_cursor
        word = before.split(" ")[-1]
        for text, meta in self.complete(before):
            yield Completion(text, start_position=-len(word), display_meta=meta)


def names_completer(names: Sequence[str]) -> Complete:
    """Offer the names that start like what is typed (the whole answer is one name)."""

    def complete(before: str) -> list[tuple[str, str]]:
        typed = before.strip().casefold()
        if " " in before.strip():
            return []
        return [(n, "") for n in names if n.casefold().startswith(typed) and n.casefold() != typed]

    return complete


def select_all(question: questionary.Question, default: str) -> None:
    """Put the cursor after ``default`` with all of it selected, so typing replaces it."""
    if not default:
        return
    buffer = question.application.layout.current_buffer
    if buffer is None:
        return
    buffer.cursor_position = len(default)
    state = SelectionState(original_cursor_position=0, type=SelectionType.CHARACTERS)
    state.enter_shift_mode()
    buffer.selection_state = state


def _clear_input() -> None:
    """Empty the line being edited (the problem is still shown below it)."""
    from prompt_toolkit.application import get_app

    with suppress(Exception):  # (no application running: nothing typed to clear)
        get_app().current_buffer.text = ""


class QuestionaryPrompter:
    """Asks in the terminal; shows rules (or the time) on request and asks again.

    Args:
        show_rules: Prints the rules for the current part of the game.
        show_time: Prints the time at the table so far (not offered without it).
    """

    def __init__(
        self, show_rules: Callable[[], None], show_time: Callable[[], None] | None = None
    ) -> None:
        self.show_rules = show_rules
        self.show_time = show_time

    def _shown(self, answer: str) -> bool:
        """Show the rules or the time for such a request; whether it was one."""
        if answer == RULES:
            self.show_rules()
            return True
        if answer == TIME and self.show_time is not None:
            self.show_time()
            return True
        return False

    def _control(self, answer: str) -> None:
        if answer == UNDO:
            raise Undo
        if answer == PAUSE:
            raise Pause

    def select(
        self, message: str, choices: Sequence[str], default: str | None, *, controls: bool = True
    ) -> str:
        """One of ``choices`` (or a request)."""
        options: list[str | questionary.Separator] = list(choices)
        if controls:
            options += [questionary.Separator(), UNDO, RULES, PAUSE]
            if self.show_time is not None:
                options.append(TIME)
        while True:
            answer = questionary.select(message, choices=options, default=default).unsafe_ask()
            if self._shown(answer):
                continue
            self._control(answer)
            return str(answer)

    def text(
        self,
        message: str,
        validate: Callable[[str], str | None],
        default: str,
        suggestions: Sequence[str],
        *,
        complete: Complete | None = None,
        preview: Preview | None = None,
    ) -> str:
        """A line of text that ``validate`` accepts (or a request)."""

        def check(text: str) -> bool | str:
            control = CONTROLS.get(text.strip().lower())
            if control is not None and (control != TIME or self.show_time is not None):
                return True
            problem = validate(text)
            if problem is not None:
                _clear_input()  # a refused answer does not stay to be typed onto
            return True if problem is None else problem

        if suggestions and complete is None:
            complete = names_completer(suggestions)
        extra: dict[str, Any] = {}
        if complete is not None:
            extra.update(completer=WordCompleter(complete), complete_while_typing=True)
        if preview is not None:
            shown = preview

            def toolbar() -> str:
                from prompt_toolkit.application import get_app

                return shown(get_app().current_buffer.text)

            extra["bottom_toolbar"] = toolbar
        while True:
            hint = DEFAULT_HINT if default else HINT
            if self.show_time is None:
                hint = hint.replace("  :time", "")
            question = questionary.text(
                message,
                default=default,
                validate=check,
                instruction=hint,
                style=STYLE,
                validate_while_typing=False,
                **extra,
            )
            select_all(question, default)
            answer = str(question.unsafe_ask())
            control = CONTROLS.get(answer.strip().lower())
            if control is not None and self._shown(control):
                continue
            if control:
                self._control(control)
            return answer
