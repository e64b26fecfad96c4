"""Each play's version (migration 8), kept by triggers whoever changes the play."""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from pathlib import Path

from companion.history.people import plan_rename, rename_person
from companion.history.store import History
from companion.history.sync_local import (
    Incoming,
    Renamed,
    outgoing,
    outgoing_renames,
    renames,
    renames_sent,
    take,
    waiting,
)
from tests.history.test_history import undo_migration_12
from tests.support.club_tables import sql, table


def versions(db: Path) -> list[tuple[object, ...]]:
    return sql(db, "SELECT uuid, counter, base, dirty, deleted FROM play_versions ORDER BY uuid")


def test_a_new_play_waits_to_go_up_with_counter_1(tmp_path: Path) -> None:
    db = table(tmp_path / "h.sqlite3", "p", 2)
    assert versions(db) == [("p-0", 1, None, 1, 0), ("p-1", 1, None, 1, 0)]
    with History(db) as history:
        assert waiting(history) == (2, 0)
        out = outgoing(history)
    assert [o.version.uuid for o in out] == ["p-0", "p-1"]
    assert out[0].entry is not None and "id" not in out[0].entry
    assert out[0].entry["uuid"] == "p-0"


def test_an_edit_a_deletion_and_a_direct_update_each_count(tmp_path: Path) -> None:
    db = table(tmp_path / "h.sqlite3", "p", 3)
    with History(db) as history:
        take(history, [], ledger="L", shown="x", pushed=[("p-0", 1, 1, None), ("p-1", 1, 1, None)])
        assert versions(db)[:2] == [("p-0", 1, 1, 0, 0), ("p-1", 1, 1, 0, 0)]
        plays = {p.uuid: p for p in history.plays()}
        history.replace(replace(plays["p-0"], notes="edited"))
        history.delete(plays["p-1"].id)
    [edited, deleted, _] = versions(db)
    assert edited[0] == "p-0" and edited[1] > 1 and edited[2:] == (1, 1, 0)
    assert deleted[0] == "p-1" and deleted[1] > 1 and deleted[2:] == (1, 1, 1)
    with History(db) as history:
        out = {o.version.uuid: o for o in outgoing(history)}
        assert out["p-1"].entry is None and out["p-1"].version.deleted
        assert out["p-0"].entry is not None and out["p-0"].entry["notes"] == "edited"
    sql(db, "UPDATE plays SET notes = 'again' WHERE uuid = 'p-2'")
    assert versions(db)[2][1] == 2


def test_a_rename_in_place_counts_for_every_play_and_is_noted(tmp_path: Path) -> None:
    db = table(tmp_path / "h.sqlite3", "p", 10)
    with History(db) as history:
        take(history, [], ledger="L", shown="x", pushed=[(f"p-{k}", 1, 1, None) for k in range(10)])
    touched = {
        row[0]
        for row in sql(
            db,
            "SELECT p.uuid FROM plays p JOIN play_people pp "
            "ON pp.play_id = p.id WHERE pp.name_key = 'cho'",
        )
    }
    sql(db, "UPDATE play_people SET name = 'Chiyo', name_key = 'chiyo' WHERE name_key = 'cho'")
    assert {row[0] for row in versions(db) if row[3]} == touched
    with History(db) as history:
        assert [r[:2] for r in renames(history)] == [("cho", "Chiyo")]


def test_a_rename_made_here_is_noted_to_go_up_once(tmp_path: Path) -> None:
    db = table(tmp_path / "h.sqlite3", "p", 10)
    with History(db) as history:
        rename_person(history, plan_rename(history, "Cho", "Chiyo"))
        [noted] = outgoing_renames(history)
        assert (noted.old, noted.new) == ("Cho", "Chiyo")
        renames_sent(history, [noted.id])
        assert outgoing_renames(history) == []


def _cho_names(history: History) -> dict[str, list[str]]:
    """The uuid of every play Cho or Chiyo is in: the names of its people."""
    return {
        p.uuid: [q.name for q in p.persons]
        for p in history.plays()
        if {"Cho", "Chiyo"} & {q.name for q in p.persons}
    }


def test_a_rename_from_the_ledger_applies_in_its_place_among_the_plays(tmp_path: Path) -> None:
    db = table(tmp_path / "h.sqlite3", "p", 10)
    rename = Renamed("r-1", "cho", "Chiyo", "2026-01-01T00:00:00Z")
    with History(db) as history:
        before = _cho_names(history)
        assert len(before) > 1
        first = sorted(before)[0]
        entry = next(o.entry for o in outgoing(history, limit=100) if o.version.uuid == first)
        take(history, [], ledger="L", shown="x", pushed=[(f"p-{k}", 1, 1, None) for k in range(10)])
        came = Incoming(first, 5, "2026-01-02T00:00:00.000Z", False, {**entry, "notes": "y"})
        done = take(history, [came, rename], ledger="L", shown="x", last_seq=12)
        assert (done.renamed, done.renamed_games, done.changed, done.not_renamed) == (
            1,
            len(before),
            1,
            [],
        )
        after = _cho_names(history)
        # The play that came before the rename took the ledger's version, then the rename.
        assert set(after) == set(before)
        assert all("Cho" not in names and "Chiyo" in names for names in after.values())
        assert {p.uuid: p.notes for p in history.plays()}[first] == "y"
        # Taken from the ledger, the rename is not noted to go up again; its games are.
        assert outgoing_renames(history) == []
        assert waiting(history) == (len(before), 0)
        # Taken again, it finds nobody of the old name and changes nothing.
        again = take(history, [rename], ledger="L", shown="x", last_seq=13)
        assert (again.renamed, again.renamed_games, again.total) == (0, 0, 0)
        # A version under the old name that comes after the rename (written by a
        # table that had not taken it yet) does not undo it here: the renamed play
        # waits to go up, and the ledger decides.
        later = take(history, [came], ledger="L", shown="x", last_seq=14)
        assert later.total == 0
        assert "Chiyo" in _cho_names(history)[first]


def test_a_play_changed_here_is_not_overwritten_by_the_ledger(tmp_path: Path) -> None:
    db = table(tmp_path / "h.sqlite3", "p", 1)
    with History(db) as history:
        entry = outgoing(history)[0].entry
        assert entry is not None
        done = take(
            history,
            [Incoming("p-0", 5, "2026-01-01T00:00:00.000Z", False, {**entry, "notes": "x"})],
            ledger="L",
            shown="x",
            last_seq=9,
        )
        assert done.total == 0
        assert history.plays()[0].notes == entry["notes"]
        done = take(
            history,
            [Incoming("p-0", 5, "2026-01-01T00:00:00.000Z", False, {**entry, "notes": "x"})],
            ledger="L",
            shown="x",
            sent={"p-0": 1},
        )
        assert (done.changed, history.plays()[0].notes) == (1, "x")
    assert versions(db) == [("p-0", 5, 5, 0, 0)]


def test_migrating_an_older_history_gives_its_plays_versions(tmp_path: Path) -> None:
    db = table(tmp_path / "h.sqlite3", "p", 2)
    sql(db, "DELETE FROM play_versions")
    assert versions(db) == []
    with History(db) as history:
        # The migration's own statement, run again on a history without versions.
        from companion.history.schema import MIGRATIONS

        statement = next(s for s in MIGRATIONS[7][2] if s.startswith("INSERT OR IGNORE"))
        with history.transaction() as connection:
            connection.execute(statement)
    assert [v[:4] for v in versions(db)] == [("p-0", 1, None, 1), ("p-1", 1, None, 1)]


def test_migrating_notes_the_renames_made_in_place_before_to_go_up(tmp_path: Path) -> None:
    db = table(tmp_path / "h.sqlite3", "p", 2)
    # The history as migration 8 left it, with one rename made in place.
    with sqlite3.connect(db) as connection:
        undo_migration_12(connection)
    sql(db, "ALTER TABLE player_uuids DROP COLUMN name")  # migration 10's
    sql(db, "DROP TABLE rename_log")
    sql(db, "DELETE FROM schema_migrations WHERE version >= 9")
    sql(db, "INSERT INTO person_renames VALUES ('ben', 'Benjamin', '2026-01-01T00:00:00.000Z')")
    sql(db, "PRAGMA user_version = 8")
    with History(db) as history:
        noted = outgoing_renames(history)
    assert [(r.old, r.new, r.at) for r in noted] == [
        ("ben", "Benjamin", "2026-01-01T00:00:00.000Z")
    ]
    assert len(noted[0].id) == 36


def test_a_game_saved_on_the_page_travels_without_its_draft(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from companion.cli.app import app
    from companion.widgets.drafts import Drafts
    from scorers import SCORERS

    here, there = tmp_path / "here.sqlite3", tmp_path / "there.sqlite3"
    page_game = {
        "game": "shibuya",
        "variant": "standard",
        "players": [{"name": "Aki", "goals": 6}, {"name": "Ben", "goals": 2}],
    }
    result = SCORERS["shibuya"].score_json(page_game).to_json()
    Drafts("shibuya", here).finish(None, page_game, result)
    with History(here) as history:
        [going] = outgoing(history)
    assert going.entry is not None and going.entry["events"] == []
    # A ledger that an earlier companion filled carried the page's draft as answers.
    entry = {**going.entry, "events": [{"at": "2026-12-01T20:00:00Z", "key": "draft", "value": {}}]}
    came = Incoming(going.version.uuid, 1, "2026-12-01T20:00:00.000Z", False, entry)
    with History(there) as history:
        done = take(history, [came], ledger="L", shown="x", last_seq=1)
        assert done.added == 1
    checked = CliRunner().invoke(app, ["history", "check", "--db", str(there)])
    assert checked.exit_code == 0, checked.output  # no draft taken for answers to replay
