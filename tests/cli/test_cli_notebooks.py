"""``companion notebook`` and ``serve``: commands, working copies, ports, root, stopping."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from companion.cli import notebooks as cli_notebooks
from companion.cli.app import app
from scorers import GAME_IDS
from tests.support.serving import free_port

runner = CliRunner()


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> list[tuple[list[str], dict[str, str]]]:
    seen: list[tuple[list[str], dict[str, str]]] = []

    def fake_run(command: list[str], env: dict[str, str], **_: Any) -> int:
        seen.append((command, env))
        return 0

    monkeypatch.setattr(cli_notebooks, "run_server", fake_run)
    return seen


def test_serve_binds_loopback_and_serves_a_working_copy(calls: list[Any], tmp_path: Path) -> None:
    port = free_port()
    result = runner.invoke(app, ["serve", "--port", str(port)])
    assert result.exit_code == 0, result.output
    [(command, env)] = calls
    secret = env["COMPANION_TABLE_SECRET"]
    assert len(secret) >= 22  # at least 128 bits
    assert result.stdout == (
        f"Serving the companion at http://127.0.0.1:{port}/?table={secret} (Ctrl-C stops it)\n"
    )
    assert secret not in " ".join(command)  # a command line is visible to every user
    assert env["COMPANION_KERNEL_SECRET"] not in (secret, "")
    data = tmp_path / "home" / "data" / "companion" / "jupyter"
    assert command[1:4] == ["-m", "companion.widgets.server", str(data / "pages")]
    assert "--Voila.ip=127.0.0.1" in command
    assert f"--port={port}" in command
    assert "--Voila.port_retries=0" in command
    assert "--template=companion" in command
    assert "--strip_sources=True" in command
    assert "--MappingKernelManager.cull_idle_timeout=30" in command
    assert "--MappingKernelManager.cull_connected=False" in command
    assert "--KernelManager.transport=ipc" in command  # no port races between kernels
    assert command[-3:] == [
        "--preheat_kernel=True",
        "--pool_size=1",
        "--VoilaKernelManager.fill_delay=6",
    ]
    assert env["COMPANION_MAX_KERNELS"] == "12"
    assert env["JUPYTER_CONFIG_DIR"] == str(data / "config")
    assert env["JUPYTER_DATA_DIR"] == str(data / "data")
    assert env["JUPYTER_RUNTIME_DIR"] == str(data / "runtime")
    assert env["IPYTHONDIR"] == str(data / "ipython")
    assert env["JUPYTER_PATH"].split(os.pathsep)[0] == str(cli_notebooks.JUPYTER_SHARE)
    copies = sorted(p.name for p in (data / "pages").glob("*.ipynb"))
    shipped = [p.name for p in cli_notebooks.NOTEBOOKS.glob("*.ipynb")]
    assert copies == sorted([*shipped, *(f"{game}.ipynb" for game in GAME_IDS)])
    assert (cli_notebooks.JUPYTER_SHARE / "voila/templates/companion/index.html.j2").exists()


def test_kernels_use_unix_sockets_only_where_the_path_fits(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import tempfile

    monkeypatch.setattr(tempfile, "gettempdir", lambda: "/tmp")
    assert cli_notebooks.kernel_options() == ["--KernelManager.transport=ipc"]
    monkeypatch.setattr(tempfile, "gettempdir", lambda: "/" + "x" * 60)
    assert cli_notebooks.kernel_options() == []


def test_serve_options(calls: list[Any]) -> None:
    result = runner.invoke(
        app,
        [
            "serve",
            "--host",
            "0.0.0.0",
            "--port",
            str(free_port()),
            "--pool",
            "0",
            "--max-kernels",
            "3",
            "--cull-after",
            "5",
        ],
    )
    assert result.exit_code == 0, result.output
    command, env = calls[0]
    assert "--Voila.ip=0.0.0.0" in command
    assert not any(c.startswith("--preheat") for c in command)
    assert "--MappingKernelManager.cull_idle_timeout=5" in command
    assert env["COMPANION_MAX_KERNELS"] == "3"


def test_serve_pool_must_fit_under_the_cap(calls: list[Any]) -> None:
    result = runner.invoke(app, ["serve", "--pool", "2", "--max-kernels", "12"])
    assert result.exit_code == 1
    pages = 1 + len(GAME_IDS)  # the history and a page per game (six with Orchard)
    assert result.stderr == (
        f"Error: --pool 2 keeps {2 * pages} kernels ready for {pages} pages: --max-kernels "
        "must be more than that (it is 12)\n"
    )
    assert calls == []


@pytest.mark.parametrize("command", ["serve", "notebook"])
def test_a_busy_port_is_an_error_naming_it(calls: list[Any], command: str) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = runner.invoke(app, [command, "--port", str(port)])
    assert result.exit_code == 1
    assert result.stderr.startswith(f"Error: port {port} on 127.0.0.1 is not free")
    assert result.stderr.endswith("choose another with --port\n")
    assert calls == []


def test_notebook_opens_a_working_copy(
    calls: list[Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "games.sqlite3"
    monkeypatch.setattr(cli_notebooks.os, "geteuid", lambda: 1000)
    result = runner.invoke(app, ["notebook", "--db", str(db), "--port", str(free_port())])
    assert result.exit_code == 0, result.output
    [(command, env)] = calls
    folder = tmp_path / "home" / "data" / "companion" / "jupyter" / "notebooks"
    assert command[1:3] == ["-m", "jupyterlab"]
    assert f"--notebook-dir={folder}" in command
    assert "--ServerApp.ip=127.0.0.1" in command
    assert "--allow-root" not in command
    assert env["COMPANION_DB"] == str(db)
    assert (folder / "tokaido.ipynb").exists()
    # The URL opens: it carries the token, which is on no command line.
    token = env["JUPYTER_TOKEN"]
    assert len(token) >= 22
    assert result.stdout.startswith("JupyterLab on http://127.0.0.1:")
    assert f"/lab?token={token} with the notebooks in {folder}" in result.stdout
    assert token not in " ".join(command)
    # Only this user reads the runtime folder; no news, no language servers; Unix sockets.
    data = folder.parent
    assert (data / "runtime").stat().st_mode & 0o777 == 0o700
    settings = data / "lab-settings" / "@jupyterlab" / "apputils-extension"
    assert '"fetchNews": "false"' in (settings / "notification.jupyterlab-settings").read_text()
    assert env["JUPYTERLAB_SETTINGS_DIR"] == str(data / "lab-settings")
    assert "--LabApp.news_url=None" in command
    off = "{'jupyter_lsp': False, 'notebook_shim': False}"
    assert f"--ServerApp.jpserver_extensions={off}" in command
    assert "--KernelManager.transport=ipc" in command
    hook = "--FileContentsManager.pre_save_hook=companion.widgets.notebook_files.pre_save_hook"
    assert hook in command
    # The user's changes to a working copy are kept; the package is never written to.
    (folder / "tokaido.ipynb").write_text("{}")
    runner.invoke(app, ["notebook", "--port", str(free_port())])
    assert (folder / "tokaido.ipynb").read_text() == "{}"


def test_a_server_writes_files_for_this_user_only(tmp_path: Path) -> None:
    """Token and key files a server writes are 0600 (its umask is 077)."""
    script = "import os; open('token', 'w').write('x'); os.mkdir('keys')"
    code = cli_notebooks.run_server(
        [sys.executable, "-c", f"import os; os.chdir({str(tmp_path)!r}); {script}"],
        dict(os.environ),
    )
    assert code == 0
    assert (tmp_path / "token").stat().st_mode & 0o777 == 0o600
    assert (tmp_path / "keys").stat().st_mode & 0o777 == 0o700


def test_notebook_as_root_allows_root(calls: list[Any], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cli_notebooks.os, "geteuid", lambda: 0)
    result = runner.invoke(app, ["notebook", "--port", str(free_port())])
    assert result.exit_code == 0
    assert calls[0][0][-1] == "--allow-root"


def test_serve_without_voila_says_how_to_install(
    calls: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name: None if name == "voila" else real(name)
    )
    result = runner.invoke(app, ["serve"])
    assert result.exit_code == 1
    assert result.stderr == "Error: voila is not installed: pip install 'companion[notebooks]'\n"


CHILDREN = """
import subprocess, sys, time
# A server with a child in its own session, as Jupyter starts kernels.
subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"], start_new_session=True)
print("ready", flush=True)
time.sleep(60)
"""


@pytest.mark.slow
@pytest.mark.timeout(60)
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_a_stop_signal_ends_the_server_and_everything_below_it(
    tmp_path: Path, sig: signal.Signals
) -> None:
    script = tmp_path / "stop.py"
    script.write_text(
        "import sys\n"
        "from companion.cli.notebooks import run_server\n"
        f"sys.exit(run_server([sys.executable, '-c', {CHILDREN!r}], {{}}))\n"
    )
    process = subprocess.Popen(
        [sys.executable, str(script)], stdout=subprocess.PIPE, text=True, env=dict(os.environ)
    )
    assert process.stdout is not None
    assert process.stdout.readline() == "ready\n"
    below = cli_notebooks.descendants(process.pid)
    assert len(below) == 2
    process.send_signal(sig)
    assert process.wait(timeout=30) == 0
    time.sleep(0.2)
    assert [pid for pid in below if cli_notebooks.alive(pid)] == []


def test_serve_table_prints_the_join_address_and_its_qr_code(calls: list[Any]) -> None:
    import segno

    port = free_port()
    result = runner.invoke(app, ["serve", "--table", "--host", "127.0.0.1", "--port", str(port)])
    assert result.exit_code == 0, result.output
    [(command, env)] = calls
    secret = env["COMPANION_TABLE_SECRET"]
    address = f"http://127.0.0.1:{port}/?table={secret}"
    lines = result.stdout.splitlines()
    assert lines[0] == f"Join {address}"
    drawn = cli_notebooks.terminal_qr(address)
    assert "\n".join(lines[1:-1]) + "\n" == drawn
    assert (
        len(drawn.splitlines())
        == (segno.make(address, error="m").symbol_size(border=2)[1] + 1) // 2
    )
    assert lines[-1] == "Anyone who has this address can enter scores. Ctrl-C stops the server."
    assert "--Voila.ip=127.0.0.1" in command
    assert env["COMPANION_JOIN_URL"] == f"http://127.0.0.1:{port}/"


def test_serve_table_on_the_network_prints_this_computer_s_own_address(
    calls: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    from companion.widgets import guard

    monkeypatch.setattr(guard, "network_addresses", lambda: ["192.168.1.20"])
    port = free_port()
    result = runner.invoke(app, ["serve", "--table", "--port", str(port)])
    assert result.exit_code == 0, result.output
    [(_, env)] = calls
    secret = env["COMPANION_TABLE_SECRET"]
    lines = result.stdout.splitlines()
    assert lines[0] == f"Join http://192.168.1.20:{port}/?table={secret}"
    # The front door shows the code only where the browser says who opened it.
    assert lines[-1] == f"On this computer: http://127.0.0.1:{port}/?table={secret}"


def test_serve_table_without_host_listens_on_the_network(monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.widgets import guard

    monkeypatch.setattr(guard, "network_addresses", lambda: ["192.168.1.20"])
    assert cli_notebooks.join_host("", True) == ("0.0.0.0", "192.168.1.20")
    assert cli_notebooks.join_host("", False) == ("127.0.0.1", "127.0.0.1")
    assert cli_notebooks.join_host("0.0.0.0", False) == ("0.0.0.0", "127.0.0.1")
    assert cli_notebooks.join_host("::1", True) == ("::1", "::1")
    assert cli_notebooks.url_host("::1") == "[::1]"


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_jupyterlab_from_start_to_ctrl_c_prints_no_warning_and_no_traceback(
    tmp_path: Path,
) -> None:
    import urllib.request

    pytest.importorskip("jupyterlab", reason="the notebooks extra is not installed")
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "companion", "notebook", "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=dict(os.environ),
        process_group=0,
    )
    assert process.stdout is not None
    try:
        first = process.stdout.readline()
        token = first.split("token=")[1].split()[0]
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(
                    f"http://127.0.0.1:{port}/lab?token={token}", timeout=5
                ) as page:
                    assert page.status == 200
                break
            except OSError:
                assert time.monotonic() < deadline, "JupyterLab never answered"
                time.sleep(0.5)
        os.killpg(process.pid, signal.SIGINT)
        output = first + process.stdout.read()
        assert process.wait(timeout=30) == 0
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    assert "Warning" not in output, output
    assert "Traceback" not in output, output
    assert "Jupyter Server" in output  # its own lines, as they were
