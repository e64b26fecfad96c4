"""The end count by voice, offline: pocketsphinx with a grammar built for the question.

Nothing here loads pocketsphinx until something is heard, so ``companion --help``
stays instant; the extra ``companion[voice]`` brings it (and ``sounddevice`` for
the microphone, which needs Debian's ``libportaudio2``).

- :class:`Question`: what is asked (the table's names, the seats asked, the
  field's bounds, whether it takes entry codes); :func:`grammar` its JSGF.
- :func:`hear` / :func:`hear_wav`: 16-bit mono sound → :class:`Heard` (the words,
  and the values per seat as the answer line and the pad's cells take them).
- :func:`listen`: from the microphone, until the speaker stops.
- :func:`missing`: one line saying what voice lacks here, or ``None``.

What is heard only ever fills an answer for the table to read and confirm; it is
never saved on its own.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from companion.voice.grammar import (
    DESIGN,
    DESIGNS,
    Grammar,
    Heard,
    Question,
    grammar,
    question_for,
    read,
)

if TYPE_CHECKING:
    from companion.voice.microphone import Microphone

__all__ = [
    "DESIGN",
    "DESIGNS",
    "Grammar",
    "Heard",
    "Question",
    "grammar",
    "hear",
    "hear_wav",
    "listen",
    "missing",
    "question_for",
    "read",
]

EXTRA = "voice needs the extra: pip install 'companion[voice]'"


def missing(microphone: bool = True) -> str | None:
    """What voice lacks here, in one line, or ``None`` when it can listen.

    Args:
        microphone: Whether a microphone is needed too (not for a WAV file).
    """
    from importlib.util import find_spec

    if find_spec("pocketsphinx") is None:
        return EXTRA
    if not microphone:
        return None
    from companion.voice.microphone import microphone_missing

    return microphone_missing()


def hear(pcm: bytes, sample_rate: int, question: Question) -> Heard:
    """What 16-bit mono ``pcm`` at ``sample_rate`` says for ``question`` (resampled to 16 kHz)."""
    from companion.voice.recognizer import hear as heard

    return heard(pcm, sample_rate, question)


def hear_wav(path: str | Path, question: Question) -> Heard:
    """What a 16-bit WAV file says for ``question``.

    Raises:
        ValueError: The file is not a 16-bit PCM WAV file.
    """
    from companion.voice.recognizer import hear_wav as heard

    return heard(path, question)


def listen(question: Question, microphone: Microphone | None = None) -> Heard:
    """What the microphone hears for ``question``, until the speaker stops.

    Raises:
        RuntimeError: Voice cannot listen here (:func:`missing` says why).
    """
    from companion.voice.microphone import Microphone

    return (microphone or Microphone()).hear(question)
