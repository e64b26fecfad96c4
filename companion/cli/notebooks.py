"""``companion notebook`` (JupyterLab) and ``companion serve`` (a web page with Voilà).

Both run their server in a process group of its own and stop all of it
(server and kernels) on SIGTERM, SIGINT (Ctrl-C) or SIGHUP. The notebooks
ship inside the package; they are opened from a working copy in the
companion's data directory, so nothing is ever written into the package or a
clone of the project. Jupyter and IPython keep their files in the companion's
own directories, never in the user's home configuration. The server listens
on 127.0.0.1 unless ``--host`` says otherwise; a busy port is an error.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import signal
import sys
import time
from contextlib import suppress
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from companion.cli.common import DbOption, fail, open_history

if TYPE_CHECKING:  # socket and subprocess load only when a server starts
    import subprocess

PACKAGE = Path(__file__).resolve().parent.parent


def _notebooks() -> Path:
    """The notebooks' folder: ``notebooks/`` of a checkout, installed as ``companion.notebooks``."""
    spec = importlib.util.find_spec("companion.notebooks")
    folders = spec.submodule_search_locations if spec else None
    return Path(folders[0]) if folders else PACKAGE / "notebooks"


NOTEBOOKS = _notebooks()
JUPYTER_SHARE = PACKAGE / "widgets" / "jupyter"
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)
GRACE_SECONDS = 10.0
CULL_SECONDS = 30
KERNEL_CAP = 12


def data_folder() -> Path:
    """Where the companion keeps Jupyter's files and the notebooks' working copies."""
    import platformdirs

    return platformdirs.user_data_path("companion", appauthor=False) / "jupyter"


def jupyter_environment(db: Path | None) -> dict[str, str]:
    """The environment for Jupyter: the companion's own config, data and runtime folders."""
    base = data_folder()
    env = dict(os.environ)
    for variable, folder in (
        ("JUPYTER_CONFIG_DIR", "config"),
        ("JUPYTER_DATA_DIR", "data"),
        ("JUPYTER_RUNTIME_DIR", "runtime"),
        ("IPYTHONDIR", "ipython"),
        ("JUPYTERLAB_SETTINGS_DIR", "lab-settings"),
        ("JUPYTERLAB_WORKSPACES_DIR", "lab-workspaces"),
    ):
        path = base / folder
        path.mkdir(parents=True, exist_ok=True)
        env[variable] = str(path)
    # The runtime folder holds the server's token and the kernels' keys: this user's alone.
    (base / "runtime").chmod(0o700)
    no_news(base / "lab-settings")
    env["JUPYTER_PLATFORM_DIRS"] = "1"
    # The page template (no CDN fonts, the kernel heartbeat) is found through JUPYTER_PATH.
    env["JUPYTER_PATH"] = os.pathsep.join(
        p for p in (str(JUPYTER_SHARE), env.get("JUPYTER_PATH", "")) if p
    )
    if db is not None:
        env["COMPANION_DB"] = str(db.resolve())
    return env


def no_news(settings: Path) -> None:
    """JupyterLab's user settings: no news pop-up, no update check."""
    plugin = settings / "@jupyterlab" / "apputils-extension"
    plugin.mkdir(parents=True, exist_ok=True)
    path = plugin / "notification.jupyterlab-settings"
    if not path.exists():
        path.write_text('{\n  "fetchNews": "false",\n  "checkForUpdates": false\n}\n')


def shipped_notebooks() -> list[Path]:
    """The notebooks inside the package; exit 1 when they are missing."""
    found = sorted(NOTEBOOKS.glob("*.ipynb"))
    if not found:
        fail(f"the notebooks are missing from the installed package ({NOTEBOOKS})")
    return found


def working_copy(folder: str, *, refresh: bool) -> Path:
    """Copy the shipped notebooks into ``folder`` of the data directory.

    Args:
        folder: ``pages`` (the web page) or ``notebooks`` (JupyterLab).
        refresh: Replace copies that differ (the web page always shows the
            shipped notebooks); otherwise a notebook the user changed is kept.
    """
    from companion.kits import KITS
    from companion.widgets.notebook_files import clear_file, game_notebook

    target = data_folder() / folder
    target.mkdir(parents=True, exist_ok=True)
    for source in shipped_notebooks():
        copy = target / source.name
        if not copy.exists() or (refresh and copy.read_bytes() != source.read_bytes()):
            shutil.copyfile(source, copy)
        clear_file(copy)  # no widget output survives its kernel
    for game in KITS.ready():  # a page for every game with its kit, made from its id
        copy = target / f"{game}.ipynb"
        text = game_notebook(game)
        if not copy.exists() or (refresh and copy.read_text(encoding="utf-8") != text):
            copy.write_text(text, encoding="utf-8")
        clear_file(copy)
    return target


def require(module: str) -> None:
    """Exit 1 with the install command when ``module`` is missing."""
    import importlib.util

    if importlib.util.find_spec(module) is None:
        fail(f"{module} is not installed: pip install 'companion[notebooks]'")


def check_history(db: Path | None) -> None:
    """Exit 1 with one line now, rather than on the page later, if the history is unusable.

    Only reads: a history that does not exist yet is fine (the first saved game makes it).
    """
    with open_history(db, write=False):
        pass


def check_port(host: str, port: int) -> None:
    """Exit 1, naming the port, when something already listens on it."""
    import socket

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as error:
            fail(
                f"port {port} on {host} is not free ({error.strerror}); choose another with --port"
            )


IOPUB_SECONDS = 120
"""How long Voilà waits for a cell's outputs after its reply (nbclient's default: 4 s)."""


def kernel_options() -> list[str]:
    """Voilà's kernels talk to it over Unix sockets where there are some.

    With TCP, the server picks free ports that a kernel binds a moment later:
    when many kernels start at once (a preheated pool) another process can take
    a port first, and the kernel dies. Unix sockets have no such race, and no
    other user of the machine can reach them. Voilà keeps them in a folder of
    the temporary directory; a socket's path must stay under 108 bytes.
    """
    import tempfile

    if os.name != "posix" or len(tempfile.gettempdir()) > 40:
        return []
    return ["--KernelManager.transport=ipc"]


def culling_options(cull_seconds: int) -> list[str]:
    """Free kernels that no page is connected to, and notice dead connections."""
    interval = max(1, min(10, cull_seconds // 3 or 1))
    return [
        f"--MappingKernelManager.cull_idle_timeout={cull_seconds}",
        f"--MappingKernelManager.cull_interval={interval}",
        "--MappingKernelManager.cull_connected=False",
        "--MappingKernelManager.cull_busy=False",
    ]


def descendants(pid: int) -> list[int]:
    """Every process below ``pid`` (read from /proc; empty elsewhere)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        parent = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(parent, []).append(int(entry.name))
    found: list[int] = []
    stack = [pid]
    while stack:
        for child in children.get(stack.pop(), []):
            found.append(child)
            stack.append(child)
    return found


def alive(pid: int) -> bool:
    """True while ``pid`` runs (a zombie counts as gone)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


def stop_all(process: subprocess.Popen[Any], grace: float = GRACE_SECONDS) -> None:
    """SIGTERM the server's process group, then SIGKILL whatever is left of it and below it."""
    import subprocess

    below = descendants(process.pid)
    if process.poll() is None:
        with suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        with suppress(subprocess.TimeoutExpired):
            process.wait(timeout=grace)
    with suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait()
    # Kernels run in sessions of their own: stop those the server did not.
    deadline = time.monotonic() + 3
    for pid in below:
        while alive(pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        if alive(pid):
            with suppress(ProcessLookupError, PermissionError):
                os.killpg(pid, signal.SIGKILL)
            with suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


class Stopped(Exception):
    """A stop signal arrived."""


def pass_filtered(stream: Any) -> None:
    """Copy the server's output to stderr without the noise of normal events."""
    from companion.widgets.log_filter import LogFilter

    def write(line: str) -> None:
        sys.stderr.write(line)
        sys.stderr.flush()

    kept = LogFilter(write)
    for line in stream:
        kept.feed(line)
    kept.close()


def run_server(command: list[str], env: dict[str, str], *, filtered: bool = False) -> int:
    """Run ``command`` in a process group of its own; a stop signal ends all of it.

    With ``filtered``, its output (the server's and the kernels') reaches
    the terminal through :class:`companion.widgets.log_filter.LogFilter`.

    Returns:
        The server's exit code, or 0 when a signal stopped it.
    """
    import subprocess

    def stop(signum: int, frame: object) -> None:
        raise Stopped(signum)

    previous = {sig: signal.signal(sig, stop) for sig in STOP_SIGNALS}
    process: subprocess.Popen[Any] | None = None
    try:
        if not filtered:
            process = subprocess.Popen(command, env=env, process_group=0, umask=0o077)
            return process.wait()
        import threading

        process = subprocess.Popen(
            command,
            env=env,
            process_group=0,
            umask=0o077,  # every file the server writes (tokens, keys) is this user's alone
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            errors="replace",
        )
        reader = threading.Thread(target=pass_filtered, args=(process.stdout,), daemon=True)
        reader.start()
        code = process.wait()
        reader.join(timeout=5)
        return code
    except Stopped:
        return 0
    finally:
        for sig in STOP_SIGNALS:
            signal.signal(sig, signal.SIG_IGN)
        if process is not None:
            stop_all(process)
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def notebook_command(port: int, folder: Path) -> list[str]:
    """The JupyterLab command on the working copy of the notebooks.

    The token comes in the environment (``JUPYTER_TOKEN``), never on the
    command line that every user of the machine can read.
    """
    command = [
        sys.executable,
        "-m",
        "jupyterlab",
        f"--notebook-dir={folder}",
        f"--port={port}",
        "--ServerApp.ip=127.0.0.1",
        "--ServerApp.port_retries=0",
        "--ServerApp.open_browser=False",
        # Saved without widget outputs (they die with their kernel).
        "--FileContentsManager.pre_save_hook=companion.widgets.notebook_files.pre_save_hook",
        # No news feed, no language-server extension (it writes an npm log into
        # the home folder looking for servers), and no shim for the classic
        # notebook's extensions (it reads every server setting, a deprecated
        # one included, and prints a DeprecationWarning).
        "--LabApp.news_url=None",
        "--ServerApp.jpserver_extensions={'jupyter_lsp': False, 'notebook_shim': False}",
        *kernel_options(),
        *culling_options(600),
    ]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        command.append("--allow-root")
    return command


def notebook(
    port: Annotated[int, typer.Option("--port", help="Port for JupyterLab.")] = 8888,
    db: DbOption = None,
) -> None:
    """Open the game notebooks in JupyterLab (a working copy in the data directory)."""
    require("jupyterlab")
    check_history(db)
    check_port("127.0.0.1", port)
    from companion.widgets.guard import new_secret

    folder = working_copy("notebooks", refresh=False)
    env = jupyter_environment(db)
    token = new_secret()
    env["JUPYTER_TOKEN"] = token
    typer.echo(
        f"JupyterLab on http://127.0.0.1:{port}/lab?token={token} with the notebooks in {folder}"
    )
    raise typer.Exit(run_server(notebook_command(port, folder), env))


def serve_command(
    port: int,
    host: str,
    folder: Path,
    *,
    pool: int = 1,
    cull_seconds: int = CULL_SECONDS,
) -> list[str]:
    """The Voilà command that serves the notebooks without their code."""
    from companion.widgets.keepalive import settings_option

    command = [
        sys.executable,
        "-m",
        "companion.widgets.server",
        str(folder),
        "--no-browser",
        f"--port={port}",
        f"--Voila.ip={host}",
        "--Voila.port_retries=0",
        "--template=companion",
        "--strip_sources=True",
        "--show_tracebacks=False",
        # After a cell's reply, its outputs may still be on their way: on a busy
        # machine they came later than the default 4 s, and a game's first page
        # was served without them (and shared with every device).
        f"--VoilaExecutor.iopub_timeout={IOPUB_SECONDS}",
        # The server pings each page every 10 s and drops one that missed three answers
        # (companion.widgets.keepalive says why the timeout must be longer than the interval).
        settings_option(),
        *kernel_options(),
        *culling_options(cull_seconds),
    ]
    if pool > 0:
        # The pool is refilled a while after a page took its kernel, so that
        # starting the next kernel does not slow the page being opened.
        command += [
            "--preheat_kernel=True",
            f"--pool_size={pool}",
            "--VoilaKernelManager.fill_delay=6",
        ]
    return command


def join_host(host: str, table: bool) -> tuple[str, str]:
    """The address to listen on and the one printed for the devices.

    Without ``--table``: the ``--host`` given (127.0.0.1 by default) for both.
    With ``--table`` and no ``--host``: every address of the machine, printed
    as its address on the network (the table's Wi-Fi).
    """
    from companion.widgets.guard import network_addresses

    if host:
        shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
        return host, shown
    if not table:
        return "127.0.0.1", "127.0.0.1"
    addresses = network_addresses()
    return "0.0.0.0", addresses[0] if addresses else "127.0.0.1"


def url_host(address: str) -> str:
    """An address as it goes into a URL (an IPv6 one in brackets)."""
    return f"[{address}]" if ":" in address else address


def terminal_qr(text: str) -> str:
    """The QR code of ``text`` drawn with block characters for the terminal."""
    import io

    import segno

    out = io.StringIO()
    segno.make(text, error="m").terminal(out=out, compact=True, border=2)
    return out.getvalue()


def serve(
    port: Annotated[int, typer.Option("--port", help="Port of the web page.")] = 8866,
    host: Annotated[
        str,
        typer.Option(
            "--host",
            metavar="ADDR",
            help="Address to listen on (default: 127.0.0.1; with --table: every address).",
        ),
    ] = "",
    table: Annotated[
        bool,
        typer.Option(
            "--table",
            help="Let the phones at the table join: listen on the network, print a join QR code.",
        ),
    ] = False,
    pool: Annotated[
        int,
        typer.Option(
            "--pool", min=0, max=4, help="Kernels kept ready per page, so pages open at once."
        ),
    ] = 1,
    max_kernels: Annotated[
        int,
        typer.Option(
            "--max-kernels", min=1, max=100, help="Most kernels at once (open pages and pool)."
        ),
    ] = KERNEL_CAP,
    cull_after: Annotated[
        int,
        typer.Option(
            "--cull-after",
            min=5,
            max=3600,
            help="Seconds after which a kernel no page is connected to is shut down.",
        ),
    ] = CULL_SECONDS,
    db: DbOption = None,
) -> None:
    """Serve the notebooks as a web page for a tablet or laptop on the table."""
    from companion.widgets.guard import (
        HOSTS_VARIABLE,
        KERNEL_SECRET_VARIABLE,
        SECRET_VARIABLE,
        new_secret,
    )

    require("voila")
    if table:
        require("segno")
    check_history(db)
    from companion.kits import KITS

    ready = KITS.ready()
    for game in KITS:
        if game not in ready:
            typer.echo(f"Note: {game} has no page (its kit is missing or does not load).", err=True)
    pages = len(shipped_notebooks()) + len(ready)  # the history and every game's page
    if pool * pages >= max_kernels:
        fail(
            f"--pool {pool} keeps {pool * pages} kernels ready for {pages} pages: "
            f"--max-kernels must be more than that (it is {max_kernels})"
        )
    listen, shown = join_host(host.strip(), table)
    check_port(listen, port)
    folder = working_copy("pages", refresh=True)
    command = serve_command(port, listen, folder, pool=pool, cull_seconds=cull_after)
    env = jupyter_environment(db)
    env["COMPANION_MAX_KERNELS"] = str(max_kernels)
    secret = new_secret()
    # The secrets go to the server in its environment, which only this user
    # can read (a command line is visible to every user of the machine).
    env[SECRET_VARIABLE] = secret
    env[KERNEL_SECRET_VARIABLE] = new_secret()
    env[HOSTS_VARIABLE] = ",".join(h for h in {listen, shown} if h not in ("0.0.0.0", "::"))
    # The preheated kernels ask the server for their visitor at this address.
    env["VOILA_APP_IP"] = "127.0.0.1" if listen in ("0.0.0.0", "::") else listen
    base = f"http://{url_host(shown)}:{port}/"
    address = f"{base}?table={secret}"
    if table:
        env["COMPANION_JOIN_URL"] = base
        typer.echo(f"Join {address}")
        typer.echo(terminal_qr(address), nl=False)
        typer.echo("Anyone who has this address can enter scores. Ctrl-C stops the server.")
        if listen in ("0.0.0.0", "::") and not shown.startswith("127."):
            # A browser says who opened a page (and so may be shown the code) only
            # at the machine's own address: the front door there shows the code.
            typer.echo(f"On this computer: http://127.0.0.1:{port}/?table={secret}")
    else:
        typer.echo(f"Serving the companion at {address} (Ctrl-C stops it)")
    raise typer.Exit(run_server(command, env, filtered=True))
