"""The tables and blocks of ``companion history list`` and ``history show``.

A report is a list of parts printed one after the other: a rich renderable
is drawn at the terminal's width, a string is printed as it is (it is
already plain, safe text). The data comes from
:mod:`companion.history.reports`; every name in it is shown as plain text,
never markup (see :mod:`companion.terminal.safe_text`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich import box
from rich.console import RenderableType
from rich.table import Table

from companion.history.reports import (
    Listing,
    PlayReport,
    game_title,
    listing_notes,
    players_line,
    stamp,
    winners_line,
)
from companion.terminal.safe_text import line, lines, plain
from scorers import join_names


def plays_table(plays: Sequence[dict[str, Any]]) -> RenderableType:
    """One row per game: its number, when, the game, the players and who won."""
    table = Table(box=box.SIMPLE_HEAD, show_edge=False)
    for heading in ("#", "Played (UTC)", "Game", "Players", "Winner"):
        # A long name wraps onto the next line rather than losing its end to an ellipsis.
        table.add_column(heading, justify="right" if heading == "#" else "left", overflow="fold")
    for play in plays:
        ignored = " (ignored)" if play["ignored"] else ""
        table.add_row(
            str(play["id"]),
            plain(stamp(play["played_at"])),
            plain(game_title(play["game"]) + ignored),
            plain(players_line(play)),
            plain(winners_line(play) if "status" not in play else f"({play['status']})"),
        )
    return table


def listing_parts(shown: Listing, *, filtered: bool) -> list[RenderableType]:
    """``history list``: the table, or what is said when no game matches.

    Args:
        shown: The games to list.
        filtered: Only some games were asked for (``--game``, ``--player``,
            ``--since``).
    """
    notes: list[RenderableType] = list(listing_notes(shown, filtered=filtered))
    return [plays_table(shown.plays), *notes] if shown.plays else notes


def play_parts(report: PlayReport) -> list[RenderableType]:
    """``history show``: the breakdown, why it was won, the records it set, its details."""
    from companion.analysis.played_game import INTERIM
    from companion.terminal.results import after_game, result_table, tie_of

    play = report.play
    parts = [
        result_table(
            play.result,
            title=report.title,
            interim=play.status == INTERIM,
            tie=tie_of(play.game, play.score_file),
        ),
        after_game(report.explanation, report.records),
    ]
    said = play_details(report)
    if said:
        # A blank line after the explanation, none straight after the table.
        parts.append("\n".join(["", *said] if report.explanation or report.records else said))
    return parts


def play_details(report: PlayReport) -> list[str]:
    """The lines after the explanation: teams, who started, place, notes, …

    The values of the labelled lines are escaped (see
    :func:`companion.terminal.safe_text.lines`); names are stored clean.
    """
    from companion.analysis.clock import minutes_text, rounds_text

    play, timed = report.play, report.timing
    said: list[str] = []
    if play.uses_teams:
        for side, name in enumerate(play.players):
            people = [p.name for p in play.members(side)]
            known = join_names(people) if people else "members not known"
            said.append(f"{name}: {known}")
    anonymous = [p.name for p in play.persons if p.anonymous]
    starter = play.starter
    details = [
        ("Started", starter.name if starter else ""),
        (
            "Anonymous",
            join_names(anonymous) + " (not counted as a person in the stats)" if anonymous else "",
        ),
        (
            "Not scored",
            join_names([s["name"] for s in play.result["players"] if s["total"] is None]),
        ),
        ("Expansions", ", ".join(e.name for e in play.expansions)),
        ("Location", play.location),
        ("Duration", minutes_text(play.duration_min) if play.duration_min else ""),
        ("Rounds", rounds_text(timed.rounds) if timed is not None and timed.rounds else ""),
        ("Imported from", play.source if play.source != "companion" else ""),
        ("Ignored", "yes: kept out of the statistics (as in BG Stats)" if play.ignored else ""),
        (
            "Status",
            "interim scoring, counted in no wins or stats" if play.status != "final" else "",
        ),
        ("Notes", play.notes),
    ]
    said.extend(f"{label}: {lines(value)}" for label, value in details if value)
    if play.uses_teams and not all(play.members(k) for k in range(len(play.players))):
        example = line(play.players[0])
        said.append(
            f"Name the members with: companion history edit {play.id} "
            f"--members '{example}=NAME,NAME'"
        )
    return said
