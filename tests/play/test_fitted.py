"""A long question's answer goes on a line of its own, for every player alike."""

from __future__ import annotations

import pytest

from companion.kits.shogun.winter import apply_changes
from companion.play.prompts import fitted

HINT = "(:undo :rules :pause :time)"


@pytest.mark.parametrize("name", ["Al", "Cho", "Alexandra-Marie"])
@pytest.mark.parametrize(
    "example",
    [
        "Changes only, e.g. b+ y- (a brown province more, a yellow one fewer); Enter if none",
        "Changes only, e.g. by- or b+c; Enter if nothing",  # a short last line, found at 80
    ],
)
def test_a_question_of_two_lines_puts_the_hint_and_the_answer_on_their_own_lines(
    name: str, example: str
) -> None:
    message = f"{name}: what changed since the first winter (was b2 y1 g1c)? {example}"
    asked, hint = fitted(message, HINT, columns=80)
    assert len(asked.splitlines()) >= 2
    assert hint == "\n" + HINT + "\n"  # the answer starts on the next line


def test_a_short_question_keeps_its_hint_and_answer_beside_it() -> None:
    assert fitted("Cho's rice?", HINT, columns=80) == ("Cho's rice?", HINT)


def test_the_example_in_the_question_means_what_it_says() -> None:
    after, problem = apply_changes({"brown": [2, 0, 0, 0], "yellow": [1, 0, 0, 0]}, "b+ y-", "Cho")
    assert problem is None
    assert after == {"brown": [3, 0, 0, 0]}  # the last yellow province is gone
