"""The ``companion`` command line: a thin layer over ``scorers`` and the history.

Heavy modules are imported inside the commands that use them, so that
``companion --help`` starts as fast as a bare typer program.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NoReturn

import typer

if TYPE_CHECKING:
    from rich.console import RenderableType

    from companion.history import History

app = typer.Typer(
    name="companion",
    help="A table-side assistant for Shimoda, Shibuya, Tokaido, Kamakura Collection and Shogun.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
)
history_app = typer.Typer(
    help="The record of every game played.", no_args_is_help=True, rich_markup_mode=None
)
app.add_typer(history_app, name="history")

DbOption = Annotated[
    Path | None,
    typer.Option(
        "--db",
        envvar="COMPANION_DB",
        metavar="PATH",
        help="History database file (default: companion's file in your data directory).",
        show_envvar=True,
    ),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")]


def fail(message: str, code: int = 1) -> NoReturn:
    """Print ``Error: message`` to standard error and exit with ``code``."""
    typer.echo(f"Error: {message}", err=True)
    raise typer.Exit(code)


def open_history(db: Path | None, *, hint: str = "") -> History:
    """Open the history at ``db`` (or the default), turning errors into exit 1.

    Args:
        db: The ``--db`` option, if given.
        hint: Added to the error message, e.g. how to go on without the history.
    """
    from companion.history import History, HistoryError, default_path

    try:
        return History(db or default_path())
    except HistoryError as error:
        fail(f"{error}{hint}")


def print_json(document: object) -> None:
    """Print one JSON document on standard output."""
    import json

    typer.echo(json.dumps(document, indent=2, ensure_ascii=False))


def show(renderable: RenderableType) -> None:
    """Print a rich renderable on standard output, without trailing blanks."""
    from companion.render import print_clean

    print_clean(renderable)


def show_version(value: bool) -> None:
    """Print the version and stop, for ``--version``."""
    if value:
        from companion import __version__

        typer.echo(f"companion {__version__}")
        raise typer.Exit()


@app.callback()
def root(
    version: Annotated[
        bool,
        typer.Option(
            "--version", help="Print the version and exit.", is_eager=True, callback=show_version
        ),
    ] = False,
) -> None:
    """A table-side assistant for Shimoda, Shibuya, Tokaido, Kamakura Collection and Shogun."""


@app.command()
def score(
    game: Annotated[
        str, typer.Argument(help="shimoda, shibuya, tokaido, kamakura or shogun (or the title).")
    ],
    input: Annotated[
        str,
        typer.Option("--input", "-i", metavar="FILE", help="The score file; - reads stdin."),
    ],
    json: JsonOption = False,
    no_save: Annotated[
        bool, typer.Option("--no-save", help="Score only; do not record the game.")
    ] = False,
    db: DbOption = None,
) -> None:
    """Score a finished game from a score file and record it in the history."""
    from companion.scorefile import InputError, read_source, score_text
    from scorers import ScoreFileError, UnknownGameError, find_game

    try:
        scorer = find_game(game)
    except UnknownGameError as error:
        fail(str(error), 2)
    try:
        text = read_source(input)
    except InputError as error:
        fail(str(error))
    try:
        result = score_text(scorer, text)
    except ScoreFileError as error:
        source = "standard input" if input == "-" else input
        count = len(error.problems)
        plural = "problem" if count == 1 else "problems"
        lines = [f"Error: {source} is not a valid {scorer.info.id} score file ({count} {plural}):"]
        lines.extend(f"  {problem}" for problem in error.problems)
        typer.echo("\n".join(lines), err=True)
        raise typer.Exit(2) from None
    document = result.to_json()
    play_id = None
    if not no_save:
        from companion.history import HistoryError

        hint = " (score with --no-save to skip saving)"
        with open_history(db, hint=hint) as history:
            try:
                play_id = history.record(game=scorer.info.id, score_file=text, result=document)
            except HistoryError as error:
                fail(f"{error}{hint}")
    if json:
        print_json(document)
        return
    from companion.render import result_table

    show(result_table(document, title=scorer.info.title))
    if play_id is not None:
        typer.echo(f"Saved to the history as game #{play_id}.")


@history_app.command("list")
def history_list(json: JsonOption = False, db: DbOption = None) -> None:
    """List the recorded games, oldest first."""
    with open_history(db) as history:
        plays = history.plays()
    if json:
        print_json([play.summary() for play in plays])
        return
    if not plays:
        typer.echo("No games recorded yet.")
        return
    from rich import box
    from rich.table import Table

    from scorers import SCORERS, join_names

    table = Table(box=box.SIMPLE_HEAD, show_edge=False)
    for heading in ("#", "Played (UTC)", "Game", "Players", "Winner"):
        table.add_column(heading, justify="right" if heading == "#" else "left")
    for play in plays:
        info = SCORERS[play.game].info if play.game in SCORERS else None
        table.add_row(
            str(play.id),
            play.played_at.replace("T", " ").removesuffix("Z")[:16],
            info.title if info else play.game,
            ", ".join(play.players),
            join_names(play.result["winners"]),
        )
    show(table)


@history_app.command("show")
def history_show(
    play_id: Annotated[int, typer.Argument(metavar="ID", help="The game's number.")],
    json: JsonOption = False,
    db: DbOption = None,
) -> None:
    """Show one recorded game with its full breakdown."""
    from companion.history import HistoryError

    with open_history(db) as history:
        try:
            play = history.get(play_id)
        except HistoryError as error:
            fail(str(error))
    if json:
        print_json(play.to_json())
        return
    from companion.render import result_table
    from scorers import SCORERS

    title = SCORERS[play.game].info.title if play.game in SCORERS else play.game
    stamp = play.played_at.replace("T", " ").removesuffix("Z")
    show(result_table(play.result, title=f"Game #{play.id}: {title}, {stamp} UTC"))


def main() -> None:
    """Run the command line."""
    app(prog_name="companion")


if __name__ == "__main__":
    main()
