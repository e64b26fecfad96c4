"""Shibuya's rules are offered in players' words: the score file's variant ids never show."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

from companion.kits.shibuya import VARIANTS
from companion.play.runner import flow_for
from companion.play.table import Table
from tests.support.prompters import Scripted


class Watching(Scripted):
    """Random valid answers; every list offered is kept."""

    def __init__(self, rng: random.Random) -> None:
        super().__init__(rng)
        self.offered: list[list[str]] = []

    def select(self, message: str, choices: Sequence[str], *args: Any, **kwargs: Any) -> str:
        self.offered.append(list(choices))
        return super().select(message, choices, *args, **kwargs)


@pytest.mark.parametrize("kind", ["play", "score"])
@pytest.mark.parametrize("seed", range(4))
def test_no_variant_id_is_offered(kind: str, seed: int) -> None:
    prompter = Watching(random.Random(seed))
    said: list[str] = []
    t = Table("shibuya", [], save=lambda *_: None, prompter=prompter, out=said.append)
    outcome = flow_for("shibuya", kind)(t)
    choices = [c for offered in prompter.offered for c in offered]
    # The score pad's "Rules" row offers the words of the web pad ("standard (6 at goal)"):
    # players' words too, but never an id as a choice of its own.
    assert "no_construction" not in " ".join(choices)
    assert not {"standard", "no_construction"} & set(choices)
    assert "no_construction" not in " ".join(said)
    assert outcome.score_file["variant"] in ("standard", "no_construction")
    assert list(VARIANTS) == [
        "Standard: build the city, then 6 pawns at goal",
        "Optional rule: no construction, 4 pawns at goal",
    ]


@pytest.mark.parametrize(
    ("saved", "variant"),
    [("standard", "standard"), ("no_construction (optional rule, 4 pawns)", "no_construction")],
)
def test_a_game_saved_with_the_old_words_replays(saved: str, variant: str) -> None:
    from companion.kits.shibuya.flow import choose_variant

    t = Table("shibuya", [("variant", saved)], save=lambda *_: None, prompter=None, out=print)  # type: ignore[arg-type]
    assert choose_variant(t) == variant


def test_the_rules_players_read_name_no_variant_id() -> None:
    from companion.rules import load_topics

    for topic in load_topics("shibuya"):
        assert "no_construction" not in topic.body, topic.id


@pytest.mark.parametrize(
    ("goals", "target", "said"),
    [
        ([6, 4], 6, "Aki wins with 6 pawns at goal!"),
        ([2, 4], 4, "Ben wins with 4 pawns at goal!"),  # the optional rule
        ([3, 0], 6, "Aki wins with a lead of 3: 3 pawns at goal to 0!"),
        ([1, 4], 6, "Ben wins with a lead of 3: 4 pawns at goal to 1!"),
    ],
)
def test_the_win_is_said_as_it_happened(goals: list[int], target: int, said: str) -> None:
    from companion.kits.shibuya import winner_of
    from companion.kits.shibuya.flow import win_line

    winner = winner_of(goals, target)
    assert winner is not None
    assert win_line(["Aki", "Ben"], goals, winner, target) == said
