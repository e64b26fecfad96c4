"""Saving a finished count: the one way from a scored game to the history, and what is said after.

``companion score FILE``, the play-along flow (:mod:`companion.play.runner`, for
``play``, ``resume`` and ``score`` without a file) and the web score pad
(:mod:`companion.widgets.score_form`) all save through :func:`save_game`:

- a game scored from a file (or on a score pad of its own) is recorded as a
  new play, under a new number;
- a session (a played-along game, a web page's draft) is finished: its play
  takes the session's number and the facts of its log (its time at the
  table) are added, in one transaction. Finishing a session again records
  nothing and gives back the same game (a second tap, another page);
- a session begun with ``--no-save`` is removed with its answers: nothing of
  it stays in the history.

What is shown after the save (:func:`after_saving`) is why the game was won,
the records it set, its time and its place. Every sentence about the save
itself is made here: :meth:`Saved.message` for the terminal,
:meth:`Saved.page_message` and :func:`after_unread` for the web page.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from companion.analysis.played_game import INTERIM
from companion.history.model import new_play, status_of

if TYPE_CHECKING:
    from companion.history.after_game import AfterGame
    from companion.history.store import History

__all__ = ["NOT_SAVED", "Saved", "after_saving", "after_unread", "save_game"]

NOT_SAVED = "Not saved (--no-save)."
"""What the terminal says after a played-along game begun with ``--no-save``."""


@dataclass(frozen=True)
class Saved:
    """A finished count, saved (or, with ``--no-save``, not).

    Attributes:
        play_id: The game's number in the history; ``None`` when it was not
            saved (``--no-save``).
        game: The game id.
        status: ``final`` or ``interim`` (a scoring that does not end its game).
        score_file: The score file (JSON text).
        result: Its scored result (``Result.to_json()``).
        location: Where it was played (empty when not said).
        read_back: It is explained as the history holds it, rather than from
            its score file (see :func:`after_saving`).
        after: What is shown after it, once read (``None`` before: see
            :func:`save_game`'s ``after``).
    """

    play_id: int | None
    game: str
    status: str
    score_file: str
    result: dict[str, Any]
    location: str = ""
    read_back: bool = True
    after: AfterGame | None = None

    @property
    def interim(self) -> bool:
        """An interim scoring: shown, but counted in no wins or stats."""
        return self.status == INTERIM

    def message(self) -> str:
        """What the terminal says: ``Saved to the history as game #7.`` (or why it is not)."""
        if self.play_id is None:
            return NOT_SAVED
        if self.interim:
            return (
                f"Saved to the history as game #{self.play_id}, an interim scoring: "
                "it is shown but counts in no wins or stats."
            )
        return f"Saved to the history as game #{self.play_id}."

    def page_message(self) -> tuple[str, str]:
        """What the web page says beside its Save button: ``Saved as game #7.`` and a note.

        Returns:
            The headline and the note (empty but for an interim scoring), as
            plain text.
        """
        note = "An interim scoring: it is shown, but counts in no wins or stats."
        return f"Saved as game #{self.play_id}.", note if self.interim else ""


def after_unread(error: Exception) -> str:
    """What the web page says when the game was saved but cannot be read back."""
    return f"Saved, but the history cannot be read: {error}"


def save_game(
    history: History | None,
    game: str,
    score_file: str,
    result: Mapping[str, Any],
    *,
    session: int | None = None,
    keep: bool = True,
    location: str = "",
    played_at: str | None = None,
    duration_min: int | None = None,
    start_player: int | None = None,
    status: str | None = None,
    facts: Sequence[tuple[str, Any]] = (),
    read_back: bool = True,
    after: bool = True,
) -> Saved:
    """Save a scored game: record it as a new play, or finish the session it was played in.

    Args:
        history: The open history; ``None`` only for a game that is neither
            kept nor in a session (``companion score FILE --no-save``).
        game: The game id.
        score_file: The score file (JSON text), stored as it is.
        result: Its scored result (``Result.to_json()``).
        session: The session it was played or typed in (a played-along game,
            a web draft): finished, its play taking the session's number.
            Without one, the play is added under a new number.
        keep: ``False`` for ``--no-save``: nothing is recorded, and the
            session is removed with its whole log (its number stays used).
        location: Where it was played (a clean place, or ``""``).
        played_at: When, ISO 8601 UTC; now when omitted.
        duration_min: Minutes it took, if known.
        start_player: The person who started, if known: an index into the
            people in seat order.
        status: ``final`` or ``interim`` of a session's game; by default (and
            always for a new play) what the score file says
            (:func:`companion.history.model.status_of`).
        facts: ``meta:`` events added to the session's log in the same
            transaction (its time at the table).
        read_back: How :func:`after_saving` explains it (see there).
        after: Read what is shown after the save now, into
            :attr:`Saved.after`; ``False`` when nothing is shown (JSON output)
            or it is read later (:func:`after_saving`).

    Returns:
        The saved game.

    Raises:
        HistoryError: It cannot be saved (the session was set aside, the disk
            is full, ...): nothing was changed.
    """
    text_status = status_of(game, score_file)
    saved = Saved(
        None,
        game,
        status or text_status,
        score_file,
        dict(result),
        location if keep else "",
        read_back,
    )
    if not keep:
        if session is not None:
            from companion.history.sessions import SessionStore

            assert history is not None
            SessionStore(history).discard(session)
    elif session is None:
        assert history is not None
        play_id = history.record(
            game=game,
            score_file=score_file,
            result=result,
            played_at=played_at,
            location=location,
            duration_min=duration_min,
            start_player=start_player,
        )
        saved = replace(saved, play_id=play_id, status=text_status)
    else:
        from companion.history.sessions import SessionStore

        assert history is not None
        play = new_play(
            game,
            score_file,
            result,
            number=max(session, 0),  # a web draft's play is numbered when saved
            played_at=played_at,
            location=location,
            duration_min=duration_min,
            start_player=start_player,
            status=saved.status,
        )
        saved = replace(saved, play_id=SessionStore(history).finish(session, play, facts=facts))
    if after:
        saved = replace(saved, after=after_saving(history, saved))
    return saved


def after_saving(history: History | None, saved: Saved) -> AfterGame:
    """What is shown after a save: why the game was won, the records it set, its time and place.

    A game saved with ``read_back`` is explained as the history now holds it
    (:func:`companion.history.after_game.after_game`: its people, time at the
    table and place). Without, it is explained from its score file, as
    ``companion score`` explains a game it does not save, followed by the
    records it set and its place. A game not saved is only explained.

    Args:
        history: The open history (``None`` for a game not saved).
        saved: What :func:`save_game` returned.

    Raises:
        HistoryError: The history cannot be read.
    """
    from companion.analysis.explain import explain_result
    from companion.history.after_game import AfterGame, after_game, records_set

    if saved.play_id is None:
        return AfterGame(explain_result(saved.result, saved.score_file), [], None, "")
    assert history is not None
    if saved.read_back:
        return after_game(history, saved.play_id)
    explanation = explain_result(saved.result, saved.score_file)
    return AfterGame(explanation, records_set(history, saved.play_id), None, saved.location)
