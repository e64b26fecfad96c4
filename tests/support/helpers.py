"""Helpers shared by the scorer tests."""

from __future__ import annotations

from typing import Any

import pytest

from scorers import SCORERS, ScoreFileError


def score(game: str, data: dict[str, Any]) -> dict[str, Any]:
    """Score ``data`` and return the result document."""
    return SCORERS[game].score_json(data).to_json()


def problems(game: str, data: object) -> list[str]:
    """The problems ``data`` has, as ``path: message`` lines."""
    with pytest.raises(ScoreFileError) as caught:
        SCORERS[game].score_json(data)
    return [str(p) for p in caught.value.problems]


def expect(
    result: dict[str, Any],
    breakdowns: list[dict[str, int]],
    ranks: list[int],
    winners: list[str],
    tiebreak: str | None = None,
) -> None:
    """Assert the whole outcome: breakdowns, totals, ranks, winners and tie-break."""
    assert [p["breakdown"] for p in result["players"]] == breakdowns
    assert [p["total"] for p in result["players"]] == [sum(b.values()) for b in breakdowns]
    assert [p["rank"] for p in result["players"]] == ranks
    assert result["winners"] == winners
    assert result["tiebreak"] == tiebreak
