"""One kit per game: every fact and face of a game that is not pure scoring.

A game is its scorer (``scorers/<id>.py``: ``INFO``, ``parse``, ``score``), its
kit (``companion/kits/<id>/``) and its rules folder (``companion/rules/<id>/``).
The kit holds the set-up checklist and draws, the round words and the round
tracker's rule, the entry codes, the play-along flow and the one description
of the score pad that the terminal pad and the web pad are both drawn from
(:mod:`companion.kits.pad`). The faces (terminal, widgets, notebooks, CLI)
read a game's kit and never branch on a game id.

Kits are looked up through :data:`KITS` by game id, lazily: a kit's module is
imported the first time it is asked for, so a command about one game never
loads the others. A built-in game's kit is ``companion.kits.<id>``; a game
registered with :func:`register` (a plugin, or a test's own game) names its
kit's module itself.

Example:
    >>> from companion.kits import KITS
    >>> KITS["tokaido"].rounds.text(2)
    'Stage 2: to the second inn'
    >>> sorted(KITS) == sorted(SCORERS)
    True
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from scorers import SCORERS, GameMissing

if TYPE_CHECKING:
    from companion.kits.pad import LineEntry, PadSpec
    from companion.kits.rounds import Rounds


class KitMissing(GameMissing):
    """A registered game whose kit lacks something a face needs (the message names it)."""


@dataclass(frozen=True)
class PadOptions:
    """What a score pad is drawn for.

    Attributes:
        players: How many columns (sides, in a team game).
        names: The columns' names (people, or sides).
        teams: Played in two teams (each column a side of two people).
        context: What the play-along flow knows by the end (Shogun's year, the
            merchants in play...): keys are the kit's own.
    """

    players: int
    names: tuple[str, ...] = ()
    teams: bool = False
    context: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Kit:
    """Everything about one game that is not pure scoring.

    Attributes:
        game: The game id (its scorer's ``INFO.id``).
        checklist: The set-up steps for a player count, in the rulebook's order.
        rounds: The round words, the last round and the round tracker's rule.
        pad: The score pad's rows for :class:`PadOptions`, in the order shown
            (the one description both pads are drawn from).
        flow: The module holding the play-along flows: ``flow(t)`` (the whole
            game) and ``score_only(t)`` (just the end count), each returning
            a :class:`companion.play.common.Outcome`.
        offers: Checklist steps (0-based) the companion offers to do, by offer.
        later: Checklist steps (0-based) said again later if skipped, by where.
        draws: The set-up draws for seats ``Player 1``.. and a seed (JSON), or
            ``None`` when the game has none.
        describe_draws: The draws in words, one line each.
        seat_label: What a seat is called before a name is typed (``Red 1``),
            given the seat and the most players.
        team_names: A team game's sides before they are named (``Red``, ``Blue``).
        pad_width: The least width of a player's column on the web pad.
        label_width: The width of the web pad's row labels.
        drawing: The web pad's picture of the score file so far (SVG), if any.
        css: The web pad's own style rules, ``PAD`` standing for the pad
            (``PAD .grid { --companion-label: 9em; }``).
        line_entry: Some rows of a column typed in one line of codes on the web
            pad (Shimoda's street of seven shop cards), ``None`` for none.
    """

    game: str
    checklist: Callable[[int], list[str]]
    rounds: Rounds
    pad: Callable[[PadOptions], PadSpec]
    flow: str
    offers: Mapping[int, str] = field(default_factory=dict)
    later: Mapping[int, str] = field(default_factory=dict)
    draws: Callable[[list[str], int], dict[str, Any]] | None = None
    describe_draws: Callable[[dict[str, Any]], list[str]] = lambda drawn: []
    seat_label: Callable[[int, int], str] = lambda seat, players: f"Player {seat + 1}"
    team_names: tuple[str, ...] = ("Team 1", "Team 2")
    pad_width: str = "9em"
    css: str = ""
    label_width: str = "var(--companion-label, max-content)"
    drawing: Callable[[dict[str, Any], list[str]], str] | None = None
    line_entry: LineEntry | None = None

    def flows(self) -> Any:
        """The module of the play-along flows (imported when first asked)."""
        try:
            module = importlib.import_module(self.flow)
        except Exception as error:
            raise KitMissing(f"{self.game}: {missing(self.flow, error)}") from None
        for name in ("flow", "score_only"):
            if not callable(getattr(module, name, None)):
                raise KitMissing(f"{self.game}: {self.flow} has no {name}(t)")
        return module


def missing(module: str, error: Exception) -> str:
    """Why ``module`` did not load, in a few words: missing itself, or failing inside."""
    name = error.name if isinstance(error, ModuleNotFoundError) else None
    if name is not None and (module == name or module.startswith(name + ".")):
        return f"{module} is missing"
    return f"{module} does not load: {type(error).__name__}: {error}"


class Kits(Mapping[str, Kit]):
    """The kits of the registered games, by id, in box order (:data:`scorers.SCORERS`)."""

    def __init__(self) -> None:
        self._modules: dict[str, str] = {}
        self._loaded: dict[str, Kit] = {}

    def module_of(self, game: str) -> str:
        """The module that defines ``game``'s kit as ``KIT``."""
        return self._modules.get(game, f"{__name__}.{game}")

    def __getitem__(self, game: str) -> Kit:
        if game not in self._loaded:
            if game not in SCORERS:
                raise KeyError(game)
            try:
                module = importlib.import_module(self.module_of(game))
            except Exception as error:
                raise KitMissing(
                    f"{game}: no kit ({missing(self.module_of(game), error)})"
                ) from None
            kit = getattr(module, "KIT", None)
            if not isinstance(kit, Kit) or kit.game != game:
                raise KitMissing(f"{game}: {self.module_of(game)} defines no KIT for {game}")
            self._loaded[game] = kit
        return self._loaded[game]

    def __iter__(self) -> Iterator[str]:
        return iter(SCORERS)

    def __len__(self) -> int:
        return len(SCORERS)

    def __contains__(self, game: object) -> bool:
        return game in SCORERS

    def ready(self) -> list[str]:
        """The games whose kit loads, in box order (a game without one has no page)."""
        found = []
        for game in self:
            try:
                self[game]
            except KitMissing:
                continue
            found.append(game)
        return found

    def register(self, game: str, module: str) -> None:
        """Name the module holding ``game``'s kit (a game that is not built in)."""
        self._modules[game] = module
        self._loaded.pop(game, None)


KITS = Kits()
"""Every registered game's kit, by id."""


def register(game: str, *, scorer: str, kit: str, rules: Path | None = None) -> None:
    """Register a game that is not built in: its scorer, its kit and its rules folder.

    Nothing is imported here: the scorer and the kit are loaded when first used.

    Args:
        game: The game id (its scorer's ``INFO.id``).
        scorer: The module with ``INFO``, ``parse`` and ``score``.
        kit: The module defining ``KIT``.
        rules: The folder of its rules topics.
    """
    from companion.rules import add_folder

    SCORERS.register(game, scorer)
    KITS.register(game, kit)
    if rules is not None:
        add_folder(game, rules)
