"""The end count by voice: how often each value is heard right, clean and in noise, and how fast.

Generates its corpus with Debian's festival (tests/support/voice_corpus.py):
each number row of each game's score pad, for tables of 2 to 5 names, said by
every festival voice here at four speeds and pitches; then the same sound with
white noise at 20 dB below the speech. Each design of the grammar is tried on it:

- ``pairs``: each value after its name ("Aki, 58. Ben, 60."), bounded by the field;
- ``numbers``: the values alone, in seat order ("58, 60."), bounded by the field;
- ``either``: the pairs' grammar that also takes every value alone in seat order,
  said as pairs; ``either: numbers said``: the same grammar, the values said alone;
- ``pairs 0-999``: pairs, but any number up to 999 (no bound from the field);
- ``one value``: each value said alone, for one seat at a time (one utterance each).

Prints, per design: whole lines right and values right, clean and at 20 dB, and
the time from the end of the sound to the filled line (the decoder's last
step and the reading, after the sound was fed as it came). The microphone adds
its wait for silence (``companion.voice.microphone.QUIET``) to that.

Run: ``.venv/bin/python benchmarks/voice.py [--tables 2] [--designs pairs,numbers]``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.voice import Question
from companion.voice.recognizer import CHUNK, Listening, decoder
from tests.support.voice_corpus import (
    Line,
    have_festival,
    lines,
    noisy,
    pcm_of,
    speak_all,
    variants,
    with_silence,
)

DESIGNS = ("pairs", "numbers", "either", "either: numbers said", "pairs 0-999", "one value")
SNR = 20.0


def heard(question: Question, pcm: bytes) -> tuple[dict[int, str], float]:
    """The values heard, and the seconds from the end of the sound to them."""
    listening = Listening(question)
    for start in range(0, len(pcm), CHUNK * 2):
        listening.feed(pcm[start : start + CHUNK * 2])
    result = listening.end()
    return dict(result.values), result.seconds


def utterances(design: str, line: Line) -> list[tuple[str, Question, dict[int, str]]]:
    """What is said for a line in a design: (text, question, the values expected)."""
    expected = {seat: str(v) for seat, v in enumerate(line.values)}
    if design == "one value":
        return [
            (f"{v}.", Question(line.names, (seat,), line.low, line.high), {seat: str(v)})
            for seat, v in enumerate(line.values)
        ]
    grammar_design = design.split(":")[0] if design.startswith(("numbers", "either")) else "pairs"
    spoken = "numbers" if design in ("numbers", "either: numbers said") else "pairs"
    high = 999 if design == "pairs 0-999" else line.high
    question = Question(line.names, low=line.low, high=high, design=grammar_design)
    return [(line.text(spoken), question, expected)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=2, help="tables per game (default 2)")
    parser.add_argument("--designs", default=",".join(DESIGNS), help="designs to try")
    parser.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "voice-corpus")
    parser.add_argument("--misses", action="store_true", help="print every miss")
    args = parser.parse_args()
    if not have_festival():
        sys.exit("festival (text2wave) and a voice are needed: apt install festival")
    corpus = lines(tables=args.tables)
    said_by = variants()
    started = time.perf_counter()
    decoder()
    print(f"decoder loaded in {time.perf_counter() - started:.2f} s")
    print(
        f"{len(corpus)} score lines x {len(said_by)} ways of saying them "
        f"({', '.join(v.label for v in said_by)}); noise: white, {SNR:g} dB below the speech"
    )
    wanted = [
        (text, variant)
        for design in args.designs.split(",")
        for line in corpus
        for text, _, _ in utterances(design, line)
        for variant in said_by
    ]
    made = time.perf_counter()
    wavs = speak_all(list(dict.fromkeys(wanted)), args.cache)
    print(f"{len(wavs)} sound files ready in {time.perf_counter() - made:.0f} s")
    print()
    print(
        f"| design | clean: lines / values | {SNR:g} dB: lines / values "
        "| to the line: median / max |"
    )
    print("|---|---|---|---|")
    for design in args.designs.split(","):
        totals = {
            "clean": [0, 0, 0, 0],
            "noisy": [0, 0, 0, 0],
        }  # lines ok, lines, values ok, values
        times: list[float] = []
        misses: list[str] = []
        for n, line in enumerate(corpus):
            for k, variant in enumerate(said_by):
                for kind in ("clean", "noisy"):
                    got: dict[int, str] = {}
                    for text, question, _ in utterances(design, line):
                        pcm = with_silence(pcm_of(wavs[text, variant]))
                        if kind == "noisy":
                            pcm = noisy(pcm, SNR, seed=n * 100 + k)
                        values, seconds = heard(question, pcm)
                        got.update(values)
                        times.append(seconds)
                    expected = {seat: str(v) for seat, v in enumerate(line.values)}
                    right = sum(got.get(seat) == v for seat, v in expected.items())
                    total = totals[kind]
                    total[0] += right == len(expected)
                    total[1] += 1
                    total[2] += right
                    total[3] += len(expected)
                    if right < len(expected):
                        misses.append(f"  {kind} {variant.label}: said {line.values}, heard {got}")

        def share(ok: int, of: int) -> str:
            return f"{100 * ok / of:.1f} %"

        clean, dirty = totals["clean"], totals["noisy"]
        print(
            f"| {design} | {share(clean[0], clean[1])} / {share(clean[2], clean[3])} "
            f"| {share(dirty[0], dirty[1])} / {share(dirty[2], dirty[3])} "
            f"| {statistics.median(times):.2f} s / {max(times):.2f} s |",
            flush=True,
        )
        if args.misses:
            print("\n".join(misses))
    print(
        f"\n({clean[1]} lines and {clean[3]} values per column; "
        f"{time.perf_counter() - started:.0f} s in all)"
    )


if __name__ == "__main__":
    main()
