"""Notes and places are cleaned on the way in by the rule names use (issue 35): no
control or invisible character but line breaks, so no export writes an escape sequence;
a huge BGG XML attribute is refused as fast as huge text."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from companion.cli.app import app
from companion.history.places import clean_text
from companion.history.store import History
from tests.support.history_fixture import result
from tests.support.import_files import BACKUP

runner = CliRunner()

HOSTILE = "bell\x07 \x1b[31mred\x1b[0m \u202egnp.exe\u202c\r\nline two\u2028three\u200bx\t!"
PLACE = "Bar\x1b[2J \u2066club\u2069\nback room"
RAW = ("\x1b", "\x07", "\u202e", "\u202c", "\u2066", "\u2069", "\u200b", "\r", "\u2028")


def test_the_rule() -> None:
    assert clean_text(HOSTILE, lines=True) == ("bell [31mred[0m gnp.exe\nline two\nthreex !")
    assert clean_text(PLACE, lines=False) == "Bar[2J club back room"
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467 game night"
    assert clean_text(family, lines=True) == family  # the joiner holds the emoji together


def _exports(db: Path, tmp_path: Path) -> dict[str, str]:
    found = {}
    for fmt in ("csv", "json", "bgstats", "bgg-xml"):
        out = tmp_path / f"export.{fmt}"
        done = runner.invoke(
            app, ["--db", str(db), "history", "export", "--format", fmt, "--out", str(out)]
        )
        assert done.exit_code == 0, done.output
        found[fmt] = out.read_text(encoding="utf-8-sig")
        shown = runner.invoke(app, ["--db", str(db), "history", "export", "--format", fmt])
        found[f"{fmt} on the screen"] = shown.stdout
    return found


def test_notes_with_escapes_through_every_export(db_path: Path, tmp_path: Path) -> None:
    with History(db_path) as history:
        history.record(
            game="tokaido",
            score_file=None,
            result=result("tokaido", [("Aki", 60, 1), ("Ben", 50, 2)], ["Aki"]),
            location=PLACE,
            notes=HOSTILE,
        )
        (play,) = history.plays()
    assert play.notes == clean_text(HOSTILE, lines=True)
    assert play.location == "Bar[2J club back room"
    noted = runner.invoke(app, ["history", "note", "1", "more\x1b]0;title\x07 text"])
    assert noted.exit_code == 0, noted.output
    for fmt, text in _exports(db_path, tmp_path).items():
        assert not [c for c in RAW if c in text], fmt
        assert "\\u001b" not in text and "\\u202e" not in text.lower(), fmt


def test_a_history_written_before_the_rule_exports_clean(db_path: Path, tmp_path: Path) -> None:
    with History(db_path) as history:
        history.record(
            game="tokaido",
            score_file=None,
            result=result("tokaido", [("Aki", 60, 1), ("Ben", 50, 2)], ["Aki"]),
        )
    with sqlite3.connect(db_path) as db:  # as an older companion stored it
        db.execute("UPDATE plays SET notes = ?, location = ?", (HOSTILE, PLACE))
    db.close()
    for fmt, text in _exports(db_path, tmp_path).items():
        assert not [c for c in RAW if c in text], fmt


def test_imported_notes_and_places_are_cleaned_not_refused(tmp_path: Path, db_path: Path) -> None:
    data = json.loads(BACKUP.read_text())
    data["plays"][0]["comments"] = HOSTILE
    data["locations"][0]["name"] = PLACE
    backup = tmp_path / "backup.bgsplay"
    backup.write_text(json.dumps(data))
    assert runner.invoke(app, ["history", "import", str(backup)]).exit_code == 0
    xml = tmp_path / "plays.xml"
    xml.write_text(
        '<plays username="aki" userid="7"><play id="5" date="2026-03-01" '
        'location="Bar&#x9b;2J &#x2066;club&#x2069;">'
        "<item name='Tokaido' objectid='123540'/>"
        "<comments>bell&#x9b;31mred &#x202e;x&#x200b;y</comments>"
        "<players><player name='Aki' score='5' win='1'/></players></play></plays>"
    )
    imported = runner.invoke(app, ["history", "import", str(xml)])
    assert imported.exit_code == 0, imported.output
    with History(db_path) as history:
        plays = history.plays()
    first = next(p for p in plays if p.source == "bgstats")
    bgg = next(p for p in plays if p.source == "bgg")
    assert first.notes == clean_text(HOSTILE, lines=True)
    assert first.location == "Bar[2J club back room"
    assert bgg.notes == "bell31mred xy"
    assert bgg.location == "Bar2J club"


@pytest.mark.parametrize("where", ["attribute", "text"])
def test_a_huge_xml_attribute_is_refused_as_soon_as_huge_text(where: str) -> None:
    """60 MB in one attribute (or one text) is refused after 1 MB is read: little time
    (the rest is never read) and little memory, however long the value."""
    import tracemalloc

    from companion.history.formats.bggxml import MAX_RUN, read_bgg_xml
    from companion.history.formats.bounded import CHUNK
    from scorers import ScoreFileError

    head = b'<plays><play id="1" date="2026-01-01"><item name="Tokaido" objectid="123540"/>'
    opening = head + (b'<players><player name="' if where == "attribute" else b"<comments>")
    given = 0

    def pieces() -> object:
        nonlocal given
        yield opening
        for _ in range(60 * 2**20 // CHUNK):
            given += 1
            yield b"x" * CHUNK

    tracemalloc.start()
    try:
        with pytest.raises(ScoreFileError) as caught:
            read_bgg_xml(pieces())  # type: ignore[arg-type]
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert [str(p) for p in caught.value.problems] == [
        "$: more than 1 MB of one tag or text (after line 1): a value this long is refused"
    ]
    assert given <= MAX_RUN // CHUNK + 1  # read no further
    assert peak < 4 * MAX_RUN


@given(st.text(max_size=200), st.booleans())
def test_the_rule_leaves_nothing_that_moves_a_cursor_and_is_stable(text: str, lines: bool) -> None:
    import unicodedata

    cleaned = clean_text(text, lines=lines)
    assert clean_text(cleaned, lines=lines) == cleaned
    for char in cleaned:
        category = unicodedata.category(char)
        assert category not in ("Cc", "Cf", "Cs", "Zl", "Zp") or char in ("\n", "\u200d"), char
        assert char != "\n" or lines
