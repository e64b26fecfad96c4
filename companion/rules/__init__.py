"""The rules reference: topic files, one folder per game, and their search index.

A topic is a Markdown file with a TOML header between ``+++`` lines::

    +++
    id = "round-end"
    title = "End of a round"
    phase = "round"
    see_also = ["movement"]
    source = ["Round End"]
    categories = []
    keywords = ["start player"]
    +++
    The text, in our own words.

``source`` names the rulebook sections the topic comes from (or
``game-facts.md``), ``categories`` the scoring categories it explains.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scorers import GAME_IDS, SCORERS

RULES_DIR = Path(__file__).resolve().parent
GAME_FOLDERS = GAME_IDS  # one folder per registered game, named by its id
GAME_TITLES = SCORERS.facts(lambda info: info.title)
PHASES = ("overview", "setup", "turn", "round", "scoring", "end", "variant", "faq")


class RulesError(LookupError):
    """A game or topic that does not exist."""


@dataclass(frozen=True)
class Topic:
    """One rule, short enough for one screen.

    Attributes:
        game: The game id.
        id: The topic's id, unique within its game.
        title: A short heading.
        phase: One of :data:`PHASES`.
        body: The text (Markdown).
        see_also: Ids of related topics of the same game.
        source: Rulebook sections (or ``game-facts.md``) it comes from.
        categories: Scoring categories it explains.
        keywords: Words players use for it that the text may not contain.
    """

    game: str
    id: str
    title: str
    phase: str
    body: str
    see_also: tuple[str, ...] = ()
    source: tuple[str, ...] = ()
    categories: tuple[str, ...] = ()
    keywords: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The topic as a JSON document."""
        return {
            "game": self.game,
            "id": self.id,
            "title": self.title,
            "phase": self.phase,
            "body": self.body,
            "see_also": list(self.see_also),
            "source": list(self.source),
            "categories": list(self.categories),
        }


_FOLDERS: dict[str, Path] = {}
"""The rules folders of games that are not built in (:func:`add_folder`)."""


def add_folder(game: str, folder: Path) -> None:
    """Take ``game``'s topics from ``folder`` (a game registered from elsewhere).

    Raises:
        ValueError: The folder is not named by the game's id (a topic's game is its folder's name).
    """
    if folder.name != game:
        raise ValueError(f"{folder}: the rules folder of {game} is named {game}")
    _FOLDERS[game] = folder


def folder_of(game: str) -> Path:
    """The folder of ``game``'s topic files."""
    return _FOLDERS.get(game, RULES_DIR / game)


def topic_files(game: str | None = None) -> list[Path]:
    """Every topic file, in game then file-name order."""
    games = [game] if game else list(GAME_FOLDERS)
    return [path for g in games for path in sorted(folder_of(g).glob("*.md"))]


def read_topic(path: Path) -> Topic:
    """Parse one topic file.

    Raises:
        ValueError: The header is missing or malformed.
    """
    import tomllib

    text = path.read_text(encoding="utf-8")
    parts = text.split("+++\n", 2)
    if len(parts) != 3 or parts[0].strip():
        raise ValueError(f"{path}: a topic starts with a +++ header")
    header = tomllib.loads(parts[1])
    return Topic(
        game=path.parent.name,
        id=str(header["id"]),
        title=str(header["title"]),
        phase=str(header["phase"]),
        body=parts[2].strip(),
        see_also=tuple(header.get("see_also", ())),
        source=tuple(header.get("source", ())),
        categories=tuple(header.get("categories", ())),
        keywords=tuple(header.get("keywords", ())),
    )


def load_topics(game: str | None = None) -> list[Topic]:
    """All topics of ``game`` (or of every game), in their files' order."""
    return [read_topic(path) for path in topic_files(game)]


def by_phase(topics: Sequence[Topic]) -> list[Topic]:
    """``topics`` in the one order every list shows them: by phase, then file order."""
    rank = {phase: k for k, phase in enumerate(PHASES)}
    return sorted(topics, key=lambda t: rank.get(t.phase, len(PHASES)))


def find_topic(game: str, name: str) -> Topic:
    """A topic by id, or by a title or id close enough to be unambiguous.

    Raises:
        RulesError: With the closest ids, when nothing matches.
    """
    topics = load_topics(game)
    wanted = name.strip().casefold()
    for topic in topics:
        if wanted in (topic.id, topic.title.casefold()):
            return topic
    import difflib

    starts = [t for t in topics if t.id.startswith(wanted)]
    if len(starts) == 1:
        return starts[0]
    close = difflib.get_close_matches(wanted, [t.id for t in topics], n=3, cutoff=0.5)
    hint = f" (did you mean {', '.join(close)}?)" if close else ""
    raise RulesError(f"no topic {name!r} for {game}{hint}; 'companion rules {game}' lists them")


def topic_for_phase(game: str, phase: str) -> Topic | None:
    """The first topic of ``game`` about ``phase``, for help at a prompt."""
    for topic in load_topics(game):
        if topic.phase == phase:
            return topic
    return None
