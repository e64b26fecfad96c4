"""``companion notebook`` (JupyterLab) and ``companion serve`` (a web page with Voilà).

Jupyter and IPython keep their files in the companion's own directories, never
in the user's home configuration. The server listens on 127.0.0.1 unless
``--host`` says otherwise.
"""

import os
import subprocess
import sys
from pathlib import Path
from typing import Annotated

import typer

from companion.cli_common import DbOption, fail, open_history

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"


def jupyter_environment(db: Path | None) -> dict[str, str]:
    """The environment for Jupyter: the companion's own config, data and runtime folders."""
    import platformdirs

    base = platformdirs.user_data_path("companion", appauthor=False) / "jupyter"
    env = dict(os.environ)
    for variable, folder in (
        ("JUPYTER_CONFIG_DIR", "config"),
        ("JUPYTER_DATA_DIR", "data"),
        ("JUPYTER_RUNTIME_DIR", "runtime"),
        ("IPYTHONDIR", "ipython"),
    ):
        path = base / folder
        path.mkdir(parents=True, exist_ok=True)
        env[variable] = str(path)
    env["JUPYTER_PLATFORM_DIRS"] = "1"
    if db is not None:
        env["COMPANION_DB"] = str(db.resolve())
    return env


def notebooks_folder() -> Path:
    """The notebooks, beside the package; exit 1 when they are not there."""
    if not NOTEBOOKS.is_dir():
        fail(f"the notebooks are not at {NOTEBOOKS} (run from a clone of the project)")
    return NOTEBOOKS


def check_history(db: Path | None) -> None:
    """Exit 1 with one line now, rather than on the page later, if the history is unusable.

    Only reads: a history that does not exist yet is fine (the first saved game makes it).
    """
    with open_history(db, write=False):
        pass


def require(module: str) -> None:
    """Exit 1 with the install command when ``module`` is missing."""
    import importlib.util

    if importlib.util.find_spec(module) is None:
        fail(f"{module} is not installed: pip install -e '.[notebooks]'")


def notebook(
    port: Annotated[int, typer.Option("--port", help="Port for JupyterLab.")] = 8888,
    db: DbOption = None,
) -> None:
    """Open the game notebooks in JupyterLab."""
    require("jupyterlab")
    check_history(db)
    folder = notebooks_folder()
    command = [
        sys.executable,
        "-m",
        "jupyterlab",
        f"--notebook-dir={folder}",
        f"--port={port}",
        "--ServerApp.ip=127.0.0.1",
    ]
    raise typer.Exit(subprocess.call(command, env=jupyter_environment(db)))


def serve_command(port: int, host: str) -> list[str]:
    """The Voilà command that serves the notebooks without their code."""
    return [
        sys.executable,
        "-m",
        "voila",
        str(notebooks_folder()),
        "--no-browser",
        f"--port={port}",
        f"--Voila.ip={host}",
        "--strip_sources=True",
        "--ServerApp.port_retries=0",
    ]


def serve(
    port: Annotated[int, typer.Option("--port", help="Port of the web page.")] = 8866,
    host: Annotated[
        str, typer.Option("--host", help="Address to listen on (default: this machine only).")
    ] = "127.0.0.1",
    db: DbOption = None,
) -> None:
    """Serve the notebooks as a web page for a tablet or laptop on the table."""
    require("voila")
    check_history(db)
    command = serve_command(port, host)
    typer.echo(f"Serving the companion at http://{host}:{port}/ (Ctrl-C stops it)")
    try:
        code = subprocess.call(command, env=jupyter_environment(db))
    except KeyboardInterrupt:
        code = 0
    raise typer.Exit(code)
