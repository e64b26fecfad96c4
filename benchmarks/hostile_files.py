"""Hostile score files are answered within a second, with little memory.

Runs the real ``companion score tokaido --input FILE`` on each hostile input
and reports its wall time and peak memory (the process's maximum resident set
size). Targets: < 1 s and < 64 MB each, start-up included, exit 2, nothing
saved.

Usage: ``.venv/bin/python benchmarks/hostile_files.py``
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable, Iterator
from pathlib import Path

from _common import ROOT, compile_project

TIME_TARGET = 1.0
MEMORY_TARGET_MB = 64
MB = 1_000_000


def repeated(head: str, item: str, count: int, tail: str) -> Iterator[str]:
    """``head``, then ``count`` times ``item`` joined by commas, then ``tail``, in chunks."""
    yield head
    chunk = 10_000
    for start in range(0, count, chunk):
        part = min(chunk, count - start)
        yield ("," if start else "") + ",".join([item] * part)
    yield tail


def inputs(folder: Path) -> dict[str, str]:
    """Name → path of each hostile input, written in chunks (this process stays small,
    so that its children's peak memory is their own)."""
    files: dict[str, Iterable[str]] = {
        "3 million players (6 MB)": repeated('{"players": [', "{}", 3_000_000, "]}"),
        "a 20 MB name": ['{"players": [{"name": "', *(["x" * MB] * 20), '"}]}'],
        "20,000 players (60 kB)": repeated('{"players": [', "{}", 20_000, "]}"),
        "nested 30,000 deep": ["[" * 30_000, "]" * 30_000],
        "3,000 duplicate keys": repeated('{"players": [', '{"a":1,"a":2}', 3_000, "]}"),
        "a 4,000-digit number": ['{"players": [{"name": "A", "journey": ', "9" * 4000, "}]}"],
        "6,000 lone surrogates": repeated('{"players": [', '"\\ud800"', 6_000, "]}"),
        "5,000 unknown keys": [json.dumps({"players": [{f"k{i}": i for i in range(5_000)}]})],
    }
    paths = {}
    for k, (name, chunks) in enumerate(files.items()):
        path = folder / f"hostile{k}.json"
        with path.open("w") as handle:
            for chunk in chunks:
                handle.write(chunk)
        paths[name] = str(path)
    paths["/dev/zero"] = "/dev/zero"
    return paths


def run(path: str, db: Path) -> tuple[float, float, int]:
    """Wall time, peak resident memory (MB) and exit code of one ``companion score``."""
    command = [sys.executable, "-m", "companion", "score", "tokaido", "--input", path]
    start = time.perf_counter()
    child = subprocess.Popen(
        command,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "COMPANION_DB": str(db)},
        cwd=ROOT,
    )
    _, status, usage = os.wait4(child.pid, 0)
    elapsed = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    return elapsed, usage.ru_maxrss / 1000, child.returncode


def main() -> int:
    compile_project()
    failed = False
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        db = folder / "history.sqlite3"
        print(f"{'input':32} {'time':>7} {'peak':>8}  exit")
        for name, path in inputs(folder).items():
            elapsed, peak, code = run(path, db)
            ok = elapsed < TIME_TARGET and peak < MEMORY_TARGET_MB and code == 2
            failed |= not ok
            print(f"{name:32} {elapsed:6.2f}s {peak:6.0f}MB  {code}{'' if ok else '  <- FAIL'}")
        if db.exists():
            print("FAIL: a hostile file created the history")
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
