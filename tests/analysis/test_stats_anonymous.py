"""BG Stats' anonymous player is never a person in the statistics, however high they score."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from companion.analysis.stats import compute
from companion.cli.app import app
from companion.history.formats.dispatch import parse
from companion.history.stat_queries import of_history, seat_rows
from companion.history.store import History
from tests.support.import_files import FILES


def imported(db_path: Path, anonymous_score: str | None = None) -> None:
    data = json.loads((FILES / "bgstats-wrapped-sample.json").read_text())
    if anonymous_score is not None:
        play = next(p for p in data["plays"] if p["uuid"].startswith("A5D048EB"))
        play["playerScores"][0]["score"] = anonymous_score  # the anonymous player's seat
    with History(db_path) as history:
        history.add(parse(json.dumps(data)).plays)


def tokaido(stats: dict[str, object]) -> dict[str, object]:
    games = stats["games"]
    assert isinstance(games, list)
    found: dict[str, object] = next(g for g in games if g["game"] == "tokaido")
    return found


def test_the_anonymous_player_is_never_a_high_scorer(db_path: Path) -> None:
    imported(db_path)  # as in the real backup: the anonymous player's 67 is the best
    with History(db_path) as history:
        for stats in (compute(seat_rows(history)).to_json(), of_history(history).to_json()):
            game = tokaido(stats)
            assert (game["high_score"], game["high_scorers"]) == (67, [])
    shown = CliRunner().invoke(app, ["history", "stats", "--json"])
    assert shown.exit_code == 0
    assert tokaido(json.loads(shown.stdout))["high_scorers"] == []
    assert "Anonymous" not in shown.stdout


def test_a_person_beside_them_with_the_high_score_is_named(db_path: Path) -> None:
    imported(db_path, "62")  # Darth Tyrannus's best Tokaido score too
    with History(db_path) as history:
        for stats in (compute(seat_rows(history)).to_json(), of_history(history).to_json()):
            assert tokaido(stats)["high_scorers"] == ["Darth Tyrannus"]
