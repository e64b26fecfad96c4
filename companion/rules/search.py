"""Full-text search over the rules topics, with SQLite FTS5.

The index lives in the user's cache directory, never in the package. It is
built on first use and rebuilt whenever a topic file changes (the file names,
sizes and modification times are compared). Ranking is bm25 over title,
keywords and text, with Porter stemming so that plurals and other word forms
match. A word the topics never use is corrected first: its trigrams are looked
up in a trigram index of every word the topics do use, and the closest word
replaces it ("souvenier" → "souvenir").
"""

from __future__ import annotations

import os
import re
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

from companion.rules import topic_files

INDEX_VERSION = "3"
START, STOP = "\x02", "\x03"
WORD = re.compile(r"[a-z0-9]+")
MIN_SIMILARITY = 0.72
WEIGHTS = (0.0, 0.0, 10.0, 6.0, 1.0)  # game, topic, title, keywords, body
GAME_WORDS = {
    "shimoda": "shimoda",
    "perry": "shimoda",
    "shibuya": "shibuya",
    "tokaido": "tokaido",
    "kamakura": "kamakura",
    "shogun": "shogun",
}

STOP_WORDS = frozenset(
    """
    a about after again all am an and any are as at be been before being both but by can
    could did do does doing during each for from get gets got had has have having how i
    if in into is it its just me more most my no nor not of off on once only or other our
    out over own same should so some such than that the their them then there these they
    this those through to too under until up very was we were what when where which while
    who whom why will with would you your yours happens happen
    """.split()  # noqa: SIM905
)


@dataclass(frozen=True)
class Hit:
    """One search result.

    Attributes:
        game: The game id.
        topic: The topic id.
        title: The topic's title.
        score: bm25 relevance (higher is better).
        snippet: A piece of the text with the matches between
            :data:`START` and :data:`STOP`.
    """

    game: str
    topic: str
    title: str
    score: float
    snippet: str


@dataclass
class Results:
    """What a search found, and how the query was read (``game``: the game it
    was limited to, by ``--game`` or by a game's name in the query)."""

    query: str
    terms: list[str]
    corrections: dict[str, str] = field(default_factory=dict)
    game: str | None = None
    hits: list[Hit] = field(default_factory=list)


def default_index_path() -> Path:
    """``rules-index.sqlite3`` in the user's cache directory."""
    import platformdirs

    return platformdirs.user_cache_path("companion", appauthor=False) / "rules-index.sqlite3"


def fingerprint() -> str:
    """Every topic file's name, size and modification time, in one string."""
    parts = [INDEX_VERSION]
    for path in topic_files():
        stat = path.stat()
        parts.append(f"{path.parent.name}/{path.name}:{stat.st_size}:{stat.st_mtime_ns}")
    return ";".join(parts)


def open_index(path: Path | None = None) -> sqlite3.Connection:
    """Open the index, building it first when it is missing or stale."""
    path = path or default_index_path()
    current = fingerprint()
    if path.exists():
        try:
            db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
            row = db.execute("SELECT value FROM meta WHERE key = 'fingerprint'").fetchone()
            if row and row[0] == current:
                return db
            db.close()
        except sqlite3.DatabaseError:
            pass  # a damaged or old cache is rebuilt
    build(path, current)
    return sqlite3.connect(f"file:{path}?mode=ro", uri=True)


def build(path: Path, stamp: str) -> None:
    """Build the index into a new file, then move it into place.

    Two processes building at once each write their own file; the last move
    wins and both files are complete.
    """
    from companion.rules import read_topic

    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    temporary.unlink(missing_ok=True)
    db = sqlite3.connect(temporary)
    try:
        db.executescript(
            """
            CREATE VIRTUAL TABLE topics USING fts5(
                game UNINDEXED, topic UNINDEXED, title, keywords, body,
                tokenize = 'porter unicode61 remove_diacritics 2');
            CREATE VIRTUAL TABLE words USING fts5(word, tokenize = 'trigram');
            CREATE TABLE vocabulary (word TEXT PRIMARY KEY) WITHOUT ROWID;
            CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
            """
        )
        vocabulary: set[str] = set()
        for file in topic_files():
            topic = read_topic(file)
            keywords = " ".join(topic.keywords)
            db.execute(
                "INSERT INTO topics (game, topic, title, keywords, body) VALUES (?, ?, ?, ?, ?)",
                (topic.game, topic.id, topic.title, keywords, plain(topic.body)),
            )
            vocabulary.update(WORD.findall(f"{topic.title} {keywords} {topic.body}".lower()))
        db.executemany("INSERT INTO vocabulary (word) VALUES (?)", [(w,) for w in vocabulary])
        db.executemany(
            "INSERT INTO words (word) VALUES (?)", [(w,) for w in vocabulary if len(w) >= 3]
        )
        db.execute("INSERT INTO meta (key, value) VALUES ('fingerprint', ?)", (stamp,))
        db.commit()
    finally:
        db.close()
    os.replace(temporary, path)


def plain(markdown: str) -> str:
    """Topic text without Markdown markup, for indexing and snippets."""
    return re.sub(r"[*_`#>|]", "", markdown)


def terms_of(query: str) -> list[str]:
    """The words of a query that carry meaning (all of them if all are common)."""
    words = WORD.findall(query.lower())
    meaningful = [w for w in words if w not in STOP_WORDS]
    return meaningful or words


def correct(db: sqlite3.Connection, word: str) -> str | None:
    """The topics' word closest to ``word``, or ``None`` when nothing is close."""
    import difflib

    if len(word) < 4:
        return None
    trigrams = {word[i : i + 3] for i in range(len(word) - 2)}
    match = " OR ".join(f'"{t}"' for t in sorted(trigrams))
    candidates = [
        row[0] for row in db.execute("SELECT word FROM words WHERE words MATCH ?", (match,))
    ]
    best = difflib.get_close_matches(word, candidates, n=1, cutoff=MIN_SIMILARITY)
    return best[0] if best else None


def search(
    query: str, *, game: str | None = None, limit: int = 5, index: Path | None = None
) -> Results:
    """Rank the topics for ``query``, best first.

    Args:
        query: Words or a question, as a player would type it.
        game: Only this game's topics.
        limit: How many results at most.
        index: The index file (default: the user's cache).
    """
    results = Results(query, [])
    words = terms_of(query)
    named = {GAME_WORDS[w] for w in words if w in GAME_WORDS}
    if len(named) == 1 and len(words) > 1:
        # "who starts the next round in shimoda": the game's name picks the game.
        game = game or named.pop()
        words = [w for w in words if w not in GAME_WORDS]
    results.game = game
    db = open_index(index)
    try:
        for word in words:
            known = db.execute("SELECT 1 FROM vocabulary WHERE word = ?", (word,)).fetchone()
            if not known:
                fixed = correct(db, word)
                if fixed is None:
                    continue
                results.corrections[word] = fixed
                word = fixed
            if word not in results.terms:
                results.terms.append(word)
        if not results.terms:
            return results
        match = " OR ".join(f'"{t}"' for t in results.terms)
        where = "topics MATCH ?" + (" AND game = ?" if game else "")
        params: list[object] = [match, *([game] if game else []), limit]
        weights = ", ".join(str(w) for w in WEIGHTS)
        rows = db.execute(
            f"SELECT game, topic, title, bm25(topics, {weights}) AS score, "
            f"snippet(topics, 4, '{START}', '{STOP}', '…', 16) "
            f"FROM topics WHERE {where} ORDER BY score LIMIT ?",
            params,
        ).fetchall()
    finally:
        db.close()
    results.hits = [Hit(g, t, title, round(-s, 3), snip) for g, t, title, s, snip in rows]
    return results
