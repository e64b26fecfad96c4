"""The faces never name a game: no branch on a game id and no table keyed by one outside the kits.

A game id written as a string in the code (``== "shogun"``, ``{"shimoda": ...}``) is
allowed only in that game's own scorer and kit, and in the registry's one list
of the games. Everything else reads the kit (:mod:`companion.kits`).
"""

from __future__ import annotations

import ast
from pathlib import Path

from scorers import GAME_IDS

ROOT = Path(__file__).resolve().parents[2]


def allowed(path: Path, game: str) -> bool:
    relative = path.relative_to(ROOT).as_posix()
    return relative in (
        "scorers/__init__.py",  # the registry: the one list of the games
        f"scorers/{game}.py",
    ) or relative.startswith(f"companion/kits/{game}/")


def named_games(path: Path) -> list[tuple[int, str]]:
    """``(line, game)`` for each string constant in the file that is exactly a game id."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and node.value in GAME_IDS:
            found.append((node.lineno, str(node.value)))
    return found


def test_no_game_id_outside_its_scorer_and_its_kit() -> None:
    found = []
    for package in ("companion", "scorers"):
        for path in sorted((ROOT / package).rglob("*.py")):
            for line, game in named_games(path):
                if not allowed(path, game):
                    found.append(f"{path.relative_to(ROOT)}:{line}: {game!r}")
    assert found == []


def test_the_check_finds_a_branch_on_a_game(tmp_path: Path) -> None:
    sample = tmp_path / "face.py"
    sample.write_text('def width(game):\n    return 3 if game == "shogun" else 2\n')
    assert named_games(sample) == [(2, "shogun")]
