"""Startup cost of the companion compared with a minimal typer program.

Runs 15 interleaved cold runs of each command and of its minimal-typer twin,
then prints the median wall times and their ratio. Targets: ``--help`` at most
1.2x the minimal app, ``score ... --json --no-save`` at most 1.3x.

Usage: ``.venv/bin/python benchmarks/startup.py [--runs N]``
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

from _common import compile_project, timed

EXAMPLE = Path(__file__).resolve().parent.parent / "tests" / "files" / "tokaido-final.json"

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

TARGETS = {"--help": 1.2, "score": 1.3}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    companion = Path(sys.executable).parent / "companion"
    if not companion.exists():
        print(f"no companion script beside {sys.executable}; run from the project's venv")
        return 1
    compile_project()
    with tempfile.TemporaryDirectory() as folder:
        minimal = Path(folder) / "minimal.py"
        minimal.write_text(MINIMAL)
        pairs = {
            "--help": ([str(companion), "--help"], [sys.executable, str(minimal), "--help"]),
            "score": (
                [
                    str(companion),
                    "score",
                    "tokaido",
                    "--input",
                    str(EXAMPLE),
                    "--json",
                    "--no-save",
                ],
                [sys.executable, str(minimal), "score", "tokaido", "--input", str(EXAMPLE)],
            ),
        }
        times: dict[str, tuple[list[float], list[float]]] = {k: ([], []) for k in pairs}
        for ours, theirs in pairs.values():  # warm the file cache once
            timed(ours)
            timed(theirs)
        for _ in range(args.runs):
            for name, (ours, theirs) in pairs.items():
                times[name][0].append(timed(ours))
                times[name][1].append(timed(theirs))
    failed = False
    for name, (ours, theirs) in times.items():
        a, b = statistics.median(ours), statistics.median(theirs)
        ratio = a / b
        ok = ratio <= TARGETS[name]
        failed |= not ok
        print(
            f"{name:7} companion {a * 1000:6.1f} ms  minimal typer {b * 1000:6.1f} ms  "
            f"ratio {ratio:.2f} (target <= {TARGETS[name]}) {'ok' if ok else 'OVER'}"
        )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
