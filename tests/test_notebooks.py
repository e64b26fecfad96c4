"""Every notebook ships in the package and runs headless against a temporary history."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from companion.cli_notebooks import NOTEBOOKS
from tests.history_fixture import fill

PATHS = sorted(NOTEBOOKS.glob("*.ipynb"))


def test_there_is_a_notebook_per_game_and_one_for_the_history() -> None:
    assert [p.stem for p in PATHS] == [
        "history",
        "kamakura",
        "shibuya",
        "shimoda",
        "shogun",
        "tokaido",
    ]


def test_the_wheel_ships_the_notebooks_and_the_page_template() -> None:
    import tomllib

    root = Path(__file__).resolve().parent.parent
    data = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert data["package-data"]["companion.notebooks"] == ["*.ipynb"]
    assert data["package-data"]["companion.widgets"] == ["jupyter/voila/templates/*/*"]
    assert not (root / "notebooks").exists()


@pytest.mark.timeout(180)
@pytest.mark.parametrize("path", PATHS, ids=lambda p: p.stem)
def test_notebook_executes(path: Path, db_path: Path) -> None:
    fill(db_path)
    notebook = nbformat.read(path, as_version=4)
    code = [c for c in notebook.cells if c.cell_type == "code"]
    assert len(code) == 2, "notebooks stay thin: the logic lives in companion.widgets"
    NotebookClient(notebook, timeout=120, kernel_name="python3").execute()
    outputs = [o for c in notebook.cells if c.cell_type == "code" for o in c.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    assert any("application/vnd.jupyter.widget-view+json" in o.get("data", {}) for o in outputs)
