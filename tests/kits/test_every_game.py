"""One check over every registered game and every face (open_spiel's conformance test).

For each game of the registry (the five of the box and Orchard, the test suite's
own game): its kit, set-up at every player count, the round tracker's rule, the
score pad's one description against the scorer's bounds, the terminal pad and
the web pad drawn from it with the same rows, a rules topic for each scoring
category, a scripted play-along to a saved result, the page, the history and the
exports. A game that lacks something fails with the name of what it lacks.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.kits import KITS, Kit, PadOptions
from companion.kits.pad import PadRow, PadSpec, key
from companion.kits.rounds import COUNT, RoundState, Step
from scorers import GAME_IDS, SCORERS, ScoreFileError
from tests.support.play_helpers import run, saved
from tests.support.play_scripts import scripts_for

GAMES = list(GAME_IDS)


def counts(game: str) -> tuple[int, ...]:
    return SCORERS[game].info.player_counts


def columns(game: str, players: int) -> int:
    """Columns of the pad: two sides in a team game."""
    return 2 if players in SCORERS[game].info.team_counts else players


def spec_of(game: str, players: int) -> PadSpec:
    n = columns(game, players)
    names = tuple(f"P{k + 1}" for k in range(n))
    return KITS[game].pad(PadOptions(n, names, players in SCORERS[game].info.team_counts))


def test_the_test_suite_game_is_registered() -> None:
    assert GAMES[-1] == "orchard"
    assert GAMES[:5] == ["shimoda", "shibuya", "tokaido", "kamakura", "shogun"]


@pytest.mark.parametrize("game", GAMES)
def test_the_kit_is_the_games(game: str) -> None:
    kit = KITS[game]
    assert isinstance(kit, Kit)
    assert kit.game == game
    module = kit.flows()
    assert callable(module.flow) and callable(module.score_only)


@pytest.mark.parametrize("game", GAMES)
def test_set_up_at_every_player_count(game: str) -> None:
    from companion.play.setup import checklist, describe_draws, draws, setup_text

    for players in counts(game):
        steps = checklist(game, players)
        assert steps and all(isinstance(s, str) and s for s in steps)
        for index in (*KITS[game].offers, *KITS[game].later):
            assert 0 <= index < len(steps), f"{game}: step {index + 1} of {len(steps)}"
        drawn = draws(game, players, 4242)
        assert drawn == draws(game, players, 4242)  # a seed repeats its draws
        json.dumps(drawn)
        lines = describe_draws(game, drawn)
        assert all(isinstance(line, str) for line in lines)
        assert setup_text(game, players, steps, 4242, drawn).startswith(f"Set-up for {game}")


@pytest.mark.parametrize("game", GAMES)
def test_the_round_tracker_rule(game: str) -> None:
    rounds = KITS[game].rounds
    assert rounds.text(1)
    players = counts(game)[-1]
    names = [f"P{k + 1}" for k in range(players)]
    for round_number in range(1, (rounds.last or 3) + 1):
        values: list[Any] = (
            [0] * players
            if rounds.entry == COUNT
            else [c[1] for c in rounds.choices[1:2]] * players
        )
        option = rounds.options[0][1] if rounds.options else ""
        step = rounds.apply(RoundState(names, names[:2], round_number, 0, values, option, 77))
        assert isinstance(step, Step) and step.message
        assert 1 <= step.round <= (rounds.last or round_number + 1)
        assert 0 <= step.start < players


def number_rows(spec: PadSpec) -> list[PadRow]:
    return [r for r in spec.rows if r.kind == "number"]


@pytest.mark.parametrize("game", GAMES)
def test_pad_rows_are_unique_and_their_bounds_are_the_scorers(game: str) -> None:
    info = SCORERS[game].info
    for players in counts(game):
        spec = spec_of(game, players)
        ids = [r.id for r in spec.rows]
        assert len(ids) == len(set(ids)), f"{game}: a row id twice"
        assert len({r.label for r in spec.rows}) == len(ids), f"{game}: a label twice"
        for row in number_rows(spec):
            assert (row.low, row.high) == info.bounds.get(row.field), f"{game}: {row.id}"
        for row in spec.rows:
            for part in row.parts:
                if part.kind == "number" and part.high is not None:
                    assert (part.low, part.high) == part_bound(info.bounds, row, part.key), (
                        f"{game}: {row.id} {part.key} is not bounded as the scorer checks it"
                    )


def part_bound(bounds: Any, row: PadRow, key: str) -> tuple[int, int] | None:
    """The scorer's bound of a part: by its path in the row's field, or its own name."""
    names = [f"{row.field}.{key}".strip("."), key.rpartition(".")[0], key.rpartition(".")[2]]
    names.append(row.field)
    return next((bounds[n] for n in names if n in bounds), None)


@pytest.mark.parametrize("game", GAMES)
def test_the_scorer_checks_each_number_row_by_its_bounds(game: str) -> None:
    """A row's most value passes the scorer at its path, one more is refused there."""
    players = counts(game)[0]
    spec = spec_of(game, players)
    n = columns(game, players)
    names = [f"P{k + 1}" for k in range(n)]
    from companion.kits.pad import document

    for row in number_rows(spec):
        assert row.high is not None
        path = row.path(0)
        for value, refused in ((row.high, False), (row.high + 1, True)):
            doc = document(spec, game, names, {key(row.id, None if row.shared else 0): value})
            try:
                SCORERS[game].score_json(doc)
                problems: list[str] = []
            except ScoreFileError as error:
                problems = [p.message for p in error.problems if p.path == path]
            assert bool(problems) == refused, f"{game}: {path} = {value}: {problems}"


@pytest.mark.parametrize("game", GAMES)
def test_terminal_and_web_pads_show_the_same_rows(game: str) -> None:
    from companion.play.score_pad import Pad
    from companion.widgets.score_form import ScoreForm

    for players in counts(game):
        spec = spec_of(game, players)
        n = columns(game, players)
        names = [f"P{k + 1}" for k in range(n)]
        terminal = Pad(game, names, spec)
        player_rows, shared = terminal.numbered()
        form = ScoreForm(game, n, teams=players in SCORERS[game].info.team_counts)
        # The score file's rows; besides them the web pad shows only the kit's line entry.
        web_rows = [label for label, cell in form.rows[0] if cell.path in form.keys]
        web_shared = [label for label, _ in form.shared]
        assert web_rows == [r.label for r in player_rows]
        assert web_shared == [r.label for r in shared]
        paths = [cell.path for _, cell in form.rows[0] if cell.path in form.keys]
        assert paths == [r.path(0) for r in player_rows]
        line = form.kit.line_entry
        only_web = [label for label, cell in form.rows[0] if cell.path not in form.keys]
        assert [label for label in only_web if label] == ([line.label] if line else [])


@pytest.mark.parametrize("game", GAMES)
def test_a_rules_topic_for_each_scoring_category(game: str) -> None:
    from companion.rules import load_topics

    topics = load_topics(game)
    covered = {c for t in topics for c in t.categories}
    missing = [c for c in SCORERS[game].info.categories if c not in covered]
    assert not missing, f"{game}: no rules topic for {missing}"
    ids = {t.id for t in topics}
    for players in counts(game):
        for row in spec_of(game, players).rows:
            assert row.topic is None or row.topic in ids, f"{game}: no topic {row.topic}"


@pytest.mark.parametrize("game", GAMES)
def test_the_page_opens(game: str) -> None:
    from companion.widgets.page import GamePage

    page = GamePage(game)
    assert page.form.game == game
    assert page.tracker.round_text() == KITS[game].rounds.text(1)


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_a_scripted_game_is_played_along_saved_listed_and_exported(
    game: str, db_path: Path, tmp_path: Path
) -> None:
    script = scripts_for(game)[0]
    result = run(script.args, script.keys())
    assert result.exit_code == 0, result.output
    [played] = saved(db_path)
    assert played["game"] == game
    assert played["result"]["winners"] == script.winners
    listed = run(["history", "list", "--json"], "")
    assert listed.exit_code == 0, listed.output
    assert [p["game"] for p in json.loads(listed.stdout)] == [game]
    for kind in ("json", "bgstats", "csv"):
        out = tmp_path / f"export.{kind}"
        exported = run(["history", "export", "--format", kind, "--out", str(out)], "")
        assert exported.exit_code == 0, exported.output
        assert out.stat().st_size > 0
