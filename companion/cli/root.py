"""The typer app: the root options, ``score``, and the command groups, registered lazily.

:func:`build` makes the app with every command (``--help``, the tests) or with
just the one a command line runs, so that ``companion score`` does not import
or convert the other commands; the root's options, help and callback are the
same either way. The CLI modules do not use ``from __future__ import
annotations``: typer reads every command's annotations at start-up, and real
objects are cheaper for it than strings.
"""

from collections.abc import Callable
from typing import Annotated

import typer

from companion.cli.common import (
    GAMES_HELP,
    DbOption,
    HelpGroup,
    JsonOption,
    LocationOption,
    VoiceFileOption,
    checked_place,
    fail,
    fail_with_problems,
    open_history,
    print_json,
    scorer_for,
    show,
)
from companion.wording import plural

HELP = "A table-side assistant for Shimoda, Shibuya, Tokaido, Kamakura Collection and Shogun."
COMMANDS = ("play", "resume", "setup", "rules", "notebook", "serve", "score", "history", "club")
"""Every command, in the order ``companion --help`` lists them."""


def show_version(value: bool) -> None:
    """Print the version and stop, for ``--version``."""
    if value:
        from companion import __version__

        typer.echo(f"companion {__version__}")
        raise typer.Exit()


def root(
    ctx: typer.Context,
    version: Annotated[
        bool,
        typer.Option(
            "--version", help="Print the version and exit.", is_eager=True, callback=show_version
        ),
    ] = False,
    db: DbOption = None,
) -> None:
    """A table-side assistant for Shimoda, Shibuya, Tokaido, Kamakura Collection and Shogun.

    Without a command, opens the menu.
    """
    import os

    from companion.cli import common

    # What a later plain ``companion resume`` in this shell would find (before --db is set).
    common.SHELL_DB = os.environ.get("COMPANION_DB") or None
    if db is not None:
        # The command's own options are read after this, so its --db falls back to ours.
        os.environ["COMPANION_DB"] = str(db)
    if ctx.invoked_subcommand is None:
        import sys

        from companion.cli.menu import menu

        if not sys.stdin.isatty():
            typer.echo(ctx.get_help())
            raise typer.Exit()
        try:
            menu(db)
        except KeyboardInterrupt:
            # Leaving from the main menu is on purpose (Quit or Ctrl-C): exit status 0.
            from companion.cli.menu import goodbye

            typer.echo(goodbye(db))
            raise typer.Exit(0) from None


def score(
    game: Annotated[str, typer.Argument(help=GAMES_HELP + " (or the title).")],
    input: Annotated[
        str | None,
        typer.Option(
            "--input",
            "-i",
            metavar="FILE",
            help="The score file; - reads stdin. Without it, asks for each field.",
        ),
    ] = None,
    json: JsonOption = False,
    no_save: Annotated[
        bool, typer.Option("--no-save", help="Score only; do not record the game.")
    ] = False,
    location: LocationOption = None,
    db: DbOption = None,
    voice_file: VoiceFileOption = None,
) -> None:
    """Score a finished game from a score file and record it in the history.

    The table is followed by why the game was won and the records it set.
    """
    from companion.bounded_json import (
        MAX_SCORE_FILE_BYTES,
        FileTooLarge,
        InputError,
        NotText,
        read_source,
    )
    from companion.history.rescoring import score_text
    from scorers import ScoreFileError

    scorer = scorer_for(game)
    place = checked_place(location)
    if input is None:
        from companion.cli.sessions import start_session

        start_session(
            scorer.info.id,
            "score",
            db,
            place,
            save=not no_save,
            as_json=json,
            voice_file=voice_file,
        )
        return
    try:
        text = read_source(input, limit=MAX_SCORE_FILE_BYTES)
    except (FileTooLarge, NotText) as error:
        fail(f"{error}; nothing was saved", 2)
    except InputError as error:
        fail(str(error))
    try:
        result = score_text(scorer, text)
    except ScoreFileError as error:
        source = "standard input" if input == "-" else input
        fail_with_problems(
            f"{source} is not a valid {scorer.info.id} score file "
            f"({plural(len(error.problems), 'problem')}):",
            error.problems,
        )
    document = result.to_json()
    saved = None
    if not no_save:
        from companion.history.errors import HistoryError
        from companion.history.saving import save_game

        hint = " (score with --no-save to skip saving)"
        with open_history(db, hint=hint) as history:
            try:
                saved = save_game(
                    history,
                    scorer.info.id,
                    text,
                    document,
                    location=place or "",
                    read_back=False,
                    after=not json,
                )
            except HistoryError as error:
                fail(f"{error}{hint}")
    if json:
        print_json(document)
        return
    from companion.analysis.played_game import INTERIM
    from companion.history.model import status_of
    from companion.terminal.results import after_block, result_table

    interim = status_of(scorer.info.id, text) == INTERIM
    show(result_table(document, title=scorer.info.title, interim=interim, tie=result.tie))
    if saved is None:
        from companion.history.saving import save_game

        saved = save_game(None, scorer.info.id, text, document, keep=False, read_back=False)
    assert saved.after is not None
    show(after_block(saved.after))
    if saved.play_id is not None:
        typer.echo(saved.message())


def build(only: str | None = None) -> typer.Typer:
    """The app with every command, or with only the command ``only`` (one of :data:`COMMANDS`)."""
    app = typer.Typer(
        name="companion",
        help=HELP,
        invoke_without_command=True,
        cls=HelpGroup,
        rich_markup_mode=None,
    )
    app.callback()(root)
    wanted = COMMANDS if only is None else (only,)
    commands: dict[str, Callable[..., None]] = {}
    if {"play", "resume", "setup"} & set(wanted):
        from companion.cli.play import play, resume, setup

        commands.update(play=play, resume=resume, setup=setup)
    if "rules" in wanted:
        from companion.cli.rules import rules

        commands["rules"] = rules
    if {"notebook", "serve"} & set(wanted):
        from companion.cli.notebooks import notebook, serve

        commands.update(notebook=notebook, serve=serve)
    commands["score"] = score
    for name in COMMANDS:
        if name in wanted and name in commands:
            app.command(name)(commands[name])
    if "history" in wanted:
        from companion.cli.history import history_app

        app.add_typer(history_app, name="history")
    if "club" in wanted:
        from companion.cli.club import club_app

        app.add_typer(club_app, name="club")
    return app
