"""The package's layers: what may import what, no circles, and who holds the history's connection.

The layers, from the ground up (docs/development.md, "The layout"): ``scorers``; the root
modules of ``companion`` and ``companion.rules``; ``analysis``; ``history``;
``terminal``; ``play``; ``widgets``; ``cli``. A module imports from its own
layer or a lower one, never from a higher one, and no modules import each other
in a circle, whether the import is at the top of the file or inside a function.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LAYERS = {
    "scorers": 0,
    "companion": 1,  # the package's root modules
    "companion.rules": 1,
    "companion.analysis": 2,
    "companion.history": 3,
    "companion.club": 4,  # a club's ledger on PostgreSQL: over the history, under the CLI
    "companion.terminal": 4,
    "companion.voice": 4,  # the end count by voice: pocketsphinx and a grammar per question
    "companion.play": 5,
    "companion.kits": 5,  # a game's kit: its facts, its pad description, its play-along flow
    "companion.widgets": 6,
    "companion.cli": 7,
    "companion.__main__": 8,
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@cache
def modules() -> dict[str, Path]:
    found = {}
    for package in ("scorers", "companion"):
        for path in sorted((ROOT / package).rglob("*.py")):
            found[module_name(path)] = path
    return found


def layer(module: str) -> int:
    """The layer of a module: its longest prefix in LAYERS."""
    parts = module.split(".")
    for k in range(len(parts), 0, -1):
        prefix = ".".join(parts[:k])
        if prefix in LAYERS:
            return LAYERS[prefix]
    raise AssertionError(f"{module} is in no layer")


@cache
def imports_of(module: str) -> frozenset[str]:
    """The modules of this tree that ``module`` imports, anywhere in its file."""
    path = modules()[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)
    known = modules()
    return frozenset(n for n in names if n in known and n != module)


def test_every_module_is_in_a_layer() -> None:
    for module in modules():
        layer(module)


def test_no_module_imports_from_a_higher_layer() -> None:
    upward = [
        f"{module} (layer {layer(module)}) imports {other} (layer {layer(other)})"
        for module in modules()
        for other in sorted(imports_of(module))
        if layer(other) > layer(module)
    ]
    assert upward == []


def test_scorers_import_nothing_from_companion() -> None:
    assert [
        (m, sorted(imports_of(m)))
        for m in modules()
        if m.startswith("scorers") and any(o.startswith("companion") for o in imports_of(m))
    ] == []


def test_there_is_no_import_circle() -> None:
    graph = {m: imports_of(m) - {m.rpartition(".")[0]} for m in modules()}
    # A package's face re-exporting its modules is not a circle of two modules.
    circles: list[list[str]] = []
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(module: str) -> None:
        state[module] = 1
        stack.append(module)
        for other in sorted(graph[module]):
            if state.get(other) == 1:
                circles.append([*stack[stack.index(other) :], other])
            elif other not in state:
                visit(other)
        stack.pop()
        state[module] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module)
    assert circles == []


def test_the_package_root_holds_at_most_six_modules() -> None:
    assert len(list((ROOT / "companion").glob("*.py"))) <= 6


@pytest.mark.parametrize("needle", ["._db", ".transaction(", "sqlite3.connect("])
def test_only_the_history_wing_touches_the_store_connection(needle: str) -> None:
    history = ROOT / "companion" / "history"
    rules = ROOT / "companion" / "rules"  # the rules index is its own database
    users = [
        str(path.relative_to(ROOT))
        for path in sorted((ROOT / "companion").rglob("*.py"))
        if history not in path.parents and rules not in path.parents and needle in path.read_text()
    ]
    assert users == []
