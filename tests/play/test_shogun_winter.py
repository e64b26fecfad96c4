"""Shogun's second winter through the real prompts: changes only, revolts as what they took.

The issue's case: typing ``b1`` ("brown is now 1") at the revolts question used
to drop the player's other regions without a word. It is refused now, the
same holding stays asked, and the game saved is the one played.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from companion.play.runner import flow_for
from companion.play.table import Table
from tests.support.play_helpers import answers, events, run, saved, txt
from tests.support.play_scripts import shogun

pytestmark = pytest.mark.slow


def second_winter(keys: list[str], at: int, typed: Sequence[str]) -> list[str]:
    """The 5-player end count with ``typed`` refused answers before answer ``at``."""
    changed = list(keys)
    changed[at] = "".join(txt(t) for t in typed) + changed[at]
    return changed


def test_b1_at_the_revolts_question_is_refused_and_drops_no_region(db_path: Path) -> None:
    script = shogun(5)
    plain = run(script.args, script.keys())
    assert plain.exit_code == 0, plain.output
    # Answer 6 of the end count is Cho's revolt question (after 5 holdings and the rice).
    assert script.count[6] == txt("y")
    # b1 and g1 are refused whole (each is one bad entry); "yy" keeps the line with
    # only its second y selected: a backspace drops it and "y" is taken. (Were the
    # whole line selected, the backspace would empty it and Cho would lose nothing.)
    count = second_winter(script.count, 6, ["b1", "g1", "yy"])
    count[6] = count[6].removesuffix(txt("y")) + txt("\x7f")
    slipped = run(script.args, "".join(script.before + count))
    assert slipped.exit_code == 0, slipped.output
    first, second = saved(db_path)
    assert second["score_file"] == first["score_file"]
    cho = second["score_file"]["players"][2]["regions"]
    assert cho == {
        "green": {"provinces": 4, "castles": 2, "temples": 0, "theaters": 0},
        "yellow": {"provinces": 1, "castles": 0, "temples": 0, "theaters": 0},
    }
    saved_answers = dict(answers(db_path, 2))
    assert saved_answers["y2.winter.taken.2"] == "y"
    assert saved_answers["y2.winter.rice"] == "c4"
    # Only Cho was short of rice: nobody else was asked about revolts, and no totals were
    # equal, so no war chests were asked.
    assert [k for k in saved_answers if ".taken." in k or "chests" in k or "tied" in k] == [
        "y2.winter.taken.2"
    ]


def test_a_whole_region_typed_at_the_changes_question_is_refused(db_path: Path) -> None:
    script = shogun(5)
    # Aki types b4 ("brown is now 4") where the question takes changes: refused, then bgc.
    count = second_winter(script.count, 0, ["b4"])
    result = run(script.args, "".join(script.before + count))
    assert result.exit_code == 0, result.output
    [game] = saved(db_path)
    aki = game["score_file"]["players"][0]["regions"]
    assert aki["brown"]["provinces"] == 4 and aki["yellow"]["provinces"] == 2
    assert dict(answers(db_path, 1))["y2.winter.changed.0"] == "bgc"


class Typist:
    """Types each live text answer after the refused ones, noting what each question said."""

    def __init__(self, typed: dict[str, list[str]]) -> None:
        self.typed = typed
        self.asked: list[str] = []
        self.refused: list[str] = []
        self.previews: list[str] = []

    def select(self, message: str, choices: Sequence[str], *args: Any, **kwargs: Any) -> str:
        raise AssertionError(message)

    def text(
        self,
        message: str,
        validate: Callable[[str], str | None],
        default: str,
        suggestions: Sequence[str],
        *,
        preview: Callable[[str], str] | None = None,
        **kwargs: Any,
    ) -> str:
        self.asked.append(message)
        attempts = next((v for k, v in self.typed.items() if message.startswith(k)), [""])
        for attempt in attempts:
            if preview is not None:
                self.previews.append(preview(attempt))
            problem = validate(attempt)
            if problem is None:
                return attempt
            self.refused.append(problem)
        raise AssertionError(f"nothing accepted at {message}")


def test_the_revolts_question_says_it_takes_changes_and_refuses_b1(
    db_path: Path, seeds: list[int]
) -> None:
    script = shogun(5)
    result = run(script.args, script.keys())
    assert result.exit_code == 0, result.output
    logged = events(db_path, 1)
    cut = next(k for k, (key, _) in enumerate(logged) if key == "y2.winter.taken.2")
    typist = Typist({"Cho: what did the 1 revolt take?": ["b1", "y"]})
    said: list[str] = []
    t = Table("shogun", logged[:cut], save=lambda *_: None, prompter=typist, out=said.append)
    outcome = flow_for("shogun", "play")(t)
    t.done()
    assert typist.asked[0] == (
        "Cho: what did the 1 revolt take? Only the provinces lost, e.g. r, or bc with its "
        "castle; Enter if put down"
    )
    assert typist.refused == [
        "Cho · b1: type what the revolts took, not what is left: b (a brown province)"
    ]
    assert typist.previews == [
        "  Cho · b1: type what the revolts took, not what is left: b (a brown province)",
        "  1 province lost: yellow 2→1 provinces | now y1000 g4200",
    ]
    assert [p["regions"] for p in outcome.score_file["players"]][2] == {
        "green": {"provinces": 4, "castles": 2, "temples": 0, "theaters": 0},
        "yellow": {"provinces": 1, "castles": 0, "temples": 0, "theaters": 0},
    }
