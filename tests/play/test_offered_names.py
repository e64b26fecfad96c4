"""The names offered at a new game are people: a team game's members, never its sides."""

from __future__ import annotations

from pathlib import Path

from companion.history.store import History
from tests.support.play_helpers import run
from tests.support.play_scripts import shibuya


def test_after_only_team_games_the_members_are_offered_and_no_team_name(db_path: Path) -> None:
    script = shibuya(4)
    result = run(script.args, script.keys())
    assert result.exit_code == 0, result.output
    with History(db_path) as history:
        offered = history.known_names()
    assert sorted(offered) == ["Aki", "Ben", "Cho", "Dai"]
