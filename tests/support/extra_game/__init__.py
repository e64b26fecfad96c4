"""Orchard: a small sixth game that exists only in the test suite.

Importing this package registers it (``COMPANION_GAMES=tests.support.extra_game``
does so in every process the tests start): its scorer, its kit and its rules
folder, and nothing else anywhere. It proves that a game is its scorer, its kit
and its rules topics: every face of the companion plays it without a line about it.
"""

from pathlib import Path

from companion.kits import register

GAME = "orchard"

register(
    GAME,
    scorer=f"{__name__}.scorer",
    kit=f"{__name__}.kit",
    rules=Path(__file__).resolve().parent / GAME,
)
