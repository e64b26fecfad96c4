"""The history's SQLite file, open: its one connection, how it is opened, and its transactions.

The database is marked with its own ``application_id`` so that a file that is
not ours is recognised before anything is written to it. The schema is
versioned by the ``schema_migrations`` table; each write is one transaction
taken with ``BEGIN IMMEDIATE`` in WAL mode, with a busy timeout, so several
companion processes can save at the same moment.

:class:`companion.history.store.History` is such a file with the recorded games
read and written; every other module of the history wing reaches the
connection through it.
"""

from __future__ import annotations

import errno
import os
import sqlite3
import stat
import time
from collections.abc import Iterator
from contextlib import closing, contextmanager, suppress
from pathlib import Path
from types import TracebackType
from typing import Self

from companion.history import errors
from companion.history.errors import (
    DamagedDatabase,
    HistoryError,
    NotACompanionDatabase,
    _low_on_space,
    problem_kind,
    trouble,
)
from companion.history.model import now_utc
from companion.history.schema import MIGRATIONS, SCHEMA_VERSION
from companion.safe_file import replacing
from scorers.names import InvalidName, clean_name, name_key

APPLICATION_ID = 0x43504E31  # "CPN1"


SQLITE_MAGIC = b"SQLite format 3\x00"


class HistoryFile:
    """An open history file: the connection every read and write of the history goes through.

    Args:
        path: The database file.
        write: ``True`` (the default) for commands that may write: a missing
            file is created with its folders, and an existing one is checked
            (SQLite's quick check, and that it can be written) before anything
            else happens. ``False`` for commands that only read: nothing is
            created on disk. A missing or empty file reads as an empty history
            (``missing`` is set) and a file that cannot be written is read as it
            is. An older schema is upgraded on disk like any command would (with
            its backup), or in a copy in memory when the file cannot be written.

    Raises:
        NotACompanionDatabase: The file is something else; it is not touched.
        DamagedDatabase: SQLite cannot read it, or its quick check fails; it
            is not touched.
        HistoryLocked: Another process held it for longer than the busy timeout.
        ReadOnlyHistory: ``write`` and the file or its folder cannot be written.
        DiskFull: ``write`` and the disk is full.
        HistoryError: It was made by a newer companion, or cannot be opened or
            created (the message says why, in one line).
    """

    def __init__(self, path: Path, *, write: bool = True) -> None:
        self.path = path
        self.backup_path: Path | None = None
        self.missing = False
        self._write = write
        self._in_memory = False
        made = _check_header(path, write=write)
        try:
            self._db = self._connect(fresh=bool(made))
        except sqlite3.Error as error:
            _remove(made, error)
            raise trouble(path, "open the history", error) from error
        try:
            self._open()
        except BaseException as error:
            self._db.close()
            _remove(made, error)
            if isinstance(error, sqlite3.Error | OSError):
                raise trouble(path, "open the history", error) from error
            raise

    def _connect(
        self, *, fresh: bool, mode: str | None = None, immutable: bool = False
    ) -> sqlite3.Connection:
        """A connection to the file (never creating it unless ``fresh``), or to memory."""
        timeout = errors.BUSY_TIMEOUT_MS / 1000
        if not self._write and not self.path.exists():
            self.missing = self._in_memory = True
            return sqlite3.connect(":memory:", isolation_level=None)
        if fresh:
            return sqlite3.connect(self.path, timeout=timeout, isolation_level=None)
        if not self._write and mode is None and not immutable:
            # A command that only reads leaves no -wal or -shm file it cannot
            # remove: a file it may not write (or on a full disk) is read as
            # it is, unless a -wal holds pages another companion wrote.
            wal = self.path.with_name(f"{self.path.name}-wal")
            live = wal.exists() and wal.stat().st_size > 0
            writable = os.access(self.path, os.W_OK) and os.access(self.path.parent, os.W_OK)
            immutable = not live and (not writable or _low_on_space(self.path))
        mode = mode or ("rw" if not immutable else "ro")
        uri = f"{self.path.absolute().as_uri()}?mode={mode}{'&immutable=1' if immutable else ''}"
        return sqlite3.connect(uri, uri=True, timeout=timeout, isolation_level=None)

    def _open(self) -> None:
        self._db.execute(f"PRAGMA busy_timeout = {errors.BUSY_TIMEOUT_MS}")
        try:
            app_id, version, tables = _identity(self._db)
        except sqlite3.OperationalError as error:
            # Reading a WAL database needs its -shm file: in a folder we may
            # not write, or on a full disk, a command that only reads reads
            # the file as it is, when no -wal holds newer pages.
            wal = self.path.with_name(f"{self.path.name}-wal")
            if (
                self._write
                or problem_kind(error, self.path) not in ("read-only", "cannot-open", "full")
                or (wal.exists() and wal.stat().st_size > 0)
            ):
                raise
            self._db.close()
            self._db = self._connect(fresh=False, immutable=True)
            app_id, version, tables = _identity(self._db)
        if not self._write and not self.missing and app_id == 0 and tables == 0:
            self._db.close()  # an empty file reads as an empty history
            self._db = sqlite3.connect(":memory:", isolation_level=None)
            self.missing = self._in_memory = True
        if (app_id != 0 and app_id != APPLICATION_ID) or (app_id == 0 and tables > 0):
            raise NotACompanionDatabase(
                f"{self.path} is an SQLite database of another program, not a companion "
                "history; it was left as it is"
            )
        if version > SCHEMA_VERSION:
            raise HistoryError(
                f"the history {self.path} was made by a newer companion (schema {version}, "
                f"this one knows {SCHEMA_VERSION}); update the companion"
            )
        if self._write:
            self._check_writable()
        if app_id == 0:
            self._create()
        elif version < SCHEMA_VERSION and not self._write:
            self._upgrade_for_reading()
        elif version < SCHEMA_VERSION:
            self._migrate()
        elif self._write:
            self._use_wal()
        self._db.execute("PRAGMA foreign_keys = ON")

    def verify(self) -> None:
        """Check the pages and indexes (SQLite's quick check) before a command reads them.

        A command that only reads may not meet a damaged page (an index it does
        not use): it says so all the same, as a writer and ``show`` do.

        Raises:
            DamagedDatabase: The quick check fails.
        """
        if self._in_memory or self._write:
            return  # nothing on disk, or checked when it was opened for writing
        with self.guard("read the history"):
            self._quick_check()

    def _check_writable(self) -> None:
        """Check the pages, then try a write (rolled back), before anything is written."""
        db = self._db
        self._quick_check()
        db.execute("BEGIN IMMEDIATE")
        try:
            version = db.execute("PRAGMA user_version").fetchone()[0]
            db.execute(f"PRAGMA user_version = {int(version)}")
        finally:
            db.execute("ROLLBACK")

    def _quick_check(self) -> None:
        """SQLite's quick check.

        Raises:
            DamagedDatabase: It fails (the message names its first finding).
        """
        db = self._db
        problems = [row[0] for row in db.execute("PRAGMA quick_check(2)").fetchall()]
        if problems != ["ok"]:
            found = [
                " ".join(line.split())
                for problem in problems
                for line in str(problem).splitlines()
                if line.strip() and not line.startswith("***")
            ]
            first = (found or problems)[0][:100]
            raise DamagedDatabase(
                f"the history {self.path} is damaged (SQLite's check: {first}, ...); "
                "nothing was changed, the file was left as it is "
                "(companion history check lists the damage)"
            )

    def _upgrade_for_reading(self) -> None:
        """Upgrade an older history for a command that only reads.

        On disk (with its backup) when the file can be written, as any command
        would; otherwise in a copy in memory, leaving the file as it is.
        """
        reader = self._db
        try:
            self._db = self._connect(fresh=False, mode="rw")
            self._write = True
            self._check_writable()
            self._migrate()
        except (sqlite3.Error, HistoryError) as error:
            if self._db is not reader:
                self._db.close()
            self._db = reader
            if problem_kind(error) not in ("read-only", "cannot-open"):
                raise
            copy = sqlite3.connect(":memory:", isolation_level=None)
            self._db.backup(copy)
            self._db.close()
            self._db = copy
            self._in_memory = True
            self._migrate()
        else:
            reader.close()
        finally:
            self._write = False

    def _use_wal(self) -> None:
        """Switch to WAL (a restored backup comes in rollback-journal mode)."""
        if self._db.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
            self._db.execute("PRAGMA journal_mode = WAL")

    def _create(self) -> None:
        # WAL cannot be switched on inside a transaction, and switching it
        # does not wait for a busy database, so it is retried here. Several
        # processes may get here for one new file: the schema is written
        # under the write lock after checking again.
        deadline = time.monotonic() + errors.BUSY_TIMEOUT_MS / 1000
        while self._write:
            try:
                self._db.execute("PRAGMA journal_mode = WAL")
                break
            except sqlite3.OperationalError as error:
                if "locked" not in str(error) or time.monotonic() > deadline:
                    raise
                time.sleep(0.01)
        self._migrate()

    def _migrate(self) -> None:
        with self.transaction() as db:
            app_id, version, tables = _identity(db)
            if app_id not in (0, APPLICATION_ID) or (app_id == 0 and tables > 0):
                raise NotACompanionDatabase(f"{self.path} is not a companion history")
            if version >= SCHEMA_VERSION:
                return  # another process migrated it first
            if version > 0:
                self.backup_path = self._backup(version)
            db.create_function("name_key", 1, name_key, deterministic=True)
            db.create_function("stored_name", 1, stored_name, deterministic=True)
            db.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations ("
                "version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
            )
            for number, name, statements in MIGRATIONS:
                if number <= version:
                    continue
                for statement in statements:
                    db.execute(statement)
                db.execute(
                    "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                    (number, name, now_utc()),
                )
            db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    def _backup(self, version: int) -> Path | None:
        """Copy the database, as it is now, beside itself before migrating it.

        The copy is written under a temporary name and renamed when complete,
        so a backup cut short never leaves a file that looks like one. A
        history upgraded in memory (for a command that only reads) needs none.
        """
        if self._in_memory:
            return None
        first = self.path.with_name(f"{self.path.name}.v{version}-backup")
        partial = self.path.with_name(f"{self.path.name}.v{version}-backup.partial")
        # Our connection holds the write lock, so a second one reads the last
        # committed state (WAL lets readers through) and copies it.
        source = sqlite3.connect(self.path, timeout=errors.BUSY_TIMEOUT_MS / 1000)
        try:
            with replacing(partial, partial.with_name(partial.name + "-copy")):
                copy = sqlite3.connect(partial.with_name(partial.name + "-copy"))
                try:
                    source.backup(copy)
                    copy.execute("PRAGMA journal_mode = DELETE")
                finally:
                    copy.close()
        finally:
            source.close()
        if first.exists() and _same_file(first, partial):
            # An upgrade interrupted before: its backup is this very file. One is kept.
            partial.unlink()
            return first
        target = first
        if first.exists():
            target = self.path.with_name(f"{self.path.name}.v{version}-backup-{now_utc()}")
        os.replace(partial, target)
        return target

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction (``BEGIN IMMEDIATE``), rolled back on any error."""
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        try:
            yield db
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")

    def close(self) -> None:
        """Close the database."""
        self._db.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    @contextmanager
    def guard(self, action: str) -> Iterator[None]:
        """Turn SQLite and file errors met while doing ``action`` into one-line history errors.

        Raises:
            HistoryLocked, ReadOnlyHistory, DiskFull, DamagedDatabase or
            HistoryError, whose message names the file and what happened.
        """
        try:
            yield
        except (sqlite3.Error, OSError) as error:
            raise trouble(self.path, action, error) from error


def _same_file(a: Path, b: Path) -> bool:
    """Whether two files hold the same bytes."""
    import filecmp

    try:
        return filecmp.cmp(a, b, shallow=False)
    except OSError:
        return False


def _check_header(path: Path, *, write: bool) -> list[Path]:
    """Refuse a folder or a file that is not SQLite; make the folders of a new history.

    Returns:
        What was created (folders, then the file's path) to remove if opening fails.
    """
    try:
        if path.is_dir():
            raise HistoryError(f"{path} is a folder, not a history file")
        if not path.exists():
            if not write:
                return []
            made = [folder for folder in reversed(path.parents) if not folder.exists()]
            blocked = [f for f in path.parents if f.exists() and not f.is_dir()]
            if blocked:
                raise HistoryError(
                    f"cannot create the history {path}: {blocked[-1]} is a file, not a folder; "
                    "nothing was created"
                )
            path.parent.mkdir(parents=True, exist_ok=True)
            return [*made, path]
        if not stat.S_ISREG(path.stat().st_mode):
            raise NotACompanionDatabase(
                f"{path} is not a companion history (not a regular file); it was left as it is"
            )
        with path.open("rb") as handle:
            head = handle.read(len(SQLITE_MAGIC))
    except OSError as error:
        if error.errno in (errno.ENOENT, errno.ENOTDIR, errno.EEXIST):
            raise HistoryError(
                f"cannot create the history {path}: {error.strerror} "
                f"({error.filename or path}); nothing was created"
            ) from error
        raise trouble(path, "open the history", error) from error
    if head and head != SQLITE_MAGIC:
        raise NotACompanionDatabase(
            f"{path} is not a companion history (not an SQLite database); it was left as it is"
        )
    if write and not (os.access(path, os.W_OK) and os.access(path.parent, os.W_OK)):
        raise trouble(path, "open the history", OSError(errno.EACCES, "Permission denied"))
    return []


def _remove(made: list[Path], error: BaseException) -> None:
    """Undo what opening a new history created (its file, side files and folders).

    Only an empty database is removed, and never after a lock: then another
    process is creating the same file and its work must not be lost.
    """
    if not made or problem_kind(error) == "locked":
        return
    *folders, path = made
    try:
        if path.exists() and path.stat().st_size > 0:
            uri = f"{path.absolute().as_uri()}?mode=ro"
            with closing(sqlite3.connect(uri, uri=True)) as db:
                if db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
                    return
    except (sqlite3.Error, OSError):
        return
    for name in (path.name, f"{path.name}-wal", f"{path.name}-shm", f"{path.name}-journal"):
        with suppress(OSError):
            (path.parent / name).unlink(missing_ok=True)
    for folder in reversed(folders):
        with suppress(OSError):
            folder.rmdir()


def _identity(db: sqlite3.Connection) -> tuple[int, int, int]:
    """Application id, schema version and table count, read from one snapshot."""
    nested = db.in_transaction
    if not nested:
        db.execute("BEGIN")
    try:
        app_id = db.execute("PRAGMA application_id").fetchone()[0]
        version = db.execute("PRAGMA user_version").fetchone()[0]
        tables = db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
    finally:
        if not nested and db.in_transaction:  # an error may have ended it already
            db.execute("COMMIT")
    return int(app_id), int(version), int(tables)


def stored_name(name: str) -> str:
    """``name`` as the name rule stores it; as it is when the rule refuses it.

    The SQL function of the migration that cleans the names stored before
    the rule applied to them (Shibuya's team members): line breaks and tabs
    become spaces, as in the name's key; a name the rule still refuses is
    kept, and every path that shows it escapes it.
    """
    try:
        return clean_name(" ".join(name.split()))
    except InvalidName:
        return name
