"""Two command lines answered without typer: ``rules search`` and ``score --json --no-save``.

Importing typer alone costs about 30 ms of CPU, more than a whole search over an
index already built or the scoring of a game. So :func:`companion.cli.app.main`
first offers the command line to :func:`quick`, which answers only the
plainest forms of two commands, each option once (``--name value`` or
``--name=value``):

- ``rules search QUERY`` with ``--game``/``-g GAME``, ``--limit``/``-n N``,
  ``--json``;
- ``score GAME --input``/``-i FILE --json --no-save``, FILE a regular file.

Anything else (help, an error of any kind, an unknown game, a file that does
not score, a shell-completion request) is handed to the typer app, which
answers it as always; so the output, the exit code and the help text are the
same whichever path runs. The search's text comes from :func:`search_output`,
which ``companion rules search`` prints too, and is written as ``typer.echo``
writes it.

Nothing here imports typer or click.
"""

import os
import sys

COMPLETION_VARIABLE = "_COMPANION_COMPLETE"  # typer's shell-completion request
DEFAULT_LIMIT = 5  # the default of ``rules --limit``
ANSI = r"\033\[[;?0-9]*[a-zA-Z]"  # what click strips from text sent to a pipe


def bold(text: str) -> str:
    """``text`` in bold on a terminal, plain in a pipe (as ``typer.style(bold=True)``)."""
    return f"\x1b[1m{text}\x1b[0m" if sys.stdout.isatty() else text


def marked(text: str) -> str:
    """A matched word on a terminal: bold reverse video (as ``typer.style``)."""
    return f"\x1b[1m\x1b[7m{text}\x1b[0m"


def search_output(query: str, game: str | None, limit: int, json: bool) -> str:
    """What ``rules search`` prints for ``query`` (``game``: a game id, or ``None``)."""
    from companion.rules.render import width
    from companion.rules.search import search
    from companion.terminal import rules_text

    results = search(query, game=game, limit=limit)
    if json:
        from companion.terminal.safe_text import json_text

        return json_text(rules_text.search_json(results))
    mark = marked if sys.stdout.isatty() else None
    return rules_text.search_text(query, game, results, width(), bold=bold, mark=mark)


def plain_arguments(
    args: list[str], options: dict[str, str], flags: tuple[str, ...]
) -> tuple[str, dict[str, str]] | None:
    """The one argument and the options of a plain command line, else ``None``.

    Args:
        args: The command line after the command's name.
        options: Each option that takes a value, by every spelling
            (``{"--game": "game", "-g": "game"}``).
        flags: The flags, each with its one spelling (``"--json"``).

    Returns:
        The argument, and each option given by its name (a flag with ``""``);
        ``None`` for every form this parser is not sure to read as click does:
        an unknown option, an option twice, a short option with its value
        attached, a value that starts with ``-``, ``--``, no argument or two.
    """
    argument: str | None = None
    values: dict[str, str] = {}
    k = 0
    while k < len(args):
        token = args[k]
        k += 1
        if not token.startswith("-"):
            if argument is not None:
                return None
            argument = token
            continue
        name, equals, value = token.partition("=") if token.startswith("--") else (token, "", "")
        key = name if name in flags else options.get(name)
        if key is None or key in values:
            return None
        if key in flags:
            if equals:
                return None
            value = ""
        elif not equals:
            if k == len(args):
                return None
            value = args[k]
            k += 1
        if key not in flags and value.startswith("-"):
            return None
        values[key] = value
    return None if argument is None else (argument, values)


def search_arguments(args: list[str]) -> tuple[str, str | None, int, bool] | None:
    """``(query, game name, limit, json)`` of a plain ``rules search`` command line, else ``None``
    (see :func:`plain_arguments`; also for a blank query or a limit that is not a plain whole
    number of at least 1)."""
    if args[:2] != ["rules", "search"]:
        return None
    options = {"--game": "game", "-g": "game", "--limit": "limit", "-n": "limit"}
    parsed = plain_arguments(args[2:], options, ("--json",))
    if parsed is None:
        return None
    query, values = parsed
    if not query.strip():
        return None
    limit = values.get("limit", str(DEFAULT_LIMIT))
    if not (limit.isascii() and limit.isdigit()) or int(limit) < 1:
        return None
    return query, values.get("game"), int(limit), "--json" in values


def score_arguments(args: list[str]) -> tuple[str, str] | None:
    """``(game name, file)`` of ``score GAME --input FILE --json --no-save``, else ``None``
    (see :func:`plain_arguments`; also when FILE is not a regular file, so that typer's
    path, should it run after this one, reads the same text)."""
    import stat

    if args[:1] != ["score"]:
        return None
    parsed = plain_arguments(args[1:], {"--input": "input", "-i": "input"}, ("--json", "--no-save"))
    if parsed is None or set(parsed[1]) != {"input", "--json", "--no-save"}:
        return None
    game, values = parsed
    try:
        if not stat.S_ISREG(os.stat(values["input"]).st_mode):
            return None
    except (OSError, ValueError):
        return None
    return game, values["input"]


def score_output(game: str, source: str) -> str:
    """What ``score GAME --input FILE --json --no-save`` prints for a valid score file."""
    from companion.bounded_json import MAX_SCORE_FILE_BYTES, read_source
    from companion.history.rescoring import score_text
    from companion.terminal.safe_text import json_text
    from scorers import find_game

    scorer = find_game(game)
    result = score_text(scorer, read_source(source, limit=MAX_SCORE_FILE_BYTES))
    return json_text(result.to_json())


def stdout_misconfigured() -> bool:
    """Whether click would wrap standard output in a stream of its own (an ASCII encoding)."""
    import codecs

    try:
        return codecs.lookup(getattr(sys.stdout, "encoding", None) or "ascii").name == "ascii"
    except LookupError:
        return False


def echo(text: str) -> None:
    """Write ``text`` and a newline as ``typer.echo`` does: ANSI codes stripped in a pipe."""
    out = text + "\n"
    if not sys.stdout.isatty():
        import re

        out = re.sub(ANSI, "", out)
    sys.stdout.write(out)
    sys.stdout.flush()


def quick(args: list[str]) -> bool:
    """Answer a plain ``rules search`` or ``score`` command line without typer.

    Returns:
        Whether it was answered; ``False``: the typer app should run it.
    """
    if COMPLETION_VARIABLE in os.environ or sys.stdout is None or stdout_misconfigured():
        return False
    search = search_arguments(args)
    score = score_arguments(args) if search is None else None
    if search is None and score is None:
        return False
    try:
        if search is not None:
            query, game, limit, json = search
            game_id = None
            if game:
                from scorers import find_game

                game_id = find_game(game).info.id
            text = search_output(query, game_id, limit, json)
        else:
            assert score is not None
            text = score_output(*score)
    except KeyboardInterrupt:
        sys.exit(130)  # as typer: the exit code of Ctrl-C, no traceback
    except Exception:  # typer's path meets it again and reports it its way
        return False
    try:
        echo(text)
    except BrokenPipeError:
        # As typer: exit 1 without complaining, now or when Python flushes at exit.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        sys.exit(1)
    return True
