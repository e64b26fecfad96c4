"""Writing a file safely: under a temporary name beside it, flushed to disk, then renamed.

Whoever reads the file (or the machine after a crash) finds it either as it
was or complete, never half written. A failure, or Ctrl-C, removes the
temporary file and leaves the target as it was. Every file the companion
writes in place goes through :func:`replacing`: an export, a backup of the
history, the copy kept before the history is upgraded, the rules' search index.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def replacing(target: Path, temporary: Path | None = None, *, sync: bool = True) -> Iterator[Path]:
    """Write ``target`` through a temporary file beside it, renamed over it when complete.

    The body of the ``with`` writes the temporary file, by its path (SQLite
    writes a copy there, say). When the body ends, the file is flushed to
    disk and renamed to ``target`` in one step; on any exception (Ctrl-C
    too) it is removed and ``target`` is left as it was. What a write that was
    killed left beside ``target`` is removed first (:func:`remove_stale`).

    Args:
        target: The file to write.
        temporary: The name to write under, beside ``target``; a file left
            there by an earlier attempt is removed first. Default: a new file
            ``.NAME.PID.XXXXXXXX.part`` made for this write, which gets the
            permissions of any new file (what the umask allows) before it is
            renamed.
        sync: Flush the file to disk before the rename; ``False`` for a
            cache that is built again whenever it is found damaged.

    Yields:
        The temporary file's path.

    Raises:
        OSError: The temporary file cannot be made, written, flushed or renamed.
    """
    made = temporary is None
    remove_stale(target)
    if temporary is None:
        import tempfile

        handle, name = tempfile.mkstemp(
            dir=target.parent, prefix=f".{target.name}.{os.getpid()}.", suffix=".part"
        )
        os.close(handle)
        temporary = Path(name)
    else:
        temporary.unlink(missing_ok=True)
    try:
        yield temporary
        if sync:
            with temporary.open("rb") as written:
                os.fsync(written.fileno())
        if made:
            # mkstemp makes a file its owner alone may read.
            mask = os.umask(0)
            os.umask(mask)
            temporary.chmod(0o666 & ~mask)
        os.replace(temporary, target)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


STALE_AFTER = 24 * 3600
"""A temporary file that names no process is stale after this many seconds."""
_OURS = re.compile(
    r"(?:(?P<pid>\d+)\.)?[A-Za-z0-9_]+\.part|partial-(?P<partial>\d+)(?:-journal|-wal|-shm)?"
)
_ANY_OURS = re.compile(
    r"\..+\.(?:(?P<pid>\d+)\.[A-Za-z0-9_]{8}\.part"
    r"|partial-(?P<partial>\d+)(?:-journal|-wal|-shm)?)"
)
"""A temporary file of ours for another target in the same folder (a backup under
another, dated, name): removed only when it names a process that no longer runs."""


def remove_stale(target: Path) -> list[Path]:
    """Remove the temporary files an earlier write of ``target`` left when it was killed.

    Ours are ``.NAME.PID.XXXXXXXX.part`` (and ``.NAME.partial-PID`` of a backup, with
    the ``-journal`` SQLite keeps beside it while it writes): one whose process no
    longer runs is removed, whatever target it was for (a backup killed while written
    under yesterday's dated name is removed by today's); one of an older companion,
    naming no process, once it is a day old (for this target only). A file of a write
    still going on is left alone.

    Returns:
        The files removed.
    """
    removed: list[Path] = []
    prefix = f".{target.name}."
    try:
        entries = list(os.scandir(target.parent))
    except OSError:
        return removed
    for entry in entries:
        if entry.name.startswith(prefix):
            found = _OURS.fullmatch(entry.name[len(prefix) :])
        else:
            found = _ANY_OURS.fullmatch(entry.name)
            if found is not None and not (found.group("pid") or found.group("partial")):
                continue
        if found is None or not entry.is_file(follow_symlinks=False):
            continue
        pid = found.group("pid") or found.group("partial")
        try:
            if pid is not None:
                written = entry.stat(follow_symlinks=False).st_mtime
                stale = int(pid) != os.getpid() and not _running(int(pid), written)
            else:
                stale = time.time() - entry.stat(follow_symlinks=False).st_mtime > STALE_AFTER
            if stale:
                os.unlink(entry.path)
                removed.append(Path(entry.path))
        except OSError:
            continue
    return removed


def _running(pid: int, since: float | None = None) -> bool:
    """Whether a process ``pid`` runs on this machine (one we may not signal runs too)
    and may have written a file last changed at ``since``: a process killed and not
    yet reaped (a zombie), or one that started after it (the number given again),
    did not."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, OSError):
        return True
    started = _started(pid)
    if started is None:
        return True
    state, at = started
    if state in ("Z", "X"):
        return False
    return since is None or at is None or at <= since + 2


def _started(pid: int) -> tuple[str, float | None] | None:
    """A process's state letter and when it started (seconds since the epoch), where
    the system says (Linux's ``/proc``); ``None`` elsewhere."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as handle:
            fields = handle.read().rsplit(")", 1)[1].split()
        with open("/proc/stat", encoding="ascii", errors="replace") as handle:
            boot = next(
                (float(line.split()[1]) for line in handle if line.startswith("btime ")), None
            )
    except (OSError, IndexError, ValueError):
        return None
    if len(fields) < 20:
        return None
    ticks = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    at = None if boot is None else boot + int(fields[19]) / ticks
    return fields[0], at


def write_bytes(target: Path, data: bytes) -> None:
    """Write ``data`` to ``target`` safely (see :func:`replacing`).

    Raises:
        OSError: It cannot be written; ``target`` is left as it was.
    """
    with replacing(target) as temporary, temporary.open("wb") as file:
        file.write(data)
