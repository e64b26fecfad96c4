"""The history page: the saved games (filter, open, delete), stats and charts with axes."""

from __future__ import annotations

import html
from collections import defaultdict
from pathlib import Path
from typing import Any

import ipywidgets as w

from companion.history import Filter, History, HistoryError, default_path
from companion.stats import Stats, compute
from companion.widgets.page import close_all, navigation, wait_for_visitor
from companion.widgets.style import style

COLOURS = ("#c33", "#36c", "#3a3", "#c80", "#939", "#099", "#666", "#a52")
LIST_LIMIT = 200


class HistoryPage:
    """Saved games with filters, each one opened or deleted; then the stats.

    Args:
        db: The history file (default: ``COMPANION_DB`` or the user's).
    """

    def __init__(self, db: Path | None = None) -> None:
        from companion.widgets.page import PAGES

        self.db = db
        self.game = w.Dropdown(
            options=[("every game", ""), *((g, g) for g in PAGES)],
            value="",
            layout=w.Layout(width="12em"),
        )
        self.player = w.Dropdown(
            options=[("every player", "")], value="", layout=w.Layout(width="14em")
        )
        self.game.observe(lambda _: self.refresh(), names="value")
        self.player.observe(lambda _: self.refresh(), names="value")
        self.count = w.HTML()
        self.plays = w.VBox()
        self.plays.add_class("play-list")
        self.detail = w.HTML()
        self.detail.add_class("play-detail")
        self.status = w.HTML()
        self.status.add_class("history-status")
        self.stats = w.VBox()
        self.pending_delete: int | None = None
        self.widget = w.VBox(
            [
                style(),
                navigation("history"),
                w.HTML("<h2>Game history</h2>"),
                w.HBox([self.game, self.player, self.count]),
                self.status,
                self.plays,
                self.detail,
                self.stats,
            ]
        )
        self.widget.add_class("companion")
        self.widget.add_class("page-history")
        self.rows: dict[int, w.HBox] = {}

    def _history(self) -> History:
        return History(self.db or default_path())

    def open(self) -> w.VBox:
        """The page for a notebook cell (reads the history when the visitor arrives)."""
        wait_for_visitor()
        self.refresh()
        return self.widget

    def refresh(self) -> None:
        """Read the history again and show the list and the stats for the filters."""
        where = Filter(game=self.game.value or None, player=self.player.value or None)
        try:
            with self._history() as history:
                summaries = history.summaries(where)
                everyone = sorted(
                    {p["name"] for s in history.summaries() for p in s["players"]},
                    key=str.casefold,
                )
                stats = compute(history.seat_rows(where))
        except HistoryError as error:
            self.status.value = f"<span class='problem'>{html.escape(str(error))}</span>"
            return
        current = self.player.value
        self.player.options = [("every player", ""), *((n, n) for n in everyone)]
        self.player.value = current if current in everyone else ""
        shown = list(reversed(summaries))[:LIST_LIMIT]
        self.count.value = f"{len(summaries)} game{'s' if len(summaries) != 1 else ''}"
        replaced = list(self.plays.children)
        self.rows = {s["id"]: self._row(s) for s in shown}
        self.plays.children = list(self.rows.values())
        if not summaries:
            self.plays.children = [w.HTML("No games recorded yet.")]
        for old in replaced:  # only once they are off the page
            close_all(old)
        self.stats.children = stats_widgets(stats, summaries)

    def _row(self, summary: dict[str, Any]) -> w.HBox:
        play_id = summary["id"]
        players = ", ".join(f"{p['name']} {p['total']}" for p in summary["players"])
        winners = ", ".join(summary["winners"])
        text = w.HTML(
            f"<b>#{play_id}</b> {html.escape(summary['played_at'][:16].replace('T', ' '))} "
            f"<b>{html.escape(summary['game'])}</b>: {html.escape(players)}"
            f" — won by {html.escape(winners or 'nobody')}"
        )
        show = w.Button(description="Open", layout=w.Layout(width="6em"))
        show.add_class(f"open-{play_id}")
        show.on_click(lambda _: self.show(play_id))
        delete = w.Button(description="Delete", button_style="danger", layout=w.Layout(width="6em"))
        delete.add_class(f"delete-{play_id}")
        delete.on_click(lambda _: self.ask_delete(play_id))
        row = w.HBox([text, show, delete])
        row.add_class("play-row")
        return row

    def show(self, play_id: int) -> None:
        """The breakdown of one saved game."""
        from companion.widgets.score_form import result_html

        try:
            with self._history() as history:
                play = history.get(play_id)
        except HistoryError as error:
            self.detail.value = f"<span class='problem'>{html.escape(str(error))}</span>"
            return
        self.detail.value = (
            f"<h3>Game #{play.id}: {html.escape(play.game)}, "
            f"{html.escape(play.played_at.replace('T', ' ').rstrip('Z'))} UTC</h3>"
            + result_html(play.result)
        )

    def ask_delete(self, play_id: int) -> None:
        """Ask before deleting: Delete and Keep buttons in place of the row's."""
        row = self.rows.get(play_id)
        if row is None:
            return
        self.pending_delete = play_id
        sure = w.Button(description="Yes, delete it", button_style="danger")
        sure.add_class("confirm-delete")
        keep = w.Button(description="Keep it")
        keep.add_class("keep")
        sure.on_click(lambda _: self.delete(play_id))
        keep.on_click(lambda _: self.refresh())
        question = w.HTML(f"Delete game #{play_id} for good?")
        row.children = [row.children[0], question, sure, keep]

    def delete(self, play_id: int) -> None:
        """Delete a game (after :meth:`ask_delete`)."""
        try:
            with self._history() as history:
                history.delete(play_id)
        except HistoryError as error:
            self.status.value = f"<span class='problem'>{html.escape(str(error))}</span>"
            return
        self.pending_delete = None
        self.detail.value = ""
        self.status.value = f"<span class='ok'>Game #{play_id} was deleted.</span>"
        self.refresh()


def history_page(db: Path | None = None) -> w.VBox:
    """The history page's widget, read now."""
    page = HistoryPage(db)
    page.refresh()
    return page.widget


def stats_widgets(stats: Stats, summaries: list[dict[str, Any]]) -> list[w.Widget]:
    """Players and head-to-head tables, wins over time and score distributions."""
    if not stats.players:
        return []
    return [
        w.HTML("<h3>Players</h3>" + players_table(stats)),
        w.HTML("<h3>Head to head</h3>" + head_to_head_table(stats)),
        w.HTML("<h3>Wins over time</h3>" + wins_chart(summaries)),
        w.HTML("<h3>Scores per game</h3>" + distributions(summaries)),
    ]


def table(headings: list[str], rows: list[list[object]]) -> str:
    """A plain HTML table that scrolls sideways on a small screen."""
    head = "".join(f"<th>{html.escape(h)}</th>" for h in headings)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(str(v))}</td>" for v in row) + "</tr>" for row in rows
    )
    return f"<div class='tablescroll'><table><tr>{head}</tr>{body}</table></div>"


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


def ticks(top: int, count: int = 5) -> list[int]:
    """Round tick values from 0 to at least ``top``."""
    step = max(1, -(-top // count))
    return list(range(0, top + step, step))


def wins_chart(summaries: list[dict[str, Any]], width: int = 600, height: int = 240) -> str:
    """Each player's running total of wins, game after game: an SVG line chart with axes."""
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
    count = max(len(summaries), 1)
    top = max((max(s) for s in running.values()), default=1) or 1
    left, bottom, right, upper = 44, 40, 12, 12
    plot_w, plot_h = width - left - right, height - bottom - upper
    y_ticks = ticks(top)
    top = y_ticks[-1] or 1

    def x(k: int) -> float:
        return left + (k + 1) * plot_w / count

    def y(v: int) -> float:
        return upper + plot_h - v * plot_h / top

    parts = [
        f"<line x1='{left}' y1='{upper + plot_h}' x2='{left + plot_w}' y2='{upper + plot_h}' "
        "stroke='#333'/>",
        f"<line x1='{left}' y1='{upper}' x2='{left}' y2='{upper + plot_h}' stroke='#333'/>",
    ]
    for value in y_ticks:
        parts.append(
            f"<line x1='{left - 4}' y1='{y(value):.0f}' x2='{left + plot_w}' y2='{y(value):.0f}' "
            "stroke='#ddd'/>"
            f"<text x='{left - 8}' y='{y(value) + 4:.0f}' text-anchor='end' font-size='12'>"
            f"{value}</text>"
        )
    for k in ticks(count, 6)[1:]:
        if k <= count:
            parts.append(
                f"<text x='{x(k - 1):.0f}' y='{upper + plot_h + 16}' text-anchor='middle' "
                f"font-size='12'>{k}</text>"
            )
    parts.append(
        f"<text x='{left + plot_w / 2:.0f}' y='{height - 4}' text-anchor='middle' "
        "font-size='13'>games played (oldest first)</text>"
        f"<text x='12' y='{upper + plot_h / 2:.0f}' text-anchor='middle' font-size='13' "
        f"transform='rotate(-90 12 {upper + plot_h / 2:.0f})'>wins</text>"
    )
    for index, name in enumerate(names):
        points = " ".join(f"{x(k):.0f},{y(v):.0f}" for k, v in enumerate(running[name]))
        colour = COLOURS[index % len(COLOURS)]
        parts.append(
            f"<polyline fill='none' stroke='{colour}' stroke-width='2' points='{points}'/>"
        )
    legend = " ".join(
        f"<span style='color:{COLOURS[i % len(COLOURS)]}'>■ {html.escape(n)}</span>"
        for i, n in enumerate(names)
    )
    return (
        f"<svg class='chart wins' viewBox='0 0 {width} {height}' role='img' "
        f"aria-label='Wins over time'>{''.join(parts)}</svg><div>{legend}</div>"
    )


def distributions(summaries: list[dict[str, Any]], buckets: int = 8) -> str:
    """For each game, how many scores fell in each range: bars with a labelled axis."""
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
            "<div class='bar'>"
            f"<span class='bar-name'>{low + k * step}–{low + (k + 1) * step - 1}</span>"
            f"<span class='bar-track'><span class='bar-fill' style='width:{100 * c // most}%'>"
            f"</span></span><span class='bar-value'>{c}</span></div>"
            for k, c in enumerate(counts)
        )
        parts.append(
            f"<p><b>{html.escape(game)}</b> <small>(score range → number of scores)</small></p>"
            f"<div class='bars'>{bars}</div>"
        )
    return "".join(parts)
