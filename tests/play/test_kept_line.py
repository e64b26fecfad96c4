"""A refused line stays as typed, its bad value selected; ``:undo`` offers the undone answer."""

from __future__ import annotations

from typing import Any

from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from companion.play.prompts import QuestionaryPrompter
from companion.play.table import Refusal, Table


def ask(keys: str, build: Any) -> tuple[Any, list[str]]:
    """Run ``build(table)`` with the real prompts reading ``keys``; its answer and what was said."""
    said: list[str] = []
    with create_pipe_input() as pipe:
        pipe.send_text(keys)
        with create_app_session(input=pipe, output=DummyOutput()):
            prompter = QuestionaryPrompter(lambda: None)
            t = Table("tokaido", [], save=lambda *_: None, prompter=prompter, out=said.append)
            t.players = ["Aki", "Ben", "Cho"]
            return build(t), said


def test_a_refused_row_keeps_the_line_and_typing_replaces_only_the_bad_value() -> None:
    answer, _ = ask(
        "12 O 7\r" + "0\r",
        lambda t: t.numbers(
            "score.temples", "Temple points, in seat order (Aki Ben Cho)?", 3, high=99
        ),
    )
    assert answer == [12, 0, 7]


def test_a_value_too_big_is_selected_alone() -> None:
    answer, _ = ask("1 2 300\r" + "30\r", lambda t: t.numbers("row", "Coins?", 3, high=99))
    assert answer == [1, 2, 30]


def test_a_short_row_keeps_what_was_typed_and_the_cursor_at_its_end() -> None:
    answer, _ = ask("4 5\r" + " 6\r", lambda t: t.numbers("row", "Coins?", 3, high=99))
    assert answer == [4, 5, 6]


def test_the_refusal_names_the_player_and_the_field() -> None:
    problems: list[str | None] = []

    class Once:
        def text(self, message: str, validate: Any, *args: object, **kwargs: object) -> str:
            problems.append(validate("12 O 7"))
            problems.append(validate("12 3 700"))
            problems.append(validate("12 3"))
            problems.append(validate("12 3 4 5"))
            return "1 1 1"

    t = Table("tokaido", [], save=lambda *_: None, prompter=Once(), out=lambda _: None)  # type: ignore[arg-type]
    t.players = ["Aki", "Ben", "Cho"]
    t.numbers("row", "Temple points, in seat order (Aki Ben Cho)?", 3, high=99)
    assert problems == [
        "Temple points, Ben: O is not a whole number",
        "Temple points, Cho: 700 is too big (at most 99)",
        "Temple points: 3 numbers, one per player; none yet for Cho",
        "Temple points: 3 numbers, one per player; 1 number too many",
    ]
    spans = [p.span for p in problems if isinstance(p, Refusal)]
    assert spans == [(3, 4), (5, 8), (4, 4), (7, 8)]


def test_a_refused_name_is_selected_whole_and_typed_over() -> None:
    def check(text: str) -> str | None:
        return "Aki is already playing: use another name" if text.lower() == "aki" else None

    answer, _ = ask("  aki\r" + "Ben\r", lambda t: t.text("players.1", "Name?", check=check))
    assert answer == "Ben"


def test_undo_offers_the_undone_answer_for_editing() -> None:
    said: list[str] = []
    with create_pipe_input() as pipe:
        pipe.send_text("\x1b[F" + "9\r")  # End: after the offered row, then one more digit
        with create_app_session(input=pipe, output=DummyOutput()):
            prompter = QuestionaryPrompter(lambda: None)
            t = Table(
                "tokaido",
                [],
                save=lambda *_: None,
                prompter=prompter,
                out=said.append,
                undone=("row", [3, 4, 5]),
            )
            answer = t.numbers("row", "Coins?", 3, high=999, default=[0, 0, 0])
    assert answer == [3, 4, 59]


def test_undo_offers_the_undone_choice() -> None:
    with create_pipe_input() as pipe:
        pipe.send_text("\r")
        with create_app_session(input=pipe, output=DummyOutput()):
            t = Table(
                "tokaido",
                [],
                save=lambda *_: None,
                prompter=QuestionaryPrompter(lambda: None),
                out=lambda _: None,
                undone=("first", "Ben"),
            )
            assert t.choose("first", "Who?", ["Aki", "Ben", "Cho"], "Aki") == "Ben"
            assert t.undone is None  # offered once: later questions keep their own default


def test_score_tokaido_keeps_each_travellers_number_from_player_to_player() -> None:
    from companion.kits.tokaido import TRAVELER_COINS
    from companion.kits.tokaido.flow import ask_traveler

    tiles = sorted(TRAVELER_COINS)
    with create_pipe_input() as pipe:
        pipe.send_text("2\r" + "3\r" + "2\r" + "4\r")  # Ben types Aki's number, then another
        with create_app_session(input=pipe, output=DummyOutput()):
            t = Table(
                "tokaido",
                [],
                save=lambda *_: None,
                prompter=QuestionaryPrompter(lambda: None),
                out=lambda _: None,
            )
            aki = ask_traveler(t, "traveler.0", "Aki")
            ben = ask_traveler(t, "traveler.1", "Ben", taken={aki: "Aki"})
            cho = ask_traveler(t, "traveler.2", "Cho", taken={aki: "Aki", ben: "Ben"})
    assert (aki, ben, cho) == (tiles[1], tiles[2], tiles[3])


def test_a_refused_shimoda_street_keeps_the_line_and_selects_the_bad_space() -> None:
    from companion.kits.shimoda.flow import street_refusal

    wrong = street_refusal("yy b r kxp - bp y", "Aki")
    assert wrong == "Aki's street, space 4: unknown colour letter x (use b k r y p)"
    assert isinstance(wrong, Refusal) and wrong.span == (7, 10)
    short = street_refusal("yy b r kyp - bp", "Ben")
    assert isinstance(short, Refusal) and short.span == (15, 15)
    assert short.startswith("Ben's street: 6 spaces typed")
    assert street_refusal("yy b r kyp - bp y", "Aki") is None
    answer, _ = ask(
        "yy b r kxp - bp y\r" + "kyp\r",
        lambda t: t.text("street", "Street?", check=lambda text: street_refusal(text, "Aki")),
    )
    assert answer == "yy b r kyp - bp y"


def test_undo_at_the_table_offers_the_name_taken_back(db_path: Any) -> None:
    from tests.support.play_helpers import run, saved, sel, txt
    from tests.support.play_scripts import shibuya_keys

    start = sel(0) + txt("Aki") + txt("Ben")
    keys = sel(0) + txt("Aki") + txt(":undo") + txt("") + txt("Ben")  # Enter keeps "Aki"
    result = run(["play", "shibuya"], keys + shibuya_keys()[len(start) :])
    assert result.exit_code == 0, result.output
    [game] = saved(db_path)
    assert [p["name"] for p in game["score_file"]["players"]] == ["Aki", "Ben"]
