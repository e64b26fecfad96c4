"""Records and ratings as tables and JSON documents; names are plain text, never markup."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from companion.analysis.explain import label
from companion.analysis.ratings import Rating, Ratings
from companion.analysis.records import GameRecords, Mark, PersonRecords
from companion.history.after_game import in_game_order
from companion.terminal.safe_text import plain
from scorers import short_title
from scorers.names import name_key

HEADING = "bold"


def _table(*headings: str) -> Table:
    table = Table(box=box.SIMPLE_HEAD, show_edge=False)
    for heading in headings:
        text = heading in ("Game", "Record", "Held by", "Set in", "Player")
        # A long name wraps onto the next line rather than losing its end to an ellipsis.
        table.add_column(heading, justify="left" if text else "right", overflow="fold")
    return table


def set_in(mark: Mark) -> str:
    """Where a record was set: ``#12, 2026-01-04``."""
    return f"#{mark.play}, {mark.played_at[:10]}"


NO_SCORE = "no score yet"
"""Held by, for the highest total of a game whose plays were never scored (blank scores)."""


def group_rows(records: GameRecords, *, categories: bool) -> list[tuple[str, Mark | None]]:
    """The group's records that are held; the highest total always, ``None`` if never scored.

    A game whose plays all have blank scores still has plays (and may have a
    streak), so it keeps a line saying it has no score yet.
    """
    rows: list[tuple[str, Mark | None]] = [
        ("Highest total", records.best_total),
        ("Biggest winning margin", records.biggest_margin),
        ("Longest win streak", records.longest_streak),
    ]
    if categories:
        rows.extend((f"Most in {label(records.game, c)}", m) for c, m in records.categories.items())
    return [(name, mark) for k, (name, mark) in enumerate(rows) if mark is not None or k == 0]


def _cells(mark: Mark | None) -> tuple[str, str | Text, str]:
    """Value, holders and where it was set; a dash and "no score yet" for no mark."""
    if mark is None:
        return "-", NO_SCORE, ""
    return str(mark.value), plain(mark.who), set_in(mark)


def records_tables(found: Mapping[str, GameRecords], game: str | None) -> RenderableType:
    """The group's records (of every game, or of one with its categories and personal bests).

    Args:
        found: Each game's records, by game id (see :func:`companion.history.after_game.records`).
        game: The one game asked for, or ``None`` for every game.
    """
    if game is not None:
        records = found[game]
        group = _table("Record", "Value", "Held by", "Set in")
        for name, mark in group_rows(records, categories=True):
            group.add_row(plain(name), *_cells(mark))
        people = _table("Player", "Games", "Wins", "Best total", "Biggest win", "Longest streak")
        for person in _people(records):
            people.add_row(
                plain(person.name),
                str(person.plays),
                str(person.wins),
                _value(person.best_total),
                _value(person.biggest_margin),
                _value(person.longest_streak),
            )
        return Group(
            Text(f"{short_title(game)} records ({_games(records.plays)})", HEADING),
            group,
            Text(""),
            Text("Personal bests", HEADING),
            people,
        )
    table = _table("Game", "Record", "Value", "Held by", "Set in")
    for gid in in_game_order(found):
        for k, (name, mark) in enumerate(group_rows(found[gid], categories=False)):
            table.add_row(plain(short_title(gid)) if k == 0 else "", name, *_cells(mark))
    return Group(Text("The group's records", HEADING), table)


def _games(count: int) -> str:
    return f"{count} game{'' if count == 1 else 's'}"


def _value(mark: Mark | None) -> str:
    return "-" if mark is None else str(mark.value)


def _people(records: GameRecords) -> list[PersonRecords]:
    """Everyone with a record in the game, best total first, then by name."""
    return sorted(
        records.people.values(),
        key=lambda p: (-(p.best_total.value if p.best_total else -(10**9)), name_key(p.name)),
    )


def _mark_json(mark: Mark | None) -> dict[str, Any] | None:
    if mark is None:
        return None
    return {
        "value": mark.value,
        "holders": list(mark.holders),
        "play": mark.play,
        "played_at": mark.played_at,
    }


def records_json(found: Mapping[str, GameRecords]) -> dict[str, Any]:
    """Every game's records as one JSON document (``history records --json``)."""
    return {
        "games": [
            {
                "game": gid,
                "plays": records.plays,
                "highest_total": _mark_json(records.best_total),
                "biggest_margin": _mark_json(records.biggest_margin),
                "longest_streak": _mark_json(records.longest_streak),
                "categories": {c: _mark_json(m) for c, m in records.categories.items()},
                "people": [
                    {
                        "name": p.name,
                        "plays": p.plays,
                        "wins": p.wins,
                        "current_streak": p.current_streak,
                        "best_total": _mark_json(p.best_total),
                        "biggest_margin": _mark_json(p.biggest_margin),
                        "longest_streak": _mark_json(p.longest_streak),
                        "categories": {c: _mark_json(m) for c, m in p.categories.items()},
                    }
                    for p in _people(records)
                ],
            }
            for gid in in_game_order(found)
            for records in (found[gid],)
        ]
    }


def ratings_table(ratings: Ratings, game: str | None) -> RenderableType:
    """Everyone's rating, best first: rating, skill, uncertainty and games rated.

    Args:
        ratings: From :func:`companion.history.after_game.ratings`.
        game: A game id, or ``None`` for the ratings over every game.
    """
    table = _table("#", "Player", "Rating", "Skill", "Uncertainty", "Games")
    for place, rating in enumerate(ratings.table(game), 1):
        table.add_row(
            str(place),
            plain(rating.name),
            f"{rating.ordinal:.1f}",
            f"{rating.mu:.1f}",
            f"{rating.sigma:.1f}",
            str(rating.plays),
        )
    scope = f"{short_title(game)} ratings" if game else "Ratings over every game"
    return Group(Text(f"{scope} ({_games(ratings.plays)} rated)", HEADING), table)


def _rating_json(place: int, rating: Rating) -> dict[str, Any]:
    return {
        "rank": place,
        "name": rating.name,
        "rating": round(rating.ordinal, 3),
        "mu": round(rating.mu, 3),
        "sigma": round(rating.sigma, 3),
        "plays": rating.plays,
    }


def ratings_json(ratings: Ratings, game: str | None) -> dict[str, Any]:
    """The ratings as one JSON document (``history ratings --json``)."""
    return {
        "game": game,
        "plays": ratings.plays,
        "ratings": [_rating_json(k, r) for k, r in enumerate(ratings.table(game), 1)],
    }
