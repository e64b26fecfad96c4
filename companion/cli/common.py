"""Pieces every command shares: options, errors, output and the history."""

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NoReturn

import typer

if TYPE_CHECKING:
    from rich.console import RenderableType

    from companion.history.store import History

DbOption = Annotated[
    Path | None,
    typer.Option(
        "--db",
        envvar="COMPANION_DB",
        metavar="PATH",
        help="History database file (default: companion's file in your data directory).",
        show_envvar=True,
    ),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")]


def fail(message: str, code: int = 1) -> NoReturn:
    """Print ``Error: message`` to standard error and exit with ``code``.

    Invisible and control characters in the message (from a file name, say)
    are shown as escapes, never sent to the terminal.
    """
    from companion.terminal.safe_text import lines

    typer.echo(f"Error: {lines(message)}", err=True)
    raise typer.Exit(code)


def fail_with_problems(message: str, problems: Sequence[object], code: int = 2) -> NoReturn:
    """Print ``Error: message`` and each problem indented on its own line, then exit."""
    from companion.terminal.safe_text import line

    text = [f"Error: {line(message)}", *(f"  {line(problem)}" for problem in problems)]
    typer.echo("\n".join(text), err=True)
    raise typer.Exit(code)


def plural(count: int, word: str) -> str:
    """``1 problem``, ``2 problems``."""
    return f"{count} {word}{'' if count == 1 else 's'}"


@contextmanager
def open_history(db: Path | None, *, hint: str = "", write: bool = True) -> Iterator["History"]:
    """Use the history at ``db`` (or the default); any database trouble is one line, exit 1.

    Trouble met while opening it or while the ``with`` body uses it (a lock
    held too long, a read-only file, a full disk, damage) ends the command
    with ``Error: …`` naming the file, never a traceback.

    Args:
        db: The ``--db`` option, if given.
        hint: Added to the error message, e.g. how to go on without the history.
        write: ``False`` for commands that only read: they never create a file
            or a folder, and a missing history reads as an empty one.
    """
    from companion.history.errors import HistoryError
    from companion.history.store import default_path, opened

    try:
        with opened(db or default_path(), write=write, action="use the history") as history:
            if history.backup_path is not None:
                typer.echo(
                    f"The history was upgraded; the old file was kept as {history.backup_path}.",
                    err=True,
                )
            yield history
    except HistoryError as error:
        fail(f"{error}{hint}")


def print_json(document: object) -> None:
    """Print one JSON document on standard output."""
    import json

    typer.echo(json.dumps(document, indent=2, ensure_ascii=False))


def show(renderable: "RenderableType") -> None:
    """Print a rich renderable on standard output, without trailing blanks."""
    from companion.terminal.results import print_clean

    print_clean(renderable)
