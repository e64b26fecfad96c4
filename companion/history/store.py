"""The history of games played, kept in SQLite.

The database is marked with its own ``application_id`` so that a file that is
not ours is recognised before anything is written to it. The schema is
versioned by the ``schema_migrations`` table; each write is one transaction
taken with ``BEGIN IMMEDIATE`` in WAL mode, with a busy timeout, so several
companion processes can save at the same moment.
"""

from __future__ import annotations

import errno
import json
import os
import sqlite3
import stat
import time
import uuid as uuids
from collections.abc import Iterable, Iterator, Mapping
from contextlib import closing, contextmanager, suppress
from pathlib import Path
from types import TracebackType
from typing import Any

from companion.history import errors
from companion.history.errors import (
    DamagedDatabase,
    HistoryError,
    NotACompanionDatabase,
    PlayNotFound,
    _low_on_space,
    problem_kind,
    trouble,
)
from companion.history.model import (
    Filter,
    Person,
    Play,
    fold_uuid,
    now_utc,
    status_of,
    summary_of,
)
from companion.history.rows import (
    PLAY_COLUMNS,
    _insert_log,
    _Numbers,
    _play,
    _present_uuids,
    _Rows,
    insert,
)
from companion.history.schema import MIGRATIONS, SCHEMA_VERSION
from scorers.names import name_key

APPLICATION_ID = 0x43504E31  # "CPN1"


SQLITE_MAGIC = b"SQLite format 3\x00"


ENV_VAR = "COMPANION_DB"


def default_path() -> Path:
    """``$COMPANION_DB``, or ``history.sqlite3`` in the user's data directory."""
    configured = os.environ.get(ENV_VAR)
    if configured:
        return Path(configured).expanduser()
    import platformdirs

    return platformdirs.user_data_path("companion", appauthor=False) / "history.sqlite3"


class History:
    """An open history database.

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

    def _check_writable(self) -> None:
        """Check the pages, then try a write (rolled back), before anything is written."""
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
        db.execute("BEGIN IMMEDIATE")
        try:
            version = db.execute("PRAGMA user_version").fetchone()[0]
            db.execute(f"PRAGMA user_version = {int(version)}")
        finally:
            db.execute("ROLLBACK")

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
        target = self.path.with_name(f"{self.path.name}.v{version}-backup")
        if target.exists():
            target = self.path.with_name(f"{self.path.name}.v{version}-backup-{now_utc()}")
        partial = self.path.with_name(f"{self.path.name}.v{version}-backup.partial")
        partial.unlink(missing_ok=True)
        # Our connection holds the write lock, so a second one reads the last
        # committed state (WAL lets readers through) and copies it.
        source = sqlite3.connect(self.path, timeout=errors.BUSY_TIMEOUT_MS / 1000)
        try:
            copy = sqlite3.connect(partial)
            try:
                source.backup(copy)
                copy.execute("PRAGMA journal_mode = DELETE")
            finally:
                copy.close()
            with partial.open("rb") as written:
                os.fsync(written.fileno())
            partial.replace(target)
        except BaseException:
            partial.unlink(missing_ok=True)
            raise
        finally:
            source.close()
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

    def __enter__(self) -> History:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def record(
        self,
        *,
        game: str,
        score_file: str | None,
        result: Mapping[str, Any],
        played_at: str | None = None,
        location: str = "",
        notes: str = "",
        duration_min: int | None = None,
        start_player: int | None = None,
        people: tuple[Person, ...] | None = None,
    ) -> int:
        """Save a scored game in one transaction.

        Args:
            game: The game id.
            score_file: The score file exactly as given.
            result: The result document (``Result.to_json()``).
            played_at: ISO 8601 UTC time; now when omitted.
            location: Where it was played.
            notes: Free text.
            duration_min: Minutes played, if known.
            start_player: The person who started, if known: an index into the
                people in seat order (for 4-player Shibuya: side 0's first
                member, side 1's first, side 0's second, side 1's second).
            people: The people; taken from the score file when omitted.

        Returns:
            The new record's id.
        """
        play = Play(
            id=0,
            uuid=str(uuids.uuid4()),
            played_at=played_at or now_utc(),
            game=game,
            score_file=score_file,
            result=dict(result),
            location=location,
            notes=notes,
            duration_min=duration_min,
            start_player=start_player,
            people=people,
            status=status_of(game, score_file),
        )
        with self.guard("save the game"), self.transaction() as db:
            return insert(db, play, keep_id=False)

    def add(
        self,
        plays: Iterable[Play],
        *,
        keep_ids: bool = True,
        events: Mapping[str, list[dict[str, Any]]] | None = None,
        added_plays: list[Play] | None = None,
        player_uuids: Mapping[str, str] | None = None,
    ) -> tuple[int, int]:
        """Add plays (from an import) in one transaction; skip uuids already present.

        Uuids are compared without regard to case (BG Stats writes them in
        upper case).

        Args:
            plays: The plays to add.
            keep_ids: Reuse each play's id when it is free.
            events: Event logs of played-along games, by play uuid; each is
                stored as a finished session of that play.
            added_plays: When given, the plays actually added are appended.
            player_uuids: The uuids another app knows people by, by
                :func:`name_key` (``ANONYMOUS_KEY`` for its anonymous player);
                a person who has one already keeps it.

        Returns:
            ``(added, skipped)``.
        """
        plays = list(plays)
        added = skipped = 0
        with self.guard("import the games"), self.transaction() as db:
            present = _present_uuids(db, [play.uuid for play in plays])
            numbers = _Numbers(db)
            rows = _Rows()
            for play in plays:
                folded = fold_uuid(play.uuid)
                if folded in present:
                    skipped += 1
                    continue
                present.add(folded)
                play_id = numbers.take(play.id if keep_ids and play.id > 0 else None)
                rows.add(play, play_id)
                log = (events or {}).get(play.uuid)
                if log:
                    # The log's session may take a number: write what is pending first.
                    rows.write(db)
                    numbers.claim()
                    _insert_log(db, play_id, play.game, log)
                    numbers = _Numbers(db)
                added += 1
                if added_plays is not None:
                    added_plays.append(play)
            rows.write(db)
            numbers.claim()
            if player_uuids:
                db.executemany(
                    "INSERT OR IGNORE INTO player_uuids (name_key, uuid) VALUES (?, ?)",
                    sorted(player_uuids.items()),
                )
        return added, skipped

    def player_uuids(self) -> dict[str, str]:
        """The uuids another app (BG Stats) knows people by, by :func:`name_key`."""
        with self.guard("read the history"):
            return dict(self._db.execute("SELECT name_key, uuid FROM player_uuids").fetchall())

    def known_names(self) -> list[str]:
        """The 50 player names most often in the history, most frequent first (suggestions)."""
        with self.guard("read the history"):
            rows = self._db.execute(
                "SELECT name FROM play_players GROUP BY name ORDER BY count(*) DESC, name LIMIT 50"
            ).fetchall()
        return [row[0] for row in rows]

    def event_logs(self) -> dict[int, list[dict[str, Any]]]:
        """The answers of every played-along finished game, by play id."""
        logs: dict[int, list[dict[str, Any]]] = {}
        with self.guard("read the history"):
            rows = self._db.execute(
                "SELECT sessions.play_id, e.at, e.key, e.value FROM sessions "
                "JOIN session_events AS e ON e.session_id = sessions.id "
                "WHERE sessions.status = 'finished' AND sessions.play_id IS NOT NULL "
                "ORDER BY sessions.play_id, e.seq"
            ).fetchall()
        for play_id, at, key, value in rows:
            logs.setdefault(play_id, []).append({"at": at, "key": key, "value": json.loads(value)})
        return logs

    def plays(self, where: Filter | None = None) -> list[Play]:
        """The recorded games that match ``where``, oldest first."""
        condition, params = (where or Filter()).where()
        with self.guard("read the history"):
            rows = self._db.execute(
                f"SELECT {PLAY_COLUMNS} FROM plays{condition} ORDER BY played_at, id", params
            ).fetchall()
            people = self._people([row[0] for row in rows])
        return [_play(row, people.get(row[0], ())) for row in rows]

    def _people(self, ids: list[int]) -> dict[int, tuple[Person, ...]]:
        """The people of the plays ``ids``, in seat order."""
        found: dict[int, list[Person]] = {}
        for chunk in range(0, len(ids), 500):
            part = ids[chunk : chunk + 500]
            marks = ",".join("?" * len(part))
            for play_id, name, side, anonymous in self._db.execute(
                "SELECT play_id, name, side, anonymous FROM play_people "
                f"WHERE play_id IN ({marks}) ORDER BY play_id, position",
                part,
            ):
                found.setdefault(play_id, []).append(Person(name, side, bool(anonymous)))
        return {k: tuple(v) for k, v in found.items()}

    def summaries(self, where: Filter | None = None, *, limit: int = 0) -> list[dict[str, Any]]:
        """Light summaries (no score file) of the matching games, oldest first.

        Args:
            where: Which plays.
            limit: Only the most recent ``limit`` plays (0: all).
        """
        condition, params = (where or Filter()).where()
        tail = f" ORDER BY played_at DESC, id DESC LIMIT {int(limit)}" if limit else ""
        with self.guard("read the history"):
            plays = self._db.execute(
                f"SELECT id, played_at, game, ignored, status FROM plays{condition}{tail}", params
            ).fetchall()
            ids = [row[0] for row in plays]
            seats: dict[int, list[tuple[str, int, int, int, int]]] = {i: [] for i in ids}
            for chunk in range(0, len(ids), 500):
                part = ids[chunk : chunk + 500]
                marks = ",".join("?" * len(part))
                for play_id, name, total, rank, winner, scored in self._db.execute(
                    "SELECT play_id, name, total, rank, winner, scored FROM play_players "
                    f"WHERE play_id IN ({marks}) ORDER BY play_id, seat",
                    part,
                ):
                    seats[play_id].append((name, total, rank, winner, scored))
            people = self._people(ids)
        result = [
            summary_of(
                play_id,
                played_at,
                game,
                bool(ignored),
                [
                    {"name": n, "total": t if scored else None, "rank": r or None}
                    for n, t, r, _, scored in seats[play_id]
                ],
                [n for n, _, _, w, _ in seats[play_id] if w],
                people.get(play_id, ()),
                status,
            )
            for play_id, played_at, game, ignored, status in plays
        ]
        result.sort(key=lambda s: (s["played_at"], s["id"]))
        return result

    def get(self, play_id: int) -> Play:
        """One recorded game.

        Raises:
            PlayNotFound: No game has that id.
        """
        with self.guard("read the history"):
            row = self._db.execute(
                f"SELECT {PLAY_COLUMNS} FROM plays WHERE id = ?", (play_id,)
            ).fetchone()
            people = self._people([play_id])
        if row is None:
            raise PlayNotFound(f"no game #{play_id} in the history")
        return _play(row, people.get(play_id, ()))

    def replace(self, play: Play) -> None:
        """Store an edited play under its id, in one transaction.

        A played-along game stays linked to its answers (its session).

        Raises:
            PlayNotFound: No game has that id.
        """
        with self.guard("save the change"), self.transaction() as db:
            linked = [
                row[0]
                for row in db.execute("SELECT id FROM sessions WHERE play_id = ?", (play.id,))
            ]
            if db.execute("DELETE FROM plays WHERE id = ?", (play.id,)).rowcount == 0:
                raise PlayNotFound(f"no game #{play.id} in the history")
            db.execute("DELETE FROM play_players WHERE play_id = ?", (play.id,))
            db.execute("DELETE FROM play_people WHERE play_id = ?", (play.id,))
            db.execute("DELETE FROM play_pairs WHERE play_id = ?", (play.id,))
            insert(db, play, keep_id=True, exact=True)
            db.executemany(
                "UPDATE sessions SET play_id = ? WHERE id = ?", [(play.id, s) for s in linked]
            )

    def delete(self, play_id: int) -> None:
        """Delete a recorded game.

        Raises:
            PlayNotFound: No game has that id.
        """
        with self.guard("delete the game"), self.transaction() as db:
            db.execute("DELETE FROM play_players WHERE play_id = ?", (play_id,))
            db.execute("DELETE FROM play_people WHERE play_id = ?", (play_id,))
            db.execute("DELETE FROM play_pairs WHERE play_id = ?", (play_id,))
            if db.execute("DELETE FROM plays WHERE id = ?", (play_id,)).rowcount == 0:
                raise PlayNotFound(f"no game #{play_id} in the history")

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


@contextmanager
def opened(path: Path, *, write: bool = True, action: str = "use the history") -> Iterator[History]:
    """The history at ``path``, open for the ``with`` body and closed after it.

    Any trouble, while opening it, using it or closing it, is a
    :class:`~companion.history.errors.HistoryError` whose message is one line
    (an SQLite or file error met in the body is said to be met while doing
    ``action``).

    Args:
        path: The database file.
        write: As for :class:`History`.
        action: What the body does, for the message: ``read the history``.
    """
    try:
        with History(path, write=write) as history:
            yield history
    except (sqlite3.Error, OSError) as error:
        raise trouble(path, action, error) from error


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
