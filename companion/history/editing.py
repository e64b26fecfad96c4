"""Changing a recorded game: renames, a team's members, the start player, details,
and a new score file that re-scores it."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from companion.history.model import Person, Play, derive_people, seat_order
from companion.history.rescoring import rescore
from companion.history.user_text import clean_text
from scorers.names import InvalidName, clean_name, name_key


class EditError(ValueError):
    """An edit that cannot be made; ``problems`` lists the reasons, if several."""

    def __init__(self, message: str, problems: list[str] | None = None) -> None:
        super().__init__(message)
        self.problems = problems or []


def _clean(name: str, what: str = "name") -> str:
    try:
        return clean_name(name, what=what)
    except InvalidName as error:
        raise EditError(f"{name!r}: {error}") from error


def edit_play(
    play: Play,
    *,
    renames: dict[str, str] | None = None,
    members: dict[str, list[str]] | None = None,
    start: str | None = None,
    played_at: str | None = None,
    location: str | None = None,
    notes: str | None = None,
    duration_min: int | None = None,
    score_file: str | None = None,
) -> Play:
    """Return ``play`` with the changes applied; ``None`` leaves a field as it is.

    A new score file, or a rename or new members in a game that has one, is
    validated and re-scored, so the result always matches the score file.

    Args:
        play: The recorded game.
        renames: Old name → new name, for people and teams (case is ignored
            in the old name).
        members: Team name → its members in seat order: names the people of
            a team, e.g. a game saved before teams were people.
        start: The name of the person who started.
        played_at: The new time (stored form).
        location: Where it was played.
        notes: The new notes.
        duration_min: Minutes played.
        score_file: A new score file's text.

    Raises:
        EditError: A name is unknown, invalid or clashes, or the score file is invalid.
    """
    renames = {old: _clean(new) for old, new in (renames or {}).items()}
    members = {side: [_clean(m) for m in names] for side, names in (members or {}).items()}
    text = score_file if score_file is not None else play.score_file
    result = play.result
    people = play.persons
    if text is not None and (score_file is not None or renames or members):
        text, result = _rescore_edited(play.game, text, renames, members)
        people = derive_people(text, result)
    else:
        if renames:
            result, people = _rename(result, people, renames)
        if members:
            people = _with_members(result, people, members)
    changed = replace(
        play,
        score_file=text,
        result=result,
        people=people,
        played_at=played_at or play.played_at,
        location=play.location if location is None else location,
        notes=play.notes if notes is None else clean_text(notes, lines=True),
        duration_min=play.duration_min if duration_min is None else duration_min,
    )
    if start is not None:
        keys = [name_key(p.name) for p in people]
        if name_key(start) not in keys:
            raise EditError(f"no person named {start!r} in this game")
        changed = replace(changed, start_player=keys.index(name_key(start)))
    return changed


def _rescore_edited(
    game: str,
    text: str,
    renames: dict[str, str],
    members: dict[str, list[str]],
) -> tuple[str, dict[str, Any]]:
    """The score file with the renames and members written in, and its new result."""
    from scorers import ScoreFileError

    def change(data: object) -> object:
        return _change_file(data, renames, members, game)

    try:
        return rescore(game, text, change if renames or members else None)
    except ScoreFileError as error:
        raise EditError(
            f"the score file is not a valid {game} score file",
            [str(p) for p in error.problems],
        ) from error


def _change_file(
    data: object, renames: dict[str, str], members: dict[str, list[str]], game: str = ""
) -> object:
    players = data.get("players") if isinstance(data, dict) else None
    if not isinstance(players, list) or not isinstance(data, dict):
        raise EditError("the score file has no players to change")
    wanted = {name_key(old): old for old in renames}
    _rename_elsewhere(data, game, wanted, renames)
    found: set[str] = set()
    sides = {name_key(side): side for side in members}
    named: set[str] = set()
    for entry in players:
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
            continue
        key = name_key(entry["name"])
        if key in sides:
            named.add(key)
            entry["members"] = list(members[sides[key]])
        if key in wanted:
            found.add(key)
            entry["name"] = renames[wanted[key]]
        listed = entry.get("members")
        if isinstance(listed, list):
            for k, member in enumerate(listed):
                if isinstance(member, str) and name_key(member) in wanted:
                    found.add(name_key(member))
                    listed[k] = renames[wanted[name_key(member)]]
    _check_found(renames, found, "person or team")
    _check_found(members, named, "team")
    return data


def _rename_elsewhere(
    data: dict[str, Any], game: str, wanted: dict[str, str], renames: dict[str, str]
) -> None:
    """Rename the people named in the score file's other places (the game says where)."""
    from scorers import SCORERS

    if not renames or game not in SCORERS:
        return
    for listed, field_name in SCORERS[game].info.name_fields:
        items = data.get(listed)
        for item in items if isinstance(items, list) else []:
            named = item.get(field_name) if isinstance(item, dict) else None
            if isinstance(named, str) and name_key(named) in wanted:
                item[field_name] = renames[wanted[name_key(named)]]


def _rename(
    result: dict[str, Any], people: tuple[Person, ...], renames: dict[str, str]
) -> tuple[dict[str, Any], tuple[Person, ...]]:
    wanted = {name_key(old): new for old, new in renames.items()}
    sides = [p["name"] for p in result["players"]]
    found = {name_key(n) for n in sides} | {name_key(p.name) for p in people}
    _check_found(renames, found & set(wanted), "person or team")
    new_sides = [wanted.get(name_key(n), n) for n in sides]
    new_people = tuple(replace(p, name=wanted.get(name_key(p.name), p.name)) for p in people)
    if len({name_key(n) for n in new_sides}) != len(new_sides):
        raise EditError("after renaming, two sides would have the same name")
    keys = [name_key(p.name) for p in new_people if not p.anonymous]
    if len(set(keys)) != len(keys):
        raise EditError("after renaming, one person would be in this game twice")
    renamed = dict(zip(sides, new_sides, strict=True))
    return {
        **result,
        "players": [{**p, "name": renamed[p["name"]]} for p in result["players"]],
        "winners": [renamed.get(n, n) for n in result["winners"]],
    }, new_people


def _with_members(
    result: dict[str, Any], people: tuple[Person, ...], members: dict[str, list[str]]
) -> tuple[Person, ...]:
    sides = [p["name"] for p in result["players"]]
    keys = [name_key(s) for s in sides]
    teams: list[list[Person]] = [[p for p in people if p.side == k] for k in range(len(sides))]
    for side, names in members.items():
        if name_key(side) not in keys:
            raise EditError(f"no team named {side!r} in this game")
        index = keys.index(name_key(side))
        if not names:
            raise EditError(f"give the members of {side} (--members '{side}=Aki,Ben')")
        teams[index] = [Person(n, index) for n in names]
    everyone = [name_key(p.name) for team in teams for p in team if not p.anonymous]
    if len(set(everyone)) != len(everyone):
        raise EditError("one person would be in this game twice")
    by_name = {(k, p.name): p for k, team in enumerate(teams) for p in team}
    order = seat_order([[p.name for p in team] for team in teams])
    return tuple(by_name[(side, name)] for side, name in order)


def _check_found(wanted: dict[str, Any], found: set[str], what: str) -> None:
    missing = [old for old in wanted if name_key(old) not in found]
    if missing:
        raise EditError(f"no {what} named {', '.join(repr(m) for m in missing)} in this game")
