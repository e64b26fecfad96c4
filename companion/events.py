"""The keys of a session's event log that are not answers (no imports: the clock reads them).

A session's log (see :mod:`companion.history.sessions`) holds the players' answers,
the seeds of the draws (``seed:NAME``) and facts about the game that are not
answers (``meta:``): when a terminal started driving it and when it stopped,
where it is played, how long it took.
"""

from __future__ import annotations

SEED_PREFIX = "seed:"
"""Random draws: ``seed:NAME`` holds the seed of a draw, kept through undo."""
META_PREFIX = "meta:"
"""Facts about the session that are not answers, kept through undo."""
START = META_PREFIX + "start"
"""A terminal started (or resumed) driving the game: the clock runs from here."""
STOP = META_PREFIX + "stop"
"""The players paused, pressed Ctrl-C or stopped: the clock stops here."""
LOCATION = META_PREFIX + "location"
"""Where the game is played (its value is the place)."""
TIME = META_PREFIX + "time"
"""How long the game took, written when it is saved (see :mod:`companion.analysis.clock`)."""
DRAFT = "draft"
"""A web page's draft: everything typed on it, one event replaced at each change.

A session that holds it is a page's (kind ``web``), not answers to replay:
its log is never exported, synced or imported as a played-along game's.
"""


def is_answer(key: str) -> bool:
    """Whether an event is one of the players' answers (not a draw's seed or a meta fact)."""
    return not key.startswith((SEED_PREFIX, META_PREFIX))
