"""The stats as rich tables with small bar charts; names are plain text, never markup."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from companion.analysis.stats import Stats
from companion.terminal.safe_text import plain
from scorers import title

if TYPE_CHECKING:
    from companion.history.after_game import Length

BAR_WIDTH = 10


def bar(fraction: float, width: int = BAR_WIDTH) -> str:
    """A bar of ``width`` cells, filled to ``fraction`` (0 to 1) in eighths."""
    eighths = round(max(0.0, min(1.0, fraction)) * width * 8)
    full, part = divmod(eighths, 8)
    return ("█" * full + (" ▏▎▍▌▋▊▉"[part] if part else "")).ljust(width)


def _number(value: float | None, fmt: str = "") -> str:
    """A figure, or ``-`` when there is none (nothing was scored)."""
    return "-" if value is None else format(value, fmt)


def _table(*headings: str) -> Table:
    table = Table(box=box.SIMPLE_HEAD, show_edge=False)
    for heading in headings:
        text = heading in ("Player", "Opponent", "Game", "Rival", "Nemesis", "By", "")
        # A long name wraps onto the next line rather than losing its end to an ellipsis.
        table.add_column(heading, justify="left" if text else "right", overflow="fold")
    return table


def stats_tables(stats: Stats) -> RenderableType:
    """Players, scores per game, games and head-to-head, one table each."""
    players = _table("Player", "Plays", "Wins", "Win rate", "", "Streak", "Rival", "Nemesis")
    for p in stats.players:
        players.add_row(
            plain(p.name),
            str(p.plays),
            str(p.wins),
            f"{p.win_rate:.0%}",
            bar(p.win_rate),
            str(p.streak),
            plain(p.rival or "-"),
            plain(p.nemesis or "-"),
        )
    scores = _table("Player", "Game", "Plays", "Average", "Best")
    for p in stats.players:
        for game, record in sorted(p.games.items()):
            scores.add_row(
                plain(p.name),
                plain(title(game)),
                str(record.plays),
                _number(record.average, ".1f"),
                _number(record.best),
            )
    games = _table("Game", "Plays", "High score", "By", "Avg winning", "Avg margin")
    for g in stats.games:
        games.add_row(
            plain(title(g.game)),
            str(g.plays),
            _number(g.high_score),
            plain(", ".join(g.high_scorers)),
            _number(g.average_winning_score, ".1f"),
            _number(g.average_margin, ".1f"),
        )
    pairs = _table("Player", "Opponent", "Plays", "Ahead", "", "Behind", "Level")
    for h in stats.head_to_head:
        pairs.add_row(
            plain(h.a),
            plain(h.b),
            str(h.plays),
            str(h.a_above),
            bar(h.share_above(h.a), 6),
            str(h.b_above),
            str(h.ties),
        )
    heading = "bold"
    return Group(
        Text("Players", heading),
        players,
        Text(""),
        Text("Scores per game", heading),
        scores,
        Text(""),
        Text("Games", heading),
        games,
        Text(""),
        Text("Head to head (ahead: the player finished above the opponent)", heading),
        pairs,
    )


def lengths_table(lengths: Sequence[Length]) -> RenderableType:
    """The average length of each game at each player count (games with a length only)."""
    from companion.analysis.clock import minutes_text

    table = _table("Game", "Players", "Games", "Average")
    for length in lengths:
        table.add_row(
            plain(title(length.game)),
            str(length.players),
            str(length.plays),
            minutes_text(round(length.average_min)),
        )
    return Group(
        Text(""),
        Text("Time at the table (games whose length is known)", "bold"),
        table,
    )
