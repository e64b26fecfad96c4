"""History at scale: 100,000 plays, then stats, a filtered list and a large import.

Targets: ``history stats`` < 1 s, ``history list --game tokaido --player X``
< 0.3 s, importing a 10,000-play BG Stats file < 3 s, saving one more game
with ``score`` (which first runs SQLite's quick check of the whole file, and
afterwards works out the records it set) < 1 s, ``history ratings`` (everyone's
ratings over the 100,000 plays, just after a game was saved: the ratings the
history keeps, rated on by that game) < 2 s. Also shown, without a target:
``history ratings`` rating every play again from the start, as it does once
after an edit, a deletion or an import of older games (``ratings-all``). Each
is the median of a few runs of the
real command, start-up included, as wall time and as CPU time (user + sys of
the command): on a machine shared with other work the wall time is the one
that suffers, so a figure is over only when its CPU time is.

Usage: ``.venv/bin/python benchmarks/history.py [--plays N]``
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from datetime import datetime, timedelta
from pathlib import Path

from _common import NAMES, PLAYER_COUNTS, compile_project, timed

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.history.model import Play
from companion.history.store import History

START = datetime(2010, 1, 1)
GAME = Path(__file__).resolve().parent.parent / "tests" / "files" / "tokaido-final.json"
TARGETS = {"stats": 1.0, "list": 0.3, "import": 3.0, "save": 1.0, "ratings": 2.0}


def cpu_timed(command: list[str]) -> tuple[float, float]:
    """Wall time and CPU time (user + sys, children included) of one run of ``command``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall = timed(command)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def median_of(runs: list[tuple[float, float]]) -> tuple[float, float]:
    """The median wall time and the median CPU time of ``runs``."""
    return statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs)


def generated(count: int, rng: random.Random) -> list[Play]:
    plays = []
    for k in range(count):
        game = rng.choice(list(PLAYER_COUNTS))
        low, high = PLAYER_COUNTS[game]
        names = rng.sample(NAMES, rng.randint(low, high))
        totals = [rng.randint(10, 90) for _ in names]
        ranks = [1 + sum(1 for t in totals if t > mine) for mine in totals]
        result = {
            "game": game,
            "players": [
                {"name": n, "total": t, "rank": r, "breakdown": {"score": t}}
                for n, t, r in zip(names, totals, ranks, strict=True)
            ],
            "winners": [n for n, r in zip(names, ranks, strict=True) if r == 1],
            "tiebreak": None,
        }
        when = START + timedelta(minutes=60 * k)  # 100,000 plays end in 2021
        ident = str(uuid.UUID(int=rng.getrandbits(128), version=4))
        plays.append(Play(0, ident, when.strftime("%Y-%m-%dT%H:%M:%SZ"), game, None, result))
    return plays


def forget_ratings(db: Path) -> None:
    """Drop the ratings the history keeps, so the next call rates every play again."""
    with sqlite3.connect(db) as connection:
        connection.execute("DELETE FROM rating_state")
    connection.close()


def bgstats_file(count: int, rng: random.Random) -> dict[str, object]:
    return {
        "players": [{"id": k + 1, "name": n} for k, n in enumerate(NAMES)],
        "games": [{"id": 1, "name": "Tokaido", "bggId": 123540}, {"id": 2, "name": "Catan"}],
        "plays": [
            {
                "uuid": str(uuid.UUID(int=rng.getrandbits(128), version=4)),
                "playDate": "2025-06-01 20:00:00",
                "gameRefId": 1 if k % 10 else 2,
                "playerScores": [
                    {"playerRefId": p, "score": str(rng.randint(30, 90)), "seatOrder": s + 1}
                    for s, p in enumerate(rng.sample(range(1, 13), 3))
                ],
            }
            for k in range(count)
        ],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plays", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    rng = random.Random(7)
    compile_project()
    companion = str(Path(sys.executable).parent / "companion")
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "history.sqlite3"
        start = time.perf_counter()
        with History(db) as history:
            history.add(generated(args.plays, rng), keep_ids=False)
        print(f"generated {args.plays} plays in {time.perf_counter() - start:.1f} s")
        base = [companion, "history"]
        results = {
            "stats": median_of(
                [cpu_timed([*base, "stats", "--db", str(db)]) for _ in range(args.runs)]
            ),
            "list": median_of(
                [
                    cpu_timed(
                        [*base, "list", "--game", "tokaido", "--player", "Aki", "--db", str(db)]
                    )
                    for _ in range(args.runs)
                ]
            ),
            "save": median_of(
                [
                    cpu_timed(
                        ["sh", "-c", f"{companion} score tokaido -i {GAME} --db {db} >/dev/null"]
                    )
                    for _ in range(args.runs)
                ]
            ),
        }
        anew = []
        for _ in range(args.runs):
            forget_ratings(db)
            anew.append(cpu_timed([*base, "ratings", "--db", str(db)]))
        kept = []
        for _ in range(args.runs):
            save = f"{companion} score tokaido -i {GAME} --db {db} >/dev/null"
            subprocess.run(["sh", "-c", save], check=True)
            kept.append(cpu_timed([*base, "ratings", "--db", str(db)]))
        results["ratings"] = median_of(kept)
        results["ratings-all"] = median_of(anew)
        source = Path(folder) / "bgstats.json"
        source.write_text(json.dumps(bgstats_file(10_000, rng)))
        import_times = []
        for k in range(args.runs):
            target = Path(folder) / f"import-{k}.sqlite3"
            import_times.append(cpu_timed([*base, "import", str(source), "--db", str(target)]))
        results["import"] = median_of(import_times)
    failed = False
    for name, (wall, cpu) in results.items():
        if name not in TARGETS:
            print(f"{name:11} {wall:6.2f} s wall, {cpu:5.2f} s CPU (no target)")
            continue
        ok = cpu < TARGETS[name]
        failed |= not ok
        verdict = "ok" if ok and wall < TARGETS[name] else "ok (CPU)" if ok else "OVER"
        print(
            f"{name:11} {wall:6.2f} s wall, {cpu:5.2f} s CPU (target < {TARGETS[name]} s) {verdict}"
        )
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
