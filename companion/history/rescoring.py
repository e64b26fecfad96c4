"""Scoring a score file's text: a new one, or a recorded game's again by today's scorer.

``companion score`` scores a score file given to it (:func:`score_text`);
``history check`` re-scores every stored score file to compare it with the
stored result; ``history edit`` re-scores a new or changed score file to store
its result. All read the file the same strict way (:func:`companion.bounded_json.parse_json`)
and score it with the game's scorer.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from scorers import Result, Scorer

__all__ = ["rescore", "score_text"]


def score_text(scorer: Scorer, text: str) -> Result:
    """Validate and score the text of a score file.

    Raises:
        ScoreFileError: With every problem found.
    """
    from companion.bounded_json import parse_json

    return scorer.score_json(parse_json(text))


def rescore(
    game: str, text: str, change: Callable[[object], object] | None = None
) -> tuple[str, dict[str, Any]]:
    """Score the score file ``text`` of ``game`` again, after an optional change.

    Args:
        game: The game id; it must have a scorer (see :data:`scorers.SCORERS`).
        text: The score file's text.
        change: Applied to the parsed score file before it is scored (a
            rename, say); the file it returns is the one scored.

    Returns:
        ``(text, result)``: the score file's text (``text`` itself, or the
        changed file written out when there is a ``change``) and the result
        document (``Result.to_json()``).

    Raises:
        ScoreFileError: The text is not valid JSON or not a valid score file
            of the game.
        KeyError: The game has no scorer.
    """
    from companion.bounded_json import parse_json
    from scorers import SCORERS

    data = parse_json(text)
    if change is not None:
        data = change(data)
        text = json.dumps(data, ensure_ascii=False, indent=2)
    return text, SCORERS[game].score_json(data).to_json()
