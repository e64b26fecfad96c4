"""The terminal's voice hooks, without sound: what is said back, when, and how it wraps."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import prompt_toolkit
import pytest

import companion.voice
from companion.cli import sessions as sessions_module
from companion.play.prompts import NO_VOICE, QuestionaryPrompter, how_to_say
from companion.voice import Heard, Question, read
from tests.support.play_helpers import CTRL_C, run, sel, txt

QUESTION = Question(("Aki", "Ben"), low=0, high=60)


@pytest.fixture
def shown(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The lines the prompter prints above the question."""
    printed: list[str] = []
    monkeypatch.setattr(prompt_toolkit, "print_formatted_text", lambda text: printed.append(text))
    return printed


def prompter(wav: Path | None = None) -> QuestionaryPrompter:
    return QuestionaryPrompter(lambda: None, voice_file=wav)


def test_what_was_heard_shows_the_tables_names_and_wraps_between_words(
    monkeypatch: pytest.MonkeyPatch, shown: list[str], tmp_path: Path
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setattr(companion.voice, "missing", lambda microphone=True: None)
    heard = read(QUESTION, "aki fifty eight ben sixty")
    monkeypatch.setattr(companion.voice, "hear_wav", lambda path, question: heard)
    line = prompter(tmp_path / "said.wav")._listening(QUESTION)
    assert line == "58 60"
    assert shown == [
        "Heard: Aki fifty-eight, Ben sixty. Check the line, change what is wrong, then\n  Enter."
    ]


def test_without_a_microphone_only_the_missing_part_is_said(
    monkeypatch: pytest.MonkeyPatch, shown: list[str]
) -> None:
    monkeypatch.setenv("COLUMNS", "100")
    problem = "the microphone needs PortAudio: apt install libportaudio2"
    monkeypatch.setattr(companion.voice, "missing", lambda microphone=True: problem)
    assert prompter()._listening(QUESTION) is None
    assert shown == [f"Voice: {problem}"]


def test_nothing_that_fits_says_how_to_say_the_count_with_the_tables_names(
    monkeypatch: pytest.MonkeyPatch, shown: list[str], tmp_path: Path
) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.setattr(companion.voice, "missing", lambda microphone=True: None)
    heard = Heard("aki", {})
    monkeypatch.setattr(companion.voice, "hear_wav", lambda path, question: heard)
    assert prompter(tmp_path / "said.wav")._listening(QUESTION) is None
    assert shown == [
        "Voice: heard nothing that fits (Aki); say each name before its value "
        "(Aki 12, Ben 9), or type it"
    ]
    assert how_to_say(Question(("Aki", "Ben"), low=0, high=5)) == (
        "say each name before its value (Aki 5, Ben 5), or type it"
    )
    assert how_to_say(Question(("Aki", "Ben"), (1,), high=5)) == "speak again or type it"


def test_say_where_voice_is_not_offered_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    checks: list[Any] = []

    class Asked:
        def __init__(self, message: str, validate: Any, **kwargs: Any) -> None:
            checks.append(validate)
            self.application = None

        def unsafe_ask(self) -> str:
            return "3"

    import companion.play.prompts as prompts

    monkeypatch.setattr(prompts.questionary, "text", Asked)
    monkeypatch.setattr(prompts, "one_refusal", lambda question, preview: None)
    monkeypatch.setattr(prompts, "select_all", lambda question, default: None)
    monkeypatch.setattr(prompts, "line_keys", lambda question: None)
    answer = prompter().text("How many?", lambda text: "type a whole number, like 3", "", ())
    assert answer == "3"
    assert checks[0].check(":say") == NO_VOICE
    assert checks[0].check("3") == "type a whole number, like 3"
    assert NO_VOICE == "voice is offered at the end count only: type the answer"


def test_resume_takes_a_voice_file_and_hears_it(
    db_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    stopped = run(["play", "shibuya"], sel(0) + txt("Aki") + CTRL_C)
    assert stopped.exit_code == 130
    wav = tmp_path / "count.wav"
    wav.write_bytes(b"RIFF")
    handed: list[Any] = []
    monkeypatch.setattr(
        sessions_module, "drive", lambda session, **kwargs: handed.append(kwargs["voice_file"])
    )
    resumed = run(["resume", "--voice-file", str(wav)], "")
    assert resumed.exit_code == 0, resumed.output
    assert handed == [wav]
