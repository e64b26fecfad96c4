"""Working copies of the notebooks never keep widget outputs; the histogram's ranges."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.widgets.history import score_range
from companion.widgets.notebook_files import clear_file, pre_save_hook, without_outputs
from companion.widgets.page import navigation

WIDGET = {"application/vnd.jupyter.widget-view+json": {"model_id": "abc", "version_major": 2}}


def saved_notebook() -> dict[str, object]:
    return {
        "cells": [
            {"cell_type": "markdown", "source": "# Tokaido", "metadata": {}},
            {
                "cell_type": "code",
                "execution_count": 3,
                "source": "page.open()",
                "metadata": {},
                "outputs": [{"output_type": "display_data", "data": WIDGET, "metadata": {}}],
            },
        ],
        "metadata": {"widgets": {"application/vnd.jupyter.widget-state+json": {}}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }


def test_outputs_and_widget_state_are_cleared() -> None:
    notebook = saved_notebook()
    assert without_outputs(notebook) is True
    code = notebook["cells"][1]  # type: ignore[index]
    assert code["outputs"] == [] and code["execution_count"] is None
    assert "widgets" not in notebook["metadata"]  # type: ignore[operator]
    assert without_outputs(notebook) is False


def test_a_working_copy_is_cleared_and_a_file_that_is_no_notebook_is_left(tmp_path: Path) -> None:
    copy = tmp_path / "tokaido.ipynb"
    copy.write_text(json.dumps(saved_notebook()))
    assert clear_file(copy) is True
    assert "model_id" not in copy.read_text()
    assert json.loads(copy.read_text())["cells"][1]["source"] == "page.open()"
    odd = tmp_path / "odd.ipynb"
    odd.write_text("{}")
    assert clear_file(odd) is False and odd.read_text() == "{}"


def test_jupyterlab_saves_without_outputs() -> None:
    model = {"type": "notebook", "content": saved_notebook()}
    pre_save_hook(model=model, path="tokaido.ipynb", contents_manager=None)
    assert "model_id" not in json.dumps(model)


def test_the_shipped_notebooks_say_what_their_cells_do() -> None:
    folder = Path(__file__).resolve().parents[2] / "notebooks"
    for path in folder.glob("*.ipynb"):
        text = path.read_text()
        assert "waits for the visitor" not in text, path.name
        assert "model_id" not in text, path.name


def test_a_bar_of_one_score_is_named_by_that_score() -> None:
    assert score_range(68, 68) == "68"
    assert score_range(60, 67) == "60–67"


def test_the_current_page_does_not_run_into_the_next() -> None:
    nav = navigation("tokaido").value
    assert "<b>Tokaido</b><span class='sep'> · </span><a href='kamakura.ipynb'>" in nav


def test_in_jupyterlab_the_links_are_the_cells_own_output(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from companion.widgets import page as page_module

    shown: list[str] = []
    monkeypatch.setattr(page_module, "in_jupyterlab", lambda: True)
    monkeypatch.setattr("IPython.display.display", lambda html: shown.append(html.data))
    nav = navigation("shogun")
    page_module.links_as_output(nav)
    assert shown == [nav.value]  # JupyterLab opens these links in a tab
    assert nav.layout.display == "none"
    monkeypatch.setattr(page_module, "in_jupyterlab", lambda: False)
    other = navigation("shogun")
    page_module.links_as_output(other)
    assert other.layout.display is None and len(shown) == 1  # Voilà: the widget's links


@pytest.mark.parametrize("make", ["game", "history"])
def test_every_page_opened_in_jupyterlab_gives_its_links_as_output(
    monkeypatch: pytest.MonkeyPatch, db_path: Path, make: str
) -> None:
    from companion.widgets import GamePage, HistoryPage
    from companion.widgets import page as page_module

    shown: list[str] = []
    monkeypatch.setattr(page_module, "in_jupyterlab", lambda: True)
    monkeypatch.setattr("IPython.display.display", lambda html: shown.append(html.data))
    page = GamePage("tokaido") if make == "game" else HistoryPage()
    page.open()
    assert shown == [page.nav.value] and "href='shogun.ipynb'" in shown[0]
    assert page.nav.layout.display == "none"


def test_voila_kernels_and_scripts_are_not_jupyterlab(monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.widgets.page import in_jupyterlab

    assert in_jupyterlab() is False  # no kernel here
    monkeypatch.setenv("VOILA_BASE_URL", "/")
    assert in_jupyterlab() is False
