"""Syncing tables with a club's ledger on a real PostgreSQL server."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from companion.club.ledger import connected
from companion.history.formats.ours import to_json
from companion.history.model import Play
from companion.history.store import History
from tests.support.club_tables import contents, run, sql, stats, sync, table
from tests.support.history_fixture import result
from tests.support.play_helpers import run as play
from tests.support.play_scripts import shibuya_keys
from tests.support.postgres import Server, free_port


def ok(url: str, db: Path) -> str:
    result = sync(url, db)
    assert result.exit_code == 0, result.output
    return result.output


def ledger_rows(url: str, statement: str) -> list[tuple[object, ...]]:
    with connected(url) as ledger:
        rows = ledger.db.execute(statement.encode()).fetchall()
        ledger.db.rollback()
    return rows


@pytest.mark.slow
@pytest.mark.parametrize("order", ["abcabc", "cbacba", "bacbca"])
def test_three_tables_in_any_order_end_with_the_same_plays_and_stats(
    club: str, tmp_path: Path, order: str
) -> None:
    dbs = {name: table(tmp_path / f"{name}.sqlite3", name, 15) for name in "abc"}
    for name in order:
        ok(club, dbs[name])
    expected = {**contents(dbs["a"])}
    assert len(expected) == 45
    assert contents(dbs["b"]) == expected
    assert contents(dbs["c"]) == expected
    assert stats(dbs["a"]) == stats(dbs["b"]) == stats(dbs["c"])
    assert ledger_rows(club, "SELECT count(*) FROM plays") == [(45,)]
    assert ledger_rows(club, "SELECT count(*) FROM sides") == [
        (sum(len(p["result"]["players"]) for p in expected.values()),)
    ]
    for db in dbs.values():
        assert ok(club, db) == (
            "Nothing new: this history and the club's ledger were already the same.\n"
        )


def test_first_sync_sends_and_takes_then_a_second_says_nothing_new(
    club: str, tmp_path: Path
) -> None:
    a = table(tmp_path / "a.sqlite3", "a", 4)
    b = table(tmp_path / "b.sqlite3", "b", 3)
    assert ok(club, a) == "Sent 4 plays; took 0 plays (0 new, 0 changed, 0 deleted).\n"
    assert ok(club, b) == "Sent 3 plays; took 4 plays (4 new, 0 changed, 0 deleted).\n"
    assert ok(club, a) == "Sent 0 plays; took 3 plays (3 new, 0 changed, 0 deleted).\n"
    assert ok(club, b) == "Nothing new: this history and the club's ledger were already the same.\n"
    before = _dump(a)
    assert ok(club, a) == "Nothing new: this history and the club's ledger were already the same.\n"
    assert _dump(a) == before
    assert sql(a, "SELECT count(*) FROM play_versions WHERE dirty = 1") == [(0,)]


def _dump(db: Path) -> list[str]:
    with sqlite3.connect(db) as connection:
        return list(connection.iterdump())


def test_a_shared_import_is_kept_once(club: str, tmp_path: Path) -> None:
    source = table(tmp_path / "source.sqlite3", "shared", 6)
    with History(source) as history:
        export = tmp_path / "export.json"
        export.write_text(to_json(history.plays(), events=history.event_logs()))
    a, b = tmp_path / "a.sqlite3", tmp_path / "b.sqlite3"
    for db in (a, b):
        result = run("history", "import", str(export), "--db", str(db))
        assert result.exit_code == 0, result.output
    assert ok(club, a) == "Sent 6 plays; took 0 plays (0 new, 0 changed, 0 deleted).\n"
    assert ok(club, b) == "Nothing new: this history and the club's ledger were already the same.\n"
    assert ledger_rows(club, "SELECT count(*), count(DISTINCT uuid) FROM plays") == [(6, 6)]
    assert ledger_rows(club, "SELECT count(*) FROM conflicts") == [(0,)]
    assert contents(a) == contents(b)
    assert len(contents(b)) == 6


def test_an_edit_travels(club: str, tmp_path: Path) -> None:
    a = table(tmp_path / "a.sqlite3", "a", 3)
    b = tmp_path / "b.sqlite3"
    ok(club, a)
    ok(club, b)
    with History(a) as history:
        play = history.plays()[0]
        history.replace(replace(play, notes="the rain came", location="Ben's"))
    assert ok(club, a) == "Sent 1 play; took 0 plays (0 new, 0 changed, 0 deleted).\n"
    assert ok(club, b) == "Sent 0 plays; took 1 play (0 new, 1 changed, 0 deleted).\n"
    edited = contents(b)[play.uuid.lower()]
    assert (edited["notes"], edited["location"]) == ("the rain came", "Ben's")
    assert contents(a) == contents(b)
    assert ledger_rows(club, "SELECT kind, count(*) FROM changes GROUP BY kind ORDER BY kind") == [
        ("added", 3),
        ("edited", 1),
    ]


def test_a_deletion_travels_as_a_tombstone(club: str, tmp_path: Path) -> None:
    a = table(tmp_path / "a.sqlite3", "a", 3)
    b = tmp_path / "b.sqlite3"
    ok(club, a)
    ok(club, b)
    with History(b) as history:
        gone = history.plays()[1]
        history.delete(gone.id)
    assert ok(club, b) == "Sent 1 play; took 0 plays (0 new, 0 changed, 0 deleted).\n"
    assert ok(club, a) == "Sent 0 plays; took 1 play (0 new, 0 changed, 1 deleted).\n"
    assert gone.uuid.lower() not in contents(a)
    assert len(contents(a)) == 2
    assert ledger_rows(club, "SELECT deleted, entry IS NULL FROM plays WHERE uuid = 'a-1'") == [
        (True, True)
    ]
    # The tombstone stays: a third table never sees the play.
    c = tmp_path / "c.sqlite3"
    ok(club, c)
    assert set(contents(c)) == set(contents(a))


def test_a_rename_travels(club: str, tmp_path: Path) -> None:
    a = table(tmp_path / "a.sqlite3", "a", 12)
    b = tmp_path / "b.sqlite3"
    ok(club, a)
    ok(club, b)
    touched = sql(a, "SELECT count(DISTINCT play_id) FROM play_people WHERE name_key = 'ben'")[0][0]
    assert touched > 0
    # A rename as any code might write it: the people's names and keys changed in place.
    sql(a, "UPDATE play_people SET name = 'Benedict', name_key = 'benedict' WHERE name_key = 'ben'")
    assert sql(a, "SELECT old_key, new_name FROM person_renames") == [("ben", "Benedict")]
    assert sql(a, "SELECT old_name, new_name, sent FROM rename_log") == [("ben", "Benedict", 0)]
    assert ok(club, a) == (
        f"Sent {touched} plays and 1 rename; took 0 plays (0 new, 0 changed, 0 deleted).\n"
    )
    assert sql(a, "SELECT sent FROM rename_log") == [(1,)]
    ok(club, b)
    assert sql(b, "SELECT count(*) FROM play_people WHERE name_key = 'ben'") == [(0,)]
    assert sql(b, "SELECT count(DISTINCT play_id) FROM play_people WHERE name = 'Benedict'") == [
        (touched,)
    ]
    assert contents(a) == contents(b)
    assert ledger_rows(club, "SELECT name FROM people WHERE name_key = 'benedict'") == [
        ("Benedict",)
    ]


def test_conflicting_edits_keep_both_versions(club: str, tmp_path: Path) -> None:
    a = table(tmp_path / "a.sqlite3", "a", 2)
    b = tmp_path / "b.sqlite3"
    ok(club, a)
    ok(club, b)
    for db, notes in ((a, "from table a"), (b, "from table b")):
        with History(db) as history:
            play = next(p for p in history.plays() if p.uuid == "a-0")
            history.replace(replace(play, notes=notes))
    ok(club, a)
    said = ok(club, b)
    assert "1 new conflict (both versions kept: companion club conflicts)" in said
    ok(club, a)
    kept = contents(a)["a-0"]["notes"]
    assert contents(b)["a-0"]["notes"] == kept
    [(lost,)] = ledger_rows(club, "SELECT lost_entry->>'notes' FROM conflicts")
    assert {kept, lost} == {"from table a", "from table b"}
    status = run("club", "status", club, "--db", str(a))
    assert status.exit_code == 0, status.output
    assert "  Conflicts to settle: 1\n" in status.output
    assert ", play a-0: 1 = table " in status.output
    assert ok(club, b) == "Nothing new: this history and the club's ledger were already the same.\n"


def test_status_shows_what_waits_and_the_last_sync(
    club: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    a = table(tmp_path / "a.sqlite3", "a", 3)
    b = table(tmp_path / "b.sqlite3", "b", 2)
    ok(club, b)
    result = run("club", "status", "--club", club, "--db", str(a))
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == f"Club's ledger: {club}"
    assert lines[1].startswith("  This table: table ") and len(lines[1]) == 28
    assert lines[2:7] == [
        "  2 plays (0 deleted)",
        "  Waiting to go up: 3 plays (0 deleted)",
        "  Waiting to come down: 2 plays",
        "  Last sync: never",
        "  Conflicts to settle: 0",
    ]
    ok(club, a)
    monkeypatch.setenv("COMPANION_CLUB", club)
    after = run("club", "status", "--db", str(a)).output
    assert "  Waiting to go up: 0 plays (0 deleted)\n  Waiting to come down: 0 plays\n" in after
    assert "  Last sync: 2" in after


def test_a_read_only_role_pulls_but_cannot_push(
    club: str, server: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    a = table(tmp_path / "a.sqlite3", "a", 3)
    ok(club, a)
    name, password = server.new_role(club.rsplit("/", 1)[1], read_only=True)
    reader = server.url(club.rsplit("/", 1)[1], user=name)
    monkeypatch.setenv("PGPASSWORD", password)
    r = table(tmp_path / "r.sqlite3", "r", 2)
    result = sync(reader, r)
    assert result.exit_code == 0, result.output
    assert result.output == (
        "Took 3 plays from the club's ledger; this role may only read it, "
        "so 2 changes here stayed waiting to go up.\n"
    )
    assert len(contents(r)) == 5
    assert (
        "This role may only read the ledger" in run("club", "status", reader, "--db", str(r)).output
    )
    monkeypatch.setenv("PGPASSWORD", server.password)
    assert ledger_rows(club, "SELECT count(*) FROM plays") == [(3,)]


def test_a_member_role_can_sync(
    club: str, server: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    database = club.rsplit("/", 1)[1]
    name, password = server.new_role(database, read_only=False)
    monkeypatch.setenv("PGPASSWORD", password)
    a = table(tmp_path / "a.sqlite3", "a", 2)
    assert ok(server.url(database, user=name), a).startswith("Sent 2 plays;")


def test_a_malformed_play_in_the_ledger_is_refused_and_the_rest_taken(
    club: str, tmp_path: Path
) -> None:
    a = table(tmp_path / "a.sqlite3", "a", 3)
    ok(club, a)
    with connected(club) as ledger:
        ledger.db.execute(
            "UPDATE plays SET entry = jsonb_set(entry, '{game}', '\"chess\"') WHERE uuid = 'a-1'"
        )
        ledger.db.commit()
    b = tmp_path / "b.sqlite3"
    said = ok(club, b)
    assert said == (
        "Sent 0 plays; took 2 plays (2 new, 0 changed, 0 deleted); 1 row of the ledger set "
        'aside (a-1: a-1.game: unknown game "chess" (one of: shimoda, shibuya, tokaido, '
        "kamakura, shogun, orchard): companion club status).\n"
    )
    assert set(contents(b)) == {"a-0", "a-2"}


# Errors: one line, exit 1, no traceback, the local history untouched, no credentials.


def _fingerprint(db: Path) -> str:
    return hashlib.sha256(db.read_bytes()).hexdigest()


def _fails(args: list[str], db: Path, expected: str, secret: str = "") -> None:
    before = _fingerprint(db)
    result = run(*args, "--db", str(db))
    assert result.exit_code == 1, result.output
    assert isinstance(result.exception, SystemExit)
    assert result.output == f"Error: {expected}\n"
    assert "Traceback" not in result.output
    if secret:
        assert secret not in result.output
    assert _fingerprint(db) == before


@pytest.fixture
def local(tmp_path: Path) -> Path:
    db = table(tmp_path / "local.sqlite3", "l", 2)
    History(db).close()
    return db


def test_an_unreachable_server(local: Path) -> None:
    port = free_port()
    url = f"postgresql://alice:s3cret-pw@127.0.0.1:{port}/club"
    for command in ("sync", "status"):
        before = _fingerprint(local)
        result = run("club", command, url, "--db", str(local))
        assert result.exit_code == 1
        assert result.output.startswith(
            "Error: cannot connect to the club's ledger "
            f"postgresql://alice:***@127.0.0.1:{port}/club: "
        )
        assert result.output.count("\n") == 1
        assert "s3cret-pw" not in result.output
        assert _fingerprint(local) == before


def test_a_wrong_password(club: str, server: Server, local: Path) -> None:
    database = club.rsplit("/", 1)[1]
    url = server.url(database, password="wrong-pass-123")
    _fails(
        ["club", "sync", url],
        local,
        f"cannot connect to the club's ledger {server.url(database, password='***')}: "
        "the server refused the password (check PGPASSWORD or ~/.pgpass)",
        "wrong-pass-123",
    )


def test_no_password_at_all(club: str, local: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PGPASSWORD")
    _fails(
        ["club", "sync", club],
        local,
        f"cannot connect to the club's ledger {club}: "
        "the server wants a password (set PGPASSWORD or a line in ~/.pgpass)",
    )


def test_a_password_in_the_address_is_never_shown_or_kept(
    club: str, server: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("PGPASSWORD")
    url = server.url(club.rsplit("/", 1)[1], password=server.password)
    a = table(tmp_path / "a.sqlite3", "a", 2)
    said = ok(url, a) + run("club", "status", url, "--db", str(a)).output
    assert server.password not in said
    assert "postgresql://postgres:***@127.0.0.1:" in said
    History(a).close()  # checkpoint: everything in the one file
    assert server.password.encode() not in a.read_bytes()
    assert sql(a, "SELECT shown FROM club_state") == [
        (server.url(club.rsplit("/", 1)[1], password="***"),)
    ]


def test_a_password_from_pgpass(
    club: str, server: Server, local: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("PGPASSWORD")
    pgpass = tmp_path / "pgpass"
    pgpass.write_text(f"127.0.0.1:{server.port}:*:postgres:{server.password}\n")
    pgpass.chmod(0o600)
    monkeypatch.setenv("PGPASSFILE", str(pgpass))
    assert ok(club, local).startswith("Sent 2 plays;")


def test_a_database_that_is_not_a_ledger(
    server: Server, local: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PGPASSWORD", server.password)
    url = server.url(server.new_database())
    for command in ("sync", "status"):
        _fails(
            ["club", command, url],
            local,
            f"{url} is not a club's ledger (run companion club init there)",
        )
    server.admin("CREATE TABLE ledger (key text, value text)", url.rsplit("/", 1)[1])
    _fails(
        ["club", "sync", url],
        local,
        f"{url} is not a club's ledger (run companion club init there)",
    )
    result = run("club", "init", url)
    assert result.output == f"Error: {url} is not a club's ledger (run companion club init there)\n"


def test_a_ledger_of_a_newer_version(club: str, local: Path) -> None:
    with connected(club) as ledger:
        ledger.db.execute("UPDATE ledger SET value = '99' WHERE key = 'version'")
        ledger.db.commit()
    message = (
        f"the club's ledger {club} was made by a newer companion (ledger version 99, "
        "this one knows 3); update the companion"
    )
    for command in ("sync", "status"):
        _fails(["club", command, club], local, message)
    assert run("club", "init", club).output == f"Error: {message}\n"


def test_no_club_given(local: Path) -> None:
    result = run("club", "sync", "--db", str(local))
    assert result.exit_code == 1
    assert result.output == (
        "Error: no club given: name its ledger as an argument, with --club URL or in "
        "COMPANION_CLUB (such as postgresql://alice@club.example.org/club)\n"
    )
    result = run("club", "sync", "mysql://root:pw@host/db", "--db", str(local))
    assert result.output == (
        "Error: mysql://root:***@host/db is not a PostgreSQL address "
        "(postgresql://user@host/database)\n"
    )


def test_init_twice(server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PGPASSWORD", server.password)
    url = server.url(server.new_database())
    assert run("club", "init", url).output == f"Created the club's ledger in {url} (version 3).\n"
    assert run("club", "init", url).output == (
        f"The club's ledger {url} is ready (version 3); nothing to do.\n"
    )
    with connected(url) as ledger:
        rows = ledger.db.execute("SELECT version, name FROM schema_migrations").fetchall()
    assert rows == [
        (1, "plays, sides, people, places, changes and conflicts"),
        (2, "renames and merges of people"),
        (3, "change numbers kept by the server, tables' names, conflicts to settle"),
    ]


def test_a_ledger_of_version_1_is_upgraded_and_its_members_keep_their_rights(
    server: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from companion.club import ledger as ledger_module
    from companion.club.schema import MIGRATIONS

    monkeypatch.setenv("PGPASSWORD", server.password)
    database = server.new_database()
    url = server.url(database)
    with monkeypatch.context() as old:
        old.setattr(ledger_module, "MIGRATIONS", MIGRATIONS[:1])
        old.setattr(ledger_module, "VERSION", 1)
        assert run("club", "init", url).exit_code == 0
    assert sync(url, tmp_path / "x.sqlite3").output == (
        f"Error: the club's ledger {url} is at version 1: "
        "run companion club init there to upgrade it\n"
    )
    member, member_password = server.new_role(database, read_only=False)
    reader, reader_password = server.new_role(database, read_only=True)
    assert run("club", "init", url).output == (
        f"Upgraded the club's ledger {url} from version 1 to 3.\n"
    )
    x, r = tmp_path / "x.sqlite3", tmp_path / "r.sqlite3"
    _record(x, "Ben", "Aki", at="2026-02-01T20:00:00Z")
    assert run("history", "rename", "Ben", "Benjamin", "--db", str(x)).exit_code == 0
    monkeypatch.setenv("PGPASSWORD", member_password)
    assert ok(server.url(database, user=member), x) == (
        "Sent 1 play and 1 rename; took 0 plays (0 new, 0 changed, 0 deleted).\n"
    )
    _record(r, "Ben", "Cho", at="2026-02-02T20:00:00Z")
    monkeypatch.setenv("PGPASSWORD", reader_password)
    assert ok(server.url(database, user=reader), r) == (
        "Took 1 play from the club's ledger and applied 1 rename from the club (1 game here "
        "renamed); this role may only read it, so 1 change here stayed waiting to go up.\n"
    )
    assert _names(r) == [["Benjamin", "Aki"], ["Benjamin", "Cho"]]


def test_the_ledger_keeps_itself_whole(club: str) -> None:
    import psycopg

    with connected(club) as ledger, pytest.raises(psycopg.errors.IntegrityError):
        ledger.db.execute(
            "INSERT INTO sides (play_uuid, seat, name, winner) VALUES ('nowhere', 0, 'x', true)"
        )


def test_events_of_a_played_along_game_travel(club: str, tmp_path: Path) -> None:
    """A game played along keeps its answers on every table (they still replay there)."""
    a = tmp_path / "a.sqlite3"
    assert play(["play", "shibuya", "--db", str(a)], shibuya_keys()).exit_code == 0
    with History(a) as history:
        here = history.event_logs()
    assert len(here) == 1
    ok(club, a)
    b = tmp_path / "b.sqlite3"
    ok(club, b)
    with History(b) as history:
        there = history.event_logs()
    assert list(there.values()) == list(here.values())
    assert run("history", "check", "--db", str(b)).exit_code == 0


def test_history_rename_and_merge_travel(club: str, tmp_path: Path) -> None:
    a = table(tmp_path / "a.sqlite3", "a", 12)
    with History(a) as history:
        history.record(
            game="tokaido",
            score_file=None,
            result=result("tokaido", [("Hiro", 50, 1), ("Aki", 40, 2)], ["Hiro"]),
            played_at="2026-02-01T20:00:00Z",
        )
    b = tmp_path / "b.sqlite3"
    ok(club, a)
    ok(club, b)
    renamed = run("history", "rename", "Ben", "Benedict", "--db", str(a))
    assert renamed.exit_code == 0, renamed.output
    merged = run("history", "rename", "Hiro", "Cho", "--yes", "--db", str(a))
    assert merged.exit_code == 0, merged.output
    said = ok(club, a)
    assert said.startswith("Sent ") and not said.startswith("Sent 0 ")
    ok(club, b)
    assert sql(b, "SELECT count(*) FROM play_people WHERE name_key IN ('ben', 'hiro')") == [(0,)]
    assert sql(b, "SELECT count(*) FROM play_people WHERE name = 'Benedict'") != [(0,)]
    assert contents(a) == contents(b)
    assert stats(a) == stats(b)
    assert ok(club, b) == "Nothing new: this history and the club's ledger were already the same.\n"


def _record(db: Path, *names: str, at: str) -> None:
    """A Tokaido game of ``names`` (the first wins) in the history at ``db``."""
    sides = [(name, 60 - 10 * seat, seat + 1) for seat, name in enumerate(names)]
    with History(db) as history:
        history.record(
            game="tokaido",
            score_file=None,
            result=result("tokaido", sides, [names[0]]),
            played_at=at,
        )


def _people(db: Path) -> list[dict[str, object]]:
    said = run("history", "people", "--json", "--db", str(db))
    assert said.exit_code == 0, said.output
    people: list[dict[str, object]] = json.loads(said.stdout)
    return people


def _ratings(db: Path) -> Any:
    said = run("history", "ratings", "--json", "--db", str(db))
    assert said.exit_code == 0, said.output
    return json.loads(said.stdout)


def _names(db: Path) -> list[list[str]]:
    """The people of every game, by date."""
    return [
        [p["name"] for p in entry["people"]]
        for entry in sorted(contents(db).values(), key=lambda e: e["played_at"])
    ]


NOTHING_NEW = "Nothing new: this history and the club's ledger were already the same.\n"


def test_a_rename_reaches_a_game_recorded_elsewhere_under_the_old_name(
    club: str, tmp_path: Path
) -> None:
    x, y = tmp_path / "x.sqlite3", tmp_path / "y.sqlite3"
    _record(x, "Ben", "Aki", at="2026-02-01T20:00:00Z")
    assert ok(club, x) == "Sent 1 play; took 0 plays (0 new, 0 changed, 0 deleted).\n"
    renamed = run("history", "rename", "Ben", "Benjamin", "--db", str(x))
    assert renamed.exit_code == 0, renamed.output
    assert "  Waiting to go up: 1 play (0 deleted), 1 rename\n" in (
        run("club", "status", club, "--db", str(x)).output
    )
    assert ok(club, x) == (
        "Sent 1 play and 1 rename; took 0 plays (0 new, 0 changed, 0 deleted).\n"
    )
    # Table y recorded a game with Ben before it ever synced.
    _record(y, "Cho", "Ben", at="2026-02-02T20:00:00Z")
    assert "  Waiting to come down: 1 play, 1 rename\n" in (
        run("club", "status", club, "--db", str(y)).output
    )
    assert ok(club, y) == (
        "Sent 2 plays; took 1 play (1 new, 0 changed, 0 deleted); "
        "applied 1 rename from the club (1 game here renamed).\n"
    )
    assert _names(y) == [["Benjamin", "Aki"], ["Cho", "Benjamin"]]
    assert _people(y) == [
        {"name": "Aki", "games": 1, "aliases": []},
        {"name": "Benjamin", "games": 2, "aliases": ["Ben"]},
        {"name": "Cho", "games": 1, "aliases": []},
    ]
    assert ok(club, x) == "Sent 0 plays; took 1 play (1 new, 0 changed, 0 deleted).\n"
    assert _names(x) == _names(y)
    assert contents(x) == contents(y)
    assert stats(x) == stats(y)
    assert _people(x) == _people(y)
    assert ledger_rows(club, "SELECT old_name, new_name FROM renames") == [("Ben", "Benjamin")]
    for db in (x, y):
        assert ok(club, db) == NOTHING_NEW


def test_a_merge_reaches_a_game_recorded_elsewhere(club: str, tmp_path: Path) -> None:
    x, y = tmp_path / "x.sqlite3", tmp_path / "y.sqlite3"
    _record(x, "Hiro", "Aki", at="2026-02-01T20:00:00Z")
    _record(x, "Cho", "Aki", at="2026-02-01T21:00:00Z")
    merged = run("history", "rename", "Hiro", "Cho", "--yes", "--db", str(x))
    assert merged.exit_code == 0, merged.output
    assert ok(club, x) == "Sent 2 plays and 1 rename; took 0 plays (0 new, 0 changed, 0 deleted).\n"
    _record(y, "Hiro", "Ben", at="2026-02-02T20:00:00Z")
    _record(y, "Ben", "Cho", at="2026-02-02T21:00:00Z")
    assert ok(club, y) == (
        "Sent 3 plays; took 2 plays (2 new, 0 changed, 0 deleted); "
        "applied 1 rename from the club (1 game here renamed).\n"
    )
    assert _names(y) == [["Cho", "Aki"], ["Cho", "Aki"], ["Cho", "Ben"], ["Ben", "Cho"]]
    assert [p["name"] for p in _people(y)] == ["Aki", "Ben", "Cho"]
    assert ok(club, x) == "Sent 0 plays; took 2 plays (2 new, 0 changed, 0 deleted).\n"
    assert contents(x) == contents(y)
    assert stats(x) == stats(y)
    assert _people(x) == _people(y)
    assert _ratings(x) == _ratings(y)
    plays = {r["name"]: r["plays"] for r in _ratings(y)["ratings"]}
    assert plays == {"Aki": 2, "Ben": 2, "Cho": 4}
    for db in (x, y):
        assert ok(club, db) == NOTHING_NEW


def test_a_chain_of_renames_converges(club: str, tmp_path: Path) -> None:
    x, y, z = (tmp_path / f"{name}.sqlite3" for name in "xyz")
    _record(x, "Ben", "Aki", at="2026-02-01T20:00:00Z")
    for old, new in (("Ben", "Benjamin"), ("Benjamin", "Benji")):
        renamed = run("history", "rename", old, new, "--db", str(x))
        assert renamed.exit_code == 0, renamed.output
    ok(club, x)
    _record(y, "Ben", "Cho", at="2026-02-02T20:00:00Z")
    _record(z, "Benjamin", "Cho", at="2026-02-03T20:00:00Z")
    for db in (y, z, x, y):
        ok(club, db)
    expected = [["Benji", "Aki"], ["Benji", "Cho"], ["Benji", "Cho"]]
    assert _names(x) == _names(y) == _names(z) == expected
    assert contents(x) == contents(y) == contents(z)
    assert stats(x) == stats(y) == stats(z)
    for db in (x, y, z):
        assert ok(club, db) == NOTHING_NEW


def test_a_rename_that_cannot_be_made_here_is_told_and_the_rest_goes_on(
    club: str, tmp_path: Path
) -> None:
    x, y = tmp_path / "x.sqlite3", tmp_path / "y.sqlite3"
    _record(x, "Hiro", "Aki", at="2026-02-01T20:00:00Z")
    _record(x, "Cho", "Aki", at="2026-02-01T21:00:00Z")
    assert run("history", "rename", "Hiro", "Cho", "--yes", "--db", str(x)).exit_code == 0
    ok(club, x)
    # At table y, Hiro and Cho played one game together: they are two people there.
    _record(y, "Hiro", "Cho", at="2026-02-02T20:00:00Z")
    assert ok(club, y) == (
        "Sent 1 play; took 2 plays (2 new, 0 changed, 0 deleted); 1 rename from the club "
        "could not be made here (Hiro -> Cho: Hiro and Cho are both in game #1: they are two "
        "people; nothing was changed).\n"
    )
    assert ok(club, y) == NOTHING_NEW
    assert _names(y) == [["Cho", "Aki"], ["Cho", "Aki"], ["Hiro", "Cho"]]


def test_games_saved_in_the_same_second_at_two_tables_come_in_one_order(
    club: str, tmp_path: Path
) -> None:
    """Two tables each save a game in the same second: each numbers its own first, yet
    after the syncs both order them by uuid, so streaks, records and ratings agree."""
    second = "2026-03-07T21:00:00Z"
    games = {
        "a": ("f1d2c3b4-0000-4000-8000-00000000000a", ["Aki", "Ben"]),
        "b": ("01d2c3b4-0000-4000-8000-00000000000b", ["Ben", "Aki"]),
    }
    dbs = {}
    for name, (uuid, order) in games.items():
        seats = [(who, 60 - 9 * k, k + 1) for k, who in enumerate(order)]
        game = Play(0, uuid, second, "tokaido", None, result("tokaido", seats, [order[0]]))
        dbs[name] = tmp_path / f"{name}.sqlite3"
        with History(dbs[name]) as history:
            assert history.add([game], keep_ids=False) == (1, 0)
    for name in "aba":
        ok(club, dbs[name])
    numbers = [dict(sql(db, "SELECT uuid, id FROM plays")) for db in dbs.values()]
    assert numbers == [
        {games["a"][0]: 1, games["b"][0]: 2},
        {games["b"][0]: 1, games["a"][0]: 2},
    ]
    shown = {
        what: [run("history", what, "--json", "--db", str(db)) for db in dbs.values()]
        for what in ("stats", "records", "ratings")
    }
    for what, (here, there) in shown.items():
        assert here.exit_code == there.exit_code == 0, what
        seen = [
            _by_uuid(json.loads(r.stdout), n) for r, n in zip((here, there), numbers, strict=True)
        ]
        assert seen[0] == seen[1], what
    # Ben's win (the smaller uuid) comes first: Aki, who won the later one, is on a streak
    # and leads the ratings, at both tables.
    for db in dbs.values():
        players = json.loads(run("history", "stats", "--json", "--db", str(db)).stdout)["players"]
        assert {p["name"]: p["current_streak"] for p in players} == {"Aki": 1, "Ben": 0}
        rated = json.loads(run("history", "ratings", "--json", "--db", str(db)).stdout)
        assert [r["name"] for r in rated["ratings"]] == ["Aki", "Ben"]
        listed = json.loads(run("history", "list", "--json", "--db", str(db)).stdout)
        assert [p["winners"] for p in listed] == [["Ben"], ["Aki"]]  # oldest first


def _by_uuid(shown: Any, numbers: dict[str, int]) -> Any:
    """``shown`` with each record's play (a table's own number) given as its uuid."""
    uuids = {number: uuid for uuid, number in numbers.items()}
    if isinstance(shown, dict):
        return {
            k: uuids[v] if k == "play" and type(v) is int else _by_uuid(v, numbers)
            for k, v in shown.items()
        }
    if isinstance(shown, list):
        return [_by_uuid(v, numbers) for v in shown]
    return shown
