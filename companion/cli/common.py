"""Pieces every command shares: options and their parsers, errors, output and the history.

A command module parses its options and prints; what two commands share is
here or in the library, never in another command's module.
"""

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn, overload

import typer
from typer.core import TyperArgument, TyperGroup, TyperOption

from companion.terminal.wrapping import between_words

if TYPE_CHECKING:
    from rich.console import RenderableType

    from companion.history.store import History
    from companion.rules import Topic
    from scorers import Scorer

SHELL_DB: str | None = None
"""``$COMPANION_DB`` as the shell gave it, before a ``--db`` replaced it (set by the root)."""


def resume_command(session_id: int, path: Path) -> str:
    """The command that finds unfinished game ``session_id`` in the history at ``path``.

    ``--db PATH`` is named unless a plain ``companion resume`` in the same
    shell (its ``$COMPANION_DB``, or the default file) opens that history.
    """
    import shlex

    from companion.history.store import path_for

    plain = path_for(SHELL_DB)
    if plain.expanduser().resolve() == path.expanduser().resolve():
        return f"companion resume {session_id}"
    return f"companion --db {shlex.quote(str(path))} resume {session_id}"


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
LocationOption = Annotated[
    str | None,
    typer.Option("--location", metavar="PLACE", help="Where the game is played (saved with it)."),
]
VoiceFileOption = Annotated[
    Path | None,
    typer.Option(
        "--voice-file",
        metavar="WAV",
        exists=True,
        dir_okay=False,
        help="At the end count, F2 or :say hears this WAV file instead of the microphone.",
    ),
]
INTERRUPTED = 130
"""The exit code after Ctrl-C."""


def fail(message: str, code: int = 1) -> NoReturn:
    """Print ``Error: message`` to standard error and exit with ``code``.

    Invisible and control characters in the message (from a file name, say)
    are shown as escapes, never sent to the terminal.
    """
    from companion.terminal.safe_text import lines

    typer.echo(f"Error: {lines(message)}", err=True)
    raise typer.Exit(code)


def fail_with_problems(message: str, problems: Sequence[object], code: int = 2) -> NoReturn:
    """Print ``Error: message`` and each problem indented on its own line, then exit."""
    from companion.terminal.safe_text import line

    text = [f"Error: {line(message)}", *(f"  {line(problem)}" for problem in problems)]
    typer.echo("\n".join(text), err=True)
    raise typer.Exit(code)


def _games_help() -> str:
    from scorers import GAME_IDS, join_names

    return join_names(list(GAME_IDS), last=" or ")


GAMES_HELP = _games_help()
"""The registered games' ids in words, for a command's help (``shimoda, ... or shogun``)."""


@overload
def game_id(name: str) -> str: ...
@overload
def game_id(name: None) -> None: ...
@overload
def game_id(name: str | None) -> str | None: ...
def game_id(name: str | None) -> str | None:
    """A game name (id or title) → its id (``None`` stays ``None``); exit 2 when unknown."""
    return None if name is None else scorer_for(name).info.id


def require_kit(game: str, *, flows: bool = False) -> None:
    """Exit 1 with what is missing when ``game`` has no kit (or, with ``flows``, no flows).

    Checked before anything is started or written, so a game that lacks its kit
    leaves nothing behind (``companion score`` needs only the scorer).
    """
    from companion.kits import KITS, KitMissing

    try:
        kit = KITS[game]
        if flows:
            kit.flows()
    except KitMissing as error:
        fail(f"{error}; only 'companion score {game} --input FILE' works without it")


def scorer_for(name: str) -> "Scorer":
    """A game name (id, title or alias) → its scorer; exit 2, naming the nearest game, if not."""
    from scorers import UnknownGameError, find_game

    try:
        return find_game(name)
    except UnknownGameError as error:
        fail(str(error), 2)


def checked_place(text: str | None) -> str | None:
    """A ``--location`` value as stored (``""`` for none or ``-``); exit 2 if it breaks the rule."""
    if text is None:
        return None
    from companion.history.places import InvalidPlace, clean_place

    try:
        return clean_place(text)
    except InvalidPlace as error:
        fail(f"--location: {error}", 2)


@contextmanager
def open_history(
    db: Path | None, *, hint: str = "", write: bool = True, verify: bool = True
) -> Iterator["History"]:
    """Use the history at ``db`` (or the default); any database trouble is one line, exit 1.

    Trouble met while opening it or while the ``with`` body uses it (a lock
    held too long, a read-only file, a full disk, damage) ends the command
    with ``Error: …`` naming the file, never a traceback.

    Args:
        db: The ``--db`` option, if given.
        hint: Added to the error message, e.g. how to go on without the history.
        write: ``False`` for commands that only read: they never create a file
            or a folder, and a missing history reads as an empty one.
        verify: A command that only reads checks the file first (SQLite's quick
            check), so that damage is reported whichever pages it reads;
            ``False`` for ``history check``, which lists the damage itself.
    """
    from companion.history.errors import HistoryError
    from companion.history.store import default_path, opened

    try:
        with opened(db or default_path(), write=write, action="use the history") as history:
            if history.backup_path is not None:
                typer.echo(
                    f"The history was upgraded; the old file was kept as {history.backup_path}.",
                    err=True,
                )
            if not write and verify:
                history.verify()
            yield history
    except HistoryError as error:
        fail(f"{error}{hint}")


def print_json(document: object) -> None:
    """Print one JSON document on standard output (no control character reaches the
    terminal: see :func:`~companion.terminal.safe_text.json_text`)."""
    from companion.terminal.safe_text import json_text

    typer.echo(json_text(document))


def show(renderable: "RenderableType") -> None:
    """Print a rich renderable on standard output, without trailing blanks."""
    from companion.terminal.results import print_clean

    print_clean(renderable)


def show_parts(parts: "Sequence[RenderableType]") -> None:
    """Print a report's parts in order: a string broken between words, anything else with
    :func:`show`."""
    for part in parts:
        if isinstance(part, str):
            typer.echo(between_words(part))
        else:
            show(part)


def show_topic(topic: "Topic", title: str) -> None:
    """Print a rules topic: rich Markdown on a terminal, plain text wrapped at whole words in
    a pipe (``title`` is its game's)."""
    import sys

    from companion.terminal import rules_text

    if sys.stdout.isatty():
        rules_text.print_topic(topic, title)
        return
    from companion.rules.render import width

    typer.echo(rules_text.topic_text(topic, title, width()))


class _Argument(TyperArgument):
    """An argument whose usage shows its placeholder as it is (``GAME``, not ``{GAME}``)."""

    def get_usage_pieces(self, ctx: Any) -> list[str]:
        """The placeholder; an optional one in brackets."""
        shown = self.make_metavar(ctx)
        return [shown if self.required or shown.startswith("[") else f"[{shown}]"]


def _placeholder(param: object) -> None:
    """Give ``param`` the house placeholder: an upper-case word (``N`` for a number)."""
    if isinstance(param, TyperArgument):
        param.__class__ = _Argument
        if param.metavar is None:
            param.metavar = (param.name or "value").upper()
    elif isinstance(param, TyperOption) and not param.is_flag and param.metavar is None:
        number = getattr(param.type, "name", "") in ("int", "int range", "integer", "integer range")
        param.metavar = "N" if number else (param.name or "value").upper()


def _tidy(command: object) -> None:
    """Every placeholder of ``command`` and its subcommands one way; groups list whole lines."""
    for param in getattr(command, "params", []):
        _placeholder(param)
    if isinstance(command, TyperGroup):
        command.__class__ = HelpGroup
        for sub in command.commands.values():
            _tidy(sub)


class HelpGroup(TyperGroup):
    """The app's group: one placeholder style in every help, and command lines never cut.

    Typer writes a required argument as ``{game}``, a number as ``<int>`` and a
    text as ``<str>``; here every placeholder is an upper-case word (``GAME``,
    ``N``, ``FILE``), and each command's first sentence is listed whole.
    """

    def __init__(self, **attrs: Any) -> None:
        super().__init__(**attrs)
        _tidy(self)

    def format_commands(self, ctx: Any, formatter: Any) -> None:
        """List every command with its whole first sentence."""
        rows = [
            (name, command.get_short_help_str(limit=1000))
            for name in self.list_commands(ctx)
            if (command := self.get_command(ctx, name)) is not None and not command.hidden
        ]
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


BACK = "Back"


def ask(message: str, choices: list[Any], *, interrupt: bool = False) -> Any:
    """Ask a submenu's question; *Back*, Esc or Ctrl-C answer :data:`BACK`.

    ``interrupt``: Ctrl-C is left to the caller (raised), Back and Esc still answer BACK.
    """
    import questionary
    from prompt_toolkit.key_binding import KeyBindings, merge_key_bindings

    question = questionary.select(message, choices=[*choices, questionary.Separator(), BACK])
    keys = KeyBindings()

    @keys.add("escape", eager=True)
    def _back(event: Any) -> None:
        # Going back leaves no trace of the question left (no stale header above the next).
        event.app.erase_when_done = True
        event.app.exit(result=BACK)

    application = question.application
    application.key_bindings = merge_key_bindings([application.key_bindings or keys, keys])
    try:
        return question.unsafe_ask()
    except KeyboardInterrupt:
        if interrupt:
            raise
        return BACK
