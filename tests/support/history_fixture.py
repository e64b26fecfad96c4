"""A small hand-made history used by the stats, export and import tests."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path
from typing import Any

from companion.history.model import Person, Play
from companion.history.store import History
from scorers.names import name_key

# (game, date, [(name, total, rank)], winners)
PLAYS: list[tuple[str, str, list[tuple[str, int, int]], list[str]]] = [
    ("tokaido", "2026-01-01", [("Aki", 60, 1), ("Ben", 50, 2), ("Cho", 40, 3)], ["Aki"]),
    ("tokaido", "2026-01-02", [("Aki", 55, 1), ("Ben", 55, 1), ("Cho", 30, 3)], ["Aki", "Ben"]),
    (
        "shogun",
        "2026-01-03",
        [("Ben", 40, 1), ("Aki", 35, 2), ("Cho", 35, 3), ("Dai", 20, 4)],
        ["Ben"],
    ),
    ("tokaido", "2026-01-04", [("Cho", 70, 1), ("Aki", 65, 2), ("Ben", 52, 3)], ["Cho"]),
    ("shibuya", "2026-01-05", [("Aki", 6, 1), ("Dai", 3, 2)], ["Aki"]),
    ("tokaido", "2026-01-06", [("Ben", 61, 1), ("Aki", 58, 2)], ["Ben"]),
    ("shogun", "2026-01-07", [("Aki", 50, 1), ("Ben", 45, 2), ("Cho", 44, 3)], ["Aki"]),
]


def result(game: str, seats: list[tuple[str, int, int]], winners: list[str]) -> dict[str, Any]:
    category = {"tokaido": "journey", "shogun": "provinces", "shibuya": "goals"}[game]
    return {
        "game": game,
        "players": [
            {"name": n, "total": t, "rank": r, "breakdown": {category: t}} for n, t, r in seats
        ],
        "winners": winners,
        "tiebreak": None,
    }


def filled(path: Path) -> None:
    """Make sure the history at ``path`` holds the fixture plays (a test before may have
    saved a game of its own there: the plays are added once, beside it)."""
    if path.exists():
        with History(path) as history:
            if len(history.plays()) >= len(PLAYS):
                return
    fill(path)


def fill(path: Path) -> None:
    """Write the fixture plays into a new history at ``path``."""
    with History(path) as history:
        for k, (game, day, seats, winners) in enumerate(PLAYS):
            history.record(
                game=game,
                score_file=None,
                result=result(game, seats, winners),
                played_at=f"{day}T20:00:00Z",
                location="Aki's place" if k % 2 == 0 else "",
                notes="first game of the year" if k == 0 else "",
                duration_min=45 + k,
                start_player=0 if k != 3 else 1,
            )


def damage_page_2(db_path: Path) -> None:
    """A history of 7 games with garbage in the cell pointers of page 2."""
    fill(db_path)
    with sqlite3.connect(db_path) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        size = db.execute("PRAGMA page_size").fetchone()[0]
    db.close()
    with db_path.open("r+b") as handle:
        handle.seek(size + 8)
        handle.write(b"\xff" * 60)


POOL = ["Aki", "aki", "Ben", "Cho", "Dai", "Émi", "Fay", "Gen"]


def random_play(rng: random.Random, k: int) -> Play:
    """One play of any shape: teams (members known or not), anonymous people,
    blank scores, unknown ranks, shared wins or none, ignored and interim."""
    game = rng.choice(["tokaido", "shogun", "shibuya", "kamakura"])
    names: list[str] = []
    for name in rng.sample(POOL, len(POOL)):
        if name_key(name) not in {name_key(n) for n in names}:
            names.append(name)
    sides: list[dict[str, Any]] = []
    people: list[Person] = []
    teams = game == "shibuya" and rng.random() < 0.5
    for side in range(2 if teams else rng.randint(1, 4)):
        if teams:
            name = ["Red", "Blue"][side]
            members = [] if rng.random() < 0.2 else [names.pop(), names.pop()]
            people += [Person(m, side, rng.random() < 0.1) for m in members]
        else:
            anonymous = rng.random() < 0.15
            name = f"Anonymous player {side + 1}" if anonymous else names.pop()
            people.append(Person(name, side, anonymous))
        total = None if rng.random() < 0.15 else rng.randint(-5, 12)
        rank = None if rng.random() < 0.2 else rng.randint(1, 3)
        sides.append({"name": name, "total": total, "rank": rank, "breakdown": {}})
    winners = [s["name"] for s in sides if rng.random() < 0.4]
    day = rng.randint(1, 9)  # plays often share a time
    return Play(
        id=0,
        uuid=f"play-{k}",
        played_at=f"2026-03-0{day}T20:00:00Z",
        game=game,
        score_file=None,
        result={"game": game, "players": sides, "winners": winners, "tiebreak": None},
        people=tuple(people),
        ignored=rng.random() < 0.1,
        status="interim" if rng.random() < 0.1 else "final",
        start_player=0 if people and rng.random() < 0.5 else None,
    )
