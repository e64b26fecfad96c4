"""Every notebook runs headless against a temporary history: the history notebook the
package ships, and the page of every registered game, made from its id."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from companion.cli.notebooks import NOTEBOOKS
from companion.widgets.notebook_files import game_notebook
from scorers import GAME_IDS
from tests.support.history_fixture import fill

PATHS = sorted(NOTEBOOKS.glob("*.ipynb"))
NOTEBOOK_NAMES = [p.stem for p in PATHS] + list(GAME_IDS)


def notebook_text(name: str) -> str:
    """A shipped notebook's text, or the page of the game ``name``."""
    shipped = NOTEBOOKS / f"{name}.ipynb"
    return shipped.read_text(encoding="utf-8") if shipped.exists() else game_notebook(name)


def test_the_package_ships_the_history_notebook_and_no_page_of_a_game() -> None:
    assert [p.stem for p in PATHS] == ["history"]


def test_the_wheel_ships_the_notebooks_and_the_page_template() -> None:
    import tomllib

    root = Path(__file__).resolve().parent.parent
    data = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert data["package-data"]["companion.notebooks"] == ["*.ipynb"]
    assert data["package-data"]["companion.widgets"] == [
        "jupyter/voila/templates/*/*",
        "jupyter/voila/templates/*/static/*",
    ]
    assert data["package-dir"] == {"companion.notebooks": "notebooks"}
    assert (root / "notebooks" / "history.ipynb").exists()
    assert not (root / "companion" / "notebooks").exists()


@pytest.mark.slow
@pytest.mark.timeout(180)
@pytest.mark.parametrize("name", NOTEBOOK_NAMES)
def test_notebook_executes(name: str, db_path: Path) -> None:
    fill(db_path)
    notebook = nbformat.reads(notebook_text(name), as_version=4)
    code = [c for c in notebook.cells if c.cell_type == "code"]
    assert len(code) == 2, "notebooks stay thin: the logic lives in companion.widgets"
    if name in PLAYED:
        notebook.cells.append(nbformat.v4.new_code_cell(PLAYED[name]))
    NotebookClient(notebook, timeout=120, kernel_name="python3", store_widget_state=True).execute()
    outputs = [o for c in notebook.cells if c.cell_type == "code" for o in c.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    assert any("application/vnd.jupyter.widget-view+json" in o.get("data", {}) for o in outputs)
    state = notebook.metadata.widgets["application/vnd.jupyter.widget-state+json"]["state"]
    shown = [m["state"]["value"] for m in state.values() if m["model_name"] == "HTMLModel"]
    for text in SHOWN[name]:
        assert any(text in value for value in shown), text
    if name in PLAYED:
        printed = "".join(o.get("text", "") for o in notebook.cells[-1].outputs)
        assert printed == (
            "Saved as game #8.\n"
            "Aki won by 4 points over Ben, the closest gap at the table.\n"
            "Without the temple ranking, Cho would have won by 2 points.\n"
        )


# What each notebook shows once run against the fixture history.
SHOWN = {
    "history": [
        "<h2>Ratings over time</h2><svg class='chart ratings'",
        "aria-label='Ratings over every game'",
        "<h2>Records</h2>",
        "<th>Average length</th>",
        "<h2>Wins over time</h2>",
    ],
    "kamakura": ["<h2>Rounds</h2>"],
    "shibuya": ["<h2>Rounds</h2>"],
    "shimoda": ["<h2>Rounds</h2>"],
    "shogun": ["Each player&#x27;s bid"],
    "tokaido": ["<h4>Why it was won</h4><div class='why'><p>Aki won by 4 points over Ben"],
    "orchard": ["<h2>Rounds</h2>", "Fruit picked this round, per player:"],
}

# A game played in the notebook, as a table would: names, the pad, Save.
PLAYED = {
    "tokaido": """
rows = {
    "Aki": ("58", "4", "7", "6", "3", "2", "1"),
    "Ben": ("60", "3", "7", "2", "1", "4", "0"),
    "Cho": ("66", "0", "4", "3", "3", "1", "2"),
}
keys = ("journey", "temple", "meal_cost", "souvenirs", "hot_springs", "encounters",
        "panorama_achievements")
page.count.value = 3
for seat, (name, values) in enumerate(rows.items()):
    page.name_inputs[seat].value = name
    for key, value in zip(keys, values):
        page.form.cells[f"players[{seat}].{key}"].controls["n"].value = value
page.form.save_button.click()
print(f"Saved as game #{page.form.saved_id}.")
import re
print(chr(10).join(re.findall("<p>([^<]*)</p>", page.form.after.value)[:2]))
""",
}
