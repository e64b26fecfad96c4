"""Tables for people: a scored game as rich renderables.

Every text that comes from the players (names, categories of an imported
game, notes) is put in the table as plain :class:`~rich.text.Text`, never as
markup (see :mod:`companion.terminal.safe_text`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from rich import box
from rich.console import Console, ConsoleOptions, Group, RenderableType
from rich.table import Table
from rich.text import Text

from companion.terminal.safe_text import console as plain_console
from companion.terminal.safe_text import line as line_of
from companion.terminal.safe_text import plain
from scorers import join_names

if TYPE_CHECKING:
    from companion.analysis.clock import Timing
    from companion.history.after_game import AfterGame


def label(category: str, game: object = None) -> str:
    """``victory_markers`` → ``Victory markers`` (or the ``game``'s own row title for it)."""
    from scorers import SCORERS

    scorer = SCORERS.get(game) if isinstance(game, str) else None
    if scorer is not None and category in scorer.info.row_titles:
        return scorer.info.row_titles[category]
    words = category.replace("_", " ")
    return words[:1].upper() + words[1:]


def result_table(
    result: Mapping[str, Any], *, title: str, interim: bool = False, tie: str | None = None
) -> RenderableType:
    """The breakdown of every player, their totals, ranks and the winner (or the leader).

    Categories are rows and players are columns, so that games with many
    categories still fit a narrow terminal.

    Args:
        result: A result document (``Result.to_json()``).
        title: Shown above the table.
        interim: The scoring does not end the game (Shogun's first winter): it
            says who leads, never who won.
        tie: The tie the tie-break broke, with its values (``Result.tie``).
    """
    players = result["players"]
    table = Table(box=box.SIMPLE_HEAD, show_edge=False)
    table.add_column("")
    for player in players:
        table.add_column(plain(player["name"]), justify="right", overflow="fold")
    categories: list[str] = []
    for player in players:
        categories.extend(c for c in player["breakdown"] if c not in categories)
    for category in categories:
        table.add_row(
            plain(label(category, result.get("game"))),
            *(
                plain(_shown(p["breakdown"].get(category, None if p["total"] is None else 0)))
                for p in players
            ),
        )
    table.add_section()
    table.add_row(
        Text("Total", style="bold"), *(plain(_shown(p["total"]), "bold") for p in players)
    )
    table.add_row("Rank", *(plain(_shown(p["rank"])) for p in players))
    parts: list[RenderableType] = [
        plain(title, "bold"),
        table,
        Text(""),
        plain(outcome(result, interim=interim, tie=tie)),
    ]
    parts.extend(plain(f"Note: {note}") for note in result.get("notes") or ())
    return Group(*parts)


def tie_of(game: str, score_file: str | None) -> str | None:
    """The tie a stored game's tie-break broke, in words (``None``: none, or unreadable)."""
    import json

    from scorers import SCORERS, ScoreFileError

    if score_file is None or game not in SCORERS:
        return None
    try:
        return SCORERS[game].score_json(json.loads(score_file)).tie
    except (ScoreFileError, ValueError):
        return None


def _shown(value: object) -> str:
    """A total or rank; ``-`` for a seat that was not scored or not ranked."""
    return "-" if value is None else str(value)


def outcome(result: Mapping[str, Any], *, interim: bool = False, tie: str | None = None) -> str:
    """One sentence naming the winner, the tie-break used, or a shared win.

    An ``interim`` scoring (one that does not end the game) has no winner: the
    sentence names who leads. ``tie`` (``Result.tie``) says the values that
    broke a tie: ``Winner: Ben (tie on 37 broken by most war chests: Ben 7, Cho 0).``
    """
    winners = list(result["winners"])
    if not winners:
        return "Nobody leads yet." if interim else "No winner recorded."
    if len(winners) > 1:
        return (
            f"Sharing the lead: {join_names(winners)}."
            if interim
            else (f"Shared win: {join_names(winners)}.")
        )
    first = "Leading so far" if interim else "Winner"
    if result.get("tiebreak") and tie:
        return f"{first}: {winners[0]} ({tie})."
    if result.get("tiebreak"):
        return f"{first}: {winners[0]}, on the tie-break ({result['tiebreak']})."
    return f"{first}: {winners[0]}."


def after_game(
    explanation: Sequence[str],
    records: Sequence[str] = (),
    *,
    timing: Timing | None = None,
    location: str = "",
) -> RenderableType:
    """What follows a result: why it was won, the records set, the time and the place.

    Each part is left out when there is nothing to say; the parts are
    separated by a blank line. Every sentence is plain text (names in it are
    data, never markup).

    Args:
        explanation: The sentences of :func:`companion.analysis.explain.explain`.
        records: The sentences of the records the game set.
        timing: How long a played-along game took.
        location: Where it was played.
    """
    parts: list[list[RenderableType]] = [
        [plain(sentence) for sentence in explanation],
        [plain(sentence) for sentence in records],
    ]
    about: list[RenderableType] = []
    if timing is not None and timing.seconds:
        from companion.analysis.clock import duration_text, round_texts

        about.append(Text(f"Time at the table: {duration_text(timing.seconds)} (pauses left out)."))
        if timing.rounds:
            about.append(Flow("Rounds:", round_texts(timing.rounds)))
    if location:
        about.append(plain(f"Location: {location}"))
    parts.append(about)
    lines: list[RenderableType] = []
    for part in parts:
        if part:
            lines.append(Text(""))
            lines.extend(part)
    return Group(*lines)


def after_block(after: AfterGame) -> RenderableType:
    """What follows the result of a game just scored (see :func:`after_game`)."""
    return after_game(
        after.explanation, after.records, timing=after.timing, location=after.location
    )


class Flow:
    """``head`` and its items on lines as wide as the console, an item never broken.

    The items are separated by commas and end with a full stop; lines after
    the first are indented by two spaces.
    """

    def __init__(self, head: str, items: Sequence[str]) -> None:
        self.head = head
        self.items = list(items)

    def __rich_console__(
        self, console: Console, options: ConsoleOptions
    ) -> Iterator[RenderableType]:
        """One plain line of text after another."""
        from rich.cells import cell_len

        line = self.head
        for k, item in enumerate(self.items):
            piece = line_of(item) + ("." if k == len(self.items) - 1 else ",")
            if line.strip() and cell_len(line) + 1 + cell_len(piece) > options.max_width:
                yield Text(line)
                line = "  " + piece
            else:
                line = f"{line} {piece}" if line else piece
        yield Text(line)


def print_clean(renderable: RenderableType, console: Console | None = None) -> None:
    """Print ``renderable`` without the trailing blanks rich pads lines with.

    The default console reads no markup and no emoji codes in plain strings, so
    a renderable built from user text prints that text as it is.
    """
    console = console or plain_console()
    with console.capture() as capture:
        console.print(renderable)
    text = "\n".join(line.rstrip() for line in capture.get().splitlines())
    console.file.write(text + "\n")
