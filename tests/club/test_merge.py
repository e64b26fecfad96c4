"""Two tables' changes of one game: merged value by value, conflicts kept and settled.

Each test states the expected outcome first, then plays the club night in small.
"""

from __future__ import annotations

import copy
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from companion.club.ledger import connected
from companion.club.merge import describe, merge
from companion.history.store import History
from tests.support.club_tables import contents, run, sql, sync, table


def ok(url: str, db: Path) -> str:
    result = sync(url, db)
    assert result.exit_code == 0, result.output
    return result.output


def edit(db: Path, uuid: str, **changes: Any) -> None:
    """Change one play at a table, as ``history edit`` would (``total`` sets seat 0's)."""
    with History(db) as history:
        play = next(p for p in history.plays() if p.uuid == uuid)
        total = changes.pop("total", None)
        if total is not None:
            result = copy.deepcopy(play.result)
            result["players"][0]["total"] = total
            changes["result"] = result
        history.replace(replace(play, **changes))
    time.sleep(0.01)  # each edit at its own time


def ledger_rows(url: str, statement: str) -> list[tuple[object, ...]]:
    with connected(url) as ledger:
        rows = ledger.db.execute(statement.encode()).fetchall()
        ledger.db.rollback()
    return rows


def three(club: str, tmp_path: Path) -> tuple[Path, Path, Path]:
    a = table(tmp_path / "a.sqlite3", "a", 3)
    b, c = tmp_path / "b.sqlite3", tmp_path / "c.sqlite3"
    for db in (a, b, c):
        ok(club, db)
    return a, b, c


def test_merge_takes_each_side_and_reports_only_values_changed_apart() -> None:
    # Expected: a score changed on one side and notes on the other both survive;
    # the same value changed apart is one conflict, the newer side's value kept.
    cho = {"players": [{"name": "Cho", "total": 111}]}
    base: dict[str, Any] = {"notes": "", "duration_min": None, "result": cho}
    newer = {**base, "notes": "rain", "duration_min": 50}
    older = {**base, "result": {"players": [{"name": "Cho", "total": 115}]}}
    done = merge(base, newer, older)
    assert done.differs == []
    assert done.kept == {
        "notes": "rain",
        "duration_min": 50,
        "result": {"players": [{"name": "Cho", "total": 115}]},
    }
    both = merge(base, {**older, "result": {"players": [{"name": "Cho", "total": 112}]}}, older)
    assert [(d.path, d.base, d.kept, d.other) for d in both.differs] == [
        (("result", "players", 0, "total"), 111, 112, 115)
    ]
    assert both.other == older
    assert describe(("result", "players", 0, "total"), older) == "Cho's total"


def test_a_correction_here_and_a_note_there_both_survive(club: str, tmp_path: Path) -> None:
    # Expected: table a's score correction and table b's notes and length are
    # combined at every table; no conflict; table b is told nothing was lost.
    a, b, c = three(club, tmp_path)
    edit(a, "a-0", total=115)
    edit(b, "a-0", notes="long game", duration_min=95)
    ok(club, a)
    said = ok(club, b)
    assert "1 play changed here and at another table merged" in said
    ok(club, a)
    ok(club, c)
    for db in (a, b, c):
        play = contents(db)["a-0"]
        assert (play["result"]["players"][0]["total"], play["notes"], play["duration_min"]) == (
            115,
            "long game",
            95,
        )
    assert ledger_rows(club, "SELECT count(*) FROM conflicts") == [(0,)]


def test_an_older_deletion_does_not_beat_a_newer_correction(club: str, tmp_path: Path) -> None:
    # Expected: a deletes the game, later b corrects it: the game stays at every
    # table (the newer change), and the deletion is an open conflict both are told of.
    a, b, c = three(club, tmp_path)
    with History(a) as history:
        history.delete(next(p.id for p in history.plays() if p.uuid == "a-1"))
    time.sleep(0.01)
    edit(b, "a-1", total=42)
    ok(club, a)
    said_b = ok(club, b)
    assert "1 new conflict" in said_b
    assert "Conflict 1: " in said_b
    said_a = ok(club, a)
    assert "Conflict 1: " in said_a and "waits, not kept for now" in said_a
    ok(club, c)
    for db in (a, b, c):
        assert contents(db)["a-1"]["result"]["players"][0]["total"] == 42
    listed = run("club", "conflicts", club, "--db", str(c))
    assert listed.exit_code == 0, listed.output
    assert "deleted the game; table" in listed.output


def test_two_older_edits_do_not_beat_one_newer(club: str, tmp_path: Path) -> None:
    # Expected: a edits the score twice, then b edits it once, later: b's value is kept.
    a, b, _ = three(club, tmp_path)
    edit(a, "a-2", total=10)
    edit(a, "a-2", total=11)
    edit(b, "a-2", total=30)
    ok(club, a)
    ok(club, b)
    ok(club, a)
    assert contents(a)["a-2"]["result"]["players"][0]["total"] == 30
    assert contents(b)["a-2"]["result"]["players"][0]["total"] == 30


def test_the_same_value_changed_at_two_tables_is_listed_and_settled(
    club: str, tmp_path: Path
) -> None:
    # Expected: the newer value is kept for now; `club conflicts` names both
    # tables and both values; `club settle 1 --keep 2` gives every table version 2.
    a, b, c = three(club, tmp_path)
    assert run("club", "sync", club, "--db", str(a), "--name", "Aki's kitchen").exit_code == 0
    named = run("club", "name", "Back room", "--db", str(b))
    assert named.output == "This table is 'Back room' (the club sees it at the next sync).\n"
    ok(club, b)
    edit(a, "a-0", total=36)
    edit(b, "a-0", total=32)
    ok(club, a)
    ok(club, b)
    ok(club, a)
    status = run("club", "status", club, "--db", str(a)).output
    assert "  This table: 'Aki's kitchen'\n" in status
    assert "  Conflicts to settle: 1\n" in status
    listed = run("club", "conflicts", club, "--db", str(c))
    assert listed.exit_code == 0, listed.output
    lines = listed.output.splitlines()
    assert lines[0].startswith("Game #1 — 1. ")
    assert "1 = 'Back room' (kept for now), 2 = 'Aki's kitchen'" in lines[0]
    assert lines[1].startswith("    Table 'Back room' set ")
    assert "'s total to 32; table 'Aki's kitchen' set it to 36 (it was " in lines[1]
    settled = run("club", "settle", "1", "--keep", "2", club, "--db", str(c))
    assert settled.exit_code == 0, settled.output
    for db in (a, b, c):
        ok(club, db)
        assert contents(db)["a-0"]["result"]["players"][0]["total"] == 36
    assert run("club", "conflicts", club, "--db", str(a)).output == "No conflicts to settle.\n"
    again = run("club", "settle", "1", "--keep", "1", club, "--db", str(a))
    assert again.output == "Error: conflict 1 was settled already (version 2 kept)\n"


def test_a_copied_history_file_becomes_a_table_of_its_own(club: str, tmp_path: Path) -> None:
    # Expected: the copy's first sync after the original's notices it, gives it a
    # table id of its own, and a rename made at the original reaches the copy.
    a = table(tmp_path / "a.sqlite3", "a", 3)
    ok(club, a)
    b = tmp_path / "b.sqlite3"
    b.write_bytes(a.read_bytes())
    name = contents(a)["a-0"]["people"][0]["name"]
    renamed = run("history", "rename", name, "Zed Newname", "--db", str(a))
    assert renamed.exit_code == 0, renamed.output
    ok(club, a)
    status = run("club", "status", club, "--db", str(b)).output
    assert "This history is a copy of another table's" in status
    said = ok(club, b)
    assert said.startswith("This history is a copy of another table's: it is a table of its own")
    assert sql(a, "SELECT table_id FROM club_table") != sql(b, "SELECT table_id FROM club_table")
    assert contents(a) == contents(b)
    assert contents(b)["a-0"]["people"][0]["name"] == "Zed Newname"


def test_rows_a_table_cannot_take_are_set_aside_and_the_club_goes_on(
    club: str, tmp_path: Path
) -> None:
    # Expected: a change number of 9e18 written around the server's numbering, an
    # entry that is a JSON number, one with another play's uuid, a counter of
    # 2^63-1: every table still takes every later game, sends its own, and
    # `club status` names what was set aside.
    a = table(tmp_path / "a.sqlite3", "a", 2)
    ok(club, a)
    with connected(club) as ledger:
        db = ledger.db
        db.execute("SET session_replication_role = replica")  # around the server's triggers
        db.execute(
            "INSERT INTO plays (uuid, counter, changed_at, origin, seq, deleted, game, "
            "played_at, entry) SELECT 'far', 1, 'x', 'evil', 9000000000000000000, false, game, "
            "played_at, entry FROM plays WHERE uuid = 'a-0'"
        )
        db.execute("UPDATE plays SET counter = 9223372036854775807 WHERE uuid = 'a-1'")
        db.execute("SET session_replication_role = origin")
        db.execute(
            "INSERT INTO plays (uuid, counter, changed_at, origin, seq, deleted, game, "
            "played_at, entry) VALUES ('num', 1, 'x', 'evil', 0, false, 'shogun', 'x', '5')"
        )
        db.execute(
            "INSERT INTO plays (uuid, counter, changed_at, origin, seq, deleted, game, "
            "played_at, entry) SELECT 'clash', 1, 'x', 'evil', 0, false, game, played_at, "
            "entry FROM plays WHERE uuid = 'a-0'"
        )
        db.commit()
    b = tmp_path / "b.sqlite3"
    said = ok(club, b)
    assert "2 rows of the ledger set aside" in said
    assert set(contents(b)) == {"a-0", "a-1"}
    edit(a, "a-1", notes="still travels")
    c = table(tmp_path / "c.sqlite3", "c", 1)
    ok(club, a)
    ok(club, c)
    ok(club, b)
    assert contents(b)["a-1"]["notes"] == "still travels"
    assert "c-0" in contents(b)
    status = run("club", "status", club, "--db", str(b)).output
    assert "  Set aside: 2 rows of the ledger this table cannot take\n" in status
    assert "play num: its entry is a JSON number, not a play" in status
    assert "play clash: its entry carries another play's uuid" in status
    assert "1 row with a change number the server never gave" in status


def kamakura_table(path: Path) -> Path:
    """A history with one Kamakura game whose first tour Aki claimed."""
    from companion.history.model import Play
    from companion.history.rescoring import rescore

    text, result = rescore("kamakura", Path("examples/kamakura.json").read_text())
    play = Play(0, "k-0", "2026-03-01T18:00:00Z", "kamakura", text, result)
    with History(path) as history:
        history.add([play], keep_ids=False)
    return path


def test_a_tours_claimer_is_renamed_here_and_from_the_club(club: str, tmp_path: Path) -> None:
    # Expected: `history rename Aki Akiko` renames the claimer too; the rename
    # travels, and every table ends with Akiko as claimer, Aki as her alias, and
    # the same BG Stats player uuid for her.
    a = kamakura_table(tmp_path / "a.sqlite3")
    b = tmp_path / "b.sqlite3"
    ok(club, a)
    ok(club, b)
    renamed = run("history", "rename", "Aki", "Akiko", "--db", str(a))
    assert renamed.exit_code == 0, renamed.output
    assert contents(a)["k-0"]["score_file"]["tours"][0]["claimed_by"] == "Akiko"
    ok(club, a)
    said = ok(club, b)
    assert "could not be made" not in said
    assert contents(a) == contents(b)
    uuids_a = sql(a, "SELECT name_key, uuid FROM player_uuids ORDER BY name_key")
    uuids_b = sql(b, "SELECT name_key, uuid FROM player_uuids ORDER BY name_key")
    assert uuids_a == uuids_b
    assert [k for k, _ in uuids_b] == ["aki", "akiko"]
    assert len({u for _, u in uuids_b}) == 1


def test_a_rename_at_one_table_and_an_edit_at_another_are_no_conflict(
    club: str, tmp_path: Path
) -> None:
    # Expected: a renames a person, b edits the notes of one of their games: both
    # changes reach every table, and no conflict is kept.
    a, b, _ = three(club, tmp_path)
    uuid, seat = next(
        (u, k)
        for u, p in contents(a).items()
        for k, person in enumerate(p["people"])
        if not person["anonymous"]
    )
    name = contents(a)[uuid]["people"][seat]["name"]
    assert run("history", "rename", name, "Renamed One", "--db", str(a)).exit_code == 0
    edit(b, uuid, notes="after the rename")
    ok(club, a)
    said = ok(club, b)
    assert "conflict" not in said
    ok(club, a)
    for db in (a, b):
        play = contents(db)[uuid]
        assert (play["people"][seat]["name"], play["notes"]) == ("Renamed One", "after the rename")
    assert ledger_rows(club, "SELECT count(*) FROM conflicts") == [(0,)]


def test_history_show_takes_a_games_uuid_as_conflicts_name_it(tmp_path: Path) -> None:
    # Expected: `history show A-1` shows the same as the game's number; an unknown
    # uuid is one line.
    a = table(tmp_path / "a.sqlite3", "a", 3)
    [(number,)] = sql(a, "SELECT id FROM plays WHERE uuid = 'a-1'")
    by_number = run("history", "show", str(number), "--db", str(a))
    by_uuid = run("history", "show", "A-1", "--db", str(a))
    assert by_uuid.exit_code == 0, by_uuid.output
    assert by_uuid.output == by_number.output
    missing = run("history", "show", "no-such-game", "--db", str(a))
    assert (missing.exit_code, missing.output) == (
        1,
        "Error: no game with the uuid no-such-game in this history\n",
    )


def test_a_reader_with_rights_on_the_tables_only_takes_every_play(
    club: str, tmp_path: Path, server: Any, monkeypatch: Any
) -> None:
    # Expected: a role granted SELECT on the tables alone (as docs/club.md shows)
    # still takes the club's plays: the server's last change number is readable.
    a = table(tmp_path / "a.sqlite3", "a", 2)
    ok(club, a)
    database = club.rsplit("/", 1)[1]
    server.admin("CREATE ROLE only_tables LOGIN PASSWORD 'reader-pass'")
    server.admin("GRANT SELECT ON ALL TABLES IN SCHEMA public TO only_tables", database)
    monkeypatch.setenv("PGPASSWORD", "reader-pass")
    b = tmp_path / "b.sqlite3"
    said = ok(f"postgresql://only_tables@127.0.0.1:{server.port}/{database}", b)
    assert said.startswith("Took 2 plays from the club's ledger;")
    assert set(contents(b)) == {"a-0", "a-1"}


def test_a_score_file_scored_by_the_same_scorer_is_not_scored_again(
    club: str, tmp_path: Path, monkeypatch: Any
) -> None:
    # Expected: a play coming down that the ledger holds as scored by this very
    # scorer, for this very score file and result, is not re-scored; one stamped by
    # an older scorer is re-scored (and taken); a score file or a result changed in
    # the ledger under the old stamp is re-scored, caught and set aside.
    from companion.history.formats import ours

    calls: list[str] = []
    rescored = ours._rescored

    def counted(*args: Any) -> Any:
        calls.append(args[3])
        return rescored(*args)

    monkeypatch.setattr(ours, "_rescored", counted)
    a = kamakura_table(tmp_path / "a.sqlite3")
    ok(club, a)
    b = tmp_path / "b.sqlite3"
    calls.clear()
    assert ok(club, b) == "Sent 0 plays; took 1 play (1 new, 0 changed, 0 deleted).\n"
    assert calls == []
    assert contents(b) == contents(a)
    ((stamp, original),) = ledger_rows(club, "SELECT scored, entry::text FROM plays")
    assert str(stamp).count(".") == 1
    with connected(club) as ledger:
        ledger.db.execute(
            "UPDATE plays SET scored = 'an older scorer.' || split_part(scored, '.', 2)"
        )
        ledger.db.commit()
    c = tmp_path / "c.sqlite3"
    assert ok(club, c) == "Sent 0 plays; took 1 play (1 new, 0 changed, 0 deleted).\n"
    assert calls == ["kamakura"]
    assert contents(c) == contents(a)
    for k, tamper in enumerate(
        (
            "jsonb_set(entry, '{score_file}', "
            "to_jsonb(replace(entry->>'score_file', '\"track\": 3', '\"track\": 9')))",
            "jsonb_set(entry, '{result,players,0,total}', '99')",
        )
    ):
        calls.clear()
        with connected(club) as ledger:  # the play's own stamp, on a changed entry
            ledger.db.execute(
                f"UPDATE plays SET entry = {tamper.replace('entry', '%s::jsonb', 1)}, scored = %s",
                (original, stamp),
            )
            ledger.db.commit()
        d = tmp_path / f"d{k}.sqlite3"
        said = ok(club, d)
        assert calls == ["kamakura"]
        assert said == (
            "Sent 0 plays; took 0 plays (0 new, 0 changed, 0 deleted); 1 row of the ledger "
            "set aside (k-0: k-0.score_file: re-scored, it does not give the stored "
            "result: companion club status).\n"
        )
        assert contents(d) == {}
    with connected(club) as ledger:  # the entry as it was, under its stamp: not scored again
        ledger.db.execute("UPDATE plays SET entry = %s::jsonb, scored = %s", (original, stamp))
        ledger.db.commit()
    calls.clear()
    e = tmp_path / "e.sqlite3"
    assert ok(club, e) == "Sent 0 plays; took 1 play (1 new, 0 changed, 0 deleted).\n"
    assert calls == []
    assert contents(e) == contents(a)


def test_oversized_rows_are_set_aside_and_never_taken_whole(club: str, tmp_path: Path) -> None:
    # Expected: three rows of 3 MB written straight into the ledger are set aside,
    # each named with its size; the club's real plays still come down.
    a = table(tmp_path / "a.sqlite3", "a", 2)
    ok(club, a)
    with connected(club) as ledger:
        ledger.db.execute(
            "INSERT INTO plays (uuid, counter, changed_at, origin, seq, deleted, game, "
            "played_at, entry) SELECT 'big-' || k, 1, 'x', 'evil', 0, false, 'shogun', 'x', "
            "jsonb_build_object('uuid', 'big-' || k, 'notes', repeat('x', 3000000)) "
            "FROM generate_series(1, 3) AS k"
        )
        ledger.db.commit()
    b = tmp_path / "b.sqlite3"
    said = ok(club, b)
    assert "3 rows of the ledger set aside (big-1: its entry is 3,000," in said
    assert set(contents(b)) == {"a-0", "a-1"}
    edit(a, "a-0", notes="after the big rows")
    ok(club, a)
    ok(club, b)
    assert contents(b)["a-0"]["notes"] == "after the big rows"


def test_a_conflict_over_two_values_is_settled_by_combining_them(club: str, tmp_path: Path) -> None:
    # Expected: notes and length changed differently at a and b; `--keep 21` takes
    # the notes from version 2 and the length from version 1, at every table.
    a, b, _ = three(club, tmp_path)
    edit(a, "a-2", notes="from a", duration_min=40)
    edit(b, "a-2", notes="from b", duration_min=50)
    ok(club, a)
    ok(club, b)
    listed = run("club", "conflicts", club, "--db", str(a)).output.splitlines()
    assert listed[1].startswith("    Table table ") and 'set the notes to "from b"' in listed[1]
    assert "set the length to 50" in listed[2]
    wrong = run("club", "settle", "1", "--keep", "212", club, "--db", str(a))
    assert wrong.output == (
        "Error: --keep takes 1, 2 or, to combine, one digit 1 or 2 for each of the 2 values "
        "that differ in conflict 1 (such as 21)\n"
    )
    said = run("club", "settle", "1", "--keep", "21", club, "--db", str(a))
    assert said.exit_code == 0, said.output
    assert "versions combined (21)" in said.output
    for db in (a, b):
        ok(club, db)
        play = contents(db)["a-2"]
        assert (play["notes"], play["duration_min"]) == ("from a", 50)
