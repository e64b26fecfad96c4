"""Pure scoring engines for the five games, one module per game.

Every module has the same shape: ``INFO`` (a :class:`GameInfo`), ``parse``
(validates a parsed score file into frozen dataclasses, raising
:class:`ScoreFileError` with every problem) and ``score`` (returns a
:class:`Result`). Nothing here reads files or imports from ``companion``.

Example:
    >>> scorer = find_game("Shimoda: Perry Road")
    >>> scorer.info.id
    'shimoda'
"""

from __future__ import annotations

from scorers import kamakura, shibuya, shimoda, shogun, tokaido
from scorers._core import GameInfo, PlayerScore, Result, Scorer, matches
from scorers._validate import Problem, Reader, ScoreFileError, join_names

__all__ = [
    "SCORERS",
    "GameInfo",
    "PlayerScore",
    "Problem",
    "Reader",
    "Result",
    "ScoreFileError",
    "Scorer",
    "UnknownGameError",
    "find_game",
    "join_names",
]

SCORERS: dict[str, Scorer] = {
    module.INFO.id: Scorer(module.INFO, module.parse, module.score)
    for module in (shimoda, shibuya, tokaido, kamakura, shogun)
}


class UnknownGameError(LookupError):
    """A name that is none of the registered games."""

    def __init__(self, name: str) -> None:
        self.name = name
        choices = ", ".join(SCORERS)
        super().__init__(f"unknown game {name!r} (choose one of: {choices})")


def find_game(name: str) -> Scorer:
    """Find a game by id, title or alias, ignoring case, blanks and punctuation.

    Raises:
        UnknownGameError: When no game has that name.
    """
    for scorer in SCORERS.values():
        if matches(scorer.info, name):
            return scorer
    raise UnknownGameError(name)
