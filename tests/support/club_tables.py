"""Tables of a club for the club's tests: histories filled with plays, synced through the CLI."""

from __future__ import annotations

import json
import random
import sqlite3
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from typer.testing import CliRunner, Result

from companion.cli.app import app
from companion.history.store import History
from tests.support.history_fixture import random_play


def table(path: Path, prefix: str, count: int, *, seed: int = 0) -> Path:
    """A history at ``path`` with ``count`` plays of every shape, uuids ``{prefix}-{k}``."""
    rng = random.Random(f"{prefix}{seed}")
    start = datetime(2026, 3, 1, 18, tzinfo=UTC) + timedelta(hours=sum(map(ord, prefix)))
    plays = []
    for k in range(count):
        # Each play at its own time (plays of one second come in the order of their uuids).
        at = (start + timedelta(minutes=k)).strftime("%Y-%m-%dT%H:%M:%SZ")
        plays.append(replace(random_play(rng, k), uuid=f"{prefix}-{k}", played_at=at))
    with History(path) as history:
        history.add(plays, keep_ids=False)
    return path


def run(*args: str) -> Result:
    """``companion ARGS`` through the CLI."""
    return CliRunner().invoke(app, list(args))


def sync(url: str, db: Path) -> Result:
    """``companion club sync URL --db DB``."""
    return run("club", "sync", url, "--db", str(db))


def contents(db: Path) -> dict[str, dict[str, Any]]:
    """Every play of the history, by folded uuid, as our export writes it (no local number)."""
    with History(db, write=False) as history:
        plays = history.plays()
    found = {}
    for play in plays:
        entry = play.to_json()
        del entry["id"]
        found[play.uuid.lower()] = entry
    return found


def stats(db: Path) -> Any:
    """``companion history stats --json`` of the history."""
    result = run("history", "stats", "--json", "--db", str(db))
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def sql(db: Path, statement: str, *params: object) -> list[tuple[Any, ...]]:
    """Run one statement on the history file directly (as any other code might)."""
    with sqlite3.connect(db) as connection:
        return connection.execute(statement, params).fetchall()
