"""What can go wrong with the history, as one-line errors that name the file."""

from __future__ import annotations

import errno
import os
import sqlite3
from pathlib import Path

BUSY_TIMEOUT_MS = 30_000


class HistoryError(Exception):
    """Any problem with the history database."""


class NotACompanionDatabase(HistoryError):
    """The file exists but is not a companion history."""


class DamagedDatabase(HistoryError):
    """The file looks like a companion history but SQLite cannot read it."""


class PlayNotFound(HistoryError):
    """No recorded game has that id."""


class HistoryLocked(HistoryError):
    """Another process held the database for longer than the busy timeout."""


class ReadOnlyHistory(HistoryError):
    """The file, or the folder it is in, cannot be written."""


class DiskFull(HistoryError):
    """The disk holding the history has no room for the write."""


def problem_kind(error: BaseException, path: Path | None = None) -> str:
    """What went wrong, from an SQLite or OS error: ``locked``, ``read-only``, ``full``, …

    SQLite reports a full disk as an I/O error when its shared-memory file
    cannot grow, so an I/O error with almost no room left on ``path``'s disk
    counts as ``full``.
    """
    if isinstance(error, OSError):
        if error.errno in (errno.ENOSPC, errno.EDQUOT):
            return "full"
        if error.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
            return "read-only"
        return "os"
    if isinstance(
        error, sqlite3.IntegrityError | sqlite3.ProgrammingError | sqlite3.InterfaceError
    ):
        return "other"  # a mistake of ours or of the data, not of the file
    name = getattr(error, "sqlite_errorname", "") or ""
    text = str(error)
    if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")) or "database is locked" in text:
        return "locked"
    if name.startswith(("SQLITE_READONLY", "SQLITE_PERM", "SQLITE_AUTH")) or "readonly" in text:
        return "read-only"
    if name == "SQLITE_FULL" or "database or disk is full" in text:
        return "full"
    if name.startswith("SQLITE_CANTOPEN") or "unable to open" in text:
        return "cannot-open"
    if name.startswith("SQLITE_IOERR"):
        return "full" if path is not None and _low_on_space(path) else "io"
    return "damaged"


def _low_on_space(path: Path) -> bool:
    """Whether the disk holding ``path`` has less than 256 kB free."""
    folder = path if path.is_dir() else path.parent
    try:
        info = os.statvfs(folder)
    except OSError:
        return False
    return info.f_bavail * info.f_frsize < 256 * 1024


def trouble(path: Path, action: str, error: BaseException) -> HistoryError:
    """The one-line error for an SQLite or OS ``error`` met while doing ``action`` on ``path``."""
    if isinstance(error, HistoryError):
        return error
    kind = problem_kind(error, path)
    if kind == "cannot-open" and not os.access(path.parent, os.W_OK):
        kind = "read-only"
    detail = getattr(error, "strerror", None) or str(error)
    if kind == "locked":
        return HistoryLocked(
            f"the history {path} is locked: another companion may be running "
            f"(waited {BUSY_TIMEOUT_MS / 1000:g} s); nothing was changed, try again"
        )
    if kind == "read-only":
        return ReadOnlyHistory(
            f"the history {path} cannot be written (the file or its folder is read-only); "
            "nothing was changed"
        )
    if kind == "full":
        return DiskFull(f"the disk holding the history {path} is full; nothing was changed")
    if kind in ("cannot-open", "io", "os", "other"):
        return HistoryError(f"cannot {action} ({path}): {detail}; nothing was changed")
    return DamagedDatabase(
        f"the history {path} is damaged and cannot be read ({detail}); "
        "nothing was changed, the file was left as it is"
    )
