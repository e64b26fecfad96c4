"""Shogun: a winter fixed on the pad has its supply worked out again, said plainly."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.kits.shogun.flow import SUPPLY, Fed, recheck_winter, supply
from companion.play.table import Table

NAMES = ["Aki", "Ben"]
KEEP = "Keep the pad as it is (the table has it right)"


class Answers:
    def __init__(self, answers: Sequence[str]) -> None:
        self.answers = list(answers)
        self.asked: list[str] = []

    def select(self, message: str, choices: Sequence[str], *args: Any, **kwargs: Any) -> str:
        self.asked.append(message)
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


def test_a_fix_that_changes_the_revolts_is_said_plainly() -> None:
    # Aki was fed (5 provinces, 5 rice); the pad now says 7 provinces: 2 short.
    fed = [Fed(rice=5, held=5, lost=0, revolts=0), Fed(rice=3, held=3, lost=0, revolts=0)]
    t, said, prompter = table([KEEP])
    kept = recheck_winter(t, 1, NAMES, [0, 0], fed, file([7, 3]))
    assert kept == file([7, 3])
    revolts = supply(2)[0]
    assert said[-1] == (
        "The corrected pad changes this winter's revolts:\n"
        f"Aki: with the pad's values Aki held 7 provinces with 5 rice, so {revolts} revolt"
        f"{'' if revolts == 1 else 's'} this winter, not the 0 resolved at the table."
    )
    assert prompter.asked == [
        "Resolve the difference on the board and correct the pad, or keep the pad?"
    ]


def test_the_same_revolts_say_nothing() -> None:
    fed = [
        Fed(rice=5, held=7, lost=1, revolts=supply(2)[0]),
        Fed(rice=3, held=3, lost=0, revolts=0),
    ]
    t, said, prompter = table([])
    # Aki lost one province in the revolts: 6 on the pad, 7 before them, as resolved.
    assert recheck_winter(t, 1, NAMES, [0, 0], fed, file([6, 3])) == file([6, 3])
    assert said == [] and prompter.asked == []
    assert len(SUPPLY) > 2
