"""What the explanation adds to ``companion score``: its imports, the sentences and their printing.

``companion score GAME --input FILE`` prints why the game was won below the
table. Target: that adds under 5 ms to the command. A difference of 5 ms
between two runs of the whole command drowns in the noise of process start-up,
so this measures the addition itself, in a fresh interpreter each time: with
everything the table needs already imported (the CLI, rich, the scorers) and
the table printed, the seconds from importing :mod:`companion.analysis.explain` to the
explanation printed, for
every example score file. The median of 15 interpreters per file, and the
slowest file, are reported (a first run writes the bytecode and is not
counted). The command's own wall time, with the explanation, is shown for scale.

Usage: ``.venv/bin/python benchmarks/score_explained.py [--runs N]``
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

from _common import ROOT, compile_project, timed

TARGET_MS = 5.0
FILES = [
    *sorted((ROOT / "examples").glob("*.json")),
    ROOT / "tests" / "files" / "shibuya-teams.json",
]

MEASURE = """
import io, json, sys, time
import companion.cli.app, companion.terminal.results, scorers
from companion.terminal.safe_text import console
from companion.terminal.results import print_clean, result_table
from scorers import find_game
text = open(sys.argv[1], encoding="utf-8").read()
game = json.loads(text)["game"]
document = find_game(game).score_json(json.loads(text)).to_json()
out = console()
out.file = io.StringIO()
print_clean(result_table(document, title=game), out)  # the command prints this first
start = time.perf_counter()
from companion.analysis.explain import explain_result
from companion.terminal.results import after_game
print_clean(after_game(explain_result(document, text)), out)
print(time.perf_counter() - start)
"""


def added(path: Path) -> float:
    """Seconds the explanation of ``path`` takes in a fresh interpreter."""
    done = subprocess.run(
        [sys.executable, "-c", MEASURE, str(path)],
        check=True,
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    return float(done.stdout)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    compile_project()
    companion = str(Path(sys.executable).parent / "companion")
    worst = 0.0
    for path in FILES:
        added(path)  # bytecode, file cache
        ms = statistics.median(added(path) for _ in range(args.runs)) * 1000
        worst = max(worst, ms)
        whole = statistics.median(
            timed([companion, "score", _game(path), "-i", str(path), "--no-save"]) for _ in range(3)
        )
        print(f"{path.name:22} +{ms:5.2f} ms  (the whole command: {whole * 1000:5.0f} ms)")
    ok = worst < TARGET_MS
    print(f"slowest +{worst:.2f} ms (target < {TARGET_MS:g} ms) {'ok' if ok else 'OVER'}")
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    return 0 if ok else 1


def _game(path: Path) -> str:
    import json

    return str(json.loads(path.read_text())["game"])


if __name__ == "__main__":
    sys.exit(main())
