"""Games in progress: each answer of a session is an event in the history database.

A session's state is never stored directly: it is rebuilt by replaying its
events through the game's flow, so that resuming after a crash and undoing an
answer both come down to "replay these events". Each event is committed before
the next question is asked.

Besides the answers, a session's log holds the seeds of its draws (``seed:``
events) and facts about the game that are not answers (``meta:`` events): when
a terminal started driving it and when it stopped, where it is played, and how
long it took. Undo keeps both kinds; a replay skips them (:func:`companion.events.is_answer`).

A session played along in the terminal has the number its game will keep in the
history (see :func:`companion.history.rows.next_number`), so ``companion resume
10`` and "game #10" are one game. A web page's draft has no game number: its
session id is below 1, and its game is given the next number when it is saved,
so drafts left unsaved leave no gap. Only one process drives a session at a
time: it *holds* it (:meth:`SessionStore.acquire`), and a holder whose process
has died is noticed and replaced.

A caller that drives one game (the terminal's runner, :mod:`companion.play.runner`)
opens it once, :meth:`SessionStore.session`, and is handed a :class:`Session`:
the game's id, game, kind and listing, with the reads and writes of its log and
its hold (:meth:`Session.held`), the id given once instead of to every call.
"""

from __future__ import annotations

import json
import os
import socket
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from companion.events import META_PREFIX, SEED_PREFIX
from companion.history.errors import HistoryError
from companion.history.model import Play, now_utc
from companion.history.rows import insert, next_number
from companion.history.store import History

Event = tuple[str, Any]
__all__ = ["TERMINAL_KINDS", "Event", "Session", "SessionStore", "Unreadable", "now"]
# The sessions a terminal drives (``resume``); a web page's drafts are ``web``.
TERMINAL_KINDS = ("play", "score")
# A holder on another machine that has not saved an answer for this long is
# taken to be gone (on this machine the process itself is checked).
STALE_AFTER_S = 30 * 60
DELETED = "deleted"
"""The status of a played-along game whose recorded game was deleted: its answers are
kept, it is neither resumed nor replayed by ``history check``."""


@dataclass(frozen=True)
class Unreadable:
    """A saved answer whose stored text is not valid JSON (a damaged record)."""

    raw: str

    def __str__(self) -> str:
        return f"unreadable text {self.raw[:40]!r}"


MAX_VALUE_DEPTH = 64
"""The deepest nesting a saved answer may have (ours have a few levels): a deeper one,
such as an answer nested 5,000 deep in a damaged record, is not read."""


def parse_value(text: object) -> Any:
    """A saved value as JSON, nested at most :data:`MAX_VALUE_DEPTH` deep.

    Raises:
        ValueError: It is not such a JSON text (not a text, not JSON, too deep).
    """
    if not isinstance(text, str):
        raise ValueError("not a text")
    if text.count("[") + text.count("{") > MAX_VALUE_DEPTH and _depth(text) > MAX_VALUE_DEPTH:
        raise ValueError(f"nested more than {MAX_VALUE_DEPTH} deep")
    try:
        return json.loads(text)
    except RecursionError as error:
        raise ValueError("nested too deep") from error


def _depth(text: str) -> int:
    """How deep the brackets of a JSON text nest (those inside strings left out)."""
    deepest = depth = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def _loaded(value: str) -> Any:
    try:
        return parse_value(value)
    except ValueError:
        return None


class SessionHeld(HistoryError):
    """Another live process is driving the game."""


class SessionLost(HistoryError):
    """Another process took the game over: this one must stop asking."""


def now() -> str:
    """The time now, as the log stores it (one place to set it in tests)."""
    return now_utc()


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
    holder: str | None = None
    holder_beat: str | None = None

    def held_by(self) -> str | None:
        """Who drives the game now, in words, or ``None`` when nobody alive does."""
        if self.holder is None:
            return None
        info = _holder(self.holder)
        if info is None or not _alive(info, self.holder_beat):
            return None
        return describe(info)


def _holder(text: str) -> dict[str, Any] | None:
    try:
        info = parse_value(text)
    except ValueError:
        return None
    return info if isinstance(info, dict) else None


def describe(info: dict[str, Any]) -> str:
    """``process 4242 on tablehost, since 20:15 UTC``."""
    since = str(info.get("since", ""))[11:16]
    return f"process {info.get('pid')} on {info.get('host')}" + (
        f", since {since} UTC" if since else ""
    )


def held_message(session_id: int, holder: str) -> str:
    """What a second terminal is told about a game another one drives."""
    return (
        f"game #{session_id} is being played in another terminal ({holder}); "
        "go on there, or pause it there first"
    )


def process_start(pid: int) -> str | None:
    """When process ``pid`` started (clock ticks since boot), where the system says."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as handle:
            fields = handle.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return fields[19] if len(fields) > 19 else None


def _alive(info: dict[str, Any], beat: str | None) -> bool:
    """Whether the process described by ``info`` may still be driving the game."""
    pid = info.get("pid")
    if info.get("host") != socket.gethostname():
        if beat is None:
            return False
        try:
            last = datetime.strptime(beat, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)
        except ValueError:
            return False
        # A beat from the future (another device's clock ahead) proves nothing either.
        return abs((datetime.now(UTC) - last).total_seconds()) < STALE_AFTER_S
    if not isinstance(pid, int) or pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass  # alive, owned by another user
    started = info.get("started")
    # A pid the system gave to a new process since is not the holder.
    return started is None or process_start(pid) in (None, started)


# The SQL twin of is_answer (the prefixes hold no LIKE wildcard).
_ANSWER = f"key NOT LIKE '{SEED_PREFIX}%' AND key NOT LIKE '{META_PREFIX}%'"


class SessionStore:
    """Sessions and their event logs, kept in a :class:`History`."""

    def __init__(self, history: History) -> None:
        self.history = history
        self._db = history._db

    def start(
        self,
        game: str,
        kind: str,
        *,
        facts: Sequence[tuple[str, Any]] = (),
        numbered: bool = True,
    ) -> int:
        """Open a new session for ``game`` (``kind``: ``play``, ``score`` or ``web``).

        Args:
            game: The game id.
            kind: ``play``, ``score`` or ``web``.
            facts: ``meta:`` events to begin its log with (where it is played).
            numbered: Give it the next game number, which the finished game
                keeps; otherwise (a web draft) its id is below 1 and the game
                is numbered when it is saved.

        Returns:
            Its id: with ``numbered``, the number the finished game keeps.
        """
        stamp = now_utc()
        with self.history.guard("start the game"), self.history.transaction() as db:
            if numbered:
                number = next_number(db)
            else:
                lowest = db.execute("SELECT min(coalesce(min(id), 0), 0) FROM sessions")
                number = int(lowest.fetchone()[0]) - 1
            db.execute(
                "INSERT INTO sessions (id, game, kind, started_at, updated_at) "
                "VALUES (?, ?, ?, ?, ?)",
                (number, game, kind, stamp, stamp),
            )
            db.executemany(
                "INSERT INTO session_events (session_id, seq, at, key, value) "
                "VALUES (?, ?, ?, ?, ?)",
                [
                    (number, seq, stamp, key, json.dumps(value))
                    for seq, (key, value) in enumerate(facts, 1)
                ],
            )
        return number

    def events(self, session_id: int) -> list[Event]:
        """The saved answers and draws, in order (a damaged value is :class:`Unreadable`)."""
        with self.history.guard("read the game"):
            rows = self._db.execute(
                "SELECT key, value FROM session_events WHERE session_id = ? ORDER BY seq",
                (session_id,),
            ).fetchall()
        events: list[Event] = []
        for key, value in rows:
            try:
                events.append((key, parse_value(value)))
            except ValueError:
                events.append((key, Unreadable(str(value))))
        return events

    def timeline(self, session_id: int) -> list[tuple[str, str]]:
        """``(at, key)`` of every saved event, in order (what the clock reads)."""
        with self.history.guard("read the game"):
            rows = self._db.execute(
                "SELECT at, key FROM session_events WHERE session_id = ? ORDER BY seq",
                (session_id,),
            ).fetchall()
        return [(str(at), str(key)) for at, key in rows]

    def fact(self, session_id: int, key: str) -> Any:
        """The latest value of a ``meta:`` fact of the session, or ``None``."""
        with self.history.guard("read the game"):
            row = self._db.execute(
                "SELECT value FROM session_events WHERE session_id = ? AND key = ? "
                "ORDER BY seq DESC LIMIT 1",
                (session_id, key),
            ).fetchone()
        return _loaded(row[0]) if row else None

    def play_fact(self, play_id: int, key: str) -> Any:
        """The latest value of a ``meta:`` fact of the game that became play ``play_id``."""
        with self.history.guard("read the history"):
            row = self._db.execute(
                "SELECT e.value FROM sessions JOIN session_events AS e ON e.session_id = "
                "sessions.id WHERE sessions.play_id = ? AND e.key = ? "
                "ORDER BY sessions.id DESC, e.seq DESC LIMIT 1",
                (play_id, key),
            ).fetchone()
        return _loaded(row[0]) if row else None

    def append(
        self,
        session_id: int,
        key: str,
        value: Any,
        *,
        note: str | None = None,
        token: str | None = None,
    ) -> None:
        """Save one answer (committed before this returns).

        Args:
            session_id: The session.
            key: The question's key.
            value: The answer (JSON).
            note: Where in the game it was given, for the list of unfinished games.
            token: The holder's token (see :meth:`acquire`); the answer is refused
                when another process holds the session now.

        Raises:
            SessionLost: Another process took the session over.
        """
        stamp = now_utc()
        with self.history.guard("save the answer"), self.history.transaction() as db:
            if token is not None:
                self._check_holder(db, session_id, token)
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
                "UPDATE sessions SET updated_at = ?, note = coalesce(?, note), "
                "holder_beat = CASE WHEN holder IS NULL THEN holder_beat ELSE ? END WHERE id = ?",
                (stamp, note, stamp, session_id),
            )

    def note(self, session_id: int, note: str) -> None:
        """Say where the game goes on (the question asked now), for the list of unfinished games.

        The time of the last answer is left as it is.
        """
        with self.history.guard("note the question"), self.history.transaction() as db:
            db.execute("UPDATE sessions SET note = ? WHERE id = ?", (note, session_id))

    def _check_holder(self, db: Any, session_id: int, token: str) -> None:
        row = db.execute("SELECT holder FROM sessions WHERE id = ?", (session_id,)).fetchone()
        info = _holder(row[0]) if row and row[0] else None
        if info is None or info.get("token") != token:
            raise SessionLost(
                f"game #{session_id} was taken over by another terminal"
                + (f" ({describe(info)})" if info else "")
                + "; this one stops here, every answer so far is saved"
            )

    def truncate(self, session_id: int, keep: int) -> None:
        """Forget every answer after the first ``keep`` (undo, with the players' say-so).

        Draws (``seed:`` events) are kept: a draw made once stays made. So are
        ``meta:`` facts (when the game was played, where).
        """
        with self.history.guard("undo the answer"), self.history.transaction() as db:
            db.execute(
                f"DELETE FROM session_events WHERE session_id = ? AND {_ANSWER} "
                "AND seq NOT IN (SELECT seq FROM session_events WHERE session_id = ? "
                f"AND {_ANSWER} ORDER BY seq LIMIT ?)",
                (session_id, session_id, keep),
            )

    def unfinished(self, kinds: Sequence[str] = ()) -> list[SessionInfo]:
        """Sessions not finished yet, most recent first.

        Args:
            kinds: Only these kinds (``TERMINAL_KINDS`` for the terminal's);
                every kind when empty.
        """
        if not kinds:
            return self._select("WHERE status = 'active' ORDER BY updated_at DESC, id DESC")
        marks = ", ".join("?" * len(kinds))
        return self._select(
            f"WHERE status = 'active' AND kind IN ({marks}) ORDER BY updated_at DESC, id DESC",
            tuple(kinds),
        )

    def get(self, session_id: int) -> SessionInfo | None:
        """One session, or ``None``."""
        found = self._select("WHERE id = ?", (session_id,))
        return found[0] if found else None

    def session(self, session_id: int) -> Session:
        """Open session ``session_id`` to drive it (see :class:`Session`).

        Raises:
            HistoryError: There is no such session.
        """
        info = self.get(session_id)
        if info is None:
            raise HistoryError(f"no game #{session_id}")
        return Session(self, info)

    def _select(self, clause: str, params: tuple[Any, ...] = ()) -> list[SessionInfo]:
        with self.history.guard("read the games in progress"):
            rows = self._db.execute(
                "SELECT id, game, kind, started_at, updated_at, status, note, "
                "(SELECT count(*) FROM session_events WHERE session_id = sessions.id "
                f"AND {_ANSWER}), play_id, holder, holder_beat "
                f"FROM sessions {clause}",
                params,
            ).fetchall()
        return [SessionInfo(*row) for row in rows]

    def acquire(self, session_id: int) -> str:
        """Become the one process that drives the session.

        Returns:
            A token that :meth:`append` and :meth:`release` take.

        Raises:
            SessionHeld: A live process holds it; the message says which.
        """
        token = uuid.uuid4().hex
        info = {
            "pid": os.getpid(),
            "host": socket.gethostname(),
            "token": token,
            "started": process_start(os.getpid()),
            "since": now_utc(),
        }
        with self.history.guard("open the game"), self.history.transaction() as db:
            row = db.execute(
                "SELECT holder, holder_beat FROM sessions WHERE id = ?", (session_id,)
            ).fetchone()
            if row is None:
                raise HistoryError(f"no game #{session_id}")
            current = _holder(row[0]) if row[0] else None
            if current is not None and _alive(current, row[1]):
                raise SessionHeld(held_message(session_id, describe(current)))
            db.execute(
                "UPDATE sessions SET holder = ?, holder_beat = ? WHERE id = ?",
                (json.dumps(info), now_utc(), session_id),
            )
        return token

    def release(self, session_id: int, token: str) -> None:
        """Let go of the session (only if ``token`` still holds it)."""
        with self.history.guard("close the game"), self.history.transaction() as db:
            db.execute(
                "UPDATE sessions SET holder = NULL WHERE id = ? AND json_extract(holder, "
                "'$.token') = ?",
                (session_id, token),
            )

    def finish(self, session_id: int, play: Play, *, facts: Sequence[tuple[str, Any]] = ()) -> int:
        """Record the finished game and close the session, in one transaction.

        The play takes the session's number (a draft's play, the next free
        number). Finishing a session that is already finished records nothing
        and returns the play it became.

        Args:
            session_id: The session.
            play: The scored game.
            facts: ``meta:`` events to add to the log in the same transaction
                (how long the game took).

        Raises:
            HistoryError: No such session, it was set aside, or its play was deleted.
        """
        with self.history.guard("save the game"), self.history.transaction() as db:
            row = db.execute(
                "SELECT status, play_id FROM sessions WHERE id = ?", (session_id,)
            ).fetchone()
            if row is None:
                raise HistoryError(f"no game #{session_id}")
            status, done = row
            if status == DELETED or (status == "finished" and done is None):
                raise HistoryError(f"game #{session_id} was saved, then deleted")
            if status == "finished":
                return int(done)
            if status != "active":
                raise HistoryError(f"game #{session_id} was set aside")
            db.execute(
                "UPDATE sessions SET status = 'finished', holder = NULL WHERE id = ?",
                (session_id,),
            )
            if session_id > 0:
                play_id = insert(db, replace(play, id=session_id), keep_id=True)
            else:
                play_id = insert(db, replace(play, id=0), keep_id=False)
            stamp = now_utc()
            for key, value in facts:
                db.execute(
                    "INSERT INTO session_events (session_id, seq, at, key, value) VALUES "
                    "(?, (SELECT coalesce(max(seq), 0) + 1 FROM session_events "
                    "WHERE session_id = ?), ?, ?, ?)",
                    (session_id, session_id, stamp, key, json.dumps(value)),
                )
            db.execute(
                "UPDATE sessions SET play_id = ?, updated_at = ? WHERE id = ?",
                (play_id, now_utc(), session_id),
            )
        return play_id

    def abandon(self, session_id: int) -> None:
        """Set a session aside for good (its events are kept)."""
        with self.history.guard("abandon the game"), self.history.transaction() as db:
            db.execute(
                "UPDATE sessions SET status = 'abandoned', holder = NULL WHERE id = ?",
                (session_id,),
            )

    def discard(self, session_id: int) -> None:
        """Remove a session and its whole log (a ``--no-save`` entry, once scored).

        Its number stays used: it is never handed out again.
        """
        with self.history.guard("close the game"), self.history.transaction() as db:
            db.execute("DELETE FROM session_events WHERE session_id = ?", (session_id,))
            db.execute("DELETE FROM sessions WHERE id = ?", (session_id,))

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


class Session:
    """One session, opened by its id once (:meth:`SessionStore.session`) to be driven.

    Its reads and writes are those of :class:`SessionStore` for this id. While
    it is held (:meth:`held`, or :meth:`acquire` and :meth:`release`), every
    answer saved with :meth:`append` carries the hold's token, so that it is
    refused once another process has taken the game over.

    Not to be confused with :class:`companion.history.check.Session`, a
    finished or unfinished game read whole for ``history check``.

    Attributes:
        store: The sessions of the history it lives in.
        info: The session as it was listed when opened (its answer count,
            note and holder are not kept up to date; its id, game and kind
            never change).
    """

    def __init__(self, store: SessionStore, info: SessionInfo) -> None:
        self.store = store
        self.info = info
        self._token: str | None = None

    def __repr__(self) -> str:
        return f"Session(id={self.id}, game={self.game!r}, kind={self.kind!r})"

    @property
    def id(self) -> int:
        """Its number: the game's number in the history (a web draft's is below 1)."""
        return self.info.id

    @property
    def game(self) -> str:
        """The game id, as stored (a damaged record may name no game of ours)."""
        return self.info.game

    @property
    def kind(self) -> str:
        """``play``, ``score`` or ``web``."""
        return self.info.kind

    @property
    def history(self) -> History:
        """The history it lives in."""
        return self.store.history

    @property
    def token(self) -> str | None:
        """The hold's token while this object holds the session, else ``None``."""
        return self._token

    def acquire(self) -> str:
        """Hold the session: become the one process that drives it.

        Returns:
            The hold's token (:meth:`append` passes it on by itself).

        Raises:
            SessionHeld: A live process holds it; the message says which.
        """
        self._token = self.store.acquire(self.id)
        return self._token

    def release(self) -> None:
        """Let go of the session (if this hold still has it); nothing when not held."""
        token, self._token = self._token, None
        if token is not None:
            self.store.release(self.id, token)

    @contextmanager
    def held(self) -> Iterator[Session]:
        """Hold the session for the ``with`` block, letting go of it however the block ends.

        Raises:
            SessionHeld: A live process holds it (nothing is held then).
        """
        self.acquire()
        try:
            yield self
        finally:
            self.release()

    def append(self, key: str, value: Any, *, note: str | None = None) -> None:
        """Save one event (see :meth:`SessionStore.append`), checked against the hold if held.

        Raises:
            SessionLost: Another process took the session over.
        """
        self.store.append(self.id, key, value, note=note, token=self._token)

    def note(self, note: str) -> None:
        """Where the game goes on now (see :meth:`SessionStore.note`)."""
        self.store.note(self.id, note)

    def events(self) -> list[Event]:
        """The saved answers and draws, in order (see :meth:`SessionStore.events`)."""
        return self.store.events(self.id)

    def timeline(self) -> list[tuple[str, str]]:
        """``(at, key)`` of every saved event, in order (what the clock reads)."""
        return self.store.timeline(self.id)

    def fact(self, key: str) -> Any:
        """The latest value of a ``meta:`` fact of the session, or ``None``."""
        return self.store.fact(self.id, key)

    def truncate(self, keep: int) -> None:
        """Forget every answer after the first ``keep`` (see :meth:`SessionStore.truncate`)."""
        self.store.truncate(self.id, keep)

    def abandon(self) -> None:
        """Set the session aside for good (its events are kept; nobody holds it any more)."""
        self.store.abandon(self.id)
