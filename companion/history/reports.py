"""What ``companion history`` tells about the games, as data and plain text.

The pieces of ``history list``, ``history show`` and ``history import`` that do
not depend on how they are drawn: which plays a listing holds, a play's
lines of detail, what an import did. The tables are drawn by
:mod:`companion.terminal.history_tables`. Names and notes are returned as
they are, except where a line says otherwise: a caller prints them as plain
text, never markup.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from companion.wording import plural

if TYPE_CHECKING:
    from companion.analysis.clock import Timing
    from companion.history.formats.bounded import Parsed
    from companion.history.model import Filter, Play
    from companion.history.store import History, Imported


def stamp(played_at: str) -> str:
    """``2026-11-30T20:15:00Z`` → ``2026-11-30 20:15``."""
    return played_at.replace("T", " ").removesuffix("Z")[:16]


def game_title(game: str) -> str:
    """A game id's box title."""
    from scorers import title

    return title(game)


# --- history list ----------------------------------------------------------------------


@dataclass(frozen=True)
class Listing:
    """The games ``history list`` shows.

    Attributes:
        plays: Their summaries (:meth:`History.summaries`), oldest first.
        limit: At most this many were asked for (0: all).
        more: Older games match too.
    """

    plays: list[dict[str, Any]]
    limit: int
    more: bool


def listing(history: History, where: Filter, limit: int) -> Listing:
    """The ``limit`` most recent games that match ``where`` (0: all), oldest first."""
    plays = history.summaries(where, limit=limit + 1 if limit else 0)
    more = bool(limit) and len(plays) > limit
    return Listing(plays[1:] if more else plays, limit, more)


def _teams(play: dict[str, Any]) -> bool:
    return any(
        len(side["members"]) != 1 or side["members"][0] != side["name"] for side in play["players"]
    )


def side_label(side: dict[str, Any]) -> str:
    """``Red (Aki, Cho)``; ``Red (members not known)``."""
    inside = ", ".join(side["members"]) if side["members"] else "members not known"
    return f"{side['name']} ({inside})"


def players_line(play: dict[str, Any]) -> str:
    """The people of a summary: names, or each team with its members."""
    if _teams(play):
        return " v ".join(side_label(side) for side in play["players"])
    return ", ".join(p["name"] for p in play["people"])


def winners_line(play: dict[str, Any]) -> str:
    """Who won: the winners' names, a team with its members; ``-`` for none recorded."""
    from scorers import join_names

    if not play["winners"]:
        return "-"
    if _teams(play):
        won = [side for side in play["players"] if side["name"] in play["winners"]]
        return join_names([side_label(side) for side in won])
    return join_names(play["winners"])


def listing_notes(shown: Listing, *, filtered: bool) -> list[str]:
    """What is said instead of the table (no games), or after it (older ones not shown)."""
    if not shown.plays:
        return ["No such games." if filtered else "No games recorded yet."]
    if shown.more:
        return [f"Showing the {shown.limit} most recent; --limit 0 shows all."]
    return []


# --- history show ----------------------------------------------------------------------


@dataclass(frozen=True)
class PlayReport:
    """One recorded game as ``history show`` tells it.

    Attributes:
        play: The game.
        explanation: Why it was won (or who leads, for an interim scoring).
        records: The records it set, against the games before it as the
            history is now.
        timing: How long it took, for a played-along game.
    """

    play: Play
    explanation: list[str]
    records: list[str]
    timing: Timing | None

    def to_json(self) -> dict[str, Any]:
        """The play's JSON with ``explanation``, ``records_set`` and ``timing``."""
        return {
            **self.play.to_json(),
            "explanation": self.explanation,
            "records_set": self.records,
            "timing": self.timing.to_json() if self.timing is not None else None,
        }

    @property
    def title(self) -> str:
        """``Game #7: Tokaido, 2026-11-30 20:15 UTC``."""
        play = self.play
        return f"Game #{play.id}: {game_title(play.game)}, {stamp(play.played_at)} UTC"


def play_report(history: History, play_id: int) -> PlayReport:
    """Game ``play_id`` with why it was won, the records it set and its time.

    Raises:
        PlayNotFound: No game has that id.
    """
    from companion.history.after_game import explanation, records_set, timing

    play = history.get(play_id)
    return PlayReport(
        play, explanation(play), records_set(history, play_id), timing(history, play_id)
    )


# --- history import --------------------------------------------------------------------

MAX_NOTES = 20


@dataclass
class Added:
    """What an import added, counted play by play as it is added (the plays themselves
    are not kept: an import may add a hundred thousand)."""

    not_scored: int = 0
    """Seats without a score."""
    ignored: int = 0
    """Games marked ignored (kept out of the statistics)."""

    def count(self, play: Play) -> None:
        """Count one play added."""
        self.not_scored += sum(1 for side in play.result["players"] if side["total"] is None)
        self.ignored += play.ignored


def import_report(parsed: Parsed, done: Imported, counted: Added) -> list[str]:
    """What ``history import`` says it did, line by line.

    Args:
        parsed: What was read from the file.
        done: How many games were added, skipped (already in the history),
            updated (corrected at their source) and repeated in the file.
        counted: What the games added hold.
    """
    skipped = done.skipped
    said = [
        f"Imported {plural(done.added, 'game')}; "
        f"{skipped} {'was' if skipped == 1 else 'were'} already in the history."
    ]
    if done.updated:
        said.append(
            f"Updated {plural(done.updated, 'game')} already in the history: "
            "corrected where it came from (same play, changed)."
        )
    if done.repeated:
        said.append(
            f"{plural(done.repeated, 'game')} {'was' if done.repeated == 1 else 'were'} "
            "twice in the file itself: kept once."
        )
    if parsed.skipped_games:
        others = ", ".join(f"{name} ({n})" for name, n in sorted(parsed.skipped_games.items()))
        total = sum(parsed.skipped_games.values())
        said.append(f"Skipped {plural(total, 'play')} of other games: {others}.")
    blank = counted.not_scored
    if blank:
        said.append(
            f"{plural(blank, 'seat')} had no score: kept as not scored, "
            "out of the score statistics."
        )
    ignored = counted.ignored
    if ignored:
        said.append(
            f"{plural(ignored, 'game')} marked ignored in BG Stats: kept, out of the statistics."
        )
    said.extend(f"Note: {note}" for note in parsed.notes[:MAX_NOTES])
    if parsed.note_count > MAX_NOTES:
        said.append(f"... and {parsed.note_count - MAX_NOTES} more notes.")
    return said
