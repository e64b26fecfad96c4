"""The project's own documentation: the README, docs/ (score files and their examples), links."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "score-files.md"
README = ROOT / "README.md"
EXAMPLES = ROOT / "examples"
RULEBOOKS = ROOT.parent / "shared" / "rulebooks"
TEXT = DOC.read_text(encoding="utf-8")

SHOWN = re.compile(
    r"Example: \[`(examples/[\w-]+\.json)`\]\(\.\./\1\)\n\n```json\n(.*?)\n```", re.S
)
RESULT = re.compile(
    r"Its result \(`companion score (\w+) --input (examples/[\w-]+\.json) --json --no-save`\):"
    r"\n\n```json\n(.*?)\n```",
    re.S,
)
SHOWN_FILES = {name: body for name, body in SHOWN.findall(TEXT)}
RESULTS = {name: (game, json.loads(body)) for game, name, body in RESULT.findall(TEXT)}

# Every key each game's score file accepts (a file's keys, then a player's, then nested ones).
FIELDS = {
    "shimoda": [
        "game", "players", "name", "street", "merchant", "merchant_points", "card",
        "tourists", "chairs", "color", "scoring", "type", "points", "range", "colors",
        "exactly_two", "any", "pair", "all_colors", "three_colors", "victory_markers",
    ],
    "shibuya": ["game", "variant", "players", "name", "goals", "members", "no_construction"],
    "tokaido": [
        "game", "mode", "players", "name", "traveler", "journey", "temple", "meal_cost",
        "souvenirs", "hot_springs", "encounters", "panorama_achievements", "panoramas",
        "meals", "paddy", "mountain", "sea", "small_object", "clothing", "art", "food",
        "shokunin", "annaibito", "samurai", "kuge", "miko", "recount",
    ],
    "kamakura": [
        "game", "advanced", "tours", "players", "card", "kind", "points", "circles", "color",
        "claimed_by", "name", "track", "site_coins", "eat_coins", "pieces", "taxi_tickets",
        "circle", "value", "collection", "genre", "big_eater", "rendezvous",
    ],
    "shogun": [
        "game", "year", "board", "players", "name", "score_before", "war_chests", "regions",
        "brown", "yellow", "red", "purple", "green", "provinces", "castles", "temples",
        "theaters",
    ],
}  # fmt: skip
TITLES = {
    "shimoda": "Shimoda: Perry Road",
    "shibuya": "Shibuya",
    "tokaido": "Tokaido",
    "kamakura": "Kamakura Collection",
    "shogun": "Shogun",
}


def section(game: str) -> str:
    """The part of the doc about one game."""
    start = TEXT.index(f"## {TITLES[game]} (`{game}`)")
    following = TEXT.find("\n## ", start + 1)
    return TEXT[start : following if following != -1 else len(TEXT)]


def keys_of(value: object) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for item in value.values() for k in keys_of(item)}
    if isinstance(value, list):
        return {k for item in value for k in keys_of(item)}
    return set()


def test_every_example_is_shown_whole_with_its_result() -> None:
    files = {f"examples/{path.name}" for path in EXAMPLES.glob("*.json")}
    assert set(SHOWN_FILES) == files
    assert set(RESULTS) == files
    for name, body in SHOWN_FILES.items():
        assert body == (ROOT / name).read_text(encoding="utf-8").rstrip("\n"), name


def test_every_game_has_an_example() -> None:
    games = {json.loads((ROOT / name).read_text())["game"] for name in SHOWN_FILES}
    assert games == set(FIELDS)


@pytest.mark.parametrize("name", sorted(RESULTS))
def test_the_cli_gives_the_result_the_doc_prints(name: str) -> None:
    game, printed = RESULTS[name]
    run = subprocess.run(
        [sys.executable, "-m", "companion", "score", game, "--input", name, "--json", "--no-save"],
        cwd=ROOT,
        env=os.environ,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == printed


@pytest.mark.parametrize("game", sorted(FIELDS))
def test_the_doc_names_every_field_and_category(game: str) -> None:
    from scorers import SCORERS

    text = section(game)
    assert "`game`" in TEXT[: TEXT.index("## The result")]  # every game's, documented once
    for field in (*FIELDS[game][1:], *SCORERS[game].info.categories):
        assert re.search(rf"`(\w+\.)?{field}`", text), f"{game}: `{field}` is not documented"


@pytest.mark.parametrize("game", sorted(FIELDS))
def test_the_examples_use_every_field(game: str) -> None:
    used: set[str] = set()
    for name in SHOWN_FILES:
        data = json.loads((ROOT / name).read_text())
        if data["game"] == game:
            used |= keys_of(data)
            used |= {v for v in json.dumps(data).split('"') if v in FIELDS[game]}
    assert set(FIELDS[game]) <= used, set(FIELDS[game]) - used


DOCS = sorted((ROOT / "docs").glob("*.md"))
PAGES = [README, ROOT / "CHANGELOG.md", *DOCS]


def anchors_of(path: Path) -> set[str]:
    """The anchors GitHub makes for a Markdown file's headings."""
    headings = re.findall(r"^#+ (.+)$", path.read_text(encoding="utf-8"), re.M)
    return {re.sub(r"[^\w\- ]", "", h.lower()).replace(" ", "-") for h in headings}


def test_the_readme_links_every_doc() -> None:
    readme = README.read_text(encoding="utf-8")
    for doc in DOCS:
        assert f"(docs/{doc.name})" in readme, f"the README does not link docs/{doc.name}"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_links_stay_in_the_repository_and_land(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    assert "shared/" not in text, f"{page.name} points outside the repository"
    for target, anchor in re.findall(r"\]\(([^)#]*)(?:#([^)]*))?\)", text):
        if "://" in target:
            continue
        resolved = (page.parent / target).resolve() if target else page
        assert resolved.is_relative_to(ROOT), f"{page.name} links {target}"
        assert resolved.exists(), f"{page.name} links {target}, which does not exist"
        if anchor:
            assert anchor in anchors_of(resolved), f"{page.name} links {target}#{anchor}"


def test_the_readme_is_short_with_contents_and_a_section_per_use() -> None:
    readme = README.read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 400
    start = readme.index("## Contents")
    listed = re.findall(r"\(#([^)]+)\)", readme[start : readme.index("\n## ", start + 1)])
    sections = {
        "play-along", "score-a-file", "rules", "the-page-and-table-mode", "history",
        "import-and-export", "backups", "where-the-data-lives", "uninstall",
    }  # fmt: skip
    assert sections <= set(listed)
    assert set(listed) <= anchors_of(README)
    for image in ("docs/score-pad.svg", "docs/page.png"):
        assert f"]({image})" in readme
        assert (ROOT / image).stat().st_size > 10_000


def test_the_path_hint_follows_the_two_commands() -> None:
    readme = README.read_text(encoding="utf-8")
    commands = readme.index("make test    #")
    contents = readme.index("## Contents")
    assert commands < readme.index("source .venv/bin/activate") < contents
    for install in ("pipx install '.[notebooks]'", "uv tool install '.[notebooks]'"):
        assert install in readme[commands:contents]


def test_the_doc_anchors_exist() -> None:
    anchors = anchors_of(DOC)
    for anchor in re.findall(r"\]\(#([^)]+)\)", TEXT):
        assert anchor in anchors, anchor


@pytest.mark.skipif(
    not RULEBOOKS.is_dir(),
    reason="needs the publishers' rulebooks, which are not part of the companion "
    "(the maintainers' checks run it)",
)
def test_the_doc_is_in_our_own_words() -> None:
    def words(text: str) -> list[str]:
        return re.findall(r"[a-z0-9']+", text.lower())

    grams: set[tuple[str, ...]] = set()
    for book in RULEBOOKS.glob("*.txt"):
        w = words(book.read_text(encoding="utf-8"))
        grams.update(tuple(w[i : i + 8]) for i in range(len(w) - 7))
    w = words(TEXT)
    copied = [" ".join(w[i : i + 8]) for i in range(len(w) - 7) if tuple(w[i : i + 8]) in grams]
    assert copied == []


def _row(section: str, field: str) -> str:
    """The doc's table row for ``field`` in the part of the page about ``section``."""
    start = TEXT.index(f"(`{section}`)\n")
    end = TEXT.find("\n## ", start + 1)
    rows = [
        line
        for line in TEXT[start : end if end > 0 else None].splitlines()
        if line.startswith(f"| `{field}` |")
    ]
    assert rows, f"no row for {field} under {section}"
    return "\n".join(rows)


@pytest.mark.parametrize(
    ("section", "field", "high"),
    [
        ("shimoda", "merchant_points", "scorers.shimoda.MAX_MERCHANT_POINTS"),
        ("shimoda", "chairs", "scorers.shimoda.MAX_CHAIRS"),
        ("shimoda", "scoring.points", "scorers.shimoda.MAX_CARD_POINTS"),
        ("tokaido", "journey", "scorers.tokaido.MAX_JOURNEY"),
        ("tokaido", "temple", "scorers.tokaido.COINS"),
        ("tokaido", "meal_cost", "scorers.tokaido.FINAL_LIMITS.meal_cost"),
        ("tokaido", "souvenirs", "scorers.tokaido.FINAL_LIMITS.souvenirs"),
        ("tokaido", "hot_springs", "scorers.tokaido.FINAL_LIMITS.hot_springs"),
        ("tokaido", "encounters", "scorers.tokaido.FINAL_LIMITS.encounters"),
        ("kamakura", "track", "scorers.kamakura.MAX_TRACK"),
        ("kamakura", "points", "scorers.kamakura.MAX_TOUR_POINTS"),
        ("kamakura", "eat_coins", "scorers.kamakura.MAX_COIN_VALUE"),
        ("kamakura", "taxi_tickets", "scorers.kamakura.MAX_COIN_VALUE"),
        ("kamakura", "site_coins", "scorers.kamakura.MAX_COIN_VALUE"),
        ("shogun", "score_before", "scorers.shogun.MAX_SCORE_BEFORE"),
        ("shogun", "war_chests", "scorers.shogun.MAX_WAR_CHESTS"),
    ],
)
def test_the_doc_gives_the_upper_bound_the_scorer_enforces(
    section: str, field: str, high: str
) -> None:
    import importlib

    module, _, name = high.rpartition(".")
    if module.endswith("FINAL_LIMITS"):
        module, _, table = module.rpartition(".")
        value = getattr(importlib.import_module(module), table)[name]
    else:
        value = getattr(importlib.import_module(module), name)
    assert f"0 to {value}" in _row(section, field)


def test_skip_reasons_speak_of_nothing_a_user_does_not_have() -> None:
    """A skipped test says what it needs, never a folder outside the repository."""
    for module in ROOT.glob("tests/**/*.py"):
        text = module.read_text(encoding="utf-8")
        for reason in re.findall(
            r"(?:reason=|pytest\.skip\(|_MISSING = \(\n\s*)(f?\"[^\"]*\")", text
        ):
            # A path constant (RULEBOOKS, ...) in a reason names a folder of this machine.
            assert not re.search(r"\{[A-Z_]+\}", reason), f"{module.name}: {reason}"
            assert "shared" not in reason, f"{module.name}: {reason}"
