"""Conformance of every registered game's facts: complete, well-formed and consistent.

Each game's module declares its facts once, in ``INFO``; every list of games
elsewhere is read from the registry, so these checks hold for all of them.
"""

from __future__ import annotations

import copy
import importlib
import json
import pkgutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import scorers
from scorers import GAME_IDS, SCORERS, find_game, short_title, title
from tests.support.strategies import STRATEGIES

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
MOST_PLAYERS = 8
"""No game of the box seats more than this (a sanity bound on player counts)."""
TEAMS = 2
"""A team game is played by two teams, one side each."""

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=10,
)


def test_ids_are_unique_and_in_the_registry_order() -> None:
    assert tuple(SCORERS) == GAME_IDS
    assert len(set(GAME_IDS)) == len(GAME_IDS)
    assert all(game and game == game.strip().casefold() for game in GAME_IDS)


def test_every_game_module_is_registered() -> None:
    declared = set()
    for found in pkgutil.iter_modules(scorers.__path__):
        if not found.name.startswith("_"):
            module = importlib.import_module(f"scorers.{found.name}")
            if hasattr(module, "INFO"):
                declared.add(found.name)
    built_in = {g for g in GAME_IDS if SCORERS.module_of(g) == f"scorers.{g}"}
    assert declared == built_in
    assert set(GAME_IDS) - built_in == {"orchard"}  # the test suite's own, registered from tests


@pytest.mark.parametrize("game", GAME_IDS)
def test_a_game_is_registered_by_its_modules_name(game: str) -> None:
    module = importlib.import_module(SCORERS.module_of(game))
    assert module.INFO is SCORERS[game].info
    assert SCORERS[game].info.id == game


@pytest.mark.parametrize("game", GAME_IDS)
def test_titles(game: str) -> None:
    info = SCORERS[game].info
    for name in (info.title, info.short_title, *info.aliases):
        assert name and name == name.strip()
    assert info.title.startswith(info.short_title)
    assert title(game) == info.title
    assert short_title(game) == info.short_title
    for name in (info.title, info.short_title, *info.aliases):
        assert find_game(name).info.id == game


def test_titles_are_unique_and_unknown_games_keep_their_name() -> None:
    titles = [SCORERS[game].info.title for game in GAME_IDS]
    shorts = [SCORERS[game].info.short_title for game in GAME_IDS]
    assert len(set(titles)) == len(titles)
    assert len(set(shorts)) == len(shorts)
    assert title("Catan") == short_title("Catan") == "Catan"


@pytest.mark.parametrize("game", GAME_IDS)
def test_player_counts(game: str) -> None:
    info = SCORERS[game].info
    counts, teams = info.player_counts, info.team_counts
    assert counts, "a game is played by some number of players"
    assert all(type(n) is int and 1 <= n <= MOST_PLAYERS for n in counts)
    assert list(counts) == sorted(set(counts)), "smallest first, each once"
    assert set(teams) <= set(counts)
    assert all(n % TEAMS == 0 for n in teams)
    # The sides of every count are exactly the entries a score file may have.
    sides = {TEAMS if n in teams else n for n in counts}
    assert 1 <= info.min_players <= info.max_players
    assert sides == set(range(info.min_players, info.max_players + 1))


@pytest.mark.parametrize("game", GAME_IDS)
def test_every_category_has_a_label(game: str) -> None:
    info = SCORERS[game].info
    assert len(set(info.categories)) == len(info.categories)
    assert set(info.labels) == set(info.categories)
    for label in info.labels.values():
        assert label.startswith("the ") and label == label.strip(), label
    one, many = info.unit
    assert one and many and one != many


@pytest.mark.parametrize("game", GAME_IDS)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_labels_cover_what_the_scorer_reports(game: str, data: st.DataObject) -> None:
    file = data.draw(STRATEGIES[game], label="score file")
    info = SCORERS[game].info
    for player in SCORERS[game].score_json(file).players:
        assert {category for category, _ in player.breakdown} <= set(info.labels)


@pytest.mark.parametrize("game", GAME_IDS)
def test_bgg_id(game: str) -> None:
    bgg_id = SCORERS[game].info.bgg_id
    assert bgg_id is None or (type(bgg_id) is int and bgg_id > 0)


def test_bgg_ids_are_unique() -> None:
    known = [SCORERS[game].info.bgg_id for game in GAME_IDS]
    confirmed = [bgg_id for bgg_id in known if bgg_id is not None]
    assert len(set(confirmed)) == len(confirmed)


@pytest.mark.parametrize("game", GAME_IDS)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_the_interim_rule_reads_any_file_without_changing_it(
    game: str, data: st.DataObject
) -> None:
    info = SCORERS[game].info
    file = data.draw(STRATEGIES[game] | JSON, label="file")
    original = copy.deepcopy(file)
    interim = info.is_interim(file)
    assert type(interim) is bool
    assert file == original
    if info.interim is None:
        assert not interim
    if not isinstance(file, dict):
        assert not interim


@pytest.mark.parametrize(
    ("game", "file", "interim"),
    [
        ("shogun", {"year": 1, "players": []}, True),
        ("shogun", {"year": 2, "players": []}, False),
        ("shogun", {"players": []}, False),
        ("shogun", None, False),
        ("tokaido", {"year": 1, "players": []}, False),
    ],
)
def test_the_interim_rule_on_samples(game: str, file: object, interim: bool) -> None:
    assert SCORERS[game].info.is_interim(file) is interim


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.json")), ids=lambda p: p.name)
def test_the_interim_rule_on_the_examples(path: Path) -> None:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    game = find_game(data["game"]).info.id
    expected = game == "shogun" and data.get("year") == 1
    assert SCORERS[game].info.is_interim(data) is expected


def test_facts_by_id_load_only_the_game_asked_for() -> None:
    code = (
        "import sys, scorers\n"
        "titles = scorers.SCORERS.facts(lambda info: info.title)\n"
        "assert list(titles) == list(scorers.GAME_IDS) and 'tokaido' in titles\n"
        "before = sorted(m for m in sys.modules if m.split('.')[-1] in scorers.GAME_IDS)\n"
        "titles['tokaido']\n"
        "after = sorted(m for m in sys.modules if m.split('.')[-1] in scorers.GAME_IDS)\n"
        "print(before, after)\n"
    )
    shown = subprocess.run(
        [sys.executable, "-c", code], check=True, capture_output=True, text=True, cwd=ROOT
    ).stdout
    assert shown.split() == ["[]", "['scorers.tokaido']"]
