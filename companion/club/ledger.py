"""A club's ledger on PostgreSQL (psycopg 3): connecting, its schema, and what is read
and written there.

Every write (a batch of plays going up) is one transaction under one advisory
lock, so that concurrent syncs from several tables are safe and each play's
change number (``seq``) is committed in order: a table that has seen every
change up to ``n`` misses none when it next asks for those above ``n``.
"""

from __future__ import annotations

import copy
import json
import uuid as uuids
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from companion.club.address import ClubError, masked, scrub
from companion.club.merge import Differs, merge
from companion.club.schema import FORMAT, MIGRATIONS, VERSION
from companion.history.sync_local import Incoming, Outgoing, Renamed, SetAside, scorer_stamp
from scorers.names import name_key

if TYPE_CHECKING:
    import psycopg

LOCK = 0x636C7562
"""The advisory lock every writer takes (``club`` in ASCII)."""
CONNECT_TIMEOUT = 10


@dataclass(frozen=True)
class Conflict:
    """Two tables changed one play apart: the version kept (1) and the other (2).

    Attributes:
        id: Its number in the ledger (``club settle N``).
        uuid: The play's uuid.
        game: The game, as the ledger has the play now.
        played_at: When it was played.
        place: Where.
        players: The players' names.
        kind: ``version`` (values changed differently) or ``deleted`` (an edit
            against a deletion).
        kept_origin: The table whose version is kept for now (1).
        lost_origin: The other table (2).
        kept_name: The first table's name (``None``: never named).
        lost_name: The other table's name.
        differs: Each value that differs.
        kept_entry: Version 1 (``None``: deleted).
        lost_entry: Version 2 (``None``: deleted).
        at: When the ledger kept it.
        settled: ``None`` while open, else which version was kept.
    """

    id: int
    uuid: str
    game: str | None
    played_at: str | None
    place: str | None
    players: list[str]
    kind: str
    kept_origin: str
    lost_origin: str
    kept_name: str | None
    lost_name: str | None
    differs: list[Differs]
    kept_entry: dict[str, Any] | None
    lost_entry: dict[str, Any] | None
    at: str
    settled: str | None = None


@dataclass(frozen=True)
class Write:
    """A play's version written in the ledger by this table."""

    uuid: str
    entry: dict[str, Any] | None
    changed_at: str
    kind: str


@dataclass
class Pushed:
    """What a batch going up did.

    Attributes:
        settled: ``(uuid, counter sent, the ledger's counter now, entry)`` for each
            play whose version the ledger now has as ours (written, or already the same).
        written: How many plays were written.
        lost: The ledger's versions to take here instead of ours: another
            table's, or a merge of both.
        sent: The counters those plays had here when sent.
        conflicts: How many conflicts were kept.
        merged: How many plays were merged with another table's change.
    """

    settled: list[tuple[str, int, int, dict[str, Any] | None]] = field(default_factory=list)
    written: int = 0
    lost: list[Incoming] = field(default_factory=list)
    sent: dict[str, int] = field(default_factory=dict)
    conflicts: int = 0
    merged: int = 0


MAX_ENTRY = 2_000_000
"""A play's entry longer than this (in bytes of JSON) is set aside, not taken."""
PULL_BUDGET = 32_000_000
"""About this many bytes of entries at most in one batch coming down."""


def _valid(entry: dict[str, Any] | None) -> bool:
    """Whether a merged entry passes the import's checks (a deletion always does)."""
    if entry is None:
        return True
    from companion.history.formats.ours import read_entry
    from scorers import ScoreFileError

    try:
        read_entry({**entry, "id": 1}, str(entry.get("uuid", "play")))
    except ScoreFileError:
        return False
    return True


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
                rows = dict(self.db.execute("SELECT key::text, value::text FROM ledger").fetchall())
            except psycopg.errors.InsufficientPrivilege:
                self.db.rollback()
                raise
            except (psycopg.errors.UndefinedColumn, psycopg.errors.DataError, ValueError):
                self.db.rollback()
                raise ClubError(
                    f"{self.shown} is not a club's ledger: it holds another program's table "
                    "named ledger (give the club its own database)"
                ) from None
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

    def _bound(self) -> int:
        """The last change number the server itself has given (rows above it were
        written around the server's numbering and are never trusted)."""
        row = self.db.execute("SELECT companion_last_change()").fetchone()
        return int(row[0]) if row else 0

    def pull(
        self, after: int, limit: int, origin: str = ""
    ) -> tuple[int, list[tuple[int, Incoming | Renamed | SetAside]]]:
        """The next plays changed and renames made after change number ``after``, in the
        ledger's order: at most ``limit`` of them, and about :data:`PULL_BUDGET` bytes,
        none with a change number the server has not given itself.

        A row this table cannot take (an entry that is not a play's object, or too
        long) comes as a :class:`SetAside` naming it. A play last written by
        ``origin`` (this table) comes without its entry (``mine``): this table
        mostly has that version already, and asks for the others with
        :meth:`rows`. Returns the last change number looked at (``after`` when
        there is nothing) and the rows.
        """
        with self.guard("read the ledger"):
            bound = self._bound()
            # Each entry is written out as text once (the innermost query, kept whole
            # by its LIMIT), measured, and sent only when not too long.
            rows = self.db.execute(
                "SELECT seq, uuid, counter, changed_at, deleted, "
                "CASE WHEN NOT mine AND size <= %(max)s AND kind = 'object' THEN body END, "
                "size, coalesce(kind, 'null'), coalesce(scored, ''), mine FROM ("
                "SELECT *, sum(least(size, %(max)s)) OVER (ORDER BY seq) - least(size, %(max)s) "
                "AS before FROM (SELECT *, coalesce(octet_length(body), 0) AS size FROM ("
                "SELECT seq, uuid, counter, changed_at, deleted, scored, "
                "jsonb_typeof(entry) AS kind, (origin = %(me)s AND %(me)s <> '') AS mine, "
                "CASE WHEN origin = %(me)s AND %(me)s <> '' THEN NULL ELSE entry::text END "
                "AS body FROM plays WHERE seq > %(after)s AND seq <= %(bound)s "
                "ORDER BY seq LIMIT %(limit)s) AS a) AS b) AS c "
                "WHERE before < %(budget)s ORDER BY seq",
                {
                    "max": MAX_ENTRY,
                    "me": origin,
                    "after": after,
                    "bound": bound,
                    "limit": limit,
                    "budget": PULL_BUDGET,
                },
            ).fetchall()
            cut = len(rows) == limit or bool(
                rows
                and self.db.execute(
                    "SELECT EXISTS (SELECT 1 FROM plays WHERE seq > %s AND seq <= %s)",
                    (rows[-1][0], bound),
                ).fetchone()
                == (True,)
            )
            renamed = self.db.execute(
                "SELECT seq, id, old_name, new_name, made_at, origin, coalesce(player_uuid, '') "
                "FROM renames "
                "WHERE seq > %s AND seq <= %s ORDER BY seq LIMIT %s",
                (after, rows[-1][0] if cut else bound, limit),
            ).fetchall()
            self.db.rollback()
        found: list[tuple[int, Incoming | Renamed | SetAside]] = [
            (row[0], _item(row)) for row in rows
        ]
        found += [(seq, Renamed(i, o, n, t, g, str(pu))) for seq, i, o, n, t, g, pu in renamed]
        found.sort(key=lambda item: item[0])
        found = found[:limit]
        return (found[-1][0] if found else after), found

    def rows(self, seqs: Sequence[int]) -> list[Incoming | SetAside]:
        """The plays at change numbers ``seqs`` whole, as :meth:`pull` gives the plays
        of other tables, in that order: the first ones of them, about
        :data:`PULL_BUDGET` bytes at most (at least one)."""
        found: list[Incoming | SetAside] = []
        if not seqs:
            return found
        step = max(1, PULL_BUDGET // MAX_ENTRY)
        held = 0
        with self.guard("read the ledger"):
            for start in range(0, len(seqs), step):
                for row in self.db.execute(
                    "WITH s AS (SELECT seq, uuid, counter, changed_at, deleted, entry, "
                    "scored, coalesce(octet_length(entry::text), 0) AS size FROM plays "
                    "WHERE seq = ANY(%s)) "
                    "SELECT seq, uuid, counter, changed_at, deleted, "
                    "CASE WHEN size <= %s AND jsonb_typeof(entry) = 'object' "
                    "THEN entry::text END, size, coalesce(jsonb_typeof(entry), 'null'), "
                    "coalesce(scored, ''), false FROM s ORDER BY seq",
                    (sorted(seqs[start : start + step]), MAX_ENTRY),
                ).fetchall():
                    found.append(_item(row))
                    held += min(int(row[6]), MAX_ENTRY)
                if held >= PULL_BUDGET:
                    break
            self.db.rollback()
        return found

    def beyond(self) -> int:
        """How many rows carry a change number the server never gave (set aside by every
        table)."""
        with self.guard("read the ledger"):
            bound = self._bound()
            row = self.db.execute(
                "SELECT (SELECT count(*) FROM plays WHERE seq > %s) "
                "+ (SELECT count(*) FROM renames WHERE seq > %s)",
                (bound, bound),
            ).fetchone()
            self.db.rollback()
        return int(row[0]) if row else 0

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
                    "INSERT INTO renames (seq, id, origin, old_name, new_name, made_at, "
                    "player_uuid) SELECT nextval('change_numbers'), %s, %s, %s, %s, %s, %s "
                    "WHERE NOT EXISTS (SELECT 1 FROM renames WHERE id = %s)",
                    (r.id, origin, r.old, r.new, r.at, r.uuid[:100] or None, r.id),
                ).rowcount
        return written

    def waiting_for(self, after: int, origin: str) -> tuple[int, int]:
        """How many plays changed, and renames made, after ``after`` by other tables than
        ``origin``."""
        with self.guard("read the ledger"):
            bound = self._bound()
            row = self.db.execute(
                "SELECT (SELECT count(*) FROM plays WHERE seq > %s AND seq <= %s "
                "AND origin <> %s), "
                "(SELECT count(*) FROM renames WHERE seq > %s AND seq <= %s AND origin <> %s)",
                (after, bound, origin, after, bound, origin),
            ).fetchone()
            self.db.rollback()
        return (int(row[0]), int(row[1])) if row else (0, 0)

    def last_seq(self) -> int:
        """The ledger's last change number (a play's change or a rename)."""
        with self.guard("read the ledger"):
            bound = self._bound()
            row = self.db.execute(
                "SELECT greatest((SELECT coalesce(max(seq), 0) FROM plays WHERE seq <= %s), "
                "(SELECT coalesce(max(seq), 0) FROM renames WHERE seq <= %s))",
                (bound, bound),
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

    def conflicts(self, *, open_only: bool = True, limit: int = 200) -> tuple[int, list[Conflict]]:
        """How many conflicts are open (not settled), and the oldest ``limit`` of them
        (or of all, settled too, when not ``open_only``)."""
        where = "WHERE c.settled_at IS NULL" if open_only else ""
        with self.guard("read the ledger"):
            total = self.db.execute(
                "SELECT count(*) FROM conflicts WHERE settled_at IS NULL"
            ).fetchone()
            rows = self.db.execute(
                "SELECT c.id, c.play_uuid, p.game, p.played_at, p.place, "
                "(SELECT coalesce(array_agg(s.name ORDER BY s.seat), '{}') FROM sides AS s "
                "WHERE s.play_uuid = p.uuid), c.kind, c.kept_origin, c.lost_origin, "
                "tk.name, tl.name, c.differs, c.kept_entry, c.lost_entry, "
                "to_char(c.at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"'), "
                "c.settled_keep FROM conflicts AS c JOIN plays AS p ON p.uuid = c.play_uuid "
                "LEFT JOIN tables AS tk ON tk.id = c.kept_origin "
                f"LEFT JOIN tables AS tl ON tl.id = c.lost_origin {where} "
                "ORDER BY c.id LIMIT %s",
                (limit,),
            ).fetchall()
            self.db.rollback()
        return (int(total[0]) if total else 0), [_conflict(row) for row in rows]

    def conflict(self, number: int) -> Conflict | None:
        """The conflict ``number``, settled or not."""
        _, found = self.conflicts(open_only=False, limit=1_000_000)
        return next((c for c in found if c.id == number), None)

    def told(self, after: int, origin: str) -> list[Conflict]:
        """The open conflicts about ``origin``'s changes kept after conflict ``after``."""
        _, found = self.conflicts(limit=1_000_000)
        return [c for c in found if c.id > after and origin in (c.kept_origin, c.lost_origin)]

    def settle(self, number: int, keep: str, origin: str, changed_at: str) -> Conflict:
        """Settle the open conflict ``number``: keep version ``1`` or ``2``, or combine
        them: one digit per value that differs, in the order ``club conflicts`` lists
        them (``21``: the first value from version 2, the second from version 1).

        Keeping anything of version 2 writes the game's new version (merged with any
        change made to the play since the conflict). Either way the conflict is
        closed, by this table.

        Raises:
            ClubError: No such open conflict, or a combination that is not one.
        """
        found = self.conflict(number)
        if found is None:
            raise ClubError(
                f"the club's ledger has no conflict {number} (companion club conflicts)"
            )
        if found.settled is not None:
            raise ClubError(f"conflict {number} was settled already (version {found.settled} kept)")
        chosen = _combined(found, keep)
        with self.guard("settle a conflict"), self._one_write():
            self.db.execute("SELECT pg_advisory_xact_lock(%s)", (LOCK,))
            if keep != "1" and set(keep) != {"1"}:
                row = self.db.execute(
                    "SELECT deleted, entry FROM plays WHERE uuid = %s FOR UPDATE", (found.uuid,)
                ).fetchone()
                now = None if row is None or row[0] else row[1]
                if now != found.kept_entry and now is not None and chosen is not None:
                    chosen = merge(found.kept_entry, chosen, now).kept
                kind = "deleted" if chosen is None else "edited"
                self._write([Write(found.uuid, chosen, changed_at, kind)], origin)
            self.db.execute(
                "UPDATE conflicts SET settled_at = now(), settled_by = %s, settled_keep = %s "
                "WHERE id = %s",
                (origin, keep, number),
            )
        return found

    def name_table(self, table: str, name: str | None, token: str | None) -> str | None:
        """Note this table's name and marker; the marker the ledger had before (``None``:
        a table new to the ledger)."""
        with self.guard("write the table's name"), self._one_write():
            row = self.db.execute("SELECT token FROM tables WHERE id = %s", (table,)).fetchone()
            self.db.execute(
                "INSERT INTO tables (id, name, token) VALUES (%s, %s, %s) "
                "ON CONFLICT (id) DO UPDATE SET name = coalesce(excluded.name, tables.name), "
                "token = excluded.token, seen_at = now()",
                (table, name, token),
            )
        return None if row is None else str(row[0] or "")

    def table_marker(self, table: str) -> str | None:
        """The marker the ledger has for ``table`` (``None``: a table it does not know)."""
        with self.guard("read the ledger"):
            row = self.db.execute("SELECT token FROM tables WHERE id = %s", (table,)).fetchone()
            self.db.rollback()
        return None if row is None else str(row[0] or "")

    def push(self, batch: Sequence[Outgoing], origin: str) -> Pushed:
        """Write a batch of this table's changes in one transaction.

        A play the ledger does not have, or has at the version ours was made
        from, takes ours. One the ledger has as ours is, only settles. One
        changed both here and in the ledger since is merged value by value
        against the version both started from (:mod:`companion.club.merge`):
        values changed differently at both, or an edit against a deletion, are a
        conflict, kept open with both versions; the newer change (by time, then
        table) is the play's version until a person settles it.
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
                    "SELECT uuid, counter, changed_at, origin, deleted, "
                    "CASE WHEN octet_length(entry::text) <= %s THEN entry END "
                    "FROM plays WHERE uuid = ANY(%s) FOR UPDATE",
                    (MAX_ENTRY, keys),
                )
            }
            writes: list[Write] = []
            ours_as_is: list[Outgoing] = []
            merged: list[tuple[Outgoing, Write]] = []
            kept: list[tuple[Any, ...]] = []
            for out in batch:
                v = out.version
                row = theirs.get(v.uuid)
                kind = "deleted" if v.deleted else "edited"
                if row is None:
                    writes.append(
                        Write(v.uuid, out.entry, v.changed_at, "deleted" if v.deleted else "added")
                    )
                    ours_as_is.append(out)
                    continue
                _, counter, changed_at, their_origin, deleted, entry = row
                entry = entry if isinstance(entry, dict) else None
                if (deleted and v.deleted) or (not deleted and entry == out.entry):
                    done.settled.append((v.uuid, v.counter, counter, out.entry))
                    continue
                if v.base == counter or (not deleted and entry is None):
                    # (the ledger's entry is not a play's, or too long: ours replaces it)
                    writes.append(Write(v.uuid, out.entry, v.changed_at, kind))
                    ours_as_is.append(out)
                    continue
                ours_newer = (v.changed_at, origin) > (str(changed_at), str(their_origin))
                newer, older = (out.entry, entry) if ours_newer else (entry, out.entry)
                if newer is None or older is None:
                    result = merge(None, newer, older)
                    result.kept, result.other = newer, older
                    what = "deleted"
                else:
                    result = merge(out.base_entry, newer, older)
                    what = "version"
                    if not (_valid(result.kept) and _valid(result.other)):
                        result = merge(None, newer, older)
                        result.kept, result.other = newer, older
                when = max(v.changed_at, str(changed_at))
                if result.kept == entry and (result.kept is None) == bool(deleted):
                    done.lost.append(Incoming(v.uuid, counter, str(changed_at), deleted, entry))
                    done.sent[v.uuid] = v.counter
                else:
                    w = Write(v.uuid, result.kept, when, "deleted" if result.kept is None else kind)
                    writes.append(w)
                    merged.append((out, w))
                done.merged += 1
                if result.differs:
                    pair = (origin, str(their_origin))
                    kept_origin, lost_origin = pair if ours_newer else pair[::-1]
                    kept.append(
                        (
                            v.uuid,
                            kept_origin,
                            lost_origin,
                            what,
                            _json(result.kept),
                            _json(result.other),
                            _json(out.base_entry),
                            json.dumps([d.to_json() for d in result.differs], ensure_ascii=False),
                            v.changed_at if ours_newer else str(changed_at),
                            str(changed_at) if ours_newer else v.changed_at,
                        )
                    )
            counters = self._write(writes, origin)
            for out in ours_as_is:
                v = out.version
                done.settled.append((v.uuid, v.counter, counters[v.uuid], out.entry))
            for out, w in merged:
                v = out.version
                done.lost.append(
                    Incoming(v.uuid, counters[v.uuid], w.changed_at, w.entry is None, w.entry)
                )
                done.sent[v.uuid] = v.counter
            if kept:
                with self.db.cursor() as cursor:
                    cursor.executemany(
                        "INSERT INTO conflicts (play_uuid, kept_counter, kept_origin, "
                        "lost_counter, lost_changed_at, lost_origin, kind, kept_entry, "
                        "lost_entry, base_entry, differs, kept_changed_at) "
                        "SELECT %s, p.counter, %s, 0, %s, %s, %s, %s::jsonb, %s::jsonb, "
                        "%s::jsonb, %s::jsonb, %s FROM plays AS p WHERE p.uuid = %s",
                        [
                            (u, ko, lc, lo, k, ke, le, be, d, kc, u)
                            for u, ko, lo, k, ke, le, be, d, kc, lc in kept
                        ],
                    )
            done.written = len(writes)
            done.conflicts = len(kept)
        return done

    def _write(self, writes: Sequence[Write], origin: str) -> dict[str, int]:
        """Write plays' versions; the counter the server gave each (by uuid)."""
        if not writes:
            return {}
        db = self.db
        places = sorted({w.entry["location"] for w in writes if w.entry and w.entry["location"]})
        people: dict[str, str] = {}
        for w in writes:
            for person in (w.entry or {}).get("people", []):
                people[_key(person)] = person["name"]
        keys = [w.uuid for w in writes]
        db.execute(
            "INSERT INTO places (name) SELECT unnest(%s::text[]) ON CONFLICT DO NOTHING", (places,)
        )
        db.execute(
            "INSERT INTO people (name_key, name) SELECT * FROM unnest(%s::text[], %s::text[]) "
            "ON CONFLICT (name_key) DO UPDATE SET name = excluded.name",
            (list(people), list(people.values())),
        )
        db.execute("DELETE FROM sides WHERE play_uuid = ANY(%s)", (keys,))
        # The batch goes as one JSON document (read by json_to_recordset on the
        # server): no value is escaped one by one, and each entry is parsed once.
        rows = [
            {
                "u": w.uuid,
                "t": w.changed_at,
                "d": w.entry is None,
                "g": w.entry["game"] if w.entry else None,
                "p": w.entry["played_at"] if w.entry else None,
                "l": (w.entry["location"] or None) if w.entry else None,
                "e": w.entry,
                "s": scorer_stamp(w.entry) or None if w.entry else None,
            }
            for w in writes
        ]
        counters = {
            str(u): int(c)
            for u, c in db.execute(
                "INSERT INTO plays (uuid, counter, changed_at, origin, seq, deleted, game, "
                "played_at, place, entry, scored) SELECT u, 1, t, %s, 0, d, g, p, l, e, s "
                "FROM json_to_recordset(%s::json) "
                "AS x(u text, t text, d boolean, g text, p text, l text, e jsonb, s text) "
                "ON CONFLICT (uuid) DO UPDATE SET changed_at = excluded.changed_at, "
                "origin = excluded.origin, scored = excluded.scored, "
                "deleted = excluded.deleted, game = excluded.game, played_at = excluded.played_at, "
                "place = excluded.place, entry = excluded.entry RETURNING uuid, counter",
                (origin, json.dumps(rows, ensure_ascii=False)),
            ).fetchall()
        }
        db.execute(
            "INSERT INTO changes (seq, play_uuid, counter, changed_at, origin, kind) "
            "SELECT p.seq, p.uuid, p.counter, p.changed_at, p.origin, k.kind FROM plays AS p "
            "JOIN unnest(%s::text[], %s::text[]) AS k(u, kind) ON p.uuid = k.u",
            (keys, [w.kind for w in writes]),
        )
        with db.cursor() as cursor:
            with cursor.copy(
                "COPY sides (play_uuid, seat, name, total, rank, winner) FROM STDIN"
            ) as copy:
                for w in writes:
                    if w.entry is None:
                        continue
                    winners = set(w.entry["result"]["winners"])
                    for seat, side in enumerate(w.entry["result"]["players"]):
                        copy.write_row(
                            (
                                w.uuid,
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
                for w in writes:
                    for position, person in enumerate((w.entry or {}).get("people", [])):
                        copy.write_row(
                            (
                                w.uuid,
                                position,
                                person["side"],
                                _key(person),
                                person["name"],
                                person["anonymous"],
                            )
                        )
        return counters


def _combined(found: Conflict, keep: str) -> dict[str, Any] | None:
    """The version ``keep`` chooses of the conflict ``found`` (see :meth:`Ledger.settle`).

    Raises:
        ClubError: ``keep`` is not 1, 2 or one digit 1 or 2 per value that differs, or
            the combination is not a valid game.
    """
    if keep == "1":
        return found.kept_entry
    if keep == "2":
        return found.lost_entry
    count = len(found.differs)
    if found.kind == "deleted" or len(keep) != count or set(keep) - {"1", "2"}:
        raise ClubError(
            f"--keep takes 1, 2 or, to combine, one digit 1 or 2 for each of the {count} "
            f"values that differ in conflict {found.id} (such as {'21'[: max(count, 1)]})"
        )
    combined = copy.deepcopy(found.kept_entry)
    for choice, differs in zip(keep, found.differs, strict=True):
        if choice == "2" and differs.path:
            _set(combined, differs.path, differs.other)
    if not _valid(combined):
        raise ClubError(
            f"that combination of conflict {found.id} is not a valid game "
            "(its score file and result disagree): keep 1 or 2, then edit the game"
        )
    return combined


def _set(node: Any, path: tuple[str | int, ...], value: Any) -> None:
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = value


def _conflict(row: Sequence[Any]) -> Conflict:
    (
        number,
        uuid,
        game,
        played_at,
        place,
        players,
        kind,
        ko,
        lo,
        kn,
        ln,
        differs,
        ke,
        le,
        at,
        keep,
    ) = row
    found = [Differs.from_json(d) for d in (differs if isinstance(differs, list) else [])]
    return Conflict(
        int(number),
        str(uuid),
        game,
        played_at,
        place,
        [str(p) for p in players or []],
        str(kind),
        str(ko),
        str(lo),
        kn,
        ln,
        [d for d in found if d is not None],
        ke if isinstance(ke, dict) else None,
        le if isinstance(le, dict) else None,
        str(at),
        keep,
    )


ANONYMOUS = ""
"""The ledger's key for BG Stats' anonymous player (no name's key is empty)."""


def _key(person: dict[str, Any]) -> str:
    return ANONYMOUS if person["anonymous"] else name_key(person["name"])


def _item(row: Sequence[Any]) -> Incoming | SetAside:
    """A play's row as :meth:`Ledger.pull` reads it: the play, or why it is set aside."""
    seq, u, c, t, d, text, size, kind, scored, mine = row
    if mine:
        return Incoming(u, c, str(t), bool(d), None, seq, str(scored), mine=True)
    entry = None
    if text is not None:
        try:
            entry = json.loads(text)
        except ValueError:  # (the server's own JSON: never, but it is data all the same)
            entry = None
    if not d and not isinstance(entry, dict):
        why = (
            f"its entry is {size:,} bytes long (at most {MAX_ENTRY:,})"
            if size > MAX_ENTRY
            else f"its entry is a JSON {kind}, not a play"
        )
        return SetAside(seq, str(u), why)
    return Incoming(u, c, str(t), bool(d), entry, seq, str(scored), text=text)


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
