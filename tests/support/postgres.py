"""A real PostgreSQL server for the club's tests, started in a temporary folder.

``initdb`` and ``pg_ctl`` are taken from PATH or Debian's
``/usr/lib/postgresql/*/bin``; as root they run as the ``postgres`` user. The
server listens on a free port on 127.0.0.1 only (its unix socket in the same
temporary folder), in its own process group, and is stopped at the end
whatever happens. Tests connect through 127.0.0.1 with a password.
"""

from __future__ import annotations

import contextlib
import glob
import itertools
import os
import secrets
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from tests.support.serving import free_port

SUPERUSER = "postgres"


def binaries() -> Path | None:
    """The folder holding ``initdb`` and ``pg_ctl``, if PostgreSQL is installed."""
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return Path(os.path.realpath(found)).parent
    for folder in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if (Path(folder) / "initdb").exists() and (Path(folder) / "pg_ctl").exists():
            return Path(folder)
    return None


@dataclass
class Server:
    """A running server: where it listens and its superuser's password."""

    port: int
    password: str
    folder: Path
    _names: Iterator[int] = field(default_factory=lambda: itertools.count(1))

    def url(self, database: str, user: str = SUPERUSER, password: str | None = None) -> str:
        """A connection string through 127.0.0.1 (with the password only when given)."""
        secret = f":{password}" if password is not None else ""
        return f"postgresql://{user}{secret}@127.0.0.1:{self.port}/{database}"

    def admin(self, sql: str, database: str = "postgres") -> None:
        """Run ``sql`` as the superuser (autocommit)."""
        import psycopg

        with psycopg.connect(self.url(database, password=self.password), autocommit=True) as db:
            db.execute(sql.encode())

    def new_database(self) -> str:
        """A new empty database's name."""
        name = f"club_{next(self._names)}"
        self.admin(f"CREATE DATABASE {name}")
        return name

    def new_role(self, database: str, *, read_only: bool) -> tuple[str, str]:
        """A new role for ``database``'s ledger tables: ``(name, password)``."""
        name = f"member_{next(self._names)}"
        password = secrets.token_hex(8)
        self.admin(f"CREATE ROLE {name} LOGIN PASSWORD '{password}'")
        rights = "SELECT" if read_only else "SELECT, INSERT, UPDATE, DELETE"
        self.admin(
            f"GRANT {rights} ON ALL TABLES IN SCHEMA public TO {name}; "
            f"GRANT {'SELECT' if read_only else 'USAGE, SELECT'} "
            f"ON ALL SEQUENCES IN SCHEMA public TO {name}",
            database,
        )
        return name, password


def _as_postgres(command: list[str]) -> list[str]:
    if os.geteuid() == 0:
        return ["runuser", "-u", "postgres", "--", *command]
    return command


@contextlib.contextmanager
def running() -> Iterator[Server]:
    """Start a server in a temporary folder; stop it and remove the folder afterwards.

    Raises:
        FileNotFoundError: No PostgreSQL binaries.
    """
    folder_of_bins = binaries()
    if folder_of_bins is None:
        raise FileNotFoundError("no initdb and pg_ctl on PATH or in /usr/lib/postgresql/*/bin")
    folder = Path(tempfile.mkdtemp(prefix="companion-pg-"))
    data, sockets = folder / "data", folder / "sockets"
    sockets.mkdir()
    password = secrets.token_hex(12)
    (folder / "pw").write_text(password + "\n")
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres", "postgres")
        shutil.chown(sockets, "postgres", "postgres")
        shutil.chown(folder / "pw", "postgres", "postgres")
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.PIPE, "check": True}
    started = False
    try:
        subprocess.run(
            _as_postgres(
                [
                    str(folder_of_bins / "initdb"),
                    "-D",
                    str(data),
                    "-U",
                    SUPERUSER,
                    f"--pwfile={folder / 'pw'}",
                    "--auth-host=scram-sha-256",
                    "--auth-local=scram-sha-256",
                    "-E",
                    "UTF8",
                    "--no-sync",
                ]
            ),
            **quiet,  # type: ignore[call-overload]
        )
        port = free_port()
        options = (
            f"-p {port} -k {sockets} -c listen_addresses=127.0.0.1 -c fsync=off "
            "-c synchronous_commit=off -c full_page_writes=off -c max_connections=60"
        )
        subprocess.run(
            _as_postgres(
                [
                    str(folder_of_bins / "pg_ctl"),
                    "-D",
                    str(data),
                    "-o",
                    options,
                    "-l",
                    str(folder / "log"),
                    "-w",
                    "-t",
                    "60",
                    "start",
                ]
            ),
            start_new_session=True,
            **quiet,  # type: ignore[call-overload]
        )
        started = True
        yield Server(port, password, folder)
    finally:
        if started:
            _stop(folder_of_bins, data)
        shutil.rmtree(folder, ignore_errors=True)


def _stop(bins: Path, data: Path) -> None:
    """Stop the server: ``pg_ctl stop``, and the postmaster's group killed if it hangs."""
    pid_file = data / "postmaster.pid"
    pid = int(pid_file.read_text().split()[0]) if pid_file.exists() else None
    with contextlib.suppress(subprocess.TimeoutExpired):
        subprocess.run(
            _as_postgres([str(bins / "pg_ctl"), "-D", str(data), "-m", "fast", "-w", "stop"]),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            timeout=60,
            check=False,
        )
    if pid is not None and pid_file.exists():  # still running: end its whole group
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(os.getpgid(pid), signal.SIGKILL)
