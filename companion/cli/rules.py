"""``companion rules``: the games, a game's topics, one topic, or a search of them all.

Kept free of rich and of the scorers on the search and listing paths, so that
they start about as fast as ``companion --help``. A topic shown on a terminal
is drawn with rich's Markdown at the terminal's width; in a pipe it is plain
text (see :mod:`companion.rules.render`).
"""

import sys
from typing import TYPE_CHECKING, Annotated

import typer

from companion.cli.common import JsonOption, fail, print_json

if TYPE_CHECKING:
    from companion.rules import Topic
    from companion.rules.search import Results

PHASE_TITLES = {
    "overview": "Overview",
    "setup": "Setup",
    "turn": "A turn",
    "round": "Rounds and phases",
    "scoring": "Scoring",
    "end": "End of the game",
    "variant": "Player counts and variants",
    "faq": "Assumptions and FAQ",
}
KEYWORDS = ("list", "search")
EXAMPLE_SEARCH = 'companion rules search "what if two players tie for most castles"'


def resolve(name: str) -> tuple[str, str]:
    """A game name → ``(id, title)``; exit 2 when unknown, naming the closest game."""
    from scorers import UnknownGameError, find_game

    try:
        info = find_game(name).info
    except UnknownGameError as error:
        fail(str(error), 2)
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
        show_topic(game_id, title, second, json)


def columns() -> int:
    """The width to print at."""
    from companion.rules.render import width

    return width()


def bold(text: str) -> str:
    """``text`` in bold on a terminal, plain in a pipe."""
    return typer.style(text, bold=True) if sys.stdout.isatty() else text


def list_games(json: bool) -> None:
    """Print the games with their topic counts, and how to read and search them."""
    from companion.rules import GAME_FOLDERS, GAME_TITLES, topic_files

    counts = {g: len(topic_files(g)) for g in GAME_FOLDERS}
    if json:
        print_json(
            {
                "games": [
                    {"game": g, "title": GAME_TITLES[g], "topics": counts[g]} for g in GAME_FOLDERS
                ]
            }
        )
        return
    from companion.rules.render import wrap

    width = columns()
    lines = [bold(line) for line in wrap("Rules for five games, in our own words.", width)]
    lines.append("")
    size = max(len(g) for g in GAME_FOLDERS) + 2
    for g in GAME_FOLDERS:
        text = f"{GAME_TITLES[g]} ({counts[g]} topics)"
        lines.extend(wrap(text, width, f"  {g:<{size}}", " " * (size + 2)))
    usage = [
        ("companion rules GAME", "a game's topics, by phase"),
        ("companion rules GAME TOPIC", "one topic"),
        ('companion rules search "WORDS"', "the topics that answer a question"),
    ]
    size = max(len(command) for command, _ in usage) + 4
    lines.extend(["", bold("Read and search:")])
    for command, what in usage:
        if width - size >= 20:
            lines.extend(wrap(what, width, f"  {command:<{size - 2}}", " " * size))
        else:  # too narrow for two columns
            lines.extend([*wrap(command, width, "  ", "    "), *wrap(what, width, "    ", "    ")])
    lines.extend(["", bold("For example:"), *wrap(EXAMPLE_SEARCH, width, "  ", "    ")])
    typer.echo("\n".join(lines))


def list_topics(game: str, title: str, json: bool) -> None:
    """Print the topics of one game, grouped by phase."""
    from companion.rules import PHASES, load_topics
    from companion.rules.render import wrap

    topics = load_topics(game)
    if json:
        print_json(
            {
                "game": game,
                "title": title,
                "topics": [{"id": t.id, "title": t.title, "phase": t.phase} for t in topics],
            }
        )
        return
    width = columns()
    size = max(len(t.id) for t in topics) + 2
    heading = f"{title}: {len(topics)} topics (companion rules {game} TOPIC)"
    lines = [bold(line) for line in wrap(heading, width)]
    for phase in PHASES:
        group = [t for t in topics if t.phase == phase]
        if group:
            lines.extend(["", *(bold(line) for line in wrap(PHASE_TITLES[phase], width))])
            for t in group:
                if width - size - 2 >= 16:
                    lines.extend(wrap(t.title, width, f"  {t.id:<{size}}", " " * (size + 2)))
                else:  # too narrow for two columns
                    lines.extend([f"  {t.id}", *wrap(t.title, width, "      ", "      ")])
    typer.echo("\n".join(lines))


def show_topic(game: str, title: str, name: str, json: bool) -> None:
    """Print one topic with its source and related topics.

    On a terminal the text is rich Markdown at the terminal's width; in a pipe
    it is plain text wrapped at whole words.
    """
    from companion.rules import RulesError, find_topic

    try:
        topic = find_topic(game, name)
    except RulesError as error:
        fail(str(error))
    if json:
        print_json(topic.to_json())
        return
    heading = f"{title}: {topic.title}"
    see_also = f"See also: {', '.join(topic.see_also)}" if topic.see_also else ""
    if sys.stdout.isatty():
        from rich.console import Console
        from rich.text import Text

        from companion.rules.render import print_markdown

        console = Console(highlight=False)
        console.print(Text(heading, style="bold"))
        console.print(Text(source_line(topic), style="dim"))
        console.print()
        print_markdown(topic.body, console)
        if see_also:
            console.print()
            console.print(Text(see_also))
        return
    from companion.rules.render import plain_text, wrap

    width = columns()
    lines = [*wrap(heading, width), *wrap(source_line(topic), width), ""]
    lines.append(plain_text(topic.body, width))
    if see_also:
        lines.extend(["", *wrap(see_also, width, "", "  ")])
    typer.echo("\n".join(lines))


def source_line(topic: "Topic") -> str:
    """Where a topic comes from, in one line."""
    sections = [s for s in topic.source if s != "game-facts.md"]
    others = "game-facts.md" in topic.source
    if sections:
        where = "the rulebook: " + "; ".join(sections)
        if others:
            where += ", and other sources (game facts)"
    else:
        where = "other sources (game facts)" if others else "the rulebook"
    return f"[{topic.phase}] From {where}."


def run_search(query: str, game: str | None, limit: int, json: bool) -> None:
    """Search every game's topics (or one game's) and print the best matches."""
    from companion.rules.search import search
    from companion.terminal.safe_text import line

    game_id = resolve(game)[0] if game else None
    results = search(query, game=game_id, limit=limit)
    if json:
        print_json(search_json(results))
        return
    from companion.rules.render import wrap

    width = columns()
    lines = []
    for typed, fixed in results.corrections.items():
        lines.extend(wrap(line(f'Searching for "{fixed}" (you typed "{typed}").'), width))
    if not results.hits:
        shown = line(query if len(query) <= 60 else query[:57] + "...")
        lines.extend(wrap(f'No topic matches "{shown}".', width))
        hint = f"Try other words, or list the topics: companion rules {game_id or 'GAME'}"
        lines.extend(wrap(hint, width, "", "    "))
    for k, hit in enumerate(results.hits, 1):
        heading = f"{k}. {hit.title} ({hit.game} {hit.topic})"
        lines.extend(bold(row) for row in wrap(heading, width, "", "   "))
        lines.extend(highlight(row) for row in wrap_marked(hit.snippet, width, "   "))
    if results.hits:
        best = results.hits[0]
        lines.append("")
        lines.extend(wrap(f"Read one: companion rules {best.game} {best.topic}", width, "", "    "))
    typer.echo("\n".join(lines))


def wrap_marked(snippet: str, width: int, indent: str) -> list[str]:
    """Wrap a snippet at whole words; the match marks take no room on the line."""
    from companion.rules.search import START, STOP

    lines: list[str] = []
    current = indent
    visible = len(indent)
    for word in snippet.split():
        size = len(word.replace(START, "").replace(STOP, ""))
        if visible > len(indent) and visible + 1 + size > width:
            lines.append(current)
            current, visible = indent, len(indent)
        if visible > len(indent):
            current += " "
            visible += 1
        current += word
        visible += size
    if visible > len(indent):
        lines.append(current)
    return lines


def highlight(line: str) -> str:
    """Matched words in bold reverse video on a terminal; plain text in a pipe."""
    from companion.rules.search import START, STOP

    if not sys.stdout.isatty():
        return line.replace(START, "").replace(STOP, "")
    out = []
    marked = False
    for part in line.replace(STOP, START).split(START):
        out.append(typer.style(part, bold=True, reverse=True) if marked and part else part)
        marked = not marked
    return "".join(out)


def search_json(results: "Results") -> dict[str, object]:
    """The search results as JSON, matches marked with ``**``."""
    from companion.rules.search import START, STOP

    return {
        "query": results.query,
        "terms": results.terms,
        "corrections": results.corrections,
        "game": results.game,
        "results": [
            {
                "game": h.game,
                "topic": h.topic,
                "title": h.title,
                "score": h.score,
                "snippet": " ".join(h.snippet.replace(START, "**").replace(STOP, "**").split()),
            }
            for h in results.hits
        ],
    }
