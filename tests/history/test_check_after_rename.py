"""``history check`` after the README's ``rename`` example: no note for any game."""

from __future__ import annotations

from pathlib import Path

from tests.support.play_helpers import run
from tests.support.play_scripts import shibuya


def test_a_renamed_player_is_no_edit_of_a_played_along_game(db_path: Path) -> None:
    for count in (2, 4):
        script = shibuya(count)
        assert run(script.args, script.keys()).exit_code == 0
    renamed = run(["history", "rename", "Ben", "Benjamin"], "")
    assert renamed.exit_code == 0, renamed.output
    checked = run(["history", "check"], "")
    assert checked.exit_code == 0, checked.output
    assert "Note" not in checked.stdout
    assert "differs" not in checked.stdout
