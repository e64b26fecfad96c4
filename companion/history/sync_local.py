"""The local side of syncing with a club's ledger: what goes up, what comes down.

Every play has a version (migration 8, kept by triggers whoever changes the
play): a change counter, the time of its last change, the ledger's counter it
was made from (``base``), whether it waits to go up, and whether it was
deleted (a tombstone). A play travels as the entry our json export writes for
it (:func:`~companion.history.formats.ours.play_entry`) without its local number,
and comes down checked exactly as an import checks it
(:func:`~companion.history.formats.ours.read_entry`). A person's rename or merge
travels as itself (:class:`Renamed`, noted here in ``rename_log``) and is
applied where it comes down as ``history rename`` makes it, in the ledger's
order among the plays. The ledger itself is
:mod:`companion.club`; this module only reads and writes the local history.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from companion.history.formats.ours import play_entry, read_entry
from companion.history.history_file import HistoryFile
from companion.history.model import Person, Play, fold_uuid, now_utc
from companion.history.people import RenameError, apply_rename
from companion.history.rows import PLAY_COLUMNS, _insert_log, _Numbers, _play, _Rows
from companion.history.store import History
from scorers import ScoreFileError
from scorers.names import name_key

_CHUNK = 500


@dataclass(frozen=True)
class Version:
    """A play's version in this history.

    Attributes:
        uuid: The play's uuid, folded (as the ledger keys it).
        counter: Its change counter.
        changed_at: When it last changed (ISO 8601 UTC, milliseconds).
        base: The ledger's counter this version was made from (``None``: never synced).
        deleted: A tombstone: the play was deleted.
    """

    uuid: str
    counter: int
    changed_at: str
    base: int | None
    deleted: bool


@dataclass(frozen=True)
class Outgoing:
    """A change waiting to go up: the version, the play's entry (``None`` when deleted)
    and the entry it was changed from (as this table last had it from the ledger or
    sent it: ``None`` when none is known)."""

    version: Version
    entry: dict[str, Any] | None
    base_entry: dict[str, Any] | None = None


@dataclass(frozen=True)
class Incoming:
    """A play as the ledger has it: its version and entry (``None`` for a tombstone).

    Attributes:
        seq: The ledger's change number of this version.
        scored: The stamp the ledger holds for it (:func:`scorer_stamp`).
        mine: Written by this table: it came without its entry (see :func:`at_version`).
        text: The entry as the ledger's JSON text, when it came as text.
    """

    uuid: str
    counter: int
    changed_at: str
    deleted: bool
    entry: dict[str, Any] | None
    seq: int = 0
    scored: str = ""
    mine: bool = False
    text: str | None = None


@dataclass(frozen=True)
class SetAside:
    """A row of the ledger this table cannot take: set aside, named, never in the way.

    Attributes:
        seq: Its change number.
        uuid: The play's uuid as the row has it.
        why: Why, in words.
    """

    seq: int
    uuid: str
    why: str


@dataclass(frozen=True)
class Renamed:
    """A rename or merge of a person, as it travels: OLD's games take the name NEW.

    Attributes:
        id: Its id, made where it was made (a rename is applied once by it).
        old: The old name (or its name key).
        new: The new name.
        at: When it was made (ISO 8601 UTC).
        origin: The table that made it (as the ledger has it; empty here).
        uuid: The person's BG Stats player uuid where it was made (empty: none),
            so that every table ends with the same one, and OLD as its alias.
    """

    id: str
    old: str
    new: str
    at: str
    origin: str = ""
    uuid: str = ""


@dataclass(frozen=True)
class ClubState:
    """What this history knows of one ledger: the last change it took, the last sync."""

    last_seq: int
    last_sync: str | None
    shown: str


_STAMPS: dict[str, str] = {}


def _scorer_digest(game: str) -> str:
    """A digest of the source of this companion's scorer of ``game`` ("": no such scorer)."""
    if game not in _STAMPS:
        import importlib.util

        from scorers import SCORERS

        if game not in SCORERS:
            return ""
        spec = importlib.util.find_spec(f"scorers.{game}")
        origin = spec.origin if spec else None
        try:
            data = open(origin, "rb").read() if origin else b""  # noqa: SIM115
        except OSError:
            data = b""
        _STAMPS[game] = hashlib.sha256(data).hexdigest()[:16] if data else ""
    return _STAMPS[game]


def scorer_stamp(entry: dict[str, Any]) -> str:
    """The stamp of a play's entry as scored here: a digest of this companion's
    scorer of its game, then one of its score file and its result together ("": no
    score file, or no scorer of the game).

    A play the ledger holds with the very stamp this table works out for it is not
    scored again here: the same scorer already gave that result for that score file.
    A score file or a result changed in the ledger since (or a play scored by
    another scorer) has another stamp, and is scored again.
    """
    score_file = entry.get("score_file")
    if not isinstance(score_file, str):
        return ""
    scorer = _scorer_digest(str(entry.get("game")))
    if not scorer:
        return ""
    try:
        result = json.dumps(entry.get("result"), ensure_ascii=False, sort_keys=True)
    except (TypeError, ValueError):
        return ""
    digest = hashlib.sha256(f"{len(score_file)}:{score_file}{result}".encode(errors="replace"))
    return f"{scorer}.{digest.hexdigest()[:32]}"


def entry_of(play: Play, events: list[dict[str, Any]]) -> dict[str, Any]:
    """The entry a play travels as: our export's, without the local number."""
    entry = play_entry(play, events)
    del entry["id"]
    return entry


def table_id(history: HistoryFile) -> str:
    """This history's identity among a club's tables (made once, with migration 8)."""
    with history.guard("read the history"):
        return str(history._db.execute("SELECT table_id FROM club_table").fetchone()[0])


def waiting(history: HistoryFile) -> tuple[int, int]:
    """How many plays wait to go up, and how many of them are deletions."""
    with history.guard("read the history"):
        count, deleted = history._db.execute(
            "SELECT count(*), coalesce(sum(deleted), 0) FROM play_versions WHERE dirty = 1"
        ).fetchone()
    return int(count), int(deleted)


def renames(history: HistoryFile) -> list[tuple[str, str, str]]:
    """The renames made here in place: ``(old name key, new name, when)``, oldest first."""
    with history.guard("read the history"):
        rows = history._db.execute(
            "SELECT old_key, new_name, at FROM person_renames ORDER BY at, old_key"
        ).fetchall()
    return [(str(a), str(b), str(c)) for a, b, c in rows]


def outgoing_renames(history: HistoryFile) -> list[Renamed]:
    """The renames and merges made here that the ledger does not have yet, oldest first."""
    with history.guard("read the history"):
        rows = history._db.execute(
            "SELECT id, old_name, new_name, at FROM rename_log WHERE sent = 0 ORDER BY n"
        ).fetchall()
        uuids = dict(history._db.execute("SELECT name_key, uuid FROM player_uuids").fetchall())
    return [
        Renamed(str(a), str(b), str(c), str(d), "", str(uuids.get(name_key(str(c)), "")))
        for a, b, c, d in rows
    ]


def renames_waiting(history: HistoryFile) -> int:
    """How many renames made here wait to go up."""
    with history.guard("read the history"):
        return int(
            history._db.execute("SELECT count(*) FROM rename_log WHERE sent = 0").fetchone()[0]
        )


def renames_sent(history: HistoryFile, ids: Sequence[str]) -> None:
    """Note that the ledger has the renames ``ids``."""
    with history.guard("save the club's renames"), history.transaction() as db:
        db.executemany("UPDATE rename_log SET sent = 1 WHERE id = ?", [(i,) for i in ids])


def state(history: HistoryFile, ledger: str) -> ClubState | None:
    """What this history knows of the ledger ``ledger`` (its id), if it ever synced with it."""
    with history.guard("read the history"):
        row = history._db.execute(
            "SELECT last_seq, last_sync, shown FROM club_state WHERE ledger = ?", (ledger,)
        ).fetchone()
    return None if row is None else ClubState(int(row[0]), row[1], str(row[2]))


def outgoing(history: HistoryFile, *, after: str = "", limit: int = _CHUNK) -> list[Outgoing]:
    """The next ``limit`` changes waiting to go up, by uuid after ``after``."""
    with history.guard("read the history"):
        db = history._db
        rows = db.execute(
            "SELECT uuid, counter, changed_at, base, deleted, base_entry FROM play_versions "
            "WHERE dirty = 1 AND uuid > ? ORDER BY uuid LIMIT ?",
            (after, limit),
        ).fetchall()
        versions = [Version(fold_uuid(u), c, t, b, bool(d)) for u, c, t, b, d, _ in rows]
        bases = {fold_uuid(r[0]): _loaded(r[5]) for r in rows}
        plays = _plays_by_uuid(db, [v.uuid for v in versions if not v.deleted])
        logs = _event_logs(db, [p.id for p in plays.values()])
    found = []
    for version in versions:
        play = plays.get(version.uuid)
        if play is None:  # gone without its tombstone noted: a deletion all the same
            found.append(Outgoing(replace(version, deleted=True), None, bases[version.uuid]))
        else:
            entry = entry_of(play, logs.get(play.id, []))
            found.append(Outgoing(version, entry, bases[version.uuid]))
    return found


def _loaded(text: str | None) -> dict[str, Any] | None:
    if not text:
        return None
    try:
        value = json.loads(text)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _dumped(entry: dict[str, Any] | None) -> str | None:
    return None if entry is None else json.dumps(entry, ensure_ascii=False, sort_keys=True)


def _plays_by_uuid(db: sqlite3.Connection, uuids: Sequence[str]) -> dict[str, Play]:
    plays: dict[str, Play] = {}
    for start in range(0, len(uuids), _CHUNK):
        part = list(uuids[start : start + _CHUNK])
        marks = ",".join("?" * len(part))
        rows = db.execute(
            f"SELECT {PLAY_COLUMNS} FROM plays WHERE uuid COLLATE NOCASE IN ({marks})", part
        ).fetchall()
        people: dict[int, list[Person]] = {}
        ids = [row[0] for row in rows]
        id_marks = ",".join("?" * len(ids))
        for play_id, name, side, anonymous in db.execute(
            "SELECT play_id, name, side, anonymous FROM play_people "
            f"WHERE play_id IN ({id_marks}) ORDER BY play_id, position",
            ids,
        ):
            people.setdefault(play_id, []).append(Person(name, side, bool(anonymous)))
        for row in rows:
            plays[fold_uuid(row[1])] = _play(row, tuple(people.get(row[0], ())))
    return plays


def _event_logs(db: sqlite3.Connection, ids: Sequence[int]) -> dict[int, list[dict[str, Any]]]:
    logs: dict[int, list[dict[str, Any]]] = {}
    for start in range(0, len(ids), _CHUNK):
        part = list(ids[start : start + _CHUNK])
        marks = ",".join("?" * len(part))
        for play_id, at, key, value in db.execute(
            "SELECT sessions.play_id, e.at, e.key, e.value FROM sessions "
            "JOIN session_events AS e ON e.session_id = sessions.id "
            "WHERE sessions.status = 'finished' AND sessions.kind <> 'web' AND sessions.play_id IN "
            f"({marks}) ORDER BY sessions.play_id, sessions.id, e.seq",
            part,
        ):
            logs.setdefault(play_id, []).append({"at": at, "key": key, "value": json.loads(value)})
    return logs


@dataclass
class Applied:
    """What a batch from the ledger did here.

    Attributes:
        added: Plays new here.
        changed: Plays replaced by the ledger's version.
        deleted: Plays deleted here.
        refused: Entries that did not pass the import's checks: ``uuid: problem``.
        not_renamed: Renames that could not be made here (nothing changed), each
            ``OLD -> NEW: why``.
        renamed: Renames that changed games here.
        renamed_games: Games here those renames changed.
    """

    added: int = 0
    changed: int = 0
    deleted: int = 0
    refused: list[str] | None = None
    not_renamed: list[str] = field(default_factory=list)
    renamed: int = 0
    renamed_games: int = 0

    @property
    def total(self) -> int:
        """Plays added, changed or deleted."""
        return self.added + self.changed + self.deleted


def take(
    history: History,
    items: Sequence[Incoming | Renamed | SetAside],
    *,
    ledger: str,
    shown: str,
    last_seq: int | None = None,
    sent: dict[str, int] | None = None,
    pushed: Sequence[tuple[str, int, int, dict[str, Any] | None]] = (),
) -> Applied:
    """Bring the ledger's versions of plays, and its renames, into this history in one transaction.

    A play that changed here since it last went up is left as it is (it goes up
    next, and the ledger decides), unless it is in ``sent`` with the counter
    it had when it was sent (the ledger kept its own version instead). A play
    this history already has at that version is left as it is. A rename is
    applied in its place among the plays, as ``history rename`` makes it
    (:func:`~companion.history.people.apply_rename`); the games it changes
    wait to go up.

    Args:
        history: The history, open for writing.
        items: The ledger's plays and renames, in the ledger's order.
        ledger: The ledger's id.
        shown: The ledger's address without credentials, for ``club status``.
        last_seq: The ledger's last change these items come up to, when pulled.
        sent: For the plays whose version the ledger kept over ours: the
            counter each had when it was sent.
        pushed: The plays that went up: ``(uuid, counter sent, the ledger's counter now)``.
    """
    with history.guard("save the club's plays"):
        # A page cache of 64 MB while plays come down: a new table's indexes grow
        # by the thousand in one transaction.
        history._db.execute("PRAGMA cache_size = -65536")
        # In WAL mode, NORMAL never leaves the history inconsistent: a power cut
        # can only undo the last batches taken, together with the ledger's change
        # number they came up to, so they come down again at the next sync.
        durable = int(history._db.execute("PRAGMA synchronous").fetchone()[0])
        if history._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal":
            history._db.execute("PRAGMA synchronous = NORMAL")
    try:
        return _take(history, items, ledger, shown, last_seq, sent, pushed)
    finally:
        with history.guard("save the club's plays"):
            history._db.execute(f"PRAGMA synchronous = {durable}")


def _take(
    history: History,
    items: Sequence[Incoming | Renamed | SetAside],
    ledger: str,
    shown: str,
    last_seq: int | None,
    sent: dict[str, int] | None,
    pushed: Sequence[tuple[str, int, int, dict[str, Any] | None]],
) -> Applied:
    done = Applied(refused=[])
    with history.guard("save the club's plays"), history.transaction() as db:
        db.executemany(
            "UPDATE play_versions SET base = ?, base_entry = ?, "
            "dirty = CASE WHEN counter = ? THEN 0 ELSE 1 END, "
            "counter = CASE WHEN counter = ? THEN ? ELSE counter END WHERE uuid = ?",
            [
                (now, _dumped(entry), sent_counter, sent_counter, now, uuid)
                for uuid, sent_counter, now, entry in pushed
            ],
        )
        run: list[Incoming] = []
        for item in [*items, None]:
            if isinstance(item, Incoming):
                run.append(item)
                continue
            if isinstance(item, SetAside):
                _set_aside(db, ledger, item, done)
                continue
            _take_plays(db, run, sent, done, ledger)
            run = []
            if item is None:
                break
            try:
                games = apply_rename(history, db, item.old, item.new)
            except RenameError as error:
                done.not_renamed.append(f"{item.old} -> {item.new}: {error}")
                continue
            if item.uuid:
                db.executemany(
                    "INSERT OR REPLACE INTO player_uuids (name_key, uuid, name) VALUES (?, ?, ?)",
                    [
                        (name_key(item.old), item.uuid, item.old),
                        (name_key(item.new), item.uuid, item.new),
                    ],
                )
            if games:
                done.renamed += 1
                done.renamed_games += games
        db.execute(
            "INSERT INTO club_state (ledger, shown, last_seq, last_sync, pushed, pulled) "
            "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (ledger) DO UPDATE SET shown = excluded.shown, "
            "last_seq = max(last_seq, excluded.last_seq), last_sync = excluded.last_sync, "
            "pushed = pushed + excluded.pushed, pulled = pulled + excluded.pulled",
            (ledger, shown, last_seq or 0, now_utc(), len(pushed), done.total),
        )
    return done


def _set_aside(db: sqlite3.Connection, ledger: str, item: SetAside, done: Applied) -> None:
    """Note a row of the ledger this table cannot take, and say so once."""
    uuid = item.uuid[:100]
    line = f"{uuid}: {item.why}"
    done.refused.append(line)  # type: ignore[union-attr]
    db.execute(
        "INSERT OR REPLACE INTO club_set_aside (ledger, seq, uuid, why, at) VALUES (?, ?, ?, ?, ?)",
        (ledger, item.seq, uuid, item.why[:300], now_utc()),
    )


def _take_plays(
    db: sqlite3.Connection,
    items: Sequence[Incoming],
    sent: dict[str, int] | None,
    done: Applied,
    ledger: str = "",
) -> None:
    """Bring the ledger's versions of ``items`` into this history, inside the transaction.

    An entry that is not a play's (not an object, or carrying another play's uuid)
    is set aside and named; every other one is still taken.
    """
    if not items:
        return
    fit: list[Incoming] = []
    for item in items:
        if item.deleted:
            fit.append(item)
        elif not isinstance(item.entry, dict):
            _set_aside(db, ledger, SetAside(item.seq, item.uuid, "its entry is not a play"), done)
        elif fold_uuid(str(item.entry.get("uuid", ""))) != item.uuid:
            why = "its entry carries another play's uuid"
            _set_aside(db, ledger, SetAside(item.seq, item.uuid, why), done)
        else:
            fit.append(item)
    # Every play taken gets its version below, written whole: the trigger that
    # gives a play added here a version of its own (waiting to go up, at once
    # replaced) is set aside while they are inserted, and made again, as it was,
    # in the same transaction (an error, or a sync killed, undoes both).
    trigger = db.execute(
        "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = 'version_play_added'"
    ).fetchone()
    if trigger is not None:
        db.execute("DROP TRIGGER version_play_added")
    _take_fit(db, fit, sent, done, ledger)
    if trigger is not None:
        db.execute(trigger[0])


def _take_fit(
    db: sqlite3.Connection,
    items: Sequence[Incoming],
    sent: dict[str, int] | None,
    done: Applied,
    ledger: str,
) -> None:
    """Take ``items`` (each a tombstone or a play's object with its own uuid); every
    play inserted gets its version here."""
    local = _versions(db, [item.uuid for item in items])
    ids = _local_ids(db, [item.uuid for item in items])
    numbers = _Numbers(db)
    rows = _Rows()
    relink: list[tuple[int, int]] = []
    settled: list[tuple[Any, ...]] = []
    for item in items:
        mine = local.get(item.uuid)
        if mine is not None and mine[1]:
            if sent is None or sent.get(item.uuid) != mine[0]:
                continue  # changed here since: it goes up, and the ledger decides
        elif mine is not None and mine[0] == item.counter and mine[2] == item.counter:
            continue  # already this version
        play: Play | None = None
        events: list[dict[str, Any]] = []
        if not item.deleted:
            entry = item.entry or {}
            trusted = bool(item.scored) and item.scored == scorer_stamp(entry)
            try:
                play, events = read_entry({**entry, "id": 1}, item.uuid, trusted=trusted)
            except ScoreFileError as error:
                why = f"{error.problems[0]}"
                _set_aside(db, ledger, SetAside(item.seq, item.uuid, why), done)
                continue
        found = ids.get(item.uuid)
        if found is not None:
            play_id = found
            if play is not None:
                relink += [
                    (play_id, int(s))
                    for (s,) in db.execute("SELECT id FROM sessions WHERE play_id = ?", (play_id,))
                ]
            for table in ("play_players", "play_people", "play_pairs"):
                db.execute(f"DELETE FROM {table} WHERE play_id = ?", (play_id,))
            db.execute("DELETE FROM plays WHERE id = ?", (play_id,))
            if play is None:
                db.execute("DELETE FROM play_extras WHERE play_id = ?", (play_id,))
                db.execute(
                    "UPDATE sessions SET status = 'deleted', play_id = NULL WHERE play_id = ?",
                    (play_id,),
                )
                done.deleted += 1
            else:
                rows.add(play, play_id)
                done.changed += 1
        elif play is not None:
            play_id = numbers.take(None)
            rows.add(play, play_id)
            if events:
                rows.write(db)
                rows = _Rows()
                numbers.claim()
                _insert_log(db, play_id, play.game, events)
                numbers = _Numbers(db)
            done.added += 1
        settled.append(
            (
                item.uuid,
                item.counter,
                item.changed_at,
                item.counter,
                item.deleted,
                item.text if item.text is not None else _dumped(item.entry),
            )
        )
    rows.write(db)
    numbers.claim()
    db.executemany("UPDATE sessions SET play_id = ? WHERE id = ?", relink)
    db.executemany(
        "INSERT INTO play_versions (uuid, counter, changed_at, base, dirty, deleted, base_entry) "
        "VALUES (?, ?, ?, ?, 0, ?, ?) ON CONFLICT (uuid) DO UPDATE SET "
        "counter = excluded.counter, changed_at = excluded.changed_at, "
        "base = excluded.base, dirty = 0, deleted = excluded.deleted, "
        "base_entry = excluded.base_entry",
        settled,
    )


def already_here(history: HistoryFile, items: Sequence[Incoming]) -> set[str]:
    """The uuids of ``items`` this history need not take: it has that very version
    of the play, or changed the play since (it goes up next, and the ledger decides)."""
    with history.guard("read the history"):
        local = _versions(history._db, [item.uuid for item in items])
    found = set()
    for item in items:
        mine = local.get(item.uuid)
        if mine is not None and (mine[1] or mine[0] == mine[2] == item.counter):
            found.add(item.uuid)
    return found


def _versions(db: sqlite3.Connection, uuids: Sequence[str]) -> dict[str, tuple[int, bool, int]]:
    """``uuid -> (counter, waiting, base)`` for the plays ``uuids`` that have a version here."""
    found: dict[str, tuple[int, bool, int]] = {}
    for start in range(0, len(uuids), _CHUNK):
        part = list(uuids[start : start + _CHUNK])
        marks = ",".join("?" * len(part))
        for uuid, counter, dirty, base in db.execute(
            f"SELECT uuid, counter, dirty, base FROM play_versions WHERE uuid IN ({marks})", part
        ):
            found[fold_uuid(uuid)] = (int(counter), bool(dirty), -1 if base is None else base)
    return found


def _local_ids(db: sqlite3.Connection, uuids: Sequence[str]) -> dict[str, int]:
    """``uuid -> local number`` for the plays ``uuids`` this history has."""
    found: dict[str, int] = {}
    for start in range(0, len(uuids), _CHUNK):
        part = list(uuids[start : start + _CHUNK])
        marks = ",".join("?" * len(part))
        for uuid, play_id in db.execute(
            f"SELECT uuid, id FROM plays WHERE uuid COLLATE NOCASE IN ({marks})", part
        ):
            found[fold_uuid(uuid)] = int(play_id)
    return found


def table_of(history: HistoryFile) -> tuple[str, str | None, str]:
    """This table's id, its name (``None``: never named) and its markers, space-separated."""
    with history.guard("read the history"):
        row = history._db.execute("SELECT table_id, name, token FROM club_table").fetchone()
    return str(row[0]), row[1], str(row[2] or "")


def name_table(history: History, name: str) -> None:
    """Name this table (it goes up to the ledger at the next sync)."""
    with history.guard("name this table"), history.transaction() as db:
        db.execute("UPDATE club_table SET name = ?", (name,))


def new_marker() -> str:
    """A new random marker for this history file."""
    import uuid

    return str(uuid.uuid4())


def set_marker(history: History, token: str) -> None:
    """Keep this history's marker (or the previous and the new one while they change)."""
    with history.guard("save the table's marker"), history.transaction() as db:
        db.execute("UPDATE club_table SET token = ?", (token,))


def new_table_id(history: History) -> str:
    """Give this history (a copy of another table's) a table id of its own."""
    import uuid

    fresh = str(uuid.uuid4())
    with history.guard("save the table's id"), history.transaction() as db:
        db.execute("UPDATE club_table SET table_id = ?", (fresh,))
    return fresh


def told_up_to(history: HistoryFile, ledger: str) -> int:
    """The last conflict of the ledger ``ledger`` this table was told about."""
    with history.guard("read the history"):
        row = history._db.execute(
            "SELECT told FROM club_state WHERE ledger = ?", (ledger,)
        ).fetchone()
    return int(row[0]) if row else 0


def set_told(history: History, ledger: str, told: int) -> None:
    """Note that this table was told of the ledger's conflicts up to ``told``."""
    with history.guard("save the club's state"), history.transaction() as db:
        db.execute("UPDATE club_state SET told = max(told, ?) WHERE ledger = ?", (told, ledger))


def set_aside(history: HistoryFile, ledger: str) -> list[tuple[int, str, str]]:
    """The ledger's rows this table set aside: ``(change number, uuid, why)``."""
    with history.guard("read the history"):
        rows = history._db.execute(
            "SELECT seq, uuid, why FROM club_set_aside WHERE ledger = ? ORDER BY seq", (ledger,)
        ).fetchall()
    return [(int(a), str(b), str(c)) for a, b, c in rows]


def local_numbers(history: HistoryFile, uuids: Sequence[str]) -> dict[str, int]:
    """``uuid -> the game's number here`` for the plays ``uuids`` this history has."""
    with history.guard("read the history"):
        return _local_ids(history._db, [fold_uuid(u) for u in uuids])


def game_logs(history: HistoryFile, plays: Sequence[Play]) -> dict[int, list[dict[str, Any]]]:
    """The answers of the played-along games among ``plays``, by play id."""
    with history.guard("read the history"):
        return _event_logs(history._db, [p.id for p in plays])
