"""Widget builders for the notebooks and the web page (all logic lives here, tested).

``GamePage(game)`` is a game's whole page: the names, the set-up checklist
with its draws, the round tracker and the score pad, kept as a draft in the
history database. ``HistoryPage()`` lists, opens and deletes saved games and
shows the stats.
"""

from __future__ import annotations

from typing import Any

import ipywidgets as w

from companion.widgets.comm_filter import install as _check_front_ends
from companion.widgets.history import HistoryPage, history_page
from companion.widgets.page import GamePage
from companion.widgets.score_form import ScoreForm
from companion.widgets.setup import SetupPanel
from companion.widgets.tracker import Tracker
from scorers import title

_check_front_ends()  # a device changes only the inputs, in their shapes

__all__ = [
    "GamePage",
    "HistoryPage",
    "ScoreForm",
    "SetupPanel",
    "Tracker",
    "game_page",
    "history_page",
    "title",
]


def game_page(game: str, players: int | None = None, **options: Any) -> w.VBox:
    """The widget of :class:`GamePage`, for a notebook cell."""
    return GamePage(game, players, **options).widget
