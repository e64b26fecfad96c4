"""Shogun: a winter fixed on the pad is checked against the supply, said only as it was typed."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.kits.shogun.flow import (
    FIX_PAD,
    KEEP_PAD,
    Fed,
    recheck_winter,
    supply,
    supply_problems,
)
from companion.play.table import Table

NAMES = ["Aki", "Ben"]


class Answers:
    def __init__(self, answers: Sequence[str]) -> None:
        self.answers = list(answers)
        self.asked: list[tuple[str, list[str]]] = []

    def select(self, message: str, choices: Sequence[str], *args: Any, **kwargs: Any) -> str:
        self.asked.append((message, list(choices)))
        answer = self.answers.pop(0)
        assert answer in choices
        return answer

    def text(self, message: str, *args: Any, **kwargs: Any) -> str:
        raise AssertionError(message)


def file(provinces: list[int]) -> dict[str, Any]:
    return {
        "game": "shogun",
        "year": 1,
        "players": [
            {
                "name": n,
                "regions": {"brown": {"provinces": p, "castles": 0, "temples": 0, "theaters": 0}},
            }
            for n, p in zip(NAMES, provinces, strict=True)
        ],
    }


def table(answers: Sequence[str]) -> tuple[Table, list[str], Answers]:
    said: list[str] = []
    prompter = Answers(answers)
    t = Table("shogun", [], save=lambda *_: None, prompter=prompter, out=said.append)  # type: ignore[arg-type]
    return t, said, prompter


def test_the_issue_s_fix_is_not_called_a_change_of_revolts() -> None:
    # Cho's case of the issue: 8 provinces with 6 rice, 1 revolt that took one province.
    # The pad now says 7: just what the revolt allowed, so nothing is said or offered.
    fed = [
        Fed(rice=6, held=8, lost=1, revolts=supply(2)[0]),
        Fed(rice=None, held=3, lost=0, revolts=0),
    ]
    t, said, prompter = table([])
    assert recheck_winter(t, 2, NAMES, [0, 0], fed, file([7, 3])) == file([7, 3])
    assert said == [] and prompter.asked == []
    # A revolt that was put down after all (8 on the pad) fits the rules too.
    assert supply_problems(NAMES, fed, file([8, 3])) == []


def test_more_lost_than_the_revolts_can_take_is_said_with_what_was_typed() -> None:
    fed = [Fed(rice=6, held=8, lost=1, revolts=1), Fed(rice=None, held=3, lost=0, revolts=0)]
    t, said, prompter = table([KEEP_PAD])
    assert recheck_winter(t, 2, NAMES, [0, 0], fed, file([5, 3])) == file([5, 3])
    assert said == [
        "The pad does not fit this winter's supply:\n"
        "Aki: the pad has 5 provinces, but 8 were typed for Aki before the revolts, and "
        "the 1 revolt takes one province at most: 7 at least."
    ]
    # Offered: correct the pad, or keep it; never to resolve revolts on the board.
    assert prompter.asked == [("Correct the pad, or keep it as it is?", [FIX_PAD, KEEP_PAD])]
    assert not any("board" in choice for _, choices in prompter.asked for choice in choices)


def test_a_pad_above_the_holding_names_the_typed_supply_and_claims_no_revolts() -> None:
    fed = [Fed(rice=5, held=5, lost=0, revolts=0), Fed(rice=None, held=3, lost=0, revolts=0)]
    assert supply_problems(NAMES, fed, file([7, 4])) == [
        "Aki: the pad has 7 provinces, more than the 5 typed before the revolts; this "
        "winter's supply was worked out from those 5 with 5 rice.",
        "Ben: the pad has 4 provinces, more than the 3 typed before the revolts; this "
        "winter's supply was worked out from those 3.",
    ]
    assert supply_problems(NAMES, fed, file([4, 3])) == [
        "Aki: the pad has 4 provinces, but 5 were typed for Aki before the revolts, and "
        "Aki had no revolt: 5 at least."
    ]
    for line in supply_problems(NAMES, fed, file([7, 4])):
        assert "revolts this winter" not in line and "resolved at the table" not in line


def test_a_game_saved_with_the_older_choice_still_replays() -> None:
    fed = [Fed(rice=6, held=8, lost=1, revolts=1), Fed(rice=None, held=3, lost=0, revolts=0)]
    events = [("y1.winter.recheck1", "Keep the pad as it is (the table has it right)")]
    t = Table("shogun", events, save=lambda *_: None, prompter=Answers([]), out=lambda _: None)  # type: ignore[arg-type]
    assert recheck_winter(t, 1, NAMES, [0, 0], fed, file([5, 3])) == file([5, 3])


class Chests(Answers):
    def text(self, message: str, *args: Any, **kwargs: Any) -> str:
        self.asked.append((message, []))
        return self.answers.pop(0)


def final(provinces: list[int]) -> dict[str, Any]:
    names = ["Aki", "Ben", "Cho"]
    return {
        "game": "shogun",
        "year": 2,
        "players": [
            {
                "name": n,
                "score_before": 10,
                "regions": {"red": {"provinces": p, "castles": 0, "temples": 0, "theaters": 0}},
            }
            for n, p in zip(names, provinces, strict=True)
        ],
    }


def test_war_chests_are_asked_only_of_equal_totals() -> None:
    from companion.kits.shogun.flow import ask_tie_break, tied_seats

    names = ["Aki", "Ben", "Cho"]
    assert tied_seats(final([3, 2, 1])) == []
    prompter = Chests([])
    t = Table("shogun", [], save=lambda *_: None, prompter=prompter, out=lambda _: None)  # type: ignore[arg-type]
    assert ask_tie_break(t, 2, names, final([3, 2, 1])) == final([3, 2, 1])
    assert prompter.asked == []
    assert tied_seats(final([2, 3, 2])) == [[0, 2]]
    prompter = Chests(["4 6"])
    t = Table("shogun", [], save=lambda *_: None, prompter=prompter, out=lambda _: None)  # type: ignore[arg-type]
    broken = ask_tie_break(t, 2, names, final([2, 3, 2]))
    assert prompter.asked == [
        ("Equal totals (Aki and Cho): war chests, the tie-break, of Aki Cho in that order?", [])
    ]
    assert [p.get("war_chests") for p in broken["players"]] == [4, None, 6]
    from scorers import SCORERS

    result = SCORERS["shogun"].score_json(broken).to_json()
    assert [p["rank"] for p in result["players"]] == [3, 1, 2]
