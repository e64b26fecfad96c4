"""The notebooks' working copies never keep widget outputs.

A widget's output saved into a notebook points at a model that only lived in
the kernel that made it: opened again after a restart, the notebook shows
"Error displaying widget: model not found" until it is run. So the outputs
and the saved widget state are cleared when a working copy is made or opened,
and JupyterLab saves the working copies without them
(:func:`pre_save_hook`, set by ``companion notebook``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def game_notebook(game: str) -> str:
    """The notebook of one game's page (every registered game has one, made from its id).

    Example:
        >>> json.loads(game_notebook("tokaido"))["cells"][0]["source"][-1]
        'page = GamePage("tokaido")'
    """
    import hashlib

    stamp = hashlib.sha1(game.encode()).hexdigest()[:8]
    notebook = {
        "cells": [
            {
                "cell_type": "code",
                "execution_count": None,
                "id": f"{stamp}-page",
                "metadata": {},
                "outputs": [],
                "source": [
                    "from companion.widgets import GamePage\n",
                    "\n",
                    f"page = GamePage({json.dumps(game)})",
                ],
            },
            {
                "cell_type": "code",
                "execution_count": None,
                "id": f"{stamp}-open",
                "metadata": {},
                "outputs": [],
                "source": ["page.open()  # the page, with the game in progress brought back"],
            },
        ],
        "metadata": {
            "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    return json.dumps(notebook, indent=1, ensure_ascii=False) + "\n"


def without_outputs(notebook: dict[str, Any]) -> bool:
    """Clear the outputs, execution counts and widget state in place; True when any were there."""
    changed = False
    metadata = notebook.get("metadata")
    if isinstance(metadata, dict) and "widgets" in metadata:
        del metadata["widgets"]
        changed = True
    for cell in notebook.get("cells", []):
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        if cell.get("outputs"):
            cell["outputs"] = []
            changed = True
        if cell.get("execution_count") is not None:
            cell["execution_count"] = None
            changed = True
    return changed


def clear_file(path: Path) -> bool:
    """Clear a notebook file's outputs (a file that is not a notebook is left alone)."""
    try:
        notebook = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    if not isinstance(notebook, dict) or not without_outputs(notebook):
        return False
    path.write_text(json.dumps(notebook, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return True


def pre_save_hook(model: dict[str, Any], **_: Any) -> None:
    """Jupyter's pre-save hook: a notebook is saved without its outputs."""
    content = model.get("content")
    if model.get("type") == "notebook" and isinstance(content, dict):
        without_outputs(content)
