"""BoardGameGeek play XML in: real API2 responses and our own bgg-xml export."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from companion.cli.app import app
from companion.history.store import History
from tests.support.history_fixture import fill

FILES = Path(__file__).parents[1] / "files" / "bgg"
runner = CliRunner()


def plays(db: Path) -> list[dict[str, Any]]:
    with History(db) as history:
        return [p.to_json() for p in history.plays()]


def test_a_real_api_response_imports_our_plays_and_counts_the_others(db_path: Path) -> None:
    result = runner.invoke(app, ["history", "import", str(FILES / "plays-ristvan.xml")])
    assert result.exit_code == 0, result.output
    assert result.stdout == (
        "Imported 1 game; 0 were already in the history.\n"
        "Skipped 2 plays of other games: Gùgōng (1), Sanssouci (1).\n"
    )
    (play,) = plays(db_path)
    assert play["game"] == "tokaido"
    assert play["played_at"] == "2019-01-04T00:00:00Z"  # TZ=UTC in the tests
    assert play["location"] == "Dundánál"
    assert [p["name"] for p in play["people"]] == ["Dunda", "Detti", "Isti", "PZs"]
    assert play["start_player"] == 0
    sides = play["result"]["players"]
    assert [(s["name"], s["total"], s["rank"]) for s in sides] == [
        ("Dunda", 28, 4), ("Detti", 35, 2), ("Isti", 48, 1), ("PZs", 32, 3),
    ]  # fmt: skip
    assert play["result"]["winners"] == ["Isti"]
    assert play["source"] == "bgg"
    again = runner.invoke(app, ["history", "import", str(FILES / "plays-ristvan.xml")])
    assert again.stdout.startswith("Imported 0 games; 1 was already in the history.\n")


def test_padded_scores_comments_length_and_no_start_position(db_path: Path) -> None:
    result = runner.invoke(app, ["history", "import", str(FILES / "plays-jcpmcdonald.xml")])
    assert result.exit_code == 0, result.output
    assert "Skipped 1 play of other games: Pixies (1)." in result.stdout
    (play,) = plays(db_path)
    assert play["game"] == "shogun"  # "Shōgun" by its object id 20551
    assert [s["total"] for s in play["result"]["players"]] == [125, 123, 115]
    assert play["duration_min"] == 18
    assert play["notes"] == "https://boardgamearena.com/table?table=642468163"
    assert play["start_player"] is None


def test_our_bgg_xml_export_comes_back_as_the_same_plays(tmp_path: Path, db_path: Path) -> None:
    fill(db_path)
    with History(db_path) as history:
        first = history.get(1)
        history.replace(first.__class__(**{**first.__dict__, "ignored": True}))  # an ignored play
    exported = tmp_path / "plays.xml"
    out = runner.invoke(app, ["history", "export", "--format", "bgg-xml", "--out", str(exported)])
    assert out.exit_code == 0, out.output
    fresh = tmp_path / "fresh.sqlite3"
    result = runner.invoke(app, ["--db", str(fresh), "history", "import", str(exported)])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("Imported 7 games; 0 were already in the history.\n")

    def essence(play: dict[str, Any]) -> tuple[Any, ...]:
        return (
            play["game"],
            play["played_at"][:10],
            [p["name"] for p in play["people"]],
            # BGG's XML has no ranks (nor times of day): ranks come from wins and scores.
            [(s["name"], s["total"]) for s in play["result"]["players"]],
            play["result"]["winners"],
            play["location"],
            play["notes"],
            play["duration_min"],
            play["start_player"],
            play["ignored"],
            play["status"],
        )

    assert [essence(p) for p in plays(fresh)] == [essence(p) for p in plays(db_path)]


def test_a_team_game_and_an_interim_scoring_come_back(tmp_path: Path, db_path: Path) -> None:
    shibuya = tmp_path / "shibuya.json"
    shibuya.write_text(Path("examples/shibuya.json").read_text())
    assert runner.invoke(app, ["score", "shibuya", "-i", str(shibuya)]).exit_code == 0
    shogun_file = tmp_path / "shogun.json"
    data = json.loads(Path("examples/shogun.json").read_text())
    data["year"] = 1
    for player in data["players"]:
        player.pop("score_before", None)
        player.pop("war_chests", None)
    shogun_file.write_text(json.dumps(data))
    scored = runner.invoke(app, ["score", "shogun", "-i", str(shogun_file)])
    assert scored.exit_code == 0, scored.output
    exported = tmp_path / "plays.xml"
    runner.invoke(app, ["history", "export", "--format", "bgg-xml", "--out", str(exported)])
    fresh = tmp_path / "fresh.sqlite3"
    result = runner.invoke(app, ["--db", str(fresh), "history", "import", str(exported)])
    assert result.exit_code == 0, result.output
    # Both saved in one second: play order puts them by uuid, so they are taken by game.
    found = {play["game"]: play for play in plays(fresh)}
    assert sorted(found) == ["shibuya", "shogun"]
    team, interim = found["shibuya"], found["shogun"]
    assert [(s["name"], s["total"]) for s in team["result"]["players"]] == [("Red", 4), ("Blue", 2)]
    assert [(p["name"], p["side"]) for p in team["people"]] == [
        ("Aki", 0), ("Cho", 1), ("Ben", 0), ("Dan", 1),
    ]  # fmt: skip
    assert team["result"]["winners"] == ["Red"]
    assert interim["status"] == "interim"
    assert interim["ignored"] is False


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "plays,of,tokaido\n",
            "  $: neither JSON nor XML (not valid JSON: Expecting value (line 1, column 1)); "
            "history import reads the companion's json export, a BG Stats backup (.bgsplay) "
            "or BoardGameGeek's play XML (its XML API2 plays, or our bgg-xml export)\n",
        ),
        (
            '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 '
            '"&lol;&lol;&lol;&lol;">]><plays>&lol2;</plays>',
            "  $: the XML declares a document type or entities, which are refused\n",
        ),
        ('<items total="0"></items>', "  $: an XML document of <items>, not BoardGameGeek's"),
        ("<plays><play id='1'", "  $: not well-formed XML: unclosed token (line 1, column 8)\n"),
        (
            '<plays><play date="2026-02-30"><item name="Tokaido" objectid="123540"/>'
            '<players><player name="Aki" score="lots" win="1"/><player name="aki"/>'
            "</players></play></plays>",
            "  play[0].date: must be a real date such as 2026-11-30, got '2026-02-30'\n"
            "  play[0].player[1].name: aki is twice in the Tokaido play of 2026-02-30 "
            "(also player[0])\n",
        ),
    ],
    ids=["neither", "entities", "not-plays", "broken", "bad-play"],
)
def test_what_cannot_be_imported_says_why_and_imports_nothing(
    tmp_path: Path, db_path: Path, text: str, message: str
) -> None:
    source = tmp_path / "plays.xml"
    source.write_text(text)
    result = runner.invoke(app, ["history", "import", str(source)])
    assert result.exit_code == 2
    assert message in result.stderr, result.stderr
    assert not db_path.exists() or plays(db_path) == []


def test_standard_input_takes_xml_too(db_path: Path) -> None:
    data = (FILES / "plays-ristvan.xml").read_bytes()
    result = runner.invoke(app, ["history", "import", "-"], input=data)
    assert result.exit_code == 0, result.output
    assert [p["game"] for p in plays(db_path)] == ["tokaido"]
