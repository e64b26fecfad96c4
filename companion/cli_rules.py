"""``companion rules``: list a game's topics, show one, or search them all.

Kept free of rich and of the scorers on the search path, so that a search
starts about as fast as ``companion --help``.
"""

from typing import TYPE_CHECKING, Annotated

import typer

from companion.cli_common import JsonOption, fail, print_json

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


def resolve(name: str) -> tuple[str, str]:
    """A game name → ``(id, title)``; exit 2 when unknown."""
    from scorers import UnknownGameError, find_game

    try:
        info = find_game(name).info
    except UnknownGameError as error:
        fail(str(error), 2)
    return info.id, info.title


def rules(
    first: Annotated[
        str | None,
        typer.Argument(metavar="GAME", help="A game (or the word 'search' to search)."),
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
    """The rules, in our own words: 'rules GAME', 'rules GAME TOPIC', 'rules search "words"'."""
    if first is None:
        names = ", ".join(("shimoda", "shibuya", "tokaido", "kamakura", "shogun"))
        fail(f'name a game ({names}) or search: companion rules search "inn meal"', 2)
    if first == "search":
        if not second or not second.strip():
            fail('what should I search for? companion rules search "inn meal"', 2)
        run_search(second, game, limit, json)
        return
    game_id, title = resolve(first)
    if second is None:
        list_topics(game_id, title, json)
    else:
        show_topic(game_id, title, second, json)


def list_topics(game: str, title: str, json: bool) -> None:
    """Print the topics of one game, grouped by phase."""
    from companion.rules import PHASES, load_topics

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
    lines = [f"{title}: {len(topics)} topics (companion rules {game} TOPIC)"]
    for phase in PHASES:
        group = [t for t in topics if t.phase == phase]
        if group:
            lines.append("")
            lines.append(PHASE_TITLES[phase])
            lines.extend(f"  {t.id:<26} {t.title}" for t in group)
    typer.echo("\n".join(lines))


def show_topic(game: str, title: str, name: str, json: bool) -> None:
    """Print one topic with its source and related topics."""
    from companion.rules import RulesError, find_topic

    try:
        topic = find_topic(game, name)
    except RulesError as error:
        fail(str(error))
    if json:
        print_json(topic.to_json())
        return
    typer.echo(typer.style(f"{title}: {topic.title}", bold=True))
    typer.echo(source_line(topic))
    typer.echo("")
    typer.echo(topic.body)
    if topic.see_also:
        typer.echo("")
        typer.echo(f"See also: {', '.join(topic.see_also)}")


def source_line(topic: "Topic") -> str:
    """Where a topic comes from, in one line."""
    sections = [s for s in topic.source if s != "game-facts.md"]
    parts = []
    if sections:
        parts.append("rulebook: " + "; ".join(sections))
    if "game-facts.md" in topic.source:
        parts.append("other sources (game facts)")
    return f"[{topic.phase}] From the {', and '.join(parts) or 'rulebook'}."


def run_search(query: str, game: str | None, limit: int, json: bool) -> None:
    """Search every game's topics (or one game's) and print the best matches."""
    from companion.plain import line
    from companion.rules.search import search

    game_id = resolve(game)[0] if game else None
    results = search(query, game=game_id, limit=limit)
    if json:
        print_json(search_json(results))
        return
    for typed, fixed in results.corrections.items():
        typer.echo(line(f'Searching for "{fixed}" (you typed "{typed}").'))
    if not results.hits:
        typer.echo(line(f'No topic matches "{query}".'))
        return
    for k, hit in enumerate(results.hits, 1):
        heading = f"{k}. {hit.title} ({hit.game} {hit.topic})"
        typer.echo(typer.style(heading, bold=True))
        typer.echo("   " + highlight(hit.snippet))


def highlight(snippet: str) -> str:
    """Matched words in bold reverse video (plain text when not on a terminal)."""
    from companion.rules.search import START, STOP

    out = []
    for k, part in enumerate(snippet.replace(STOP, START).split(START)):
        out.append(typer.style(part, bold=True, reverse=True) if k % 2 else part)
    return " ".join("".join(out).split())


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
