"""Games in progress: each answer of a session is an event in the history database.

A session's state is never stored directly: it is rebuilt by replaying its
events through the game's flow, so that resuming after a crash and undoing an
answer both come down to "replay these events". Each event is committed before
the next question is asked.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from companion.history import History, Play, insert, now_utc

Event = tuple[str, Any]


@dataclass(frozen=True)
class SessionInfo:
    """A session as listed by ``companion resume``."""

    id: int
    game: str
    kind: str
    started_at: str
    updated_at: str
    status: str
    note: str
    events: int
    play_id: int | None = None


class SessionStore:
    """Sessions and their event logs, kept in a :class:`History`."""

    def __init__(self, history: History) -> None:
        self.history = history
        self._db = history._db

    def start(self, game: str, kind: str) -> int:
        """Open a new session for ``game`` (``kind``: ``play`` or ``score``)."""
        stamp = now_utc()
        with self.history.guard("start the game"), self.history.transaction() as db:
            cursor = db.execute(
                "INSERT INTO sessions (game, kind, started_at, updated_at) VALUES (?, ?, ?, ?)",
                (game, kind, stamp, stamp),
            )
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    def events(self, session_id: int) -> list[Event]:
        """The answers so far, in order."""
        with self.history.guard("read the game"):
            rows = self._db.execute(
                "SELECT key, value FROM session_events WHERE session_id = ? ORDER BY seq",
                (session_id,),
            ).fetchall()
        return [(key, json.loads(value)) for key, value in rows]

    def append(self, session_id: int, key: str, value: Any, *, note: str | None = None) -> None:
        """Save one answer (committed before this returns)."""
        stamp = now_utc()
        with self.history.guard("save the answer"), self.history.transaction() as db:
            seq = db.execute(
                "SELECT coalesce(max(seq), 0) + 1 FROM session_events WHERE session_id = ?",
                (session_id,),
            ).fetchone()[0]
            db.execute(
                "INSERT INTO session_events (session_id, seq, at, key, value) "
                "VALUES (?, ?, ?, ?, ?)",
                (session_id, seq, stamp, key, json.dumps(value)),
            )
            db.execute(
                "UPDATE sessions SET updated_at = ?, note = coalesce(?, note) WHERE id = ?",
                (stamp, note, session_id),
            )

    def truncate(self, session_id: int, keep: int) -> None:
        """Forget every answer after the first ``keep`` (undo, or a changed flow)."""
        with self.history.guard("undo the answer"), self.history.transaction() as db:
            db.execute(
                "DELETE FROM session_events WHERE session_id = ? AND seq NOT IN ("
                "SELECT seq FROM session_events WHERE session_id = ? ORDER BY seq LIMIT ?)",
                (session_id, session_id, keep),
            )

    def unfinished(self) -> list[SessionInfo]:
        """Sessions not finished yet, most recent first."""
        return self._select("WHERE status = 'active' ORDER BY updated_at DESC, id DESC")

    def get(self, session_id: int) -> SessionInfo | None:
        """One session, or ``None``."""
        found = self._select("WHERE id = ?", (session_id,))
        return found[0] if found else None

    def _select(self, clause: str, params: tuple[Any, ...] = ()) -> list[SessionInfo]:
        with self.history.guard("read the games in progress"):
            rows = self._db.execute(
                "SELECT id, game, kind, started_at, updated_at, status, note, "
                "(SELECT count(*) FROM session_events WHERE session_id = sessions.id), play_id "
                f"FROM sessions {clause}",
                params,
            ).fetchall()
        return [SessionInfo(*row) for row in rows]

    def finish(self, session_id: int, play: Play) -> int:
        """Record the finished game and close the session, in one transaction."""
        with self.history.guard("save the game"), self.history.transaction() as db:
            play_id = insert(db, play, keep_id=False)
            db.execute(
                "UPDATE sessions SET status = 'finished', play_id = ?, updated_at = ? WHERE id = ?",
                (play_id, now_utc(), session_id),
            )
        return play_id

    def abandon(self, session_id: int) -> None:
        """Set a session aside for good (its events are kept)."""
        with self.history.guard("abandon the game"), self.history.transaction() as db:
            db.execute("UPDATE sessions SET status = 'abandoned' WHERE id = ?", (session_id,))

    def replace_draft(self, session_id: int, key: str, value: Any) -> None:
        """Keep one answer only: ``value`` replaces every event of the session (a page's draft)."""
        stamp = now_utc()
        with self.history.guard("keep the draft"), self.history.transaction() as db:
            db.execute("DELETE FROM session_events WHERE session_id = ?", (session_id,))
            db.execute(
                "INSERT INTO session_events (session_id, seq, at, key, value) "
                "VALUES (?, 1, ?, ?, ?)",
                (session_id, stamp, key, json.dumps(value)),
            )
            db.execute("UPDATE sessions SET updated_at = ? WHERE id = ?", (stamp, session_id))
