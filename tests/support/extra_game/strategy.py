"""Valid Orchard score files, for the conformance tests over every registered scorer."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from tests.support.strategies import Draw, names


@st.composite
def orchard(draw: Draw) -> dict[str, Any]:
    count = draw(st.integers(2, 4))
    players = [
        {
            "name": name,
            "apples": draw(st.integers(0, 30)),
            "pears": draw(st.integers(0, 20)),
            "plums": draw(st.integers(0, 10)),
            "baskets": draw(st.integers(0, 6)),
        }
        for name in names(count)
    ]
    return {"players": players}


STRATEGY = orchard()
