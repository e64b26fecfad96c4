"""The rules search answers the evaluation set's questions (top-3 >= 95 %, top-1 >= 80 %)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from companion.rules import GAME_FOLDERS, RULES_DIR, folder_of, load_topics
from companion.rules.evaluation import (
    TOP1_TARGET,
    TOP3_TARGET,
    Outcome,
    Question,
    Score,
    evaluate,
    load_questions,
)

EVAL_SET = Path(__file__).resolve().parents[1] / "files" / "rules-eval.toml"
QUESTIONS = load_questions(EVAL_SET)
SHIPPED = [game for game in GAME_FOLDERS if folder_of(game).parent == RULES_DIR]
"""The games whose rules the package ships (the set judges our search over our own text)."""


def test_the_set_has_at_least_ten_questions_per_game() -> None:
    per_game = Counter(q.game for q in QUESTIONS)
    assert len(QUESTIONS) >= 50
    assert set(per_game) == set(SHIPPED)
    assert min(per_game.values()) >= 10


def test_every_question_names_a_real_topic_and_is_asked_once() -> None:
    topics = {(t.game, t.id) for t in load_topics()}
    assert {(q.game, q.topic) for q in QUESTIONS} <= topics
    assert len({q.q.casefold() for q in QUESTIONS}) == len(QUESTIONS)


def test_some_questions_of_every_game_are_held_out() -> None:
    held = Counter(q.game for q in QUESTIONS if q.held_out)
    assert set(held) == set(SHIPPED)
    assert sum(held.values()) >= len(QUESTIONS) // 4


def test_the_search_meets_its_targets(tmp_path: Path) -> None:
    outcomes = evaluate(QUESTIONS, tmp_path / "index.sqlite3")
    score = Score(outcomes)
    misses = [(o.question.q, o.found) for o in outcomes if o.position != 1]
    assert score.top3 >= TOP3_TARGET, misses
    assert score.top1 >= TOP1_TARGET, misses


def outcome(position: int | None) -> Outcome:
    question = Question("q", "tokaido", "inns")
    found = [("tokaido", "farm"), ("tokaido", "village"), ("shogun", "setup")]
    if position is not None:
        found[position - 1] = ("tokaido", "inns")
    return Outcome(question, tuple(found))


def test_score_counts_first_places_and_the_first_three() -> None:
    score = Score([outcome(1), outcome(2), outcome(3), outcome(None)])
    assert (score.top1, score.top3) == (0.25, 0.75)
    assert [o.position for o in score.outcomes] == [1, 2, 3, None]
    assert not score.meets_targets
    assert Score([outcome(1)] * 9 + [outcome(3)]).meets_targets
    assert Score([]).top1 == 0.0


@pytest.mark.parametrize(
    "entry",
    [
        '[[question]]\nq = "x"\ngame = "tokaido"\n',
        '[[question]]\nq = "x"\ngame = "tokaido"\ntopic = "inns"\nheld = true\n',
    ],
)
def test_a_malformed_entry_is_refused(entry: str, tmp_path: Path) -> None:
    path = tmp_path / "eval.toml"
    path.write_text(entry)
    with pytest.raises(ValueError, match="question 1 is malformed"):
        load_questions(path)
