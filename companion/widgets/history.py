"""The history page: the saved games (filter, open, delete), stats, ratings, records, lengths.

Everything shown is computed by the functions the CLI's ``history`` commands
use (:mod:`companion.analysis.stats`, :mod:`companion.history.after_game`): no second
implementation. The page only reads the history (opened read-only, as those
commands do) except to delete a game; any trouble with the file is one plain
line on the page, never a traceback. Names and every other typed text are
escaped wherever they go into HTML.
"""

from __future__ import annotations

import html
import math
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import ipywidgets as w

from companion.analysis.stats import Stats
from companion.history.errors import HistoryError
from companion.history.model import Filter
from companion.history.store import default_path, opened
from companion.widgets.drafts import reading
from companion.widgets.page import close_all, links_as_output, navigation, wait_for_visitor
from companion.widgets.score_form import (
    after_html,
    problem_line,
    result_html,
    scroller,
    sentences_html,
)
from companion.widgets.style import style

if TYPE_CHECKING:
    from companion.analysis.ratings import Point, Ratings
    from companion.analysis.records import GameRecords, Mark
    from companion.history.after_game import Length

COLOURS = ("#c33", "#36c", "#3a3", "#c80", "#939", "#099", "#666", "#a52")
LIST_LIMIT = 50
"""Games listed at first (the newest); "Show more" adds as many again."""
CHART_LINES = len(COLOURS)
"""The most players drawn in one ratings chart (the best rated; choose a player for others)."""
CHART_POINTS = 400
"""The most points of one line (a long history is thinned, its last point always kept)."""
PERSONAL_HEADINGS = ["Player", "Games", "Wins", "Best total", "Biggest win", "Longest streak"]
NOT_COUNTED = "interim scorings and ignored games do not count"


def counted(summaries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The summaries of the plays that count in stats (final, not ignored)."""
    return [s for s in summaries if not s.get("ignored") and s.get("status", "final") == "final"]


class HistoryPage:
    """Saved games with filters, each one opened or deleted; then the stats.

    Args:
        db: The history file (default: ``COMPANION_DB`` or the user's).
    """

    def __init__(self, db: Path | None = None) -> None:
        from companion.widgets.page import PAGES
        from scorers import short_title

        self.db = db
        self.game = w.Dropdown(
            options=[("every game", ""), *((short_title(g), g) for g in PAGES)],
            value="",
            layout=w.Layout(width="12em"),
            tooltip="Game",
        )
        self.player = w.Dropdown(
            options=[("every player", "")],
            value="",
            layout=w.Layout(width="14em"),
            tooltip="Player",
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
        self.limit = LIST_LIMIT
        self.more = w.Button(description="Show more games", layout=w.Layout(display="none"))
        self.more.add_class("more-games")
        self.more.on_click(lambda _: self.show_more())
        self.nav = navigation("history")
        self.widget = w.VBox(
            [
                style(),
                self.nav,
                w.HTML("<h1>Game history</h1>"),
                w.HBox([self.game, self.player, self.count]),
                self.status,
                self.plays,
                self.more,
                self.detail,
                self.stats,
            ]
        )
        self.widget.add_class("companion")
        self.widget.add_class("page-history")
        self.rows: dict[int, w.HBox] = {}

    def open(self) -> w.VBox:
        """The page for a notebook cell (reads the history when the visitor arrives)."""
        wait_for_visitor()
        links_as_output(self.nav)
        self.refresh()
        return self.widget

    def refresh(self) -> None:
        """Read the history again (read-only) and show the list and the stats for the filters."""
        from companion.history.after_game import lengths, ratings, records
        from companion.history.stat_queries import of_history

        game = self.game.value or None
        player = self.player.value or None
        where = Filter(game=game, player=player)
        try:
            with reading(self.db) as history:
                summaries = history.summaries(where)
                every = history.summaries() if game or player else summaries
                everyone = sorted(
                    {p["name"] for s in every for p in s["people"] if not p["anonymous"]},
                    key=str.casefold,
                )
                stats = of_history(history, where)
                timed = lengths(history, where)
                found = records(history, game)
                rated = ratings(history, game)
                chart = ratings_html(rated, game, player)
        except HistoryError as error:
            self.status.value = problem_line(str(error))
            return
        if self.status.value.startswith("<div class='problem'>"):
            self.status.value = ""
        current = self.player.value
        self.player.options = [("every player", ""), *((n, n) for n in everyone)]
        self.player.value = current if current in everyone else ""
        shown = list(reversed(summaries))[: self.limit]
        self.more.layout.display = "" if len(summaries) > len(shown) else "none"
        self.count.value = f"{len(summaries)} game{'s' if len(summaries) != 1 else ''}"
        replaced = list(self.plays.children)
        self.rows = {s["id"]: self._row(s) for s in shown}
        self.plays.children = list(self.rows.values())
        if not summaries:
            self.plays.children = [w.HTML("No games recorded yet.")]
        for old in replaced:  # only once they are off the page
            close_all(old)
        for old in self.stats.children:
            old.close()
        self.stats.children = [
            *stats_widgets(stats, counted(summaries)),
            section("ratings", "Ratings over time", chart),
            section("records", "Records", records_html(found, game, player)),
            section("lengths", "Time at the table", lengths_html(timed)),
        ]

    def show_more(self) -> None:
        """List :data:`LIST_LIMIT` more of the older games."""
        self.limit += LIST_LIMIT
        self.refresh()

    def _row(self, summary: dict[str, Any]) -> w.HBox:
        from ipywidgets.widgets.widget_button import ButtonStyle

        from companion.widgets.cells import label, shared_layout, shared_style
        from scorers import short_title

        play_id = summary["id"]
        players = ", ".join(
            f"{p['name']} {'–' if p['total'] is None else p['total']}" for p in summary["players"]
        )
        winners = ", ".join(summary["winners"])
        if summary.get("status", "final") != "final":
            outcome = " (interim scoring)"
        else:
            outcome = f" — won by {html.escape(winners or 'nobody')}"
        if summary.get("ignored"):
            outcome += " (ignored in stats)"
        text = label(
            f"<b>#{play_id}</b> {html.escape(summary['played_at'][:16].replace('T', ' '))} "
            f"<b>{html.escape(short_title(summary['game']))}</b>: "
            f"{html.escape(players)}{outcome}"
        )
        buttons = {"layout": shared_layout("6em"), "style": shared_style(ButtonStyle)}
        show = w.Button(description="Open", **buttons)
        show.add_class(f"open-{play_id}")
        show.on_click(lambda _: self.show(play_id))
        delete = w.Button(description="Delete", button_style="danger", **buttons)
        delete.add_class(f"delete-{play_id}")
        delete.on_click(lambda _: self.ask_delete(play_id))
        row = w.HBox([text, show, delete])
        row.add_class("play-row")
        return row

    def show(self, play_id: int) -> None:
        """One saved game: its breakdown, why it was won, the records it set, its details."""
        from companion.history.after_game import after_game
        from companion.terminal.results import tie_of
        from scorers import title

        try:
            with reading(self.db) as history:
                play = history.get(play_id)
                after = after_game(history, play_id)
        except HistoryError as error:
            self.detail.value = problem_line(str(error))
            return
        details = []
        if play.uses_teams:
            for side, name in enumerate(play.players):
                people = [p.name for p in play.members(side)]
                details.append(f"{name}: {', '.join(people) if people else 'members not known'}")
        if play.duration_min and after.timing is None:
            from companion.analysis.clock import minutes_text

            details.append(f"Duration: {minutes_text(play.duration_min)}")
        if play.status != "final":
            details.append("An interim scoring: shown, but counted in no wins or stats.")
        if play.ignored:
            details.append("Ignored: kept out of the statistics (as in BG Stats).")
        if play.source != "companion":
            details.append(f"Imported from {play.source}")
        if play.notes:
            details.append(f"Notes: {play.notes}")
        self.detail.value = (
            f"<h2>Game #{play.id}: {html.escape(title(play.game))}, "
            f"{html.escape(play.played_at.replace('T', ' ').rstrip('Z'))} UTC</h2>"
            + result_html(play.result, tie=tie_of(play.game, play.score_file))
            + after_html(after)
            + sentences_html(details, "details")
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
            with opened(self.db or default_path(), action="delete the game") as history:
                history.delete(play_id)
        except HistoryError as error:
            self.status.value = problem_line(str(error))
            return
        self.pending_delete = None
        self.detail.value = ""
        self.refresh()
        self.status.value = f"<span class='ok'>Game #{play_id} was deleted.</span>"


def history_page(db: Path | None = None) -> w.VBox:
    """The history page's widget, read now."""
    page = HistoryPage(db)
    page.refresh()
    return page.widget


def section(css: str, heading: str, body: str) -> w.HTML:
    """A heading and its HTML, as one widget of class ``css``."""
    part = w.HTML(f"<h2>{html.escape(heading)}</h2>{body}")
    part.add_class(css)
    return part


def stats_widgets(stats: Stats, summaries: list[dict[str, Any]]) -> list[w.Widget]:
    """Players and head-to-head tables, wins over time and score distributions."""
    if not stats.players:
        return []
    return [
        section("players", "Players", players_table(stats)),
        section("head-to-head", "Head to head", head_to_head_table(stats)),
        section("wins", "Wins over time", wins_chart(summaries)),
        section("scores", "Scores per game", distributions(summaries)),
    ]


def unbroken(text: str) -> str:
    """``text`` escaped, a word with a hyphen inside kept whole (a date: 2026-01-05).

    A table on a phone wraps its values between words; a browser would also
    break a date at its hyphens.
    """
    return " ".join(
        f"<span class='nobr'>{html.escape(word)}</span>" if "-" in word[1:] else html.escape(word)
        for word in text.split(" ")
    )


def table(headings: list[str], rows: Sequence[Sequence[object]], name: str) -> str:
    """A plain HTML table called ``name`` that scrolls sideways on a small screen."""
    head = "".join(f"<th>{html.escape(h)}</th>" for h in headings)
    body = "".join(
        "<tr>" + "".join(f"<td>{unbroken(str(v))}</td>" for v in row) + "</tr>" for row in rows
    )
    return scroller(name, f"<table><tr>{head}</tr>{body}</table>")


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
        "Players",
    )


def head_to_head_table(stats: Stats) -> str:
    """How often each of two players finished above the other."""
    return table(
        ["Player", "Opponent", "Plays", "Ahead", "Behind", "Level"],
        [[h.a, h.b, h.plays, h.a_above, h.b_above, h.ties] for h in stats.head_to_head],
        "Head to head",
    )


def ticks(top: int, count: int = 5) -> list[int]:
    """Round tick values from 0 to at least ``top``."""
    step = max(1, -(-top // count))
    return list(range(0, top + step, step))


def nice_ticks(low: float, high: float, count: int = 5, *, whole: bool = False) -> list[float]:
    """About ``count`` round values (steps of 1, 2 or 5 times a power of ten) covering both ends.

    Args:
        low: The lowest value to cover.
        high: The highest.
        count: About how many steps.
        whole: Steps of at least 1 (for counts).
    """
    if high <= low:
        low, high = low - 1, high + 1
    raw = max((high - low) / count, 1.0 if whole else 0.0)
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    first = math.floor(low / step) * step
    values = []
    value = first
    while value < high + step / 2:
        values.append(round(value, 10))
        value += step
    if values[-1] < high:
        values.append(round(values[-1] + step, 10))
    return values


def number_text(value: float) -> str:
    """A tick label: ``5``, ``-2.5``."""
    return str(int(value)) if float(value).is_integer() else f"{value:.1f}"


Series = tuple[str, list[tuple[int, float]]]
"""A line: its name and its ``(x, value)`` points, x from 1 up."""


def line_chart(
    series: Sequence[Series],
    *,
    count: int,
    x_label: str,
    y_label: str,
    label: str,
    css: str,
    zero: bool = True,
    whole: bool = False,
    width: int = 400,
    height: int = 250,
) -> str:
    """An SVG line chart with both axes, round ticks, axis labels and a legend.

    Its ``viewBox`` is narrow (400 wide) and the page draws it at the width of
    the screen up to 560 px, so its text stays readable on a phone (390 px).
    Names are escaped.

    Args:
        series: The lines, each ``(name, [(x, value), ...])``.
        count: The last x (the first is 1).
        x_label: What x counts.
        y_label: What the values are.
        label: The chart's accessible name.
        css: An extra class of the ``svg``.
        zero: The y axis starts at 0.
        whole: The values are counts (ticks 1 apart at least).
        width: The drawing's width, in its own units.
        height: Its height.
    """
    values = [v for _, points in series for _, v in points]
    low = min([*values, 0.0] if zero else values or [0.0])
    high = max(values or [1.0])
    y_ticks = nice_ticks(low, max(high, low + 1), whole=whole)
    low, high = y_ticks[0], y_ticks[-1]
    left, bottom, right, upper = 46, 42, 14, 10
    plot_w, plot_h = width - left - right, height - bottom - upper
    count = max(count, 1)

    def x(k: float) -> float:
        return left + (k - 0.5) * plot_w / count

    def y(v: float) -> float:
        return upper + plot_h - (v - low) * plot_h / (high - low)

    base = upper + plot_h
    parts = []
    for value in y_ticks:
        parts.append(
            f"<line x1='{left - 4}' y1='{y(value):.1f}' x2='{left + plot_w}' y2='{y(value):.1f}' "
            f"stroke='{'#999' if value == 0 else '#e2e2e2'}'/>"
            f"<text x='{left - 7}' y='{y(value) + 4:.1f}' text-anchor='end' font-size='13'>"
            f"{number_text(value)}</text>"
        )
    parts.append(
        f"<line x1='{left}' y1='{base}' x2='{left + plot_w}' y2='{base}' stroke='#333'/>"
        f"<line x1='{left}' y1='{upper}' x2='{left}' y2='{base}' stroke='#333'/>"
    )
    for k in sorted({1, *ticks(count, 5)[1:]}):
        if k <= count:
            parts.append(
                f"<line x1='{x(k):.1f}' y1='{base}' x2='{x(k):.1f}' y2='{base + 4}' "
                "stroke='#333'/>"
                f"<text x='{x(k):.1f}' y='{base + 17}' text-anchor='middle' font-size='13'>"
                f"{k}</text>"
            )
    parts.append(
        f"<text x='{left + plot_w / 2:.0f}' y='{height - 5}' text-anchor='middle' "
        f"font-size='14'>{html.escape(x_label)}</text>"
        f"<text x='14' y='{upper + plot_h / 2:.0f}' text-anchor='middle' font-size='14' "
        f"transform='rotate(-90 14 {upper + plot_h / 2:.0f})'>{html.escape(y_label)}</text>"
    )
    for index, (name, points) in enumerate(series):
        colour = COLOURS[index % len(COLOURS)]
        drawn = " ".join(f"{x(k):.1f},{y(v):.1f}" for k, v in points)
        parts.append(
            f"<polyline fill='none' stroke='{colour}' stroke-width='2.5' points='{drawn}'>"
            f"<title>{html.escape(name)}</title></polyline>"
        )
        if len(points) <= 40:
            parts.extend(
                f"<circle cx='{x(k):.1f}' cy='{y(v):.1f}' r='3' fill='{colour}'/>"
                for k, v in points
            )
    legend = "".join(
        f"<span class='key'><span style='color:{COLOURS[i % len(COLOURS)]}'>■</span> "
        f"{html.escape(name)}</span> "
        for i, (name, _) in enumerate(series)
    )
    return (
        f"<svg class='chart {css}' viewBox='0 0 {width} {height}' role='img' "
        f"aria-label='{html.escape(label)}'>{''.join(parts)}</svg>"
        f"<div class='legend'>{legend}</div>"
    )


def wins_chart(summaries: list[dict[str, Any]]) -> str:
    """Each player's running total of wins, game after game: a line chart with axes."""
    running: dict[str, list[tuple[int, float]]] = {}
    wins: dict[str, int] = defaultdict(int)
    for k, play in enumerate(summaries, 1):
        for p in play["players"]:
            running.setdefault(p["name"], [])
        for name in play["winners"]:
            wins[name] += 1
        for name, points in running.items():
            points.append((k, float(wins[name])))
    lines = sorted(running.items(), key=lambda item: -wins[item[0]])[:CHART_LINES]
    return line_chart(
        [(name, thin(points)) for name, points in lines],
        count=len(summaries),
        x_label="games played (oldest first)",
        y_label="wins",
        label="Wins over time",
        css="wins",
        whole=True,
    )


def thin(points: list[tuple[int, float]], most: int = CHART_POINTS) -> list[tuple[int, float]]:
    """At most ``most`` of the points, evenly spread, the first and the last always kept."""
    if len(points) <= most:
        return points
    step = len(points) / (most - 1)
    kept = [points[int(k * step)] for k in range(most - 1)]
    return [*kept, points[-1]]


def ratings_html(rated: Ratings, game: str | None, player: str | None) -> str:
    """Each player's rating after each of their games (a chart), then the ratings table.

    Args:
        rated: From :func:`companion.history.after_game.ratings` (of the game, or of every game).
        game: The game, or ``None`` for the ratings over every game.
        player: Only this player's line; ``None`` for the best rated.
    """
    from scorers import short_title
    from scorers.names import name_key

    table_rows = rated.table(game)
    scope = f"{short_title(game)} ratings" if game else "Ratings over every game"
    if not table_rows:
        return f"<p>No games rated yet ({NOT_COUNTED}).</p>"
    if player is not None:
        chosen = [r for r in table_rows if name_key(r.name) == name_key(player)]
    else:
        chosen = table_rows[:CHART_LINES]
    histories: list[tuple[str, list[Point]]] = [
        (r.name, rated.history(r.name, game)) for r in chosen
    ]
    # The plays in play order (time, then uuid: as at every table of a club).
    order = sorted({pt.position for _, points in histories for pt in points})
    position = {key: k for k, key in enumerate(order, 1)}
    series = [
        (name, thin([(position[pt.position], pt.ordinal) for pt in points]))
        for name, points in histories
    ]
    more = len(table_rows) - len(chosen)
    notes = []
    if order:
        notes.append(f"{scope}, {order[0][0][:10]} to {order[-1][0][:10]}.")
    if player is None and more > 0:
        notes.append(f"{more} more player{'s' if more != 1 else ''}: choose one above.")
    if player is not None and not chosen:
        return f"<p>{html.escape(player)} has no rated game here ({NOT_COUNTED}).</p>"
    chart = line_chart(
        series,
        count=len(order),
        x_label="games, oldest first",
        y_label="rating",
        label=scope,
        css="ratings",
        zero=False,
    )
    rows = [
        [str(k), r.name, f"{r.ordinal:.1f}", f"{r.mu:.1f}", f"{r.sigma:.1f}", str(r.plays)]
        for k, r in enumerate(table_rows, 1)
    ]
    explained = (
        "Rating is skill minus three times its uncertainty (openskill's Plackett-Luce): "
        "it starts at 0 and rises as a player wins and the rating becomes sure."
    )
    return (
        chart
        + sentences_html(notes, "chart-notes")
        + table(["#", "Player", "Rating", "Skill", "Uncertainty", "Games"], rows, "Ratings")
        + f"<p class='small'>{html.escape(explained)}</p>"
    )


def _group_rows(found: GameRecords, *, categories: bool) -> list[list[str]]:
    """Record, value, holders, where set, as the terminal's records table has them."""
    from companion.terminal.standings import NO_SCORE, group_rows, set_in

    return [
        [name, "-", NO_SCORE, ""]
        if mark is None
        else [name, str(mark.value), mark.who, set_in(mark)]
        for name, mark in group_rows(found, categories=categories)
    ]


def records_html(found: dict[str, GameRecords], game: str | None, player: str | None) -> str:
    """The group's records per game; for one game, each category and the personal bests.

    Args:
        found: From :func:`companion.history.after_game.records`.
        game: The one game shown, or ``None`` for every game.
        player: Only this player's personal bests.
    """
    from companion.history.after_game import in_game_order
    from scorers import short_title
    from scorers.names import name_key

    if not found or (game is not None and game not in found):
        return f"<p>No records yet ({NOT_COUNTED}).</p>"
    if game is None:
        rows = [
            [short_title(gid) if k == 0 else "", *row]
            for gid in in_game_order(found)
            for k, row in enumerate(_group_rows(found[gid], categories=False))
        ]
        return table(["Game", "Record", "Value", "Held by", "Set in"], rows, "Records") + (
            "<p class='small'>Choose a game above for each category and the personal bests.</p>"
        )
    records = found[game]
    group = _group_rows(records, categories=True)
    people = sorted(
        records.people.values(),
        key=lambda p: (-(p.best_total.value if p.best_total else -(10**9)), name_key(p.name)),
    )
    if player is not None:
        people = [p for p in people if name_key(p.name) == name_key(player)]

    def value(mark: Mark | None) -> str:
        return "-" if mark is None else str(mark.value)

    personal = [
        [
            p.name,
            str(p.plays),
            str(p.wins),
            value(p.best_total),
            value(p.biggest_margin),
            value(p.longest_streak),
        ]
        for p in people
    ]
    games = f"{records.plays} game{'' if records.plays == 1 else 's'}"
    return (
        f"<p>{html.escape(short_title(game))} records ({games})</p>"
        + table(["Record", "Value", "Held by", "Set in"], group, f"{short_title(game)} records")
        + "<h4>Personal bests</h4>"
        + table(
            ["Player", "Games", "Wins", "Best total", "Biggest win", "Longest streak"],
            personal,
            "Personal bests",
        )
    )


def lengths_html(timed: list[Length]) -> str:
    """The average length per game and player count, where the length is known."""
    from companion.analysis.clock import minutes_text
    from scorers import short_title

    if not timed:
        return "<p>No game with a known length yet.</p>"
    rows = [
        [
            short_title(t.game),
            str(t.players),
            str(t.plays),
            minutes_text(round(t.average_min)),
        ]
        for t in timed
    ]
    return table(["Game", "Players", "Games timed", "Average length"], rows, "Time at the table")


def score_range(first: int, last: int) -> str:
    """A bar's range: ``68`` for a single score, ``60–67`` for several."""
    return str(first) if first == last else f"{first}–{last}"


def distributions(summaries: list[dict[str, Any]], buckets: int = 8) -> str:
    """For each game, how many scores fell in each range: bars with a labelled axis."""
    from scorers import short_title

    by_game: dict[str, list[int]] = defaultdict(list)
    for play in summaries:
        by_game[str(play["game"])] += [
            p["total"] for p in play["players"] if type(p["total"]) is int
        ]
    parts = []
    for game, scores in sorted(by_game.items()):
        if not scores:
            continue
        low, high = min(scores), max(scores)
        step = max(1, -(-(high - low + 1) // buckets))
        counts = [0] * (((high - low) // step) + 1)
        for score in scores:
            counts[(score - low) // step] += 1
        most = max(counts)
        bars = "".join(
            "<div class='bar'>"
            f"<span class='bar-name'>{score_range(low + k * step, low + (k + 1) * step - 1)}</span>"
            f"<span class='bar-track'><span class='bar-fill' style='width:{100 * c // most}%'>"
            f"</span></span><span class='bar-value'>{c}</span></div>"
            for k, c in enumerate(counts)
        )
        parts.append(
            f"<p><b>{html.escape(short_title(game))}</b> "
            "<small>(score range → number of scores)</small></p>"
            f"<div class='bars'>{bars}</div>"
        )
    return "".join(parts)
