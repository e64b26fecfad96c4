"""The Rules button of a game's page: the topic for the part of the game the page is at,
and a search of every topic, in the same words as ``companion rules``.

The topics are :mod:`companion.rules`' own files; the search is
:func:`companion.rules.search.search`, limited to the page's game. Topic text
is Markdown drawn as escaped HTML: paragraphs, list items, headings, and
tables as rows of text (never markup from the files).
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from typing import TYPE_CHECKING

import ipywidgets as w

if TYPE_CHECKING:
    from companion.rules import Topic

MAX_QUERY = 200
HITS = 5
STRONG = re.compile(r"\*\*(.+?)\*\*")
CODE = re.compile(r"`([^`]+)`")
ITEM = re.compile(r"^([-*]|\d+\.)\s+")


def inline_html(text: str) -> str:
    """One line of Markdown as escaped HTML: bold and code kept, nothing else."""
    escaped = html.escape(text, quote=False)
    escaped = STRONG.sub(r"<b>\1</b>", escaped)
    return CODE.sub(r"<code>\1</code>", escaped)


def markdown_html(markdown: str) -> str:
    """A topic's Markdown as escaped HTML (see the module)."""
    from companion.rules.render import blocks

    parts: list[str] = []
    items: list[str] = []
    for kind, lines in blocks(markdown):
        if kind != "item" and items:
            parts.append("<ul>" + "".join(items) + "</ul>")
            items = []
        text = " ".join(line.strip() for line in lines)
        if kind == "item":
            items.append(f"<li>{inline_html(ITEM.sub('', text))}</li>")
        elif kind == "heading":
            parts.append(f"<h4>{inline_html(text.lstrip('#').strip())}</h4>")
        elif kind == "table":
            rows = [
                " · ".join(cell.strip() for cell in line.strip().strip("|").split("|"))
                for line in lines
                if not re.fullmatch(r"[\s|:-]+", line)
            ]
            parts.append("<p>" + "<br>".join(inline_html(row) for row in rows) + "</p>")
        else:
            parts.append(f"<p>{inline_html(text)}</p>")
    if items:
        parts.append("<ul>" + "".join(items) + "</ul>")
    return "".join(parts)


def topic_html(topic: Topic) -> str:
    """One topic: its title, its text and what to see as well."""
    see = ""
    if topic.see_also:
        see = f"<p class='small'>See also: {html.escape(', '.join(topic.see_also))}</p>"
    return f"<h3>{html.escape(topic.title)}</h3>{markdown_html(topic.body)}{see}"


class RulesPanel:
    """A Rules button and what it opens.

    Args:
        game: The game id.
        phase: Where the page is (a :data:`companion.rules.PHASES` value), asked
            each time the button opens the panel.
    """

    def __init__(self, game: str, phase: Callable[[], str]) -> None:
        self.game = game
        self.phase = phase
        self.button = w.Button(description="Rules", tooltip="The rules for this part of the game")
        self.button.add_class("rules-button")
        self.button.on_click(lambda _: self.toggle())
        self.query = w.Text(
            placeholder="Search the rules", tooltip="Search the rules", continuous_update=False
        )
        self.query.add_class("rules-query")
        self.query.observe(lambda _: self.search(), names="value")  # Enter, or leaving it
        self.search_button = w.Button(description="Search")
        self.search_button.add_class("rules-search")
        self.search_button.on_click(lambda _: self.search())
        self.close_button = w.Button(description="Close the rules")
        self.close_button.on_click(lambda _: self.toggle())
        self.hits = w.VBox()
        self.hits.add_class("rules-hits")
        self.text = w.HTML()
        self.text.add_class("rules-text")
        self.box = w.VBox(
            [w.HBox([self.query, self.search_button, self.close_button]), self.hits, self.text],
            layout=w.Layout(display="none"),
        )
        self.box.add_class("rules-panel")
        self.shown_topic = ""

    @property
    def is_open(self) -> bool:
        """The panel is shown."""
        return bool(self.box.layout.display != "none")

    def toggle(self) -> None:
        """Open the panel on the topic for where the page is, or close it."""
        if self.is_open:
            self.box.layout.display = "none"
            return
        self.box.layout.display = ""
        self.open_phase(self.phase())

    def open_phase(self, phase: str) -> None:
        """Show the first topic about ``phase`` (the game's overview when there is none)."""
        from companion.rules import load_topics, topic_for_phase

        topic = topic_for_phase(self.game, phase) or load_topics(self.game)[0]
        self.show(topic)

    def show(self, topic: Topic) -> None:
        """Show one topic."""
        self.shown_topic = topic.id
        self.text.value = topic_html(topic)

    def open_topic(self, topic_id: str) -> None:
        """Show the topic with this id."""
        from companion.rules import find_topic

        self.show(find_topic(self.game, topic_id))

    def search(self) -> list[str]:
        """Search this game's topics for the typed words; the best one is shown."""
        from companion.rules.search import search

        words = self.query.value.strip()[:MAX_QUERY]
        if not words:
            self.hits.children = []
            return []
        results = search(words, game=self.game, limit=HITS)
        found = [hit.topic for hit in results.hits]
        buttons = []
        for hit in results.hits:
            button = w.Button(description=hit.title, tooltip=f"Open the rule: {hit.title}")
            button.add_class("rules-hit")
            button.on_click(lambda _, topic=hit.topic: self.open_topic(topic))
            buttons.append(button)
        self.hits.children = buttons
        if found:
            self.open_topic(found[0])
        else:
            self.text.value = (
                f"<p>Nothing in the rules answers {html.escape(words)!s}; try other words.</p>"
            )
        return found
