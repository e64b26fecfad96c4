"""A club's ledger on PostgreSQL (psycopg 3): connecting, its schema, and what is read
and written there.

Every write (a batch of plays going up) is one transaction under one advisory
lock, so that concurrent syncs from several tables are safe and each play's
change number (``seq``) is committed in order: a table that has seen every
change up to ``n`` misses none when it next asks for those above ``n``.
"""

from __future__ import annotations

import json
import uuid as uuids
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from companion.club.address import ClubError, masked, scrub
from companion.club.schema import FORMAT, MIGRATIONS, VERSION
from companion.history.sync_local import Incoming, Outgoing, Renamed
from scorers.names import name_key

if TYPE_CHECKING:
    import psycopg

LOCK = 0x636C7562
"""The advisory lock every writer takes (``club`` in ASCII)."""
CONNECT_TIMEOUT = 10


@dataclass(frozen=True)
class Conflict:
    """Two versions of one play changed apart: the one kept and the one that lost."""

    uuid: str
    game: str | None
    played_at: str | None
    kept_origin: str
    lost_origin: str
    lost_changed_at: str
    at: str


@dataclass
class Pushed:
    """What a batch going up did.

    Attributes:
        settled: ``(uuid, counter sent, the ledger's counter now)`` for each play
            whose version the ledger now has (written, or already the same).
        written: How many plays were written.
        lost: The ledger's versions that won over ours (to take here).
        sent: The counters the losing plays had when sent.
        conflicts: How many conflicts were kept.
    """

    settled: list[tuple[str, int, int]] = field(default_factory=list)
    written: int = 0
    lost: list[Incoming] = field(default_factory=list)
    sent: dict[str, int] = field(default_factory=dict)
    conflicts: int = 0


def _reason(error: BaseException, url: str) -> str:
    text = scrub(str(error).strip().splitlines()[0] if str(error).strip() else "", url)
    lower = text.lower()
    if "password authentication failed" in lower:
        return "the server refused the password (check PGPASSWORD or ~/.pgpass)"
    if "no password supplied" in lower:
        return "the server wants a password (set PGPASSWORD or a line in ~/.pgpass)"
    return text.removeprefix("connection failed: ") or type(error).__name__


class Ledger:
    """An open connection to a club's ledger.

    Args:
        url: The connection string (its password, if any, is never shown).
    """

    def __init__(self, url: str) -> None:
        import psycopg

        self.url = url
        self.shown = masked(url)
        try:
            self.db: psycopg.Connection[Any] = psycopg.connect(
                url, connect_timeout=CONNECT_TIMEOUT, application_name="companion"
            )
        except psycopg.Error as error:
            raise ClubError(
                f"cannot connect to the club's ledger {self.shown}: {_reason(error, url)}"
            ) from None
        except (ValueError, TypeError) as error:
            raise ClubError(
                f"{self.shown} is not a PostgreSQL connection string: {scrub(str(error), url)}"
            ) from None

    def close(self) -> None:
        """Close the connection."""
        self.db.close()

    @contextmanager
    def guard(self, action: str) -> Iterator[None]:
        """Turn a server's error while doing ``action`` into a one-line :class:`ClubError`."""
        import psycopg

        try:
            yield
        except psycopg.errors.InsufficientPrivilege:
            raise ClubError(
                f"the club's ledger {self.shown} does not let this role {action}"
            ) from None
        except psycopg.Error as error:
            raise ClubError(
                f"could not {action} on the club's ledger {self.shown}: {_reason(error, self.url)}"
            ) from None

    @contextmanager
    def _one_write(self) -> Iterator[None]:
        """One transaction on the server: committed after the body, rolled back on any error."""
        self.db.rollback()  # what was only read ends here
        try:
            yield
        except BaseException:
            self.db.rollback()
            raise
        self.db.commit()

    def version(self) -> int | None:
        """The ledger's version, or ``None`` when the database holds no ledger at all.

        Raises:
            ClubError: The database holds other tables named like ours.
        """
        import psycopg

        with self.guard("read the ledger"):
            if self.db.execute("SELECT to_regclass('ledger')").fetchone() == (None,):
                self.db.rollback()
                return None
            try:
                rows = dict(self.db.execute("SELECT key, value FROM ledger").fetchall())
            except psycopg.errors.InsufficientPrivilege:
                self.db.rollback()
                raise
            self.db.rollback()
        if rows.get("format") != FORMAT or not str(rows.get("version", "")).isdigit():
            raise ClubError(f"{self.shown} is not a club's ledger (run companion club init there)")
        self.id = str(rows.get("id", ""))
        return int(rows["version"])

    def check(self) -> None:
        """Refuse a database that is not a ledger, or a ledger this companion cannot read.

        Raises:
            ClubError: Not a ledger, or made by a newer companion.
        """
        version = self.version()
        if version is None:
            raise ClubError(f"{self.shown} is not a club's ledger (run companion club init there)")
        if version > VERSION:
            raise ClubError(
                f"the club's ledger {self.shown} was made by a newer companion (ledger version "
                f"{version}, this one knows {VERSION}); update the companion"
            )
        if version < VERSION:
            raise ClubError(
                f"the club's ledger {self.shown} is at version {version}: "
                "run companion club init there to upgrade it"
            )

    def init(self) -> tuple[int, int]:
        """Create the ledger's schema, or upgrade it: ``(version before, version now)``.

        Raises:
            ClubError: A newer ledger, another program's tables, or no right to create them.
        """
        before = self.version() or 0
        if before > VERSION:
            self.check()
        if before == VERSION:
            return before, before
        with self.guard("create the ledger's tables"), self._one_write():
            self.db.execute("SELECT pg_advisory_xact_lock(%s)", (LOCK,))
            for number, name, statements in MIGRATIONS:
                if number <= before:
                    continue
                for statement in statements:
                    self.db.execute(statement)
                self.db.execute(
                    "INSERT INTO schema_migrations (version, name) VALUES (%s, %s)", (number, name)
                )
            self.db.execute(
                "INSERT INTO ledger (key, value) VALUES ('format', %s), ('id', %s) "
                "ON CONFLICT (key) DO NOTHING",
                (FORMAT, str(uuids.uuid4())),
            )
            self.db.execute(
                "INSERT INTO ledger (key, value) VALUES ('version', %s) "
                "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (str(VERSION),),
            )
        self.version()
        return before, VERSION

    def writable(self) -> bool:
        """Whether this role may write plays (a member who can only read may still pull)."""
        with self.guard("read the ledger"):
            row = self.db.execute(
                "SELECT has_table_privilege('plays', 'INSERT, UPDATE') "
                "AND has_table_privilege('sides', 'INSERT, DELETE') "
                "AND has_table_privilege('renames', 'INSERT') "
                "AND has_sequence_privilege('change_numbers', 'USAGE')"
            ).fetchone()
            self.db.rollback()
        return bool(row and row[0])

    def pull(self, after: int, limit: int) -> list[tuple[int, Incoming | Renamed]]:
        """The next ``limit`` plays changed and renames made after change number ``after``,
        in the ledger's order."""
        with self.guard("read the ledger"):
            rows = self.db.execute(
                "SELECT seq, uuid, counter, changed_at, deleted, entry FROM plays "
                "WHERE seq > %s ORDER BY seq LIMIT %s",
                (after, limit),
            ).fetchall()
            renamed = self.db.execute(
                "SELECT seq, id, old_name, new_name, made_at, origin FROM renames "
                "WHERE seq > %s ORDER BY seq LIMIT %s",
                (after, limit),
            ).fetchall()
            self.db.rollback()
        found: list[tuple[int, Incoming | Renamed]] = [
            (seq, Incoming(u, c, t, d, e)) for seq, u, c, t, d, e in rows
        ]
        found += [(seq, Renamed(i, o, n, t, g)) for seq, i, o, n, t, g in renamed]
        return sorted(found, key=lambda item: item[0])[:limit]

    def push_renames(self, renames: Sequence[Renamed], origin: str) -> int:
        """Write renames made at this table in one transaction, each once (by its id).

        Returns:
            How many were new to the ledger.
        """
        written = 0
        if not renames:
            return written
        with self.guard("write renames"), self._one_write():
            self.db.execute("SELECT pg_advisory_xact_lock(%s)", (LOCK,))
            for r in renames:
                written += self.db.execute(
                    "INSERT INTO renames (seq, id, origin, old_name, new_name, made_at) "
                    "SELECT nextval('change_numbers'), %s, %s, %s, %s, %s "
                    "WHERE NOT EXISTS (SELECT 1 FROM renames WHERE id = %s)",
                    (r.id, origin, r.old, r.new, r.at, r.id),
                ).rowcount
        return written

    def waiting_for(self, after: int, origin: str) -> tuple[int, int]:
        """How many plays changed, and renames made, after ``after`` by other tables than
        ``origin``."""
        with self.guard("read the ledger"):
            row = self.db.execute(
                "SELECT (SELECT count(*) FROM plays WHERE seq > %s AND origin <> %s), "
                "(SELECT count(*) FROM renames WHERE seq > %s AND origin <> %s)",
                (after, origin, after, origin),
            ).fetchone()
            self.db.rollback()
        return (int(row[0]), int(row[1])) if row else (0, 0)

    def last_seq(self) -> int:
        """The ledger's last change number (a play's change or a rename)."""
        with self.guard("read the ledger"):
            row = self.db.execute(
                "SELECT greatest((SELECT coalesce(max(seq), 0) FROM plays), "
                "(SELECT coalesce(max(seq), 0) FROM renames))"
            ).fetchone()
            self.db.rollback()
        return int(row[0]) if row else 0

    def counts(self) -> tuple[int, int]:
        """``(plays, deleted plays)`` in the ledger."""
        with self.guard("read the ledger"):
            row = self.db.execute(
                "SELECT count(*) FILTER (WHERE NOT deleted), count(*) FILTER (WHERE deleted) "
                "FROM plays"
            ).fetchone()
            self.db.rollback()
        return (int(row[0]), int(row[1])) if row else (0, 0)

    def conflicts(self, limit: int = 50) -> tuple[int, list[Conflict]]:
        """How many conflicts the ledger keeps, and the latest ``limit`` of them."""
        with self.guard("read the ledger"):
            total = self.db.execute("SELECT count(*) FROM conflicts").fetchone()
            rows = self.db.execute(
                "SELECT c.play_uuid, p.game, p.played_at, c.kept_origin, c.lost_origin, "
                "c.lost_changed_at, to_char(c.at AT TIME ZONE 'UTC', "
                '\'YYYY-MM-DD"T"HH24:MI:SS"Z"\') '
                "FROM conflicts AS c JOIN plays AS p ON p.uuid = c.play_uuid "
                "ORDER BY c.id DESC LIMIT %s",
                (limit,),
            ).fetchall()
            self.db.rollback()
        return (int(total[0]) if total else 0), [Conflict(*row) for row in rows]

    def push(self, batch: Sequence[Outgoing], origin: str) -> Pushed:
        """Write a batch of this table's changes in one transaction.

        A play the ledger does not have, or has at the version ours was made
        from, takes ours. One the ledger has as ours is, only settles. One
        changed both here and in the ledger since is a conflict: the newer
        change (by counter, then time, then table) wins, and the other
        version is kept in ``conflicts``.
        """
        done = Pushed()
        if not batch:
            return done
        keys = [o.version.uuid for o in batch]
        with self.guard("write plays"), self._one_write():
            self.db.execute("SELECT pg_advisory_xact_lock(%s)", (LOCK,))
            theirs = {
                row[0]: row
                for row in self.db.execute(
                    "SELECT uuid, counter, changed_at, origin, deleted, entry, game, played_at "
                    "FROM plays WHERE uuid = ANY(%s) FOR UPDATE",
                    (keys,),
                )
            }
            writes: list[tuple[Outgoing, int, str]] = []
            lost: list[tuple[Any, ...]] = []
            for out in batch:
                v = out.version
                row = theirs.get(v.uuid)
                if row is None:
                    writes.append((out, v.counter, "deleted" if v.deleted else "added"))
                    done.settled.append((v.uuid, v.counter, v.counter))
                    continue
                _, counter, changed_at, their_origin, deleted, entry, _, _ = row
                if (deleted and v.deleted) or (not deleted and entry == out.entry):
                    done.settled.append((v.uuid, v.counter, counter))
                    continue
                new = max(v.counter, counter + 1)
                kind = "deleted" if v.deleted else "edited"
                if v.base == counter:
                    writes.append((out, new, kind))
                    done.settled.append((v.uuid, v.counter, new))
                elif (v.counter, v.changed_at, origin) > (counter, changed_at, their_origin):
                    writes.append((out, new, kind))
                    done.settled.append((v.uuid, v.counter, new))
                    lost.append(
                        (v.uuid, new, origin, counter, changed_at, their_origin, _json(entry))
                    )
                else:
                    lost.append(
                        (
                            v.uuid,
                            counter,
                            their_origin,
                            v.counter,
                            v.changed_at,
                            origin,
                            _json(out.entry),
                        )
                    )
                    done.lost.append(Incoming(v.uuid, counter, changed_at, deleted, entry))
                    done.sent[v.uuid] = v.counter
            self._write(writes, origin)
            if lost:
                with self.db.cursor() as cursor:
                    cursor.executemany(
                        "INSERT INTO conflicts (play_uuid, kept_counter, kept_origin, "
                        "lost_counter, lost_changed_at, lost_origin, lost_entry) "
                        "VALUES (%s, %s, %s, %s, %s, %s, %s::jsonb)",
                        lost,
                    )
            done.written = len(writes)
            done.conflicts = len(lost)
        return done

    def _write(self, writes: Sequence[tuple[Outgoing, int, str]], origin: str) -> None:
        if not writes:
            return
        db = self.db
        places = sorted(
            {o.entry["location"] for o, _, _ in writes if o.entry and o.entry["location"]}
        )
        people: dict[str, str] = {}
        for out, _, _ in writes:
            for person in (out.entry or {}).get("people", []):
                people[_key(person)] = person["name"]
        keys = [o.version.uuid for o, _, _ in writes]
        db.execute(
            "INSERT INTO places (name) SELECT unnest(%s::text[]) ON CONFLICT DO NOTHING", (places,)
        )
        db.execute(
            "INSERT INTO people (name_key, name) SELECT * FROM unnest(%s::text[], %s::text[]) "
            "ON CONFLICT (name_key) DO UPDATE SET name = excluded.name",
            (list(people), list(people.values())),
        )
        db.execute("DELETE FROM sides WHERE play_uuid = ANY(%s)", (keys,))
        columns: list[list[Any]] = [[] for _ in range(9)]
        for out, counter, _ in writes:
            entry = out.entry
            values = (
                out.version.uuid,
                counter,
                out.version.changed_at,
                origin,
                entry is None,
                entry["game"] if entry else None,
                entry["played_at"] if entry else None,
                (entry["location"] or None) if entry else None,
                _json(entry),
            )
            for column, value in zip(columns, values, strict=True):
                column.append(value)
        db.execute(
            "INSERT INTO plays (uuid, counter, changed_at, origin, seq, deleted, game, "
            "played_at, place, entry) SELECT u, c, t, o, nextval('change_numbers'), d, g, p, pl, "
            "e::jsonb FROM unnest(%s::text[], %s::bigint[], %s::text[], %s::text[], "
            "%s::boolean[], %s::text[], %s::text[], %s::text[], %s::text[]) "
            "AS x(u, c, t, o, d, g, p, pl, e) "
            "ON CONFLICT (uuid) DO UPDATE SET counter = excluded.counter, "
            "changed_at = excluded.changed_at, origin = excluded.origin, seq = excluded.seq, "
            "deleted = excluded.deleted, game = excluded.game, played_at = excluded.played_at, "
            "place = excluded.place, entry = excluded.entry",
            columns,
        )
        db.execute(
            "INSERT INTO changes (seq, play_uuid, counter, changed_at, origin, kind) "
            "SELECT p.seq, p.uuid, p.counter, p.changed_at, p.origin, k.kind FROM plays AS p "
            "JOIN unnest(%s::text[], %s::text[]) AS k(u, kind) ON p.uuid = k.u",
            (keys, [kind for _, _, kind in writes]),
        )
        with db.cursor() as cursor:
            with cursor.copy(
                "COPY sides (play_uuid, seat, name, total, rank, winner) FROM STDIN"
            ) as copy:
                for out, _, _ in writes:
                    if out.entry is None:
                        continue
                    winners = set(out.entry["result"]["winners"])
                    for seat, side in enumerate(out.entry["result"]["players"]):
                        copy.write_row(
                            (
                                out.version.uuid,
                                seat,
                                side["name"],
                                side["total"],
                                side["rank"],
                                side["name"] in winners,
                            )
                        )
            with cursor.copy(
                "COPY play_people (play_uuid, position, side, name_key, name, anonymous) FROM STDIN"
            ) as copy:
                for out, _, _ in writes:
                    for position, person in enumerate((out.entry or {}).get("people", [])):
                        copy.write_row(
                            (
                                out.version.uuid,
                                position,
                                person["side"],
                                _key(person),
                                person["name"],
                                person["anonymous"],
                            )
                        )


ANONYMOUS = ""
"""The ledger's key for BG Stats' anonymous player (no name's key is empty)."""


def _key(person: dict[str, Any]) -> str:
    return ANONYMOUS if person["anonymous"] else name_key(person["name"])


def _json(entry: object) -> str | None:
    return None if entry is None else json.dumps(entry, ensure_ascii=False)


@contextmanager
def connected(url: str) -> Iterator[Ledger]:
    """The ledger at ``url``, open for the ``with`` body and closed after it."""
    ledger = Ledger(url)
    try:
        yield ledger
    finally:
        ledger.close()
