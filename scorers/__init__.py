"""Pure scoring engines for the five games, one module per game.

Every module has the same shape: ``INFO`` (a :class:`GameInfo`), ``parse``
(validates a parsed score file into frozen dataclasses, raising
:class:`ScoreFileError` with every problem) and ``score`` (returns a
:class:`Result`). Nothing here reads files or imports from ``companion``.

``INFO`` is the one place a game's facts are written: its title, player
counts, category labels, BoardGameGeek id and interim rule. :data:`SCORERS`
is the one list of the games; every other list of games (``GAME_IDS``, the
rules folders, the command line's choices, the pages, the exports) is read
from it, and :meth:`Registry.facts` gives one fact of every game by id.

Example:
    >>> scorer = find_game("Shimoda: Perry Road")
    >>> scorer.info.id
    'shimoda'
    >>> SCORERS.facts(lambda info: info.player_counts)["shibuya"]
    (2, 4)
    >>> title("shimoda"), short_title("shimoda"), title("chess")
    ('Shimoda: Perry Road', 'Shimoda', 'chess')
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from scorers._core import GameInfo, PlayerScore, Result, Scorer
    from scorers._validate import Problem, Reader, ScoreFileError, join_names

__all__ = [
    "GAME_IDS",
    "SCORERS",
    "GameInfo",
    "GameMissing",
    "PlayerScore",
    "Problem",
    "Reader",
    "Result",
    "ScoreFileError",
    "Scorer",
    "UnknownGameError",
    "find_game",
    "join_names",
    "short_title",
    "title",
]

T = TypeVar("T")

# The engines' types and helpers load on first use, so that a program that needs
# only the ids (the rules search) does not pay for them.
_LAZY = {
    **dict.fromkeys(("GameInfo", "PlayerScore", "Result", "Scorer"), "scorers._core"),
    **dict.fromkeys(("Problem", "Reader", "ScoreFileError", "join_names"), "scorers._validate"),
}

if not TYPE_CHECKING:

    def __getattr__(name: str) -> Any:
        """One of the names of :data:`_LAZY`, imported from its module on first use."""
        if name not in _LAZY:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value
        return value


class Registry(Mapping[str, "Scorer"]):
    """The registered games by id, in box order.

    A game is registered by the name of its module in this package, which is
    also its id (``INFO.id``). A game's module is imported the first time its
    scorer or one of its facts is looked up, so scoring one game does not pay
    for loading the other four, and the ids alone load none.
    """

    def __init__(self, modules: tuple[str, ...]) -> None:
        self._ids = list(modules)
        self._modules: dict[str, str] = {game: f"scorers.{game}" for game in modules}
        self._loaded: dict[str, Scorer] = {}

    def register(self, game: str, module: str) -> None:
        """Add a game whose scorer is ``module`` (a game that is not built in), after the others.

        The module is imported when the game is first looked up, as the others are.

        Raises:
            ValueError: Another module holds the scorer of a game of that id already.
        """
        if self._modules.get(game, module) != module:
            raise ValueError(f"{game} is registered already (its scorer is {self._modules[game]})")
        if game not in self._modules:
            self._ids.append(game)
        self._modules[game] = module
        self._loaded.pop(game, None)

    def module_of(self, game: str) -> str:
        """The module of ``game``'s scorer (``scorers.<id>`` for the games of the box).

        Raises:
            KeyError: ``game`` is not registered.
        """
        return self._modules[game]

    def __getitem__(self, game: str) -> Scorer:
        if game not in self._loaded:
            if game not in self._modules:
                raise KeyError(game)
            from scorers._core import Scorer

            name = self._modules[game]
            try:
                module = importlib.import_module(name)
                scorer = Scorer(module.INFO, module.parse, module.score)
            except Exception as error:  # a registered game's module that does not load
                raise GameMissing(f"{game}: its scorer {name} does not load ({error})") from None
            if scorer.info.id != game:
                raise GameMissing(f"{game}: {name} scores {scorer.info.id!r}, not {game!r}")
            self._loaded[game] = scorer
        return self._loaded[game]

    def __iter__(self) -> Iterator[str]:
        return iter(self._ids)

    def __len__(self) -> int:
        return len(self._ids)

    def __contains__(self, game: object) -> bool:
        return game in self._ids

    def facts(self, fact: Callable[[GameInfo], T]) -> Mapping[str, T]:
        """One fact of every registered game, by id, read from its ``INFO`` when looked up.

        Args:
            fact: Picks the fact from a game's :class:`GameInfo`.
        """
        return Facts(self, fact)


class Facts(Mapping[str, T]):
    """A read-only view of one fact of every registered game, by id, in box order.

    Looking a game up loads only that game's module; membership and
    iteration load none.
    """

    def __init__(self, registry: Registry, fact: Callable[[GameInfo], T]) -> None:
        self._registry = registry
        self._fact = fact

    def __getitem__(self, game: str) -> T:
        return self._fact(self._registry[game].info)

    def __iter__(self) -> Iterator[str]:
        return iter(self._registry)

    def __len__(self) -> int:
        return len(self._registry)

    def __contains__(self, game: object) -> bool:
        return game in self._registry

    def __repr__(self) -> str:
        return f"Facts({dict(self)!r})"


class _Ids(Sequence[str]):
    """The registered games' ids, in box order, as they are now (a game registered later too)."""

    def __init__(self, registry: Registry) -> None:
        self._registry = registry

    def __getitem__(self, index: Any) -> Any:
        return tuple(self._registry)[index]

    def __len__(self) -> int:
        return len(self._registry)

    def __contains__(self, game: object) -> bool:
        return game in self._registry

    def __iter__(self) -> Iterator[str]:
        return iter(tuple(self._registry))

    def __repr__(self) -> str:
        return repr(tuple(self._registry))

    def __eq__(self, other: object) -> bool:
        return tuple(self) == (tuple(other) if isinstance(other, Sequence) else other)

    def __hash__(self) -> int:
        return hash(tuple(self))


SCORERS = Registry(("shimoda", "shibuya", "tokaido", "kamakura", "shogun"))
"""The one list of the games: their modules in this package, in box order."""
GAME_IDS: Sequence[str] = _Ids(SCORERS)
"""The registered games' ids, in box order (read from :data:`SCORERS`)."""


def title(game: str) -> str:
    """A game's box title (``GameInfo.title``); the id itself for a game not registered.

    Args:
        game: A game id (a play imported from another app may hold any name).
    """
    return SCORERS[game].info.title if game in SCORERS else game


def short_title(game: str) -> str:
    """A game's short title (``GameInfo.short_title``); the id itself for a game not registered.

    Args:
        game: A game id (a play imported from another app may hold any name).
    """
    return SCORERS[game].info.short_title if game in SCORERS else game


class GameMissing(LookupError):
    """A registered game that lacks a part (its scorer, or its kit): the message names it."""


class UnknownGameError(LookupError):
    """A name that is none of the registered games.

    Attributes:
        name: The name as given.
        suggestion: The id of the game the name is closest to, if any is close.
    """

    def __init__(self, name: str, suggestion: str | None = None) -> None:
        self.name = name
        self.suggestion = suggestion
        from scorers._validate import quoted

        choices = ", ".join(SCORERS)
        hint = f"did you mean {suggestion}?" if suggestion else f"choose one of: {choices}"
        super().__init__(f"unknown game {quoted(name)} ({hint})")


def find_game(name: str) -> Scorer:
    """Find a game by id, title or alias, ignoring case, blanks and punctuation.

    Raises:
        UnknownGameError: When no game has that name, with the closest game
            when one is close ("tokaidoo", "shog", "kamakura colection").
    """
    from scorers._core import matches

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

    from scorers._core import _fold

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
