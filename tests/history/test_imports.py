"""Imports of real-shaped BG Stats backups and of our own json, and bad files."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from companion.history.formats import bgstats, bounded
from companion.history.formats.bgstats import score_value
from companion.history.formats.bounded import Parsed
from companion.history.formats.dispatch import parse, read_import
from companion.history.model import Expansion, Person
from companion.history.store import History
from scorers import ScoreFileError
from tests.support.import_files import BACKUP, ours

FILES = Path(__file__).parents[1] / "files"


def backup() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(BACKUP.read_text())
    return data


def problems(document: object) -> list[str]:
    text = document if isinstance(document, str) else json.dumps(document)
    with pytest.raises(ScoreFileError) as caught:
        parse(text)
    return [str(p) for p in caught.value.problems]


def test_a_real_shaped_backup(db_path: Path) -> None:
    parsed = parse(BACKUP.read_text())
    assert parsed.skipped_games == {"Catan": 1, "Shogun": 1}
    assert parsed.notes == ["the Tokaido play of 2026-10-03: Ben: score 57.5 rounded to 58"]
    with History(db_path) as history:
        assert history.add(parsed.plays, keep_ids=False) == (5, 0)
        tokaido, shogun, shibuya, ignored, unmarked = history.plays()
    assert tokaido.uuid == "5A1C0E00-0000-4000-8000-00000000000A"
    assert [(s["name"], s["total"], s["rank"]) for s in tokaido.result["players"]] == [
        ("Aki", 80, 1),  # 58+10+4+4+4
        ("Ben", 58, 2),  # 57.5, rounded
        ("Cho", None, 3),  # blank: not scored, never 0
    ]
    assert tokaido.result["notes"] == ["Ben: score 57.5 rounded to 58"]
    assert tokaido.expansions == (Expansion("Tokaido: Crossroads", 179245),)
    assert (tokaido.location, tokaido.notes, tokaido.duration_min) == (
        "Game cafe",
        "Crossroads for the first time",
        50,
    )
    assert tokaido.starter == Person("Ben", 1)
    # Shōgun is matched by its BoardGameGeek id; nobody was marked winner.
    assert shogun.game == "shogun"
    assert shogun.result["winners"] == []
    assert [(s["name"], s["total"], s["rank"]) for s in shogun.result["players"]] == [
        ("Aki", 40, 2),
        ("Ben", None, None),
        ("Dai", 44, 1),
    ]
    assert shibuya.players == ["Red", "Blue"]
    assert [(p.name, p.side) for p in shibuya.persons] == [
        ("Aki", 0),
        ("Ben", 1),
        ("Cho", 0),
        ("Dai", 1),
    ]
    assert shibuya.result["winners"] == ["Red"]
    assert [(s["total"], s["rank"]) for s in shibuya.result["players"]] == [(6, 1), (3, 2)]
    assert shibuya.starter == Person("Ben", 1)
    assert ignored.ignored
    assert ignored.persons == (
        Person("Anonymous player", 0, True),
        Person("Aki", 1),
        Person("Anonymous player 2", 2, True),
    )
    assert unmarked.result["winners"] == []
    assert [s["rank"] for s in unmarked.result["players"]] == [2, 1]


def test_upper_case_uuids_are_already_there(db_path: Path) -> None:
    data = backup()
    with History(db_path) as history:
        history.add(parse(json.dumps(data)).plays)
        for play in data["plays"]:
            play["uuid"] = play["uuid"].swapcase()
        assert history.add(parse(json.dumps(data)).plays) == (0, 5)


def test_a_player_twice_in_our_game_names_the_play() -> None:
    data = backup()
    data["plays"][0]["playerScores"][1]["playerRefId"] = 1
    assert problems(data) == [
        "plays[0].playerScores[1].playerRefId: Aki is twice in the Tokaido play of "
        "2026-10-03 (also at playerScores[0])"
    ]


@pytest.mark.parametrize(
    ("score", "expected"),
    [
        ("58+10+4+4+4", (80, None)),
        ("10 - 3", (7, None)),
        ("-4", (-4, None)),
        ("57.5", (58, "score 57.5 rounded to 58")),
        (12.25, (12, "score 12.25 rounded to 12")),
        ("", (None, None)),
        (None, (None, None)),
        (7, (7, None)),
    ],
)
def test_scores(score: object, expected: tuple[int | None, str | None]) -> None:
    assert score_value(score) == expected


@pytest.mark.parametrize("score", ["--5", "²", "5+*", "1e3", True, [1], {"a": 1}, "9" * 30])
def test_not_scores(score: object) -> None:
    with pytest.raises(ValueError):
        score_value(score)


def test_our_export_is_read() -> None:
    parsed = parse(json.dumps(ours()))
    assert len(parsed.plays) == 1 and parsed.plays[0].game == "tokaido"


def _set(document: dict[str, Any], path: str, value: object) -> dict[str, Any]:
    target: Any = document
    keys = path.split(".")
    for key in keys[:-1]:
        target = target[int(key)] if key.isdigit() else target[key]
    last = keys[-1]
    if value is _DELETE:
        del target[last]
    elif last.isdigit():
        target[int(last)] = value
    else:
        target[last] = value
    return document


_DELETE = object()
DEEP = "[" * 2000 + "]" * 2000

# The targeted files that crashed the importer before, each answered with problems.
CRASHES: list[tuple[str, object, str, object, str]] = [
    ("ours", None, "plays.0.id", [1], "plays[0].id: must be a whole number, got a list"),
    ("ours", None, "plays.0.id", 2**63, "plays[0].id: must be between 1 and"),
    ("ours", None, "plays.0.uuid", {"a": 1}, "plays[0].uuid: must be a text"),
    ("ours", None, "plays.0.source", _DELETE, "plays[0].source: missing"),
    ("ours", None, "plays.0.id", _DELETE, "plays[0].id: missing"),
    ("ours", None, "plays.0.score_file", "{not json", "plays[0].score_file: not a valid tokaido"),
    ("ours", None, "plays.0.score_file", "[]", "plays[0].score_file: not a valid tokaido"),
    (
        "ours",
        None,
        "plays.0.result.players.0.breakdown",
        [1],
        "plays[0].result.players[0].breakdown: must be an object",
    ),
    (
        "ours",
        None,
        "plays.0.result.players.0.total",
        2**64,
        "plays[0].result.players[0].total: must be between",
    ),
    (
        "ours",
        None,
        "plays.0.result.winners.0",
        "Nobody",
        "plays[0].result.winners[0]: must be the name of one of the players",
    ),
    (
        "ours",
        None,
        "plays.0.result.players.0.total",
        1,
        "plays[0].score_file: re-scored, it does not give the stored result",
    ),
    ("ours", None, "plays.0.played_at", "2026-02-30", "plays[0].played_at: '2026-02-30' is not"),
    ("ours", None, "plays.0.start_player", 9, "plays[0].start_player: there are only"),
    ("ours", None, "plays", 7, "plays: must be a list"),
    ("bgstats", None, "games", 7, "games: must be a list"),
    ("bgstats", None, "plays.0.gameRefId", [10], "plays[0].gameRefId: must be the id of a game"),
    ("bgstats", None, "players.0.id", {"x": 1}, "players[0].id: must be a number or a text"),
    ("bgstats", None, "plays.0.playerScores.0.score", [5], "plays[0].playerScores[0].score:"),
    ("bgstats", None, "plays.0.playerScores.0.score", True, "plays[0].playerScores[0].score:"),
    ("bgstats", None, "plays.0.playDate", "2026-13-01", "plays[0].playDate: must be a real date"),
    ("bgstats", None, "players.0.name", "Al\x1b[31m", "players[0].name: the name must not"),
]


@pytest.mark.parametrize(("kind", "_", "path", "value", "expected"), CRASHES)
def test_targeted_bad_files_name_the_place(
    kind: str, _: object, path: str, value: object, expected: str
) -> None:
    document = _set(ours() if kind == "ours" else backup(), path, value)
    found = problems(document)
    assert any(p.startswith(expected) for p in found), found


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("[1, 2]", "$: neither a companion json export nor a BG Stats export"),
        ("{nope", "$: not valid JSON: Expecting property name enclosed in double quotes"),
        (DEEP, "$: nested more than 64 levels deep"),
        ('{"players": [], "players": [], "games": [], "plays": []}', "players: this key is given"),
        ('{"players": ["\\ud800"], "games": [], "plays": []}', "players[0]: holds an unpaired"),
        ('{"format": "companion-history", "version": 9, "plays": []}', "version: unknown version"),
    ],
)
def test_bad_json_names_the_place(text: str, expected: str) -> None:
    found = problems(text)
    assert found[0].startswith(expected), found


def test_too_many_problems_are_counted() -> None:
    data = backup()
    data["plays"] = [dict(data["plays"][0], playDate="never") for _ in range(300)]
    found = problems(data)
    assert len(found) == 101
    assert found[-1] == "$: ... and 200 more problems"


def test_other_games_never_block(db_path: Path) -> None:
    """The Catan play has a player twice and a player with a blank name: fine."""
    data = backup()
    data["plays"][5]["playerScores"][0]["score"] = "not a score"
    assert len(parse(json.dumps(data)).plays) == 5


def _player_uuids(text: str) -> dict[str, str]:
    return {p["name"]: p["uuid"] for p in json.loads(text)["players"]}


def test_bgstats_people_keep_their_uuids(db_path: Path, tmp_path: Path) -> None:
    """An export gives BG Stats' people their own uuids again, so a round trip or a
    merge in the app finds the same players (and its anonymous player)."""
    from companion.history.formats.dispatch import export

    listed = {p["name"]: p["uuid"] for p in backup()["players"]}
    with History(db_path) as history:
        parsed = parse(BACKUP.read_text())
        history.add(parsed.plays, keep_ids=False, player_uuids=parsed.player_uuids)
        text = export(history.plays(), "bgstats", player_uuids=history.player_uuids())
        lossless = export(history.plays(), "json", player_uuids=history.player_uuids())
    assert _player_uuids(text) == {
        name: listed[name] for name in ("Aki", "Ben", "Cho", "Dai", "Anonymous player")
    }
    # Through our own json backup into another history, and out again.
    other = tmp_path / "other.sqlite3"
    with History(other) as history:
        parsed = parse(lossless)
        assert parsed.player_uuids["aki"] == listed["Aki"]
        history.add(parsed.plays, player_uuids=parsed.player_uuids)
        again = export(history.plays(), "bgstats", player_uuids=history.player_uuids())
    assert _player_uuids(again) == _player_uuids(text)
    # Back in: every play is already there, and a person keeps the uuid they have.
    changed = json.loads(text)
    for player in changed["players"]:
        player["uuid"] = player["uuid"][::-1]
    with History(db_path) as history:
        parsed = parse(json.dumps(changed))
        assert history.add(parsed.plays, player_uuids=parsed.player_uuids) == (0, 5)
        assert history.player_uuids()["aki"] == listed["Aki"]


@pytest.mark.parametrize(
    ("entry", "expected"),
    [
        ({"name": "Aki", "uuid": ""}, "players[0].uuid: must be a text of 1 to 100 characters"),
        ({"name": "Aki", "uuid": "x" * 101}, "players[0].uuid: must be a text of 1 to 100"),
        ({"name": "Al\x1b[31m", "uuid": "U"}, "players[0].name: the name must not"),
        ({"uuid": "U"}, "players[0].name: missing"),
        ({"name": "Aki", "uuid": "U", "anonymous": 1}, "players[0].anonymous: must be true"),
    ],
)
def test_player_uuids_in_our_json_are_checked(entry: dict[str, Any], expected: str) -> None:
    document = ours()
    document["players"] = [entry]
    found = problems(document)
    assert any(p.startswith(expected) for p in found), found


def test_the_commands_carry_the_uuids(db_path: Path) -> None:
    from typer.testing import CliRunner

    from companion.cli.app import app

    runner = CliRunner()
    assert runner.invoke(app, ["history", "import", str(BACKUP)]).exit_code == 0
    exported = runner.invoke(app, ["history", "export", "--format", "bgstats"])
    assert _player_uuids(exported.stdout)["Aki"] == "0B6F0D7C-1111-4A8E-9A55-000000000001"
    lossless = json.loads(runner.invoke(app, ["history", "export", "--format", "json"]).stdout)
    assert {"name": "Aki", "uuid": "0B6F0D7C-1111-4A8E-9A55-000000000001"} in lossless["players"]


@pytest.mark.parametrize(
    ("meta", "status", "ignored"),
    [
        ('{"companionStatus":"interim","companionIgnored":false}', "interim", False),
        ('{"companionStatus":"interim","companionIgnored":true}', "interim", True),
        ({"companionStatus": "interim"}, "interim", False),
        ('{"playUsedGameCopy":2}', "final", False),
        ("companionStatus, not JSON", "final", False),
        ('[[[[[["companionStatus"]]]]]]', "final", False),
        ('{"companionStatus":"interim","companionStatus":"final"}', "final", False),
        ("", "final", False),
        (12345, "final", False),
    ],
)
def test_an_interim_scoring_comes_back_from_bg_stats(
    meta: object, status: str, ignored: bool
) -> None:
    """Our bgstats export writes an interim scoring as an ignored play with a note in
    its metaData; anything else in metaData leaves the play as BG Stats has it."""
    data = backup()
    data["plays"][0]["metaData"] = meta
    data["plays"][0]["ignored"] = True
    first = parse(json.dumps(data)).plays[0]
    expected_ignored = ignored if status == "interim" else True
    assert (first.status, first.ignored) == (status, expected_ignored)


def test_a_bad_name_or_place_used_by_many_plays_is_one_problem() -> None:
    """A player or location every play points at is reported once, not once per play."""
    data = backup()
    data["players"][0]["name"] = "Dad [/]\u200b"  # Aki: in four plays of our games
    data["locations"][0]["name"] = "[red]x\x1b[2J"  # the game cafe: cleaned, no problem
    assert problems(data) == [
        "players[0].name: the name must not contain the invisible character U+200B "
        "(zero width space)",
    ]


# ---------------------------------------------------------------- large and hostile files


def good_backup(count: int) -> dict[str, Any]:
    """The backup with ``count`` copies of its first play (a Tokaido play), uuids apart."""
    data = backup()
    first = data["plays"][0]
    data["plays"] = [dict(first, uuid=f"5A1C0E00-0000-4000-8000-{k:012d}") for k in range(count)]
    return data


def summary(parsed: Parsed) -> list[tuple[Any, ...]]:
    return [(p.uuid, p.location, p.result, p.people, p.expansions) for p in parsed.plays]


def test_a_hopeless_file_is_read_no_further() -> None:
    data = good_backup(1200)
    for play in data["plays"]:
        play["playDate"] = "never"  # one problem each
    text = json.dumps(data)[:-3] + "not JSON"  # never reached
    found = problems(text)
    assert len(found) == 101
    assert found[0] == "plays[0].playDate: must be a real date such as 2026-11-30 20:15:00"
    assert found[-1] == (
        "$: ... and 901 more problems; reading stopped at plays[1000], too many problems to read on"
    )


def test_too_many_good_plays_are_counted_before_they_are_checked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(bounded, "MAX_PLAYS", 20)
    monkeypatch.setattr(bounded, "COUNT_AFTER", 5)
    checked: list[str] = []
    real = bgstats._bgstats_play

    def counted(r: Any, raw: dict[str, Any], path: str, *args: Any) -> Any:
        checked.append(path)
        return real(r, raw, path, *args)

    monkeypatch.setattr(bgstats, "_bgstats_play", counted)
    assert problems(good_backup(21)) == ["plays: must have at most 20 entries, got more"]
    assert checked == [f"plays[{k}]" for k in range(5)]

    checked.clear()
    parsed = parse(json.dumps(good_backup(20)))  # counted, then read again and checked on
    assert checked == [f"plays[{k}]" for k in range(20)]  # each once
    monkeypatch.setattr(bounded, "COUNT_AFTER", 10**9)
    assert summary(parsed) == summary(parse(json.dumps(good_backup(20))))
    assert len(parsed.plays) == 20 and parsed.notes == parse(json.dumps(good_backup(20))).notes


@pytest.mark.parametrize(
    "order",
    [
        ["plays", "players", "games", "locations"],  # what the plays need comes after them
        ["players", "games", "plays", "locations"],  # the places are looked up at the end
        ["plays", "locations", "games", "players"],
    ],
)
def test_the_order_of_the_keys_does_not_matter(
    monkeypatch: pytest.MonkeyPatch, order: list[str]
) -> None:
    monkeypatch.setattr(bounded, "COUNT_AFTER", 2)
    data = backup()
    expected = parse(json.dumps(data))
    reordered = {key: data[key] for key in order}
    found = parse(json.dumps(reordered))
    assert summary(found) == summary(expected)
    assert (found.skipped_games, found.notes) == (expected.skipped_games, expected.notes)
    assert [p.location for p in found.plays] == [
        "Game cafe",
        "Aki's place",
        "Aki's place",
        "Game cafe",
        "Aki's place",
    ]


def test_a_list_of_players_is_read_no_further_than_its_limit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(bounded, "MAX_LISTED", 5)
    data = backup()
    data["players"] = [dict(data["players"][0], id=k) for k in range(6)]
    text = json.dumps(data).replace('"plays": [', '"plays": [not JSON')  # never reached
    assert problems(text) == ["players: must have at most 5 entries, got more"]


def test_players_games_and_places_are_limited_apart_from_plays() -> None:
    assert bounded.MAX_LISTED == 20_000 < bounded.MAX_PLAYS
    data = backup()
    data["games"] = [dict(data["games"][0], id=k) for k in range(20_001)]
    assert problems(data) == ["games: must have at most 20000 entries, got more"]


def test_our_export_is_counted_and_read_again(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bounded, "COUNT_AFTER", 2)
    data = ours()
    first = data["plays"][0]
    data["plays"] = [
        dict(first, id=k + 1, uuid=f"2b1a4c4e-0000-4000-8000-{k:012d}") for k in range(5)
    ]
    assert [p.id for p in parse(json.dumps(data)).plays] == [1, 2, 3, 4, 5]
    monkeypatch.setattr(bounded, "MAX_PLAYS", 4)
    assert problems(data) == ["plays: must have at most 4 entries, got more"]


def test_a_duplicate_key_in_one_play_is_listed_alone() -> None:
    data = backup()
    head = json.dumps({key: data[key] for key in ("players", "locations", "games")})[:-1]
    plays = [json.dumps(play) for play in data["plays"]]
    plays[2] = plays[2][:-1] + ', "ignored": true, "ignored": false}'
    plays[4] = plays[4].replace('"playDate": "', '"playDate": "never', 1)  # (not listed)
    text = head + ', "plays": [' + ", ".join(plays) + "]}"
    assert problems(text) == ["plays[2].ignored: this key is given more than once"]


def test_after_a_duplicate_key_the_plays_are_read_while_more_come() -> None:
    """The file is refused: past 100 plays without another such problem, reading stops."""
    data = good_backup(300)
    head = json.dumps({key: data[key] for key in ("players", "locations", "games")})[:-1]
    plays = [json.dumps(play) for play in data["plays"]]
    for k in (3, 50):
        plays[k] = plays[k][:-1] + ', "ignored": true, "ignored": false}'
    plays[200] = plays[200][:-1] + ', "ignored": true, "ignored": false}'  # not reached
    text = head + ', "plays": [' + ", ".join(plays) + "]} and no JSON after"
    assert problems(text) == [
        "plays[3].ignored: this key is given more than once",
        "plays[50].ignored: this key is given more than once",
        "$: reading stopped at plays[150], the rest were not read",
    ]


def test_a_large_file_that_is_not_an_import_is_not_read_whole() -> None:
    assert problems("[" + "1, " * 600_000 + "1]") == [
        "$: neither a companion json export nor a BG Stats export (players, games, plays)"
    ]


def test_standard_input_is_read_twice_when_needed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bounded, "COUNT_AFTER", 3)
    text = json.dumps(good_backup(8)).encode()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text)))
    assert read_import("-").count == 8


def test_the_command_imports_from_standard_input(db_path: Path) -> None:
    from typer.testing import CliRunner

    from companion.cli.app import app

    command = ["history", "import", "-", "--db", str(db_path)]
    result = CliRunner().invoke(app, command, input=BACKUP.read_bytes())
    assert result.exit_code == 0, result.output
    assert result.output.startswith("Imported 5 games; 0 were already in the history.\n")
    refused = CliRunner().invoke(app, command, input=b'{"plays": [1, 2, 3]}')
    assert refused.exit_code == 2
    assert refused.output == (
        "Error: - cannot be imported (1 problem); nothing was imported:\n"
        "  $: neither a companion json export nor a BG Stats export (players, games, plays)\n"
    )
