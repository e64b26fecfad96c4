"""Cold start of ``companion rules search`` against ``companion --help``.

Runs interleaved cold runs of both with the index already built and prints the
median ratio (target <= 1.3), then the time of a first search that has to build
the index in an empty cache.

Usage: ``.venv/bin/python benchmarks/rules_search.py [--runs N]``
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path

from _common import compile_project, timed

QUERIES = ["inn meal", "what if two players tie for most castles", "souvenier"]
TARGET = 1.3


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    compile_project()
    companion = str(Path(sys.executable).parent / "companion")
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "XDG_CACHE_HOME": cache}
        first = timed([companion, "rules", "search", QUERIES[0]], env)
        searches: list[float] = []
        helps: list[float] = []
        for k in range(args.runs):
            searches.append(timed([companion, "rules", "search", QUERIES[k % len(QUERIES)]], env))
            helps.append(timed([companion, "--help"], env))
    ratio = statistics.median(searches) / statistics.median(helps)
    print(
        f"search {statistics.median(searches) * 1000:.1f} ms, --help "
        f"{statistics.median(helps) * 1000:.1f} ms: ratio {ratio:.2f} (target <= {TARGET}) "
        f"{'ok' if ratio <= TARGET else 'OVER'}"
    )
    print(f"first search, building the index: {first * 1000:.0f} ms")
    return 0 if ratio <= TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
