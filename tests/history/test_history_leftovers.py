"""Faults leave one clear trace: one backup per upgrade, no stale temporary file, no write
into a damaged history, damage reported by every command that reads."""

from __future__ import annotations

import hashlib
import os
import shutil
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from companion.cli.app import app
from companion.history import history_file
from companion.history.errors import HistoryError
from companion.history.store import History
from tests.support.history_fixture import damage_page_2, fill

FILES = Path(__file__).parents[1] / "files"
runner = CliRunner()


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_an_interrupted_upgrade_keeps_one_backup(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "old.sqlite3"
    shutil.copy(FILES / "history-v1.sqlite3", path)
    number, name, _ = history_file.MIGRATIONS[-1]
    broken = (*history_file.MIGRATIONS[:-1], (number, name, ("SELECT no_such_function()",)))
    monkeypatch.setattr(history_file, "MIGRATIONS", broken)
    for _ in range(3):  # killed (here: failing) three times in the middle of the upgrade
        with pytest.raises(HistoryError), History(path):
            pass
    monkeypatch.undo()
    with History(path) as history:
        assert history.backup_path == tmp_path / "old.sqlite3.v1-backup"
        assert len(history.plays()) == 2
    backups = [p.name for p in tmp_path.iterdir() if "backup" in p.name]
    assert backups == ["old.sqlite3.v1-backup"]  # no -backup-<time>, no .partial


def test_a_history_changed_since_its_backup_gets_a_second_one(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    shutil.copy(FILES / "history-v1.sqlite3", path)
    shutil.copy(FILES / "history-v1.sqlite3", tmp_path / "old.sqlite3.v1-backup")
    with sqlite3.connect(tmp_path / "old.sqlite3.v1-backup") as other:
        other.execute("DELETE FROM plays WHERE id = 2")  # an older backup, not this file
    other.close()
    with History(path) as history:
        assert history.backup_path is not None
        assert history.backup_path.name.startswith("old.sqlite3.v1-backup-")
    assert len([p for p in tmp_path.iterdir() if "backup" in p.name]) == 2


@pytest.mark.parametrize(
    "leftover",
    [".games.csv.{pid}.k3j4h5.part", ".games.csv.partial-{pid}", ".games.csv.ab12cd34.part"],
)
def test_a_killed_export_or_backup_leaves_nothing_after_the_next_run(
    db_path: Path, tmp_path: Path, leftover: str
) -> None:
    fill(db_path)
    out = tmp_path / "games.csv"
    dead = 2**22 + 12345  # no such process
    stale = tmp_path / leftover.format(pid=dead)
    stale.write_text("half a file")
    old = 1_000_000_000  # 2001: long before this run
    os.utime(stale, (old, old))
    result = runner.invoke(app, ["history", "export", "-f", "csv", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".games")) == []
    assert out.read_text().startswith("play_id,")


def test_a_temporary_file_of_a_live_write_is_left_alone(db_path: Path, tmp_path: Path) -> None:
    fill(db_path)
    out = tmp_path / "games.csv"
    live = tmp_path / f".games.csv.{os.getppid()}.k3j4h5.part"  # a process that runs
    live.write_text("being written")
    assert runner.invoke(app, ["history", "export", "-f", "csv", "-o", str(out)]).exit_code == 0
    assert live.exists()


def test_ratings_never_write_into_a_damaged_history(db_path: Path) -> None:
    damage_page_2(db_path)
    before = digest(db_path)
    runner.invoke(app, ["history", "ratings"])
    assert digest(db_path) == before


def damage_index(db_path: Path, index: str) -> None:
    """Garbage in the first page of ``index`` (the table's pages stay whole)."""
    fill(db_path)
    with sqlite3.connect(db_path) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        size = db.execute("PRAGMA page_size").fetchone()[0]
        (root,) = db.execute(
            "SELECT rootpage FROM sqlite_master WHERE name = ?", [index]
        ).fetchone()
    db.close()
    with db_path.open("r+b") as handle:
        handle.seek((root - 1) * size + 8)
        handle.write(b"\xff" * 60)


@pytest.mark.parametrize("index", ["play_people_stats", "plays_by_game", "plays_timed"])
@pytest.mark.parametrize(
    "args",
    [
        ["history", "list"],
        ["history", "stats"],
        ["history", "show", "1"],
        ["history", "export", "-f", "csv"],
        ["history", "export", "-f", "json"],
        ["history", "ratings"],
        ["history", "records"],
    ],
)
def test_a_damaged_index_is_reported_by_every_reader(
    db_path: Path, index: str, args: list[str]
) -> None:
    damage_index(db_path, index)
    before = digest(db_path)
    result = runner.invoke(app, args)
    assert result.exit_code == 1
    assert result.stderr.startswith(f"Error: the history {db_path} is damaged (SQLite's check: ")
    assert result.stderr.endswith("(companion history check lists the damage)\n")
    assert digest(db_path) == before
    checked = runner.invoke(app, ["history", "check"])
    assert checked.exit_code == 1 and "damaged" in checked.stdout
