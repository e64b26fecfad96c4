"""Real public BG Stats backups, trimmed and re-pointed at our games, import as they are."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.history.formats.dispatch import parse
from companion.history.store import History
from tests.support.import_files import FILES

WRAPPED = FILES / "bgstats-wrapped-sample.json"
"""From sqrtxander/bgstats-wrapped's sampleData.json: ``"team": "0"`` on the seats of
ordinary plays (``"usesTeams": false``), scores as strings, blank scores, ranks all 0,
upper-case uuids, the anonymous player."""
VISUALIZE = FILES / "bgstats-visualize-sample.json"
"""From blindawson/bgstats-visualize's export: scores as strings and as ``null``,
lower-case uuids, ranks 1..n, games that use teams without any team on a seat, the
plays listed before the players."""

Seats = list[tuple[str, int | None, bool]]

WRAPPED_SEATS: list[Seats] = [
    [("Darth Tyrannus", 77, False), ("Darth Vader", 82, False), ("Darth Maul", 94, True)],
    [("Darth Tyrannus", 64, True), ("Darth Vader", 35, False), ("Darth Maul", 48, False)],
    [("Darth Tyrannus", 67, False), ("Darth Vader", 83, True)],
    [("Darth Tyrannus", 53, False), ("Darth Vader", 80, True)],
    [("Darth Tyrannus", 46, False), ("Darth Vader", 71, True)],
    [("Darth Maul", 97, True), ("Darth Vader", 79, False), ("Darth Tyrannus", 63, False)],
    [("Darth Vader", 66, True), ("Darth Tyrannus", 41, False)],
    [("Darth Vader", 65, True), ("Darth Tyrannus", 55, False)],
    [("Darth Tyrannus", 37, False), ("Darth Vader", 38, True)],
    [
        ("Sheev Palpatine", 29, False),
        ("Darth Vader", 15, False),
        ("Darth Tyrannus", 34, True),
        ("Darth Malgus", 25, False),
    ],
    [("Darth Tyrannus", 31, False), ("Darth Vader", 35, True), ("Sheev Palpatine", 25, False)],
    [("Darth Vader", 33, True), ("Darth Tyrannus", 18, False), ("Sheev Palpatine", 32, False)],
    [("Darth Vader", 33, True), ("Darth Tyrannus", 31, False), ("Sheev Palpatine", 18, False)],
    [("Darth Vader", 41, True), ("Darth Tyrannus", 33, False), ("Darth Malgus", 32, False)],
    [("Darth Tyrannus", 29, False), ("Darth Vader", 30, True)],
    [("Darth Tyrannus", 38, True), ("Darth Vader", 37, False)],
    [("Darth Tyrannus", 23, False), ("Darth Vader", 38, True)],
    [("Darth Vader", 26, False), ("Yaddle", 32, True)],
    [("Yaddle", 61, False), ("Darth Vader", 111, True)],
    [("Yaddle", 21, False), ("Darth Vader", 60, True)],
    [("Darth Tyrannus", 62, True), ("Darth Vader", 50, False), ("Yaddle", 42, False)],
    [
        ("Anonymous player", 67, False),
        ("D-O", 31, True),
        ("Yaddle", 40, False),
        ("Darth Vader", 51, False),
    ],
    [("Darth Vader", None, False), ("Darth Maul", None, True)],
]
VISUALIZE_SEATS: list[Seats] = [
    [
        ("Annie", None, False),
        ("Ben", None, False),
        ("Brian", None, False),
        ("Garrett", None, False),
        ("Kevin", None, True),
    ],
    [
        ("Annie", 13, False),
        ("Ben", 19, True),
        ("Brian", 12, False),
        ("Garrett", 11, False),
        ("Kevin", 15, False),
    ],
    [
        ("Annie", 9, False),
        ("Ben", 18, False),
        ("Brian", 20, True),
        ("Garrett", 13, False),
        ("Kevin", 15, False),
    ],
    [
        ("Annie", 12, False),
        ("Ben", 20, True),
        ("Brian", 17, False),
        ("Garrett", 12, False),
        ("Kevin", 12, False),
    ],
    [
        ("Annie", 5, False),
        ("Ben", 14, False),
        ("Brian", 23, True),
        ("Garrett", 13, False),
        ("Kevin", 8, False),
    ],
    [
        ("Annie", None, True),
        ("Ben", None, False),
        ("Brian", None, False),
        ("Garrett", None, False),
        ("Kevin", None, False),
    ],
    [
        ("Annie", None, True),
        ("Ben", None, False),
        ("Brian", None, False),
        ("Garrett", None, False),
        ("Kevin", None, False),
    ],
    [
        ("Annie", None, False),
        ("Ben", None, False),
        ("Brian", None, False),
        ("Garrett", None, False),
        ("Kevin", None, True),
    ],
    [
        ("Annie", 95, True),
        ("Ben", 95, True),
        ("Brian", 95, True),
        ("Garrett", 95, True),
        ("Kevin", 95, True),
    ],
    [
        ("Annie", None, False),
        ("Ben", None, False),
        ("Brian", None, False),
        ("Garrett", None, False),
        ("Kevin", None, False),
    ],
    [
        ("Annie", None, True),
        ("Ben", None, True),
        ("Brian", None, True),
        ("Garrett", None, True),
        ("Kevin", None, True),
    ],
]


def seats(path: Path) -> list[Seats]:
    """Every play's seats as ``(name, total, won)``, in the order of the file."""
    return [
        [
            (s["name"], s["total"], s["name"] in play.result["winners"])
            for s in play.result["players"]
        ]
        for play in parse(path.read_text()).plays
    ]


@pytest.mark.parametrize(
    ("path", "expected"), [(WRAPPED, WRAPPED_SEATS), (VISUALIZE, VISUALIZE_SEATS)]
)
def test_every_seat_keeps_its_score_and_winner(path: Path, expected: list[Seats]) -> None:
    assert seats(path) == expected


def test_team_zero_on_a_play_without_teams_is_no_team() -> None:
    parsed = parse(WRAPPED.read_text())
    assert parsed.notes == []  # no scores were added up into a team
    assert all(len(p.persons) == len(p.result["players"]) for p in parsed.plays)
    assert not any(s["name"].startswith("Team ") for p in parsed.plays for s in p.result["players"])
    assert parsed.skipped_games == {"Patchwork": 1}


def test_ranks_are_kept_or_derived() -> None:
    wrapped = parse(WRAPPED.read_text()).plays
    # BG Stats wrote every rank as 0: the winner 1, the others by score.
    assert [s["rank"] for s in wrapped[0].result["players"]] == [3, 2, 1]
    assert [s["rank"] for s in wrapped[-2].result["players"]] == [2, 1, 4, 3]
    # Nobody scored: the winner is first, the others have no rank.
    assert [s["rank"] for s in wrapped[-1].result["players"]] == [None, 1]
    visualize = parse(VISUALIZE.read_text()).plays
    assert [s["rank"] for s in visualize[1].result["players"]] == [3, 1, 4, 5, 2]


def test_the_anonymous_player_stays_anonymous() -> None:
    play = parse(WRAPPED.read_text()).plays[-2]
    assert [(p.name, p.anonymous) for p in play.persons] == [
        ("Anonymous player", True),
        ("D-O", False),
        ("Yaddle", False),
        ("Darth Vader", False),
    ]


def test_uuids_of_either_case_import_once(db_path: Path) -> None:
    for path in (WRAPPED, VISUALIZE):
        data = json.loads(path.read_text())
        with History(db_path) as history:
            added, _ = history.add(parse(json.dumps(data)).plays)
            for play in data["plays"]:
                play["uuid"] = play["uuid"].swapcase()
            assert history.add(parse(json.dumps(data)).plays) == (0, added)


@pytest.mark.parametrize("digits", ["²", "١٢٣٥٤٠", "１２３５４０"])
def test_a_bgg_id_in_other_digits_is_a_problem_with_its_path(digits: str, db_path: Path) -> None:
    from typer.testing import CliRunner

    from companion.cli.app import app
    from scorers import ScoreFileError

    data = json.loads(WRAPPED.read_text())
    data["games"][0]["bggId"] = digits
    data["plays"][0]["expansionPlays"] = [{"bggId": digits, "gameRefId": 999}]
    with pytest.raises(ScoreFileError) as caught:
        parse(json.dumps(data))
    assert [str(p) for p in caught.value.problems] == [
        f"games[0].bggId: must be a BoardGameGeek id in the digits 0-9, got {digits!r}",
        f"plays[0].expansionPlays[0].bggId: must be a BoardGameGeek id in the digits 0-9, "
        f"got {digits!r}",
    ]
    bad = db_path.parent / "bad.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    result = CliRunner().invoke(app, ["history", "import", str(bad)])
    assert result.exit_code == 2
    assert "games[0].bggId" in result.output
    assert not db_path.exists() or History(db_path).plays() == []
