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
