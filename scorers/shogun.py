"""Shogun (3 to 5 players), one winter scoring.

Rulebook: ``shogun.txt`` ("Winter Round" → "Scoring", "End of Game and
Scoring"), with the majority values of ``game-facts.md``.

Categories:
    previous: the score before this winter.
    provinces: 1 per province held.
    buildings: 1 per castle, temple and Noh theatre.
    castle_majorities: 3 per region where the player has the most castles.
    temple_majorities: 2 per region where the player has the most temples.
    theater_majorities: 1 per region where the player has the most theatres.

Tied leaders of a majority each get one point less (an assumption taken from
one implementation); nobody scores a majority with zero buildings. Year 2 is
the final scoring, tie-break most war chests, then a shared win; in year 1
equal totals share a rank.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from scorers._core import GameInfo, Result, Tiebreak, make_result, read_root
from scorers._validate import Reader, key_path


def first_winter(data: Mapping[str, object]) -> bool:
    """Whether a score file is the first winter's (``"year": 1``): an interim scoring.

    Only the second winter ends the game. The file need not be valid.
    """
    return data.get("year") == 1


REGIONS = ("brown", "yellow", "red", "purple", "green")
BUILDINGS = ("castles", "temples", "theaters")
MAJORITY = {"castles": 3, "temples": 2, "theaters": 1}
PROVINCES_PER_REGION = 9
PROVINCES_IN_PLAY = {3: 37, 4: 45, 5: 45}
BOARDS = ("sun", "moon")
MAX_SCORE_BEFORE = 210
"""One winter gives at most 45 provinces + 135 buildings + 30 majority points."""
MAX_WAR_CHESTS = 200
"""War chests a player can hold (12-18 at the start, a few more each round)."""
YEARS = (1, 2)
"""The two years; the second winter is the final scoring."""

INFO = GameInfo(
    id="shogun",
    title="Shogun",
    short_title="Shogun",
    min_players=3,
    max_players=5,
    player_counts=(3, 4, 5),
    categories=(
        "previous",
        "provinces",
        "buildings",
        "castle_majorities",
        "temple_majorities",
        "theater_majorities",
    ),
    labels={
        "previous": "the score before this winter",
        "provinces": "the provinces",
        "buildings": "the buildings",
        "castle_majorities": "the castle majorities",
        "temple_majorities": "the temple majorities",
        "theater_majorities": "the theatre majorities",
    },
    row_titles={"theater_majorities": "Theatre majorities"},
    rulebook="shogun.txt",
    bgg_id=20551,
    interim=first_winter,
    bounds={
        "year": (YEARS[0], YEARS[-1]),
        "score_before": (0, MAX_SCORE_BEFORE),
        "war_chests": (0, MAX_WAR_CHESTS),
        **{count: (0, PROVINCES_PER_REGION) for count in ("provinces", *BUILDINGS)},
    },
)


@dataclass(frozen=True)
class Region:
    """What one player holds in one region."""

    provinces: int = 0
    castles: int = 0
    temples: int = 0
    theaters: int = 0

    def count(self, building: str) -> int:
        """Buildings of one kind (``castles``, ``temples`` or ``theaters``)."""
        return int(getattr(self, building))


@dataclass(frozen=True)
class Player:
    """A player's holdings at this winter."""

    name: str
    score_before: int
    war_chests: int
    regions: dict[str, Region]


@dataclass(frozen=True)
class Game:
    """A validated Shogun score file."""

    year: int
    board: str | None
    players: tuple[Player, ...]


def parse(data: object) -> Game:
    """Validate a Shogun score file.

    Raises:
        ScoreFileError: With every problem found.
    """
    r = Reader()
    root = read_root(
        r,
        data,
        INFO,
        keys=("board",),
        required=("year",),
        player_required=("regions",),
        player_optional=("score_before", "war_chests"),
    )
    year = r.field(
        root.data, "$", "year", lambda v, p: r.integer(v, p, low=YEARS[0], high=YEARS[-1])
    )
    board = r.field(root.data, "$", "board", lambda v, p: r.choice(v, p, BOARDS, what="board"))
    players: list[Player] = []
    for (path, entry), name in zip(root.players, root.names, strict=True):
        before = r.field(
            entry,
            path,
            "score_before",
            lambda v, p: r.integer(v, p, high=MAX_SCORE_BEFORE),
            default=0,
        )
        chests = r.field(
            entry, path, "war_chests", lambda v, p: r.integer(v, p, high=MAX_WAR_CHESTS), default=0
        )
        regions = r.field(entry, path, "regions", lambda v, p: _read_regions(r, v, p))
        if name is not None and before is not None and chests is not None and regions is not None:
            players.append(Player(name, before, chests, regions))
    if players and len(players) == len(root.players):
        _check_board(r, players)
    r.raise_if_problems()
    return Game(year or 1, board, tuple(players))


def _read_regions(r: Reader, value: object, path: str) -> dict[str, Region] | None:
    raw = r.obj(value, path, optional=REGIONS)
    if raw is None:
        return None
    regions: dict[str, Region] = {}
    ok = True
    for name in REGIONS:
        if name not in raw:
            regions[name] = Region()
            continue
        region_path = key_path(path, name)
        counts = r.counts(
            raw[name],
            region_path,
            ("provinces", *BUILDINGS),
            high=max(PROVINCES_IN_PLAY.values()),
            what="count",
        )
        if counts is None:
            ok = False
            continue
        if counts["provinces"] > PROVINCES_PER_REGION:
            r.error(
                key_path(region_path, "provinces"),
                f"a region has {PROVINCES_PER_REGION} provinces, got {counts['provinces']}",
            )
            ok = False
        for building in BUILDINGS:
            if counts[building] > counts["provinces"]:
                r.error(
                    key_path(region_path, building),
                    f"{counts[building]} {building} in {counts['provinces']} provinces "
                    "(at most one per province)",
                )
                ok = False
        regions[name] = Region(**counts)
    return regions if ok else None


def _check_board(r: Reader, players: Sequence[Player]) -> None:
    for name in REGIONS:
        held = sum(p.regions[name].provinces for p in players)
        if held > PROVINCES_PER_REGION:
            r.error(
                "players",
                f"{held} {name} provinces held in all (the region has {PROVINCES_PER_REGION})",
            )
    in_play = PROVINCES_IN_PLAY.get(len(players), PROVINCES_IN_PLAY[5])
    held = sum(region.provinces for p in players for region in p.regions.values())
    if held > in_play:
        r.error(
            "players",
            f"{held} provinces held in all (at most {in_play} with {len(players)} players)",
        )


def majority_points(counts: Sequence[int], worth: int) -> list[int]:
    """A region's majority for one building: the leader gets ``worth``.

    Tied leaders get one point less each; nobody scores with zero buildings.
    """
    best = max(counts)
    leaders = sum(1 for c in counts if c == best)
    points = worth if leaders == 1 else worth - 1
    return [points if best > 0 and c == best else 0 for c in counts]


def score(game: Game) -> Result:
    """Score one winter of a validated Shogun game."""
    ps = game.players
    majorities = {b: [0] * len(ps) for b in BUILDINGS}
    for region in REGIONS:
        for building, worth in MAJORITY.items():
            counts = [p.regions[region].count(building) for p in ps]
            for i, points in enumerate(majority_points(counts, worth)):
                majorities[building][i] += points
    breakdowns = [
        {
            "previous": p.score_before,
            "provinces": sum(reg.provinces for reg in p.regions.values()),
            "buildings": sum(reg.count(b) for reg in p.regions.values() for b in BUILDINGS),
            "castle_majorities": majorities["castles"][i],
            "temple_majorities": majorities["temples"][i],
            "theater_majorities": majorities["theaters"][i],
        }
        for i, p in enumerate(ps)
    ]
    tiebreaks = []
    if game.year == 2:
        tiebreaks.append(Tiebreak("most war chests", tuple(p.war_chests for p in ps)))
    return make_result(INFO.id, [p.name for p in ps], breakdowns, tiebreaks=tiebreaks)
