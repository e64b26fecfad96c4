"""The history page: stats, head-to-head, wins over time and score distributions."""

from __future__ import annotations

import html
from collections import defaultdict
from pathlib import Path
from typing import Any

import ipywidgets as w

from companion.history import History, default_path
from companion.stats import Stats, compute

COLOURS = ("#c33", "#36c", "#3a3", "#c80", "#939", "#099", "#666", "#a52")


def history_page(db: Path | None = None) -> w.VBox:
    """Everything ``history.ipynb`` shows, from the history at ``db``."""
    with History(db or default_path()) as history:
        stats = compute(history.seat_rows())
        summaries = history.summaries()
    if not stats.players:
        return w.VBox([w.HTML("No games recorded yet.")])
    return w.VBox(
        [
            w.HTML("<h3>Players</h3>" + players_table(stats)),
            w.HTML("<h3>Head to head</h3>" + head_to_head_table(stats)),
            w.HTML("<h3>Wins over time</h3>" + wins_chart(summaries)),
            w.HTML("<h3>Scores per game</h3>" + distributions(summaries)),
        ]
    )


def table(headings: list[str], rows: list[list[object]]) -> str:
    """A plain HTML table."""
    head = "".join(f"<th>{html.escape(h)}</th>" for h in headings)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(str(v))}</td>" for v in row) + "</tr>" for row in rows
    )
    return f"<table><tr>{head}</tr>{body}</table>"


def players_table(stats: Stats) -> str:
    """Plays, wins, win rate, streak, rival and nemesis per player."""
    return table(
        ["Player", "Plays", "Wins", "Win rate", "Streak", "Rival", "Nemesis"],
        [
            [
                p.name,
                p.plays,
                p.wins,
                f"{p.win_rate:.0%}",
                p.streak,
                p.rival or "-",
                p.nemesis or "-",
            ]
            for p in stats.players
        ],
    )


def head_to_head_table(stats: Stats) -> str:
    """How often each of two players finished above the other."""
    return table(
        ["Player", "Opponent", "Plays", "Ahead", "Behind", "Level"],
        [[h.a, h.b, h.plays, h.a_above, h.b_above, h.ties] for h in stats.head_to_head],
    )


def wins_chart(summaries: list[dict[str, Any]], width: int = 480, height: int = 160) -> str:
    """Each player's running total of wins, game after game, as an SVG line chart."""
    running: dict[str, list[int]] = defaultdict(list)
    names: list[str] = []
    for k, play in enumerate(summaries):
        for p in play["players"]:
            if p["name"] not in names:
                names.append(p["name"])
        for name in names:
            series = running[name]
            while len(series) < k:
                series.append(series[-1] if series else 0)
            won = name in play["winners"]
            series.append((series[-1] if series else 0) + (1 if won else 0))
    count = len(summaries)
    top = max((max(s) for s in running.values()), default=1) or 1
    lines = []
    for index, name in enumerate(names):
        points = " ".join(
            f"{(k + 1) * width / count:.0f},{height - v * height / top:.0f}"
            for k, v in enumerate(running[name])
        )
        colour = COLOURS[index % len(COLOURS)]
        lines.append(
            f"<polyline fill='none' stroke='{colour}' stroke-width='2' points='{points}'/>"
        )
    legend = " ".join(
        f"<span style='color:{COLOURS[i % len(COLOURS)]}'>■ {html.escape(n)}</span>"
        for i, n in enumerate(names)
    )
    return (
        f"<svg width='{width}' height='{height}' class='wins'>{''.join(lines)}</svg>"
        f"<div>{legend}</div>"
    )


def distributions(summaries: list[dict[str, Any]], buckets: int = 8) -> str:
    """For each game, how many scores fell in each range, as bars."""
    by_game: dict[str, list[int]] = defaultdict(list)
    for play in summaries:
        by_game[str(play["game"])] += [p["total"] for p in play["players"]]
    parts = []
    for game, scores in sorted(by_game.items()):
        low, high = min(scores), max(scores)
        step = max(1, -(-(high - low + 1) // buckets))
        counts = [0] * (((high - low) // step) + 1)
        for score in scores:
            counts[(score - low) // step] += 1
        most = max(counts)
        bars = "".join(
            f"<div><span style='display:inline-block;width:6em'>{low + k * step}-"
            f"{low + (k + 1) * step - 1}</span><span style='display:inline-block;"
            f"background:#36c;height:0.8em;width:{200 * c // most}px'></span> {c}</div>"
            for k, c in enumerate(counts)
        )
        parts.append(f"<p><b>{html.escape(game)}</b></p>{bars}")
    return "".join(parts)
