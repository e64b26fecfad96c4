"""The history of games played, kept in SQLite.

The database is marked with its own ``application_id`` so that a file that is
not ours is recognised before anything is written to it. The schema is
versioned by the ``schema_migrations`` table; each write is one transaction
taken with ``BEGIN IMMEDIATE`` in WAL mode, with a busy timeout, so several
companion processes can save at the same moment.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any

APPLICATION_ID = 0x43504E31  # "CPN1"
SQLITE_MAGIC = b"SQLite format 3\x00"
BUSY_TIMEOUT_MS = 30_000
ENV_VAR = "COMPANION_DB"

MIGRATIONS: tuple[tuple[int, str, str], ...] = (
    (
        1,
        "plays and their players",
        """
        CREATE TABLE plays (
            id INTEGER PRIMARY KEY,
            played_at TEXT NOT NULL,
            game TEXT NOT NULL,
            score_file TEXT NOT NULL,
            result TEXT NOT NULL
        );
        CREATE TABLE play_players (
            play_id INTEGER NOT NULL REFERENCES plays(id) ON DELETE CASCADE,
            seat INTEGER NOT NULL,
            name TEXT NOT NULL,
            total INTEGER NOT NULL,
            rank INTEGER NOT NULL,
            winner INTEGER NOT NULL,
            PRIMARY KEY (play_id, seat)
        );
        CREATE INDEX plays_by_game ON plays (game, played_at);
        CREATE INDEX play_players_by_name ON play_players (name);
        """,
    ),
)
SCHEMA_VERSION = MIGRATIONS[-1][0]


class HistoryError(Exception):
    """Any problem with the history database."""


class NotACompanionDatabase(HistoryError):
    """The file exists but is not a companion history."""


class DamagedDatabase(HistoryError):
    """The file looks like a companion history but SQLite cannot read it."""


class PlayNotFound(HistoryError):
    """No recorded game has that id."""


@dataclass(frozen=True)
class Play:
    """One recorded game.

    Attributes:
        id: The record's number.
        played_at: When it was saved, ISO 8601 in UTC.
        game: The game id.
        score_file: The score file exactly as it was given.
        result: The result document, as ``companion score --json`` prints it.
    """

    id: int
    played_at: str
    game: str
    score_file: str
    result: dict[str, Any]

    @property
    def players(self) -> list[str]:
        """Player names in seat order."""
        return [p["name"] for p in self.result["players"]]

    def to_json(self) -> dict[str, Any]:
        """The record with its score file parsed, for ``history show --json``."""
        return {
            "id": self.id,
            "played_at": self.played_at,
            "game": self.game,
            "score_file": json.loads(self.score_file),
            "result": self.result,
        }

    def summary(self) -> dict[str, Any]:
        """The record without its score file, for ``history list --json``."""
        return {
            "id": self.id,
            "played_at": self.played_at,
            "game": self.game,
            "players": [
                {"name": p["name"], "total": p["total"], "rank": p["rank"]}
                for p in self.result["players"]
            ],
            "winners": self.result["winners"],
        }


def default_path() -> Path:
    """``$COMPANION_DB``, or ``history.sqlite3`` in the user's data directory."""
    configured = os.environ.get(ENV_VAR)
    if configured:
        return Path(configured).expanduser()
    import platformdirs

    return platformdirs.user_data_path("companion", appauthor=False) / "history.sqlite3"


def now_utc() -> str:
    """The current time as stored in ``played_at``."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


class History:
    """An open history database.

    Args:
        path: The database file; created (with its folder) when missing.

    Raises:
        NotACompanionDatabase: The file is something else; it is not touched.
        DamagedDatabase: SQLite cannot read it; it is not touched.
        HistoryError: It was made by a newer companion, or cannot be opened.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        _check_header(path)
        try:
            self._db = sqlite3.connect(path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
        except sqlite3.Error as error:
            raise HistoryError(f"cannot open the history {path}: {error}") from error
        try:
            self._open()
        except BaseException:
            self._db.close()
            raise

    def _open(self) -> None:
        db = self._db
        try:
            db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            app_id, version, tables = _identity(db)
        except sqlite3.DatabaseError as error:
            raise DamagedDatabase(
                f"the history {self.path} is damaged and cannot be read ({error}); "
                "it was left as it is"
            ) from error
        if app_id == 0 and tables == 0:
            self._create()
        elif app_id != APPLICATION_ID:
            raise NotACompanionDatabase(
                f"{self.path} is an SQLite database of another program, not a companion "
                "history; it was left as it is"
            )
        elif version > SCHEMA_VERSION:
            raise HistoryError(
                f"the history {self.path} was made by a newer companion (schema {version}, "
                f"this one knows {SCHEMA_VERSION}); update the companion"
            )
        elif version < SCHEMA_VERSION:
            self._migrate()
        db.execute("PRAGMA foreign_keys = ON")

    def _create(self) -> None:
        # WAL cannot be switched on inside a transaction, and switching it
        # does not wait for a busy database, so it is retried here. Several
        # processes may get here for one new file: the schema is written
        # under the write lock after checking again.
        deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
        while True:
            try:
                self._db.execute("PRAGMA journal_mode = WAL")
                break
            except sqlite3.OperationalError as error:
                if "locked" not in str(error) or time.monotonic() > deadline:
                    raise
                time.sleep(0.01)
        self._migrate()

    def _migrate(self) -> None:
        with self._write() as db:
            app_id, version, tables = _identity(db)
            if app_id not in (0, APPLICATION_ID) or (app_id == 0 and tables > 0):
                raise NotACompanionDatabase(f"{self.path} is not a companion history")
            db.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations ("
                "version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
            )
            for number, name, script in MIGRATIONS:
                if number <= version:
                    continue
                for statement in script.split(";"):
                    if statement.strip():
                        db.execute(statement)
                db.execute(
                    "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                    (number, name, now_utc()),
                )
            db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
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
        score_file: str,
        result: Mapping[str, Any],
        played_at: str | None = None,
    ) -> int:
        """Save a scored game in one transaction.

        Args:
            game: The game id.
            score_file: The score file exactly as given.
            result: The result document (``Result.to_json()``).
            played_at: ISO 8601 UTC time; now when omitted.

        Returns:
            The new record's id.
        """
        winners = set(result["winners"])
        with self._guard("save the game"), self._write() as db:
            cursor = db.execute(
                "INSERT INTO plays (played_at, game, score_file, result) VALUES (?, ?, ?, ?)",
                (played_at or now_utc(), game, score_file, json.dumps(result)),
            )
            play_id = cursor.lastrowid
            assert play_id is not None
            db.executemany(
                "INSERT INTO play_players (play_id, seat, name, total, rank, winner) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                [
                    (play_id, seat, p["name"], p["total"], p["rank"], p["name"] in winners)
                    for seat, p in enumerate(result["players"])
                ],
            )
        return play_id

    def plays(self) -> list[Play]:
        """Every recorded game, oldest first."""
        with self._guard("read the history"):
            rows = self._db.execute(
                "SELECT id, played_at, game, score_file, result FROM plays ORDER BY id"
            ).fetchall()
        return [_play(row) for row in rows]

    def get(self, play_id: int) -> Play:
        """One recorded game.

        Raises:
            PlayNotFound: No game has that id.
        """
        with self._guard("read the history"):
            row = self._db.execute(
                "SELECT id, played_at, game, score_file, result FROM plays WHERE id = ?",
                (play_id,),
            ).fetchone()
        if row is None:
            raise PlayNotFound(f"no game #{play_id} in the history")
        return _play(row)

    @contextmanager
    def _guard(self, action: str) -> Iterator[None]:
        try:
            yield
        except sqlite3.DatabaseError as error:
            raise DamagedDatabase(
                f"could not {action} in {self.path}: {error}; nothing was changed"
            ) from error


def _check_header(path: Path) -> None:
    if path.is_dir():
        raise HistoryError(f"{path} is a folder, not a history file")
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        return
    with path.open("rb") as handle:
        head = handle.read(len(SQLITE_MAGIC))
    if head and head != SQLITE_MAGIC:
        raise NotACompanionDatabase(
            f"{path} is not a companion history (not an SQLite database); it was left as it is"
        )


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
        if not nested:
            db.execute("COMMIT")
    return int(app_id), int(version), int(tables)


def _play(row: tuple[Any, ...]) -> Play:
    play_id, played_at, game, score_file, result = row
    return Play(play_id, played_at, game, score_file, json.loads(result))
