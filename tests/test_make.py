"""The Makefile: `make run` says how to get `companion` on the PATH."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_run_prints_the_path_hint(tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    for name in ("python", "companion"):
        script = venv / "bin" / name
        script.write_text('#!/bin/sh\necho ran companion "$@"\n')
        script.chmod(0o755)
    (venv / "bin" / ".installed-run").touch()  # newer than pyproject.toml: no install
    run = subprocess.run(
        ["make", "-s", "-C", str(ROOT), "run", f"VENV={venv}", "ARGS=--version"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout == "ran companion --version\n"
    assert f"source {venv}/bin/activate" in run.stderr
    assert 'pipx install ".[notebooks]"' in run.stderr
    assert 'uv tool install ".[notebooks]"' in run.stderr
