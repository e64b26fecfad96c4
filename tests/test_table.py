"""The replaying driver: a saved game replays to the same state, whatever was answered."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.play.runner import flow_for
from companion.play.table import Event, Table


class Scripted:
    """Answers from a random generator, like players who always type something valid."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.asked: list[str] = []

    def select(self, message: str, choices: Sequence[str], default: str | None) -> str:
        self.asked.append(message)
        return self.rng.choice(list(choices))

    def text(
        self,
        message: str,
        validate: Callable[[str], str | None],
        default: str,
        suggestions: Sequence[str],
    ) -> str:
        self.asked.append(message)
        candidates = [
            default,
            f"P{self.rng.randrange(1000)}",
            str(self.rng.randrange(4)),
            str(self.rng.randrange(2, 6)),
            "2",
            "",
            "A N",
            "B",
            "1 2",
            "3 1",
        ]
        for answer in candidates:
            if answer and validate(answer) is None:
                return answer
        return next(a for a in candidates if validate(a) is None)


class Refuse:
    """A prompter for a pure replay: being asked anything is a failure."""

    def select(self, message: str, choices: Sequence[str], default: str | None) -> str:
        raise AssertionError(f"asked {message!r} during a replay")

    def text(self, message: str, *args: Any) -> str:
        raise AssertionError(f"asked {message!r} during a replay")


def play(game: str, prompter: Any, events: list[Event]) -> tuple[Any, list[str]]:
    said: list[str] = []
    table = Table(
        game,
        events,
        save=lambda key, value, where: None,
        forget=lambda keep: None,
        prompter=prompter,
        out=said.append,
    )
    outcome = flow_for(game, "play")(table)
    return outcome, said


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), game=st.sampled_from(["shibuya", "tokaido"]))
def test_a_saved_game_replays_without_asking_anything(seed: int, game: str) -> None:
    events: list[Event] = []
    outcome, _ = play(game, Scripted(random.Random(seed)), events)
    replayed, said = play(game, Refuse(), list(events))
    assert replayed == outcome
    assert said == []  # a pure replay announces nothing


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), cut=st.floats(0, 1))
def test_resuming_asks_the_question_where_the_game_stopped(seed: int, cut: float) -> None:
    events: list[Event] = []
    play("shibuya", Scripted(random.Random(seed)), events)
    keep = int(cut * (len(events) - 1))
    saved: list[str] = []
    table = Table(
        "shibuya",
        list(events[:keep]),
        save=lambda key, value, where: saved.append(key),
        forget=lambda _: None,
        prompter=Scripted(random.Random(seed + 1)),
        out=lambda _: None,
    )
    flow_for("shibuya", "play")(table)
    assert saved[0] == events[keep][0]


def test_a_changed_flow_keeps_the_answers_that_still_match() -> None:
    forgotten: list[int] = []
    events: list[Event] = [("a", "x"), ("old", 1), ("c", "z")]
    table = Table(
        "shibuya",
        events,
        save=lambda *_: None,
        forget=forgotten.append,
        prompter=Scripted(random.Random(1)),
        out=lambda _: None,
    )
    assert table.choose("a", "A?", ["x", "y"]) == "x"
    table.choose("b", "B?", ["only"])
    assert forgotten == [1]
    assert table.events == [("a", "x"), ("b", "only")]


@pytest.mark.parametrize("prefix", ["", "retry2."])
def test_keys_carry_the_prefix(prefix: str) -> None:
    saved: list[str] = []
    table = Table(
        "shibuya",
        [],
        save=lambda key, *_: saved.append(key),
        forget=lambda _: None,
        prompter=Scripted(random.Random(2)),
        out=print,
    )
    table.prefix = prefix
    table.number("goals", "How many?", high=8)
    assert saved == [f"{prefix}goals"]
