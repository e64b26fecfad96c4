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

import importlib
from collections.abc import Iterator, Mapping

from scorers._core import GameInfo, PlayerScore, Result, Scorer, _fold, matches
from scorers._validate import Problem, Reader, ScoreFileError, join_names, quoted

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

GAME_IDS = ("shimoda", "shibuya", "tokaido", "kamakura", "shogun")


class Registry(Mapping[str, Scorer]):
    """The registered games by id, in box order.

    A game's module is imported the first time its scorer is looked up, so
    scoring one game does not pay for loading the other four.
    """

    def __init__(self, ids: tuple[str, ...]) -> None:
        self._ids = ids
        self._loaded: dict[str, Scorer] = {}

    def __getitem__(self, game: str) -> Scorer:
        if game not in self._loaded:
            if game not in self._ids:
                raise KeyError(game)
            module = importlib.import_module(f"scorers.{game}")
            self._loaded[game] = Scorer(module.INFO, module.parse, module.score)
        return self._loaded[game]

    def __iter__(self) -> Iterator[str]:
        return iter(self._ids)

    def __len__(self) -> int:
        return len(self._ids)

    def __contains__(self, game: object) -> bool:
        return game in self._ids


SCORERS = Registry(GAME_IDS)


class UnknownGameError(LookupError):
    """A name that is none of the registered games.

    Attributes:
        name: The name as given.
        suggestion: The id of the game the name is closest to, if any is close.
    """

    def __init__(self, name: str, suggestion: str | None = None) -> None:
        self.name = name
        self.suggestion = suggestion
        choices = ", ".join(SCORERS)
        hint = f"did you mean {suggestion}?" if suggestion else f"choose one of: {choices}"
        super().__init__(f"unknown game {quoted(name)} ({hint})")


def find_game(name: str) -> Scorer:
    """Find a game by id, title or alias, ignoring case, blanks and punctuation.

    Raises:
        UnknownGameError: When no game has that name, with the closest game
            when one is close ("tokaidoo", "shog", "kamakura colection").
    """
    wanted = name.strip().casefold()
    if wanted in SCORERS:
        return SCORERS[wanted]
    for scorer in SCORERS.values():
        if matches(scorer.info, name):
            return scorer
    raise UnknownGameError(name, closest_game(name))


def closest_game(name: str) -> str | None:
    """The id of the game whose id, title or alias is closest to ``name``, if any is close.

    A name of three letters or more that starts a game's id or title counts
    as close ("shog" is Shogun); otherwise the spelling must be similar.
    """
    import difflib

    typed = _fold(name)
    if not typed:
        return None
    names = {_fold(n): game for game in SCORERS for n in (game, *_titles(game))}
    if len(typed) >= 3:
        starts = {game for known, game in names.items() if known.startswith(typed)}
        if len(starts) == 1:
            return starts.pop()
    close = difflib.get_close_matches(typed, list(names), n=1, cutoff=0.75)
    return names[close[0]] if close else None


def _titles(game: str) -> tuple[str, ...]:
    info = SCORERS[game].info
    return (info.title, *info.aliases)
