"""People across the history: who they are, the names they had, renaming and merging.

A person is a name key (:func:`scorers.names.name_key`: case and spacing do
not matter) and is shown under the spelling of their latest game. Renaming a
person rewrites every game they are in (each re-scored from its score file,
as ``history edit --rename`` does for one game), in one transaction; when the
new name is already someone's, the two become one person. A rename is
remembered in ``player_uuids``: the old name keeps pointing at the uuid the
person is known by (the one BG Stats knows, or the one our exports made from
the old name), and the new name takes that uuid, so an export after a rename
gives the same person the same uuid. The names that point at a person's uuid
but are in no game are that person's aliases. A rename made here is noted in
``rename_log`` to travel to a club's ledger; one that comes from the ledger is
made the same way (:func:`apply_rename`), inside the sync's transaction.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from uuid import uuid4

from companion.history.editing import EditError, edit_play
from companion.history.formats.bgstats import player_uuid
from companion.history.model import Filter, Play, now_utc
from companion.history.store import History, replace_rows
from scorers.names import InvalidName, clean_name, name_key


class RenameError(ValueError):
    """A rename that cannot be made (nothing was changed)."""


@dataclass(frozen=True)
class PersonSummary:
    """One person of the history.

    Attributes:
        name: The name as written in their latest game.
        games: How many games they are in.
        aliases: Earlier names that were renamed into them, as they were written.
    """

    name: str
    games: int
    aliases: tuple[str, ...] = field(default=())


@dataclass(frozen=True)
class RenamePlan:
    """What ``rename OLD NEW`` would do, to show before doing it.

    Attributes:
        old: OLD as written in its latest game.
        new: NEW, cleaned (as written in its latest game when it is someone's).
        old_games: The ids of the games OLD is in.
        new_games: The ids of the games NEW is in already (none unless a merge).
    """

    old: str
    new: str
    old_games: tuple[int, ...]
    new_games: tuple[int, ...]

    @property
    def merge(self) -> bool:
        """True when NEW is already a person of the history: the two become one."""
        return bool(self.new_games)


def people(history: History) -> list[PersonSummary]:
    """Everyone in the history (the anonymous player left out), by name."""
    with history.guard("read the history"):
        rows = history._db.execute(
            "SELECT name_key, name, max(played_at), count(DISTINCT play_id) FROM play_people "
            "WHERE anonymous = 0 GROUP BY name_key"
        ).fetchall()
        known = history._db.execute("SELECT name_key, uuid, name FROM player_uuids").fetchall()
    uuids = {key: uuid for key, uuid, _ in known}
    played = {key for key, *_ in rows}
    by_uuid: dict[str, list[str]] = {}
    for key, uuid, written in known:
        if key not in played:
            # As it was written; a rename made before the spelling was kept shows its key.
            by_uuid.setdefault(uuid, []).append(written or key)
    found = []
    for key, name, _, games in rows:
        uuid = uuids.get(key, player_uuid(name))
        aliases = sorted(by_uuid.get(uuid, []), key=lambda alias: (alias.casefold(), alias))
        found.append(PersonSummary(name, games, tuple(aliases)))
    return sorted(found, key=lambda person: (person.name.casefold(), person.name))


def plan_rename(history: History, old: str, new: str) -> RenamePlan:
    """Check that OLD can be renamed NEW and say what it would change.

    Raises:
        RenameError: NEW is not a valid name, OLD is in no game, or the two
            are both in one game (a merge would put one person in it twice).
    """
    try:
        cleaned = clean_name(new, what="new name")
    except InvalidName as error:
        raise RenameError(f"{new!r}: {error}") from error
    old_plays = _plays_of(history, old)
    if not old_plays:
        raise RenameError(f"nobody named {old!r} is in the history")
    old_name = _latest_name(old_plays, old)
    new_plays = [] if name_key(new) == name_key(old) else _plays_of(history, cleaned)
    both = sorted({p.id for p in old_plays} & {p.id for p in new_plays})
    if both:
        games = ", ".join(f"#{n}" for n in both)
        raise RenameError(
            f"{old_name} and {_latest_name(new_plays, cleaned)} are both in game {games}: "
            "they are two people; nothing was changed"
        )
    return RenamePlan(
        old_name,
        _latest_name(new_plays, cleaned) if new_plays else cleaned,
        tuple(sorted(p.id for p in old_plays)),
        tuple(sorted(p.id for p in new_plays)),
    )


def rename_person(history: History, plan: RenamePlan) -> int:
    """Rename (or merge) as ``plan`` says, in every game, in one transaction.

    The rename is noted to travel to a club's ledger (see
    :mod:`companion.history.sync_local`).

    Returns:
        How many games were changed.

    Raises:
        RenameError: A game cannot take the new name (its score file, say);
            nothing was changed.
    """
    changed = _renamed_plays(history, plan)
    with history.guard("rename the person"), history.transaction() as db:
        write_rename(db, plan, changed)
        db.execute(
            "INSERT INTO rename_log (id, old_name, new_name, at) VALUES (?, ?, ?, ?)",
            (str(uuid4()), plan.old, plan.new, now_utc()),
        )
    return len(changed)


def apply_rename(history: History, db: sqlite3.Connection, old: str, new: str) -> int:
    """Rename OLD as NEW (or merge them) inside the caller's transaction, as ``history rename``.

    Used for a rename that came from a club's ledger: it is not noted to go up again.

    Returns:
        How many games were changed (0 when nobody named OLD is in the history).

    Raises:
        RenameError: NEW is not a valid name, OLD and NEW are both in one
            game, or a game cannot take the new name; nothing was changed.
    """
    if not _plays_of(history, old):
        return 0
    plan = plan_rename(history, old, new)
    changed = _renamed_plays(history, plan)
    write_rename(db, plan, changed)
    return len(changed)


def _renamed_plays(history: History, plan: RenamePlan) -> list[Play]:
    changed = []
    for play in _plays_of(history, plan.old):
        try:
            changed.append(edit_play(play, renames={plan.old: plan.new}))
        except EditError as error:
            detail = "; ".join([str(error), *error.problems])
            raise RenameError(f"game #{play.id}: {detail}; nothing was changed") from error
    return changed


def write_rename(db: sqlite3.Connection, plan: RenamePlan, changed: list[Play]) -> None:
    """Write the renamed games and the person's uuid, inside the caller's transaction."""
    old_key, new_key = name_key(plan.old), name_key(plan.new)
    uuids = dict(db.execute("SELECT name_key, uuid FROM player_uuids").fetchall())
    if plan.merge:
        uuid = uuids.get(new_key, player_uuid(plan.new))
    else:
        uuid = uuids.get(old_key, player_uuid(plan.old))
    for play in changed:
        replace_rows(db, play)
    if old_key != new_key or old_key in uuids:
        db.executemany(
            "INSERT OR REPLACE INTO player_uuids (name_key, uuid, name) VALUES (?, ?, ?)",
            [(old_key, uuid, plan.old), (new_key, uuid, plan.new)],
        )


def _plays_of(history: History, name: str) -> list[Play]:
    return [
        play
        for play in history.plays(Filter(player=name))
        if any(name_key(p.name) == name_key(name) and not p.anonymous for p in play.persons)
    ]


def _latest_name(plays: list[Play], name: str) -> str:
    """``name`` as written in the latest of ``plays``."""
    key = name_key(name)
    for play in sorted(plays, key=lambda p: (p.played_at, p.uuid), reverse=True):
        for person in play.persons:
            if name_key(person.name) == key:
                return person.name
    return name
