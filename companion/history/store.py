"""The history of games played: recording, importing, reading, editing and deleting plays.

:class:`History` is the open history: a :class:`~companion.history.history_file.HistoryFile`
(its connection, how it was opened, its transactions) with the recorded games.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from dataclasses import replace as replaced
from itertools import islice
from pathlib import Path
from typing import Any

from companion.history.errors import PlayNotFound, trouble
from companion.history.history_file import HistoryFile
from companion.history.model import (
    Filter,
    Person,
    Play,
    fold_uuid,
    new_play,
    summary_of,
)
from companion.history.play_order import after as later_than
from companion.history.play_order import order_by
from companion.history.rows import (
    PLAY_COLUMNS,
    _insert_log,
    _Numbers,
    _play,
    _present_plays,
    _Rows,
    content_key,
    insert,
)

CORRECTABLE = frozenset({"bgg", "bgstats"})
"""The sources whose plays an import updates when the app corrected them (same id,
changed content); a play of ours that comes back is only ever skipped."""


@dataclass
class Kept:
    """What another app wrote that we do not use, read back for an export to it.

    Attributes:
        plays: By play id: what the play said when it came in (see
            :func:`~companion.history.rows.content_key`) and the app's record of it
            (``{"app", "play", "seats"}``).
        records: By kind (``player``, ``game``, ``location``), then by our key for
            it (a name key, a game id, a place's name): the app's record.
    """

    plays: dict[int, tuple[str, dict[str, Any]]] = field(default_factory=dict)
    records: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)


@dataclass
class Imported:
    """What an import did, play by play.

    Attributes:
        added: Plays added.
        skipped: Plays already in the history, unchanged (or ours, never overwritten).
        updated: Plays already in the history that their source corrected
            (same BoardGameGeek play id or BG Stats uuid, changed content): replaced.
        repeated: Plays given twice in the file itself (the first one counts).
    """

    added: int = 0
    skipped: int = 0
    updated: int = 0
    repeated: int = 0


ENV_VAR = "COMPANION_DB"


def default_path() -> Path:
    """``$COMPANION_DB``, or ``history.sqlite3`` in the user's data directory."""
    return path_for(os.environ.get(ENV_VAR))


def path_for(configured: str | None) -> Path:
    """The history a ``$COMPANION_DB`` of ``configured`` names (unset or empty: the user's)."""
    if configured:
        return Path(configured).expanduser()
    import platformdirs

    return platformdirs.user_data_path("companion", appauthor=False) / "history.sqlite3"


WRITE_EVERY = 2000
"""An import writes its rows every this many plays (one transaction all the same)."""


class History(HistoryFile):
    """An open history: the recorded games, read and written, in its file.

    Opened as a :class:`~companion.history.history_file.HistoryFile` (see there
    for ``path`` and ``write``, and what opening raises).
    """

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
        play = new_play(
            game,
            score_file,
            result,
            played_at=played_at,
            location=location,
            notes=notes,
            duration_min=duration_min,
            start_player=start_player,
            people=people,
        )
        with self.guard("save the game"), self.transaction() as db:
            return insert(db, play, keep_id=False)

    def add(
        self,
        plays: Iterable[Play],
        *,
        keep_ids: bool = True,
        events: Mapping[str, list[dict[str, Any]]] | None = None,
        added: Callable[[Play], object] | None = None,
        player_uuids: Mapping[str, str] | None = None,
    ) -> tuple[int, int]:
        """Add plays (from an import) in one transaction; skip uuids already present.

        As :meth:`add_logged`, with the event logs given by play uuid.

        Args:
            plays: The plays to add.
            keep_ids: Reuse each play's id when it is free.
            events: Event logs of played-along games, by play uuid; each is
                stored as a finished session of that play.
            added: Called with each play actually added.
            player_uuids: As for :meth:`add_logged`.

        Returns:
            ``(added, skipped)``.
        """
        logs = events or {}
        done = self.add_logged(
            ((play, logs.get(play.uuid)) for play in plays),
            keep_ids=keep_ids,
            added=added,
            player_uuids=player_uuids,
        )
        return done.added, done.skipped + done.repeated

    def add_logged(
        self,
        plays: Iterable[tuple[Play, list[dict[str, Any]] | None]],
        *,
        keep_ids: bool = True,
        added: Callable[[Play], object] | None = None,
        player_uuids: Mapping[str, str] | None = None,
        records: Mapping[tuple[str, str, str], str] | None = None,
        corrected_by: str | None = None,
    ) -> Imported:
        """Add plays (from an import) in one transaction; a play already present is
        skipped, or updated when its source corrected it.

        A play is known by its uuid. One already in the history is replaced
        when the file is its own app's (``corrected_by``: BoardGameGeek or BG
        Stats, :data:`CORRECTABLE`), the play came from that app, and the app
        now says something else than it said when the play came in (a score
        corrected there); otherwise it is skipped (a change made here, since,
        is kept). A uuid given twice in ``plays`` is
        counted as repeated, the first one kept. Uuids are compared without
        regard to case (BG Stats writes them in upper case). The plays are
        taken from ``plays`` as they come, and written every
        :data:`WRITE_EVERY`, so that only a bounded batch is ever in memory
        (still one transaction: all or nothing).

        Args:
            plays: The plays to add, each with its event log (``None`` for
                none); a log is stored as a finished session of its play.
            keep_ids: Reuse each play's id when it is free.
            added: Called with each play actually added.
            player_uuids: The uuids another app knows people by, by
                :func:`name_key` (``ANONYMOUS_KEY`` for its anonymous player);
                a person who has one already keeps it.
            corrected_by: The app (a play's ``source``) whose own file this is,
                whose plays may have been corrected there; ``None``: none.
            records: Another app's records of its players, games and places
                (JSON), by ``(app, kind, key)``: kept (the newest file's) for
                an export to that app (:meth:`app_records`).

        Returns:
            How many were added, skipped, updated and repeated.
        """
        done = Imported()
        in_file: set[str] = set()
        items = iter(plays)
        with self.guard("import the games"), self.transaction() as db:
            while batch := list(islice(items, WRITE_EVERY)):
                fresh = [p.uuid for p, _ in batch if fold_uuid(p.uuid) not in in_file]
                fresh += [a for p, _ in batch for a in _aliases(p)]
                present = _present_plays(db, fresh)
                numbers = _Numbers(db)
                rows = _Rows()
                for play, log in batch:
                    folded = fold_uuid(play.uuid)
                    if folded in in_file:
                        done.repeated += 1
                        continue
                    in_file.add(folded)
                    if folded not in present:
                        # Known under the uuid an earlier companion gave it?
                        known = [fold_uuid(a) for a in _aliases(play)]
                        folded = next((a for a in known if a in present), folded)
                    if folded in present:
                        old, at_import = present[folded]
                        new = content_key(play)
                        # Known by an earlier uuid: it takes the one its app's id gives now.
                        adopted = folded != fold_uuid(play.uuid)
                        if adopted:
                            rows.write(db)
                            db.execute(
                                "UPDATE plays SET uuid = ? WHERE id = ?", (play.uuid, old.id)
                            )
                            if at_import is None and play.extras is not None:
                                at_import = content_key(old)
                                db.execute(
                                    "INSERT OR REPLACE INTO play_extras "
                                    "(play_id, app, content, record) VALUES (?, ?, ?, ?)",
                                    (old.id, old.source, at_import, play.extras),
                                )
                        if (
                            corrected_by in CORRECTABLE
                            and play.source == old.source == corrected_by
                            and new != content_key(old)
                            # (what the app said then, still: the difference was made here)
                            and new != at_import
                        ):
                            rows.write(db)
                            uuid = play.uuid if adopted else old.uuid
                            replace_rows(db, replaced(play, id=old.id, uuid=uuid))
                            done.updated += 1
                            continue
                        done.skipped += 1
                        continue
                    play_id = numbers.take(play.id if keep_ids and play.id > 0 else None)
                    rows.add(play, play_id)
                    if log:
                        # The log's session may take a number: write what is pending first.
                        rows.write(db)
                        numbers.claim()
                        _insert_log(db, play_id, play.game, log)
                        numbers = _Numbers(db)
                    done.added += 1
                    if added is not None:
                        added(play)
                rows.write(db)
                numbers.claim()
            if player_uuids:
                db.executemany(
                    "INSERT OR IGNORE INTO player_uuids (name_key, uuid) VALUES (?, ?)",
                    sorted(player_uuids.items()),
                )
            if records:
                db.executemany(
                    "INSERT OR REPLACE INTO app_records (app, kind, key, record) "
                    "VALUES (?, ?, ?, ?)",
                    [(*where, record) for where, record in sorted(records.items())],
                )
        return done

    def kept(self, app: str) -> Kept:
        """What the app ``app`` wrote that we do not use: of each play (by id) that came
        from it, and of its players, games and places (by our key for them)."""
        kept = Kept()
        with self.guard("read the history"):
            for play_id, content, record in self._db.execute(
                "SELECT play_id, content, record FROM play_extras WHERE app = ?", (app,)
            ):
                kept.plays[play_id] = (content, json.loads(record))
            for kind, key, record in self._db.execute(
                "SELECT kind, key, record FROM app_records WHERE app = ?", (app,)
            ):
                kept.records.setdefault(kind, {})[key] = json.loads(record)
        return kept

    def player_uuids(self) -> dict[str, str]:
        """The uuids another app (BG Stats) knows people by, by :func:`name_key`."""
        with self.guard("read the history"):
            return dict(self._db.execute("SELECT name_key, uuid FROM player_uuids").fetchall())

    def known_names(self) -> list[str]:
        """The 50 people most often in the history, most frequent first (suggestions).

        People, not seats: a team game offers its members, never its sides'
        names ("Blue", "Red"); nobody anonymous is offered.
        """
        with self.guard("read the history"):
            rows = self._db.execute(
                "SELECT name FROM play_people WHERE anonymous = 0 "
                "GROUP BY name ORDER BY count(*) DESC, name LIMIT 50"
            ).fetchall()
        return [row[0] for row in rows]

    def event_logs(self) -> dict[int, list[dict[str, Any]]]:
        """The answers of every played-along finished game, by play id."""
        logs: dict[int, list[dict[str, Any]]] = {}
        with self.guard("read the history"):
            rows = self._db.execute(
                "SELECT sessions.play_id, e.at, e.key, e.value FROM sessions "
                "JOIN session_events AS e ON e.session_id = sessions.id "
                # A web page's draft is not answers to replay (see DRAFT).
                "WHERE sessions.status = 'finished' AND sessions.kind <> 'web' "
                "AND sessions.play_id IS NOT NULL "
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
                f"SELECT {PLAY_COLUMNS} FROM plays{condition} ORDER BY {order_by()}", params
            ).fetchall()
            people = self._people([row[0] for row in rows])
        return [_play(row, people.get(row[0], ())) for row in rows]

    def play_pages(self, where: Filter | None = None, size: int = 1000) -> Iterator[list[Play]]:
        """The games that match ``where``, oldest first, ``size`` at a time (so that a
        history of any size is read in bounded memory)."""
        condition, params = (where or Filter()).where()
        after: tuple[str, str] | None = None
        while True:
            more, extra = condition, list(params)
            if after is not None:
                more += (" AND " if condition else " WHERE ") + later_than()
                extra += list(after)
            with self.guard("read the history"):
                rows = self._db.execute(
                    f"SELECT {PLAY_COLUMNS} FROM plays{more} ORDER BY {order_by()} LIMIT ?",
                    [*extra, size],
                ).fetchall()
                people = self._people([row[0] for row in rows])
            if not rows:
                return
            page = [_play(row, people.get(row[0], ())) for row in rows]
            yield page
            after = (page[-1].played_at, page[-1].uuid)

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
        tail = f" ORDER BY {order_by(descending=True)} LIMIT {int(limit)}" if limit else ""
        with self.guard("read the history"):
            plays = self._db.execute(
                f"SELECT id, played_at, game, ignored, status, uuid FROM plays{condition}{tail}",
                params,
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
            for play_id, played_at, game, ignored, status, _ in plays
        ]
        order = {row[0]: (row[1], row[5]) for row in plays}
        result.sort(key=lambda s: order[s["id"]])
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
            replace_rows(db, play)

    def delete(self, play_id: int) -> None:
        """Delete a recorded game (a played-along game's answers are kept, set aside).

        Raises:
            PlayNotFound: No game has that id.
        """
        with self.guard("delete the game"), self.transaction() as db:
            db.execute("DELETE FROM play_players WHERE play_id = ?", (play_id,))
            db.execute("DELETE FROM play_people WHERE play_id = ?", (play_id,))
            db.execute("DELETE FROM play_pairs WHERE play_id = ?", (play_id,))
            db.execute("DELETE FROM play_extras WHERE play_id = ?", (play_id,))
            # A played-along game's answers are kept, set aside with it (not a finished
            # game that lost its record: history check stays clean).
            db.execute(
                "UPDATE sessions SET status = 'deleted', play_id = NULL WHERE play_id = ?",
                (play_id,),
            )
            if db.execute("DELETE FROM plays WHERE id = ?", (play_id,)).rowcount == 0:
                raise PlayNotFound(f"no game #{play_id} in the history")


def _aliases(play: Play) -> list[str]:
    """Other uuids ``play`` was known by (a BGG play, before its id named it)."""
    if play.extras is None or '"aliases"' not in play.extras:
        return []
    found = json.loads(play.extras).get("aliases", [])
    return [a for a in found if isinstance(a, str)]


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


def replace_rows(db: sqlite3.Connection, play: Play) -> None:
    """Write an edited play over its rows, inside the caller's transaction.

    A played-along game stays linked to its answers (its session).

    Raises:
        PlayNotFound: No game has that id.
    """
    linked = [row[0] for row in db.execute("SELECT id FROM sessions WHERE play_id = ?", (play.id,))]
    if db.execute("DELETE FROM plays WHERE id = ?", (play.id,)).rowcount == 0:
        raise PlayNotFound(f"no game #{play.id} in the history")
    db.execute("DELETE FROM play_players WHERE play_id = ?", (play.id,))
    db.execute("DELETE FROM play_people WHERE play_id = ?", (play.id,))
    db.execute("DELETE FROM play_pairs WHERE play_id = ?", (play.id,))
    insert(db, play, keep_id=True, exact=True)
    db.executemany("UPDATE sessions SET play_id = ? WHERE id = ?", [(play.id, s) for s in linked])
