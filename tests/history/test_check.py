"""``companion history check`` and ``companion history backup``, and restoring a backup."""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import threading
from pathlib import Path

import pytest
from typer.testing import CliRunner

from companion.cli.app import app
from companion.history.check import first_difference
from companion.history.store import History
from tests.support.history_fixture import damage_page_2, fill
from tests.support.play_helpers import pause, run, sel, txt
from tests.support.play_scripts import shibuya_keys

FILES = Path(__file__).parents[1] / "files"
runner = CliRunner()


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Built once (playing along takes seconds): two scored games, one finished
    played-along game and one paused one."""
    path = tmp_path_factory.mktemp("template") / "history.sqlite3"
    db = ["--db", str(path)]
    for name in ("tokaido-final.json", "shibuya-teams.json"):
        game = "tokaido" if name.startswith("tokaido") else "shibuya"
        assert runner.invoke(app, ["score", game, "-i", str(FILES / name), *db]).exit_code == 0
    assert run(["play", "shibuya", *db], shibuya_keys()).exit_code == 0
    first = sel(0) + txt("Aki") + txt("Ben") + sel(0) + sel(0) + txt("")
    assert run(["play", "shibuya", *db], first + pause(3)).exit_code == 0
    return path


@pytest.fixture
def played(template: Path, db_path: Path) -> Path:
    """A copy of the template history at the test's history path."""
    shutil.copy(template, db_path)
    return db_path


def sql(db_path: Path, statement: str) -> None:
    with sqlite3.connect(db_path) as db:
        db.execute(statement)
    db.close()


def test_a_whole_history_checks_out(played: Path, db_path: Path) -> None:
    result = runner.invoke(app, ["history", "check"])
    assert (result.exit_code, result.stdout) == (
        0,
        f"History {db_path}\n"
        "  SQLite integrity check: ok\n"
        "  3 games, 3 re-scored from their score files\n"
        "  2 played-along games replayed from their answers\n"
        "No problems found.\n",
    )


def test_imported_games_without_score_files_check_out(db_path: Path) -> None:
    fill(db_path)
    result = runner.invoke(app, ["history", "check"])
    assert result.exit_code == 0
    assert "  7 games, 0 re-scored from their score files\n" in result.stdout


@pytest.mark.parametrize(
    ("statement", "problem"),
    [
        (
            "UPDATE play_players SET total = 99 WHERE play_id = 1 AND seat = 0",
            "game #1: its players (as the stats read them) differ from its result",
        ),
        (
            "UPDATE plays SET score_file = replace(score_file, '\"journey\": 58', "
            "'\"journey\": 59') WHERE id = 1",
            "game #1: its stored result differs from its score file's "
            "(players[0].total: stored 80, scored 81)",
        ),
        (
            "UPDATE plays SET score_file = '{\"players\": []}' WHERE id = 2",
            "game #2: its score file no longer scores (players: must have exactly 2 players, "
            "got 0)",
        ),
        (
            "UPDATE plays SET result = 'not json' WHERE id = 2",
            "game #2: its stored result cannot be read (Expecting value: line 1 column 1 (char 0))",
        ),
        (
            # seq 1 is the clock's start mark, seq 2 the first answer
            "UPDATE session_events SET key = 'renamed' WHERE session_id = 4 AND seq = 3",
            "played-along game #4 (shibuya): it no longer replays: saved answer 2 (Player 1's "
            "name (seat order, clockwise)?): it was saved for another question (renamed)",
        ),
        (
            "UPDATE session_events SET value = 'nope' WHERE session_id = 3 AND seq = 5",
            "played-along game #3 (shibuya): saved answer 5 (colour) is not readable JSON",
        ),
        (
            "DELETE FROM session_events WHERE session_id = 3 AND seq > 11",
            "played-along game #3 (shibuya): it is finished but its saved answers stop "
            "before the end",
        ),
    ],
)
def test_each_kind_of_damage_is_named(
    played: Path, db_path: Path, statement: str, problem: str
) -> None:
    sql(db_path, statement)
    result = runner.invoke(app, ["history", "check"])
    assert result.exit_code == 1
    assert result.stdout.splitlines()[-2:] == ["1 problem:", f"  {problem}"]


def test_a_played_along_game_changed_since_is_a_note_not_a_problem(
    played: Path, tmp_path: Path
) -> None:
    with sqlite3.connect(played) as conn:
        [(text,)] = conn.execute("SELECT score_file FROM plays WHERE id = 3").fetchall()
    conn.close()
    file = json.loads(text)
    file["players"][0]["goals"] += 1  # the winner's pawns at goal, corrected by hand
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(file), encoding="utf-8")
    changed = runner.invoke(app, ["history", "edit", "3", "--score-file", str(edited)])
    assert changed.exit_code == 0, changed.output
    result = runner.invoke(app, ["history", "check"])
    assert result.exit_code == 0, result.stdout
    assert (
        "  Note: played-along game #3 (shibuya): game #3 differs from what its answers give, "
        "edited since? (players[0]."
    ) in result.stdout


def test_a_renamed_player_is_no_note(played: Path) -> None:
    for table, column in (("plays", "score_file"), ("plays", "result"), ("play_players", "name")):
        sql(played, f"UPDATE {table} SET {column} = replace({column}, 'Ben', 'Benjamin')")
    result = runner.invoke(app, ["history", "check"])
    assert result.exit_code == 0, result.stdout
    assert "Note" not in result.stdout


def test_a_finished_game_unlinked_from_its_record_is_a_problem(played: Path) -> None:
    sql(played, "UPDATE sessions SET play_id = NULL WHERE id = 3")
    result = runner.invoke(app, ["history", "check"])
    assert result.stdout.splitlines()[-1] == (
        "  played-along game #3 (shibuya): it is finished but is linked to no recorded game"
    )


def test_a_damaged_file_is_reported_and_left_as_it_is(db_path: Path) -> None:
    damage_page_2(db_path)
    before = db_path.read_bytes()
    result = runner.invoke(app, ["history", "check"])
    assert result.exit_code == 1
    assert result.stdout.splitlines()[:3] == [
        f"History {db_path}",
        "  SQLite integrity check: damaged",
        "  The games are checked once the file is whole (see Backups in the README).",
    ]
    assert db_path.read_bytes() == before


@pytest.mark.parametrize(
    ("stored", "scored", "where"),
    [
        ({"a": 1}, {"a": 1}, None),
        ({"a": [1, 2]}, {"a": [1, 3]}, "a[1]: stored 2, scored 3"),
        ({"a": 1}, {"a": 1, "b": 2}, "b: only in the scored result"),
        ({"a": 1}, {"a": True}, "a: stored 1, scored true"),
        ([1], [1, 2], "$: stored [1], scored [1, 2]"),
    ],
)
def test_first_difference(stored: object, scored: object, where: str | None) -> None:
    assert first_difference(stored, scored) == where


# --- backup and restore ------------------------------------------------------


def test_backup_writes_a_copy_that_opens_as_the_history(played: Path, tmp_path: Path) -> None:
    copy = tmp_path / "backups" / "2026-11-30.sqlite3"
    copy.parent.mkdir()
    result = runner.invoke(app, ["history", "backup", str(copy)])
    assert (result.exit_code, result.stdout) == (0, f"Backed up 3 games to {copy}.\n")
    assert sorted(p.name for p in copy.parent.iterdir()) == [copy.name]  # no side files
    with sqlite3.connect(copy) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    db.close()
    original = runner.invoke(app, ["history", "export", "--format", "json"]).stdout
    backed_up = runner.invoke(app, ["history", "export", "--format", "json", "--db", str(copy)])
    assert backed_up.stdout == original
    assert runner.invoke(app, ["history", "check", "--db", str(copy)]).exit_code == 0


@pytest.mark.parametrize(
    ("target", "extra", "message"),
    [
        ("exists", [], "{t} already exists; add --force to replace it"),
        ("history", ["--force"], "{t} is the history itself; nothing was written"),
        ("folder", [], "{t} is a folder: give the backup's file name"),
        ("device", ["--force"], "{t} is not a regular file; nothing was written"),
        (
            "missing-folder",
            [],
            "cannot write the backup {t}: there is no folder {t.parent}; nothing was written",
        ),
    ],
)
def test_backup_refuses_what_it_must_not_overwrite(
    db_path: Path, tmp_path: Path, target: str, extra: list[str], message: str
) -> None:
    fill(db_path)
    paths = {
        "exists": tmp_path / "notes.txt",
        "history": db_path,
        "folder": tmp_path,
        "device": Path("/dev/null"),
        "missing-folder": tmp_path / "nowhere" / "copy.sqlite3",
    }
    (tmp_path / "notes.txt").write_text("keep me")
    path = paths[target]
    before = db_path.read_bytes()
    result = runner.invoke(app, ["history", "backup", str(path), *extra])
    assert (result.exit_code, result.stderr) == (1, f"Error: {message.format(t=path)}\n")
    assert (tmp_path / "notes.txt").read_text() == "keep me"
    assert db_path.read_bytes() == before
    assert not [p for p in tmp_path.rglob("*partial*")]


def test_backup_force_replaces_an_older_backup(db_path: Path, tmp_path: Path) -> None:
    fill(db_path)
    copy = tmp_path / "copy.sqlite3"
    copy.write_text("an older backup")
    assert runner.invoke(app, ["history", "backup", str(copy), "--force"]).exit_code == 0
    assert copy.read_bytes().startswith(b"SQLite format 3\x00")


def test_backup_without_a_history_says_so(tmp_path: Path) -> None:
    result = runner.invoke(app, ["history", "backup", str(tmp_path / "copy.sqlite3")])
    assert result.exit_code == 1
    assert (
        result.stderr
        == f"Error: there is no history at {tmp_path / 'history.sqlite3'} to back up\n"
    )
    assert not (tmp_path / "copy.sqlite3").exists()


def test_backup_is_one_consistent_moment_while_another_companion_saves(
    db_path: Path, tmp_path: Path
) -> None:
    """A writer adds games in single transactions while backups are taken."""
    fill(db_path)
    stop = threading.Event()

    def writer() -> None:
        with History(db_path) as history:
            game = json.loads((FILES / "tokaido-final.json").read_text())
            from scorers import SCORERS

            result = SCORERS["tokaido"].score_json(game).to_json()
            while not stop.is_set():
                with history.transaction() as db:
                    for _ in range(5):  # five games or none, never part of them
                        db.execute(
                            "INSERT INTO plays (uuid, played_at, game, result) "
                            "VALUES (lower(hex(randomblob(16))), '2026', 'tokaido', ?)",
                            (json.dumps(result),),
                        )

    thread = threading.Thread(target=writer)
    thread.start()
    try:
        counts = []
        for k in range(5):
            copy = tmp_path / f"copy{k}.sqlite3"
            assert runner.invoke(app, ["history", "backup", str(copy)]).exit_code == 0
            with sqlite3.connect(copy) as db:
                counts.append(db.execute("SELECT count(*) FROM plays").fetchone()[0])
                assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            db.close()
    finally:
        stop.set()
        thread.join()
    assert all((count - 7) % 5 == 0 for count in counts), counts


def test_restoring_a_backup_as_the_readme_says(played: Path, db_path: Path, tmp_path: Path) -> None:
    """The README's steps: check the backup, move the broken history aside, copy it in."""
    backup = tmp_path / "backup.sqlite3"
    assert runner.invoke(app, ["history", "backup", str(backup)]).exit_code == 0
    expected = runner.invoke(app, ["history", "export", "--format", "json"]).stdout
    # The history is damaged later, and a -wal of it lies beside it.
    damage_page_2(db_path)
    score = ["score", "tokaido", "-i", str(FILES / "tokaido-final.json")]
    assert runner.invoke(app, score).exit_code == 1
    Path(f"{db_path}-wal").write_bytes(b"stale")
    # 1. The backup checks out.
    assert runner.invoke(app, ["history", "check", "--db", str(backup)]).exit_code == 0
    # 2. Move the history and its side files aside, 3. copy the backup in.
    assert db_path.name == "history.sqlite3"
    subprocess.run(
        [
            "bash",
            "-c",
            'for f in history.sqlite3*; do mv "$f" "${f/history.sqlite3/history.broken.sqlite3}"; '
            f'done; cp "{backup}" history.sqlite3',
        ],
        cwd=db_path.parent,
        check=True,
    )
    assert Path(db_path.parent / "history.broken.sqlite3-wal").read_bytes() == b"stale"
    # Everything is back, and the companion writes to it again.
    assert runner.invoke(app, ["history", "check"]).exit_code == 0
    assert runner.invoke(app, ["history", "export", "--format", "json"]).stdout == expected
    saved = runner.invoke(app, ["score", "tokaido", "-i", str(FILES / "tokaido-final.json")])
    assert saved.stdout.endswith("Saved to the history as game #5.\n")
    with sqlite3.connect(db_path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    db.close()
    assert runner.invoke(app, ["resume", "--abandon", "4"]).exit_code == 0


def test_editing_a_played_along_game_keeps_its_answers(played: Path) -> None:
    before = runner.invoke(app, ["history", "export", "--format", "json"]).stdout
    assert runner.invoke(app, ["history", "note", "3", "a fine game"]).exit_code == 0
    assert runner.invoke(app, ["history", "edit", "3", "--location", "Kyoto"]).exit_code == 0
    with sqlite3.connect(played) as db:
        assert db.execute("SELECT play_id FROM sessions WHERE id = 3").fetchone() == (3,)
    db.close()
    after = json.loads(runner.invoke(app, ["history", "export", "--format", "json"]).stdout)
    [game] = [p for p in after["plays"] if p["id"] == 3]
    assert game["events"] == next(p for p in json.loads(before)["plays"] if p["id"] == 3)["events"]
    assert runner.invoke(app, ["history", "check"]).exit_code == 0


def test_an_import_with_blank_scores_checks_out(db_path: Path) -> None:
    """Seats BG Stats left without a score (kept as not scored) are no problem; a seat
    whose stored total is changed still is."""
    backup = FILES / "bgstats-backup.bgsplay"
    assert runner.invoke(app, ["history", "import", str(backup)]).exit_code == 0
    checked = runner.invoke(app, ["history", "check"])
    assert (checked.exit_code, checked.stdout.splitlines()[-1]) == (0, "No problems found.")
    sql(db_path, "UPDATE play_players SET total = 99 WHERE play_id = 1 AND seat = 0")
    checked = runner.invoke(app, ["history", "check"])
    assert (checked.exit_code, checked.stdout.splitlines()[-2:]) == (
        1,
        ["1 problem:", "  game #1: its players (as the stats read them) differ from its result"],
    )


def test_a_game_corrected_on_an_earlier_companions_score_pad_is_a_note(
    db_path: Path, tmp_path: Path
) -> None:
    """Its pad's rows were numbered and named otherwise: the answers up to the pad replay,
    the recorded game is kept, and neither check nor an import refuses it."""
    from tests.support.play_scripts import shimoda

    script = shimoda()
    assert run(script.args, script.fixed()).exit_code == 0
    # The same game as an earlier companion saved it: one row for a street's tourists.
    sql(db_path, "UPDATE session_events SET key = 'fix1.tourists.0' WHERE key LIKE 'fix1.%'")
    result = runner.invoke(app, ["history", "check"])
    assert result.exit_code == 0, result.stdout
    assert (
        "  Note: played-along game #1 (shimoda): its score pad was corrected with an earlier "
        "companion's pad"
    ) in result.stdout
    assert "the recorded game is kept as it is" in " ".join(result.stdout.split())
    exported = tmp_path / "plays.json"
    assert (
        runner.invoke(app, ["history", "export", "-f", "json", "-o", str(exported)]).exit_code == 0
    )
    again = ["--db", str(tmp_path / "again.sqlite3")]
    imported = runner.invoke(app, ["history", "import", str(exported), *again])
    assert imported.exit_code == 0, imported.output
