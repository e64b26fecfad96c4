"""Database trouble is one clear line for every command, and nothing is changed.

Each condition is met for real: a lock held by another connection, files and
folders that cannot be written (as an unprivileged user when the tests run as
root), a 2 MB tmpfs that is full, garbage in a page, a newer schema, paths that
cannot be created.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from companion.cli.app import app
from companion.history import errors as history_errors
from companion.history import store as history_store
from companion.history.errors import (
    DamagedDatabase,
    DiskFull,
    HistoryError,
    HistoryLocked,
    ReadOnlyHistory,
    trouble,
)
from companion.history.schema import SCHEMA_VERSION
from companion.history.store import History
from tests.support.cli_driver import invoke_at_terminal
from tests.support.history_fixture import damage_page_2, fill

ROOT = Path(__file__).resolve().parents[2]
FILES = Path(__file__).parents[1] / "files"
GAME = FILES / "tokaido-final.json"
NO_SAVE = " (score with --no-save to skip saving)"
runner = CliRunner()

WRITES = [
    ["score", "tokaido", "-i", str(GAME)],
    ["history", "note", "1", "hello"],
    ["history", "edit", "1", "--location", "Kyoto"],
    ["history", "delete", "1", "--yes"],
    ["history", "import", str(FILES / "bgstats-export.json")],
    ["play", "tokaido"],
]
READS = [
    ["history", "list"],
    ["history", "show", "1"],
    ["history", "stats"],
    ["history", "export", "--format", "json"],
    ["history", "check"],
    ["resume"],
]


def snapshot(path: Path) -> dict[str, str]:
    """Every file of a history (with its -wal and -shm) by name → content hash."""
    return {
        f.name: hashlib.sha256(f.read_bytes()).hexdigest()
        for f in sorted(path.parent.iterdir())
        if f.name.startswith(path.name)
    }


def hint(args: list[str]) -> str:
    return NO_SAVE if args[0] == "score" else ""


def invoke(args: list[str], db: Path) -> Any:
    result = invoke_at_terminal([*args, "--db", str(db)])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


# --- locked ----------------------------------------------------------------


@pytest.fixture
def short_timeout(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(history_errors, "BUSY_TIMEOUT_MS", 200)


@pytest.mark.parametrize("args", WRITES, ids=lambda a: " ".join(a[:2]))
def test_a_write_waits_then_says_another_companion_may_be_running(
    db_path: Path, short_timeout: None, args: list[str]
) -> None:
    fill(db_path)
    holder = sqlite3.connect(db_path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        before = snapshot(db_path)
        result = invoke(args, db_path)
        assert (result.exit_code, result.stderr) == (
            1,
            f"Error: the history {db_path} is locked: another companion may be running "
            f"(waited 0.2 s); nothing was changed, try again{hint(args)}\n",
        )
        assert snapshot(db_path) == before
    finally:
        holder.close()


@pytest.mark.parametrize("args", READS, ids=lambda a: " ".join(a[:2]))
def test_reads_go_on_while_another_companion_writes(
    db_path: Path, short_timeout: None, args: list[str]
) -> None:
    fill(db_path)
    holder = sqlite3.connect(db_path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    holder.execute("DELETE FROM plays")  # not committed: readers see every game
    try:
        result = invoke(args, db_path)
        assert result.exit_code == 0, result.output
    finally:
        holder.close()


@pytest.mark.parametrize("args", READS, ids=lambda a: " ".join(a[:2]))
def test_a_read_of_a_history_held_exclusively_is_one_line(
    db_path: Path, short_timeout: None, args: list[str]
) -> None:
    fill(db_path)
    holder = sqlite3.connect(db_path, isolation_level=None)
    holder.execute("PRAGMA locking_mode = EXCLUSIVE")
    holder.execute("BEGIN EXCLUSIVE")
    holder.execute("DELETE FROM plays")
    try:
        result = invoke(args, db_path)
        assert (result.exit_code, result.stderr) == (
            1,
            f"Error: the history {db_path} is locked: another companion may be running "
            "(waited 0.2 s); nothing was changed, try again\n",
        )
    finally:
        holder.close()


# --- damaged, newer, not a history, uncreatable ------------------------------


def test_garbage_in_page_2_is_noticed_before_writing(db_path: Path) -> None:
    damage_page_2(db_path)
    before = db_path.read_bytes()
    for args in WRITES:
        result = invoke(args, db_path)
        assert result.exit_code == 1
        assert result.stderr.startswith(
            f"Error: the history {db_path} is damaged (SQLite's check: "
        )
        assert result.stderr.endswith(
            "nothing was changed, the file was left as it is "
            f"(companion history check lists the damage){hint(args)}\n"
        )
        assert result.stderr.count("\n") == 1
    assert db_path.read_bytes() == before
    checked = invoke(["history", "check"], db_path)
    assert checked.exit_code == 1
    assert "SQLite integrity check: damaged" in checked.stdout
    assert db_path.read_bytes() == before


def test_a_newer_history_is_refused_by_every_command(db_path: Path) -> None:
    fill(db_path)
    with sqlite3.connect(db_path) as db:
        db.execute("PRAGMA user_version = 99")
    db.close()
    before = snapshot(db_path)
    for args in [*WRITES, *READS]:
        result = invoke(args, db_path)
        assert (result.exit_code, result.stderr) == (
            1,
            f"Error: the history {db_path} was made by a newer companion (schema 99, this one "
            f"knows {SCHEMA_VERSION}); update the companion{hint(args)}\n",
        )
    assert snapshot(db_path) == before


@pytest.mark.parametrize("device", ["/dev/null", "/dev/zero"])
def test_a_device_is_not_a_history(device: str) -> None:
    for args in (WRITES[0], READS[0]):
        result = runner.invoke(app, [*args, "--db", device])
        assert (result.exit_code, result.stderr) == (
            1,
            f"Error: {device} is not a companion history (not a regular file); "
            f"it was left as it is{hint(args)}\n",
        )


def test_a_path_under_a_file_cannot_be_created(tmp_path: Path) -> None:
    blocker = tmp_path / "notes.txt"
    blocker.write_text("mine")
    target = blocker / "deeper" / "history.sqlite3"
    result = invoke(WRITES[0], target)
    assert (result.exit_code, result.stderr) == (
        1,
        f"Error: cannot create the history {target}: {blocker} is a file, not a folder; "
        f"nothing was created{NO_SAVE}\n",
    )
    assert blocker.read_text() == "mine"


@pytest.mark.parametrize(
    ("args", "code", "stdout"),
    [
        (["history", "list"], 0, "No games recorded yet.\n"),
        (["history", "list", "--json"], 0, "[]\n"),
        (["history", "stats"], 0, "No games recorded yet.\n"),
        (["history", "export", "--format", "csv"], 0, None),
        (["history", "show", "1"], 1, ""),
        (["history", "check"], 0, None),
        (["history", "backup", "copy.sqlite3"], 1, ""),
        (["resume"], 0, "No unfinished games.\n"),
        (["resume", "3"], 1, ""),
    ],
)
def test_read_only_commands_never_create_anything(
    tmp_path: Path, args: list[str], code: int, stdout: str | None
) -> None:
    target = tmp_path / "typo" / "deeper" / "history.sqlite3"
    result = invoke(args, target)
    assert result.exit_code == code, result.output
    if stdout is not None:
        assert result.stdout == stdout
    assert not (tmp_path / "typo").exists()


def test_an_empty_file_reads_as_an_empty_history_and_stays_empty(db_path: Path) -> None:
    db_path.touch()
    assert invoke(["history", "list"], db_path).stdout == "No games recorded yet.\n"
    assert db_path.read_bytes() == b""
    assert [p.name for p in db_path.parent.iterdir() if p.name.startswith(db_path.name)] == [
        db_path.name
    ]


# --- the migration backup ------------------------------------------------------


def test_a_stale_partial_backup_is_replaced_by_a_complete_one(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    shutil.copy(FILES / "history-v1.sqlite3", path)
    stale = tmp_path / "old.sqlite3.v1-backup.partial"
    stale.write_bytes(b"SQLite format 3\x00" + b"\x00" * 84)  # a copy killed half-way
    with History(path) as history:
        assert history.backup_path == tmp_path / "old.sqlite3.v1-backup"
    assert not stale.exists()
    with sqlite3.connect(tmp_path / "old.sqlite3.v1-backup") as backup:
        assert backup.execute("SELECT count(*) FROM plays").fetchone()[0] == 2
        assert backup.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    backup.close()


def test_a_backup_cut_short_leaves_no_file_that_looks_like_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "old.sqlite3"
    shutil.copy(FILES / "history-v1.sqlite3", path)

    def killed(fd: int) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(history_store.os, "fsync", killed)
    with pytest.raises(KeyboardInterrupt):
        History(path)
    assert sorted(p.name for p in tmp_path.iterdir() if "backup" in p.name) == []
    monkeypatch.undo()
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == 1  # not migrated
    db.close()
    with History(path) as history:
        assert len(history.plays()) == 2


# --- the messages ------------------------------------------------------------


@pytest.mark.parametrize(
    ("error", "kind"),
    [
        (sqlite3.OperationalError("database is locked"), HistoryLocked),
        (sqlite3.OperationalError("attempt to write a readonly database"), ReadOnlyHistory),
        (sqlite3.OperationalError("database or disk is full"), DiskFull),
        (sqlite3.DatabaseError("database disk image is malformed"), DamagedDatabase),
        (OSError(28, "No space left on device"), DiskFull),
        (OSError(13, "Permission denied"), ReadOnlyHistory),
        (OSError(30, "Read-only file system"), ReadOnlyHistory),
        (OSError(5, "Input/output error"), HistoryError),
        (sqlite3.IntegrityError("UNIQUE constraint failed: plays.uuid"), HistoryError),
    ],
)
def test_trouble_names_the_file_in_one_line(
    tmp_path: Path, error: Exception, kind: type[HistoryError]
) -> None:
    found = trouble(tmp_path / "h.sqlite3", "save the game", error)
    assert type(found) is kind
    assert str(tmp_path / "h.sqlite3") in str(found)
    assert "\n" not in str(found)


# --- as an unprivileged user: read-only files and folders ---------------------


def as_user(commands: list[list[str]], *, cwd: Path) -> list[dict[str, Any]]:
    """Run companion commands as ``nobody`` when we are root, else as ourselves."""
    prefix: list[str] = []
    if os.geteuid() == 0:
        if shutil.which("setpriv") is None:
            pytest.skip("running as root without setpriv: cannot test as an unprivileged user")
        prefix = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
    env = {**os.environ, "HOME": str(cwd), "PYTHONPATH": str(ROOT), "COMPANION_DB": ""}
    done = subprocess.run(
        [*prefix, sys.executable, "-m", "tests.support.cli_driver", json.dumps(commands)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    outcomes: list[dict[str, Any]] = json.loads(done.stdout)
    assert [o["traceback"] for o in outcomes] == [None] * len(outcomes)
    return outcomes


@pytest.fixture
def shared_dir() -> Iterator[Path]:
    """A folder an unprivileged user can reach (pytest's own is private to root)."""
    folder = Path(tempfile.mkdtemp(prefix="companion-faults-"))
    folder.chmod(0o755)
    try:
        yield folder
    finally:
        for path in folder.rglob("*"):
            if path.is_dir():
                path.chmod(0o755)
        shutil.rmtree(folder)


def test_read_only_file_and_folder(shared_dir: Path) -> None:
    ro_file = shared_dir / "file" / "history.sqlite3"
    ro_dir = shared_dir / "folder" / "history.sqlite3"
    old = shared_dir / "old" / "history.sqlite3"
    writable = shared_dir / "out"
    for path in (ro_file, ro_dir):
        path.parent.mkdir()
        fill(path)
    old.parent.mkdir()
    shutil.copy(FILES / "history-v1.sqlite3", old)
    writable.mkdir()
    writable.chmod(0o777)
    for path in (ro_file, ro_dir, old):
        path.chmod(0o444)
        path.parent.chmod(0o755 if path == ro_file else 0o555)
    ro_file.parent.chmod(0o777)  # the folder is writable, the file is not
    before = {p: snapshot(p) for p in (ro_file, ro_dir, old)}
    commands = []
    for path in (ro_file, ro_dir):
        commands += [[*args, "--db", str(path)] for args in (WRITES[0], WRITES[1], *READS)]
    commands += [["history", "backup", str(writable / "copy.sqlite3"), "--db", str(ro_dir)]]
    commands += [[*args, "--db", str(old)] for args in (["history", "list", "--json"], WRITES[0])]
    outcomes = as_user(commands, cwd=writable)
    for path, results in ((ro_file, outcomes[:8]), (ro_dir, outcomes[8:16])):
        for write in results[:2]:
            assert (write["code"], write["stderr"]) == (
                1,
                f"Error: the history {path} cannot be written (the file or its folder is "
                f"read-only); nothing was changed{NO_SAVE if write is results[0] else ''}\n",
            )
        for read in results[2:]:
            assert read["code"] == 0, read
        assert "Aki" in results[2]["stdout"]
        assert results[6]["stdout"].endswith("No problems found.\n")
    assert outcomes[16]["stdout"] == f"Backed up 7 games to {writable / 'copy.sqlite3'}.\n"
    assert [p["game"] for p in json.loads(outcomes[17]["stdout"])] == ["tokaido", "shibuya"]
    assert outcomes[18]["code"] == 1
    assert {p: snapshot(p) for p in (ro_file, ro_dir, old)} == before
    assert sorted(p.name for p in ro_dir.parent.iterdir()) == ["history.sqlite3"]
    assert sorted(p.name for p in old.parent.iterdir()) == ["history.sqlite3"]


# --- a full disk: a 2 MB tmpfs in a private mount namespace --------------------


def in_full_tmpfs(commands: list[list[str]], folder: Path) -> list[dict[str, Any]]:
    """Mount a 2 MB tmpfs on ``folder`` (privately), run the commands, unmount."""
    if shutil.which("unshare") is None:
        pytest.skip("no unshare: cannot mount a small tmpfs for the full-disk test")
    script = (
        f"mount -t tmpfs -o size=2m companion-full {folder} || exit 97\n"
        f'exec "{sys.executable}" -m tests.support.cli_driver "$0"\n'
    )
    done = subprocess.run(
        [
            "unshare",
            "--mount",
            "--propagation",
            "private",
            "sh",
            "-c",
            script,
            json.dumps(commands),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT), "COMPANION_DB": ""},
        timeout=120,
        check=False,
    )
    if done.returncode in (1, 97) and not done.stdout:
        pytest.skip(f"cannot mount a tmpfs here ({done.stderr.strip()[:100]})")
    assert done.returncode == 0, done.stderr
    outcomes: list[dict[str, Any]] = json.loads(done.stdout)
    assert [o["traceback"] for o in outcomes] == [None] * len(outcomes)
    return outcomes


def test_a_full_disk_is_one_line_and_changes_nothing(tmp_path: Path) -> None:
    mount = tmp_path / "mnt"
    mount.mkdir()
    db = mount / "history.sqlite3"
    fresh = mount / "new" / "deeper" / "history.sqlite3"
    save = [*WRITES[0], "--db", str(db)]
    listed = ["history", "list", "--json", "--db", str(db)]
    outcomes = in_full_tmpfs(
        [
            save,
            ["fill", str(mount / "filler")],
            save,
            [*WRITES[1], "--db", str(db)],
            ["play", "shibuya", "--db", str(db)],
            listed,
            [*WRITES[0], "--db", str(fresh)],
            ["history", "backup", str(mount / "copy.sqlite3"), "--db", str(db)],
            listed,
        ],
        mount,
    )
    first, _, *rest = outcomes
    assert first["code"] == 0
    full = f"Error: the disk holding the history {db} is full; nothing was changed"
    assert (rest[0]["code"], rest[0]["stderr"]) == (1, f"{full}{NO_SAVE}\n")
    assert (rest[1]["code"], rest[1]["stderr"]) == (1, f"{full}\n")
    assert (rest[2]["code"], rest[2]["stderr"]) == (1, f"{full}\n")
    assert rest[3]["code"] == 0
    assert len(json.loads(rest[3]["stdout"])) == 1
    assert rest[4]["stderr"] == (
        f"Error: the disk holding the history {fresh} is full; nothing was changed{NO_SAVE}\n"
    )
    assert rest[5]["stderr"] == (
        f"Error: cannot write the backup {mount / 'copy.sqlite3'}: the disk is full; "
        "nothing was written\n"
    )
    assert rest[6]["stdout"] == rest[3]["stdout"]
