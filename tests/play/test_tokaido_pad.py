"""Tokaido's score pad marks what cannot be on one table: a tile twice, a fourth card."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from companion.kits.tokaido.flow import count_up
from companion.play.table import Table

NAMES = ["Aki", "Ben", "Cho", "Dai", "Eri"]


class Answers:
    """A prompter giving the answers it is handed, in order (and noting the questions)."""

    def __init__(self, answers: Sequence[str]) -> None:
        self.answers = list(answers)
        self.asked: list[str] = []

    def select(self, message: str, choices: Sequence[str], *args: Any, **kwargs: Any) -> str:
        self.asked.append(message)
        answer = self.answers.pop(0)
        assert answer in choices, (message, answer, choices)
        return answer

    def text(self, message: str, validate: Any, *args: Any, **kwargs: Any) -> str:
        self.asked.append(message)
        answer = self.answers.pop(0)
        assert validate(answer) is None, (message, answer, validate(answer))
        return answer


def counted(
    travelers: list[str], achievements: str, fixes: list[str]
) -> tuple[Any, list[str], Answers]:
    rows = [
        " ".join(str(40 + k) for k in range(len(travelers))),
        *([" ".join(["0"] * len(travelers))] * 5),
        achievements,
    ]
    prompter = Answers([*rows, "", *fixes, ""])  # Enter: ask every marked value again
    said: list[str] = []
    t = Table("tokaido", [], save=lambda *_: None, prompter=prompter, out=said.append)
    file = count_up(t, NAMES[: len(travelers)], travelers, {})
    assert prompter.answers == []
    return file, said, prompter


def test_a_fourth_achievement_card_is_marked_and_asked_again() -> None:
    tiles = ["Chuubei", "Hiroshige", "Kinko", "Satsuki", "Umegae"]
    file, said, prompter = counted(tiles, "1 0 1 1 1", ["1", "1", "1", "0"])
    pad = said[-2] if "do not fit" in said[-2] else next(s for s in said if "do not fit" in s)
    assert "1 !" in pad
    assert (
        "Aki · Panorama achievements, Cho · Panorama achievements, Dai · Panorama "
        "achievements, Eri · Panorama achievements: 4 panorama achievement cards in all on "
        "the pad (the box has 3)"
    ) in " ".join(pad.split())
    assert prompter.asked[7].startswith("Which marked value is wrong")
    assert prompter.asked[8:12] == [
        "Aki: panorama achievements?",
        "Cho: panorama achievements?",
        "Dai: panorama achievements?",
        "Eri: panorama achievements?",
    ]
    assert [p["panorama_achievements"] for p in file["players"]] == [1, 0, 1, 1, 0]


def test_a_traveller_twice_is_marked_on_both_holders() -> None:
    file, said, prompter = counted(["Mitsukuni", "Mitsukuni"], "0 0", ["Mitsukuni", "Kinko"])
    pad = next(s for s in said if "do not fit" in s)
    assert pad.count("Mitsukuni !") == 2
    assert "Mitsukuni is Aki's traveller too (one tile each)" in pad
    assert prompter.asked[7].startswith("Which marked value is wrong")
    assert prompter.asked[8:10] == ["Aki's traveller?", "Ben's traveller?"]
    assert [p["traveler"] for p in file["players"]] == ["Mitsukuni", "Kinko"]


def test_the_inn_and_the_count_both_ask_the_printed_meal_price() -> None:
    from companion.kits.tokaido.flow import COUNTS as FIELDS
    from companion.kits.tokaido.flow import GAINS

    inn = next(words for field, words, *_ in GAINS if field == "meal_cost")
    count = next(words for field, _, words, *_ in FIELDS if field == "meal_cost")
    assert inn.startswith("Printed price of the meal")
    assert count.startswith("Total printed price of meal cards")
    assert "as printed, even for Kinko" in inn and "as printed, even for Kinko" in count


def test_the_count_after_noted_stages_says_it_takes_the_whole_game() -> None:
    # The stage's notes take what was gained on it; the count right after takes totals.
    names = ["Aki", "Ben"]
    rows = ["40 41", "3 1", "9 7", "2 2", "1 0", "2 1", "0 0", ""]
    prompter = Answers(rows)
    t = Table("tokaido", [], save=lambda *_: None, prompter=prompter, out=lambda _: None)  # type: ignore[arg-type]
    count_up(t, names, ["Kinko", "Zen-emon"], {"souvenirs": [2, 2], "temple": [3, 1]})
    assert prompter.asked[:4] == [
        "Score track on arrival in Edo, in seat order (Aki Ben)?",
        "Coins in the temple area in all, the whole game (the stages noted are added up), "
        "in seat order (Aki Ben)?",
        "Total printed price of meal cards (as printed, even for Kinko), in seat order (Aki Ben)?",
        "Souvenir cards in all, the whole game (the stages noted are added up), "
        "in seat order (Aki Ben)?",
    ]


def test_noting_gains_stays_the_default_once_the_table_chose_it(db_path: Path) -> None:
    from tests.support.play_helpers import DOWN, UP, answers, run, txt
    from tests.support.play_scripts import tokaido

    script = tokaido(2)
    before = list(script.before)
    notes = [len(before) - 7, len(before) - 5, len(before) - 3, len(before) - 1]  # each inn's
    assert all(before[k] == txt("") for k in notes)
    gains = txt("0 0") * 5
    before[notes[0]] = UP + "\r" + gains  # Yes, from the No offered at the first inn
    before[notes[1]] = "\r" + gains  # Enter: Yes, as the table chose
    before[notes[2]] = DOWN + "\r"  # No, from the Yes offered
    before[notes[3]] = "\r"  # Enter: No, as the table chose last
    result = run(script.args, "".join(before + script.count))
    assert result.exit_code == 0, result.output
    said = dict(answers(db_path, 1))
    assert [said[f"inn{stage}.notes"] for stage in (1, 2, 3, 4)] == ["Yes", "Yes", "No", "No"]
