"""Start-up cost of the companion, in CPU time (user + system of the child).

Two comparisons, each as interleaved cold runs, medians quoted:

- ``score GAME --input FILE --json --no-save`` against a minimal typer program
  that reads the same file and prints it as JSON (target: at most 1.0x);
- ``rules search "…"`` with its index already built, against ``python -c pass``
  (target: at most 3x).

``companion --help`` against the minimal program is printed too, without a
target. Wall times are shown beside the CPU times (not judged: on a busy
machine they wander). The targets live here only, never in a timed test.

Usage: ``.venv/bin/python benchmarks/startup.py [--runs N]``
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import compile_project

EXAMPLE = Path(__file__).resolve().parent.parent / "tests" / "files" / "tokaido-final.json"
QUERY = "what if two players tie for most castles"

MINIMAL = '''
import json
from pathlib import Path
from typing import Annotated

import typer

app = typer.Typer(add_completion=False)


@app.callback()
def root() -> None:
    """A minimal app."""


@app.command()
def score(game: str, input: Annotated[str, typer.Option("--input")]) -> None:
    """Read a file and print it as JSON."""
    print(json.dumps(json.loads(Path(input).read_text())))


app()
'''

TARGETS: dict[str, float | None] = {"score": 1.0, "rules search": 3.0, "--help": None}


def cpu_timed(command: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one run of ``command``: user + system of the child."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, env=env)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=21)
    args = parser.parse_args()
    companion = Path(sys.executable).parent / "companion"
    if not companion.exists():
        print(f"no companion script beside {sys.executable}; run from the project's venv")
        return 1
    compile_project()
    with tempfile.TemporaryDirectory() as folder:
        minimal = Path(folder) / "minimal.py"
        minimal.write_text(MINIMAL)
        env = {**os.environ, "XDG_CACHE_HOME": str(Path(folder) / "cache")}
        score = ["score", "tokaido", "--input", str(EXAMPLE)]
        pairs = {
            "score": (
                [str(companion), *score, "--json", "--no-save"],
                [sys.executable, str(minimal), *score],
                "minimal typer",
            ),
            "rules search": (
                [str(companion), "rules", "search", QUERY],
                [sys.executable, "-c", "pass"],
                "python -c pass",
            ),
            "--help": (
                [str(companion), "--help"],
                [sys.executable, str(minimal), "--help"],
                "minimal typer",
            ),
        }
        runs: dict[str, tuple[list[tuple[float, float]], list[tuple[float, float]]]] = {
            name: ([], []) for name in pairs
        }
        for ours, theirs, _ in pairs.values():  # warm the file cache, build the index
            cpu_timed(ours, env)
            cpu_timed(theirs, env)
        for _ in range(args.runs):
            for name, (ours, theirs, _) in pairs.items():
                runs[name][0].append(cpu_timed(ours, env))
                runs[name][1].append(cpu_timed(theirs, env))
    failed = False
    for name, (ours, theirs) in runs.items():
        cpu_a = statistics.median(c for c, _ in ours)
        cpu_b = statistics.median(c for c, _ in theirs)
        wall_a = statistics.median(w for _, w in ours)
        wall_b = statistics.median(w for _, w in theirs)
        ratio = cpu_a / cpu_b
        target = TARGETS[name]
        verdict = ""
        if target is not None:
            ok = ratio <= target
            failed |= not ok
            verdict = f" (target <= {target}) {'ok' if ok else 'OVER'}"
        print(
            f"{name:12} CPU {cpu_a * 1000:5.1f} ms vs {cpu_b * 1000:5.1f} ms "
            f"({pairs[name][2]}): ratio {ratio:.2f}{verdict}; "
            f"wall {wall_a * 1000:.1f} / {wall_b * 1000:.1f} ms"
        )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
