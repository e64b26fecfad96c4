"""The one way to save a finished count: a new play, a finished session, or nothing kept."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.events import LOCATION
from companion.history.errors import HistoryError
from companion.history.saving import NOT_SAVED, Saved, after_saving, after_unread, save_game
from companion.history.sessions import SessionStore
from companion.history.store import History
from scorers import SCORERS

SCORE_FILE = {
    "game": "shibuya",
    "players": [{"name": "Aki", "goals": 6}, {"name": "Ben", "goals": 2}],
}
TEXT = json.dumps(SCORE_FILE, indent=2)
RESULT = SCORERS["shibuya"].score_json(SCORE_FILE).to_json()


def test_a_scored_file_is_a_new_play_explained_from_its_file(db_path: Path) -> None:
    with History(db_path) as history:
        saved = save_game(history, "shibuya", TEXT, RESULT, location="Kobe", read_back=False)
        assert saved.play_id == 1
        assert history.get(1).location == "Kobe"
    assert saved.status == "final"
    assert saved.after is not None
    assert saved.after.explanation and saved.after.location == "Kobe"
    assert saved.after.timing is None
    assert saved.message() == "Saved to the history as game #1."
    assert saved.page_message() == ("Saved as game #1.", "")


def test_a_session_is_finished_once_with_its_facts(db_path: Path) -> None:
    with History(db_path) as history:
        store = SessionStore(history)
        session = store.start("shibuya", "web", facts=[(LOCATION, "Kobe")])
        first = save_game(history, "shibuya", TEXT, RESULT, session=session, after=False)
        again = save_game(history, "shibuya", TEXT, RESULT, session=session, after=False)
        assert (first.play_id, again.play_id) == (session, session)
        assert len(history.plays()) == 1
        assert first.after is None
        after = after_saving(history, first)
        assert after.explanation == after_saving(history, again).explanation


def test_a_session_set_aside_is_not_saved(db_path: Path) -> None:
    with History(db_path) as history:
        store = SessionStore(history)
        session = store.start("shibuya", "play")
        store.abandon(session)
        with pytest.raises(HistoryError):
            save_game(history, "shibuya", TEXT, RESULT, session=session)
        assert history.plays() == []


def test_no_save_removes_the_session_and_records_nothing(db_path: Path) -> None:
    with History(db_path) as history:
        store = SessionStore(history)
        session = store.start("shibuya", "score")
        saved = save_game(history, "shibuya", TEXT, RESULT, session=session, keep=False)
        assert store.get(session) is None
        assert history.plays() == []
    assert saved.play_id is None and saved.message() == NOT_SAVED
    assert saved.after is not None and saved.after.records == []
    alone = save_game(None, "shibuya", TEXT, RESULT, keep=False)
    assert alone.after == saved.after


def test_an_interim_scoring_says_so() -> None:
    saved = Saved(7, "shogun", "interim", json.dumps({"game": "shogun", "year": 1}), {})
    assert saved.interim
    assert saved.message() == (
        "Saved to the history as game #7, an interim scoring: "
        "it is shown but counts in no wins or stats."
    )
    assert saved.page_message() == (
        "Saved as game #7.",
        "An interim scoring: it is shown, but counts in no wins or stats.",
    )
    assert after_unread(HistoryError("locked")) == "Saved, but the history cannot be read: locked"
