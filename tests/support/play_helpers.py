"""Driving the real prompts from tests: keys for questionary, a fixed seed source."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from typer.testing import CliRunner, Result

from companion.cli.app import app

DOWN = "\x1b[B"
UP = "\x1b[A"
LEFT = "\x1b[D"
CTRL_C = "\x03"
CLEAR = "\x15"  # Ctrl-U: clears a text prompt after a refused answer


def sel(index: int) -> str:
    """Pick the entry ``index`` places below the one pointed at (0: the one pointed at)."""
    return DOWN * index + "\r"


def yes_from_no() -> str:
    """Pick "Yes" in a yes/no list that points at "No"."""
    return UP + "\r"


def txt(text: str) -> str:
    """Type an answer and press Enter (a default in the field is replaced)."""
    return text + "\r"


def undo(choices: int) -> str:
    """Pick "Undo" in a list of ``choices`` entries."""
    return sel(choices)


def rules(choices: int) -> str:
    """Pick "Rules" in a list of ``choices`` entries."""
    return sel(choices + 1)


def pause(choices: int) -> str:
    """Pick "Pause" in a list of ``choices`` entries."""
    return sel(choices + 2)


def run(args: list[str], keys: str) -> Result:
    """Run the CLI with questionary reading ``keys`` from a pipe."""
    with create_pipe_input() as pipe:
        pipe.send_text(keys)
        with create_app_session(input=pipe, output=DummyOutput()):
            return CliRunner().invoke(app, args)


def keystrokes(keys: str) -> int:
    """Keys pressed: an arrow key (an escape sequence) counts once."""
    return len(keys.replace(DOWN, "v").replace(UP, "^").replace(LEFT, "<"))


def saved(db: Path) -> list[dict[str, Any]]:
    """The games in a history: id, game, score file, result, start seat, status."""
    with sqlite3.connect(db) as conn:
        rows = conn.execute(
            "SELECT id, game, score_file, result, status FROM plays ORDER BY id"
        ).fetchall()
        starts = dict(conn.execute("SELECT play_id, seat FROM play_players WHERE start_player = 1"))
    conn.close()
    return [
        {
            "id": i,
            "game": g,
            "score_file": json.loads(f),
            "result": json.loads(r),
            "start": starts.get(i),
            "status": s,
        }
        for i, g, f, r, s in rows
    ]


def sessions(db: Path) -> list[tuple[int, str, str]]:
    """``(id, game, status)`` of every session."""
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT id, game, status FROM sessions ORDER BY id").fetchall()
    conn.close()
    return rows


def events(db: Path, session: int) -> list[tuple[str, Any]]:
    """The saved answers and draws of a session, in order."""
    with sqlite3.connect(db) as conn:
        rows = conn.execute(
            "SELECT key, value FROM session_events WHERE session_id = ? ORDER BY seq", (session,)
        ).fetchall()
    conn.close()
    return [(k, json.loads(v)) for k, v in rows]


def answers(db: Path, session: int) -> list[tuple[str, Any]]:
    """The saved answers of a session (no draws, no clock marks), in order."""
    from companion.events import is_answer

    return [(k, v) for k, v in events(db, session) if is_answer(k)]
