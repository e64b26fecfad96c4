"""``companion history backup FILE``: a consistent copy of the history, safely written.

The copy is made with SQLite's online backup API in one step, so it is the
history as it was at one moment even while other companions save games. It is
written under a temporary name beside ``FILE``, checked, flushed to disk and
only then renamed to ``FILE``; a failure leaves nothing behind. The copy is a
single file (rollback-journal mode) that any SQLite opens, and ``--db FILE``
uses directly.
"""

from __future__ import annotations

import os
import sqlite3
import stat
from pathlib import Path

from companion.history.errors import HistoryError, problem_kind, trouble
from companion.history.store import History
from companion.safe_file import replacing


class BackupError(HistoryError):
    """The backup cannot be written where it was asked for."""


def check_target(target: Path, history: Path, *, force: bool) -> None:
    """Refuse a target that is the history itself, not a regular file, or exists (unless ``force``).

    Raises:
        BackupError: With the reason.
    """
    if target.is_dir():
        raise BackupError(f"{target} is a folder: give the backup's file name")
    if not target.parent.is_dir():
        raise BackupError(
            f"cannot write the backup {target}: there is no folder {target.parent}; "
            "nothing was written"
        )
    if not target.exists():
        if target.is_symlink():
            raise BackupError(f"{target} is a link to nowhere; nothing was written")
        return
    if history.exists() and target.samefile(history):
        raise BackupError(f"{target} is the history itself; nothing was written")
    if target.is_symlink() or not stat.S_ISREG(target.stat().st_mode):
        raise BackupError(f"{target} is not a regular file; nothing was written")
    if not force:
        raise BackupError(f"{target} already exists; add --force to replace it")


def backup(history: History, target: Path, *, force: bool = False) -> int:
    """Write a consistent copy of ``history`` to ``target``.

    Args:
        history: The open history.
        target: The backup file.
        force: Replace ``target`` if it is an existing regular file.

    Returns:
        How many games the copy holds.

    Raises:
        BackupError: ``target`` is refused (see :func:`check_target`).
        HistoryError: The copy could not be made (a full disk, say); nothing
            is left behind.
    """
    check_target(target, history.path, force=force)
    partial = target.with_name(f".{target.name}.partial-{os.getpid()}")
    try:
        with replacing(target, partial):
            copy = sqlite3.connect(partial, isolation_level=None)
            try:
                history._db.backup(copy)  # one step: one consistent snapshot
                copy.execute("PRAGMA journal_mode = DELETE")
                games = int(copy.execute("SELECT count(*) FROM plays").fetchone()[0])
                if copy.execute("PRAGMA quick_check").fetchone()[0] != "ok":
                    raise BackupError(f"the copy written to {target} did not check out; removed")
            finally:
                copy.close()
    except (sqlite3.Error, OSError) as error:
        reasons = {
            "full": "the disk is full",
            "read-only": "its folder cannot be written",
            "cannot-open": "its folder cannot be written",
        }
        kind = problem_kind(error, target)
        if kind == "locked":
            raise trouble(history.path, "back up the history", error) from error
        reason = reasons.get(kind) or getattr(error, "strerror", None) or str(error)
        raise BackupError(
            f"cannot write the backup {target}: {reason}; nothing was written"
        ) from error
    return games
