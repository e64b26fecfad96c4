"""Run several companion commands in one process and print their outcomes as JSON.

Used by the fault tests to run commands as another user (``setpriv``) or in a
private mount namespace (``unshare``) without paying a process start each:

    python -m tests.support.cli_driver '[["history", "list", "--db", "h.sqlite3"], ...]'

Prints one JSON list of ``{"code", "stdout", "stderr", "traceback"}``. A
command given as ``["fill", PATH]`` instead writes zeros to PATH until the
disk is full (for the full-disk tests).
"""

from __future__ import annotations

import json
import sys
import traceback
from typing import Any


def fill(path: str) -> dict[str, object]:
    """Write to ``path`` until the disk is full."""
    written = 0
    try:
        with open(path, "wb") as handle:
            while True:
                handle.write(b"\0" * 4096)
                handle.flush()
                written += 4096
    except OSError:
        pass
    return {"code": 0, "stdout": str(written), "stderr": "", "traceback": None}


def invoke_at_terminal(args: list[str]) -> Any:
    """Run one command as if at a terminal where nobody types (input at its end).

    The play commands refuse to start without a terminal; with this they get
    as far as the history, which is what the fault tests are about. A prompt
    that is reached anyway meets the end of its input instead of waiting.
    """
    from prompt_toolkit.application import create_app_session
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput
    from typer.testing import CliRunner

    from companion.cli.app import app

    with create_pipe_input() as pipe:
        pipe.close()
        with create_app_session(input=pipe, output=DummyOutput()):
            return CliRunner().invoke(app, args)


def main() -> None:
    outcomes = []
    for args in json.loads(sys.argv[1]):
        if args[0] == "fill":
            outcomes.append(fill(args[1]))
            continue
        result = invoke_at_terminal(args)
        crash = None
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            crash = "".join(traceback.format_exception(result.exception))
        outcomes.append(
            {
                "code": result.exit_code,
                "stdout": result.stdout,
                "stderr": result.stderr,
                "traceback": crash,
            }
        )
    print(json.dumps(outcomes))


if __name__ == "__main__":
    main()
