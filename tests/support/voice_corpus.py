"""Spoken score lines made with Debian's festival, for the voice tests and benchmark.

Every score line of every game is the row of a number field of its score pad
(the kit's description, bounds from the scorer), said for a table of names:
``Aki, 58. Ben, 60.`` (names and numbers) or ``58, 60.`` (numbers in seat
order). Festival's voices here are few (Debian ships ``kal_diphone``), so the
lines are said by each voice present at several speeds and pitches; noise is
mixed in with numpy at a chosen signal-to-noise ratio.
"""

from __future__ import annotations

import hashlib
import os
import random
import shutil
import subprocess
import wave
from dataclasses import dataclass
from pathlib import Path

TABLES = (
    ("Aki", "Ben", "Cho", "Dana", "Eli"),
    ("Mia", "Tom", "Sara", "Kenji", "Lena"),
    ("Omar", "Yuki", "Paul", "Nora", "Ravi"),
)


@dataclass(frozen=True)
class Variant:
    """How festival says a line: its voice, speed (duration stretch) and pitch (mean Hz)."""

    voice: str
    stretch: float
    pitch: int

    @property
    def label(self) -> str:
        """``kal ×1.2 95 Hz``."""
        return f"{self.voice} x{self.stretch:g} {self.pitch} Hz"


def voices() -> list[str]:
    """The festival voices installed here (``kal_diphone``...)."""
    root = Path("/usr/share/festival/voices")
    return sorted(p.name for p in root.glob("*/*") if p.is_dir())


def variants() -> list[Variant]:
    """Each voice at four speeds and pitches."""
    return [
        Variant(voice, stretch, pitch)
        for voice in voices()
        for stretch, pitch in ((1.0, 105), (1.2, 95), (0.85, 140), (1.0, 180))
    ]


def have_festival() -> bool:
    """Whether festival and a voice are here."""
    return shutil.which("festival") is not None and bool(voices())


@dataclass(frozen=True)
class Line:
    """One score line: a row of a game's pad for a table, with the values said.

    Attributes:
        game: The game id.
        row: The pad row's id.
        names: The table's names in seat order.
        values: The value of each seat.
        low: The field's least value.
        high: Its most value.
    """

    game: str
    row: str
    names: tuple[str, ...]
    values: tuple[int, ...]
    low: int
    high: int

    def text(self, design: str) -> str:
        """The words to say: ``Aki, 58. Ben, 60.`` (pairs) or ``58, 60.`` (numbers)."""
        if design == "pairs":
            return " ".join(f"{n}, {v}." for n, v in zip(self.names, self.values, strict=True))
        return ", ".join(str(v) for v in self.values) + "."


def lines(seed: int = 37, tables: int = 2) -> list[Line]:
    """Each number row of each game's pad, said for ``tables`` tables of 2 to 5 players.

    The values are drawn in the row's bounds; one value of each line is at a bound
    when the row's last table is said, so the ends of the range are heard too.
    """
    from companion.kits import KITS, PadOptions
    from scorers import SCORERS

    draw = random.Random(seed)
    found: list[Line] = []
    for game, scorer in SCORERS.items():
        counts = scorer.info.player_counts
        for k in range(tables):
            count = counts[(k * 7 + len(found)) % len(counts)]
            names = TABLES[(k + len(found)) % len(TABLES)][:count]
            spec = KITS[game].pad(PadOptions(count, names))
            for row in spec.player_rows:
                if row.kind != "number" or row.high is None:
                    continue
                values = [draw.randint(row.low, row.high) for _ in names]
                if k == tables - 1:
                    values[draw.randrange(count)] = draw.choice((row.low, row.high))
                found.append(Line(game, row.id, names, tuple(values), row.low, row.high))
    return found


def _path(text: str, variant: Variant, folder: Path) -> Path:
    tag = hashlib.sha256(f"{variant}|{text}".encode()).hexdigest()[:16]
    return folder / f"{tag}.wav"


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def speak_all(wanted: list[tuple[str, Variant]], folder: Path) -> dict[tuple[str, Variant], Path]:
    """16 kHz WAVs of festival saying each text in its way, made once (kept in ``folder``).

    The ones not made yet are made by one festival process (its start-up is most
    of the time of one short line).
    """
    folder.mkdir(parents=True, exist_ok=True)
    paths = {item: _path(*item, folder) for item in wanted}
    script = []
    for (text, variant), path in paths.items():
        if path.exists():
            continue
        part = path.with_suffix(".part.wav")
        script.append(
            f"(voice_{variant.voice})"
            f"(Parameter.set 'Duration_Stretch {variant.stretch})"
            f"(set! int_lr_params '((target_f0_mean {variant.pitch}) (target_f0_std 15)"
            " (model_f0_mean 170) (model_f0_std 34)))"
            f"(utt.save.wave (utt.synth (Utterance Text {_quoted(text)}))"
            f" {_quoted(str(part))} 'riff)"
        )
    if script:
        batch = folder / f"batch-{os.getpid()}.scm"
        batch.write_text("\n".join(script) + "\n")
        try:
            subprocess.run(
                ["festival", "-b", str(batch)],
                check=True,
                capture_output=True,
                timeout=60 + 10 * len(script),
            )
        finally:
            batch.unlink()
        for path in paths.values():
            part = path.with_suffix(".part.wav")
            if part.exists():
                _resampled(part).rename(path)
    return paths


def _resampled(path: Path) -> Path:
    """Festival's WAV as 16 kHz mono (kal says 16 kHz already; others may not)."""
    with wave.open(str(path), "rb") as w:
        rate = w.getframerate()
    if rate == 16000:
        return path
    from companion.voice.recognizer import resample

    with wave.open(str(path), "rb") as w:
        pcm = resample(w.readframes(w.getnframes()), rate)
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(16000)
        w.writeframes(pcm)
    return path


def speak(text: str, variant: Variant, folder: Path) -> Path:
    """A 16 kHz WAV of festival saying ``text`` (made once: kept in ``folder``)."""
    return speak_all([(text, variant)], folder)[text, variant]


def pcm_of(path: Path) -> bytes:
    """A 16-bit mono WAV file's samples."""
    with wave.open(str(path), "rb") as w:
        return w.readframes(w.getnframes())


def noisy(pcm: bytes, snr_db: float, seed: int) -> bytes:
    """``pcm`` with white noise mixed in at ``snr_db`` below the speech's level.

    The speech's level is that of its active samples (those above 1 % of the
    loudest), not of the whole file with its silences: the noise is as loud
    against the voice as the ratio says.
    """
    import numpy as np

    speech = np.frombuffer(pcm, dtype=np.int16).astype(np.float64)
    active = speech[np.abs(speech) > 0.01 * np.abs(speech).max()]
    power = float(np.mean(active**2)) if active.size else 1.0
    noise = np.random.default_rng(seed).normal(
        0.0, np.sqrt(power / 10 ** (snr_db / 10)), speech.size
    )
    mixed = np.clip(speech + noise, -32768, 32767)
    return mixed.astype(np.int16).tobytes()


def with_silence(pcm: bytes, seconds: float = 0.3) -> bytes:
    """``pcm`` with ``seconds`` of silence before and after (as a microphone hears a count)."""
    pad = b"\x00\x00" * int(16000 * seconds)
    return pad + pcm + pad
