"""Hostile score files and names, fuzzed with a time budget.

For every generated file ``companion score`` exits 0 or 2, never with a
traceback; a refused file leaves the history exactly as it was; after every
accepted save every command that reads the history still works; the problems
fit on a screen and carry no control character; reading and scoring stay
within a memory bound.

The budget is ``COMPANION_FUZZ_SECONDS`` (default 6) for the files, a third of
it for the names and a quarter for memory: once
spent, the remaining examples pass without running, so a slow machine still
finishes on time and a long run (say ``COMPANION_FUZZ_SECONDS=600``) digs deeper.
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from companion.bounded_json import MAX_SCORE_FILE_BYTES
from companion.cli.app import app
from companion.history.rescoring import score_text
from scorers import SCORERS, ScoreFileError
from scorers.names import clean_name, name_key, name_problem
from tests.support.score_examples import EXAMPLES

BUDGET = float(os.environ.get("COMPANION_FUZZ_SECONDS", "6"))
MEMORY_LIMIT = 32_000_000
"""Bytes of Python memory that reading and scoring one file may take at its peak."""
FUZZ = settings(
    max_examples=max(150, int(BUDGET * 30)),
    deadline=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.function_scoped_fixture,
        HealthCheck.large_base_example,
    ],
)
runner = CliRunner()
pytestmark = pytest.mark.timeout(int(BUDGET * 2 + 120))

HOSTILE_TEXT = st.text(
    alphabet=st.sampled_from(
        [
            *"Aki ßZoë太郎[]/:\\=+-@\"'{}",
            *("\x00", "\x1b", "\t", "\n", "\r", "\u200b", "\u202e", "\u0308", "\ud800"),
            "\U0001f600",
        ]
    ),
    max_size=60,
) | st.sampled_from(["Dad [/]", "x[/b]", "[red]Aki", ":smile:", "=1+1", "x" * 41, "x" * 5000])
HOSTILE_NUMBERS = [0, -1, 7, 2**31, 2**53 + 1, 2**63 - 1, 2**63, 2**64, -(2**63) - 1, 10**100]
HOSTILE_SCALARS = [1.5, 1e308, None, True, False, "", " ", "3", "--5", "²", "x" * 5000, "Dad [/]"]
HOSTILE_LEAF = st.sampled_from([*HOSTILE_NUMBERS, *HOSTILE_SCALARS]) | HOSTILE_TEXT
HOSTILE = st.recursive(
    HOSTILE_LEAF,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(HOSTILE_TEXT, inner, max_size=2),
    max_leaves=5,
)


class Budget:
    """Seconds left for one fuzz test; ``spent`` turns true once they are used up."""

    def __init__(self, seconds: float) -> None:
        self.end = time.monotonic() + seconds
        self.runs = 0

    @property
    def spent(self) -> bool:
        return time.monotonic() > self.end


def paths(value: Any, keys: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a JSON document (as key paths), the root included."""
    found = [keys]
    if isinstance(value, dict):
        for key, child in value.items():
            found.extend(paths(child, (*keys, key)))
    elif isinstance(value, list):
        for k, child in enumerate(value):
            found.extend(paths(child, (*keys, k)))
    return found


def replaced(document: Any, keys: tuple[Any, ...], new: Any) -> Any:
    if not keys:
        return new
    target = document
    for key in keys[:-1]:
        target = target[key]
    target[keys[-1]] = new
    return document


TEXT_MUTATIONS: list[Callable[[str], str]] = [
    lambda text: text,
    lambda text: text[: len(text) // 2],
    lambda text: text.replace('"name": ', '"name": "dup", "name": ', 1),
    lambda text: "[" * 5000 + text + "]" * 5000,
    lambda text: text.replace("{", '{"x": 1, "x": 2, ', 3),
    lambda text: text + " " * (MAX_SCORE_FILE_BYTES - len(text) * 4 + 1),
    lambda text: "\ufeff" + text,
    lambda text: text.replace('"', "'", 1),
]


@st.composite
def hostile_files(draw: Any) -> tuple[str, bytes]:
    """A game and the bytes of a score file for it: a valid one damaged a little.

    The valid files are fixed (generating them is slow; the conformance test
    does that); the damage is what is fuzzed here.
    """
    example = draw(st.sampled_from(sorted(EXAMPLES)))
    game, document = example.split()[0], copy.deepcopy(EXAMPLES[example])
    for _ in range(draw(st.integers(1, 3))):
        keys = draw(st.sampled_from(paths(document)))
        document = replaced(document, keys, draw(HOSTILE))
    text = json.dumps(document, ensure_ascii=draw(st.booleans()))
    text = draw(st.sampled_from(TEXT_MUTATIONS))(text)
    data = text.encode("utf-8", "surrogatepass")
    if draw(st.integers(0, 20)) == 0:
        data = data[:10] + b"\xff\xfe" + data[10:]  # not UTF-8
    return game, data


def history_state(db: Path) -> dict[str, str]:
    if not db.parent.exists():
        return {}
    return {
        f.name: hashlib.sha256(f.read_bytes()).hexdigest()
        for f in db.parent.iterdir()
        if f.name.startswith(db.name)
    }


def assert_clean_output(text: str) -> None:
    """Output for a terminal: no control characters but line breaks, lines of sane length."""
    assert all(ch == "\n" or ch.isprintable() for ch in text), repr(text[:300])


READERS = [
    ["history", "list"],
    ["history", "stats"],
    ["history", "export", "--format", "json"],
    ["history", "export", "--format", "csv"],
    ["history", "check"],
]


def every_reader_works(db: Path, play_id: int) -> None:
    for args in [*READERS, ["history", "show", str(play_id)]]:
        result = runner.invoke(app, [*args, "--db", str(db)])
        assert result.exception is None or isinstance(result.exception, SystemExit), (
            args,
            result.exception,
        )
        assert result.exit_code == 0, (args, result.output)
        if "--json" not in args and args[1] != "export":
            assert_clean_output(result.stdout)


@pytest.fixture(scope="module")
def fuzz_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


def score_file(folder: Path, game: str, data: bytes) -> tuple[Any, Path]:
    path = folder / "game.json"
    path.write_bytes(data)
    return runner.invoke(
        app, ["score", game, "--input", str(path), "--db", str(folder / "h.sqlite3")]
    ), path


@pytest.fixture(scope="module")
def budget_files() -> Budget:
    return Budget(BUDGET)


@pytest.mark.fuzz
@FUZZ
@given(case=hostile_files())
def test_hostile_score_files(case: tuple[str, bytes], fuzz_dir: Path, budget_files: Budget) -> None:
    if budget_files.spent:
        return
    budget_files.runs += 1
    game, data = case
    db = fuzz_dir / "h.sqlite3"
    before = history_state(db)
    result, _ = score_file(fuzz_dir, game, data)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code in (0, 2), result.output
    if result.exit_code == 2:
        assert history_state(db) == before, "a refused file changed the history"
        assert result.stderr.startswith("Error: ")
        lines = result.stderr.splitlines()
        assert len(lines) <= 80 and all(len(line) <= 400 for line in lines), lines[:5]
        assert_clean_output(result.stderr)
        return
    assert_clean_output(result.stdout)
    play_id = int(result.stdout.rstrip().rsplit("#", 1)[1].rstrip("."))
    every_reader_works(db, play_id)


@pytest.fixture
def files_fuzzed(fuzz_dir: Path, budget_files: Budget) -> None:
    """The file fuzz has had its run: run it here if it has not run yet (this test alone)."""
    if budget_files.runs == 0:
        test_hostile_score_files(fuzz_dir=fuzz_dir, budget_files=budget_files)


@pytest.mark.fuzz
@pytest.mark.usefixtures("files_fuzzed")
def test_the_file_fuzz_ran(budget_files: Budget) -> None:
    """The budget was not spent before anything ran (the fuzz test ran first)."""
    assert budget_files.runs > 0
    print(f"fuzzed {budget_files.runs} score files")


@pytest.fixture(scope="module")
def budget_names() -> Budget:
    return Budget(BUDGET / 3)


@pytest.mark.fuzz
@FUZZ
@given(first=HOSTILE_TEXT, second=HOSTILE_TEXT)
def test_hostile_names(first: str, second: str, fuzz_dir: Path, budget_names: Budget) -> None:
    """A name is accepted exactly when the name rule accepts it, and is shown as it is."""
    if budget_names.spent:
        return
    budget_names.runs += 1
    folder = fuzz_dir / "names"
    folder.mkdir(exist_ok=True)
    db = folder / "h.sqlite3"
    players = [
        {
            "name": name,
            "journey": 50 - k,
            "temple": 0,
            "meal_cost": 0,
            "souvenirs": 0,
            "hot_springs": 0,
            "encounters": 0,
            "panorama_achievements": 0,
        }
        for k, name in enumerate((first, second))
    ]
    data = json.dumps({"players": players}).encode()
    before = history_state(db)
    result, _ = score_file(folder, "tokaido", data)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    valid = name_problem(first) is None and name_problem(second) is None
    valid = valid and name_key(clean_name(first)) != name_key(clean_name(second))
    assert result.exit_code == (0 if valid else 2), result.output
    if not valid:
        assert history_state(db) == before
        assert_clean_output(result.stderr)
        return
    # The game just saved: the highest number (games saved in one second are listed by
    # uuid, the order every table of a club shares, not by number).
    listed = runner.invoke(app, ["history", "list", "--json", "--db", str(db)])
    play = max(json.loads(listed.stdout), key=lambda p: p["id"])
    assert [p["name"] for p in play["players"]] == [clean_name(first), clean_name(second)]
    shown = runner.invoke(app, ["history", "show", str(play["id"]), "--db", str(db)])
    assert shown.exit_code == 0
    assert_clean_output(shown.stdout)
    assert f"Winner: {clean_name(first)}." in shown.stdout


@pytest.fixture
def names_fuzzed(fuzz_dir: Path, budget_names: Budget) -> None:
    """The name fuzz has had its run: run it here if it has not run yet (this test alone)."""
    if budget_names.runs == 0:
        test_hostile_names(fuzz_dir=fuzz_dir, budget_names=budget_names)


@pytest.mark.fuzz
@pytest.mark.usefixtures("names_fuzzed")
def test_the_name_fuzz_ran(budget_names: Budget) -> None:
    assert budget_names.runs > 0


@pytest.fixture(scope="module")
def budget_memory() -> Budget:
    return Budget(BUDGET / 4)


BIG = [
    '{"players": [' + ",".join(["{}"] * 20_000) + "]}",
    '{"players": [{"name": "' + "x" * 60_000 + '"}]}',
    '{"players": [' + ",".join(['{"a": 1, "a": 2}'] * 3_000) + "]}",
    "[" * 30_000 + "]" * 30_000,
    '{"players": [{"name": "A", "journey": ' + "9" * 4_000 + "}]}",
    '{"players": [' + ",".join(['"\\ud800"'] * 6_000) + "]}",
]


@pytest.mark.fuzz
@settings(FUZZ, max_examples=max(30, int(BUDGET * 5)))
@given(
    game=st.sampled_from(sorted(SCORERS)),
    text=st.sampled_from(BIG) | st.builds(lambda v: json.dumps(v), HOSTILE),
)
def test_reading_and_scoring_stay_within_a_memory_bound(
    game: str, text: str, budget_memory: Budget
) -> None:
    if budget_memory.spent:
        return
    budget_memory.runs += 1
    tracemalloc.start()
    try:
        try:
            score_text(SCORERS[game], text)
        except ScoreFileError as error:
            assert 1 <= len(error.problems) <= 80
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < MEMORY_LIMIT, peak


@pytest.fixture
def memory_fuzzed(budget_memory: Budget) -> None:
    """The memory fuzz has had its run: run it here if it has not run yet (this test alone)."""
    if budget_memory.runs == 0:
        test_reading_and_scoring_stay_within_a_memory_bound(budget_memory=budget_memory)


@pytest.mark.fuzz
@pytest.mark.usefixtures("memory_fuzzed")
def test_the_memory_fuzz_ran(budget_memory: Budget) -> None:
    assert budget_memory.runs > 0


@pytest.mark.parametrize("source", ["/dev/zero", "/dev/urandom"])
def test_an_endless_input_is_refused_without_reading_it_all(source: str, tmp_path: Path) -> None:
    result = runner.invoke(app, ["score", "tokaido", "--input", source])
    # Both hold a NUL byte in their first 64 kB (random bytes do, all but surely): no JSON
    # text has one, so reading stops there. An endless text is cut at the size limit
    # (test_bounded_json.py).
    assert (result.exit_code, result.stderr) == (
        2,
        f"Error: {source} is not a text file (it holds NUL bytes); nothing was saved\n",
    )
    assert not (tmp_path / "history.sqlite3").exists()
