"""A club at scale: a ledger of 100,000 plays on PostgreSQL, and the tables that sync with it.

Targets: the club's 100,000 plays synced into an empty table < 60 s and < 200 MB
peak memory; a table with 1,000 new plays synced into that club < 5 s; a sync
with nothing new < 1 s. Each is one run of the real command
(``companion club sync``), start-up included: wall time, CPU time (user + sys)
and peak memory (the process's maximum resident set). Also shown, without a
target: the first table sending the 100,000 plays up (which fills the club).

The ledger is a PostgreSQL server started for the run in a temporary folder
(as the tests start theirs), or the one given with ``--url`` (a new, empty
database: ``club init`` is run there; the password from ``PGPASSWORD`` or
``~/.pgpass``).

Usage: ``.venv/bin/python benchmarks/club.py [--plays N] [--url URL]``
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

from _common import ROOT, compile_project
from history import generated

sys.path.insert(0, str(ROOT))

from companion.history.store import History

TARGETS = {"empty table": (60.0, 200.0), "1,000 new": (5.0, None), "nothing new": (1.0, None)}


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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plays", type=int, default=100_000)
    parser.add_argument("--url", help="an empty PostgreSQL database to use")
    args = parser.parse_args()
    compile_project()
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
        rng = random.Random(11)
        first, table = Path(folder) / "first.sqlite3", Path(folder) / "table.sqlite3"
        with History(first) as history:
            history.add(generated(args.plays, rng), keep_ids=False)
        sync = [companion, "club", "sync", url, "--db"]
        runs = {"fill the club": measured([*sync, str(first)], env)}
        runs["empty table"] = measured([*sync, str(table)], env)
        with History(table) as history:
            history.add(generated(1000, random.Random(12)), keep_ids=False)
        runs["1,000 new"] = measured([*sync, str(table)], env)
        runs["nothing new"] = measured([*sync, str(table)], env)
    failed = False
    print(f"{'':14} {'wall':>8} {'cpu':>8} {'memory':>9}  target")
    for name, (wall, cpu, memory, output) in runs.items():
        seconds, megabytes = TARGETS.get(name, (None, None))
        over = (seconds is not None and cpu > seconds) or (
            megabytes is not None and memory > megabytes
        )
        failed |= over
        target = (
            ""
            if seconds is None
            else f"< {seconds:g} s" + (f", < {megabytes:g} MB" if megabytes else "")
        )
        print(
            f"{name:14} {wall:7.2f}s {cpu:7.2f}s {memory:7.0f}MB  {target}"
            f"{'  OVER' if over else ''}   ({output})"
        )
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
