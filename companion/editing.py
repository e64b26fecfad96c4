"""Changing a recorded game: renames, details, and a new score file that re-scores it."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from companion.history import Play


class EditError(ValueError):
    """An edit that cannot be made; ``problems`` lists the reasons, if several."""

    def __init__(self, message: str, problems: list[str] | None = None) -> None:
        super().__init__(message)
        self.problems = problems or []


def edit_play(
    play: Play,
    *,
    renames: dict[str, str] | None = None,
    played_at: str | None = None,
    location: str | None = None,
    notes: str | None = None,
    duration_min: int | None = None,
    score_file: str | None = None,
) -> Play:
    """Return ``play`` with the changes applied; ``None`` leaves a field as it is.

    A new score file, or a rename in a game that has one, is validated and
    re-scored, so the result always matches the score file.

    Raises:
        EditError: A rename names nobody or clashes, or the score file is invalid.
    """
    renames = renames or {}
    text = score_file if score_file is not None else play.score_file
    result = play.result
    if text is not None and (score_file is not None or renames):
        text, result = _rescore(play.game, text, renames)
    elif renames:
        result = _rename_result(play.result, renames)
    return replace(
        play,
        score_file=text,
        result=result,
        played_at=played_at or play.played_at,
        location=play.location if location is None else location,
        notes=play.notes if notes is None else notes,
        duration_min=play.duration_min if duration_min is None else duration_min,
    )


def _rescore(game: str, text: str, renames: dict[str, str]) -> tuple[str, dict[str, Any]]:
    from companion.scorefile import parse_json
    from scorers import SCORERS, ScoreFileError

    try:
        data = parse_json(text)
        if renames:
            data = _rename_file(data, renames)
            text = json.dumps(data, ensure_ascii=False)
        result = SCORERS[game].score_json(data).to_json()
    except ScoreFileError as error:
        raise EditError(
            f"the score file is not a valid {game} score file",
            [str(p) for p in error.problems],
        ) from error
    return text, result


def _rename_file(data: object, renames: dict[str, str]) -> object:
    players = data.get("players") if isinstance(data, dict) else None
    if not isinstance(players, list):
        raise EditError("the score file has no players to rename")
    found: set[str] = set()
    for entry in players:
        if not isinstance(entry, dict):
            continue
        if entry.get("name") in renames:
            found.add(entry["name"])
            entry["name"] = renames[entry["name"]]
        members = entry.get("members")
        if isinstance(members, list):
            for k, member in enumerate(members):
                if member in renames:
                    found.add(member)
                    members[k] = renames[member]
    _check_found(renames, found)
    return data


def _rename_result(result: dict[str, Any], renames: dict[str, str]) -> dict[str, Any]:
    names = [p["name"] for p in result["players"]]
    _check_found(renames, set(names) & set(renames))
    new = [renames.get(n, n) for n in names]
    if len(set(new)) != len(new):
        raise EditError("after renaming, two players would have the same name")
    return {
        **result,
        "players": [{**p, "name": renames.get(p["name"], p["name"])} for p in result["players"]],
        "winners": [renames.get(n, n) for n in result["winners"]],
    }


def _check_found(renames: dict[str, str], found: set[str]) -> None:
    missing = [old for old in renames if old not in found]
    if missing:
        raise EditError(f"no player named {', '.join(repr(m) for m in missing)} in this game")
