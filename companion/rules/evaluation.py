"""How well the search answers the questions players ask.

The evaluation set is a TOML file of ``[[question]]`` entries: ``q`` (the
question as a player asks it), ``game`` and ``topic`` (the topic that answers
it), and ``held_out`` (a question the search was never tuned on). Used by
``benchmarks/rules_eval.py`` and by the test that holds the search to its
targets.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

TOP1_TARGET = 0.80
TOP3_TARGET = 0.95


@dataclass(frozen=True)
class Question:
    """One question of the evaluation set."""

    q: str
    game: str
    topic: str
    held_out: bool = False


@dataclass(frozen=True)
class Outcome:
    """Where the answering topic came in a search for one question.

    Attributes:
        question: The question.
        found: The first three ``(game, topic)`` results, best first.
    """

    question: Question
    found: tuple[tuple[str, str], ...]

    @property
    def position(self) -> int | None:
        """1 for the first result, ..., ``None`` when not in the top 3."""
        wanted = (self.question.game, self.question.topic)
        return self.found.index(wanted) + 1 if wanted in self.found else None


@dataclass
class Score:
    """Top-1 and top-3 accuracy over some outcomes."""

    outcomes: list[Outcome] = field(default_factory=list)

    @property
    def top1(self) -> float:
        """Share of questions whose topic came first."""
        return self._share(1)

    @property
    def top3(self) -> float:
        """Share of questions whose topic was in the first three."""
        return self._share(3)

    def _share(self, k: int) -> float:
        if not self.outcomes:
            return 0.0
        hits = sum(1 for o in self.outcomes if o.position is not None and o.position <= k)
        return hits / len(self.outcomes)

    @property
    def meets_targets(self) -> bool:
        """Whether both targets are met."""
        return self.top1 >= TOP1_TARGET and self.top3 >= TOP3_TARGET


def load_questions(path: Path) -> list[Question]:
    """Read the evaluation set.

    Raises:
        ValueError: An entry lacks a field or has one it should not.
    """
    import tomllib

    data = tomllib.loads(path.read_text(encoding="utf-8"))
    questions = []
    for k, entry in enumerate(data.get("question", [])):
        unknown = set(entry) - {"q", "game", "topic", "held_out"}
        if unknown or not {"q", "game", "topic"} <= set(entry):
            raise ValueError(f"{path}: question {k + 1} is malformed: {entry}")
        questions.append(
            Question(entry["q"], entry["game"], entry["topic"], bool(entry.get("held_out")))
        )
    return questions


def evaluate(questions: list[Question], index: Path | None = None) -> list[Outcome]:
    """Search every question across all games and note where its topic came."""
    from companion.rules.search import search

    outcomes = []
    for question in questions:
        hits = search(question.q, limit=3, index=index).hits
        outcomes.append(Outcome(question, tuple((h.game, h.topic) for h in hits)))
    return outcomes
