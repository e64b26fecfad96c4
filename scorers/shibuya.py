"""Shibuya (2 sides: two players, or four players in two teams).

Rulebook: ``shibuya.txt`` ("How to Win", "For 4 Players", "Optional Rule").

Categories:
    goals: pawns of the side that stand on a goal (0 to 8).

A side wins when it has the target number of pawns at goal (6, or 4 with the
optional no-construction rule) or leads the other side by 3 or more. A file
where no side has won yet, or where both sides would have won, is invalid.
Four players: each side names its two members; the two-player rule applies to
each team (an assumption, the rulebook gives no team rule).
"""

from __future__ import annotations

from dataclasses import dataclass

from scorers._core import GameInfo, Result, make_result, read_root
from scorers._validate import Reader, ScoreFileError, index_path, key_path
from scorers.names import name_key

PAWNS = 8
TARGETS = {"standard": 6, "no_construction": 4}
LEAD = 3

INFO = GameInfo(
    id="shibuya",
    title="Shibuya",
    short_title="Shibuya",
    min_players=2,
    max_players=2,
    player_counts=(2, 4),
    categories=("goals",),
    labels={"goals": "the pawns at goal"},
    rulebook="shibuya.txt",
    team_counts=(4,),
    unit=("pawn at goal", "pawns at goal"),
    bounds={"goals": (0, PAWNS)},
)


@dataclass(frozen=True)
class Side:
    """One side: a player, or a team of two members."""

    name: str
    goals: int
    members: tuple[str, ...] = ()


@dataclass(frozen=True)
class Game:
    """A validated Shibuya score file."""

    variant: str
    sides: tuple[Side, ...]

    @property
    def target(self) -> int:
        """Pawns at goal needed to win."""
        return TARGETS[self.variant]


def parse(data: object) -> Game:
    """Validate a Shibuya score file.

    Raises:
        ScoreFileError: With every problem found.
    """
    r = Reader()
    root = read_root(
        r,
        data,
        INFO,
        keys=("variant",),
        player_required=("goals",),
        player_optional=("members",),
    )
    variant = r.field(
        root.data,
        "$",
        "variant",
        lambda v, p: r.choice(v, p, tuple(TARGETS), what="variant"),
        default="standard",
    )
    sides: list[Side] = []
    teams = [("members" in entry) for _, entry in root.players]
    if len(teams) == 2 and teams[0] != teams[1]:
        r.error("players", "either both sides list their two members (4 players) or neither does")
    seen: dict[str, tuple[str, str]] = {}
    for (path, entry), name in zip(root.players, root.names, strict=True):
        goals = r.field(entry, path, "goals", lambda v, p: r.integer(v, p, high=PAWNS))
        members = _read_members(r, entry, path, seen)
        if name is not None and goals is not None and members is not None:
            sides.append(Side(name, goals, members))
    r.raise_if_problems()
    game = Game(variant or "standard", tuple(sides))
    winner_of(game)
    return game


def _read_members(
    r: Reader, entry: dict[str, object], path: str, seen: dict[str, tuple[str, str]]
) -> tuple[str, ...] | None:
    if "members" not in entry:
        return ()
    members_path = key_path(path, "members")
    items = r.array(entry["members"], members_path, min_len=2, max_len=2, what="members")
    if items is None or len(items) != 2:
        return None
    names = []
    for k, item in enumerate(items):
        item_path = index_path(members_path, k)
        name = r.name(item, item_path)
        if name is None:
            return None
        if name_key(name) in seen:
            where, other = seen[name_key(name)]
            same = "" if other == name else f" as {other!r}"
            r.error(item_path, f"{name!r} is already listed at {where}{same}")
            return None
        seen[name_key(name)] = (item_path, name)
        names.append(name)
    return tuple(names)


def winner_of(game: Game) -> int:
    """Return the index of the winning side.

    Raises:
        ScoreFileError: When no side has won yet, or both would have.
    """
    a, b = (side.goals for side in game.sides)
    target = game.target
    won = [mine >= target or mine - theirs >= LEAD for mine, theirs in ((a, b), (b, a))]
    if won == [True, True]:
        raise ScoreFileError.single(
            "players", f"both sides have {target} or more pawns at goal: only one can have won"
        )
    if won == [False, False]:
        raise ScoreFileError.single(
            "players",
            f"the game is not over: no side has {target} pawns at goal or leads by {LEAD}",
        )
    return won.index(True)


def score(game: Game) -> Result:
    """Score a validated Shibuya game: the winning side ranks 1, the other 2.

    The side that has won always has more pawns at goal, so ranking by goals
    gives the winner.
    """
    return make_result(
        INFO.id,
        [side.name for side in game.sides],
        [{"goals": side.goals} for side in game.sides],
    )
