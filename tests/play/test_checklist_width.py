"""Set-up checklists wrap at whole words at the terminal's width (100 columns here)."""

from __future__ import annotations

import pytest

from companion.play.common import run_checklist
from companion.play.setup import checklist, offers
from companion.play.table import Table
from scorers import SCORERS


class Nothing:
    """A prompter for a checklist with every step done."""

    def text(self, *args: object, **kwargs: object) -> str:
        return ""


@pytest.mark.parametrize("columns", [100, 60])
@pytest.mark.parametrize("game", list(SCORERS))
def test_no_word_is_broken(game: str, columns: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", str(columns))
    players = SCORERS[game].info.player_counts[-1]
    said: list[str] = []
    t = Table(game, [], save=lambda *_: None, prompter=Nothing(), out=said.append)  # type: ignore[arg-type]
    run_checklist(t, game, players)
    shown = "\n".join(said).split("\n")
    assert all(len(line) < columns for line in shown), [s for s in shown if len(s) >= columns]
    steps = checklist(game, players)
    body = " ".join(line.strip() for line in shown[1:])
    offered = offers(game)
    mark = " (the companion offers to do this next)"
    expected = " ".join(
        f"{k}. {' '.join(step.split())}{mark if k - 1 in offered else ''}"
        for k, step in enumerate(steps, 1)
    )
    assert body == expected


def test_a_step_number_in_other_digits_is_refused_not_a_traceback() -> None:
    class Superscript(Nothing):
        def __init__(self) -> None:
            self.answers = ["²", ""]
            self.refused: list[str] = []

        def text(self, message: str, validate: object, *args: object, **kwargs: object) -> str:
            answer = self.answers.pop(0)
            problem = validate(answer)  # type: ignore[operator]
            if problem:
                self.refused.append(problem)
                return self.text(message, validate)
            return answer

    prompter = Superscript()
    t = Table("tokaido", [], save=lambda *_: None, prompter=prompter, out=lambda _: None)  # type: ignore[arg-type]
    run_checklist(t, "tokaido", 3)
    assert prompter.refused == ["step numbers from 1 to 8, or Enter when all are done"]


@pytest.mark.parametrize("game", list(SCORERS))
def test_the_setup_command_wraps_at_whole_words(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from typer.testing import CliRunner

    from companion.cli.app import app

    monkeypatch.setenv("COLUMNS", "100")
    players = SCORERS[game].info.player_counts[0]
    result = CliRunner().invoke(app, ["setup", game, "-p", str(players), "--seed", "7"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert all(len(line) < 100 for line in lines), [s for s in lines if len(s) >= 100]
    steps = checklist(game, players)
    shown = " ".join(line.strip() for line in lines)
    for k, step in enumerate(steps, 1):
        assert f"{k}. {' '.join(step.split())}" in shown
