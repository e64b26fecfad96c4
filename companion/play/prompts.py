"""Live questions with questionary, plus the four requests any prompt accepts.

In a list, the last four entries are Undo, Rules, Pause and Time. Every entry
has a number: typing it (or the first letters of the entry) moves the
pointer there, as the arrow keys do, and Enter picks it. The pointer starts
on the entry the game thinks most likely (the question's default). In a text or
number prompt, type ``:undo``, ``:rules``, ``:pause`` or ``:time`` (``:u``,
``:r``, ``:p``, ``:t``). Rules and Time are shown and the question is asked
again. A prompt's default stands in the field already selected: Enter takes
it, typing replaces it (the arrow keys let you edit it instead). Ctrl-C is
left to the caller, which tells the players how to resume. A refused answer
stays on its line as typed, its bad value selected: typing replaces that value
only.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import suppress
from pathlib import Path
from typing import Any

import questionary
from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document
from prompt_toolkit.selection import SelectionState, SelectionType
from prompt_toolkit.styles import Style
from prompt_toolkit.validation import ValidationError, Validator

from companion.play.table import Complete, Pause, Preview, Undo
from companion.voice import Question

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
SAY = ":say"
"""Typed at an end-count question (or F2 pressed): listen, and fill the line with what is heard."""
SAY_HINT = "  :say or F2 to speak"
NO_VOICE = "voice is offered at the end count only: type the answer"
DEFAULT_HINT = "(Enter keeps it; :undo  :rules  :pause  :time)"
LIST_HINT = "(number, first letters or arrows; Enter picks)"
SHOWN_NAMES = 8
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


def list_key(title: str) -> str:
    """What the first letters of a list entry are matched against (its words, no symbol)."""
    return title.lstrip("↩?⏸⏱ ").casefold()


class TypedPointer:
    """Moves a list's pointer to the entry whose number or first letters are typed.

    Args:
        titles: The entries' titles, ``None`` for a separator (it has no number).
    """

    def __init__(self, titles: Sequence[str | None]) -> None:
        self.titles = list(titles)
        self.numbers = [k for k, title in enumerate(self.titles) if title is not None]
        self.typed = ""

    def digit(self, key: str, pointed: int) -> int:
        """The entry numbered by the digits typed so far (``1`` is the first entry)."""
        typed = self.typed + key if self.typed.isdigit() else key
        if not 1 <= int(typed) <= len(self.numbers):
            typed = key
        self.typed = typed
        if not 1 <= int(typed) <= len(self.numbers):
            return pointed
        return self.numbers[int(typed) - 1]

    def letter(self, key: str, pointed: int) -> int:
        """The entry whose title starts with the letters typed so far.

        A letter that makes no longer match starts again: the first entry with
        that letter, or, when the pointer is on one already, the next one.
        """
        key = key.casefold()
        if self.typed and not self.typed.isdigit():
            found = self._first(self.typed + key, self.numbers)
            if found is not None:
                self.typed += key
                return found
        self.typed = key
        order = self.numbers
        current = self.titles[pointed] if 0 <= pointed < len(self.titles) else None
        if current is not None and list_key(current).startswith(key):
            order = [k for k in self.numbers if k > pointed] + [
                k for k in self.numbers if k <= pointed
            ]
        found = self._first(key, order)
        return pointed if found is None else found

    def _first(self, typed: str, order: Sequence[int]) -> int | None:
        for k in order:
            title = self.titles[k]
            if title is not None and list_key(title).startswith(typed):
                return k
        return None


def numbered(
    choices: Sequence[str | questionary.Separator], unavailable: Mapping[str, str] | None = None
) -> list[Any]:
    """The entries with their numbers shown (``1) Yes``); the value stays the entry.

    An ``unavailable`` entry (entry → why) keeps its place and number, greyed,
    and cannot be picked.
    """
    shown: list[Any] = []
    number = 0
    barred = unavailable or {}
    for choice in choices:
        if isinstance(choice, questionary.Separator):
            shown.append(choice)
            continue
        number += 1
        why = barred.get(choice)
        shown.append(
            questionary.Choice(title=f"{number}) {choice}", value=choice, disabled=why or None)
        )
    return shown


def typed_list(question: questionary.Question, choices: Sequence[Any]) -> None:
    """Let the number or first letters of an entry move the pointer of ``question``."""
    from prompt_toolkit.key_binding import KeyBindings, merge_key_bindings
    from questionary.prompts.common import InquirerControl

    app = question.application
    control = next(c for c in app.layout.find_all_controls() if isinstance(c, InquirerControl))
    titles = [None if isinstance(c, questionary.Separator) else str(c.value) for c in choices]
    pointer = TypedPointer(titles)
    bindings = KeyBindings()

    def move(event: Any) -> None:
        key = event.key_sequence[0].key
        if key.isdigit():
            control.pointed_at = pointer.digit(key, control.pointed_at)
        else:
            control.pointed_at = pointer.letter(key, control.pointed_at)

    for key in "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ":
        bindings.add(key, eager=True)(move)
    app.key_bindings = merge_key_bindings([app.key_bindings or KeyBindings(), bindings])


def offered_hint(hint: str, suggestions: Sequence[str]) -> str:
    """The hint with the offered names shown (Tab completes them)."""
    if not suggestions:
        return hint
    names = ", ".join(suggestions[:SHOWN_NAMES])
    more = f" and {len(suggestions) - SHOWN_NAMES} more" if len(suggestions) > SHOWN_NAMES else ""
    return f"(known: {names}{more}; Tab completes) {hint}"


def fitted(message: str, hint: str, columns: int | None = None) -> tuple[str, str]:
    """``message`` and its ``hint`` broken between words to fit the terminal's width.

    prompt_toolkit would break a long question anywhere ("C/ho"); this breaks it
    at spaces, the first line after the ``? `` mark, and puts the hint on a line
    of its own when it does not fit after the question's last line. A question
    of more than one line always has its hint, and the answer, on lines of
    their own: the answer is then never wrapped, whoever is asked.
    """
    import shutil
    import textwrap

    width = max(20, (columns or shutil.get_terminal_size((80, 24)).columns) - 1)
    lines = textwrap.wrap(message, width, initial_indent="? ", break_on_hyphens=False)
    lines = [lines[0][2:], *lines[1:]] if lines else [message]
    if not hint:
        return "\n".join(lines), hint
    last = len(lines[-1]) + (2 if len(lines) == 1 else 0)
    if len(lines) == 1 and last + 1 + len(hint) + 8 <= width:  # room for a short answer
        return "\n".join(lines), hint
    wrapped = textwrap.wrap(hint, width, break_on_hyphens=False)
    return "\n".join(lines), "\n" + "\n".join(wrapped) + "\n"


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


def shown_refusal(message: str, columns: int) -> str:
    """A refusal as shown below the line: wrapped between words to ``columns``."""
    from companion.wording import hanging

    return "\n".join(hanging("  ", line, columns) for line in message.splitlines() or [""])


def _refusal_now() -> str | None:
    """The standing refusal of the line being typed, wrapped to the terminal (or ``None``)."""
    from prompt_toolkit.application import get_app

    app = get_app()
    error = app.current_buffer.validation_error
    if error is None:
        return None
    return shown_refusal(str(error.message), app.output.get_size().columns)


def below_line(preview: Preview) -> Callable[[], str]:
    """What is shown below a line with a ``preview``: the preview, or the refusal standing.

    The preview often says what is wrong too; while the line stands refused the
    refusal alone is shown, so the table reads one message; a
    :class:`~companion.play.table.Drawing` keeps its drawing above it.
    """
    from prompt_toolkit.application import get_app

    from companion.play.table import Drawing

    def below() -> str:
        said = _refusal_now()
        if said is None:
            return preview(get_app().current_buffer.text)
        shown = preview(get_app().current_buffer.text)
        return f"{shown.kept}\n{said}" if isinstance(shown, Drawing) else said

    return below


def one_refusal(question: questionary.Question, preview: bool) -> None:
    """Show a refusal once, wrapped between words, below the typed line.

    prompt_toolkit's own row for a refusal is cut at the terminal's edge. With
    a preview below the line (which then shows the refusal, see
    :func:`below_line`) that row is switched off; without one it wraps.
    """
    from prompt_toolkit.filters import has_validation_error, to_filter
    from prompt_toolkit.layout.containers import ConditionalContainer, Window
    from prompt_toolkit.layout.controls import FormattedTextControl

    for container in question.application.layout.walk():
        if isinstance(container, ConditionalContainer) and container.filter is has_validation_error:
            if preview:
                container.filter = to_filter(False)
            else:
                control = FormattedTextControl(
                    lambda: [("class:validation-toolbar", _refusal_now() or "")]
                )
                container.content = Window(control, dont_extend_height=True)


def line_keys(question: questionary.Question) -> None:
    """Ctrl-U and Ctrl-K work while part of the line is selected (a default, a refused value).

    prompt_toolkit leaves them to insert mode, which a selection ends. Ctrl-U
    clears from the start of the line through the selection, Ctrl-K from the
    selection to the end of the line.
    """
    from prompt_toolkit.filters import has_selection
    from prompt_toolkit.key_binding import KeyBindings, merge_key_bindings

    app = question.application
    bindings = KeyBindings()

    def cut(event: Any, to_start: bool) -> None:
        buffer = event.current_buffer
        start, end = buffer.document.selection_range()
        buffer.exit_selection()
        text = buffer.text
        if to_start:
            begin = text.rfind("\n", 0, start) + 1
            buffer.document = Document(text[:begin] + text[end:], begin)
        else:
            finish = text.find("\n", end)
            finish = len(text) if finish < 0 else finish
            buffer.document = Document(text[:start] + text[finish:], start)

    bindings.add("c-u", filter=has_selection)(lambda event: cut(event, True))
    bindings.add("c-k", filter=has_selection)(lambda event: cut(event, False))
    app.key_bindings = merge_key_bindings([app.key_bindings or KeyBindings(), bindings])


def _mark_refused(text: str, problem: str) -> int:
    """Keep the refused line as typed and select its bad part; where the cursor goes.

    A problem with a ``span`` (a :class:`~companion.play.table.Refusal`) marks
    those characters; any other is about the whole line. Typing replaces what
    is selected, so the one bad value is typed again, not the whole line.
    """
    from prompt_toolkit.application import get_app

    start, end = getattr(problem, "span", (0, len(text)))
    start, end = max(0, min(start, len(text))), max(0, min(end, len(text)))
    with suppress(Exception):  # (no application running: nothing typed to mark)
        buffer = get_app().current_buffer
        buffer.selection_state = None
        if end > start:
            state = SelectionState(original_cursor_position=start, type=SelectionType.CHARACTERS)
            state.enter_shift_mode()
            buffer.selection_state = state
    return end


class KeptLineValidator(Validator):
    """Runs a prompt's check; a refused line stays, the cursor at its bad value."""

    def __init__(self, check: Callable[[str], bool | str]) -> None:
        self.check = check

    def validate(self, document: Document) -> None:
        """Raise :class:`ValidationError` at the bad value when the check refuses."""
        verdict = self.check(document.text)
        if verdict is True:
            return
        message = "Not an answer" if verdict is False else verdict
        cursor = _mark_refused(document.text, message)
        raise ValidationError(message=str(message), cursor_position=cursor)


def _voice_key_bindings(listen: Callable[[], str | None]) -> Any:
    """F2: listen (the question's screen set aside meanwhile) and put the line heard on it."""
    from prompt_toolkit.application import run_in_terminal
    from prompt_toolkit.key_binding import KeyBindings

    bindings = KeyBindings()

    @bindings.add("f2")
    def _(event: Any) -> None:
        buffer = event.current_buffer

        async def hear() -> None:
            line = await run_in_terminal(listen)
            if line is not None:
                buffer.exit_selection()
                buffer.document = Document(line, len(line))

        event.app.create_background_task(hear())

    return bindings


def how_to_say(question: Question) -> str:
    """How to say a count for ``question``, with the table's own names, in one clause."""
    names = [question.names[seat].strip() for seat in question.seats]
    if len(names) < 2 or not all(names):
        return "speak again or type it"
    low, top = max(0, question.low), question.top
    examples = [str(min(max(value, low), top)) for value in (12, 9)]
    if question.codes:
        examples = ["B2", "F3"]
    said = ", ".join(f"{names[n]} {examples[n]}" for n in range(2))
    return f"say each name before its value ({said}), or type it"


class QuestionaryPrompter:
    """Asks in the terminal; shows rules (or the time) on request and asks again.

    At an end-count question (one the table hands a ``voice`` question), F2 or
    ``:say`` listens (:mod:`companion.voice`) and puts what was heard on the
    answer line, for the players to read, change and confirm with Enter: nothing
    heard is ever taken without it.

    Args:
        show_rules: Prints the rules for the current part of the game.
        show_time: Prints the time at the table so far (not offered without it).
        voice_file: A WAV file heard instead of the microphone (``--voice-file``).
    """

    listens = True
    """The table hands this prompter the voice question of an end count."""

    def __init__(
        self,
        show_rules: Callable[[], None],
        show_time: Callable[[], None] | None = None,
        *,
        voice_file: Path | None = None,
    ) -> None:
        self.show_rules = show_rules
        self.show_time = show_time
        self.voice_file = voice_file

    def hear(self, question: Question) -> tuple[str | None, str]:
        """Listen for ``question``: ``(the answer line, or None; one line to show)``."""
        from companion.voice import missing

        problem = missing(microphone=self.voice_file is None)
        if problem:
            return None, f"Voice: {problem}"
        return self._heard(question)

    def _heard(self, question: Question) -> tuple[str | None, str]:
        """Listen for ``question`` once voice is known to be there."""
        from companion.voice import hear_wav, listen

        try:
            heard = hear_wav(self.voice_file, question) if self.voice_file else listen(question)
        except (ValueError, RuntimeError, OSError) as error:
            return None, f"Voice: {error}"
        if not heard.values:
            said = f" ({heard.shown(question)})" if heard.words else ""
            return None, f"Voice: heard nothing that fits{said}; {how_to_say(question)}"
        return (
            heard.line(question),
            f"Heard: {heard.shown(question)}. Check the line, change what is wrong, then Enter.",
        )

    def _voice_key(self, question: questionary.Question, voice: Question) -> None:
        """Bind F2 on ``question`` to listening for ``voice``."""
        from prompt_toolkit.key_binding import merge_key_bindings

        app = question.application
        bindings = _voice_key_bindings(lambda: self._listening(voice))
        from prompt_toolkit.key_binding import KeyBindings

        app.key_bindings = merge_key_bindings([app.key_bindings or KeyBindings(), bindings])

    def _listening(self, question: Question) -> str | None:
        """Listen (saying so above the question); the line heard, or ``None``."""
        import shutil

        from prompt_toolkit import print_formatted_text

        from companion.terminal.wrapping import between_words
        from companion.voice import missing

        def say(text: str) -> None:
            columns = shutil.get_terminal_size((100, 24)).columns
            print_formatted_text(between_words(text, columns))

        problem = missing(microphone=self.voice_file is None)
        if problem:  # one line: what is missing, and no "Listening" before it
            say(f"Voice: {problem}")
            return None
        if self.voice_file is None:
            say("Listening: say the count, then stop.")
        line, said = self._heard(question)
        say(said)
        return line

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
        self,
        message: str,
        choices: Sequence[str],
        default: str | None,
        *,
        controls: bool = True,
        unavailable: Mapping[str, str] | None = None,
    ) -> str:
        """One of ``choices`` (or a request); ``unavailable`` ones are shown, not picked."""
        options: list[str | questionary.Separator] = list(choices)
        if controls:
            options += [questionary.Separator(), UNDO, RULES, PAUSE]
            if self.show_time is not None:
                options.append(TIME)
        while True:
            shown = numbered(options, unavailable)
            start = default if default not in (unavailable or {}) else None
            asked, hint = fitted(message, LIST_HINT)
            question = questionary.select(asked, choices=shown, default=start, instruction=hint)
            typed_list(question, shown)
            answer = question.unsafe_ask()
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
        voice: Question | None = None,
    ) -> str:
        """A line of text that ``validate`` accepts (or a request).

        With ``voice`` (an end-count question), F2 or ``:say`` fills the line with
        what is heard.
        """

        def check(text: str) -> bool | str:
            control = CONTROLS.get(text.strip().lower())
            if control is not None and (control != TIME or self.show_time is not None):
                return True
            if text.strip().lower() == SAY:
                return True if voice is not None else NO_VOICE
            problem = validate(text)
            return True if problem is None else problem

        if suggestions and complete is None:
            complete = names_completer(suggestions)
        extra: dict[str, Any] = {}
        if complete is not None:
            extra.update(completer=WordCompleter(complete), complete_while_typing=True)
        if preview is not None:
            extra["bottom_toolbar"] = below_line(preview)
        heard = False
        while True:
            hint = DEFAULT_HINT if default else HINT
            if self.show_time is None:
                hint = hint.replace("  :time", "")
            if voice is not None:
                hint = f"{hint[:-1]}{SAY_HINT})"
            hint = offered_hint(hint, suggestions)
            asked, hint = fitted(message, hint)
            question = questionary.text(
                asked,
                default=default,
                validate=KeptLineValidator(check),
                instruction=hint,
                style=STYLE,
                validate_while_typing=False,
                **extra,
            )
            one_refusal(question, preview is not None)
            if not heard:  # a heard line is read and changed in place, not typed over
                select_all(question, default)
            line_keys(question)
            if voice is not None:
                self._voice_key(question, voice)
            answer = str(question.unsafe_ask())
            if voice is not None and answer.strip().lower() == SAY:
                line = self._listening(voice)
                heard = line is not None
                default = line if line is not None else default
                continue
            heard = False
            control = CONTROLS.get(answer.strip().lower())
            if control is not None and self._shown(control):
                continue
            if control:
                self._control(control)
            return answer
