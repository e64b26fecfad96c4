"""kill -9 of ``history backup`` or ``history export --out`` leaves nothing the next run
does not clean up (issue 35): the backup's SQLite journal too, a killed write under
another name (a dated backup), a killed process not yet reaped, a number given again."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from companion.cli.app import app
from tests.support.history_fixture import fill

runner = CliRunner()

LEFTOVERS = (
    ".monday.sqlite3.partial-{pid}",
    ".monday.sqlite3.partial-{pid}-journal",
    ".plays-monday.csv.{pid}.k3j4h5ab.part",
)


def _ours(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("."))


def _leave(folder: Path, pid: int) -> None:
    for name in LEFTOVERS:
        (folder / name.format(pid=pid)).write_bytes(b"\0" * 4096)


def _sleeper() -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-c", "import time; time.sleep(60)"], start_new_session=True
    )


@pytest.mark.parametrize("command", ["backup", "export"])
def test_writes_killed_under_other_names_are_cleaned_by_the_next_run(
    db_path: Path, tmp_path: Path, command: str
) -> None:
    fill(db_path)
    gone = _sleeper()
    gone.kill()
    gone.wait()  # a process that no longer runs
    _leave(tmp_path, gone.pid)
    out = tmp_path / ("tuesday.sqlite3" if command == "backup" else "plays-tuesday.csv")
    args = ["history", "backup", str(out)] if command == "backup" else [
        "history", "export", "-f", "csv", "-o", str(out),
    ]  # fmt: skip
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert _ours(tmp_path) == []
    assert out.exists()


def test_a_killed_writer_not_yet_reaped_is_not_running(db_path: Path, tmp_path: Path) -> None:
    fill(db_path)
    zombie = _sleeper()
    try:
        os.kill(zombie.pid, signal.SIGKILL)
        time.sleep(0.2)  # killed, not waited for: a zombie still holds its number
        _leave(tmp_path, zombie.pid)
        result = runner.invoke(app, ["history", "backup", str(tmp_path / "tuesday.sqlite3")])
        assert result.exit_code == 0, result.output
        assert _ours(tmp_path) == []
    finally:
        zombie.kill()
        zombie.wait()


def test_a_number_given_again_to_a_later_process_is_not_the_writer(
    db_path: Path, tmp_path: Path
) -> None:
    fill(db_path)
    later = _sleeper()  # stands for a process that got the killed writer's number
    try:
        _leave(tmp_path, later.pid)
        old = time.time() - 3600  # written an hour before that process started
        for leftover in tmp_path.iterdir():
            os.utime(leftover, (old, old))
        result = runner.invoke(app, ["history", "backup", str(tmp_path / "tuesday.sqlite3")])
        assert result.exit_code == 0, result.output
        assert _ours(tmp_path) == []
        _leave(tmp_path, later.pid)  # written now, while it runs: a live write, left alone
        again = runner.invoke(app, ["history", "backup", str(tmp_path / "wednesday.sqlite3")])
        assert again.exit_code == 0, again.output
        assert len(_ours(tmp_path)) == len(LEFTOVERS)
    finally:
        later.kill()
        later.wait()


@pytest.mark.slow
def test_kill_9_of_a_real_backup_leaves_nothing_after_the_next(tmp_path: Path) -> None:
    import sqlite3

    history = tmp_path / "history.sqlite3"
    fill(history)
    with sqlite3.connect(history) as db:  # large enough to be killed in the middle
        db.execute("CREATE TABLE filler (b BLOB)")
        db.executemany("INSERT INTO filler VALUES (randomblob(1000000))", [()] * 200)
    db.close()
    command = [sys.executable, "-m", "companion", "--db", str(history), "history", "backup"]
    for _ in range(3):
        process = subprocess.Popen([*command, str(tmp_path / "monday.sqlite3")])
        deadline = time.monotonic() + 30
        while not any(p.name.startswith(".monday") for p in tmp_path.iterdir()):
            assert time.monotonic() < deadline
            time.sleep(0.01)
        process.kill()
        process.wait()
        (tmp_path / "monday.sqlite3").unlink(missing_ok=True)
    done = subprocess.run([*command, str(tmp_path / "tuesday.sqlite3")], check=False)
    assert done.returncode == 0
    assert _ours(tmp_path) == []
