"""Why a game just scored was won: its explanation, with a team's members from its score file.

This is on the way of every ``companion score`` that prints a table, so it
imports :mod:`companion.analysis.explain` (named tuples, no dataclasses) and reads no
history: what it needs besides the result is in the score file. For a
recorded play, see :func:`companion.history.after_game.explanation`.
"""

from __future__ import annotations

import json
from typing import Any


def explain_result(result: dict[str, Any], score_file: str | None) -> list[str]:
    """The sentences of :func:`companion.analysis.explain.explain` for a result and its score file.

    A team's members are read from the score file's players (``members``);
    a Shogun file of the first winter (``"year": 1``) is an interim scoring,
    whose sentences say who leads (the rule of
    :func:`companion.history.model.status_of`, without loading the history).

    Args:
        result: The result document (``companion score --json``).
        score_file: The score file it was scored from, or ``None``.
    """
    from companion.analysis.explain import explain

    try:
        data = json.loads(score_file) if score_file else None
    except ValueError:
        data = None
    interim = result["game"] == "shogun" and isinstance(data, dict) and data.get("year") == 1
    return explain(result, members=file_members(data, result), interim=interim)


def file_members(data: object, result: dict[str, Any]) -> dict[str, list[str]] | None:
    """Side name → members, from a parsed score file whose players are teams; else ``None``."""
    entries = data.get("players") if isinstance(data, dict) else None
    sides = result["players"]
    if not isinstance(entries, list) or len(entries) != len(sides):
        return None
    members = {}
    for entry, side in zip(entries, sides, strict=True):
        people = entry.get("members") if isinstance(entry, dict) else None
        if isinstance(people, list) and people and all(isinstance(m, str) for m in people):
            members[side["name"]] = list(people)
    return members or None
