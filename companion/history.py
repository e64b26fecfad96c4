"""The history of games played, kept in SQLite.

The database is marked with its own ``application_id`` so that a file that is
not ours is recognised before anything is written to it. The schema is
versioned by the ``schema_migrations`` table; each write is one transaction
taken with ``BEGIN IMMEDIATE`` in WAL mode, with a busy timeout, so several
companion processes can save at the same moment.
"""

from __future__ import annotations

import errno
import heapq
import json
import os
import sqlite3
import stat
import time
import uuid as uuids
from collections.abc import Iterable, Iterator, Mapping
from contextlib import closing, contextmanager, suppress
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any

from companion.schema import COUNTED, MIGRATIONS, NOT_COUNTED, SCHEMA_VERSION
from scorers.names import name_key

if TYPE_CHECKING:
    from companion.stats import Tables

APPLICATION_ID = 0x43504E31  # "CPN1"
SQLITE_MAGIC = b"SQLite format 3\x00"
BUSY_TIMEOUT_MS = 30_000
ENV_VAR = "COMPANION_DB"
PLAY_COLUMNS = (
    "id, uuid, played_at, game, score_file, result, location, notes, duration_min, source, "
    "ignored, expansions, start_player, status"
)
FINAL, INTERIM = "final", "interim"


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


@dataclass(frozen=True)
class Person:
    """One person at the table.

    Attributes:
        name: As shown (two names with the same :func:`name_key` are the same
            person).
        side: The index of their side in ``result["players"]``: their own
            entry, or their team's.
        anonymous: BG Stats' anonymous player: kept in the play, never a
            person in the stats.
    """

    name: str
    side: int
    anonymous: bool = False

    def to_json(self) -> dict[str, Any]:
        """``{"name", "side", "anonymous"}``."""
        return {"name": self.name, "side": self.side, "anonymous": self.anonymous}


@dataclass(frozen=True)
class Expansion:
    """An expansion played with the game (from BG Stats' ``expansionPlays``)."""

    name: str
    bgg_id: int = 0

    def to_json(self) -> dict[str, Any]:
        """``{"name", "bgg_id"}``."""
        return {"name": self.name, "bgg_id": self.bgg_id}


@dataclass(frozen=True)
class Play:
    """One recorded game.

    The result's ``players`` are the sides that scored: one per player, or one
    per team in a team game (4-player Shibuya). ``people`` are the persons at
    the table in seat order, each pointing at their side; in a team game that
    order goes round the sides (Shibuya: side 0's first member, side 1's
    first, side 0's second, side 1's second). A side whose members are not
    known has no people. A side's ``total`` is ``None`` when it was not scored
    (a blank score in BG Stats) and its ``rank`` ``None`` when unknown.

    Attributes:
        id: The record's number.
        uuid: A stable identity, kept across exports and imports (compared
            without regard to case).
        played_at: When it was played, ISO 8601 in UTC.
        game: The game id.
        score_file: The score file exactly as given (``None`` for a play
            imported from another app without one).
        result: The result document, as ``companion score --json`` prints it.
        location: Where it was played.
        notes: Free text.
        duration_min: How long it took, in minutes, if known.
        source: ``companion``, or the app it was imported from.
        start_player: The person (index into ``people``) who started, if known.
        people: The persons in seat order; ``None`` (only when saving) means
            "take them from the score file": a team's ``members``, otherwise
            one person per side.
        ignored: Kept out of statistics (as BG Stats' ``ignored`` plays).
        expansions: Expansions played with it.
        status: ``final``, or ``interim`` for a scoring that does not end the
            game (Shogun's first winter): shown, but out of wins and stats.
    """

    id: int
    uuid: str
    played_at: str
    game: str
    score_file: str | None
    result: dict[str, Any]
    location: str = ""
    notes: str = ""
    duration_min: int | None = None
    source: str = "companion"
    start_player: int | None = None
    people: tuple[Person, ...] | None = None
    ignored: bool = False
    expansions: tuple[Expansion, ...] = ()
    status: str = FINAL

    @property
    def players(self) -> list[str]:
        """The sides' names in seat order (a team game: the teams)."""
        return [p["name"] for p in self.result["players"]]

    @property
    def persons(self) -> tuple[Person, ...]:
        """The people, taken from the score file when not given."""
        if self.people is not None:
            return self.people
        return derive_people(self.score_file, self.result)

    @property
    def uses_teams(self) -> bool:
        """Whether a side is a team (its members differ from one person of its name)."""
        return _uses_teams(self.persons, self.players)

    def members(self, side: int) -> list[Person]:
        """The known people of ``side``, in seat order."""
        return [p for p in self.persons if p.side == side]

    @property
    def starter(self) -> Person | None:
        """The person who started, when known."""
        people = self.persons
        if self.start_player is None or not 0 <= self.start_player < len(people):
            return None
        return people[self.start_player]

    def won(self, person: Person) -> bool:
        """Whether ``person`` is on a winning side."""
        return self.result["players"][person.side]["name"] in self.result["winners"]

    def to_json(self) -> dict[str, Any]:
        """Everything about the record, its score file parsed."""
        return {
            "id": self.id,
            "uuid": self.uuid,
            "played_at": self.played_at,
            "game": self.game,
            "location": self.location,
            "notes": self.notes,
            "duration_min": self.duration_min,
            "source": self.source,
            "start_player": self.start_player,
            "people": [p.to_json() for p in self.persons],
            "ignored": self.ignored,
            "expansions": [e.to_json() for e in self.expansions],
            "status": self.status,
            "score_file": None if self.score_file is None else json.loads(self.score_file),
            "result": self.result,
        }

    def summary(self) -> dict[str, Any]:
        """The record without its score file, for ``history list --json``."""
        return summary_of(
            self.id,
            self.played_at,
            self.game,
            self.ignored,
            self.result["players"],
            self.result["winners"],
            self.persons,
            self.status,
        )


def summary_of(
    play_id: int,
    played_at: str,
    game: str,
    ignored: bool,
    sides: list[dict[str, Any]],
    winners: list[str],
    people: Iterable[Person],
    status: str = FINAL,
) -> dict[str, Any]:
    """The ``history list --json`` entry of one play.

    ``players`` are the sides (name, total or ``None``, rank or ``None``),
    each with its ``members``; ``people`` are the persons in seat order. An
    interim scoring (a Shogun first winter) has a leader, not a winner: its
    ``winners`` are empty and it carries ``"status": "interim"``.
    """
    people = list(people)
    return {
        "id": play_id,
        "played_at": played_at,
        "game": game,
        "ignored": ignored,
        "players": [
            {
                "name": side["name"],
                "total": side["total"],
                "rank": side["rank"],
                "members": [p.name for p in people if p.side == k],
            }
            for k, side in enumerate(sides)
        ],
        "people": [p.to_json() for p in people],
        "winners": list(winners) if status == FINAL else [],
        **({"status": status} if status != FINAL else {}),
    }


def _uses_teams(people: Iterable[Person], sides: list[str]) -> bool:
    counts = [0] * len(sides)
    for person in people:
        counts[person.side] += 1
        if person.name != sides[person.side]:
            return True
    return any(c != 1 for c in counts)


def seat_order(teams: list[list[str]]) -> list[tuple[int, str]]:
    """``(side, name)`` of every member in seat order, going round the sides.

    Partners sit apart: with two teams of two, the order is side 0's first
    member, side 1's first, side 0's second, side 1's second.
    """
    order: list[tuple[int, str]] = []
    for k in range(max((len(t) for t in teams), default=0)):
        order.extend((side, members[k]) for side, members in enumerate(teams) if k < len(members))
    return order


def derive_people(score_file: str | None, result: Mapping[str, Any]) -> tuple[Person, ...]:
    """The people of a play from its score file: a team's members, else one per side."""
    sides = [p["name"] for p in result["players"]]
    teams = _members_in(score_file, len(sides))
    if teams is not None:
        return tuple(Person(name, side) for side, name in seat_order(teams))
    return tuple(Person(name, side) for side, name in enumerate(sides))


def _members_in(score_file: str | None, sides: int) -> list[list[str]] | None:
    if score_file is None:
        return None
    try:
        data = json.loads(score_file)
    except ValueError:
        return None
    entries = data.get("players") if isinstance(data, dict) else None
    if not isinstance(entries, list) or len(entries) != sides:
        return None
    teams = [e.get("members") if isinstance(e, dict) else None for e in entries]
    if not all(isinstance(t, list) and t and all(isinstance(m, str) for m in t) for t in teams):
        return None
    return [list(t) for t in teams if isinstance(t, list)]


@dataclass(frozen=True)
class Filter:
    """Which plays a query covers; every field left ``None`` matches all.

    Attributes:
        game: A game id.
        player: A person's name (compared by :func:`name_key`: case is ignored).
            A team is not a person: its name matches its members' plays only
            if one of them has that name.
        since: An ISO date or time; plays at or after it.
    """

    game: str | None = None
    player: str | None = None
    since: str | None = None

    def where(self) -> tuple[str, list[Any]]:
        """The SQL condition on ``plays`` and its parameters."""
        clauses, params = self.clauses()
        return (" WHERE " + " AND ".join(clauses) if clauses else ""), params

    def clauses(self) -> tuple[list[str], list[Any]]:
        """The conditions on ``plays`` (to be joined with AND) and their parameters."""
        clauses: list[str] = []
        params: list[Any] = []
        if self.game:
            clauses.append("plays.game = ?")
            params.append(self.game)
        if self.player:
            clauses.append(
                "plays.id IN (SELECT play_id FROM play_people WHERE name_key = ? AND anonymous = 0)"
            )
            params.append(name_key(self.player))
        if self.since:
            clauses.append("plays.played_at >= ?")
            params.append(self.since)
        return clauses, params


def default_path() -> Path:
    """``$COMPANION_DB``, or ``history.sqlite3`` in the user's data directory."""
    configured = os.environ.get(ENV_VAR)
    if configured:
        return Path(configured).expanduser()
    import platformdirs

    return platformdirs.user_data_path("companion", appauthor=False) / "history.sqlite3"


def status_of(game: str, score_file: str | Mapping[str, Any] | None) -> str:
    """``interim`` for a scoring that does not end its game, else ``final``.

    Shogun scores each winter; only the second (``"year": 2``) ends the game.
    """
    if game != "shogun" or score_file is None:
        return FINAL
    try:
        data = json.loads(score_file) if isinstance(score_file, str) else score_file
    except ValueError:
        return FINAL
    return INTERIM if isinstance(data, Mapping) and data.get("year") == 1 else FINAL


def now_utc() -> str:
    """The current time as stored in ``played_at``."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


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
        timeout = BUSY_TIMEOUT_MS / 1000
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
        self._db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
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
        deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
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
        source = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_MS / 1000)
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

    def seat_rows(self, where: Filter | None = None) -> list[tuple[Any, ...]]:
        """Every side of every play that counts in statistics, with its people.

        Plays marked ignored are left out, and so are interim scorings (a
        scoring that did not end its game).
        One row per person, and one row with no person for a side whose
        members are not known::

            (play_id, game, side, side_name, total, rank, winner,
             person_key, person_name, anonymous)

        ``total`` is ``None`` for a side that was not scored, ``rank`` ``None``
        when unknown; ``person_key`` is :func:`name_key` of the name. Ordered by
        time, then play, then side, then seat: the raw material of the stats.
        """
        condition, params = (where or Filter()).where()
        counted = f"plays.ignored = 0 AND plays.status = '{FINAL}'"
        condition = f"{condition} AND {counted}" if condition else f" WHERE {counted}"
        with self.guard("read the history"):
            return self._db.execute(
                "SELECT plays.id, plays.game, pp.seat, pp.name, "
                "CASE WHEN pp.scored THEN pp.total END, nullif(pp.rank, 0), pp.winner, "
                "people.name_key, people.name, coalesce(people.anonymous, 0) "
                "FROM plays JOIN play_players AS pp ON pp.play_id = plays.id "
                "LEFT JOIN play_people AS people "
                "ON people.play_id = plays.id AND people.side = pp.seat"
                f"{condition} ORDER BY plays.played_at, plays.id, pp.seat, people.position",
                params,
            ).fetchall()

    def stat_tables(self, where: Filter | None = None) -> Tables:
        """What :func:`companion.stats.summarize` makes the stats of, aggregated by SQLite.

        The same figures :func:`companion.stats.compute` works out from
        :meth:`seat_rows`, read from what each play keeps for the statistics
        (migration 6), so that 100,000 plays take a fraction of a second.
        """
        from companion.stats import Tables

        clauses, params = (where or Filter()).clauses()
        counted = f" WHERE {' AND '.join([*clauses, COUNTED])}"
        db = self._db
        with self.guard("read the history"):
            if clauses:
                in_set = f"IN (SELECT plays.id FROM plays{counted})"
            elif db.execute(f"SELECT 1 FROM plays WHERE {NOT_COUNTED} LIMIT 1").fetchone():
                in_set = f"NOT IN (SELECT id FROM plays WHERE {NOT_COUNTED})"
            else:
                in_set = "IS NOT NULL"  # every play counts
            records = db.execute(
                "SELECT name_key, game, count(*), sum(winner), count(total), "
                "coalesce(sum(total), 0), max(total), min(played_at) "
                f"FROM play_people WHERE anonymous = 0 AND play_id {in_set} "
                "GROUP BY name_key, game",
                params,
            ).fetchall()
            records = self._first_seen(records, in_set, params)
            games = db.execute(
                "SELECT game, count(*), max(top_score), coalesce(sum(winning_score), 0), "
                "count(winning_score), coalesce(sum(margin), 0), count(margin) "
                f"FROM plays{counted} GROUP BY game",
                params,
            ).fetchall()
            pairs = db.execute(
                "SELECT a_key, b_key, count(*), sum(a_above), sum(b_above) "
                f"FROM play_pairs WHERE play_id {in_set} GROUP BY a_key, b_key",
                params,
            ).fetchall()
            people = self._latest(records, clauses, params, where or Filter())
            high = {
                game: self._high_scorers(game, top, counted, params)
                for game, _, top, *_ in games
                if top is not None
            }
        return Tables(
            [tuple(row[:7]) for row in records],
            people,
            [(game, plays, top, high.get(game, []), *rest) for game, plays, top, *rest in games],
            pairs,
        )

    def _first_seen(
        self, records: list[tuple[Any, ...]], in_set: str, params: list[Any]
    ) -> list[tuple[Any, ...]]:
        """``records`` in the order of each person's first play of each game.

        Their first time in a game is the last column; when two of a person's
        games start at the same time, the play's number decides.
        """
        firsts: dict[tuple[str, str], int] = {}
        seen: dict[tuple[str, str], list[str]] = {}
        for key, game, *_, first in records:
            seen.setdefault((key, first), []).append(game)
        for (key, first), games in seen.items():
            if len(games) > 1:
                for game in games:
                    firsts[(key, game)] = self._db.execute(
                        "SELECT min(play_id) FROM play_people WHERE name_key = ? AND game = ? "
                        f"AND anonymous = 0 AND played_at = ? AND play_id {in_set}",
                        [key, game, first, *params],
                    ).fetchone()[0]
        return sorted(records, key=lambda r: (r[-1], firsts.get((r[0], r[1]), 0)))

    def _latest(
        self,
        records: list[tuple[Any, ...]],
        clauses: list[str],
        params: list[Any],
        where: Filter,
    ) -> dict[str, tuple[str, int]]:
        """Each person's latest name and current streak, reading back from their last play."""
        db = self._db
        if clauses:
            counted = f" WHERE {' AND '.join([*clauses, COUNTED])}"
            allowed = {row[0] for row in db.execute(f"SELECT plays.id FROM plays{counted}", params)}
            keep: Any = allowed.__contains__
        else:
            left_out = {row[0] for row in db.execute(f"SELECT id FROM plays WHERE {NOT_COUNTED}")}
            keep = lambda play_id: play_id not in left_out  # noqa: E731
        since = " AND played_at >= ?" if where.since else ""
        games_of: dict[str, list[str]] = {}
        for key, game, *_ in records:
            games_of.setdefault(key, []).append(game)
        found: dict[str, tuple[str, int]] = {}
        for key, games in games_of.items():
            cursors = [
                db.execute(
                    "SELECT played_at, play_id, winner, name FROM play_people "
                    "WHERE name_key = ? AND game = ? AND anonymous = 0"
                    f"{since} ORDER BY played_at DESC, play_id DESC",
                    [key, game, *([where.since] if where.since else [])],
                )
                for game in games
            ]
            name: str | None = None
            streak = 0
            for _, play_id, winner, shown in heapq.merge(*cursors, reverse=True):
                if not keep(play_id):
                    continue
                if name is None:
                    name = shown
                if not winner:
                    break
                streak += 1
            for cursor in cursors:
                cursor.close()
            if name is not None:
                found[key] = (name, streak)
        return found

    def _high_scorers(self, game: str, top: int, counted: str, params: list[Any]) -> list[str]:
        """Who made the high score ``top`` of ``game``, in the order they first made it."""
        names: dict[str, None] = {}
        for side, person in self._db.execute(
            "SELECT pp.name, people.name FROM plays INDEXED BY plays_counted "
            "JOIN play_players AS pp ON pp.play_id = plays.id "
            "LEFT JOIN play_people AS people "
            "ON people.play_id = plays.id AND people.side = pp.seat"
            f"{counted} AND plays.game = ? AND plays.top_score = ? "
            "AND pp.scored AND pp.total = ? "
            "ORDER BY plays.played_at, plays.id, pp.seat, people.position",
            [*params, game, top, top],
        ):
            names.setdefault(person if person is not None else side)
        return list(names)

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


def insert(db: sqlite3.Connection, play: Play, *, keep_id: bool, exact: bool = False) -> int:
    """Insert ``play``, its sides and its people; inside the caller's transaction.

    Args:
        db: The connection, in a write transaction.
        play: The play.
        keep_id: Keep ``play.id`` when no play and no game in progress has it.
        exact: Keep ``play.id`` whatever holds it (an edited play, put back).

    Returns:
        The id it was stored under (its own when ``keep_id`` and free).
    """
    wanted = play.id if keep_id and play.id > 0 else None
    if wanted is None or (not exact and number_taken(db, wanted)):
        wanted = next_number(db)
    else:
        claim_number(db, wanted)
    batch = _Rows()
    batch.add(play, wanted)
    batch.write(db)
    return wanted


_PLAYS_INSERT = (
    f"INSERT INTO plays ({PLAY_COLUMNS}, top_score, winning_score, margin) "
    f"VALUES ({', '.join('?' * 17)})"
)
_PLAYERS_INSERT = (
    "INSERT INTO play_players (play_id, seat, name, total, rank, winner, start_player, scored) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
)
_PEOPLE_INSERT = (
    "INSERT INTO play_people "
    "(play_id, position, side, name, name_key, anonymous, game, played_at, winner, total) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
_PAIRS_INSERT = (
    "INSERT INTO play_pairs (play_id, a_key, b_key, a_position, b_position, a_above, b_above) "
    "VALUES (?, ?, ?, ?, ?, ?, ?)"
)
_JSON = json.JSONEncoder(ensure_ascii=False)


class _Rows:
    """The rows of plays to insert, written together (``executemany``).

    With each play go what the statistics read (see :data:`schema.DERIVED`,
    which works out the same for the plays of an older history): its top
    score, winning score and margin of victory; each person's game, time and
    side's result; every two people on different sides, and who finished above.
    """

    def __init__(self) -> None:
        self.plays: list[tuple[Any, ...]] = []
        self.players: list[tuple[Any, ...]] = []
        self.people: list[tuple[Any, ...]] = []
        self.pairs: list[tuple[Any, ...]] = []

    def add(self, play: Play, play_id: int) -> None:
        """Add the rows of ``play``, stored under ``play_id``."""
        people = play.persons
        sides = play.result["players"]
        winners = set(play.result["winners"])
        won = [side["name"] in winners for side in sides]
        totals = [side["total"] for side in sides]
        scored = [t for t in totals if t is not None]
        winning = max(
            (t for t, w in zip(totals, won, strict=True) if w and t is not None), default=None
        )
        other = max(
            (t for t, w in zip(totals, won, strict=True) if not w and t is not None), default=None
        )
        if winning is None:
            margin = None
        elif other is not None:
            margin = winning - other
        else:
            margin = 0 if all(won) else None
        self.plays.append(
            (
                play_id,
                play.uuid,
                play.played_at,
                play.game,
                play.score_file,
                _JSON.encode(play.result),
                play.location,
                play.notes,
                play.duration_min,
                play.source,
                int(play.ignored),
                _JSON.encode([e.to_json() for e in play.expansions]) if play.expansions else "[]",
                play.start_player,
                play.status,
                max(scored, default=None),
                winning,
                margin,
            )
        )
        start = play.start_player
        starter = people[start].side if start is not None and 0 <= start < len(people) else None
        self.players.extend(
            (
                play_id,
                seat,
                side["name"],
                side["total"] if side["total"] is not None else 0,
                side["rank"] or 0,
                won[seat],
                starter == seat,
                side["total"] is not None,
            )
            for seat, side in enumerate(sides)
        )
        keys = [name_key(p.name) for p in people]
        # A person of no side (never written by the companion) has no result.
        result = [
            (int(won[p.side]), totals[p.side]) if 0 <= p.side < len(sides) else (None, None)
            for p in people
        ]
        self.people.extend(
            (play_id, k, p.side, p.name, keys[k], int(p.anonymous), play.game, play.played_at)
            + result[k]
            for k, p in enumerate(people)
        )
        ranks = [side["rank"] or 0 for side in sides]
        for a, first in enumerate(people):
            for b in range(a + 1, len(people)):
                second = people[b]
                if first.anonymous or second.anonymous or first.side == second.side:
                    continue
                if result[a][0] is None or result[b][0] is None:
                    continue
                if keys[a] == keys[b]:
                    continue
                x, y = (a, b) if keys[a] < keys[b] else (b, a)
                side_x, side_y = people[x].side, people[y].side
                if ranks[side_x] > 0 and ranks[side_y] > 0:
                    x_above, y_above = ranks[side_x] < ranks[side_y], ranks[side_y] < ranks[side_x]
                else:
                    x_above = won[side_x] and not won[side_y]
                    y_above = won[side_y] and not won[side_x]
                self.pairs.append((play_id, keys[x], keys[y], x, y, x_above, y_above))

    def write(self, db: sqlite3.Connection) -> None:
        """Insert the rows; then start empty."""
        if self.plays:
            db.executemany(_PLAYS_INSERT, self.plays)
            db.executemany(_PLAYERS_INSERT, self.players)
            db.executemany(_PEOPLE_INSERT, self.people)
            db.executemany(_PAIRS_INSERT, self.pairs)
        self.plays, self.players, self.people, self.pairs = [], [], [], []


def number_taken(db: sqlite3.Connection, number: int) -> bool:
    """Whether a play, or a game in progress, already has ``number``."""
    return bool(
        db.execute(
            "SELECT 1 FROM plays WHERE id = ? UNION ALL "
            "SELECT 1 FROM sessions WHERE id = ? AND status = 'active'",
            (number, number),
        ).fetchone()
    )


def next_number(db: sqlite3.Connection) -> int:
    """Hand out the next game number, shared by games in progress and plays.

    Inside the caller's write transaction. A game keeps its number from its
    first question to the history, so ``companion resume 10`` and "game #10"
    are the same game; numbers are never handed out twice.
    """
    number = int(
        db.execute(
            "SELECT max(coalesce((SELECT last FROM game_numbers), 0), "
            "coalesce((SELECT max(id) FROM plays), 0), "
            "coalesce((SELECT max(id) FROM sessions), 0)) + 1"
        ).fetchone()[0]
    )
    claim_number(db, number)
    return number


def claim_number(db: sqlite3.Connection, number: int) -> None:
    """Record that ``number`` is used (a kept id), so it is never handed out again."""
    db.execute(
        "INSERT INTO game_numbers (id, last) VALUES (1, ?) "
        "ON CONFLICT (id) DO UPDATE SET last = max(last, excluded.last)",
        (number,),
    )


ANONYMOUS_KEY = "\0anonymous"
"""The key under which BG Stats' anonymous player's uuid is kept."""
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def fold_uuid(text: str) -> str:
    """A uuid as SQLite's NOCASE compares it (only A to Z are folded)."""
    return text.lower() if text.isascii() else text.translate(_ASCII_LOWER)


def _present_uuids(db: sqlite3.Connection, wanted: list[str]) -> set[str]:
    """Which of ``wanted`` the history already has, folded (:func:`fold_uuid`)."""
    found: set[str] = set()
    for chunk in range(0, len(wanted), 500):
        part = wanted[chunk : chunk + 500]
        marks = ",".join("?" * len(part))
        found.update(
            fold_uuid(row[0])
            for row in db.execute(
                f"SELECT uuid FROM plays WHERE uuid COLLATE NOCASE IN ({marks})", part
            )
        )
    return found


class _Numbers:
    """Game numbers handed out to a batch of plays, as :func:`next_number` and
    :func:`number_taken` would one play at a time, claimed together."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db
        self.last = int(
            db.execute(
                "SELECT max(coalesce((SELECT last FROM game_numbers), 0), "
                "coalesce((SELECT max(id) FROM plays), 0), "
                "coalesce((SELECT max(id) FROM sessions), 0))"
            ).fetchone()[0]
        )
        self.taken: set[int] = set()

    def take(self, wanted: int | None) -> int:
        """``wanted`` when no play and no game in progress has it, else the next number."""
        if wanted is None or wanted in self.taken or number_taken(self.db, wanted):
            wanted = self.last + 1
        self.last = max(self.last, wanted)
        self.taken.add(wanted)
        return wanted

    def claim(self) -> None:
        """Record the numbers handed out, so that they are never handed out again."""
        if self.taken:
            claim_number(self.db, self.last)


def _insert_log(db: sqlite3.Connection, play_id: int, game: str, log: list[dict[str, Any]]) -> None:
    """Store an imported event log as the finished session of ``play_id`` (same number)."""
    free = not db.execute("SELECT 1 FROM sessions WHERE id = ?", (play_id,)).fetchone()
    cursor = db.execute(
        "INSERT INTO sessions (id, game, kind, started_at, updated_at, status, play_id) "
        "VALUES (?, ?, 'play', ?, ?, 'finished', ?)",
        (play_id if free else None, game, log[0]["at"], log[-1]["at"], play_id),
    )
    db.executemany(
        "INSERT INTO session_events (session_id, seq, at, key, value) VALUES (?, ?, ?, ?, ?)",
        [
            (cursor.lastrowid, seq, e["at"], e["key"], json.dumps(e["value"]))
            for seq, e in enumerate(log, 1)
        ],
    )


def _play(row: tuple[Any, ...], people: tuple[Person, ...]) -> Play:
    (play_id, uuid, played_at, game, score_file, result, location, notes, duration, source) = row[
        :10
    ]
    ignored, expansions, start_player = row[10:13]
    return Play(
        play_id,
        uuid,
        played_at,
        game,
        score_file,
        json.loads(result),
        location,
        notes,
        duration,
        source,
        start_player,
        people,
        bool(ignored),
        tuple(Expansion(e["name"], e["bgg_id"]) for e in json.loads(expansions)),
        row[13],
    )
