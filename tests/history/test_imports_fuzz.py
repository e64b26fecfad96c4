"""Fuzzing both import formats: every file is imported or refused with problems,
never a traceback; a refused file changes nothing; after every accepted one,
every command still works.

Each test tries ``COMPANION_FUZZ_IMPORT_EXAMPLES`` files (default 40, a few
seconds); set it to a few thousand for a long run.
"""

from __future__ import annotations

import copy
import json
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from companion.cli.app import app
from tests.support.import_files import BACKUP, ours

pytestmark = pytest.mark.fuzz
SETTINGS = settings(
    max_examples=int(os.environ.get("COMPANION_FUZZ_IMPORT_EXAMPLES", "40")),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False)
    | st.text(alphabet=st.characters(codec="utf-8"), max_size=12)
    | st.sampled_from(["", "58+10", "--5", "²", "2026-02-30", "[/b]", "Aki", "1e9", " "]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=6,
)


def paths(value: object, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a JSON document."""
    found = [prefix]
    if isinstance(value, dict):
        for key, child in value.items():
            found += paths(child, (*prefix, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            found += paths(child, (*prefix, index))
    return found


def mutated(base: dict[str, Any], draw: Any) -> dict[str, Any]:
    document = copy.deepcopy(base)
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        places = [p for p in paths(document) if p]
        place = draw(st.sampled_from(places))
        parent: Any = document
        for key in place[:-1]:
            parent = parent[key]
        if draw(st.booleans()) and isinstance(parent, dict):
            del parent[place[-1]]
        else:
            parent[place[-1]] = draw(VALUES)
    return document


def run(args: list[str]) -> Any:
    return CliRunner().invoke(app, args)


def check(tmp_path: Path, document: dict[str, Any]) -> None:
    db = tmp_path / "fuzz.sqlite3"
    source = tmp_path / "import.json"
    source.write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8", errors="replace")
    before = db.read_bytes() if db.exists() else None
    result = run(["history", "import", str(source), "--db", str(db)])
    assert result.exit_code in (0, 2), (result.output, result.exception)
    assert not isinstance(result.exception, Exception) or isinstance(
        result.exception, SystemExit
    ), result.exception
    if result.exit_code == 2:
        assert result.output.startswith("Error: ")
        if before is not None:
            assert db.read_bytes() == before
        return
    for args in (
        ["history", "list", "--limit", "0"],
        ["history", "list", "--json"],
        ["history", "stats"],
        ["history", "stats", "--json"],
        *(["history", "export", "--format", fmt] for fmt in ("csv", "json", "bgstats", "bgg-xml")),
    ):
        outcome = run([*args, "--db", str(db)])
        assert outcome.exit_code == 0, (args, outcome.output, outcome.exception)
    listed = json.loads(run(["history", "list", "--json", "--db", str(db)]).output)
    for play in listed[-3:]:
        outcome = run(["history", "show", str(play["id"]), "--db", str(db)])
        assert outcome.exit_code == 0, (outcome.output, outcome.exception)


@SETTINGS
@given(data=st.data())
def test_fuzzed_bgstats_backups(tmp_path: Path, data: st.DataObject) -> None:
    base = json.loads(BACKUP.read_text())
    # One play carries the note our export gives an interim scoring.
    base["plays"][1]["metaData"] = '{"companionStatus":"interim","companionIgnored":false}'
    check(tmp_path, mutated(base, data.draw))


@SETTINGS
@given(data=st.data())
def test_fuzzed_json_exports(tmp_path: Path, data: st.DataObject) -> None:
    base = ours()
    base["plays"][0]["status"] = "interim"
    base["players"] = [
        {"name": "Aki", "uuid": "0B6F0D7C-1111-4A8E-9A55-000000000001"},
        {
            "name": "Anonymous player",
            "uuid": "0B6F0D7C-1111-4A8E-9A55-000000000005",
            "anonymous": True,
        },
    ]
    check(tmp_path, mutated(base, data.draw))
