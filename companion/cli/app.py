"""The ``companion`` command line's entry point: a thin layer over ``scorers`` and the history.

Start-up is kept short: heavy modules are imported inside the commands that
use them; :func:`main` builds the typer app (:mod:`companion.cli.root`) with
only the command the command line runs, and a plain ``rules search`` or
``score --json --no-save`` is answered before typer is even imported
(:mod:`companion.cli.quick`). The help,
the options and the output are the same on every path. ``app`` is the whole
typer app, for callers that run commands in-process (the tests).
"""

import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import typer

ROOT_OPTIONS_WITH_VALUE = ("--db",)
"""The root's options that take a value; its other options are flags."""


def command_of(args: list[str]) -> str | None:
    """The command a command line runs, when it is sure; ``None`` for the whole app.

    Only ``--db PATH`` (or ``--db=PATH``) may come before the command: any
    other option (``--help``, ``--version``, an unknown one) and an unknown
    command go to the whole app, which answers them as always.
    """
    from companion.cli.root import COMMANDS

    k = 0
    while k < len(args):
        token = args[k]
        if token in ROOT_OPTIONS_WITH_VALUE:
            k += 2
        elif token.partition("=")[0] in ROOT_OPTIONS_WITH_VALUE and "=" in token:
            k += 1
        elif token.startswith("-"):
            return None
        else:
            return token if token in COMMANDS else None
    return None


def main() -> None:
    """Run the command line (a game whose kit lacks something is said in one line)."""
    from companion.cli.quick import quick
    from scorers import GameMissing

    args = sys.argv[1:]
    try:
        if quick(args):
            return
        from companion.cli.root import build

        build(command_of(args))(prog_name="companion")
    except GameMissing as error:
        print(f"Error: {error}", file=sys.stderr)
        raise SystemExit(1) from None


def __getattr__(name: str) -> "typer.Typer":
    """``app``: the typer app with every command, built on first use."""
    if name == "app":
        from companion.cli.root import build

        app = build()
        globals()["app"] = app
        return app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


if __name__ == "__main__":
    main()
