"""The replaying driver: a saved game replays to the same state, whatever was answered."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.history.sessions import Event, Unreadable
from companion.play.runner import flow_for
from companion.play.table import ReplayError, Table
from tests.support.prompters import Scripted

GAMES = ["tokaido", "shibuya", "shogun", "kamakura", "shimoda"]
STANDARD = "Standard: build the city, then 6 pawns at goal"


class Refuse:
    """A prompter for a pure replay: being asked anything is a failure."""

    def select(self, message: str, *args: Any, **kwargs: Any) -> str:
        raise AssertionError(f"asked {message!r} during a replay")

    def text(self, message: str, *args: Any, **kwargs: Any) -> str:
        raise AssertionError(f"asked {message!r} during a replay")


def table(game: str, events: list[Event], prompter: Any, said: list[str] | None = None) -> Table:
    def save(key: str, value: Any, where: str) -> None:
        events.append((key, value))

    return Table(
        game,
        list(events),
        save=save,
        prompter=prompter,
        out=(said if said is not None else []).append,
    )


def play(game: str, prompter: Any, events: list[Event], kind: str = "play") -> tuple[Any, Table]:
    t = table(game, events, prompter)
    outcome = flow_for(game, kind)(t)
    t.done()
    return outcome, t


@settings(max_examples=15, deadline=None)
@given(
    seed=st.integers(0, 10**6), game=st.sampled_from(GAMES), kind=st.sampled_from(["play", "score"])
)
def test_a_saved_game_replays_without_asking_anything(seed: int, game: str, kind: str) -> None:
    events: list[Event] = []
    outcome, _ = play(game, Scripted(random.Random(seed)), events, kind)
    said: list[str] = []
    t = table(game, list(events), Refuse(), said)
    replayed = flow_for(game, kind)(t)
    t.done()
    assert replayed == outcome
    assert said == []  # a pure replay announces nothing


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6), cut=st.floats(0, 1), game=st.sampled_from(GAMES))
def test_resuming_asks_the_question_where_the_game_stopped(
    seed: int, cut: float, game: str
) -> None:
    events: list[Event] = []
    play(game, Scripted(random.Random(seed)), events)
    answers = [e for e in events if not e[0].startswith("seed:")]
    keep = int(cut * (len(answers) - 1))
    kept, seen = [], 0
    for event in events:
        if event[0].startswith("seed:") or seen < keep:
            kept.append(event)
        seen += not event[0].startswith("seed:")
    resumed: list[Event] = list(kept)
    t = table(game, resumed, Scripted(random.Random(seed + 1)))
    flow_for(game, "play")(t)
    new = [k for k, _ in resumed[len(kept) :] if not k.startswith("seed:")]
    assert new[0] == answers[keep][0]


def test_a_renamed_key_stops_the_replay_and_drops_nothing() -> None:
    events: list[Event] = [("mode", "2 players"), ("players.O", "Aki")]
    t = table("shibuya", events, Refuse())
    with pytest.raises(ReplayError) as caught:
        flow_for("shibuya", "play")(t)
    assert caught.value.position == 1
    assert caught.value.question == "Player 1's name (seat order, clockwise)?"
    assert "saved for another question (players.O)" in caught.value.reason
    assert t.answers == events


@pytest.mark.parametrize(
    ("value", "reason"),
    [
        ("9 players", "the saved answer '9 players' is not one of the choices"),
        (
            Unreadable("{not json"),
            "the saved answer cannot be read (unreadable text '{not json')",
        ),
    ],
)
def test_a_value_the_question_refuses_stops_the_replay(value: object, reason: str) -> None:
    t = table("shibuya", [("mode", value)], Refuse())
    with pytest.raises(ReplayError) as caught:
        flow_for("shibuya", "play")(t)
    assert (caught.value.position, caught.value.reason) == (0, reason)


def test_a_number_out_of_range_or_a_bad_name_is_refused_on_replay() -> None:
    t = table("tokaido", [("players.count", 9)], Refuse())
    with pytest.raises(ReplayError, match="out of range"):
        flow_for("tokaido", "play")(t)
    t = table("tokaido", [("players.count", 2), ("players.0", "A\tB")], Refuse())
    with pytest.raises(ReplayError, match="tab"):
        flow_for("tokaido", "play")(t)


def test_answers_after_the_end_of_the_game_are_flagged() -> None:
    events: list[Event] = []
    play("shibuya", Scripted(random.Random(3)), events, "score")
    t = table("shibuya", [*events, ("extra", 1)], Refuse())
    flow_for("shibuya", "score")(t)
    with pytest.raises(ReplayError, match="1 saved answer"):
        t.done()


def test_a_draw_is_made_once_and_kept() -> None:
    events: list[Event] = []
    t = table("kamakura", events, Scripted(random.Random(1)))
    first = t.seed("tours")
    again = table("kamakura", events, Refuse())
    assert again.seed("tours") == first
    assert events == [("seed:tours", first)]


def test_shibuya_with_four_hands_over_the_start_player_as_a_person() -> None:
    answers = iter(
        ["4 players in two teams", "Aki", "Ben", "Cho", "Dai", "Red", STANDARD, "", "Dai"]
    )

    class Players(Scripted):
        def select(self, message: str, choices: Sequence[str], *args: Any, **kw: Any) -> str:
            if "goes first" in message or "Which" in message or "Who is" in message:
                return next(answers)
            return "All 16 tiles are laid" if "tile" in message else choices[1]

        def text(self, message: str, *args: Any, **kwargs: Any) -> str:
            return next(answers) if "name" in message or "Steps not done" in message else ""

    outcome, _ = play("shibuya", Players(random.Random(0)), [])
    assert outcome.start_player == 3  # Dai, person 4 in seat order
    assert [p["members"] for p in outcome.score_file["players"]] == [
        ["Aki", "Cho"],
        ["Ben", "Dai"],
    ]
