"""Hostile score files are answered within a second, with little memory.

Runs the real ``companion score tokaido --input FILE`` on each hostile input,
and ``companion history import FILE`` on hostile imports, and reports its wall
time, CPU time (user + sys) and peak memory (the process's maximum resident
set size). Targets: < 1 s and < 64 MB each, start-up included, exit 2, nothing
saved. The machine may be shared with other work, which makes the wall time
suffer: a time is over only when its CPU time is.

Then two BG Stats backups near the 64 MB limit (90,000 plays, 58 MB): one that
imports and one refused for a bad value at its very end. Target: peak memory
under 100 MB each (they are read item by item).

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
LARGE_MEMORY_TARGET_MB = 100
"""A real-sized import (up to the 64 MB limit) is read item by item: peak under this."""
MB = 1_000_000
LARGE_PLAYS = 90_000


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
    return {**written(folder, "hostile", files), "/dev/zero": "/dev/zero"}


def written(folder: Path, stem: str, files: dict[str, Iterable[str]]) -> dict[str, str]:
    """Write each file from its chunks into ``folder``; name → path."""
    paths = {}
    for k, (name, chunks) in enumerate(files.items()):
        path = folder / f"{stem}{k}.json"
        with path.open("w") as handle:
            handle.writelines(chunks)
        paths[name] = str(path)
    return paths


def import_inputs(folder: Path) -> dict[str, str]:
    """Name → path of each hostile file for ``history import``."""
    play = (
        '{"uuid": "X", "playDate": "never", "gameRefId": 1, "playerScores": '
        '[{"playerRefId": 1, "score": "--5"}]}'
    )
    files: dict[str, Iterable[str]] = {
        "import: 300,000 bad plays (27 MB)": repeated(
            '{"players": [{"id": 1, "name": "Aki"}], "games": [{"id": 1, "name": "Tokaido", '
            '"bggId": 123540}], "plays": [',
            play,
            300_000,
            "]}",
        ),
        "import: 20 million numbers (40 MB)": repeated(
            '{"players": [], "games": [], "plays": [', "0", 20_000_000, "]}"
        ),
        "import: nested 30,000 deep": ['{"plays": ', "[" * 30_000, "]" * 30_000, "}"],
        "import: 3,000 duplicate keys": repeated('{"plays": [', '{"a":1,"a":2}', 3_000, "]}"),
        "import: 1 dup key, 300,000 plays": repeated(
            '{"players": [{"id": 1, "name": "Aki"}], "games": [{"id": 1, "name": "Tokaido", '
            '"bggId": 123540}], "plays": [{"a": 1, "a": 2}, ',
            play.replace('"never"', '"2026-01-01 10:00:00"').replace('"--5"', "5"),
            300_000,
            "]}",
        ),
        "import: 300,000 players": repeated(
            '{"players": [', '{"id": 1, "name": "Aki"}', 300_000, '], "games": [], "plays": []}'
        ),
        "import: 1 MB of garbage": ["\x00garbage" * 100_000],
    }
    return {**written(folder, "import", files), "import: /dev/zero": "/dev/zero"}


def large_imports(folder: Path) -> dict[str, tuple[str, int]]:
    """Name → (path, expected exit) of BG Stats backups near the size limit (about 60 MB):
    one that imports, and the same with one bad value at its very end."""
    play = (
        '{"uuid": "%s", "playDate": "2024-05-01 20:00:00", "gameRefId": 1, "usesTeams": false, '
        '"durationMin": 45, "ignored": false, "locationRefId": 1, "comments": "", '
        '"playerScores": [{"playerRefId": 1, "score": "61", "winner": true, "rank": 0, '
        '"team": "0", "seatOrder": 0, "startPlayer": true, "newPlayer": false}, '
        '{"playerRefId": 2, "score": "48", "winner": false, "rank": 0, "team": "0", '
        '"seatOrder": 0, "startPlayer": false, "newPlayer": false}, {"playerRefId": 3, '
        '"score": "", "winner": false, "rank": 0, "team": "0", "seatOrder": 0, '
        '"startPlayer": false, "newPlayer": false}], "expansionPlays": [], "rating": 0}'
    )
    head = (
        '{"games": [{"id": 1, "name": "Tokaido", "bggId": 123540, "usesTeams": false}], '
        '"locations": [{"id": 1, "name": "Game cafe"}], "players": [{"id": 1, "name": "Aki"}, '
        '{"id": 2, "name": "Ben"}, {"id": 3, "name": "Cho"}], "plays": ['
    )

    def plays(last_bad: bool) -> Iterator[str]:
        yield head
        for k in range(LARGE_PLAYS):
            item = play % f"00000000-0000-4000-8000-{k:012d}"
            if last_bad and k == LARGE_PLAYS - 1:
                item = item.replace('"score": "48"', '"score": "4x8"')
            yield ("," if k else "") + item
        yield "]}"

    files = {
        f"import: {LARGE_PLAYS:,} good plays": plays(False),
        f"import: {LARGE_PLAYS:,} plays, the last bad": plays(True),
    }
    paths = written(folder, "large", files)
    return {name: (path, 0 if k == 0 else 2) for k, (name, path) in enumerate(paths.items())}


def run(path: str, db: Path, *, imported: bool = False) -> tuple[float, float, float, int]:
    """Wall time, CPU time, peak resident memory (MB) and exit code of one ``companion
    score`` (or, when ``imported``, one ``companion history import``)."""
    action = ["history", "import", path] if imported else ["score", "tokaido", "--input", path]
    command = [sys.executable, "-m", "companion", *action]
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
    cpu = usage.ru_utime + usage.ru_stime
    return elapsed, cpu, usage.ru_maxrss / 1000, child.returncode


def main() -> int:
    compile_project()
    failed = False
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        db = folder / "history.sqlite3"
        print(f"{'input':36} {'wall':>7} {'CPU':>7} {'peak':>8}  exit")
        cases = [(name, path, False) for name, path in inputs(folder).items()]
        cases += [(name, path, True) for name, path in import_inputs(folder).items()]
        for name, path, imported in cases:
            elapsed, cpu, peak, code = run(path, db, imported=imported)
            ok = cpu < TIME_TARGET and peak < MEMORY_TARGET_MB and code == 2
            failed |= not ok
            print(
                f"{name:36} {elapsed:6.2f}s {cpu:6.2f}s {peak:6.0f}MB  {code}"
                f"{'' if ok else '  <- FAIL'}"
            )
        if db.exists():
            print("FAIL: a hostile file created the history")
            failed = True
        for name, (path, expected) in large_imports(folder).items():
            size = Path(path).stat().st_size / MB
            elapsed, cpu, peak, code = run(path, db, imported=True)
            ok = peak < LARGE_MEMORY_TARGET_MB and code == expected
            failed |= not ok
            print(
                f"{name:36} {elapsed:6.2f}s {cpu:6.2f}s {peak:6.0f}MB  {code}"
                f"  ({size:.0f} MB file){'' if ok else '  <- FAIL'}"
            )
            db.unlink(missing_ok=True)
        print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
