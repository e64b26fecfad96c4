"""Merging two tables' changes of one play, value by value, against the version both
started from (a three-way merge).

A value changed at one table only is taken from it; a value changed the same way
at both is taken once; a value changed differently at both is a conflict. The
conflicting values are taken from the newer change (the later edit, by its
time, then by table id) and the other table's values are kept whole, to be
settled by a person. Objects merge key by key; lists of the same length
(a play's sides and people) merge item by item; anything else is one value.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

_MISSING: Any = object()


@dataclass(frozen=True)
class Differs:
    """One value both tables changed differently.

    Attributes:
        path: Where it is in the play's entry (keys and list positions).
        base: What it was before (``None``: it was not there).
        kept: The value kept now.
        other: The other table's value.
    """

    path: tuple[str | int, ...]
    base: Any
    kept: Any
    other: Any

    def to_json(self) -> dict[str, Any]:
        """As the ledger keeps it."""
        return {"path": list(self.path), "base": self.base, "kept": self.kept, "other": self.other}

    @staticmethod
    def from_json(data: Any) -> Differs | None:
        """One kept by the ledger, or ``None`` when it is not one."""
        if not isinstance(data, dict) or not isinstance(data.get("path"), list):
            return None
        path = tuple(p for p in data["path"] if isinstance(p, str | int))
        return Differs(path, data.get("base"), data.get("kept"), data.get("other"))


@dataclass
class Merged:
    """A three-way merge of one play.

    Attributes:
        kept: The merge with the newer side's value wherever both changed.
        other: The same merge with the older side's values there.
        differs: The values both changed differently (empty: no conflict).
    """

    kept: Any
    other: Any
    differs: list[Differs] = field(default_factory=list)


def merge(base: Any, newer: Any, older: Any) -> Merged:
    """Merge ``newer`` and ``older`` (two tables' versions) against ``base``.

    Args:
        base: The version both started from (``None``: none known, every
            difference is a conflict).
        newer: The version changed later: its values win a conflict for now.
        older: The version changed earlier.
    """
    differs: list[Differs] = []
    start = _MISSING if base is None else base
    kept = _merge(start, newer, older, (), differs, prefer_newer=True)
    other = _merge(start, newer, older, (), [], prefer_newer=False)
    return Merged(kept, other, differs)


def _merge(
    b: Any,
    n: Any,
    o: Any,
    path: tuple[str | int, ...],
    differs: list[Differs],
    *,
    prefer_newer: bool,
) -> Any:
    if n == o:
        return n
    if n == b:
        return o
    if o == b:
        return n
    if isinstance(n, dict) and isinstance(o, dict):
        start = b if isinstance(b, dict) else {}
        out: dict[str, Any] = {}
        for key in [*n, *(k for k in o if k not in n)]:
            value = _merge(
                start.get(key, _MISSING),
                n.get(key, _MISSING),
                o.get(key, _MISSING),
                (*path, key),
                differs,
                prefer_newer=prefer_newer,
            )
            if value is not _MISSING:
                out[key] = value
        return out
    if isinstance(n, list) and isinstance(o, list) and len(n) == len(o):
        start_list = b if isinstance(b, list) and len(b) == len(n) else [_MISSING] * len(n)
        return [
            _merge(x, y, z, (*path, k), differs, prefer_newer=prefer_newer)
            for k, (x, y, z) in enumerate(zip(start_list, n, o, strict=True))
        ]
    differs.append(Differs(path, None if b is _MISSING else b, _plain(n), _plain(o)))
    return n if prefer_newer else o


def _plain(value: Any) -> Any:
    return None if value is _MISSING else value


def describe(path: tuple[str | int, ...], entry: Any) -> str:
    """A value's place in a play's entry in words, such as ``Cho's total`` or ``the notes``."""
    words = {
        "notes": "the notes",
        "duration_min": "the length",
        "location": "the place",
        "played_at": "the date",
        "game": "the game",
        "score_file": "the score file",
        "events": "the answers played along",
        "expansions": "the expansions",
        "status": "the status",
        "ignored": "whether it counts",
        "start_player": "the start player",
        "people": "the people",
        "result": "the result",
    }
    if not path:
        return "the whole game"
    if path[0] == "result" and len(path) >= 3 and path[1] == "players" and isinstance(path[2], int):
        name = _name_at(entry, ("result", "players", path[2]))
        rest = " ".join(str(p) for p in path[3:]) or "side"
        return f"{name}'s {rest}"
    if path[0] == "people" and len(path) >= 2 and isinstance(path[1], int):
        name = _name_at(entry, ("people", path[1]))
        rest = " ".join(str(p) for p in path[2:]) or "entry"
        return f"{name}'s {rest} among the people"
    if path[0] == "result" and len(path) >= 2:
        return "the " + " ".join(str(p) for p in path[1:])
    head = words.get(str(path[0]), f"the {path[0]}")
    return head if len(path) == 1 else f"{head} ({' '.join(str(p) for p in path[1:])})"


def _name_at(entry: Any, path: tuple[str | int, ...]) -> str:
    node = entry
    for step in path:
        if isinstance(node, dict) and isinstance(step, str):
            node = node.get(step)
        elif isinstance(node, list) and isinstance(step, int) and 0 <= step < len(node):
            node = node[step]
        else:
            return f"seat {path[-1]}"
    if isinstance(node, dict) and isinstance(node.get("name"), str):
        return str(node["name"])
    return f"seat {path[-1]}"


def shown(value: Any, limit: int = 60) -> str:
    """A value in a line: text quoted, cut to ``limit`` characters."""
    import json

    if value is None:
        text = "nothing"
    elif isinstance(value, str):
        text = json.dumps(value, ensure_ascii=False)
    else:
        text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= limit else text[: limit - 1] + "…"
