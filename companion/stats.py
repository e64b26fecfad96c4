"""Statistics over the history: players, games and head-to-head records.

Definitions:
    wins: plays a player won; a shared win counts for every winner.
    current streak: wins in a row up to the player's most recent play.
    margin of victory: the winner's total minus the best total of a player
        who did not win (0 for a win shared by everyone).
    head-to-head: for two players, the plays they were both in, and how often
        each finished above the other (by rank).
    rival: the opponent with the most shared plays.
    nemesis: the opponent against whom the player's share of "finished
        above" is lowest, among opponents with at least 3 shared plays.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

NEMESIS_MIN_PLAYS = 3


@dataclass
class GameRecord:
    """One player's record in one game."""

    plays: int = 0
    wins: int = 0
    points: int = 0
    best: int = 0

    @property
    def average(self) -> float:
        """Average score."""
        return self.points / self.plays if self.plays else 0.0


@dataclass
class PlayerStats:
    """One player's record."""

    name: str
    plays: int = 0
    wins: int = 0
    streak: int = 0
    games: dict[str, GameRecord] = field(default_factory=dict)
    rival: str | None = None
    nemesis: str | None = None

    @property
    def win_rate(self) -> float:
        """Wins per play, 0 to 1."""
        return self.wins / self.plays if self.plays else 0.0


@dataclass
class GameStats:
    """One game's record."""

    game: str
    plays: int = 0
    high_score: int = 0
    high_scorers: list[str] = field(default_factory=list)
    winning_points: int = 0
    margins: int = 0

    @property
    def average_winning_score(self) -> float:
        """Average total of the winner."""
        return self.winning_points / self.plays if self.plays else 0.0

    @property
    def average_margin(self) -> float:
        """Average margin of victory."""
        return self.margins / self.plays if self.plays else 0.0


@dataclass
class HeadToHead:
    """Two players' record against each other (``a`` sorts before ``b``)."""

    a: str
    b: str
    plays: int = 0
    a_above: int = 0
    b_above: int = 0

    @property
    def ties(self) -> int:
        """Shared plays where they finished level."""
        return self.plays - self.a_above - self.b_above

    def share_above(self, player: str) -> float:
        """How often ``player`` finished above the other, 0 to 1."""
        above = self.a_above if player == self.a else self.b_above
        return above / self.plays if self.plays else 0.0


@dataclass
class Stats:
    """Everything ``history stats`` shows."""

    players: list[PlayerStats]
    games: list[GameStats]
    head_to_head: list[HeadToHead]

    def to_json(self) -> dict[str, Any]:
        """The stats as a JSON document (rates rounded to 4 places)."""
        return {
            "players": [
                {
                    "name": p.name,
                    "plays": p.plays,
                    "wins": p.wins,
                    "win_rate": round(p.win_rate, 4),
                    "current_streak": p.streak,
                    "rival": p.rival,
                    "nemesis": p.nemesis,
                    "games": {
                        game: {
                            "plays": g.plays,
                            "wins": g.wins,
                            "average_score": round(g.average, 4),
                            "best_score": g.best,
                        }
                        for game, g in p.games.items()
                    },
                }
                for p in self.players
            ],
            "games": [
                {
                    "game": g.game,
                    "plays": g.plays,
                    "high_score": g.high_score,
                    "high_scorers": g.high_scorers,
                    "average_winning_score": round(g.average_winning_score, 4),
                    "average_margin": round(g.average_margin, 4),
                }
                for g in self.games
            ],
            "head_to_head": [
                {
                    "players": [h.a, h.b],
                    "plays": h.plays,
                    "above": {h.a: h.a_above, h.b: h.b_above},
                    "ties": h.ties,
                }
                for h in self.head_to_head
            ],
        }


Seat = tuple[str, int, int, int]  # name, total, rank, winner


def compute(rows: Iterable[Sequence[Any]]) -> Stats:
    """Compute the stats from seat rows ordered by time, play and seat.

    Args:
        rows: ``(play_id, played_at, game, seat, name, total, rank, winner)``
            as :meth:`History.seat_rows` returns them.
    """
    players: dict[str, PlayerStats] = {}
    games: dict[str, GameStats] = {}
    pairs: dict[tuple[str, str], HeadToHead] = {}
    current: int | None = None
    game = ""
    seats: list[Seat] = []
    for play_id, _, play_game, _, name, total, rank, winner in rows:
        if play_id != current:
            if seats:
                _add_play(game, seats, players, games, pairs)
            current, game, seats = play_id, play_game, []
        seats.append((name, total, rank, winner))
    if seats:
        _add_play(game, seats, players, games, pairs)
    for p in players.values():
        _rival_and_nemesis(p, pairs)
    return Stats(
        sorted(players.values(), key=lambda p: (-p.wins, -p.win_rate, p.name)),
        sorted(games.values(), key=lambda g: g.game),
        sorted(pairs.values(), key=lambda h: (-h.plays, h.a, h.b)),
    )


def _add_play(
    game: str,
    seats: list[Seat],
    players: dict[str, PlayerStats],
    games: dict[str, GameStats],
    pairs: dict[tuple[str, str], HeadToHead],
) -> None:
    for name, total, _, winner in seats:
        p = players.get(name) or players.setdefault(name, PlayerStats(name))
        p.plays += 1
        p.wins += winner
        p.streak = p.streak + 1 if winner else 0
        record = p.games.get(game) or p.games.setdefault(game, GameRecord())
        record.plays += 1
        record.wins += winner
        record.points += total
        record.best = max(record.best, total) if record.plays > 1 else total
    g = games.get(game) or games.setdefault(game, GameStats(game))
    top = max(total for _, total, _, _ in seats)
    if g.plays == 0 or top > g.high_score:
        g.high_score, g.high_scorers = top, []
    if top == g.high_score:
        g.high_scorers.extend(
            n for n, total, _, _ in seats if total == top and n not in g.high_scorers
        )
    g.plays += 1
    winning = max((total for _, total, _, w in seats if w), default=top)
    others = [total for _, total, _, w in seats if not w]
    g.winning_points += winning
    g.margins += winning - max(others) if others else 0
    for (a, _, rank_a, _), (b, _, rank_b, _) in combinations(seats, 2):
        if b < a:
            a, b, rank_a, rank_b = b, a, rank_b, rank_a
        h = pairs.get((a, b)) or pairs.setdefault((a, b), HeadToHead(a, b))
        h.plays += 1
        h.a_above += rank_a < rank_b
        h.b_above += rank_b < rank_a


def _rival_and_nemesis(player: PlayerStats, pairs: dict[tuple[str, str], HeadToHead]) -> None:
    mine = [h for h in pairs.values() if player.name in (h.a, h.b)]

    def other(h: HeadToHead) -> str:
        return h.b if h.a == player.name else h.a

    if mine:
        player.rival = other(min(mine, key=lambda h: (-h.plays, other(h))))
    candidates = [h for h in mine if h.plays >= NEMESIS_MIN_PLAYS]
    if candidates:
        worst = min(candidates, key=lambda h: (h.share_above(player.name), -h.plays, other(h)))
        player.nemesis = other(worst)
