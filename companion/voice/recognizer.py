"""pocketsphinx, fed 16-bit mono sound, with the grammar of one question.

Imported only when something is heard: pocketsphinx (``companion[voice]``) is
loaded then, never when the companion starts. One decoder is kept for the
process (loading the English model takes about half a second).
"""

from __future__ import annotations

import array
import time
import wave
from functools import cache
from pathlib import Path
from typing import Any

from companion.voice.grammar import Heard, Question, grammar, read

RATE = 16000
"""The rate the English model is made for."""
GRAMMAR_WEIGHT = 3.0
"""How much the grammar counts against the sound (pocketsphinx's ``lw``; 6.5 by default).

Measured with benchmarks/voice.py (pairs, values right at 20 dB): 85.5 % at 10,
89.8 % at 6.5, 90.8 % at 4, 91.1 % at 3, 90.8 % at 2; clean, 98.7 % at 6.5, 4 and 3.
"""
CHUNK = 2048
"""Samples fed to the decoder at a time (as a microphone would give them)."""


@cache
def decoder() -> Any:
    """The process's decoder: the English model and dictionary, no language model.

    No second pass over the lattice (``bestpath``): with a grammar of a few hundred
    numbers it took seconds after the end of speech and heard no better. The
    cepstral mean is taken over the whole utterance (``batch``), not carried over
    from the one before: in noise that was the difference between a value in four
    heard right and nine in ten (docs/voice.md). The grammar's weight against the
    sound (``lw``) is :data:`GRAMMAR_WEIGHT`, below pocketsphinx's 6.5.
    """
    from pocketsphinx import Decoder

    return Decoder(
        lm=None,
        loglevel="FATAL",
        samprate=RATE,
        bestpath=False,
        cmn="batch",
        lw=GRAMMAR_WEIGHT,
    )


def resample(pcm: bytes, rate: int) -> bytes:
    """16-bit mono ``pcm`` at ``rate`` as 16 kHz (linear between the samples)."""
    if rate == RATE:
        return pcm
    if rate <= 0:
        raise ValueError(f"a sample rate must be positive, not {rate}")
    samples = array.array("h")
    samples.frombytes(pcm[: len(pcm) - len(pcm) % 2])
    if not samples:
        return b""
    out = array.array("h")
    step = rate / RATE
    last = len(samples) - 1
    position = 0.0
    while position <= last:
        k = int(position)
        fraction = position - k
        after = samples[min(k + 1, last)]
        out.append(round(samples[k] + (after - samples[k]) * fraction))
        position += step
    return out.tobytes()


class Listening:
    """One utterance for a question: its sound kept as it comes, decoded at its end.

    Args:
        question: What is asked (its grammar is set up at once).
    """

    def __init__(self, question: Question) -> None:
        self.question = question
        made = grammar(question)
        d = decoder()
        for word, phones in made.words.items():
            if d.lookup_word(word) is None:
                d.add_word(word, phones, True)
        d.add_jsgf_string("count", made.jsgf)
        d.activate_search("count")
        self.d = d
        self.sound = bytearray()

    def feed(self, pcm: bytes) -> None:
        """Some more 16 kHz sound."""
        self.sound += pcm

    def end(self) -> Heard:
        """The end of the sound: what was heard, timed from here to the values.

        The whole utterance is decoded now, so that its cepstral mean is its own,
        and the feature extraction starts afresh (its estimate of the noise was
        carried over from the utterance before: a clean line after a noisy one,
        or the other way round, was heard worse; docs/voice.md).
        """
        start = time.perf_counter()
        self.d.reinit_feat()  # nothing carried over from the utterance before (its noise)
        self.d.start_utt()
        self.d.process_raw(bytes(self.sound), False, True)
        self.d.end_utt()
        hyp = self.d.hyp()
        words = hyp.hypstr if hyp is not None else ""
        heard = read(self.question, words)
        return Heard(heard.words, heard.values, time.perf_counter() - start)


def hear(pcm: bytes, sample_rate: int, question: Question) -> Heard:
    """What 16-bit mono ``pcm`` at ``sample_rate`` says for ``question``."""
    sound = resample(pcm, sample_rate)
    listening = Listening(question)
    size = CHUNK * 2
    for start in range(0, len(sound), size):
        listening.feed(sound[start : start + size])
    return listening.end()


def read_wav(path: str | Path) -> tuple[bytes, int]:
    """A WAV file's 16-bit sound as mono (the first channel) and its rate.

    Raises:
        ValueError: It is not a 16-bit PCM WAV file.
    """
    try:
        with wave.open(str(path), "rb") as w:
            if w.getsampwidth() != 2:
                raise ValueError(f"{path}: not 16-bit sound")
            channels, rate = w.getnchannels(), w.getframerate()
            frames = w.readframes(w.getnframes())
    except (wave.Error, EOFError) as error:
        raise ValueError(f"{path}: not a WAV file ({error})") from error
    if channels > 1:
        samples = array.array("h")
        samples.frombytes(frames)
        frames = samples[::channels].tobytes()
    return frames, rate


def hear_wav(path: str | Path, question: Question) -> Heard:
    """What a WAV file says for ``question``."""
    pcm, rate = read_wav(path)
    return hear(pcm, rate, question)
