"""Games in progress: one number per game, one holder, draws kept, finishing once."""

from __future__ import annotations

import json
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from companion.history.errors import HistoryError
from companion.history.history_file import APPLICATION_ID
from companion.history.model import Play, now_utc
from companion.history.schema import MIGRATIONS
from companion.history.sessions import SessionHeld, SessionLost, SessionStore, Unreadable
from companion.history.store import History

RESULT = {
    "game": "shibuya",
    "players": [
        {"name": "Red", "total": 6, "rank": 1, "breakdown": {"goals": 6}},
        {"name": "Blue", "total": 2, "rank": 2, "breakdown": {"goals": 2}},
    ],
    "winners": ["Red"],
    "tiebreak": None,
}


def play(uuid: str = "u-1", play_id: int = 0) -> Play:
    return Play(play_id, uuid, now_utc(), "shibuya", "{}", RESULT)


def record(history: History) -> int:
    return history.record(game="shibuya", score_file="{}", result=RESULT)


def test_sessions_and_plays_share_one_counter(db_path: Path) -> None:
    with History(db_path) as history:
        store = SessionStore(history)
        first = store.start("shibuya", "play")
        direct = record(history)
        second = store.start("tokaido", "score")
        assert (first, direct, second) == (1, 2, 3)
        assert store.finish(first, play()) == 1
        assert record(history) == 4
        history.delete(4)
        assert record(history) == 5  # a number is never handed out twice
        assert store.start("shibuya", "play") == 6


def test_finishing_twice_records_nothing_new(db_path: Path) -> None:
    with History(db_path) as history:
        store = SessionStore(history)
        number = store.start("shibuya", "play")
        assert store.finish(number, play("a")) == number
        assert store.finish(number, play("b")) == number
        assert [p.uuid for p in history.plays()] == ["a"]
        store.abandon(store.start("shibuya", "play"))
        with pytest.raises(HistoryError, match="set aside"):
            store.finish(2, play("c"))
        history.delete(number)
        with pytest.raises(HistoryError, match="saved, then deleted"):
            store.finish(number, play("d"))


def test_imports_keep_ids_but_never_take_a_game_in_progress(db_path: Path) -> None:
    with History(db_path) as history:
        store = SessionStore(history)
        for _ in range(3):
            store.start("shibuya", "play")
        added = history.add([play("x", 3), play("y", 10), play("z", 1)])
        assert added == (3, 0)
        ids = {p.uuid: p.id for p in history.plays()}
        assert ids["y"] == 10
        assert ids["x"] not in (1, 2, 3)
        assert ids["z"] not in (1, 2, 3)
        assert store.start("shibuya", "play") > max(ids.values())
        assert store.finish(3, play("w")) == 3


def test_undo_keeps_the_draws(db_path: Path) -> None:
    with History(db_path) as history:
        store = SessionStore(history)
        number = store.start("kamakura", "play")
        for key, value in [("a", 1), ("seed:tours", 77), ("b", 2), ("c", 3)]:
            store.append(number, key, value)
        store.truncate(number, 1)
        assert store.events(number) == [("a", 1), ("seed:tours", 77)]
        assert store.get(number).events == 1  # type: ignore[union-attr]


def test_a_damaged_answer_is_read_as_unreadable(db_path: Path) -> None:
    with History(db_path) as history:
        store = SessionStore(history)
        number = store.start("shibuya", "play")
        store.append(number, "mode", "2 players")
    with sqlite3.connect(db_path) as db:
        db.execute("UPDATE session_events SET value = '{oops'")
    db.close()
    with History(db_path) as history:
        assert SessionStore(history).events(number) == [("mode", Unreadable("{oops"))]


def set_holder(db: Path, number: int, holder: dict[str, object], beat: str | None) -> None:
    with sqlite3.connect(db) as conn:
        conn.execute(
            "UPDATE sessions SET holder = ?, holder_beat = ? WHERE id = ?",
            (json.dumps(holder), beat, number),
        )
    conn.close()


def test_one_live_process_holds_a_game(db_path: Path) -> None:
    with History(db_path) as history:
        store = SessionStore(history)
        number = store.start("shibuya", "play")
        token = store.acquire(number)
        with pytest.raises(SessionHeld, match=r"game #1 is being played in another terminal"):
            store.acquire(number)
        assert store.get(number).held_by() is not None  # type: ignore[union-attr]
        store.append(number, "mode", "2 players", token=token)
        store.release(number, token)
        assert store.get(number).held_by() is None  # type: ignore[union-attr]
        other = store.acquire(number)
        with pytest.raises(SessionLost, match="taken over by another terminal"):
            store.append(number, "players.0", "Aki", token=token)
        store.release(number, other)


def test_a_session_is_opened_once_by_its_id(db_path: Path) -> None:
    with History(db_path) as history:
        store = SessionStore(history)
        number = store.start("kamakura", "play", facts=[("meta:location", "Kyoto")])
        session = store.session(number)
        assert (session.id, session.game, session.kind) == (number, "kamakura", "play")
        assert session.history is history and session.info == store.get(number)
        for key, value in [("a", 1), ("seed:tours", 77), ("b", 2)]:
            session.append(key, value, note="round 1")
        session.truncate(1)
        assert session.events() == store.events(number)
        assert session.events() == [("meta:location", "Kyoto"), ("a", 1), ("seed:tours", 77)]
        assert [key for _, key in session.timeline()] == ["meta:location", "a", "seed:tours"]
        assert session.fact("meta:location") == "Kyoto"
        assert store.get(number).note == "round 1"  # type: ignore[union-attr]
        session.abandon()
        assert store.get(number).status == "abandoned"  # type: ignore[union-attr]
        with pytest.raises(HistoryError, match="no game #99"):
            store.session(99)


def test_a_session_held_saves_with_its_token_and_lets_go(db_path: Path) -> None:
    with History(db_path) as history:
        store = SessionStore(history)
        session = store.session(store.start("shibuya", "play"))
        with session.held() as held:
            assert held is session and held.token
            assert store.get(session.id).held_by() is not None  # type: ignore[union-attr]
            with pytest.raises(SessionHeld, match="game #1 is being played"):
                store.session(session.id).acquire()
            session.append("mode", "2 players")
        assert not session.token
        assert store.get(session.id).held_by() is None  # type: ignore[union-attr]
        other = store.session(session.id)
        with pytest.raises(SessionLost, match="taken over"), session.held():
            store.release(session.id, str(session.token))  # as if its process had died
            other.acquire()  # and another terminal took the game over
            session.append("players.0", "Aki")
        assert store.get(session.id).held_by() is not None  # type: ignore[union-attr]
        other.release()
        assert store.get(session.id).held_by() is None  # type: ignore[union-attr]
        with pytest.raises(KeyboardInterrupt), session.held():
            raise KeyboardInterrupt
        assert store.get(session.id).held_by() is None  # type: ignore[union-attr]


def test_a_holder_that_died_is_replaced(db_path: Path) -> None:
    gone = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        check=True,
        capture_output=True,
        text=True,
    )
    dead = int(gone.stdout)
    with History(db_path) as history:
        store = SessionStore(history)
        number = store.start("shibuya", "play")
    here = socket.gethostname()
    set_holder(db_path, number, {"pid": dead, "host": here, "token": "t"}, now_utc())
    with History(db_path) as history:
        SessionStore(history).acquire(number)
    # Another machine: alive while it saves answers, gone after half an hour of silence.
    set_holder(db_path, number, {"pid": 1, "host": "elsewhere", "token": "t"}, now_utc())
    with History(db_path) as history, pytest.raises(SessionHeld, match="on elsewhere"):
        SessionStore(history).acquire(number)
    set_holder(
        db_path, number, {"pid": 1, "host": "elsewhere", "token": "t"}, "2020-01-01T00:00:00Z"
    )
    with History(db_path) as history:
        SessionStore(history).acquire(number)


def test_a_version_3_history_is_numbered_from_both_tables(tmp_path: Path) -> None:
    path = tmp_path / "v3.sqlite3"
    db = sqlite3.connect(path, isolation_level=None)
    db.execute(
        "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT, applied_at TEXT)"
    )
    for number, _, statements in MIGRATIONS[:3]:
        for statement in statements:
            db.execute(statement)
        db.execute("INSERT INTO schema_migrations VALUES (?, '', '')", (number,))
    db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    db.execute("PRAGMA user_version = 3")
    db.execute(
        "INSERT INTO plays (id, uuid, played_at, game, result) "
        "VALUES (4, 'p', '2026', 'shibuya', ?)",
        (json.dumps(RESULT),),
    )
    db.execute(
        "INSERT INTO sessions (id, game, kind, started_at, updated_at) "
        "VALUES (9, 'shibuya', 'play', '', '')"
    )
    db.close()
    with History(path) as history:
        assert history.get(4).status == "final"
        store = SessionStore(history)
        assert store.start("shibuya", "play") == 10
        assert store.finish(9, play("n")) == 9
