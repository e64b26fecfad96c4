"""Writing a file safely: under a temporary name beside it, flushed to disk, then renamed.

Whoever reads the file (or the machine after a crash) finds it either as it
was or complete, never half written. A failure, or Ctrl-C, removes the
temporary file and leaves the target as it was. Every file the companion
writes in place goes through :func:`replacing`: an export, a backup of the
history, the copy kept before the history is upgraded, the rules' search index.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def replacing(target: Path, temporary: Path | None = None, *, sync: bool = True) -> Iterator[Path]:
    """Write ``target`` through a temporary file beside it, renamed over it when complete.

    The body of the ``with`` writes the temporary file, by its path (SQLite
    writes a copy there, say). When the body ends, the file is flushed to
    disk and renamed to ``target`` in one step; on any exception (Ctrl-C
    too) it is removed and ``target`` is left as it was.

    Args:
        target: The file to write.
        temporary: The name to write under, beside ``target``; a file left
            there by an earlier attempt is removed first. Default: a new file
            ``.NAME.XXXXXXXX.part`` made for this write, which gets the
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
    if temporary is None:
        import tempfile

        handle, name = tempfile.mkstemp(
            dir=target.parent, prefix=f".{target.name}.", suffix=".part"
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


def write_bytes(target: Path, data: bytes) -> None:
    """Write ``data`` to ``target`` safely (see :func:`replacing`).

    Raises:
        OSError: It cannot be written; ``target`` is left as it was.
    """
    with replacing(target) as temporary, temporary.open("wb") as file:
        file.write(data)
