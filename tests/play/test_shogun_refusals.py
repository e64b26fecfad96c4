"""A refused Shogun holding names the player and selects only the region entry at fault."""

from __future__ import annotations

from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from companion.kits.shogun.flow import ask_grid, parse_grid
from companion.play.prompts import QuestionaryPrompter
from companion.play.table import Refusal, Table


def test_a_wrong_region_names_the_player_and_spans_its_entry() -> None:
    grid, problem = parse_grid("b3102 y2500 g1", "Ann")
    assert grid is None
    assert problem == "Ann · yellow: 5 castles in 2 provinces (one per province at most)"
    assert isinstance(problem, Refusal) and problem.span == (6, 11)
    _, twice = parse_grid("b3 y2 b1", "Ann")
    assert twice == "Ann · brown is given twice"
    assert isinstance(twice, Refusal) and twice.span == (6, 7)
    _, unnamed = parse_grid("r12")
    assert unnamed == "red: 2 castles in 1 province (one per province at most)"


def test_typing_after_a_refusal_replaces_only_the_bad_region() -> None:
    with create_pipe_input() as pipe:
        pipe.send_text("b3102 y2500 g1\r" + "y21\r")
        with create_app_session(input=pipe, output=DummyOutput()):
            t = Table(
                "shogun",
                [],
                save=lambda *_: None,
                prompter=QuestionaryPrompter(lambda: None),
                out=lambda _: None,
            )
            grid = ask_grid(t, "held.0", "Ann: the whole holding now", who="Ann")
    assert grid == {"brown": [3, 1, 0, 2], "yellow": [2, 1, 0, 0], "green": [1, 0, 0, 0]}


def test_a_pad_cell_asked_again_names_the_player() -> None:
    from companion.kits.pad import PadRow
    from companion.kits.shogun.codes import RegionCodec
    from companion.play.score_pad import ask_cell

    problems: list[str | None] = []

    class Once:
        def text(self, message: str, validate: object, *args: object, **kwargs: object) -> str:
            problems.append(validate("1 0 3"))  # type: ignore[operator]
            return "1 0 1"

    t = Table("shogun", [], save=lambda *_: None, prompter=Once(), out=lambda _: None)  # type: ignore[arg-type]
    row = PadRow(id="brown", label="Brown", field="regions.brown", codec=RegionCodec("brown"))
    ask_cell(t, "fix.brown.1", row, "Ben", None, 1)
    assert problems == ["Ben · brown: 3 temples in 1 province (one per province at most)"]


def _table() -> Table:
    return Table(
        "shogun",
        [],
        save=lambda *_: None,
        prompter=QuestionaryPrompter(lambda: None),
        out=lambda _: None,
    )


def test_a_refused_revolt_keeps_the_line_and_replaces_only_the_entry_at_fault() -> None:
    from companion.kits.shogun.flow import ask_taken

    held = {"brown": [3, 1, 0, 2], "yellow": [2, 1, 0, 0]}
    with create_pipe_input() as pipe:
        # "rc" is refused (no red held): only it is selected, so "yc" replaces it.
        pipe.send_text("b, rc\r" + "yc\r")
        with create_app_session(input=pipe, output=DummyOutput()):
            after, lost = ask_taken(_table(), "taken.0", "Ann", held, 2)
    assert (after, lost) == ({"brown": [2, 1, 0, 2], "yellow": [1, 0, 0, 0]}, 2)


def test_a_refused_rice_keeps_the_line_and_replaces_only_the_entry_at_fault() -> None:
    from companion.kits.shogun.flow import ask_rice

    names = ["Ann", "Ben", "Cho"]
    with create_pipe_input() as pipe:
        # "z3" is no player's: only it is selected, so "c4" replaces it.
        pipe.send_text("a3 z3\r" + "c4\r")
        with create_app_session(input=pipe, output=DummyOutput()):
            rice = ask_rice(_table(), "rice", names, [5, 5, 5])
    assert rice == {0: 3, 2: 4}
