"""Shogun's winter entry codes: what changed since the last winter, the rice, what revolts took.

Pure (no prompts), so the flow, its previews and the tests read them alike.
Each code says plainly what it takes:

- **changes** (the second winter's holdings): a region letter (``b y r p g``)
  and what changed there: ``+`` a province gained, ``-`` one lost, ``c t n``
  a castle, temple or Noh theatre (gained, or lost with a province after
  ``-``). A letter alone is a province gained: ``by-`` is one brown province
  more and one yellow fewer; ``b+c`` a brown province gained with its castle;
  ``gc`` a castle built in green; ``r-t`` a red province lost with its temple.
  A region's whole holding is typed after ``=`` (``b=3102``). Digits right
  after a region letter (``b1``) are refused: "brown is now 1" and "one more
  brown" would read alike.
- **rice**: only the players short of rice, by name and rice left (``c6``,
  ``cho 6``), or every player's rice in seat order (``6 5 7 4 5``); nothing
  when every province is fed.
- **taken** (a revolt's result): a region letter per province lost, with the
  buildings that stood on it (``r``, ``bc``); nothing when the revolts were put
  down. A revolt takes one province at most.

Example:
    >>> apply_changes({"brown": [3, 1, 0, 2]}, "b-n y")
    ({'brown': [2, 1, 0, 1], 'yellow': [1, 0, 0, 0]}, None)
    >>> apply_taken({"brown": [3, 1, 0, 2]}, "bc", 1, "Cho")
    ({'brown': [2, 0, 0, 2]}, 1, None)
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from companion.kits.shogun.codes import COUNTS, region_problem
from companion.play.table import Refusal
from companion.wording import plural
from scorers.shogun import REGIONS

Grid = dict[str, list[int]]
"""Region → its four counts: provinces castles temples theatres."""
BUILDING_CODES = {"c": 1, "t": 2, "n": 3}
"""A building's letter → its place in a region's counts (castle, temple, Noh theatre)."""
BUILDING_WORDS = {1: "castle", 2: "temple", 3: "theatre"}
CHANGES_HELP = (
    "b+ a province gained (or just b), b- one lost, bc a castle built (t temple, n theatre), "
    "b+c gained with its castle, b-c lost with it, b=3102 a whole region"
)
"""The changes code, shown below the prompt before anything is typed."""
TAKEN_HELP = (
    "a region letter per province lost, with c t n for a castle, temple or theatre "
    "that stood on it: r, bc"
)
"""What the revolts took, shown below the prompt before anything is typed."""
RICE_HELP = "name and rice of each player short of rice (c4, cho 4 e2), or everyone's in seat order"
"""The rice code, shown below the prompt before anything is typed."""


def _region(letter: str) -> str | None:
    return next((r for r in REGIONS if r[0] == letter), None)


def grid_text(grid: Grid) -> str:
    """A grid as whole-region codes: ``b3102 y2100`` (``-`` for nothing held)."""
    text = " ".join(f"{r[0]}{''.join(str(n) for n in grid[r])}" for r in REGIONS if r in grid)
    return text or "-"


def _settled(grid: Grid) -> Grid:
    """In the regions' order, without the regions where nothing is held."""
    return {r: list(grid[r]) for r in REGIONS if r in grid and any(grid[r])}


def _check(grid: Grid, named: str, spans: dict[str, tuple[int, int]]) -> str | None:
    who = named or "the player"
    for region, counts in grid.items():
        span = spans.get(region, (0, 0))
        if counts[0] < 0:
            return Refusal(
                f"{who} would hold {counts[0]} {region} provinces: fewer lost, or none", span
            )
        for k in range(1, len(COUNTS)):
            if counts[k] < 0:
                return Refusal(f"{who} had no {BUILDING_WORDS[k]} in {region} to lose", span)
        problem = region_problem(region, counts)
        if problem:
            return Refusal(f"{named} · {problem}" if named else problem, span)
    return None


def apply_changes(known: Grid, text: str, who: str = "") -> tuple[Grid | None, str | None]:
    """The holding after the changes typed in ``text`` (see the module's words).

    Returns:
        The new holding (regions where nothing is held left out), or ``None`` and
        what is wrong: a :class:`Refusal` whose span is the region's entry at fault.
    """
    grid = {r: [*known.get(r, [0, 0, 0, 0])] for r in REGIONS}
    at = [i for i, c in enumerate(text.lower()) if not re.fullmatch(r"[\s,;]", c)]
    compact = "".join(text.lower()[i] for i in at)
    spans: dict[str, tuple[int, int]] = {}

    def span(first: int, last: int) -> tuple[int, int]:
        """The typed characters of ``compact[first:last]``."""
        return (at[first], at[last - 1] + 1) if last > first else (len(text), len(text))

    def refused(problem: str, first: int, last: int) -> tuple[None, str]:
        return None, Refusal(f"{who} · {problem}" if who else problem, span(first, last))

    k = 0
    while k < len(compact):
        letter = compact[k]
        entry = k
        region = _region(letter)
        if region is None:
            if letter in BUILDING_CODES or letter in "+-":
                return refused(
                    f"{letter!r}: start with the region letter (b y r p g), e.g. b{letter}",
                    k,
                    k + 1,
                )
            if letter.isdigit():
                return refused(
                    "numbers only after = (b=3102: brown whole); b++ is two more", k, k + 1
                )
            return refused(
                f"{letter!r} is not a region: b y r p g (brown yellow red purple green)", k, k + 1
            )
        k += 1
        if k < len(compact) and compact[k] == "=":
            digits = re.match(r"=(\d{1,4}|-)", compact[k:])
            if digits is None:
                return refused(
                    f"{letter}=: {region} whole, e.g. {letter}=3102 ({letter}=0 for none)",
                    entry,
                    k + 1,
                )
            whole = [] if digits.group(1) == "-" else [int(c) for c in digits.group(1)]
            k += len(digits.group(0))
            problem = region_problem(region, whole) if any(whole) else None
            if problem:
                return refused(problem, entry, k)
            grid[region] = [*whole, *[0] * (len(COUNTS) - len(whole))]
            spans[region] = span(entry, k)
            continue
        if k < len(compact) and compact[k].isdigit():
            typed = letter + re.match(r"\d+", compact[k:]).group(0)  # type: ignore[union-attr]
            return refused(
                f"{typed} is a holding: {letter}={typed[1:]} for {region} now {typed[1:]}, "
                f"{letter}+ or {letter}- for one more or fewer",
                entry,
                entry + len(typed),
            )
        sign = 1
        changed = False
        while k < len(compact) and (compact[k] in "+-" or compact[k] in BUILDING_CODES):
            mark = compact[k]
            if mark in "+-":
                sign = 1 if mark == "+" else -1
                grid[region][0] += sign
            else:
                grid[region][BUILDING_CODES[mark]] += sign
            changed = True
            k += 1
        if not changed:
            grid[region][0] += 1
        spans[region] = span(entry, k)
    problem = _check(grid, who, spans)
    if problem:
        return None, problem
    return _settled(grid), None


def changes_said(known: Grid, after: Grid) -> str:
    """What changed, in words: ``brown 3→4 provinces, 1→2 castles; yellow lost``."""
    words = ("provinces", "castles", "temples", "theatres")
    parts = []
    for region in REGIONS:
        was = known.get(region, [0, 0, 0, 0])
        now = after.get(region, [0, 0, 0, 0])
        if was == now:
            continue
        moved = [
            f"{w}→{n} {words[i]}" for i, (w, n) in enumerate(zip(was, now, strict=True)) if w != n
        ]
        parts.append(f"{region} " + ", ".join(moved))
    return "; ".join(parts) if parts else "nothing changed"


def _typed_at(text: str, skip: str) -> tuple[str, list[int]]:
    """``text`` in lower case without the characters ``skip`` matches, and where each was typed.

    A character whose lower case is longer than one (``İ``) is kept as typed, so
    every character kept has its place in ``text``.
    """
    at = [i for i, c in enumerate(text) if not re.fullmatch(skip, c)]
    low = [text[i].lower() for i in at]
    return "".join(c if len(c) == 1 else text[i] for c, i in zip(low, at, strict=True)), at


def _span(at: list[int], first: int, last: int, length: int) -> tuple[int, int]:
    """The typed characters of ``compact[first:last]`` (the line's end when none)."""
    return (at[first], at[last - 1] + 1) if last > first else (length, length)


def read_rice(text: str, names: Sequence[str]) -> tuple[dict[int, int] | None, str | None]:
    """Seat → rice left, for the players typed (see the module's words).

    Returns:
        The rice typed (every seat for a row of numbers, else only the seats
        named), or ``None`` and what is wrong: a :class:`Refusal` whose span is
        the player's entry (or the number) at fault, naming the player.
    """
    words = [(m.group(0), m.span()) for m in re.finditer(r"[^\s,]+", text)]
    if not words:
        return {}, None
    if all(w.isascii() and w.isdigit() for w, _ in words):
        if len(words) != len(names):
            return None, (
                f"{len(names)} numbers, one per player in seat order, or only who is short "
                "by name and rice (e.g. c6)"
            )
        for seat, (word, span) in enumerate(words):
            if int(word) > 99:
                return None, Refusal(
                    f"{names[seat]} · {int(word)} rice: the supply track goes to 99 at most", span
                )
        return {seat: int(w) for seat, (w, _) in enumerate(words)}, None
    keys = ["".join(ch for ch in n.casefold() if ch.isalpha()) for n in names]
    found: dict[int, int] = {}
    compact, at = _typed_at(text, r"[\s,]")
    for match in re.finditer(r"([^\W\d_]*)(\d*)", compact):
        letters, digits = match.group(1).casefold(), match.group(2)
        if not letters and not digits:
            continue
        span = _span(at, match.start(), match.end(), len(text))
        if not letters:
            return None, Refusal(
                f"{digits}: whose rice? the name first, e.g. {keys[0][:1]}{digits}", span
            )
        seats = [s for s, k in enumerate(keys) if k.startswith(letters)]
        exact = [s for s, k in enumerate(keys) if k == letters]
        seats = exact or seats
        if not seats:
            return None, Refusal(f"{letters!r} is no player's name: {', '.join(names)}", span)
        if len(seats) > 1:
            return None, Refusal(
                f"{letters!r}: {' or '.join(names[s] for s in seats)}? type more letters, "
                "or every player's rice in seat order",
                span,
            )
        who = names[seats[0]]
        if not digits:
            return None, Refusal(f"{who} · how much rice is left? e.g. {letters}{4}", span)
        if seats[0] in found:
            return None, Refusal(f"{who} is given twice", span)
        if int(digits) > 99:
            return None, Refusal(
                f"{who} · {int(digits)} rice: the supply track goes to 99 at most", span
            )
        found[seats[0]] = int(digits)
    return found, None


def apply_taken(
    held: Grid, text: str, revolts: int, who: str
) -> tuple[Grid | None, int, str | None]:
    """The holding after the revolts took what ``text`` says (see the module's words).

    Returns:
        The holding, the provinces lost, and ``None``; or ``None``, 0 and what is
        wrong: a :class:`Refusal` naming the player, whose span is the province
        entry at fault (the typed line is kept, only that entry is typed again).
    """
    grid = {r: [*held.get(r, [0, 0, 0, 0])] for r in REGIONS}
    compact, at = _typed_at(text, r"[\s,;]")
    if compact == "-":  # "- for none", as other questions take it
        compact = ""
    named = f"{who} · " if who else ""

    def refused(problem: str, first: int, last: int) -> tuple[None, int, str]:
        return None, 0, Refusal(problem, _span(at, first, last, len(text)))

    entries: list[tuple[str, int, int, set[str]]] = []  # region, first, last, buildings
    k = 0
    while k < len(compact):
        letter = compact[k]
        entry = k
        region = _region(letter)
        if region is None:
            if letter in BUILDING_CODES:
                return refused(
                    f"{named}{letter!r}: the region letter first, e.g. b{letter}", k, k + 1
                )
            if letter.isdigit() or letter in "+=":
                end = k + len(re.match(r"[\d+=]*", compact[k:]).group(0))  # type: ignore[union-attr]
                return refused(
                    f"{named}{compact[k:end]}: type what the revolts took, not what is left: "
                    "a region letter per province lost (e.g. b)",
                    k,
                    end,
                )
            return refused(
                f"{named}{letter!r} is not a region: b y r p g (brown yellow red purple green)",
                k,
                k + 1,
            )
        k += 1
        if k < len(compact) and compact[k] == "-":
            k += 1
        on: set[str] = set()
        while k < len(compact) and compact[k] in BUILDING_CODES:
            mark = compact[k]
            if mark in on:
                return refused(
                    f"{named}{region}: a province holds one "
                    f"{BUILDING_WORDS[BUILDING_CODES[mark]]} at most",
                    entry,
                    k + 1,
                )
            on.add(mark)
            grid[region][BUILDING_CODES[mark]] -= 1
            k += 1
        if k < len(compact) and (compact[k].isdigit() or compact[k] in "+="):
            end = k + len(re.match(r"[\d+=]*", compact[k:]).group(0))  # type: ignore[union-attr]
            return refused(
                f"{named}{compact[entry:end]}: type what the revolts took, not what is left: "
                f"{letter} (a {region} province)",
                entry,
                end,
            )
        grid[region][0] -= 1
        entries.append((region, entry, k, on))
    lost = len(entries)
    if lost > revolts:
        return refused(
            f"{who} had {plural(revolts, 'revolt')}, and a revolt takes one "
            f"province at most: {plural(revolts, 'province')} lost at most",
            entries[revolts][1],
            entries[-1][2],
        )
    for region, counts in grid.items():
        typed = [e for e in entries if e[0] == region]
        if counts[0] < 0:
            had = held.get(region, [0])[0]
            some = f"only {had}" if had else "no"
            word = "provinces" if had > 1 else "province"
            last = typed[had] if had < len(typed) else typed[-1]
            return refused(
                f"{who} held {some} {region} {word}: the revolts cannot take more",
                last[1],
                last[2],
            )
        for b in range(1, len(COUNTS)):
            letter = next(c for c, i in BUILDING_CODES.items() if i == b)
            if counts[b] < 0:
                bad = next(e for e in reversed(typed) if letter in e[3])
                return refused(
                    f"{who} had no {BUILDING_WORDS[b]} in {region} to lose", bad[1], bad[2]
                )
            if counts[b] > counts[0]:
                bad = next(
                    (e for e in typed if letter not in e[3]), (region, 0, len(compact), set())
                )
                return refused(
                    f"{region}: each {region} province {who} holds has a "
                    f"{BUILDING_WORDS[b]}, so "
                    f"the lost one had one too: add {letter} ({region[0]}{letter})",
                    bad[1],
                    bad[2],
                )
    return _settled(grid), lost, None
