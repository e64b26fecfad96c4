"""A club at scale: a ledger of 100,000 plays on PostgreSQL, and the tables that sync with it.

Targets: the first table sending its 100,000 plays into an empty ledger, and a
new table taking them down, each < 60 s wall and within 3x its baseline measured
in the same run (a psycopg COPY of the same rows into the ledger's database; a
SELECT of them and a plain SQLite executemany into a table), the new table
< 200 MB peak memory; a table with 1,000 new plays synced into that club < 5 s;
a sync with nothing new < 1 s; twenty tables of 50 plays each syncing at once
with a club of ``--twenty-club`` plays (2,000 unless told: twenty new tables
taking 100,000 plays each at once is twenty times the second figure), all done
< 60 s. Each is one run of the real command (``companion club sync``),
start-up included: wall time, CPU time (user + sys) and peak memory (the
process's maximum resident set). Every other generated play has a score file
(one of the examples, its players renamed) and the result it gives.

The ledger is a PostgreSQL server started for the run in a temporary folder
(as the tests start theirs), or the one given with ``--url`` (a new, empty
database: ``club init`` is run there; the password from ``PGPASSWORD`` or
``~/.pgpass``; twenty at once then needs ``--twenty-url``, another).

Usage: ``.venv/bin/python benchmarks/club.py [--plays N] [--twenty-club N] [--url URL]``

Last figures: see docs/club.md ("Figures").
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path

from _common import NAMES, ROOT, compile_project
from history import generated

sys.path.insert(0, str(ROOT))

from companion.history.model import Play
from companion.history.store import History

EXAMPLES = sorted((ROOT / "examples").glob("*.json"))
"""The score files the generated plays' score files are made from."""

TARGETS = {
    "fill the club": (60.0, None),
    "empty table": (60.0, 200.0),
    "1,000 new": (5.0, None),
    "nothing new": (1.0, None),
    "twenty at once": (60.0, None),
}
BASELINES = {"fill the club": "COPY up", "empty table": "executemany down"}
"""The runs held to 3x a baseline of the same rows, and which."""


def plays_of(count: int, seed: int) -> list[Play]:
    """``count`` generated plays, every other one with a score file (one of the
    examples with its players renamed) and the result its scorer gives, as a game
    scored at a table has: a table taking them down checks each one."""
    import json

    from companion.history.rescoring import rescore

    rng = random.Random(seed)
    plays = generated(count, rng)
    variants: list[tuple[str, str, dict[str, object]]] = []
    for k in range(min(count // 2, 200)):
        data = json.loads(EXAMPLES[k % len(EXAMPLES)].read_text())
        old = [person["name"] for person in data["players"]]
        new = dict(zip(old, rng.sample(NAMES, len(old)), strict=True))
        text = json.dumps(_renamed(data, new), ensure_ascii=False, indent=2)
        text, result = rescore(data["game"], text)
        variants.append((data["game"], text, result))
    for k in range(0, len(plays) if variants else 0, 2):
        game, text, result = variants[rng.randrange(len(variants))]
        plays[k] = Play(0, plays[k].uuid, plays[k].played_at, game, text, result)
    return plays


def _renamed(node: object, new: dict[str, str]) -> object:
    """``node`` with every string that is a player's name replaced by its new name."""
    if isinstance(node, dict):
        return {k: _renamed(v, new) for k, v in node.items()}
    if isinstance(node, list):
        return [_renamed(v, new) for v in node]
    return new.get(node, node) if isinstance(node, str) else node


def copy_up(url: str, path: str) -> None:
    """Baseline: the plays' entries of the history ``path`` into the ledger's database
    with one COPY (a table of its own, dropped after)."""
    import json

    import psycopg

    from companion.history.sync_local import entry_of

    with History(Path(path), write=False) as history:
        plays = history.plays()
    with psycopg.connect(url) as db:
        db.execute("CREATE TABLE baseline (uuid text PRIMARY KEY, entry jsonb)")
        with db.cursor() as cursor, cursor.copy("COPY baseline (uuid, entry) FROM STDIN") as copy:
            for play in plays:
                copy.write_row((play.uuid, json.dumps(entry_of(play, []), ensure_ascii=False)))
        db.execute("DROP TABLE baseline")


def executemany_down(url: str, path: str) -> None:
    """Baseline: a SELECT of the ledger's plays and a plain SQLite executemany of them."""
    import sqlite3

    import psycopg

    with psycopg.connect(url) as db:
        rows = db.execute("SELECT uuid, counter, entry::text FROM plays").fetchall()
    with sqlite3.connect(path) as local:
        local.execute("CREATE TABLE plays (uuid TEXT PRIMARY KEY, counter INTEGER, entry TEXT)")
        local.executemany("INSERT INTO plays VALUES (?, ?, ?)", rows)


def at_once(command: list[str], paths: list[Path], env: dict[str, str]) -> tuple[float, str]:
    """Wall time of ``command PATH`` run for every path at the same time."""
    start = time.perf_counter()
    running = [
        subprocess.Popen(
            [*command, str(p)], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
        )
        for p in paths
    ]
    outputs = [r.communicate()[0].decode() for r in running]
    wall = time.perf_counter() - start
    bad = [o for r, o in zip(running, outputs, strict=True) if r.returncode != 0]
    if bad:
        raise SystemExit(f"a table's sync failed: {bad[0]}")
    return wall, f"{len(paths)} tables"


def measured(command: list[str], env: dict[str, str]) -> tuple[float, float, float, str]:
    """Wall time, CPU time, peak memory (MB) and output of one run of ``command``."""
    start = time.perf_counter()
    process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    output = process.stdout.read().decode() if process.stdout else ""
    if process.stdout:
        process.stdout.close()
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise SystemExit(f"{' '.join(command[:3])} failed: {output}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, output.strip()


def _load() -> str:
    """The machine's load average over 1, 5 and 15 minutes."""
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plays", type=int, default=100_000)
    parser.add_argument("--twenty-club", type=int, default=2_000)
    parser.add_argument("--url", help="an empty PostgreSQL database to use")
    parser.add_argument("--twenty-url", help="another, for twenty tables at once")
    parser.add_argument(
        "--make", nargs=3, metavar=("PATH", "PLAYS", "SEED"), help=argparse.SUPPRESS
    )
    parser.add_argument("--baseline", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.baseline:
        kind, url, path = args.baseline
        (copy_up if kind == "up" else executemany_down)(url, path)
        return 0
    if args.make:
        path, count, seed = args.make
        with History(Path(path)) as history:
            history.add(plays_of(int(count), int(seed)), keep_ids=False)
        return 0
    compile_project()
    load = _load()
    companion = str(Path(sys.executable).parent / "companion")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with ExitStack() as stack, tempfile.TemporaryDirectory() as folder:
        url = args.url
        if url is None:
            from tests.support import postgres

            server = stack.enter_context(postgres.running())
            env["PGPASSWORD"] = server.password
            url = server.url(server.new_database())
        subprocess.run([companion, "club", "init", url], env=env, check=True)
        first, table = Path(folder) / "first.sqlite3", Path(folder) / "table.sqlite3"
        # Made in processes of their own, so that this one stays small: a child's
        # peak memory counts what it was forked from.
        made = [sys.executable, __file__, "--make"]
        subprocess.run([*made, str(first), str(args.plays), "11"], env=env, check=True)
        sync = [companion, "club", "sync", url, "--db"]
        base = [sys.executable, __file__, "--baseline"]
        runs = {"COPY up": measured([*base, "up", url, str(first)], env)}
        runs["fill the club"] = measured([*sync, str(first)], env)
        down = str(Path(folder) / "baseline.sqlite3")
        runs["executemany down"] = measured([*base, "down", url, down], env)
        runs["empty table"] = measured([*sync, str(table)], env)
        subprocess.run([*made, str(table), "1000", "12"], env=env, check=True)
        runs["1,000 new"] = measured([*sync, str(table)], env)
        runs["nothing new"] = measured([*sync, str(table)], env)
        other = args.twenty_url or (server.url(server.new_database()) if args.url is None else None)
        if other is not None:
            subprocess.run([companion, "club", "init", other], env=env, check=True)
            seed = Path(folder) / "seed.sqlite3"
            subprocess.run([*made, str(seed), str(args.twenty_club), "13"], env=env, check=True)
            subprocess.run([*sync[:3], other, "--db", str(seed)], env=env, check=True)
            twenty = [Path(folder) / f"t{k}.sqlite3" for k in range(20)]
            for k, path in enumerate(twenty):
                subprocess.run([*made, str(path), "50", str(100 + k)], env=env, check=True)
            wall, said = at_once([*sync[:3], other, "--db"], twenty, env)
            runs["twenty at once"] = (wall, 0.0, 0.0, f"{said}, a club of {args.twenty_club:,}")
    failed = False
    print(f"{args.plays:,} plays; load average {load} before, {_load()} after")
    print(f"{'':16} {'wall':>8} {'cpu':>8} {'memory':>9}  target")
    for name, (wall, cpu, memory, output) in runs.items():
        seconds, megabytes = TARGETS.get(name, (None, None))
        baseline = runs[BASELINES[name]][0] if name in BASELINES else None
        over = (
            (seconds is not None and wall > seconds)
            or (megabytes is not None and memory > megabytes)
            or (baseline is not None and wall > 3 * baseline)
        )
        failed |= over
        target = (
            ""
            if seconds is None
            else f"< {seconds:g} s" + (f", < {megabytes:g} MB" if megabytes else "")
        )
        if baseline is not None:
            target += (
                f", < 3x {BASELINES[name]} ({3 * baseline:.1f} s; "
                f"{wall / max(baseline, 1e-9):.1f}x)"
            )
        print(
            f"{name:16} {wall:7.2f}s {cpu:7.2f}s {memory:7.0f}MB  {target}"
            f"{'  OVER' if over else ''}   ({output})"
        )
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
