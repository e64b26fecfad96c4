"""A sync between this table's history and the club's ledger, and what ``club status`` shows.

A sync sends up every change waiting here, in batches (each batch one
transaction on the server, then one here), then takes down every play the
ledger changed since this table last looked, in batches (each one
transaction here, with the ledger's change number it comes up to). A
person's rename or merge goes up as a rename after the plays, and comes down
among them in the ledger's order, made here as ``history rename`` makes it. A sync cut
short anywhere is finished by the next: a batch that went up but was not
noted here settles as already the same; one that came down but was not noted
is taken again as the version this history already has.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.club.ledger import Conflict, Ledger
from companion.history.history_file import HistoryFile
from companion.history.store import History
from companion.history.sync_local import (
    Incoming,
    Renamed,
    already_here,
    new_marker,
    new_table_id,
    outgoing,
    outgoing_renames,
    renames_sent,
    renames_waiting,
    set_aside,
    set_marker,
    set_told,
    state,
    table_id,
    table_of,
    take,
    told_up_to,
    waiting,
)
from companion.wording import plural

BATCH = 1000
"""Plays in one transaction, up or down."""


@dataclass
class SyncReport:
    """What a sync did.

    Attributes:
        sent: Plays written in the ledger (added, edited or deleted there).
        added: Plays new here.
        changed: Plays here replaced by the ledger's version.
        deleted: Plays deleted here.
        conflicts: Plays changed both here and elsewhere (both versions kept).
        refused: The ledger's plays that failed the import's checks (``uuid: problem``).
        read_only: This role may only read the ledger.
        not_sent: Changes here that could not go up (a read-only role).
        renames_sent: Renames and merges made here written in the ledger.
        renamed: Renames from the ledger that changed games here.
        renamed_games: Games here those renames changed (sent up again).
        not_renamed: Renames from the ledger that could not be made here
            (``OLD -> NEW: why``; nothing changed, not tried again).
    """

    sent: int = 0
    added: int = 0
    changed: int = 0
    deleted: int = 0
    conflicts: int = 0
    refused: list[str] = field(default_factory=list)
    read_only: bool = False
    not_sent: int = 0
    renames_sent: int = 0
    renamed: int = 0
    renamed_games: int = 0
    not_renamed: list[str] = field(default_factory=list)
    merged: int = 0
    told: list[str] = field(default_factory=list)
    forked: bool = False

    def lines(self) -> list[str]:
        """The sync in one line, then what this table is told: a copy noticed, and
        each conflict about its changes (one line each)."""
        said = self.line()
        first = said[0].upper() + said[1:] + "."
        before = (
            ["This history is a copy of another table's: it is a table of its own from now."]
            if self.forked
            else []
        )
        return [*before, first, *self.told]

    def line(self) -> str:
        """The sync in one line."""
        came = self.added + self.changed + self.deleted
        applied = (
            f"applied {plural(self.renamed, 'rename')} from the club "
            f"({plural(self.renamed_games, 'game')} here renamed)"
        )
        if self.read_only:
            took = f"took {plural(came, 'play')} from the club's ledger"
            if self.renamed:
                took += f" and {applied}"
            return (
                f"{took}; this role may only read it, so "
                f"{plural(self.not_sent, 'change')} here stayed waiting to go up"
            )
        renames = self.renames_sent or self.renamed or self.not_renamed
        if not (self.sent or came or self.conflicts or self.refused or renames or self.merged):
            return "nothing new: this history and the club's ledger were already the same"
        sent = f"sent {plural(self.sent, 'play')}"
        if self.renames_sent:
            sent += f" and {plural(self.renames_sent, 'rename')}"
        parts = [sent]
        parts.append(
            f"took {plural(came, 'play')} ({self.added} new, {self.changed} changed, "
            f"{self.deleted} deleted)"
        )
        if self.renamed:
            parts.append(applied)
        if self.conflicts:
            parts.append(
                f"{plural(self.conflicts, 'new conflict')} (both versions kept: "
                "companion club conflicts)"
            )
        if self.merged:
            parts.append(f"{plural(self.merged, 'play')} changed here and at another table merged")
        if self.refused:
            more = len(self.refused) - 1
            parts.append(
                f"{plural(len(self.refused), 'row')} of the ledger set aside "
                f"({self.refused[0]}{f'; and {more} more' if more else ''}: "
                "companion club status)"
            )
        if self.not_renamed:
            more = len(self.not_renamed) - 1
            parts.append(
                f"{plural(len(self.not_renamed), 'rename')} from the club could not be made "
                f"here ({self.not_renamed[0]}{f'; and {more} more' if more else ''})"
            )
        return "; ".join(parts)


def sync(history: History, ledger: Ledger, *, batch: int = BATCH) -> SyncReport:
    """Make this history and the ledger the same (see the module's description).

    Renames and merges made here go up after the plays, before anything comes down; the renames
    that come down are applied here in the ledger's order, and the games they
    changed go up in a second round.

    Args:
        history: This table's history, open for writing.
        ledger: The club's ledger, checked (:meth:`Ledger.check`).
        batch: Plays in one transaction.
    """
    report = SyncReport()
    report.forked = meet(history, ledger)
    origin = table_id(history)
    if not ledger.writable():
        report.read_only = True
        report.not_sent = waiting(history)[0]
        _take(history, ledger, batch, report)
        _tell(history, ledger, origin, report)
        return report
    for _ in range(2):
        _send(history, ledger, origin, batch, report)
        _take(history, ledger, batch, report)
        if not waiting(history)[0]:
            break
    _tell(history, ledger, origin, report)
    return report


def meet(history: History, ledger: Ledger) -> bool:
    """Note this table (its name, a new marker) in the ledger; whether this history
    turned out to be a copy of another table's, and became a table of its own.

    Each sync renews the table's marker, here and in the ledger. A copy of a history
    file carries the marker of when it was copied: when the original synced since,
    the ledger's marker is another, and the copy takes a table id of its own (its
    later changes, and the other copy's renames, then travel between the two).
    """
    me, name, token = table_of(history)
    known = ledger.table_marker(me)
    forked = bool(known) and known not in token.split()
    if forked:
        me = new_table_id(history)
    if not ledger.writable():
        return forked
    fresh = new_marker()
    set_marker(history, f"{token.split()[-1] if token and not forked else ''} {fresh}".strip())
    ledger.name_table(me, name, fresh)
    set_marker(history, fresh)
    return forked


def _tell(history: History, ledger: Ledger, origin: str, report: SyncReport) -> None:
    """Tell this table each open conflict about its changes it was not told yet."""
    known = state(history, ledger.id)
    told = told_up_to(history, ledger.id)
    found = ledger.told(told, origin)
    for c in found:
        report.told.append(conflict_line(c, origin))
    if found and known is not None:
        set_told(history, ledger.id, found[-1].id)


def table_name(name: str | None, table: str) -> str:
    """A table as people read it: its name, or ``table 1a2b3c4d``."""
    return f"'{name}'" if name else f"table {table[:8]}"


def conflict_line(c: Conflict, origin: str) -> str:
    """One line telling a table of a conflict about its change."""
    mine = "your change" if origin == c.lost_origin else "your version"
    other = table_name(
        c.kept_name if origin == c.lost_origin else c.lost_name,
        c.kept_origin if origin == c.lost_origin else c.lost_origin,
    )
    what = f"{c.game or 'a game'} {(c.played_at or '')[:10]}".strip()
    keep = "is kept for now" if origin == c.kept_origin else "waits, not kept for now"
    return (
        f"Conflict {c.id}: {what} was changed here and at {other} differently; {mine} "
        f"{keep} (companion club conflicts; companion club settle {c.id} --keep 1|2)."
    )


def _send(history: History, ledger: Ledger, origin: str, batch: int, report: SyncReport) -> None:
    """Send up the plays, then the renames, waiting here.

    The plays go first: a table that takes them both finds its copies of the
    plays a rename changed here already renamed, not renamed again by itself.
    """
    after = ""
    while True:
        changes = outgoing(history, after=after, limit=batch)
        if not changes:
            break
        pushed = ledger.push(changes, origin)
        applied = take(
            history,
            pushed.lost,
            ledger=ledger.id,
            shown=ledger.shown,
            sent=pushed.sent,
            pushed=pushed.settled,
        )
        report.sent += pushed.written
        report.conflicts += pushed.conflicts
        report.merged += pushed.merged
        report.changed += applied.changed
        report.deleted += applied.deleted
        report.added += applied.added
        report.refused += applied.refused or []
        after = changes[-1].version.uuid
    renames = outgoing_renames(history)
    for start in range(0, len(renames), batch):
        part = renames[start : start + batch]
        report.renames_sent += ledger.push_renames(part, origin)
        renames_sent(history, [r.id for r in part])


def _take(history: History, ledger: Ledger, batch: int, report: SyncReport) -> None:
    """Take down every play and rename the ledger has since this table last looked.

    This table's own renames are already made here: they are not made again
    (a new person who took the old name here since is not renamed).
    """
    origin = table_id(history)
    known = state(history, ledger.id)
    seen = known.last_seq if known else 0
    while True:
        seen, got = ledger.pull(seen, batch, origin)
        if not got:
            break
        # The plays this table wrote come without their entries: taken whole only
        # when this history does not have that version (a sync cut short, a
        # conflict settled here).
        mine = [item for _, item in got if isinstance(item, Incoming) and item.mine]
        here = already_here(history, mine) if mine else set()
        wanted = [i.seq for i in mine if i.uuid not in here]
        whole = {row.seq: row for row in ledger.rows(wanted)}
        missing = [seq for seq in wanted if seq not in whole]
        if missing:  # (more than one batch's bytes: the rest comes in the next)
            seen = missing[0] - 1
            got = [(seq, item) for seq, item in got if seq < missing[0]]
        items = [
            whole[item.seq] if isinstance(item, Incoming) and item.mine else item
            for _, item in got
            if not (isinstance(item, Renamed) and item.origin == origin)
            and not (isinstance(item, Incoming) and item.mine and item.uuid in here)
        ]
        applied = take(history, items, ledger=ledger.id, shown=ledger.shown, last_seq=seen)
        report.added += applied.added
        report.changed += applied.changed
        report.deleted += applied.deleted
        report.refused += applied.refused or []
        report.renamed += applied.renamed
        report.renamed_games += applied.renamed_games
        report.not_renamed += applied.not_renamed


def idle(history: HistoryFile, ledger: Ledger) -> SyncReport | None:
    """The report of a sync that would change nothing, or ``None`` when there is work.

    Reads only, so that a table with nothing new need not open its history for
    writing (which first checks the whole file).
    """
    known = state(history, ledger.id)
    if ledger.last_seq() > (known.last_seq if known else 0):
        return None
    me, _, token = table_of(history)
    marker = ledger.table_marker(me)
    if marker is None or (marker and marker not in token.split()):
        return None
    if ledger.told(told_up_to(history, ledger.id), me):
        return None
    up = waiting(history)[0]
    writable = ledger.writable()
    if writable and (up or renames_waiting(history)):
        return None
    return SyncReport(read_only=not writable, not_sent=0 if writable else up)


@dataclass(frozen=True)
class Status:
    """What ``club status`` shows.

    Attributes:
        shown: The ledger's address without credentials.
        plays: Plays in the ledger (``deleted``: tombstones).
        waiting_up: Changes here waiting to go up (``deleting``: deletions among them).
        renames_up: Renames and merges made here waiting to go up.
        waiting_down: Plays changed by other tables since this one last synced.
        renames_down: Renames and merges made at other tables since then.
        last_sync: When this table last synced with this ledger (``None``: never).
        read_only: This role may only read the ledger.
        conflict_count: How many conflicts are open in the ledger.
        conflicts: The open conflicts.
        name: This table's name (``None``: never named) and ``table`` its id.
        copy: This history is a copy of another table's (its next sync makes it
            a table of its own).
        set_aside: The ledger's rows this table set aside ``(change number, uuid, why)``.
        beyond: Rows of the ledger with a change number the server never gave.
    """

    shown: str
    plays: int
    deleted: int
    waiting_up: int
    deleting: int
    renames_up: int
    waiting_down: int
    renames_down: int
    last_sync: str | None
    read_only: bool
    conflict_count: int
    conflicts: list[Conflict]
    name: str | None = None
    table: str = ""
    copy: bool = False
    set_aside: list[tuple[int, str, str]] = field(default_factory=list)
    beyond: int = 0


def status(history: HistoryFile, ledger: Ledger) -> Status:
    """What waits to go up or come down, the last sync, and the conflicts."""
    known = state(history, ledger.id)
    up, deleting = waiting(history)
    plays, deleted = ledger.counts()
    count, conflicts = ledger.conflicts()
    me, name, token = table_of(history)
    marker = ledger.table_marker(me)
    copy = bool(marker) and marker not in token.split()
    return Status(
        ledger.shown,
        plays,
        deleted,
        up,
        deleting,
        renames_waiting(history),
        *ledger.waiting_for(known.last_seq if known else 0, "" if copy else me),
        known.last_sync if known else None,
        not ledger.writable(),
        count,
        conflicts,
        name,
        me,
        copy,
        set_aside(history, ledger.id),
        ledger.beyond(),
    )
