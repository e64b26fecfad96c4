"""``companion rules``: the games, a game's topics, one topic, or a search of them all.

Kept free of rich and of the scorers on the search and listing paths, so that
they start about as fast as ``companion --help``; a plain ``rules search`` does
not even start typer (:mod:`companion.cli.quick`). A topic shown on a terminal
is drawn with rich's Markdown at the terminal's width; in a pipe it is plain
text (see :mod:`companion.rules.render`). The text itself is made by
:mod:`companion.terminal.rules_text`.
"""

from typing import Annotated

import typer

from companion.cli.common import JsonOption, fail, print_json, scorer_for, show_topic
from companion.cli.quick import bold, search_output

KEYWORDS = ("list", "search")


def resolve(name: str) -> tuple[str, str]:
    """A game name → ``(id, title)``; exit 2 when unknown, naming the closest game."""
    info = scorer_for(name).info
    return info.id, info.title


def rules(
    first: Annotated[
        str | None,
        typer.Argument(
            metavar="[GAME|list|search]",
            help="A game; 'list' for the games (or 'list GAME'); 'search' to search.",
        ),
    ] = None,
    second: Annotated[
        str | None,
        typer.Argument(metavar="[TOPIC|QUERY]", help="A topic id, or the words to search for."),
    ] = None,
    game: Annotated[
        str | None, typer.Option("--game", "-g", help="With search: only this game.")
    ] = None,
    limit: Annotated[int, typer.Option("--limit", "-n", min=1, help="Most search results.")] = 5,
    json: JsonOption = False,
) -> None:
    """The rules, in our own words.

    'rules' lists the games, 'rules GAME' a game's topics, 'rules GAME TOPIC'
    shows one, 'rules search "words"' finds the topics that answer a question.
    """
    if first == "search":
        if not second or not second.strip():
            from companion.terminal.rules_text import EXAMPLE_SEARCH

            fail(f"what should I search for? {EXAMPLE_SEARCH}", 2)
        run_search(second, game, limit, json)
        return
    if first is None or (first == "list" and second is None):
        list_games(json)
        return
    if first == "list":
        assert second is not None
        list_topics(*resolve(second), json)
        return
    game_id, title = resolve(first)
    if second is None:
        list_topics(game_id, title, json)
    else:
        topic(game_id, title, second, json)


def columns() -> int:
    """The width to print at."""
    from companion.rules.render import width

    return width()


def list_games(json: bool) -> None:
    """Print the games with their topic counts, and how to read and search them."""
    from companion.terminal import rules_text

    if json:
        print_json(rules_text.games_json())
        return
    typer.echo(rules_text.games_text(columns(), bold))


def list_topics(game: str, title: str, json: bool) -> None:
    """Print the topics of one game, grouped by phase."""
    from companion.rules import load_topics
    from companion.terminal import rules_text

    topics = load_topics(game)
    if json:
        print_json(rules_text.topics_json(game, title, topics))
        return
    typer.echo(rules_text.topics_text(game, title, topics, columns(), bold))


def topic(game: str, title: str, name: str, json: bool) -> None:
    """Print one topic (its JSON with ``json``)."""
    from companion.rules import RulesError, find_topic

    try:
        found = find_topic(game, name)
    except RulesError as error:
        fail(str(error))
    if json:
        print_json(found.to_json())
        return
    show_topic(found, title)


def run_search(query: str, game: str | None, limit: int, json: bool) -> None:
    """Search every game's topics (or one game's) and print the best matches.

    :func:`companion.cli.quick.quick` prints the same for a plain command
    line without starting typer.
    """
    game_id = resolve(game)[0] if game else None
    typer.echo(search_output(query, game_id, limit, json))
