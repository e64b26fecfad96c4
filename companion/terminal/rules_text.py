"""What ``companion rules`` prints: the games, a game's topics, one topic, search results.

Plain text wrapped at whole words to a width, or JSON. On a terminal the
headings are bold and a search's matched words are marked: the caller says
how (``bold``, ``mark``), and in a pipe the text stays plain. Nothing here
imports rich or the scorers on the listing and search paths, so that they
start about as fast as ``companion --help``; a topic on a terminal is drawn
with rich's Markdown (:func:`print_topic`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from companion.rules import Topic
    from companion.rules.search import Results

Style = Callable[[str], str]
"""How a piece of text is emphasised (on a terminal), e.g. in bold."""

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
EXAMPLE_SEARCH = 'companion rules search "what if two players tie for most castles"'


def as_is(text: str) -> str:
    """No emphasis: ``text`` as it is (in a pipe)."""
    return text


def games_json() -> dict[str, Any]:
    """The games with their topic counts, as JSON."""
    from companion.rules import GAME_FOLDERS, GAME_TITLES, topic_files

    return {
        "games": [
            {"game": g, "title": GAME_TITLES[g], "topics": len(topic_files(g))}
            for g in GAME_FOLDERS
        ]
    }


def games_text(width: int, bold: Style = as_is) -> str:
    """The games with their topic counts, and how to read and search them."""
    from companion.rules import GAME_FOLDERS, GAME_TITLES, topic_files
    from companion.rules.render import wrap

    counts = {g: len(topic_files(g)) for g in GAME_FOLDERS}
    words = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
    many = len(GAME_FOLDERS)
    count = words[many] if many < len(words) else str(many)
    heading = f"Rules for {count} game{'' if many == 1 else 's'}, in our own words."
    lines = [bold(line) for line in wrap(heading, width)]
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
    return "\n".join(lines)


def topics_json(game: str, title: str, topics: Sequence[Topic]) -> dict[str, Any]:
    """The topics of one game, as JSON."""
    return {
        "game": game,
        "title": title,
        "topics": [{"id": t.id, "title": t.title, "phase": t.phase} for t in topics],
    }


def topics_text(
    game: str, title: str, topics: Sequence[Topic], width: int, bold: Style = as_is
) -> str:
    """The topics of one game, grouped by phase."""
    from companion.rules import by_phase
    from companion.rules.render import wrap

    if not topics:
        return f"{title}: no rules topics yet (its rules folder has none)."
    size = max(len(t.id) for t in topics) + 2
    heading = f"{title}: {len(topics)} topics (companion rules {game} TOPIC)"
    lines = [bold(line) for line in wrap(heading, width)]
    phase = None
    for t in by_phase(topics):  # the order the menu lists them in
        if t.phase not in PHASE_TITLES:
            continue
        if t.phase != phase:
            phase = t.phase
            lines.extend(["", *(bold(line) for line in wrap(PHASE_TITLES[phase], width))])
        if width - size - 2 >= 16:
            lines.extend(wrap(t.title, width, f"  {t.id:<{size}}", " " * (size + 2)))
        else:  # too narrow for two columns
            lines.extend([f"  {t.id}", *wrap(t.title, width, "      ", "      ")])
    return "\n".join(lines)


def _see_also(topic: Topic) -> str:
    """The related topics by their titles (an id no topic has is shown as it is)."""
    if not topic.see_also:
        return ""
    from companion.rules import load_topics

    titles = {t.id: t.title for t in load_topics(topic.game)}
    return f"See also: {'; '.join(titles.get(i, i) for i in topic.see_also)}"


def topic_text(topic: Topic, title: str, width: int) -> str:
    """One topic with its source and related topics, as plain text wrapped at whole words."""
    from companion.rules.render import plain_text, wrap

    see_also = _see_also(topic)
    lines = [*wrap(f"{title}: {topic.title}", width), *wrap(source_line(topic), width), ""]
    lines.append(plain_text(topic.body, width))
    if see_also:
        lines.extend(["", *wrap(see_also, width, "", "  ")])
    return "\n".join(lines)


def print_topic(topic: Topic, title: str) -> None:
    """Print one topic on the terminal: rich Markdown at the terminal's width."""
    from rich.console import Console
    from rich.text import Text

    from companion.rules.render import print_markdown

    see_also = _see_also(topic)
    console = Console(highlight=False)
    console.print(Text(f"{title}: {topic.title}", style="bold"))
    console.print(Text(source_line(topic), style="dim"))
    console.print()
    print_markdown(topic.body, console)
    if see_also:
        console.print()
        console.print(Text(see_also))


def source_line(topic: Topic) -> str:
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


def search_text(
    query: str,
    game: str | None,
    results: Results,
    width: int,
    *,
    bold: Style = as_is,
    mark: Style | None = None,
) -> str:
    """The best matches of a search, each with its snippet, and how to read one.

    Args:
        query: The words searched for.
        game: The game the search was limited to (``--game``), if any.
        results: What the search found.
        width: The width to wrap at.
        bold: How headings are emphasised.
        mark: How matched words are marked; ``None`` leaves them unmarked.
    """
    from companion.rules.render import wrap
    from companion.terminal.safe_text import line

    lines = []
    for typed, fixed in results.corrections.items():
        lines.extend(wrap(line(f'Searching for "{fixed}" (you typed "{typed}").'), width))
    if not results.hits:
        shown = line(query if len(query) <= 60 else query[:57] + "...")
        lines.extend(wrap(f'No topic matches "{shown}".', width))
        hint = f"Try other words, or list the topics: companion rules {game or 'GAME'}"
        lines.extend(wrap(hint, width, "", "    "))
    for k, hit in enumerate(results.hits, 1):
        heading = f"{k}. {hit.title} ({hit.game} {hit.topic})"
        lines.extend(bold(row) for row in wrap(heading, width, "", "   "))
        lines.extend(highlight(row, mark) for row in wrap_marked(hit.snippet, width, "   "))
    if results.hits:
        best = results.hits[0]
        lines.append("")
        lines.extend(wrap(f"Read one: companion rules {best.game} {best.topic}", width, "", "    "))
    return "\n".join(lines)


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


def highlight(line: str, mark: Style | None = None) -> str:
    """The matched words of a line marked with ``mark``; without, the match marks removed."""
    from companion.rules.search import START, STOP

    if mark is None:
        return line.replace(START, "").replace(STOP, "")
    out = []
    marked = False
    for part in line.replace(STOP, START).split(START):
        out.append(mark(part) if marked and part else part)
        marked = not marked
    return "".join(out)


def search_json(results: Results) -> dict[str, object]:
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
