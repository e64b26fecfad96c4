"""The voice tests' spoken lines: made once per test session with festival, in a tmp folder."""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support.voice_corpus import Variant, have_festival, speak_all, variants

Speak = Callable[[str], Path]


@pytest.fixture(scope="session")
def said(tmp_path_factory: pytest.TempPathFactory) -> Speak:
    """Festival's first voice saying a text, as a 16 kHz WAV (made once per session)."""
    if not have_festival():
        pytest.skip("festival and a voice are needed (apt install festival)")
    if importlib.util.find_spec("pocketsphinx") is None:
        pytest.skip("pocketsphinx is needed (pip install 'companion[voice]')")
    folder = tmp_path_factory.mktemp("voice")
    voice: Variant = variants()[0]
    made: dict[str, Path] = {}

    def speak(text: str) -> Path:
        if text not in made:
            made[text] = speak_all([(text, voice)], folder)[text, voice]
        return made[text]

    return speak
