"""Our json export is written a page at a time: the same file, in bounded memory."""

from __future__ import annotations

import io
import random
import tracemalloc
from dataclasses import replace
from pathlib import Path

import pytest

from companion.history.formats.ours import to_json, write_json
from companion.history.store import History
from companion.history.sync_local import game_logs
from tests.support.club_tables import run, sql
from tests.support.history_fixture import random_play


def filled(path: Path, count: int) -> Path:
    rng = random.Random(7)
    with History(path) as history:
        history.add(
            [replace(random_play(rng, k), uuid=f"p-{k}") for k in range(count)], keep_ids=False
        )
    return path


def test_the_streamed_export_is_the_whole_export_byte_for_byte(tmp_path: Path) -> None:
    # Expected: the same text as to_json, with the people's uuids, page size aside.
    db = filled(tmp_path / "h.sqlite3", 23)
    sql(
        db,
        "INSERT OR REPLACE INTO player_uuids (name_key, uuid, name) VALUES ('ben', 'U-1', 'Ben')",
    )
    with History(db, write=False) as history:
        whole = to_json(
            history.plays(), events=history.event_logs(), player_uuids=history.player_uuids()
        )
        for size in (1, 4, 1000):
            out = io.StringIO()
            pages = ((p, game_logs(history, p)) for p in history.play_pages(size=size))
            assert write_json(out, pages, player_uuids=history.player_uuids()) == 23
            assert out.getvalue() == whole
    assert '"players": [' in whole
    exported = run(
        "history", "export", "-f", "json", "--out", str(tmp_path / "e.json"), "--db", str(db)
    )
    assert exported.exit_code == 0, exported.output
    assert (tmp_path / "e.json").read_text() == whole
    back = run(
        "history", "import", str(tmp_path / "e.json"), "--db", str(tmp_path / "back.sqlite3")
    )
    assert back.exit_code == 0, back.output


def test_the_streamed_export_takes_a_fraction_of_the_whole_exports_memory(tmp_path: Path) -> None:
    # Expected: with pages of 100, the peak is under a quarter of building it whole.
    db = filled(tmp_path / "h.sqlite3", 3000)
    with History(db, write=False) as history:
        tracemalloc.start()
        to_json(history.plays(), events=history.event_logs())
        whole = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        tracemalloc.start()
        with (tmp_path / "out.json").open("w") as out:
            write_json(out, ((p, game_logs(history, p)) for p in history.play_pages(size=100)))
        streamed = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    assert streamed < whole / 4, (streamed, whole)


def test_an_export_larger_than_an_import_reads_is_written_in_parts_it_takes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Expected: with an import limit of 20 kB, 60 games go to e.json, e-2.json, …,
    # each under the limit; importing each gives back every game.
    from companion.history.formats import bounded

    monkeypatch.setattr(bounded, "MAX_IMPORT_BYTES", 20_000)
    db = filled(tmp_path / "h.sqlite3", 60)
    out = tmp_path / "e.json"
    said = run("history", "export", "-f", "json", "--out", str(out), "--db", str(db))
    assert said.exit_code == 0, said.output
    parts = sorted(tmp_path.glob("e*.json"), key=lambda p: (len(p.name), p.name))
    assert len(parts) >= 3
    assert parts[0] == out and parts[1].name == "e-2.json"
    assert said.output.startswith(
        f"Exported 60 games to {out} and {len(parts) - 1} more files (e-2.json, "
    )
    back = tmp_path / "back.sqlite3"
    for part in parts:
        assert part.stat().st_size <= 20_000
        taken = run("history", "import", str(part), "--db", str(back))
        assert taken.exit_code == 0, taken.output
    with History(db, write=False) as a, History(back, write=False) as b:
        assert [p.uuid for p in a.plays()] == [p.uuid for p in b.plays()]
        assert whole(b) == whole(a)  # every game, whole: ids, results, people, logs


def whole(history: History) -> str:
    """Everything our json export keeps of ``history``."""
    return to_json(
        history.plays(), events=history.event_logs(), player_uuids=history.player_uuids()
    )


def test_a_history_too_large_for_one_import_is_refused_then_comes_back_in_parts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Expected: with an import limit of 20 kB, the export of 60 games to the screen (one
    # document) is refused by the import, which says how to export in parts; exported
    # as it says, the parts bring every game back into an empty history.
    from companion.history.formats import bounded, dispatch

    for module in (bounded, dispatch):
        monkeypatch.setattr(module, "MAX_IMPORT_BYTES", 20_000)
    db = filled(tmp_path / "h.sqlite3", 60)
    sql(db, "INSERT OR REPLACE INTO player_uuids (name_key, uuid, name) VALUES ('ben', 'U', 'Ben')")
    one = tmp_path / "one.json"
    screen = run("history", "export", "-f", "json", "--db", str(db))
    assert screen.exit_code == 0
    one.write_text(screen.stdout)
    assert one.stat().st_size > 3 * 20_000
    back = tmp_path / "back.sqlite3"
    refused = run("history", "import", str(one), "--db", str(back))
    assert (refused.exit_code, refused.stdout) == (2, "")
    assert refused.stderr == (
        f"Error: {one} is larger than 20 kB, too large to be read; nothing was imported.\n"
        "Our json export writes a history this large in parts that import: companion "
        "history export -f json --out backup.json writes backup.json, backup-2.json and so "
        "on; import each part.\n"
    )
    assert not back.exists()
    monkeypatch.chdir(tmp_path)
    said = run("history", "export", "-f", "json", "--out", "backup.json", "--db", str(db))
    assert said.exit_code == 0, said.output
    parts = sorted(tmp_path.glob("backup*.json"), key=lambda p: (len(p.name), p.name))
    assert [p.name for p in parts[:2]] == ["backup.json", "backup-2.json"] and len(parts) >= 3
    for part in parts:
        taken = run("history", "import", part.name, "--db", str(back))
        assert taken.exit_code == 0, taken.output
    with History(db, write=False) as a, History(back, write=False) as b:
        assert len(b.plays()) == 60
        assert whole(b) == whole(a)
