"""Full-text search over the rules topics, with SQLite FTS5.

The index lives in the user's cache directory, never in the package. It is
built on first use and rebuilt whenever a topic file changes (the file names,
sizes and modification times are compared). It holds every topic (title,
keywords, text) and every sentence of every topic, both with Porter stemming
so that plurals and other word forms match, and a trigram index of the words
the topics use, to correct typos ("souvenier" → "souvenir").

A question is read as groups of words: each meaningful word of the query with
the words a table uses for the same thing (:data:`SYNONYMS`: a pawn is a
pedestrian, money is coins, "same" is a tie). A topic ranks by

- its bm25 relevance over title, keywords and text;
- how much of the question it covers: the share of the word groups it holds,
  rare groups counting more than common ones;
- its best sentence: the share of the question one sentence answers.

The snippet is that best sentence, whole, with the matched words marked.
"""

from __future__ import annotations

import math
import os
import re
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

from companion.rules import topic_files
from companion.safe_file import replacing
from scorers import GAME_IDS

INDEX_VERSION = "6"
START, STOP = "\x02", "\x03"
WORD = re.compile(r"[a-z0-9]+")
MIN_SIMILARITY = 0.72
WEIGHTS = (0.0, 0.0, 10.0, 6.0, 1.0)  # game, topic, title, keywords, body
# How the three signals add up to a topic's score (each is between 0 and 1).
RELEVANCE, COVERAGE, ANSWER = 3.0, 1.0, 1.0
# A topic that holds a word only through another word for it covers this share of
# it (a sentence, once its topic is chosen, covers all of it).
SYNONYM_SHARE = 0.5
MAX_QUERY, MAX_TERMS, MAX_WORD = 1000, 12, 40  # a question is short; longer input is cut
SNIPPET_WORDS = 36  # a longer answering sentence is cut around its matches
SHORT_SENTENCE = 8  # a sentence this short brings the next one along
# A word of a question that names a game: its id, and "perry" (Shimoda: Perry Road).


def game_words() -> dict[str, str]:
    """The words that name a game in a question: its id, and each alias's first word."""
    from scorers import SCORERS

    words = {game: game for game in GAME_IDS}
    for game in GAME_IDS:
        for alias in SCORERS[game].info.aliases:
            words.setdefault(alias.split()[0].casefold(), game)
    return words


STOP_WORDS = frozenset(
    """
    a about after again all am an and any are as at be been before being both but by can
    could did do does doing during each for from get gets got had has have having how i
    if in into is it its just me more most my no nor not of off on once only or other our
    out over own same should so some such than that the their them then there these they
    this those through to too under until up very was we were what when where which while
    who whom why will with would you your yours happens happen many much
    s t d ll m re ve don doesn didn isn aren wasn weren haven hasn shouldn couldn wouldn
    let lets please anyone someone somebody ok okay still actually really far
    one need needs want wants
    """.split()  # noqa: SIM905
)
# Words the stop list drops that still carry the question when they stand for
# a table's word: "who goes first" is about the start player, "same" about ties.
KEPT_STOP_WORDS = frozenset({"same", "again", "most", "more", "first", "only", "before", "after"})

# Words a table uses for the same thing. A query word is searched with every
# word of every group it belongs to (one step, not transitively). Kept general:
# plain English and the games' own vocabulary, never a question's wording.
SYNONYM_GROUPS: tuple[tuple[str, ...], ...] = (
    ("pawn", "pedestrian", "piece", "meeple", "figure"),
    ("money", "coin", "cash", "chest", "gold"),
    ("same", "tie", "tied", "equal", "draw", "level", "share"),
    ("tie", "tied", "draw", "equal", "tiebreak", "tiebreaker", "tie-break"),
    ("broken", "break", "tiebreak", "tie-break", "tiebreaker"),
    ("first", "start", "begin", "starting"),
    ("start", "setup", "set up", "beginning", "begin", "first"),
    ("point", "score", "vp", "victory point"),
    ("go", "move", "walk", "step"),
    ("move", "step", "walk", "go"),
    ("win", "won", "winner", "victory", "wins"),
    ("end", "finish", "over", "last", "final"),
    ("stand", "hold", "occupy"),
    ("share", "hold", "together"),
    ("buy", "purchase", "pay", "cost", "price"),
    ("cost", "pay", "price", "buy"),
    ("food", "meal", "eat", "dish"),
    ("theatre", "theater", "noh"),
    ("colour", "color"),
    ("traveller", "traveler"),
    ("twice", "again", "repeat", "consecutive", "row"),
    ("space", "spot", "square"),
    ("fight", "battle", "combat", "attack"),
    ("phase", "part", "stage", "step"),
    ("build", "construction", "construct"),
    ("pick", "choose", "select"),
    ("bid", "auction", "bet"),
    ("bath", "hot spring", "onsen", "bather"),
    ("shop", "store"),
    ("tourist", "visitor", "customer"),
    ("player", "people", "person", "players"),
    ("opponent", "other player", "enemy", "rival"),
    ("partner", "teammate", "team", "ally"),
    ("pile", "deck", "stack"),
    ("card", "cards"),
    ("give", "donate", "donation", "offer", "offering"),
    ("get", "gain", "take", "receive", "earn"),
    ("take", "gain", "collect", "get"),
    ("two", "2", "both", "pair"),
    ("three", "3"),
    ("four", "4"),
    ("five", "5"),
    ("six", "6"),
    ("seven", "7"),
    ("eight", "8"),
    ("second", "2nd"),
    ("third", "3rd"),
)
SYNONYMS: dict[str, tuple[str, ...]] = {}
for _group in SYNONYM_GROUPS:
    for _word in _group:
        SYNONYMS[_word] = tuple(dict.fromkeys([*SYNONYMS.get(_word, ()), *_group]))


def synonyms(word: str) -> tuple[str, ...]:
    """``word`` and the table's other words for it ("pawns" finds the group of "pawn")."""
    for form in (word, word[:-1], word[:-2], word[:-3]):
        if form in SYNONYMS and (form == word or word[len(form) :] in ("s", "es", "ing", "ed")):
            return tuple(dict.fromkeys([word, *SYNONYMS[form]]))
    return (word,)


@dataclass(frozen=True)
class Hit:
    """One search result.

    Attributes:
        game: The game id.
        topic: The topic id.
        title: The topic's title.
        score: How well the topic answers (higher is better).
        snippet: The sentence that answers best, with the matches between
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
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    # Not flushed to disk: an index found damaged is built again.
    with replacing(path, temporary, sync=False):
        db = sqlite3.connect(temporary)
        try:
            _fill(db, stamp)
        finally:
            db.close()


def _fill(db: sqlite3.Connection, stamp: str) -> None:
    """Index every topic into the empty database ``db``, marked with ``stamp``."""
    from companion.rules import read_topic

    db.executescript(
        """
        CREATE VIRTUAL TABLE topics USING fts5(
            game UNINDEXED, topic UNINDEXED, title, keywords, body,
            tokenize = 'porter unicode61 remove_diacritics 2');
        CREATE VIRTUAL TABLE sentences USING fts5(
            game UNINDEXED, topic UNINDEXED, first UNINDEXED, last UNINDEXED, text,
            tokenize = 'porter unicode61 remove_diacritics 2');
        CREATE VIRTUAL TABLE words USING fts5(word, tokenize = 'trigram');
        CREATE TABLE vocabulary (word TEXT PRIMARY KEY) WITHOUT ROWID;
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE game_words (word TEXT PRIMARY KEY, game TEXT NOT NULL) WITHOUT ROWID;
        """
    )
    # The words that name a game are kept with the index, so that a search reads no scorer.
    db.executemany("INSERT INTO game_words (word, game) VALUES (?, ?)", game_words().items())
    vocabulary: set[str] = set()
    for file in topic_files():
        topic = read_topic(file)
        keywords = " ".join(topic.keywords)
        db.execute(
            "INSERT INTO topics (game, topic, title, keywords, body) VALUES (?, ?, ?, ?, ?)",
            (topic.game, topic.id, topic.title, keywords, plain(topic.body)),
        )
        parts = sentences(topic.body)
        db.executemany(
            "INSERT INTO sentences (game, topic, first, last, text) VALUES (?, ?, ?, ?, ?)",
            [
                (topic.game, topic.id, k == 0, k == len(parts) - 1, text)
                for k, text in enumerate(parts)
            ],
        )
        vocabulary.update(WORD.findall(f"{topic.title} {keywords} {topic.body}".lower()))
    db.executemany("INSERT INTO vocabulary (word) VALUES (?)", [(w,) for w in vocabulary])
    db.executemany("INSERT INTO words (word) VALUES (?)", [(w,) for w in vocabulary if len(w) >= 3])
    db.execute("INSERT INTO meta (key, value) VALUES ('fingerprint', ?)", (stamp,))
    db.commit()


def plain(markdown: str) -> str:
    """Topic text without Markdown marks, for indexing (underscores stay: category names)."""
    from companion.rules.render import inline

    return "\n".join(inline(line) for line in markdown.splitlines())


SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"(])")


def sentences(markdown: str) -> list[str]:
    """A topic's text cut into sentences, as plain text.

    A list item stays whole (one item, one point), and each row of a table
    becomes one sentence naming its columns ("shortfall 3 to 4, revolts 2, ...").
    """
    from companion.rules.render import ITEM, blocks, inline

    out: list[str] = []
    for kind, lines in blocks(markdown):
        if kind == "table":
            rows = [
                [inline(cell.strip()) for cell in line.strip().strip("|").split("|")]
                for line in lines
                if not set(line) <= set("|-: ")
            ]
            header, body = rows[0], rows[1:]
            out.extend(
                ", ".join(f"{h} {v}" for h, v in zip(header, row, strict=False)) for row in body
            )
            continue
        if kind == "item":  # one item is one point, kept whole
            match = ITEM.match(lines[0])
            first = match.group(3) if match else lines[0].strip()
            out.append(inline(" ".join([first, *(line.strip() for line in lines[1:])])))
        else:
            text = " ".join(line.strip() for line in lines)
            out.extend(SENTENCE_END.split(inline(text).lstrip("# ")))
    return [s for s in out if s.strip()]


def terms_of(query: str) -> list[str]:
    """The words of a query that carry meaning (all of them if all are common).

    A question has a few words: only the first :data:`MAX_TERMS` different ones
    are searched, and words longer than :data:`MAX_WORD` letters are dropped.
    """
    words = [w for w in WORD.findall(query[:MAX_QUERY].lower()) if len(w) <= MAX_WORD]
    meaningful = [w for w in words if w not in STOP_WORDS or w in KEPT_STOP_WORDS]
    return list(dict.fromkeys(meaningful or words))[:MAX_TERMS]


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
    candidates = [c for c in candidates if c not in STOP_WORDS]
    best = difflib.get_close_matches(word, candidates, n=1, cutoff=MIN_SIMILARITY)
    return best[0] if best else None


def phrase(words: str) -> str:
    """An FTS5 phrase for ``words`` (quotes doubled)."""
    return '"' + words.replace('"', '""') + '"'


def known(db: sqlite3.Connection, words: str) -> bool:
    """Whether any topic holds ``words`` (in any word form)."""
    row = db.execute("SELECT 1 FROM topics WHERE topics MATCH ? LIMIT 1", (phrase(words),))
    return row.fetchone() is not None


@dataclass(frozen=True)
class Group:
    """One meaningful word of a query, as searched.

    Attributes:
        words: The word itself (or, when no topic uses it, the table's words
            for it that the topics do use).
        others: The table's other words for it that the topics use.
    """

    words: tuple[str, ...]
    others: tuple[str, ...] = ()

    def match(self, *, with_others: bool = True) -> str:
        """The FTS5 query for this group."""
        return " OR ".join(phrase(w) for w in (*self.words, *(self.others if with_others else ())))


def groups_of(db: sqlite3.Connection, results: Results, words: list[str]) -> list[Group]:
    """Each query word with the table's other words for it, keeping those the topics use.

    A word no topic uses and no synonym covers is corrected to the closest
    word the topics use (noted in ``results.corrections``), or dropped.
    """
    groups: list[Group] = []
    for word in words:
        alternatives = [w for w in synonyms(word) if known(db, w)]
        if not alternatives:
            fixed = correct(db, word)
            if fixed is None:
                continue
            results.corrections[word] = fixed
            word = fixed
            alternatives = [w for w in synonyms(word) if known(db, w)] or [word]
        if word in results.terms:
            continue
        results.terms.append(word)
        if word in alternatives:
            others = tuple(w for w in alternatives if w != word)
            groups.append(Group((word,), others))
        else:
            groups.append(Group(tuple(alternatives)))
    return groups


def matching(db: sqlite3.Connection, table: str, match: str, game: str | None) -> set[int]:
    """Rowids of ``table`` (topics or sentences) matching an FTS5 query."""
    where = f"{table} MATCH ?" + (" AND game = ?" if game else "")
    params = [match, *([game] if game else [])]
    return {row[0] for row in db.execute(f"SELECT rowid FROM {table} WHERE {where}", params)}


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
    results = Results(query[:MAX_QUERY], [])
    words = terms_of(query)
    db = open_index(index)
    try:
        known = dict(db.execute("SELECT word, game FROM game_words"))
        named = {known[w] for w in words if w in known}
        if len(named) == 1 and len(words) > 1:
            # "who starts the next round in shimoda": the game's name picks the game.
            game = game or named.pop()
            words = [w for w in words if w not in known]
        results.game = game
        groups = groups_of(db, results, words)
        if groups:
            results.hits = rank(db, groups, game, limit)
    finally:
        db.close()
    return results


class Coverage:
    """How much of a query a topic or a sentence holds.

    Each group weighs by its rarity among the topics searched (a word most
    topics use says little); a group found only through another word for it
    counts :data:`SYNONYM_SHARE` of its weight.
    """

    def __init__(self, db: sqlite3.Connection, groups: list[Group], game: str | None) -> None:
        scope = db.execute(
            "SELECT count(*) FROM topics" + (" WHERE game = ?" if game else ""),
            [game] if game else [],
        ).fetchone()[0]
        self.sets: dict[str, list[tuple[set[int], set[int]]]] = {
            "topics": [],
            "titles": [],
            "sentences": [],
        }
        for kind, found in self.sets.items():
            table, column = ("sentences", "") if kind == "sentences" else ("topics", "")
            if kind == "titles":
                column = "title : "
            for group in groups:
                match = f"{column}({group.match(with_others=False)})"
                own = matching(db, table, match, game)
                others: set[int] = set()
                if group.others:
                    alternatives = " OR ".join(map(phrase, group.others))
                    others = matching(db, table, f"{column}({alternatives})", game) - own
                found.append((own, others))
        self.rarity = [
            math.log(1 + scope / (1 + len(own | others))) for own, others in self.sets["topics"]
        ]
        self.whole = sum(self.rarity) or 1.0

    def of(self, kind: str, rowid: int) -> float:
        """The share of the query (0 to 1) that a topic, its title or a sentence holds.

        Args:
            kind: ``topics``, ``titles`` (rowids of topics) or ``sentences``.
            rowid: The topic's or the sentence's rowid.
        """
        total = 0.0
        for weight, (own, others) in zip(self.rarity, self.sets[kind], strict=True):
            if rowid in own:
                total += weight
            elif rowid in others:
                total += (1.0 if kind == "sentences" else SYNONYM_SHARE) * weight
        return total / self.whole


def rank(db: sqlite3.Connection, groups: list[Group], game: str | None, limit: int) -> list[Hit]:
    """The best ``limit`` topics for the word groups, with their answering sentences."""
    own = " OR ".join(g.match(with_others=False) for g in groups)
    everything = " OR ".join(g.match() for g in groups)
    where = " AND game = ?" if game else ""
    extra: list[object] = [game] if game else []
    weights = ", ".join(str(w) for w in WEIGHTS)
    rows = db.execute(
        f"SELECT rowid, game, topic, title FROM topics WHERE topics MATCH ?{where}",
        [everything, *extra],
    ).fetchall()
    if not rows:
        return []
    relevance = dict(
        db.execute(
            f"SELECT rowid, -bm25(topics, {weights}) FROM topics WHERE topics MATCH ?{where}",
            [own, *extra],
        ).fetchall()
    )
    strongest = max(relevance.values(), default=0.0) or 1.0
    coverage = Coverage(db, groups, game)
    best: dict[tuple[str, str], tuple[float, int, float]] = {}
    sentence_rows = db.execute(
        "SELECT rowid, game, topic, -bm25(sentences) FROM sentences "
        f"WHERE sentences MATCH ?{where}",
        [everything, *extra],
    )
    for rowid, g, t, fit in sentence_rows:
        candidate = (round(coverage.of("sentences", rowid), 6), -rowid, fit)
        if (g, t) not in best or candidate > best[(g, t)]:
            best[(g, t)] = candidate
    scored = []
    for rowid, g, t, title in rows:
        answer, sentence, _ = best.get((g, t), (0.0, 0, 0.0))
        score = (
            RELEVANCE * relevance.get(rowid, 0.0) / strongest
            + COVERAGE * coverage.of("topics", rowid)
            + ANSWER * max(answer, coverage.of("titles", rowid))
        )
        scored.append((score, g, t, title, -sentence))
    scored.sort(key=lambda s: -s[0])
    return [
        Hit(g, t, title, round(score, 3), snippet(db, everything, sentence, g, t))
        for score, g, t, title, sentence in scored[:limit]
    ]


def snippet(db: sqlite3.Connection, match: str, rowid: int, game: str, topic: str) -> str:
    """The answering sentence (and the next one when it is short), matches marked.

    ``…`` marks text of the topic left out before or after. A sentence longer
    than :data:`SNIPPET_WORDS` is cut at whole words around its matches.
    """
    if rowid == 0:  # no sentence matched: the topic's opening
        row = db.execute(
            "SELECT rowid FROM sentences WHERE game = ? AND topic = ? AND first", (game, topic)
        ).fetchone()
        rowid = row[0] if row else 0
    parts: list[str] = []
    first = last = True
    for k, current in enumerate((rowid, rowid + 1)):
        row = db.execute(
            "SELECT game, topic, first, last, text FROM sentences WHERE rowid = ?", (current,)
        ).fetchone()
        if row is None or (row[0], row[1]) != (game, topic):
            break
        marked = db.execute(
            f"SELECT highlight(sentences, 4, '{START}', '{STOP}') FROM sentences "
            "WHERE sentences MATCH ? AND rowid = ?",
            (match, current),
        ).fetchone()
        parts.append(marked[0] if marked else row[4])
        if k == 0:
            first = bool(row[2])
        last = bool(row[3])
        if last or len(row[4].split()) >= SHORT_SENTENCE:
            break
    words = " ".join(parts).split()
    if len(words) > SNIPPET_WORDS:
        hits = [i for i, w in enumerate(words) if START in w] or [0]
        centre = (hits[0] + hits[-1]) // 2
        begin = max(0, min(centre - SNIPPET_WORDS // 2, len(words) - SNIPPET_WORDS))
        end = begin + SNIPPET_WORDS
        first = first and begin == 0
        last = last and end >= len(words)
        words = balanced(words[begin:end])
    text = " ".join(words)
    return f"{'' if first else '…'}{text}{'' if last else '…'}"


def balanced(words: list[str]) -> list[str]:
    """Cut words with every match mark closed: a match cut in two stays marked."""
    text = " ".join(words)
    opened = text.rfind(START) > text.rfind(STOP)
    if text.find(STOP) != -1 and (text.find(START) == -1 or text.find(STOP) < text.find(START)):
        words = [START + words[0], *words[1:]]
    if opened:
        words = [*words[:-1], words[-1] + STOP]
    return words
