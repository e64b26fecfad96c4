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


def compute(rows: Iterable[Sequence[Any]]) -> Stats:
    """Compute the stats from seat rows ordered by time, play and seat.

    The loop keeps plain lists in dicts (this runs over every seat of every
    play, 100,000 plays in well under a second); the dataclasses are built at
    the end.

    Args:
        rows: ``(play_id, game, name, total, rank, winner)`` as
            :meth:`History.seat_rows` returns them.
    """
    people: dict[str, list[int]] = {}  # name -> [plays, wins, streak]
    records: dict[tuple[str, str], list[int]] = {}  # (name, game) -> [plays, wins, points, best]
    games: dict[str, GameStats] = {}
    pairs: dict[tuple[str, str], list[int]] = {}  # (a, b) -> [plays, a_above, b_above]
    current: int | None = None
    game = ""
    seats: list[tuple[str, int, int, int]] = []

    def close_play() -> None:
        g = games.get(game)
        if g is None:
            g = games[game] = GameStats(game)
        top = winning = other = -1
        for _, total, _, winner in seats:
            if total > top:
                top = total
            if winner:
                if total > winning:
                    winning = total
            elif total > other:
                other = total
        if g.plays == 0 or top > g.high_score:
            g.high_score, g.high_scorers = top, []
        if top == g.high_score:
            for name, total, _, _ in seats:
                if total == top and name not in g.high_scorers:
                    g.high_scorers.append(name)
        g.plays += 1
        winning = top if winning < 0 else winning
        g.winning_points += winning
        g.margins += winning - other if other >= 0 else 0
        count = len(seats)
        for i in range(count - 1):
            a, _, rank_a, _ = seats[i]
            for j in range(i + 1, count):
                b, _, rank_b, _ = seats[j]
                if b < a:
                    key, first, second = (b, a), rank_b, rank_a
                else:
                    key, first, second = (a, b), rank_a, rank_b
                pair = pairs.get(key)
                if pair is None:
                    pair = pairs[key] = [0, 0, 0]
                pair[0] += 1
                if first < second:
                    pair[1] += 1
                elif second < first:
                    pair[2] += 1

    for play_id, play_game, name, total, rank, winner in rows:
        if play_id != current:
            if seats:
                close_play()
            current, game, seats = play_id, play_game, []
        seats.append((name, total, rank, winner))
        person = people.get(name)
        if person is None:
            person = people[name] = [0, 0, 0]
        person[0] += 1
        person[1] += winner
        person[2] = person[2] + 1 if winner else 0
        record = records.get((name, play_game))
        if record is None:
            record = records[(name, play_game)] = [0, 0, 0, total]
        record[0] += 1
        record[1] += winner
        record[2] += total
        if total > record[3]:
            record[3] = total
    if seats:
        close_play()

    players = {
        n: PlayerStats(n, plays, wins, streak) for n, (plays, wins, streak) in people.items()
    }
    for (name, played), (plays, wins, points, best) in records.items():
        players[name].games[played] = GameRecord(plays, wins, points, best)
    head = {key: HeadToHead(*key, *counts) for key, counts in pairs.items()}
    by_player: dict[str, list[HeadToHead]] = {}
    for h in head.values():
        by_player.setdefault(h.a, []).append(h)
        by_player.setdefault(h.b, []).append(h)
    for p in players.values():
        _rival_and_nemesis(p, by_player.get(p.name, []))
    return Stats(
        sorted(players.values(), key=lambda p: (-p.wins, -p.win_rate, p.name)),
        sorted(games.values(), key=lambda g: g.game),
        sorted(head.values(), key=lambda h: (-h.plays, h.a, h.b)),
    )


def _rival_and_nemesis(player: PlayerStats, mine: list[HeadToHead]) -> None:

    def other(h: HeadToHead) -> str:
        return h.b if h.a == player.name else h.a

    if mine:
        player.rival = other(min(mine, key=lambda h: (-h.plays, other(h))))
    candidates = [h for h in mine if h.plays >= NEMESIS_MIN_PLAYS]
    if candidates:
        worst = min(candidates, key=lambda h: (h.share_above(player.name), -h.plays, other(h)))
        player.nemesis = other(worst)
