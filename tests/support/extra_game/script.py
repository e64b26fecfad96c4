"""Orchard played along, answer by answer (the scripted games' shape)."""

from tests.support.play_helpers import sel, txt
from tests.support.play_scripts import Script

SCRIPTS = [
    Script(
        "orchard",
        3,
        ["play", "orchard"],
        [txt("3"), txt("Aki"), txt("Ben"), txt("Cho"), txt(""), sel(1)],
        [txt("3 1 2"), txt("2 2 1"), txt("0 1 1"), txt("1 2 3"), txt("")],
        (0, txt("31 1 2")),
        [txt("A1"), txt("3")],
        ["Ben"],
    )
]
"""Ben starts; Aki 3+4+0 = 7, Ben 1+4+3 = 8, Cho 2+2+3 = 7."""
