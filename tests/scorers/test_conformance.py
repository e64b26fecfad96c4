"""One conformance test over every registered scorer, on generated valid files."""

from __future__ import annotations

import ast
import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorers import SCORERS
from tests.support.strategies import STRATEGIES

SCORERS_DIR = Path(__file__).resolve().parents[2] / "scorers"


def test_every_registered_scorer_has_a_strategy() -> None:
    assert set(STRATEGIES) == set(SCORERS)


@pytest.mark.slow
@pytest.mark.parametrize("game", sorted(SCORERS))
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_scorer_conformance(game: str, data: st.DataObject) -> None:
    file = data.draw(STRATEGIES[game], label="score file")
    scorer = SCORERS[game]
    original = copy.deepcopy(file)

    result = scorer.score_json(file).to_json()

    assert file == original, "the scorer changed its input"
    assert scorer.score_json(copy.deepcopy(file)).to_json() == result, "not deterministic"
    assert json.loads(json.dumps(result)) == result
    assert result["game"] == game
    players = result["players"]
    assert [p["name"] for p in players] == [p["name"] for p in file["players"]]
    for p in players:
        assert sum(p["breakdown"].values()) == p["total"]
        assert set(p["breakdown"]) <= set(scorer.info.categories)
        assert all(type(v) is int and v >= 0 for v in p["breakdown"].values())
    _check_ranks(players, result)


def _check_ranks(players: list[dict[str, Any]], result: dict[str, Any]) -> None:
    for a in players:
        # Competition ranking: 1 + the number of players placed strictly better.
        assert a["rank"] == 1 + sum(1 for b in players if b["rank"] < a["rank"])
        for b in players:
            if a["total"] > b["total"]:
                assert a["rank"] < b["rank"]
    assert result["winners"] == [p["name"] for p in players if p["rank"] == 1]
    top = max(p["total"] for p in players)
    tied_on_top = [p for p in players if p["total"] == top]
    if len(tied_on_top) == 1:
        assert result["tiebreak"] is None
    if len(result["winners"]) == len(tied_on_top) and len(tied_on_top) > 1:
        assert result["tiebreak"] is None
    if result["tiebreak"] is not None:
        assert len(result["winners"]) < len(tied_on_top)


FORBIDDEN = {"companion", "os", "io", "pathlib", "sqlite3", "sys", "subprocess", "shutil", "socket"}


@pytest.mark.parametrize("path", sorted(SCORERS_DIR.glob("*.py")), ids=lambda p: p.name)
def test_scorers_do_no_io_and_import_nothing_from_companion(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots = {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            roots = {(node.module or "").split(".")[0]}
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            assert node.func.id not in {"open", "print", "input"}, (
                f"{path.name} calls {node.func.id}"
            )
            continue
        else:
            continue
        assert not roots & FORBIDDEN, f"{path.name} imports {roots & FORBIDDEN}"


@pytest.mark.parametrize("game", sorted(SCORERS))
def test_module_docstring_names_its_rulebook_and_categories(game: str) -> None:
    import importlib

    module = importlib.import_module(SCORERS.module_of(game))
    doc = module.__doc__ or ""
    info = SCORERS[game].info
    assert info.rulebook in doc
    for category in info.categories:
        assert f"{category}" in doc, f"{game} docstring does not name {category}"
