"""The rules reference: structure, coverage, our own words, search quality, output."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

import companion.rules as rules_module
from companion.cli.app import app
from companion.rules import GAME_FOLDERS, PHASES, find_topic, load_topics, topic_for_phase
from companion.rules.search import (
    SHORT_SENTENCE,
    SNIPPET_WORDS,
    START,
    STOP,
    default_index_path,
    search,
    sentences,
)
from scorers import SCORERS

RULEBOOKS = Path(__file__).resolve().parents[3] / "shared" / "rulebooks"
RULEBOOKS_MISSING = (
    "needs the publishers' rulebooks, which are not part of the companion "
    "(the maintainers' checks run it)"
)
needs_rulebooks = pytest.mark.skipif(not RULEBOOKS.is_dir(), reason=RULEBOOKS_MISSING)
runner = CliRunner()
ALL = load_topics()


def topics_of(game: str) -> dict[str, rules_module.Topic]:
    return {t.id: t for t in ALL if t.game == game}


@pytest.mark.parametrize("game", GAME_FOLDERS)
def test_each_game_has_the_required_kinds_of_topic(game: str) -> None:
    topics = topics_of(game)
    phases = {t.phase for t in topics.values()}
    assert {"setup", "scoring", "end", "variant", "faq"} <= phases
    assert {"tie-breaks", "faq"} <= set(topics)
    assert topics["faq"].title == "Assumptions and FAQ"
    assert phases & {"turn", "round"}


@pytest.mark.parametrize("game", GAME_FOLDERS)
def test_every_scoring_category_has_its_own_topic(game: str) -> None:
    for category in SCORERS[game].info.categories:
        owners = [t for t in topics_of(game).values() if category in t.categories]
        assert len(owners) == 1, f"{game} {category}: {[t.id for t in owners]}"
        assert owners[0].categories == (category,)
        assert owners[0].phase in ("scoring", "turn", "round")  # Tokaido scores as you go
        assert f"`{category}`" in owners[0].body


def test_topics_are_well_formed() -> None:
    for game in GAME_FOLDERS:
        topics = topics_of(game)
        assert len(topics) == len([t for t in ALL if t.game == game]), "duplicate ids"
        for topic in topics.values():
            assert re.fullmatch(r"[a-z0-9-]+", topic.id)
            assert topic.phase in PHASES
            assert topic.source, f"{game}/{topic.id} names no source"
            assert set(topic.see_also) <= set(topics), f"{game}/{topic.id} links nowhere"
            assert len(topic.body.splitlines()) <= 30, f"{game}/{topic.id} is over a screen"


# Every section heading of every rulebook file, and the topics must cite each one.
HEADINGS = {
    "shimoda-perry-road.txt": [
        "Components",
        "Game Setup",
        "Game Progress",
        "Turn Sequence",
        "1. Select Card",
        "2. Movement Phase",
        "3. Place Card",
        "Round End",
        "Game End and Scoring",
        "1. Placement of Victory Markers",
        "2. Scoring",
        "Shop Card Explanations",
        "Merchant Card Explanations",
    ],
    "shibuya.txt": [
        "Components",
        "For 2 Players",
        "Setup",
        "How to Play",
        "1. Construction Part",
        "2. Crossing Part",
        "A. Moving a Pedestrian",
        "B. Building a Street Tile",
        "How to Win",
        "For 4 Players",
        "Optional Rule",
    ],
    "tokaido.txt": [
        "Game Components",
        "Object of the game",
        "Setup",
        "Game Play",
        "Single / double spaces",
        "Description of the spaces",
        "Village",
        "Farm",
        "Panorama",
        "Hot Spring",
        "Temple",
        "Encounters",
        "Shokunin (Traveling merchant)",
        "Annaibito (Guide)",
        "Samurai",
        "Kuge (Noble)",
        "Miko (Shinto priest)",
        "Inns",
        "Arriving at an inn",
        "Continuing the journey",
        "End of the Game",
    ],
    "kamakura-collection.txt": [
        "Components",
        "Game Setup",
        "Game Overview",
        "Game Flow and Game's End",
        "Sightseeing Action Board Use",
        "Sightseeing (9 actions)",
        "Moving of Player Pieces",
        "Skip Over Rule",
        "Attaining Coins",
        "Memento Board Use and Point Bonuses",
        "Coin Bonus Points",
        "How to Use Taxi Tickets",
        "Game's End",
        "Point Calculation and Determining the Winner",
        "Exclusive Tour Cards",
        "Point Tracker Use",
        "Site Coins",
        "2-Player Game Rules",
        "Advanced Rules",
    ],
    "shogun.txt": [
        "Game Objective",
        "Setup",
        "The Game Turn",
        "Spring, Summer, and Autumn",
        "Winter Round",
        "Resolving Battles",
        "End of Game and Scoring",
        "Tips for Winning",
    ],
}
BOOK_OF = {
    "shimoda": "shimoda-perry-road.txt",
    "shibuya": "shibuya.txt",
    "tokaido": "tokaido.txt",
    "kamakura": "kamakura-collection.txt",
    "shogun": "shogun.txt",
}


@pytest.mark.parametrize(
    ("game", "heading"),
    [(g, h) for g, book in BOOK_OF.items() for h in HEADINGS[book]],
)
def test_every_rulebook_heading_maps_to_a_topic(game: str, heading: str) -> None:
    cited = [t.id for t in topics_of(game).values() if heading in t.source]
    assert cited, f"no {game} topic covers the rulebook section {heading!r}"


@needs_rulebooks
@pytest.mark.parametrize("book", sorted(HEADINGS))
def test_the_heading_table_matches_the_rulebooks(book: str) -> None:
    text = (RULEBOOKS / book).read_text(encoding="utf-8")
    lines = {line.strip().lstrip("0123456789. ").strip() for line in text.splitlines()}
    for heading in HEADINGS[book]:
        assert heading in text, f"{heading!r} is not in {book}"
    assert lines  # the file was read


def words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9']+", text.lower())


@needs_rulebooks
def test_topics_are_in_our_own_words() -> None:
    grams: set[tuple[str, ...]] = set()
    for book in RULEBOOKS.glob("*.txt"):
        w = words(book.read_text(encoding="utf-8"))
        grams.update(tuple(w[i : i + 8]) for i in range(len(w) - 7))
    copied = []
    for path in rules_module.topic_files():
        w = words(path.read_text(encoding="utf-8"))
        copied.extend(
            f"{path.parent.name}/{path.name}: {' '.join(w[i : i + 8])}"
            for i in range(len(w) - 7)
            if tuple(w[i : i + 8]) in grams
        )
    assert copied == []


# Facts of game-facts.md and of the rulebooks: (game, topic, words the topic must hold).
# Compared with blanks and line breaks folded, so that re-wrapping a topic does not matter.
FACTS = [
    ("shimoda", "components", "seven in each of five colours"),
    ("shimoda", "components", "Assumption: the five colours are blue, black, red, yellow and pink"),
    (
        "shimoda",
        "scoring-shops",
        'Assumption: ranges 1 and 7 and the reading of "within one space"',
    ),
    ("shimoda", "faq", "type each card's colour, condition, points and range"),
    ("shimoda", "faq", "the bridges join spaces 2 and 6"),
    ("shimoda", "setup", "joining space 2 and space 6 of both streets"),
    ("shimoda", "scoring-victory-markers", "Space k of one street faces space k of the other"),
    ("shibuya", "how-to-win", "6 of its 8 pawns"),
    ("shibuya", "optional-rule", "4 pawns at goal"),
    ("shibuya", "optional-rule", "Assumption: a lead of 3 pawns at goal still wins"),
    ("shibuya", "four-players", "Assumption: the rules give no separate team victory"),
    ("tokaido", "scoring-achievements", "Everyone tied for most gets the card"),
    ("tokaido", "scoring-gourmet", "add the prices printed on the meals"),
    ("tokaido", "scoring-temple", "Coins 4, 3, 3, 2, 1 give 10, 7, 7, 4, 2"),
    ("tokaido", "tie-breaks", "more achievement cards"),
    ("tokaido", "panoramas", "a mountain 4 (10 points)"),
    ("tokaido", "hot-springs", "six of each"),
    ("tokaido", "inns", "Every meal is worth 6 points"),
    ("tokaido", "village", "k × k"),
    ("tokaido", "encounters", "The 14 cards"),
    ("tokaido", "encounters", "Assumption: the rulebook gives 14 encounter cards"),
    ("tokaido", "temple", "Hirotada's ability"),
    ("tokaido", "travelers", "Yoshiyasu (9)"),
    ("tokaido", "travelers", "Assumption: our rulebook copy names no traveller"),
    ("tokaido", "scoring-achievements", "Assumption:"),
    ("tokaido", "scoring-gourmet", "Assumption: no source says whether Kinko's"),
    ("tokaido", "two-players", "The companion leaves it out of the temple ranking"),
    ("tokaido", "setup", "three piles, one per type (paddy, mountain, sea), each ordered by value"),
    ("tokaido", "setup", "the seven piles (four of cards, three of panoramas)"),
    ("kamakura", "components", "Assumption: circles, coins and the walk and visit actions"),
    ("kamakura", "components", "circles A and N are the two stations"),
    ("kamakura", "faq", "the bonus on each exclusive tour card, on each taxi ticket"),
    ("kamakura", "faq", "big eater and rendezvous still go to everyone who qualifies"),
    ("kamakura", "tour-cards", "Rendezvous** (M): both of your pieces on the same station"),
    ("kamakura", "tour-cards", "Everyone who manages it scores it"),
    ("kamakura", "tour-cards", "Assumption: when nobody holds an eat-around coin"),
    ("kamakura", "scoring-remembrance", '"more than 5 coins"'),
    ("kamakura", "taxi-tickets", "Assumption: our rulebook says an unused ticket scores"),
    ("kamakura", "two-players", "single site coin"),
    ("shogun", "rounds", "(8 rounds)"),
    ("shogun", "player-count", "8 provinces"),
    ("shogun", "setup", "18 with 3 players, 15 with 4"),
    ("shogun", "scoring-buildings", "Assumption: a province holds at most one building of each"),
    ("shogun", "scoring-majorities", "Assumption: when players tie for the most"),
    ("shogun", "winter", "| 7 or more | 3 | 3 |"),
    ("shogun", "events", "5, 7, 3, 2, 6, 3, 0, 2, 4, 3, 4, 1"),
    ("shogun", "tie-breaks", "war chests"),
    ("shogun", "faq", "the province list with its tax and rice values"),
    ("shogun", "province-list", "Mutsu 4/3"),
    ("shogun", "province-list", "Aki 4/3"),
    ("shogun", "province-list", "Assumption:"),
]

# Errors the topics once held: (game, topic, words that must not come back).
FIXED = [
    ("kamakura", "faq", "Only big eater"),
    ("tokaido", "setup", "per panorama type and value"),
    ("tokaido", "two-players", "like a player, with no score"),
    ("tokaido", "faq", "Assumption:"),
]


def folded(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize(("game", "topic", "text"), FACTS)
def test_game_facts_are_covered(game: str, topic: str, text: str) -> None:
    assert folded(text) in folded(topics_of(game)[topic].body)


@pytest.mark.parametrize(("game", "topic", "text"), FIXED)
def test_fixed_errors_stay_fixed(game: str, topic: str, text: str) -> None:
    assert folded(text) not in folded(topics_of(game)[topic].body)


def assumption_index(faq: rules_module.Topic) -> set[str]:
    """The topic ids the FAQ lists under "Assumptions, each explained in its topic"."""
    from companion.rules.render import blocks

    listed: set[str] = set()
    inside = False
    for kind, lines in blocks(faq.body):
        if kind == "paragraph":
            inside = lines[0].startswith("Assumptions, each explained in its topic")
        elif kind == "item" and inside:
            listed.update(re.findall(r"`([a-z0-9-]+)`", " ".join(lines)))
    return listed


@pytest.mark.parametrize("game", GAME_FOLDERS)
def test_every_assumption_is_labelled_once_and_indexed_by_the_faq(game: str) -> None:
    topics = topics_of(game)
    labelled = {t.id for t in topics.values() if "Assumption:" in t.body}
    assert "faq" not in labelled, "the FAQ points to assumptions, it does not restate them"
    assert assumption_index(topics["faq"]) == labelled


@pytest.mark.parametrize("game", GAME_FOLDERS)
def test_topic_references_name_real_topics(game: str) -> None:
    topics = topics_of(game)
    for topic in topics.values():
        for name in re.findall(r"`([a-z0-9-]+)`", topic.body):
            if "-" in name or name in topics:
                assert name in topics or name in SCORERS[game].info.categories, (
                    f"{game}/{topic.id} names `{name}`"
                )


def test_game_titles_match_the_scorers() -> None:
    assert {g: SCORERS[g].info.title for g in GAME_FOLDERS} == rules_module.GAME_TITLES


@pytest.mark.parametrize("game", ["shimoda", "tokaido"])
def test_cut_off_rulebooks_are_named(game: str) -> None:
    assert "cut off" in topics_of(game)["faq"].body


# At-the-table questions and the topic that must be in the top 3.
QUESTIONS = [
    ("can I stop at a village with no coins", "tokaido", "village"),
    ("what happens to meal cards nobody bought", "tokaido", "inns"),
    ("who starts the next round in shimoda", "shimoda", "round-end"),
    ("how many war chests with 4 players", "shogun", "setup"),
    ("what if two players tie for most castles", "shogun", "scoring-majorities"),
    ("what if both streets have the same number of tourists", "shimoda", "round-end"),
    ("inn meal", "tokaido", "inns"),
    ("souvenier", "tokaido", "village"),
    ("castles", "shogun", "scoring-majorities"),
    ("how many meal cards does the first traveller draw", "tokaido", "inns"),
    ("can I eat the same meal twice", "tokaido", "inns"),
    ("who plays next in tokaido", "tokaido", "turn-order"),
    ("double spaces with three players", "tokaido", "double-spaces"),
    ("how are souvenir sets scored", "tokaido", "village"),
    ("temple tie for first place", "tokaido", "scoring-temple"),
    ("what does mitsukuni do", "tokaido", "travelers"),
    ("tie breaker tokaido", "tokaido", "tie-breaks"),
    ("how many points is a full sea panorama", "tokaido", "panoramas"),
    ("what does the miko encounter do", "tokaido", "encounters"),
    ("neutral traveller in a two player game", "tokaido", "two-players"),
    ("how many tourists can stand on one space", "shimoda", "movement"),
    ("which merchants for the first game", "shimoda", "merchants"),
    ("victory marker when the counts are equal", "shimoda", "scoring-victory-markers"),
    ("does a tourist matching the card colour count double", "shimoda", "scoring-victory-markers"),
    ("what is the range of a long dashed line", "shimoda", "scoring-shops"),
    ("how many moves do I get from the icons", "shimoda", "movement"),
    ("how does a pedestrian move", "shibuya", "crossing-move"),
    ("how many pawns to win shibuya", "shibuya", "how-to-win"),
    ("can I put a third tile on a stack", "shibuya", "crossing-build"),
    ("teams with four players in shibuya", "shibuya", "four-players"),
    ("playing without the construction part", "shibuya", "optional-rule"),
    ("can I take the same action twice in a row", "kamakura", "action-board"),
    ("what happens when someone gets 8 site coins", "kamakura", "turns"),
    ("eat-around coin bonus", "kamakura", "scoring-eat-bonus"),
    ("who gets the gourmet card", "tokaido", "scoring-gourmet"),
    ("what if two travellers have the same number of hot springs", "tokaido", "scoring-bather"),
    ("who wins a tie for most temples in a region", "shogun", "scoring-temples"),
    ("remembrance bonus same colour pairs", "kamakura", "scoring-remembrance"),
    ("unused taxi tickets at the end", "kamakura", "taxi-tickets"),
    ("kamakura two player rules", "kamakura", "two-players"),
    ("how many exclusive tour cards", "kamakura", "setup"),
    ("rickshaw move two spots", "kamakura", "actions"),
    ("skip over an occupied circle", "kamakura", "skip-over"),
    ("where do the point trackers start", "kamakura", "setup"),
    ("who claims provinces first", "shogun", "claiming-provinces"),
    ("not enough rice in winter", "shogun", "winter"),
    ("what if bids are tied", "shogun", "turn-order"),
    ("how much does a castle cost", "shogun", "actions"),
    ("three player shogun unused provinces", "shogun", "player-count"),
    ("battle tower farmers", "shogun", "battles"),
    ("how much tax does owari give", "shogun", "province-list"),
]


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One search index for the module's searches (building it per test is slow)."""
    path = tmp_path_factory.mktemp("rules-index") / "index.sqlite3"
    search("warm up", index=path)
    return path


@pytest.mark.parametrize(("question", "game", "topic"), QUESTIONS)
def test_search_finds_the_topic_in_the_top_3(
    question: str, game: str, topic: str, index: Path
) -> None:
    hits = [(h.game, h.topic) for h in search(question, limit=3, index=index).hits]
    assert (game, topic) in hits, f"{question!r} gave {hits}"


def test_there_are_at_least_40_questions() -> None:
    assert len(QUESTIONS) >= 40


# The snippet is the sentence that answers: (question, game, topic, words of the snippet).
ANSWERS = [
    (
        "two travellers donated the same to the temple",
        "tokaido",
        "scoring-temple",
        "travellers who gave the temple the same number of coins all score that place",
    ),
    (
        "how many tourists can stand on one space",
        "shimoda",
        "movement",
        "when you finish no space of a street may have more than three",
    ),
    (
        "can two pedestrians share a tile",
        "shibuya",
        "crossing-move",
        "It may not stop on a tile that already holds another pawn of its colour",
    ),
    (
        "what if two people bid the same",
        "shogun",
        "turn-order",
        "Equal bids: mix the daimyo cards of those who tied",
    ),
    ("castle majorities", "shogun", "scoring-castles", "(category castle_majorities)"),
    (
        "what happens when someone gets 8 site coins",
        "kamakura",
        "turns",
        "every other player gets one final turn",
    ),
]


@pytest.mark.parametrize(("question", "game", "topic", "words"), ANSWERS)
def test_the_snippet_is_the_answering_sentence(
    question: str, game: str, topic: str, words: str, index: Path
) -> None:
    hit = search(question, limit=1, index=index).hits[0]
    assert (hit.game, hit.topic) == (game, topic)
    shown = hit.snippet.replace(START, "").replace(STOP, "")
    assert words in shown


def test_snippets_keep_whole_words_and_underscores(index: Path) -> None:
    vocabulary = {w for t in ALL for w in WORD.findall(t.body.replace("`", " "))}
    for question, *_ in [*QUESTIONS, *ANSWERS]:
        for hit in search(question, index=index).hits:
            shown = hit.snippet.replace(START, "").replace(STOP, "").strip("…")
            assert shown.count(START) == shown.count(STOP) == 0
            assert hit.snippet.count(START) == hit.snippet.count(STOP)
            assert len(shown.split()) <= SNIPPET_WORDS + 2 * SHORT_SENTENCE
            for word in WORD.findall(shown):
                assert word in vocabulary, f"{question!r}: {word!r} in {shown!r}"


# The table's words for the same thing: (query, another wording, the topic both reach first).
SYNONYM_PAIRS = [
    ("how does a pawn move", "how does a pedestrian move", "shibuya", "crossing-move"),
    ("how much money do I start with in shogun", "war chests at the start", "shogun", "setup"),
    ("same score tokaido", "tie tokaido", "tokaido", "tie-breaks"),
    ("who starts in kamakura", "first player kamakura", "kamakura", "setup"),
    (
        "how many points per victory marker",
        "victory marker score",
        "shimoda",
        "scoring-victory-markers",
    ),
    ("how far can a tourist go", "how many steps can tourists move", "shimoda", "movement"),
]


@pytest.mark.parametrize(("one", "other", "game", "topic"), SYNONYM_PAIRS)
def test_synonyms_of_the_table_reach_the_same_topic(
    one: str, other: str, game: str, topic: str, index: Path
) -> None:
    for query in (one, other):
        hits = [(h.game, h.topic) for h in search(query, limit=3, index=index).hits]
        assert (game, topic) in hits, f"{query!r} gave {hits}"


def test_a_word_known_through_a_synonym_is_not_corrected(index: Path) -> None:
    results = search("money", index=index)
    assert results.corrections == {}
    assert results.hits


def test_a_typo_is_never_corrected_to_a_common_word(index: Path) -> None:
    assert search("phase of the game", index=index).corrections == {}


@pytest.mark.parametrize(
    ("query", "fixed"),
    [("souvenier", {"souvenier": "souvenir"}), ("rickshow", {"rickshow": "rickshaw"})],
)
def test_typos_are_corrected(query: str, fixed: dict[str, str], index: Path) -> None:
    assert search(query, index=index).corrections == fixed


def test_plurals_match_singulars(index: Path) -> None:
    assert (
        search("castle", index=index).hits[0].topic == search("castles", index=index).hits[0].topic
    )


@pytest.mark.parametrize(
    ("markdown", "expected"),
    [
        ("One. Two words here.", ["One.", "Two words here."]),
        (
            "- an item\n  going on. And more.\n- second",
            ["an item going on. And more.", "second"],
        ),
        ("e.g. yellow stays. Next", ["e.g. yellow stays.", "Next"]),
        ("| a | b |\n|---|---|\n| 1 | 2 |", ["a 1, b 2"]),
        ("The `castle_majorities` and **bold**.", ["The castle_majorities and bold."]),
    ],
)
def test_sentences(markdown: str, expected: list[str]) -> None:
    assert sentences(markdown) == expected


def test_index_lives_in_the_cache_and_is_rebuilt_when_a_topic_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    copy = tmp_path / "rules"
    shutil.copytree(
        rules_module.RULES_DIR, copy, ignore=shutil.ignore_patterns("*.py", "__pycache__")
    )
    monkeypatch.setattr(rules_module, "RULES_DIR", copy)
    assert search("zanzibar").hits == []
    assert default_index_path() == tmp_path / "home" / "cache" / "companion" / "rules-index.sqlite3"
    assert default_index_path().exists()
    farm = copy / "tokaido" / "06-farm.md"
    farm.write_text(farm.read_text() + "\nA farm is not in Zanzibar.\n")
    assert [h.topic for h in search("zanzibar").hits] == ["farm"]


def test_phase_topic_for_prompts() -> None:
    topic = topic_for_phase("shimoda", "round")
    assert topic is not None and topic.id == "rounds"
    assert topic_for_phase("shimoda", "nothing") is None


def test_find_topic_by_title_and_prefix() -> None:
    assert find_topic("tokaido", "Inns and meals").id == "inns"
    assert find_topic("tokaido", "trav").id == "travelers"


SHIBUYA_WIN = """\
Shibuya: How to win
[scoring] From the rulebook: How to Win.

The game ends the moment one side wins, in either way:

- it has 6 of its 8 pawns on its goals; or
- it has 3 more pawns at goal than the other side.

With the optional rule the first of these needs 4 pawns instead of 6. The score
the companion records is the number of pawns at goal per side (category goals).

Note: the rulebook's wording "all 6 of his pawns" is read as 6 of the 8 (several
sources agree).

See also: Optional rule: no construction part; Four players in two teams; Ties
  and impossible endings
"""


def test_show_topic_output_in_a_pipe_is_plain_text() -> None:
    result = runner.invoke(app, ["rules", "shibuya", "how-to-win"])
    assert result.exit_code == 0
    assert result.stdout == SHIBUYA_WIN


WORD = re.compile(r"\w(?:[\w'-]*\w)?")


@pytest.mark.parametrize("width", [40, 60, 100])
def test_every_topic_in_a_pipe_fits_the_width_in_whole_words(
    width: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    from companion.rules.render import plain_text

    for topic in ALL:
        text = plain_text(topic.body, width)
        assert "**" not in text and "`" not in text, f"{topic.game}/{topic.id}"
        words = set(WORD.findall(topic.body.replace("`", " ").replace("*", " ")))
        for line in text.splitlines():
            assert len(line) <= width or " " not in line.strip(), f"{topic.game}/{topic.id}: {line}"
            for word in WORD.findall(line):
                assert word in words, f"{topic.game}/{topic.id}: {word!r} was cut in {line!r}"


PLAIN = [
    ("Some **bold** and `code_name` text.", 80, "Some bold and code_name text."),
    (
        "- first item that is long\n  and goes on\n- second",
        20,
        "- first item that is\n  long and goes on\n- second",
    ),
    ("1. one\n2. two\n\nAfter.", 80, "1. one\n2. two\n\nAfter."),
    (
        "| a | bb |\n|---|---|\n| 10 | 2 |",
        80,
        "a   bb\n--  --\n10  2",
    ),
    ("## A heading\nText", 80, "A heading\n\nText"),
    ("a-very-long-hyphenated-name fits", 10, "a-very-long-hyphenated-name\nfits"),
]


@pytest.mark.parametrize(("markdown", "width", "text"), PLAIN)
def test_plain_text(markdown: str, width: int, text: str) -> None:
    from companion.rules.render import plain_text

    assert plain_text(markdown, width) == text


@pytest.mark.terminal
@pytest.mark.timeout(60)
@pytest.mark.parametrize("width", [60, 100])
def test_a_topic_on_a_terminal_is_rich_markdown_at_its_width(width: int) -> None:
    import os
    import sys

    import pexpect

    env = {**os.environ, "TERM": "xterm-256color"}
    env.pop("NO_COLOR", None)
    env.pop("COLUMNS", None)
    child = pexpect.spawn(
        sys.executable,
        ["-m", "companion", "rules", "kamakura", "tour-cards"],
        env=env,
        encoding="utf-8",
        timeout=30,
        dimensions=(50, width),
    )
    child.expect(pexpect.EOF)
    child.close()
    raw = child.before
    assert "\x1b[" in raw  # styled
    text = re.sub(r"\x1b\[[0-9;?]*[a-zA-Z]", "", raw).replace("\r", "")
    assert "**" not in text and "`" not in text
    lines = text.splitlines()
    assert lines[0] == "Kamakura Collection: Exclusive tour cards"
    assert all(len(line.rstrip()) <= width for line in lines)
    assert any(line.lstrip().startswith("• Collection (A to H)") for line in lines)
    assert "(category tours)" in " ".join(" ".join(lines).split())
    if width == 100:  # paragraphs are reflowed to the terminal, not kept at the file's width
        assert any(len(line.rstrip()) > 85 for line in lines)


def test_rules_alone_lists_the_games_and_how_to_search() -> None:
    result = runner.invoke(app, ["rules"])
    assert result.exit_code == 0
    assert result.stdout == (
        "Rules for six games, in our own words.\n"
        "\n"
        "  shimoda   Shimoda: Perry Road (15 topics)\n"
        "  shibuya   Shibuya (10 topics)\n"
        "  tokaido   Tokaido (25 topics)\n"
        "  kamakura  Kamakura Collection (21 topics)\n"
        "  shogun    Shogun (25 topics)\n"
        "  orchard   Orchard Day (10 topics)\n"
        "\n"
        "Read and search:\n"
        "  companion rules GAME            a game's topics, by phase\n"
        "  companion rules GAME TOPIC      one topic\n"
        '  companion rules search "WORDS"  the topics that answer a question\n'
        "\n"
        "For example:\n"
        '  companion rules search "what if two players tie for most castles"\n'
    )
    assert runner.invoke(app, ["rules", "list"]).stdout == result.stdout
    listed = json.loads(runner.invoke(app, ["rules", "list", "--json"]).stdout)
    assert listed["games"][0] == {"game": "shimoda", "title": "Shimoda: Perry Road", "topics": 15}


def test_rules_list_game_lists_its_topics() -> None:
    assert (
        runner.invoke(app, ["rules", "list", "tokaido"]).stdout
        == runner.invoke(app, ["rules", "tokaido"]).stdout
    )


def test_list_output_starts_with_the_phases() -> None:
    lines = runner.invoke(app, ["rules", "Shibuya"]).stdout.splitlines()
    assert lines[:5] == [
        "Shibuya: 10 topics (companion rules shibuya TOPIC)",
        "",
        "Overview",
        "  components      What is in the box",
        "",
    ]


@pytest.mark.parametrize("width", [30, 60])
def test_listings_fit_narrow_terminals(width: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", str(width))
    for args in (["rules"], ["rules", "shogun"], ["rules", "search", "tie castles"]):
        for line in runner.invoke(app, args).stdout.splitlines():
            assert len(line) <= width or " " not in line.strip(), line


def test_search_output() -> None:
    result = runner.invoke(
        app, ["rules", "search", "souvenier sets", "--game", "tokaido", "-n", "2"]
    )
    assert result.exit_code == 0
    assert result.stdout == (
        'Searching for "souvenir" (you typed "souvenier").\n'
        "1. Village: buying souvenirs (tokaido village)\n"
        "   …Group your souvenirs into sets holding at most one card of each type.…\n"
        "2. Encounters (tokaido encounters)\n"
        "   …Shokunin (merchant, 2 cards): take the top souvenir; it scores 1, 3, 5 or 7\n"
        "   as your sets allow.…\n"
        "\n"
        "Read one: companion rules tokaido village\n"
    )


def test_search_output_names_what_is_missing() -> None:
    result = runner.invoke(app, ["rules", "search", "zanzibar", "--game", "shogun"])
    assert result.exit_code == 0
    assert result.stdout == (
        'No topic matches "zanzibar".\n'
        "Try other words, or list the topics: companion rules shogun\n"
    )


def test_json_shapes() -> None:
    listed = json.loads(runner.invoke(app, ["rules", "kamakura", "--json"]).stdout)
    assert set(listed) == {"game", "title", "topics"}
    assert listed["topics"][0] == {
        "id": "components",
        "title": "What is in the box",
        "phase": "overview",
    }
    shown = json.loads(runner.invoke(app, ["rules", "shogun", "tie-breaks", "--json"]).stdout)
    assert set(shown) == {
        "game",
        "id",
        "title",
        "phase",
        "body",
        "see_also",
        "source",
        "categories",
    }
    found = json.loads(
        runner.invoke(
            app, ["rules", "search", "who starts the next round in shimoda", "--json"]
        ).stdout
    )
    assert (found["game"], found["terms"]) == ("shimoda", ["starts", "next", "round"])
    assert found["results"][0]["topic"] == "round-end"
    assert "**start**" in found["results"][0]["snippet"]
    assert set(found["results"][0]) == {"game", "topic", "title", "score", "snippet"}


@pytest.mark.parametrize(
    ("args", "code", "error"),
    [
        (["rules", "chess"], 2, "Error: unknown game 'chess'"),
        (
            ["rules", "tokaido", "innz"],
            1,
            "Error: no topic 'innz' for tokaido (did you mean inns?)",
        ),
        (["rules", "search"], 2, "Error: what should I search for?"),
    ],
)
def test_errors(args: list[str], code: int, error: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == code
    assert result.stderr.startswith(error)


def test_a_huge_query_is_cut_to_a_question(index: Path) -> None:
    from companion.rules.search import MAX_QUERY, MAX_TERMS

    words = " ".join(f"zq{k}x" for k in range(50_000))
    results = search(f"castles {words}", index=index)
    assert len(results.query) == MAX_QUERY
    assert len(results.terms) <= MAX_TERMS
    assert results.hits[0].game == "shogun"
    shown = runner.invoke(app, ["rules", "search", "y" * 5000]).stdout
    assert max(len(line) for line in shown.splitlines()) <= 80
