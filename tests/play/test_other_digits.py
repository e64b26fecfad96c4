"""Numbers typed in digits other than 0-9 ("²") are refused at every number prompt."""

from __future__ import annotations

import pytest

from companion.play.table import Table


class Nothing:
    """A prompter for the tests below."""

    def text(self, *args: object, **kwargs: object) -> str:
        return ""


@pytest.mark.parametrize("typed", ["²", "-²", "¹²", "2 ²"])
def test_numbers_in_other_digits_are_refused_at_number_prompts(typed: str) -> None:
    class Once(Nothing):
        def __init__(self) -> None:
            self.problems: list[str | None] = []

        def text(self, message: str, validate: object, *args: object, **kwargs: object) -> str:
            self.problems.append(validate(typed))  # type: ignore[operator]
            return "1 1" if " " in typed else "1"

    prompter = Once()
    t = Table("tokaido", [], save=lambda *_: None, prompter=prompter, out=lambda _: None)  # type: ignore[arg-type]
    if " " in typed:
        t.numbers("row", "Two numbers?", 2, high=9)
    else:
        t.number("one", "A number?", low=-5, high=9)
    assert prompter.problems[0] is not None
