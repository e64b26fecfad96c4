"""Kamakura's turn answer: the usual action offered (never a visit), a circle alone is a visit."""

from __future__ import annotations

import pytest

from companion.kits.kamakura.flow import CALL, REST, USE, VISIT, WALK, likely, parse_turn

OPTIONS = [VISIT, WALK, REST, CALL, USE, "No action"]


def test_a_first_turn_offers_a_walk_not_a_visit() -> None:
    assert likely([]) == WALK


def test_a_visit_is_never_offered() -> None:
    assert likely([WALK]) == REST
    assert likely([WALK, VISIT]) == WALK
    assert likely([VISIT, VISIT]) == WALK


def test_the_usual_action_but_the_last_one_is_offered() -> None:
    assert likely([WALK, VISIT, REST, VISIT, REST, WALK]) == REST
    assert likely([WALK, REST, WALK, VISIT]) == WALK
    assert likely([WALK, CALL, VISIT, USE]) == CALL  # of equals, the latest


def test_a_circle_letter_alone_is_a_visit_and_c_calls_a_taxi() -> None:
    assert parse_turn("B", OPTIONS) == (VISIT, ("B", None, None), None)
    assert parse_turn("g3p", OPTIONS) == (VISIT, ("G", 3, "pink"), None)
    assert parse_turn("C", OPTIONS) == (VISIT, ("C", None, None), None)
    assert parse_turn("c", OPTIONS) == (CALL, None, None)
    assert parse_turn("w", OPTIONS) == (WALK, None, None)


def test_rest_or_a_taxi_call_twice_in_a_row_is_refused_naming_the_player() -> None:
    from companion.kits.kamakura.flow import again_problem

    assert again_problem("Aki", REST) == (
        "Aki rested last turn: not the same action twice in a row (another action, or n for none)"
    )
    assert again_problem("Ben", CALL) == (
        "Ben called a taxi last turn: not the same action twice in a row "
        "(another action, or n for none)"
    )
    # Walking and visiting have a spot per colour; a ticket or none leaves the board.
    assert [again_problem("Aki", a) for a in (WALK, VISIT, USE, "No action")] == [None] * 4


def test_a_second_rest_is_refused_at_the_prompt_and_asked_again() -> None:
    from prompt_toolkit.application import create_app_session
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from companion.kits.kamakura.flow import play_turns
    from companion.play.prompts import QuestionaryPrompter
    from companion.play.table import Table

    asked: list[str] = []

    class Enough(Exception):
        pass

    class Counting(QuestionaryPrompter):
        def text(self, message: str, validate: object, *args: object, **kwargs: object) -> str:
            answer = super().text(message, validate, *args, **kwargs)  # type: ignore[arg-type]
            asked.append(answer)
            if len(asked) == 4:
                raise Enough
            return answer

    # Aki walks, Ben rests, Aki rests, Ben tries r again (refused: Ctrl-U, then a walk).
    keys = "\x15w\r" + "\x15r\r" + "\x15r\r" + "\x15r\r" + "\x15w\r"
    with create_pipe_input() as pipe:
        pipe.send_text(keys)
        with create_app_session(input=pipe, output=DummyOutput()):
            t = Table(
                "kamakura",
                [],
                save=lambda *_: None,
                prompter=Counting(lambda: None),
                out=lambda _: None,
            )
            with pytest.raises(Enough):
                play_turns(t, ["Aki", "Ben"], ["Aki", "Ben"], circles={})
    assert asked == ["w", "r", "r", "w"]
