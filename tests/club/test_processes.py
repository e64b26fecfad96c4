"""Syncs as separate processes: killed halfway (kill -9), and ten at once."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion.club.ledger import connected
from tests.support.club_tables import contents, sync, table

ROOT = Path(__file__).resolve().parents[2]
NOTHING_NEW = "Nothing new: this history and the club's ledger were already the same.\n"


def start(url: str, db: Path) -> subprocess.Popen[bytes]:
    """``companion club sync`` in a process of its own (and its own process group)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen(
        [sys.executable, "-m", "companion", "club", "sync", url, "--db", str(db)],
        env=env,
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def ledger_count(url: str, statement: str = "SELECT count(*) FROM plays") -> int:
    with connected(url) as ledger:
        row = ledger.db.execute(statement.encode()).fetchone()
    return int(row[0]) if row else 0


def local_count(db: Path) -> int:
    try:
        with sqlite3.connect(db, timeout=5) as connection:
            return int(connection.execute("SELECT count(*) FROM plays").fetchone()[0])
    except sqlite3.OperationalError:  # not made yet
        return 0


def kill_halfway(process: subprocess.Popen[bytes], count: object, total: int) -> int:
    """Kill -9 the sync once it has done part of its work; how much it had done."""
    deadline = time.monotonic() + 120
    try:
        while time.monotonic() < deadline and process.poll() is None:
            done = count()  # type: ignore[operator]
            if 0 < done < total:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
                return int(done)
            time.sleep(0.005)
        raise AssertionError(f"the sync ended before it could be killed: {process.poll()}")
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        if process.stdout:
            process.stdout.close()


@pytest.mark.slow
def test_kill_9_during_a_sync_then_sync_again_loses_and_doubles_nothing(
    club: str, tmp_path: Path
) -> None:
    total = 8000
    a = table(tmp_path / "a.sqlite3", "a", total)
    done = kill_halfway(start(club, a), lambda: ledger_count(club), total)
    assert 0 < done < total
    assert sync(club, a).exit_code == 0
    assert ledger_count(club) == total
    assert ledger_count(club, "SELECT count(*) FROM changes") == total
    assert ledger_count(club, "SELECT count(*) FROM conflicts") == 0
    assert sync(club, a).output == NOTHING_NEW
    # And a table taking the club down, killed halfway.
    b = tmp_path / "b.sqlite3"
    taken = kill_halfway(start(club, b), lambda: local_count(b), total)
    assert 0 < taken < total
    result = sync(club, b)
    assert result.exit_code == 0, result.output
    assert contents(b) == contents(a)
    assert sync(club, b).output == NOTHING_NEW
    assert ledger_count(club, "SELECT count(*) FROM changes") == total


@pytest.mark.slow
def test_ten_syncs_at_once_from_different_processes(club: str, tmp_path: Path) -> None:
    dbs = [table(tmp_path / f"t{k}.sqlite3", f"t{k}", 20) for k in range(10)]
    processes = [start(club, db) for db in dbs]
    try:
        outputs = [process.communicate(timeout=120)[0].decode() for process in processes]
    finally:
        for process in processes:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
    assert [p.returncode for p in processes] == [0] * 10, outputs
    assert all(out.startswith("Sent 20 plays;") for out in outputs), outputs
    assert ledger_count(club) == 200
    assert ledger_count(club, "SELECT count(DISTINCT seq) FROM plays") == 200
    for db in dbs:
        assert sync(club, db).exit_code == 0
    expected = contents(dbs[0])
    assert len(expected) == 200
    assert all(contents(db) == expected for db in dbs[1:])
