"""Top-1 and top-3 accuracy of ``companion rules search`` on the evaluation set.

Searches every question of ``tests/files/rules-eval.toml`` across all games,
as a player would, and prints how often the answering topic comes first and
in the first three: overall, for the questions the search was tuned on, for
the held-out ones and per game. Targets: top-3 >= 95 %, top-1 >= 80 %.
Misses of tuned questions are listed; held-out misses only with
``--show-held-out`` (look at them only after tuning is over).

Usage: ``.venv/bin/python benchmarks/rules_eval.py [--show-held-out] [--file F]``
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from companion.rules import GAME_FOLDERS
from companion.rules.evaluation import (
    TOP1_TARGET,
    TOP3_TARGET,
    Outcome,
    Score,
    evaluate,
    load_questions,
)

EVAL_SET = Path(__file__).resolve().parent.parent / "tests" / "files" / "rules-eval.toml"


def line(label: str, outcomes: list[Outcome]) -> str:
    score = Score(outcomes)
    return (
        f"{label:<12} {len(outcomes):>3} questions  top-1 {score.top1:6.1%}  "
        f"top-3 {score.top3:6.1%}"
    )


def describe(outcome: Outcome) -> str:
    q = outcome.question
    found = ", ".join(f"{g} {t}" for g, t in outcome.found) or "nothing"
    where = f"#{outcome.position}" if outcome.position else "missed"
    return f"  {where:<6} {q.q!r} wants {q.game} {q.topic}; got {found}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--file", type=Path, default=EVAL_SET)
    parser.add_argument("--show-held-out", action="store_true")
    args = parser.parse_args()
    questions = load_questions(args.file)
    with tempfile.TemporaryDirectory() as folder:
        outcomes = evaluate(questions, Path(folder) / "index.sqlite3")
    tuned = [o for o in outcomes if not o.question.held_out]
    held = [o for o in outcomes if o.question.held_out]
    print(line("all", outcomes))
    print(line("tuned on", tuned))
    print(line("held out", held))
    for game in GAME_FOLDERS:
        print(line(f"  {game}", [o for o in outcomes if o.question.game == game]))
    shown = [o for o in tuned if o.position != 1]
    if args.show_held_out:
        shown += [o for o in held if o.position != 1]
    if shown:
        print("\nNot first:")
        print("\n".join(describe(o) for o in shown))
    total = Score(outcomes)
    verdict = "ok" if total.meets_targets else "BELOW TARGET"
    print(f"\ntargets: top-1 >= {TOP1_TARGET:.0%}, top-3 >= {TOP3_TARGET:.0%}: {verdict}")
    return 0 if total.meets_targets else 1


if __name__ == "__main__":
    sys.exit(main())
