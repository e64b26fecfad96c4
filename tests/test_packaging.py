"""The wheel: every package of the tree, the top-level notebooks, the page template."""

from __future__ import annotations

import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def package_of(init: Path) -> str:
    return ".".join(init.parent.relative_to(ROOT).parts)


def test_the_wheel_lists_every_package_of_the_tree() -> None:
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    folders = {
        package_of(init)
        for init in [*ROOT.glob("companion/**/__init__.py"), *ROOT.glob("scorers/**/__init__.py")]
    }
    mapped = set(setuptools["package-dir"])
    assert set(setuptools["packages"]) == folders | mapped
    for package, folder in setuptools["package-dir"].items():
        assert (ROOT / folder / "__init__.py").is_file(), package


@pytest.mark.slow
def test_a_built_wheel_carries_the_notebooks_and_every_module(tmp_path: Path) -> None:
    subprocess.run(
        [
            *(sys.executable, "-m", "pip", "wheel", "--no-deps", "-q"),
            *("--disable-pip-version-check", "-w", str(tmp_path), str(ROOT)),
        ],
        check=True,
        capture_output=True,
    )
    (wheel,) = tmp_path.glob("companion-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    notebooks = {f"companion/notebooks/{p.name}" for p in (ROOT / "notebooks").glob("*.ipynb")}
    assert notebooks == {"companion/notebooks/history.ipynb"} and notebooks <= names
    modules = {
        str(p.relative_to(ROOT))
        for p in [*ROOT.glob("companion/**/*.py"), *ROOT.glob("scorers/*.py")]
    }
    assert modules <= names, sorted(modules - names)
    template = ROOT / "companion" / "widgets" / "jupyter"
    files = {str(p.relative_to(ROOT)) for p in template.rglob("*") if p.is_file()}
    assert files and files <= names, sorted(files - names)
    topics = {str(p.relative_to(ROOT)) for p in (ROOT / "companion" / "rules").rglob("*.md")}
    assert topics and topics <= names
    # The licence travels with the wheel, named in its metadata.
    (metadata,) = [n for n in names if n.endswith(".dist-info/METADATA")]
    text = zipfile.ZipFile(wheel).read(metadata).decode()
    assert "License-Expression: MIT" in text.splitlines()
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
