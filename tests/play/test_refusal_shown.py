"""A refusal is shown once below the line, wrapped between words; Ctrl-U/K clear a selection."""

from __future__ import annotations

import contextlib
from typing import Any

from prompt_toolkit.application import create_app_session
from prompt_toolkit.application.current import set_app
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from prompt_toolkit.validation import ValidationError

from companion.play.prompts import QuestionaryPrompter, below_line, one_refusal, shown_refusal
from companion.play.table import Table

LONG = (
    "Cy had 2 revolts, and a revolt takes one province at most: 2 provinces lost at most, 3 typed"
)


WRAPPED = (
    "  Cy had 2 revolts, and a revolt takes one province at most: 2 provinces lost\n"
    "  at most, 3 typed"
)


def refused(preview: Any) -> tuple[Any, list[Any]]:
    """A text question set up as the prompter does, its line refused with LONG."""
    import questionary
    from prompt_toolkit.filters import has_validation_error
    from prompt_toolkit.layout.containers import ConditionalContainer

    extra: dict[str, Any] = {} if preview is None else {"bottom_toolbar": below_line(preview)}
    question = questionary.text("What did the revolts take?", **extra)
    app = question.application
    rows = [
        c
        for c in app.layout.walk()
        if isinstance(c, ConditionalContainer) and c.filter is has_validation_error
    ]
    one_refusal(question, preview is not None)
    app.current_buffer.validation_error = ValidationError(message=LONG)
    return question, rows


def test_a_refusal_with_a_preview_is_shown_once_below_and_wrapped() -> None:
    with create_app_session(output=DummyOutput()):
        question, rows = refused(lambda text: f"  {LONG} ({text!r})")
        with set_app(question.application):
            assert [row.filter() for row in rows] == [False]  # prompt_toolkit's cut row is off
            assert _toolbar(question) == WRAPPED  # the preview gives way: one message
            question.application.current_buffer.validation_error = None
            assert _toolbar(question) == f"  {LONG} ('')"


def test_a_refused_line_keeps_the_drawing_of_its_preview() -> None:
    from companion.play.table import Drawing

    with create_app_session(output=DummyOutput()):
        question, _ = refused(lambda text: Drawing(f"Aki |b|r|\n  {LONG}", "Aki |b|r|"))
        with set_app(question.application):
            assert _toolbar(question) == "Aki |b|r|\n" + WRAPPED  # the drawing stays


def test_shimoda_s_street_preview_keeps_its_drawing_when_refused() -> None:
    from companion.kits.shimoda import flow
    from companion.play.table import Drawing

    shown = flow.draw(["Aki", "Ben"], [[None] * flow.SPACES, [None] * flow.SPACES])
    assert isinstance(shown, str) and shown.strip()
    table_preview: list[Any] = []

    class Spy:
        def text(self, key: str, message: str, **kwargs: Any) -> str:
            table_preview.append(kwargs["preview"])
            raise StopIteration

    with contextlib.suppress(StopIteration):
        flow.ask_street(Spy(), "k", ["Aki", "Ben"], 0, [None, None])  # type: ignore[arg-type]
    drawn = table_preview[0]("bb - r kyp - - x")
    assert isinstance(drawn, Drawing)
    assert drawn.kept and drawn.kept in drawn and "space 7" not in drawn.kept


def _toolbar(question: Any) -> str:
    from prompt_toolkit.formatted_text import to_plain_text

    for window in question.application.layout.find_all_windows():
        style = getattr(window, "style", "")
        if style == "class:bottom-toolbar":
            return to_plain_text(window.content.text())
    raise AssertionError("no toolbar")


def test_a_refusal_without_a_preview_wraps_between_words() -> None:
    with create_app_session(output=DummyOutput()):
        question, rows = refused(None)
        with set_app(question.application):
            [row] = rows
            assert row.filter() is True
            from prompt_toolkit.formatted_text import to_plain_text

            assert to_plain_text(row.content.content.text()) == WRAPPED


def test_shown_refusal_keeps_words_whole() -> None:
    assert shown_refusal("one two three", 10) == "  one two\n  three"


def ask(keys: str) -> Any:
    with create_pipe_input() as pipe:
        pipe.send_text(keys)
        with create_app_session(input=pipe, output=DummyOutput()):
            t = Table(
                "tokaido",
                [],
                save=lambda *_: None,
                prompter=QuestionaryPrompter(lambda: None),
                out=lambda _: None,
            )
            t.players = ["Aki", "Ben"]
            return t.numbers("row", "Coins, in seat order (Aki Ben)?", 2, high=99)


def test_ctrl_u_clears_the_line_while_a_refused_value_is_selected() -> None:
    assert ask("40 x5\r" + "\x15" + "7 8\r") == [7, 8]


def test_ctrl_u_clears_up_to_the_selected_value_and_ctrl_k_from_it() -> None:
    assert ask("1 x 3\r" + "\x15" + "9\r") == [9, 3]  # "x" selected: "1 x" goes
    assert ask("1 x\r" + "\x0b" + "4\r") == [1, 4]


def test_ctrl_u_clears_an_offered_default() -> None:
    with create_pipe_input() as pipe:
        pipe.send_text("\x15" + "5 6\r")
        with create_app_session(input=pipe, output=DummyOutput()):
            t = Table(
                "tokaido",
                [],
                save=lambda *_: None,
                prompter=QuestionaryPrompter(lambda: None),
                out=lambda _: None,
            )
            t.players = ["Aki", "Ben"]
            assert t.numbers("row", "Coins?", 2, high=99, default=[1, 2]) == [5, 6]


def test_going_on_at_names_the_question_in_whole_words() -> None:
    from companion.play.table import going_on_at

    assert going_on_at("setup", "Steps not done (type their numbers)?") == "setup: Steps not done"
    assert going_on_at(
        "round 2", "Who reached the third inn first, of all the travellers?", 30
    ) == ("round 2: Who reached the third inn…")
    assert going_on_at("setup", "(all of them)") == "setup"
