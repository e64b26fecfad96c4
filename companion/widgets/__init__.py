"""Widget builders for the notebooks and the web page (all logic lives here, tested).

``game_page(game)`` is a game's whole page: the player count, the set-up
checklist with its draws, the round tracker and the score form.
``history_page()`` is the stats page.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import ipywidgets as w

from companion.play.setup import PLAYER_COUNTS
from companion.widgets.history import history_page
from companion.widgets.score_form import ScoreForm
from companion.widgets.setup import SetupPanel
from companion.widgets.tracker import Tracker

__all__ = ["GamePage", "ScoreForm", "SetupPanel", "Tracker", "game_page", "history_page"]


class GamePage:
    """One game's page; choosing the player count rebuilds the three parts.

    Args:
        game: The game id.
        players: The starting player count (the game's smallest by default).
        db: The history file (default: ``COMPANION_DB`` or the user's).
    """

    def __init__(self, game: str, players: int | None = None, *, db: Path | None = None):
        self.game = game
        self.db = db
        counts = PLAYER_COUNTS[game]
        self.count = w.Dropdown(
            options=[str(n) for n in counts],
            value=str(players or counts[0]),
            description="Players",
        )
        self.count.add_class("player-count")
        self.body = w.VBox()
        self.count.observe(lambda _: self.build(), names="value")
        self.widget = w.VBox([w.HTML(f"<h2>{title(game)}</h2>"), self.count, self.body])
        self.build()

    def build(self) -> None:
        """(Re)build set-up, tracker and score form for the chosen player count."""
        players = int(self.count.value)
        teams = self.game == "shibuya" and players == 4
        sides = 2 if self.game == "shibuya" else players
        self.setup = SetupPanel(self.game, players)
        self.tracker = Tracker(self.game, [f"Player {k}" for k in range(1, players + 1)])
        self.form = ScoreForm(self.game, sides, teams=teams, db=self.db)
        self.body.children = [
            self.setup.widget,
            self.tracker.widget,
            w.HTML("<h3>Score</h3>"),
            self.form.widget,
        ]


def title(game: str) -> str:
    """The box title of a game id."""
    from scorers import SCORERS

    return SCORERS[game].info.title


def game_page(game: str, players: int | None = None, **options: Any) -> w.VBox:
    """The widget of :class:`GamePage`, for a notebook cell."""
    return GamePage(game, players, **options).widget
