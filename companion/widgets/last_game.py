"""The last game played of a game, with its winner, shown on the game's page."""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any

from companion.widgets.drafts import reading
from scorers import join_names


def last_game(game: str, db: Path | None = None) -> dict[str, Any] | None:
    """The most recent play of ``game`` (its ``history list --json`` entry), if any.

    Raises:
        HistoryError: The history cannot be read.
    """
    from companion.history.model import Filter

    with reading(db) as history:
        found = history.summaries(Filter(game=game), limit=1)
    return found[-1] if found else None


def last_game_html(summary: dict[str, Any] | None) -> str:
    """``Last game: #12 on 2026-01-03, won by Aki (61) against Ben (58).`` (escaped)."""
    if summary is None:
        return ""
    day = str(summary.get("played_at") or "")[:10]
    players = [p for p in summary.get("players", []) if isinstance(p, dict)]
    scores = ", ".join(
        f"{p.get('name')}" + (f" {p['total']}" if p.get("total") is not None else "")
        for p in players
    )
    winners = [str(w) for w in summary.get("winners", [])]
    if summary.get("status") == "interim":
        outcome = "an interim scoring"
    elif winners:
        outcome = f"won by {join_names(winners)}"
    else:
        outcome = "no winner recorded"
    text = f"Last game: #{summary.get('id')} on {day}, {outcome} ({scores})."
    return f"<p class='last-game-text'>{html.escape(text, quote=False)}</p>"
