"""After the game at the terminal: why it was won, records, ratings, time and place."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from companion.analysis.clock import STAMP, seconds_of
from companion.cli.app import app
from companion.events import is_answer
from companion.history.sessions import SessionStore
from companion.history.store import History
from tests.support.history_fixture import fill
from tests.support.play_helpers import CLEAR, CTRL_C, pause, run, sel, txt
from tests.support.play_scripts import shibuya_answers

FILES = Path(__file__).parents[1] / "files"
runner = CliRunner()
ANSWER_S = 120


class FakeClock:
    """The time the companion reads: it moves only when an answer is saved, or when told."""

    def __init__(self) -> None:
        self.now_s = seconds_of("2026-03-01T19:00:00Z")

    def now(self) -> str:
        return datetime.fromtimestamp(self.now_s, UTC).strftime(STAMP)


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeClock]:
    """Every answer takes the table two minutes; nothing else takes any time."""
    fake = FakeClock()
    monkeypatch.setattr("companion.history.sessions.now_utc", fake.now)
    append = SessionStore.append

    def slow_append(self: SessionStore, session_id: int, key: str, value: Any, **kw: Any) -> None:
        if is_answer(key):
            fake.now_s += ANSWER_S
        append(self, session_id, key, value, **kw)

    monkeypatch.setattr(SessionStore, "append", slow_append)
    yield fake


def sql(db_path: Path, statement: str) -> list[tuple[Any, ...]]:
    with sqlite3.connect(db_path) as db:
        rows = db.execute(statement).fetchall()
    db.close()
    return rows


RESULT_END = """\
Winner: Aki.

Aki won by 3 pawns at goal, 3 to 0.

Time at the table: 34 min (pauses left out).
Rounds: set-up 14 min, construction 8 min, crossing 10 min, final count 2 min.
Saved to the history as game #1.
"""


@pytest.mark.slow
@pytest.mark.parametrize("away", ["pause", "ctrl-c", "closed terminal"])
def test_time_away_never_counts(db_path: Path, clock: FakeClock, away: str) -> None:
    answers = shibuya_answers()  # 17 answers: 34 minutes at the table
    stop = CTRL_C if away == "ctrl-c" else pause(3)  # at "Who goes first?"
    stopped = run(["play", "shibuya"], "".join(answers[:6]) + stop)
    assert stopped.exit_code == (130 if away == "ctrl-c" else 0)
    assert [k for (k,) in sql(db_path, "SELECT key FROM session_events")][-2:] == [
        "setup.skipped",
        "meta:stop",
    ]
    if away == "closed terminal":  # a closed terminal saves no stop mark
        sql(db_path, "DELETE FROM session_events WHERE key = 'meta:stop'")
    clock.now_s += 5 * 3600 + 17  # dinner
    resumed = run(["resume", "1"], "".join(answers[6:]))
    assert resumed.exit_code == 0, resumed.output
    assert resumed.stdout.endswith(RESULT_END)
    assert sql(db_path, "SELECT played_at, duration_min FROM plays") == [
        ("2026-03-02T00:34:17Z", 34)
    ]
    shown = runner.invoke(app, ["history", "show", "1"]).stdout.splitlines()
    assert shown[-3:] == [
        "Started: Aki",
        "Duration: 34 min",
        "Rounds: set-up 14 min, construction 8 min, crossing 10 min, final count 2 min",
    ]
    timing = json.loads(runner.invoke(app, ["history", "show", "1", "--json"]).stdout)["timing"]
    assert timing == {
        "seconds": 2040,
        "minutes": 34,
        "started_at": "2026-03-01T19:00:00Z",
        "ended_at": "2026-03-02T00:34:17Z",
        "rounds": [
            {"round": "set-up", "seconds": 840},
            {"round": "construction", "seconds": 480},
            {"round": "crossing", "seconds": 600},
            {"round": "final count", "seconds": 120},
        ],
    }


@pytest.mark.slow
def test_time_on_request_and_the_place_of_the_game(db_path: Path, clock: FakeClock) -> None:
    answers = shibuya_answers()
    # :time in a text prompt (the first name), the Time entry of a list (the first tile).
    keys = answers[0] + txt(":time") + "".join(answers[1:7]) + sel(2 + 3) + "".join(answers[7:])
    played = run(["play", "shibuya", "--location", "  Aki's   place "], keys)
    assert played.exit_code == 0, played.output
    out = played.stdout
    assert "Time at the table: 2 min (pauses left out); this round (set-up): 2 min.\n" in out
    assert (
        "Time at the table: 14 min (pauses left out); this round (construction): under a "
        "minute.\n" in out
    )
    assert out.endswith(
        "final count 2 min.\nLocation: Aki's place\nSaved to the history as game #1.\n"
    )
    # The next game offers the places the history knows, the latest first (Enter takes it).
    again = run(["play", "shibuya"], sel(0) + "".join(answers))
    assert again.exit_code == 0, again.output
    assert again.stdout.endswith(
        "Aki won by 3 pawns at goal, 3 to 0.\n\n"
        # (the same answers: maybe the same game saved twice, so no record "equalled")
        "Same people and scores as game #1, the group's Shibuya record (3): if it is the\n"
        "same game scored twice, remove one with companion history delete 2.\n"
        "Aki has won 2 Shibuya games in a row, the group's longest streak (was 1).\n\n"
        "Time at the table: 34 min (pauses left out).\n"
        "Rounds: set-up 14 min, construction 8 min, crossing 10 min, final count 2 min.\n"
        "Location: Aki's place\n"
        "Saved to the history as game #2.\n"
    )
    # Or another place, typed (a bad one is refused with the reason, then replaced); it
    # is kept with the game from its start (here paused at once).
    other = sel(1) + txt("Café\u200bNord") + CLEAR + txt("[b]Café[/b]") + pause(2)
    assert run(["play", "shibuya"], other).exit_code == 0
    assert sql(
        db_path, "SELECT session_id, value FROM session_events WHERE key = 'meta:location'"
    ) == [
        (1, '"Aki\'s place"'),
        (2, '"Aki\'s place"'),
        (3, '"[b]Caf\\u00e9[/b]"'),
    ]


def test_a_bad_location_is_refused_before_anything_starts(db_path: Path) -> None:
    result = runner.invoke(
        app, ["score", "tokaido", "-i", str(FILES / "tokaido-final.json"), "--location", "a\x1bb"]
    )
    assert (result.exit_code, result.stderr) == (
        2,
        "Error: --location: the place must not contain an escape character\n",
    )
    assert not db_path.exists()


def tokaido_file(journey: int) -> Path:
    return FILES / "tokaido-final.json" if journey == 58 else _changed(journey)


def _changed(journey: int) -> Path:
    data = json.loads((FILES / "tokaido-final.json").read_text())
    data["players"][0]["journey"] = journey
    path = Path(f"tokaido-{journey}.json")
    path.write_text(json.dumps(data))
    return path


def test_score_tells_the_records_a_game_sets_and_where_it_was(
    db_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    first = runner.invoke(app, ["score", "tokaido", "-i", str(tokaido_file(58))])
    assert first.exit_code == 0
    assert "record" not in first.stdout  # nothing to beat yet
    second = runner.invoke(
        app, ["score", "tokaido", "-i", str(tokaido_file(70)), "--location", "Aki's"]
    )
    assert second.exit_code == 0
    assert second.stdout.endswith(
        "points).\n\n"
        "Aki set the group's Tokaido record: 92, was 80.\n"
        "Aki won by 19, the group's biggest Tokaido margin (was 7).\n"
        "Aki has won 2 Tokaido games in a row, the group's longest streak (was 1).\n"
        "Aki set the group's Tokaido record in the journey: 70, was 66 by Cho.\n\n"
        "Location: Aki's\n"
        "Saved to the history as game #2.\n"
    )
    # --json keeps the result document exactly as the score-file contract has it.
    quiet = runner.invoke(app, ["score", "tokaido", "-i", str(tokaido_file(58)), "--json"])
    assert set(json.loads(quiet.stdout)) == {"game", "players", "winners", "tiebreak"}


def test_history_show_explains_a_team_game_with_its_people(db_path: Path) -> None:
    runner.invoke(app, ["score", "shibuya", "-i", str(FILES / "shibuya-teams.json")])
    lines = runner.invoke(app, ["history", "show", "1"]).stdout.splitlines()
    assert lines[-6:] == [
        "Winner: Red.",
        "",
        "Red (Aki and Ben) won by 2 pawns at goal, 6 to 4.",
        "",
        "Red: Aki and Ben",
        "Blue: Cho and Dai",
    ]


HOSTILE = "[bold]Zed[/]"


def hostile_history(db_path: Path) -> None:
    """The fixture history, with a name that looks like markup among the Tokaido players."""
    fill(db_path)
    with History(db_path) as history:
        history.record(
            game="tokaido",
            score_file=None,
            result={
                "game": "tokaido",
                "players": [
                    {"name": HOSTILE, "total": 75, "rank": 1, "breakdown": {"journey": 75}},
                    {"name": "Aki", "total": 52, "rank": 2, "breakdown": {"journey": 52}},
                ],
                "winners": [HOSTILE],
                "tiebreak": None,
            },
            played_at="2026-01-08T20:00:00Z",
        )


def test_history_records(db_path: Path) -> None:
    hostile_history(db_path)
    every = runner.invoke(app, ["history", "records"])
    assert every.exit_code == 0
    # Aki's shared win of game #2 made two wins in a row; Ben's margin of 5 came first.
    assert every.stdout == (
        "The group's records\n"
        " Game      Record                   Value   Held by        Set in\n"
        "──────────────────────────────────────────────────────────────────────────\n"
        " Shibuya   Highest total                6   Aki            #5, 2026-01-05\n"
        "           Biggest winning margin       3   Aki            #5, 2026-01-05\n"
        "           Longest win streak           1   Aki            #5, 2026-01-05\n"
        " Tokaido   Highest total               75   [bold]Zed[/]   #8, 2026-01-08\n"
        "           Biggest winning margin      23   [bold]Zed[/]   #8, 2026-01-08\n"
        "           Longest win streak           2   Aki            #2, 2026-01-02\n"
        " Shogun    Highest total               50   Aki            #7, 2026-01-07\n"
        "           Biggest winning margin       5   Ben            #3, 2026-01-03\n"
        "           Longest win streak           1   Ben            #3, 2026-01-03\n"
        "Each category and personal bests: companion history records GAME\n"
    )
    one = runner.invoke(app, ["history", "records", "Tokaido"])
    assert one.stdout == (
        "Tokaido records (5 games)\n"
        " Record                   Value   Held by        Set in\n"
        "────────────────────────────────────────────────────────────────\n"
        " Highest total               75   [bold]Zed[/]   #8, 2026-01-08\n"
        " Biggest winning margin      23   [bold]Zed[/]   #8, 2026-01-08\n"
        " Longest win streak           2   Aki            #2, 2026-01-02\n"
        "\n"
        "Personal bests\n"
        " Player         Games   Wins   Best total   Biggest win   Longest streak\n"
        "─────────────────────────────────────────────────────────────────────────\n"
        " [bold]Zed[/]       1      1           75            23                1\n"
        " Cho                3      1           70             5                1\n"
        " Aki                5      2           65            10                2\n"
        " Ben                4      2           61             3                1\n"
    )


def test_history_records_json(db_path: Path) -> None:
    hostile_history(db_path)
    found = json.loads(runner.invoke(app, ["history", "records", "tokaido", "--json"]).stdout)
    [tokaido] = found["games"]
    assert tokaido["game"] == "tokaido" and tokaido["plays"] == 5
    assert tokaido["highest_total"] == {
        "value": 75,
        "holders": [HOSTILE],
        "play": 8,
        "played_at": "2026-01-08T20:00:00Z",
    }
    assert tokaido["categories"] == {}  # one category only: the total is the record
    assert [(p["name"], p["plays"], p["wins"]) for p in tokaido["people"]][:2] == [
        (HOSTILE, 1, 1),
        ("Cho", 3, 1),
    ]
    assert tokaido["people"][1]["current_streak"] == 1
    every = json.loads(runner.invoke(app, ["history", "records", "--json"]).stdout)
    assert [g["game"] for g in every["games"]] == ["shibuya", "tokaido", "shogun"]


def test_history_ratings(db_path: Path) -> None:
    hostile_history(db_path)
    overall = runner.invoke(app, ["history", "ratings"])
    # Sorted by rating (skill minus three uncertainties): Ben's skill is higher than
    # Aki's, but less sure; Zed won the one game he played.
    assert overall.stdout == (
        "Ratings over every game (8 games rated)\n"
        " #   Player         Rating   Skill   Uncertainty   Games\n"
        "─────────────────────────────────────────────────────────\n"
        " 1   Aki               7.3    28.2           7.0       8\n"
        " 2   Ben               7.0    28.5           7.2       6\n"
        " 3   [bold]Zed[/]      4.3    28.4           8.0       1\n"
        " 4   Cho              -1.3    21.0           7.4       5\n"
        " 5   Dai              -4.6    18.9           7.8       2\n"
    )
    tokaido = json.loads(runner.invoke(app, ["history", "ratings", "tokaido", "--json"]).stdout)
    assert (tokaido["game"], tokaido["plays"]) == ("tokaido", 5)
    assert tokaido["ratings"][0] == {
        "rank": 1,
        "name": HOSTILE,
        "rating": 3.698,
        "mu": 27.8,
        "sigma": 8.034,
        "plays": 1,
    }
    assert [(r["name"], r["plays"]) for r in tokaido["ratings"][1:]] == [
        ("Ben", 4),
        ("Aki", 5),
        ("Cho", 3),
    ]


def test_nothing_to_show_yet(db_path: Path) -> None:
    assert runner.invoke(app, ["history", "records"]).stdout == (
        "No games recorded yet (interim scorings and ignored games do not count).\n"
    )
    assert runner.invoke(app, ["history", "ratings", "shogun"]).stdout == (
        "No Shogun games rated yet (interim scorings and ignored games do not count).\n"
    )
    assert json.loads(runner.invoke(app, ["history", "ratings", "--json"]).stdout) == {
        "game": None,
        "plays": 0,
        "ratings": [],
    }
    assert not db_path.exists()


def test_stats_show_the_average_length_per_game_and_player_count(db_path: Path) -> None:
    fill(db_path)  # 45 to 51 minutes
    table = runner.invoke(app, ["history", "stats"]).stdout
    assert table.endswith(
        "\n\nTime at the table (games whose length is known)\n"
        " Game      Players   Games   Average\n"
        "─────────────────────────────────────\n"
        " Shibuya         2       1    49 min\n"
        " Tokaido         2       1    50 min\n"
        " Tokaido         3       3    46 min\n"
        " Shogun          3       1    51 min\n"
        " Shogun          4       1    47 min\n"
    )
    lengths = json.loads(runner.invoke(app, ["history", "stats", "--json"]).stdout)["lengths"]
    assert lengths[2] == {"game": "tokaido", "players": 3, "plays": 3, "average_min": 46.3}
