"""A refused answer at a text prompt is cleared from the input line, not typed onto."""

from __future__ import annotations

from pathlib import Path

from tests.support.play_helpers import run, saved, sel, txt
from tests.support.play_scripts import shibuya_keys


def test_a_refused_name_is_cleared_before_the_next_one_is_typed(db_path: Path) -> None:
    # "aki" is refused when Aki plays already; "Ben" is then typed on an empty line.
    keys = sel(0) + txt("Aki") + txt("aki") + txt("Ben")
    keys += shibuya_keys()[len(sel(0) + txt("Aki") + txt("Ben")) :]
    result = run(["play", "shibuya"], keys)
    assert result.exit_code == 0, result.output
    [game] = saved(db_path)
    assert [p["name"] for p in game["score_file"]["players"]] == ["Aki", "Ben"]


def test_a_name_too_long_is_cleared_too(db_path: Path) -> None:
    keys = sel(0) + txt("x" * 41) + txt("Aki") + txt("Ben")
    keys += shibuya_keys()[len(sel(0) + txt("Aki") + txt("Ben")) :]
    result = run(["play", "shibuya"], keys)
    assert result.exit_code == 0, result.output
    [game] = saved(db_path)
    assert [p["name"] for p in game["score_file"]["players"]] == ["Aki", "Ben"]
