"""``companion notebook`` and ``serve``: the command they run and where Jupyter keeps files."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from companion import cli_notebooks
from companion.cli import app

runner = CliRunner()


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> list[tuple[list[str], dict[str, str]]]:
    seen: list[tuple[list[str], dict[str, str]]] = []

    def fake_call(command: list[str], env: dict[str, str], **_: Any) -> int:
        seen.append((command, env))
        return 0

    monkeypatch.setattr(cli_notebooks.subprocess, "call", fake_call)
    return seen


def test_serve_binds_loopback_and_prints_the_address(calls: list[Any], tmp_path: Path) -> None:
    result = runner.invoke(app, ["serve", "--port", "8901"])
    assert result.exit_code == 0
    assert result.stdout == "Serving the companion at http://127.0.0.1:8901/ (Ctrl-C stops it)\n"
    [(command, env)] = calls
    assert "--Voila.ip=127.0.0.1" in command
    assert "--port=8901" in command
    assert "--strip_sources=True" in command
    data = tmp_path / "home" / "data" / "companion" / "jupyter"
    assert env["JUPYTER_CONFIG_DIR"] == str(data / "config")
    assert env["JUPYTER_DATA_DIR"] == str(data / "data")
    assert env["JUPYTER_RUNTIME_DIR"] == str(data / "runtime")
    assert env["IPYTHONDIR"] == str(data / "ipython")


def test_serve_on_another_host_only_when_asked(calls: list[Any]) -> None:
    result = runner.invoke(app, ["serve", "--host", "0.0.0.0"])
    assert "http://0.0.0.0:8866/" in result.stdout
    assert "--Voila.ip=0.0.0.0" in calls[0][0]


def test_notebook_opens_jupyterlab_on_the_notebooks(calls: list[Any], tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    result = runner.invoke(app, ["notebook", "--db", str(db)])
    assert result.exit_code == 0
    [(command, env)] = calls
    assert command[1:3] == ["-m", "jupyterlab"]
    assert f"--notebook-dir={cli_notebooks.NOTEBOOKS}" in command
    assert "--ServerApp.ip=127.0.0.1" in command
    assert env["COMPANION_DB"] == str(db)
