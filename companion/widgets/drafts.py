"""Games in progress on the web page, kept in the history database like the terminal's.

Each page's draft is a session of kind ``web``: its one event holds
everything typed so far, replaced in one transaction at every change, so a
reload (or a new kernel) brings the game back. A draft has no game number
(its session id is below 1): saving finishes the session and records the
game, under the next free number, in the same transaction, so drafts left
unsaved leave no gap in the numbers; a session already finished
answers with its game's number and records nothing (a second tap, a retry).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.events import DRAFT, TIME
from companion.history.saving import Saved, save_game
from companion.history.sessions import SessionStore
from companion.history.store import History, default_path, opened

if TYPE_CHECKING:
    from companion.analysis.clock import Timing

KIND = "web"
KEY = DRAFT


@contextmanager
def reading(db: Path | None = None) -> Iterator[History]:
    """The history opened read-only, as the CLI's read commands open it.

    Nothing is created on disk (a missing file reads as an empty history).
    Any trouble, while opening or reading, is a
    :class:`~companion.history.errors.HistoryError` whose message is one line.

    Args:
        db: The history file (default: ``COMPANION_DB`` or the user's).
    """
    with opened(db or default_path(), write=False, action="read the history") as history:
        yield history


class Drafts:
    """The web drafts of one game.

    Args:
        game: The game id.
        db: The history file (default: ``COMPANION_DB`` or the user's).
    """

    def __init__(self, game: str, db: Path | None = None) -> None:
        self.game = game
        self.db = db

    def _open(self) -> History:
        return History(self.db or default_path())

    def latest(self) -> tuple[int, dict[str, Any]] | None:
        """The most recent unfinished draft of this game, if any (read-only)."""
        with reading(self.db) as history:
            store = SessionStore(history)
            for info in store.unfinished():
                if info.game != self.game or info.kind != KIND:
                    continue
                for key, value in reversed(store.events(info.id)):
                    if key == KEY and isinstance(value, dict):
                        return info.id, value
        return None

    def keep(self, session_id: int | None, state: dict[str, Any]) -> int:
        """Store ``state`` as the draft (a new session when ``session_id`` is None)."""
        with self._open() as history:
            store = SessionStore(history)
            if session_id is None or not self._active(store, session_id):
                session_id = store.start(self.game, KIND, numbered=False)
            store.replace_draft(session_id, KEY, state)
        return session_id

    @staticmethod
    def _active(store: SessionStore, session_id: int) -> bool:
        info = store.get(session_id)
        return info is not None and info.status == "active"

    def finish(
        self,
        session_id: int | None,
        document: dict[str, Any],
        result: dict[str, Any],
        start_player: int | None = None,
        location: str = "",
        timing: Timing | None = None,
    ) -> Saved:
        """Record the game and close its draft; a finished draft gives back its game.

        Args:
            session_id: The draft, if one was kept.
            document: The score file.
            result: Its scored result.
            start_player: The seat that started, if known.
            location: Where it was played (a clean place, or ``""``).
            timing: The page's clock, if it ran: the game's length and its rounds.

        Returns:
            The saved game; what is shown after it is read separately
            (:func:`companion.history.saving.after_saving`).
        """
        with self._open() as history:
            store = SessionStore(history)
            if session_id is None or not self._open_or_saved(store, session_id):
                session_id = store.start(self.game, KIND, numbered=False)
            return save_game(
                history,
                self.game,
                json.dumps(document, indent=2, ensure_ascii=False),
                result,
                session=session_id,
                start_player=start_player,
                location=location,
                duration_min=timing.minutes if timing is not None and timing.seconds else None,
                facts=[(TIME, timing.to_json())] if timing is not None else [],
                after=False,
            )

    @staticmethod
    def _open_or_saved(store: SessionStore, session_id: int) -> bool:
        """Whether saving finishes this draft: it is still open, or it is already a game."""
        info = store.get(session_id)
        if info is None:
            return False
        return info.status == "active" or (info.status == "finished" and info.play_id is not None)
