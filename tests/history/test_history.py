"""The SQLite history store."""

from __future__ import annotations

import json
import random
import sqlite3
import subprocess
import sys
import time
from contextlib import closing
from dataclasses import replace
from pathlib import Path

import pytest

from companion.history.errors import (
    DamagedDatabase,
    HistoryError,
    NotACompanionDatabase,
    PlayNotFound,
)
from companion.history.history_file import APPLICATION_ID
from companion.history.model import new_play
from companion.history.schema import COUNTED, SCHEMA_VERSION
from companion.history.stat_queries import seat_rows
from companion.history.store import History, default_path

FILES = Path(__file__).parents[1] / "files"
RESULT = {
    "game": "shibuya",
    "players": [
        {"name": "Red", "total": 6, "rank": 1, "breakdown": {"goals": 6}},
        {"name": "Blue", "total": 2, "rank": 2, "breakdown": {"goals": 2}},
    ],
    "winners": ["Red"],
    "tiebreak": None,
}
SCORE_FILE = '{"players": [{"name": "Red", "goals": 6}, {"name": "Blue", "goals": 2}]}'


def save(history: History, played_at: str = "2026-11-30T20:15:00Z") -> int:
    return history.record(game="shibuya", score_file=SCORE_FILE, result=RESULT, played_at=played_at)


def test_record_and_read_back(db_path: Path) -> None:
    with History(db_path) as history:
        first = save(history)
        second = save(history, "2026-12-01T19:00:00Z")
        assert (first, second) == (1, 2)
        play = history.get(2)
    assert play.played_at == "2026-12-01T19:00:00Z"
    assert play.game == "shibuya"
    assert play.score_file == SCORE_FILE
    assert play.result == RESULT
    assert play.players == ["Red", "Blue"]
    assert play.to_json()["score_file"] == json.loads(SCORE_FILE)
    assert play.summary() == {
        "id": 2,
        "played_at": "2026-12-01T19:00:00Z",
        "game": "shibuya",
        "ignored": False,
        "players": [
            {"name": "Red", "total": 6, "rank": 1, "members": ["Red"]},
            {"name": "Blue", "total": 2, "rank": 2, "members": ["Blue"]},
        ],
        "people": [
            {"name": "Red", "side": 0, "anonymous": False},
            {"name": "Blue", "side": 1, "anonymous": False},
        ],
        "winners": ["Red"],
    }
    assert not play.uses_teams
    with History(db_path) as history:
        assert [p.id for p in history.plays()] == [1, 2]


def test_players_are_stored_in_seat_order(db_path: Path) -> None:
    with History(db_path) as history:
        save(history)
    with sqlite3.connect(db_path) as db:
        rows = db.execute(
            "SELECT seat, name, total, rank, winner FROM play_players ORDER BY seat"
        ).fetchall()
    assert rows == [(0, "Red", 6, 1, 1), (1, "Blue", 2, 2, 0)]


def test_new_database_is_versioned_and_in_wal_mode(db_path: Path) -> None:
    History(db_path).close()
    with sqlite3.connect(db_path) as db:
        assert db.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        versions = db.execute("SELECT version, name FROM schema_migrations").fetchall()
    assert versions[:4] == [
        (1, "plays and their players"),
        (2, "uuids, location, notes, duration, start player, imported plays"),
        (3, "games in progress and their event logs"),
        (4, "one number per game, interim plays, the terminal that holds a game"),
    ]
    assert versions[4:] == [
        (5, "people and sides, start person, not-scored seats, ignored plays, expansions"),
        (6, "what the statistics read, kept with each play; the uuids other apps know people by"),
        (7, "ratings kept between calls, a count of the changes to the plays, two indexes"),
        (8, "each play's version, tombstones and renames for syncing with a club's ledger"),
        (9, "renames noted to travel to a club's ledger"),
        (10, "team members' names by the name rule; a renamed name's spelling"),
        (11, "what other apps wrote that we do not use, kept for the round trip"),
        (12, "bases for merging a club's edits, the table's name, rows set aside"),
        (13, "play order by time, then uuid"),
    ]
    assert versions[-1][0] == SCHEMA_VERSION


def test_missing_folders_are_created(tmp_path: Path) -> None:
    path = tmp_path / "a" / "b" / "history.sqlite3"
    History(path).close()
    assert path.exists()


def test_empty_file_becomes_a_new_history(db_path: Path) -> None:
    db_path.touch()
    with History(db_path) as history:
        assert save(history) == 1


def test_unknown_id(db_path: Path) -> None:
    with History(db_path) as history, pytest.raises(PlayNotFound, match="no game #3"):
        history.get(3)


def test_default_path_follows_the_environment(
    db_path: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    assert default_path() == db_path
    monkeypatch.delenv("COMPANION_DB")
    assert default_path() == tmp_path / "home" / "data" / "companion" / "history.sqlite3"


def test_not_sqlite_is_refused_and_untouched(db_path: Path) -> None:
    db_path.write_text("name,score\nAki,80\n")
    before = db_path.read_bytes()
    with pytest.raises(NotACompanionDatabase, match="not an SQLite database"):
        History(db_path)
    assert db_path.read_bytes() == before


def test_another_programs_database_is_refused_and_untouched(db_path: Path) -> None:
    with sqlite3.connect(db_path) as db:
        db.execute("CREATE TABLE recipes (name TEXT)")
        db.execute("INSERT INTO recipes VALUES ('miso soup')")
    db.close()
    before = db_path.read_bytes()
    with pytest.raises(NotACompanionDatabase, match="another program"):
        History(db_path)
    assert db_path.read_bytes() == before
    assert not Path(f"{db_path}-wal").exists() or Path(f"{db_path}-wal").stat().st_size == 0


def make_damaged(db_path: Path) -> bytes:
    """A real companion history with one of its data pages overwritten."""
    with History(db_path) as history:
        for _ in range(200):
            save(history)
    with sqlite3.connect(db_path) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        page_size = db.execute("PRAGMA page_size").fetchone()[0]
    db.close()
    data = bytearray(db_path.read_bytes())
    assert len(data) > 4 * page_size
    data[2 * page_size : 4 * page_size] = b"\xff" * (2 * page_size)
    db_path.write_bytes(bytes(data))
    return bytes(data)


def test_damaged_database_is_reported_and_never_written(db_path: Path) -> None:
    before = make_damaged(db_path)
    with pytest.raises(DamagedDatabase, match="nothing was changed"), History(db_path) as history:
        history.plays()
    with pytest.raises(DamagedDatabase), History(db_path) as history:
        save(history)
    assert db_path.read_bytes() == before


def test_damaged_header_is_reported(db_path: Path) -> None:
    with History(db_path) as history:
        save(history)
    data = bytearray(db_path.read_bytes())
    data[16:100] = b"\x00" * 84
    db_path.write_bytes(bytes(data))
    with pytest.raises(HistoryError):
        History(db_path).plays()
    assert db_path.read_bytes() == bytes(data)


def test_newer_schema_is_refused(db_path: Path) -> None:
    History(db_path).close()
    with sqlite3.connect(db_path) as db:
        db.execute("PRAGMA user_version = 99")
    db.close()
    with pytest.raises(HistoryError, match="newer companion"):
        History(db_path)


def test_a_folder_is_not_a_history(tmp_path: Path) -> None:
    with pytest.raises(HistoryError, match="is a folder"):
        History(tmp_path)


WRITER = """
import sys, time
from pathlib import Path
from companion.history.store import History
path, start, count = Path(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3])
while time.time() < start:
    time.sleep(0.001)
for k in range(count):
    with History(path) as history:
        history.record(game="shibuya", score_file="{}", result={
            "game": "shibuya", "winners": ["Red"], "tiebreak": None,
            "players": [{"name": "Red", "total": 6, "rank": 1, "breakdown": {"goals": 6}},
                        {"name": "Blue", "total": k, "rank": 2, "breakdown": {"goals": k}}]})
"""


@pytest.mark.slow
@pytest.mark.parametrize("processes", [2, 8])
def test_processes_saving_at_the_same_moment_keep_every_record(
    db_path: Path, processes: int
) -> None:
    """Several processes create the same new file and save into it at once."""
    start = time.time() + 1.5
    count = 15
    workers = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, str(db_path), str(start), str(count)],
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(processes)
    ]
    errors = [w.communicate(timeout=90)[1] for w in workers]
    assert [w.returncode for w in workers] == [0] * processes, errors
    with History(db_path) as history:
        plays = history.plays()
    assert len(plays) == processes * count
    assert sorted(p.id for p in plays) == list(range(1, processes * count + 1))


def test_an_older_history_is_backed_up_then_migrated(tmp_path: Path) -> None:
    """history-v1.sqlite3 was written by the first companion (schema 1)."""
    import shutil

    path = tmp_path / "old.sqlite3"
    shutil.copy(FILES / "history-v1.sqlite3", path)
    with History(path) as history:
        assert history.backup_path == tmp_path / "old.sqlite3.v1-backup"
        plays = history.plays()
    assert [(p.id, p.game, p.players) for p in plays] == [
        (1, "tokaido", ["Aki", "Ben", "Cho"]),
        (2, "shibuya", ["Red", "Blue"]),
    ]
    assert all(len(p.uuid) == 36 and p.uuid[14] == "4" for p in plays)
    assert len({p.uuid for p in plays}) == 2
    assert plays[0].score_file == (FILES / "tokaido-final.json").read_text()
    assert (plays[0].location, plays[0].notes, plays[0].duration_min) == ("", "", None)
    with sqlite3.connect(tmp_path / "old.sqlite3.v1-backup") as backup:
        assert backup.execute("PRAGMA user_version").fetchone()[0] == 1
        assert backup.execute("SELECT id, game FROM plays ORDER BY id").fetchall() == [
            (1, "tokaido"),
            (2, "shibuya"),
        ]
    backup.close()
    with History(path) as history:
        assert history.backup_path is None
        assert [p.uuid for p in history.plays()] == [p.uuid for p in plays]


def test_edit_replace_and_delete(db_path: Path) -> None:
    from dataclasses import replace

    with History(db_path) as history:
        first = save(history)
        second = save(history)
        play = history.get(first)
        history.replace(replace(play, location="Cafe", notes="rainy", start_player=1))
        assert history.get(first).location == "Cafe"
        assert history.get(first).start_player == 1
        assert history.get(first).uuid == play.uuid
        history.delete(second)
        assert [p.id for p in history.plays()] == [first]
        with pytest.raises(PlayNotFound):
            history.delete(second)


TEAMS_FILE = (FILES / "shibuya-teams.json").read_text()


def teams_result() -> dict[str, object]:
    from scorers import SCORERS

    return SCORERS["shibuya"].score_json(json.loads(TEAMS_FILE)).to_json()


def test_a_team_game_stores_its_people_in_seat_order(db_path: Path) -> None:
    """Red is Aki and Ben, Blue is Cho and Dai: partners sit opposite."""
    with History(db_path) as history:
        play_id = history.record(
            game="shibuya", score_file=TEAMS_FILE, result=teams_result(), start_player=2
        )
        play = history.get(play_id)
        summary = history.summaries()[0]
    assert play.players == ["Red", "Blue"]
    assert [(p.name, p.side) for p in play.persons] == [
        ("Aki", 0),
        ("Cho", 1),
        ("Ben", 0),
        ("Dai", 1),
    ]
    assert play.uses_teams
    assert play.starter is not None and play.starter.name == "Ben"
    assert [p.name for p in play.persons if play.won(p)] == ["Aki", "Ben"]
    assert [p.name for p in play.members(1)] == ["Cho", "Dai"]
    assert summary["players"][0]["members"] == ["Aki", "Ben"]
    assert play.summary() == summary


def test_filter_by_person_ignores_case(db_path: Path) -> None:
    from companion.history.model import Filter

    with History(db_path) as history:
        history.record(game="shibuya", score_file=TEAMS_FILE, result=teams_result())
        save(history)
        assert [p.id for p in history.plays(Filter(player="ben"))] == [1]
        assert [p.id for p in history.plays(Filter(player="RED"))] == [2]
        assert history.summaries(Filter(player="  DAI ")) == [history.get(1).summary()]


def test_uuids_compare_without_case(db_path: Path) -> None:
    from dataclasses import replace

    with History(db_path) as history:
        save(history)
        play = history.get(1)
        copy = replace(play, id=0, uuid=play.uuid.upper())
        assert history.add([copy]) == (0, 1)


def _version_3_history(path: Path) -> None:
    """A history as companion wrote it before migration 5 (schema 3)."""
    from companion.history.schema import MIGRATIONS

    db = sqlite3.connect(path, isolation_level=None)
    db.execute(
        "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, "
        "applied_at TEXT NOT NULL)"
    )
    for number, name, statements in MIGRATIONS:
        if number > 3:
            continue
        for statement in statements:
            db.execute(statement)
        db.execute(
            "INSERT INTO schema_migrations VALUES (?, ?, '2026-01-01T00:00:00Z')", (number, name)
        )
    db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    db.execute("PRAGMA user_version = 3")
    rows = [
        # A 4-player game saved with its score file; the flow's start player 1 is Cho.
        (1, "shibuya", TEAMS_FILE, teams_result(), "companion", 1),
        # Red and Blue imported from an earlier BG Stats export: members unknown.
        (2, "shibuya", None, RESULT, "bgstats", 0),
        (3, "shibuya", SCORE_FILE, RESULT, "companion", None),
        (
            4,
            "tokaido",
            None,
            {
                "game": "tokaido",
                "players": [
                    {"name": "Aki", "total": 50, "rank": 2, "breakdown": {"journey": 50}},
                    {"name": "Émi", "total": 60, "rank": 1, "breakdown": {"journey": 60}},
                ],
                "winners": ["Émi"],
                "tiebreak": None,
            },
            "companion",
            1,
        ),
    ]
    for play_id, game, score_file, result, source, start in rows:
        db.execute(
            "INSERT INTO plays (id, uuid, played_at, game, score_file, result, source) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                play_id,
                f"uuid-{play_id}",
                f"2026-01-0{play_id}T20:00:00Z",
                game,
                score_file,
                json.dumps(result),
                source,
            ),
        )
        for seat, side in enumerate(result["players"]):  # type: ignore[index]
            db.execute(
                "INSERT INTO play_players VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    play_id,
                    seat,
                    side["name"],
                    side["total"],
                    side["rank"],
                    side["name"] in result["winners"],
                    seat == start,
                ),  # type: ignore[index]
            )
    db.close()


def test_migration_5_turns_teams_into_people(tmp_path: Path) -> None:
    path = tmp_path / "v3.sqlite3"
    _version_3_history(path)
    with History(path) as history:
        assert history.backup_path == tmp_path / "v3.sqlite3.v3-backup"
        team, unknown, two, tokaido = history.plays()
        rows = seat_rows(history)
    assert [(p.name, p.side) for p in team.persons] == [
        ("Aki", 0),
        ("Cho", 1),
        ("Ben", 0),
        ("Dai", 1),
    ]
    assert team.starter is not None and team.starter.name == "Cho"
    assert unknown.uses_teams and unknown.persons == () and unknown.start_player == 0
    assert [(p.name, p.side) for p in two.persons] == [("Red", 0), ("Blue", 1)]
    assert not two.uses_teams
    assert tokaido.starter is not None and tokaido.starter.name == "Émi"
    assert (tokaido.ignored, tokaido.expansions) == (False, ())
    keys = [row[7] for row in rows if row[0] == 4]
    assert keys == ["aki", "émi"]
    # The side whose members are unknown is a row without a person.
    assert [row[7:] for row in rows if row[0] == 2] == [(None, None, 0), (None, None, 0)]


def test_migration_10_stores_members_kept_as_typed_by_the_name_rule(tmp_path: Path) -> None:
    path = tmp_path / "v9.sqlite3"
    with History(path) as history:
        play_id = history.record(game="shibuya", score_file=TEAMS_FILE, result=teams_result())
    # As an older companion stored the members: as typed.
    db = sqlite3.connect(path, isolation_level=None)
    for typed, name in (("Aki\r", "Aki"), ("\n\nWinner:\tBlue", "Cho"), ("Dai\u3164", "Dai")):
        db.execute("UPDATE play_people SET name = ? WHERE name = ?", (typed, name))
    db.execute("ALTER TABLE player_uuids DROP COLUMN name")
    undo_migration_12(db)
    db.execute("DELETE FROM schema_migrations WHERE version >= 10")
    db.execute("PRAGMA user_version = 9")
    db.close()
    with History(path) as history:
        assert history.backup_path == tmp_path / "v9.sqlite3.v9-backup"
        names = [p.name for p in history.get(play_id).persons]
        renames = history._db.execute("SELECT count(*) FROM rename_log").fetchone()[0]
    # A name the rule refuses (an invisible letter) is kept as it was: shown escaped.
    assert names == ["Aki", "Winner: Blue", "Ben", "Dai\u3164"]
    assert renames == 0  # the same people: nobody was renamed


def test_migration_13_indexes_play_order_by_time_then_uuid(tmp_path: Path) -> None:
    path = tmp_path / "v12.sqlite3"
    uuids = ["f0000000-0000-4000-8000-000000000001", "00000000-0000-4000-8000-000000000002"]
    with History(path) as history:
        for uuid in uuids:  # saved in one second: the second saved has the smaller uuid
            play = new_play("shibuya", SCORE_FILE, RESULT, played_at="2026-02-02T20:00:00Z")
            assert history.add([replace(play, uuid=uuid)], keep_ids=False) == (1, 0)
    # As companion 12 kept the indexes of play order: by time, then id.
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("DROP INDEX plays_by_time")
    db.execute("CREATE INDEX plays_by_time ON plays (played_at, id)")
    db.execute("DROP INDEX plays_in_order")
    db.execute(f"CREATE INDEX plays_in_order ON plays (played_at, id) WHERE {COUNTED}")
    db.execute("DELETE FROM schema_migrations WHERE version = 13")
    db.execute("PRAGMA user_version = 12")
    db.close()
    with History(path) as history:
        assert history.backup_path == tmp_path / "v12.sqlite3.v12-backup"
        indexed = {
            name: [row[2] for row in history._db.execute(f"PRAGMA index_info({name})")]
            for name in ("plays_by_time", "plays_in_order")
        }
        assert indexed == {
            "plays_by_time": ["played_at", "uuid"],
            "plays_in_order": ["played_at", "uuid"],
        }
        assert [p.uuid for p in history.plays()] == uuids[::-1]
        assert [(p.id, p.uuid) for p in history.plays()] == [(2, uuids[1]), (1, uuids[0])]


@pytest.mark.parametrize("seed", range(4))
def test_what_a_play_keeps_for_the_stats_is_what_migration_6_works_out(
    tmp_path: Path, seed: int
) -> None:
    """Each write keeps what the statistics read; migration 6's statements give the same."""
    from companion.history.schema import DERIVED
    from tests.support.history_fixture import random_play

    rng = random.Random(seed)
    path = tmp_path / "history.sqlite3"
    with History(path) as history:
        history.add([random_play(rng, k) for k in range(30)], keep_ids=False)
        history.add([random_play(rng, 30)], keep_ids=False)
    queries = (
        "SELECT id, top_score, winning_score, margin FROM plays ORDER BY id",
        "SELECT play_id, position, game, played_at, winner, total FROM play_people "
        "ORDER BY play_id, position",
        "SELECT * FROM play_pairs ORDER BY play_id, a_position, b_position",
    )
    with closing(sqlite3.connect(path)) as db:
        written = [db.execute(q).fetchall() for q in queries]
        db.execute("UPDATE plays SET top_score = NULL, winning_score = NULL, margin = NULL")
        db.execute("UPDATE play_people SET game = NULL, played_at = NULL, winner = NULL, total = 0")
        db.execute("DELETE FROM play_pairs")
        for statement in DERIVED:
            db.execute(statement.format(ids="IS NOT NULL"))
        assert [db.execute(q).fetchall() for q in queries] == written
        assert written[2], "no pairs: the plays are too simple"


def test_an_older_history_gives_the_same_stats_after_migration_6(tmp_path: Path) -> None:
    from companion.analysis.stats import compute
    from companion.history.stat_queries import of_history

    path = tmp_path / "v3.sqlite3"
    _version_3_history(path)
    with History(path) as history:
        expected = compute(seat_rows(history)).to_json()
        assert expected["head_to_head"] and expected["players"]
        assert of_history(history).to_json() == expected


def undo_migration_12(db: sqlite3.Connection) -> None:
    """Take a history back to before migration 12 (for a test of an older one)."""
    for table, column in (
        ("play_versions", "base_entry"),
        ("club_table", "name"),
        ("club_table", "token"),
        ("club_state", "told"),
    ):
        db.execute(f"ALTER TABLE {table} DROP COLUMN {column}")
    db.execute("DROP TABLE club_set_aside")
    db.execute("DELETE FROM schema_migrations WHERE version = 12")
