"""Statistics over the history: people, games and head-to-head records.

Who counts:
    A person is everyone at the table except BG Stats' anonymous player, and
    two names with the same :func:`scorers.names.name_key` are one person
    (shown with the spelling of their latest play). In a team game every
    member of a side plays, and every member of a winning side wins. A side
    whose members are not known counts for the game but for no person.
    Plays marked ignored (and interim scorings) are not counted at all.

Definitions:
    wins: plays a person won; a shared win counts for every winner.
    current streak: wins in a row up to the person's most recent play.
    scores: a side that was not scored (a blank score in BG Stats) counts as
        a play and may win, but is left out of every score figure: averages,
        best and high scores, winning scores and margins. Nothing is ever
        counted as 0 points for want of a score.
    margin of victory: the winner's total minus the best total of a side that
        did not win (0 for a win shared by everyone); only plays where both
        are scored.
    head-to-head: for two people on different sides of the same play, the
        plays they were both in, and how often each finished above the other:
        by rank when both ranks are known, otherwise a winner is above a
        non-winner, otherwise they are level. Partners are not opponents.
    rival: the opponent with the most shared plays.
    nemesis: the opponent against whom the person's share of "finished
        above" is lowest, among opponents with at least 3 shared plays.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

NEMESIS_MIN_PLAYS = 3


@dataclass
class GameRecord:
    """One person's record in one game.

    Attributes:
        plays: Plays of the game.
        wins: Plays won.
        scored: Plays where their side had a score.
        points: The sum of those scores.
        best: Their best score, ``None`` when never scored.
    """

    plays: int = 0
    wins: int = 0
    scored: int = 0
    points: int = 0
    best: int | None = None

    @property
    def average(self) -> float | None:
        """Average score over the scored plays (``None`` when none was scored)."""
        return self.points / self.scored if self.scored else None


@dataclass
class PlayerStats:
    """One person's record."""

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
    """One game's record.

    Attributes:
        game: The game id.
        plays: Plays counted.
        high_score: The best score of any side, ``None`` when nothing was scored.
        high_scorers: Who made it, never BG Stats' anonymous player (so none
            when only they made it) (a team's members; a side's name when its
            members are not known).
        winning_points: Sum of the winners' scores, over ``winning_plays``.
        winning_plays: Plays whose winner was scored.
        margins: Sum of the margins of victory, over ``margin_plays``.
        margin_plays: Plays where a margin could be computed.
    """

    game: str
    plays: int = 0
    high_score: int | None = None
    high_scorers: list[str] = field(default_factory=list)
    winning_points: int = 0
    winning_plays: int = 0
    margins: int = 0
    margin_plays: int = 0

    @property
    def average_winning_score(self) -> float | None:
        """Average score of the winner (``None`` when no winner was scored)."""
        return self.winning_points / self.winning_plays if self.winning_plays else None

    @property
    def average_margin(self) -> float | None:
        """Average margin of victory (``None`` when none could be computed)."""
        return self.margins / self.margin_plays if self.margin_plays else None


@dataclass
class HeadToHead:
    """Two people's record against each other."""

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


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


@dataclass
class Stats:
    """Everything ``history stats`` shows."""

    players: list[PlayerStats]
    games: list[GameStats]
    head_to_head: list[HeadToHead]

    def to_json(self) -> dict[str, Any]:
        """The stats as a JSON document (rates rounded to 4 places, ``null`` for no score)."""
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
                            "scored_plays": g.scored,
                            "average_score": _rounded(g.average),
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
                    "average_winning_score": _rounded(g.average_winning_score),
                    "average_margin": _rounded(g.average_margin),
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


class Tables(NamedTuple):
    """The figures the stats are made of, aggregated over the plays that count.

    :func:`compute` works them out from seat rows,
    :func:`companion.history.stat_queries.stat_tables` has SQLite add them up;
    :func:`summarize` makes the stats of either.

    Attributes:
        records: ``(key, game, plays, wins, scored, points, best)`` per person
            and game, in the order of each person's first play of each game.
        people: ``key -> (latest name, current streak)``.
        games: ``(game, plays, high_score, high_scorers, winning_points,
            winning_plays, margins, margin_plays)`` per game.
        pairs: ``(a_key, b_key, plays, a_above, b_above)`` with ``a_key <
            b_key``, for every two people who met on different sides.
    """

    records: list[tuple[Any, ...]]
    people: dict[str, tuple[str, int]]
    games: list[tuple[Any, ...]]
    pairs: list[tuple[Any, ...]]


# One side of the play being read: [total, rank, winner, [(key, name, anonymous)], side name]
_Side = list[Any]


def compute(rows: Iterable[Sequence[Any]]) -> Stats:
    """Compute the stats from seat rows (as :func:`companion.history.stat_queries.seat_rows` reads).

    The loop keeps plain lists in dicts (this runs over every person of every
    play, 100,000 plays in about a second); the dataclasses are built at the
    end.

    Args:
        rows: ``(play_id, game, side, side_name, total, rank, winner,
            person_key, person_name, anonymous)``, ordered by time, play, side
            and seat.
    """
    people: dict[str, list[int]] = {}  # key -> [plays, wins, streak]
    names: dict[str, str] = {}  # key -> latest spelling
    records: dict[tuple[str, str], list[Any]] = {}  # -> [plays, wins, scored, points, best]
    games: dict[str, GameStats] = {}
    pairs: dict[tuple[str, str], list[int]] = {}  # (a, b) keys -> [plays, a_above, b_above]
    current: Any = None
    game = ""
    sides: list[_Side] = []
    side_index: Any = None

    def close_play() -> None:
        g = games.get(game)
        if g is None:
            g = games[game] = GameStats(game)
        g.plays += 1
        top = winning = other = None
        losers = False
        for total, _, winner, _, _ in sides:
            if not winner:
                losers = True
            if total is None:
                continue
            if top is None or total > top:
                top = total
            if winner:
                if winning is None or total > winning:
                    winning = total
            elif other is None or total > other:
                other = total
        if top is not None:
            if g.high_score is None or top > g.high_score:
                g.high_score, g.high_scorers = top, []
            if top == g.high_score:
                for total, _, _, members, side_name in sides:
                    if total != top:
                        continue
                    # BG Stats' anonymous player is nobody: never named as a high scorer.
                    named = [m[1] for m in members if not m[2]]
                    for who in named if members else [side_name]:
                        if who not in g.high_scorers:
                            g.high_scorers.append(who)
        if winning is not None:
            g.winning_points += winning
            g.winning_plays += 1
            if other is not None or not losers:
                g.margins += winning - other if other is not None else 0
                g.margin_plays += 1
        for i in range(len(sides) - 1):
            _, rank_a, win_a, members_a, _ = sides[i]
            for j in range(i + 1, len(sides)):
                _, rank_b, win_b, members_b, _ = sides[j]
                if rank_a is not None and rank_b is not None:
                    order = (rank_a > rank_b) - (rank_a < rank_b)  # -1: a above
                else:
                    order = (bool(win_b) and not win_a) - (bool(win_a) and not win_b)
                for key_a, _, anon_a in members_a:
                    if anon_a:
                        continue
                    for key_b, _, anon_b in members_b:
                        if anon_b or key_a == key_b:
                            continue
                        if key_b < key_a:
                            pair_key, first_above = (key_b, key_a), order > 0
                            second_above = order < 0
                        else:
                            pair_key, first_above = (key_a, key_b), order < 0
                            second_above = order > 0
                        pair = pairs.get(pair_key)
                        if pair is None:
                            pair = pairs[pair_key] = [0, 0, 0]
                        pair[0] += 1
                        pair[1] += first_above
                        pair[2] += second_above

    for (
        play_id,
        play_game,
        side,
        side_name,
        total,
        rank,
        winner,
        key,
        name,
        anonymous,
    ) in rows:
        if play_id != current:
            if sides:
                close_play()
            current, game, sides, side_index = play_id, play_game, [], None
        if side != side_index:
            side_index = side
            sides.append([total, rank, winner, [], side_name])
        if key is None:
            continue
        sides[-1][3].append((key, name, anonymous))
        if anonymous:
            continue
        names[key] = name
        person = people.get(key)
        if person is None:
            person = people[key] = [0, 0, 0]
        person[0] += 1
        person[1] += winner
        person[2] = person[2] + 1 if winner else 0
        record = records.get((key, play_game))
        if record is None:
            record = records[(key, play_game)] = [0, 0, 0, 0, None]
        record[0] += 1
        record[1] += winner
        if total is not None:
            record[2] += 1
            record[3] += total
            if record[4] is None or total > record[4]:
                record[4] = total
    if sides:
        close_play()

    return summarize(
        Tables(
            [(key, played, *record) for (key, played), record in records.items()],
            {key: (names[key], person[2]) for key, person in people.items()},
            [
                (
                    g.game,
                    g.plays,
                    g.high_score,
                    g.high_scorers,
                    g.winning_points,
                    g.winning_plays,
                    g.margins,
                    g.margin_plays,
                )
                for g in games.values()
            ],
            [(a, b, *counts) for (a, b), counts in pairs.items()],
        )
    )


def summarize(tables: Tables) -> Stats:
    """The stats from their figures (see :class:`Tables`)."""
    names = {key: name for key, (name, _) in tables.people.items()}
    players: dict[str, PlayerStats] = {}
    for key, played, plays, wins, scored, points, best in tables.records:
        player = players.get(key)
        if player is None:
            player = players[key] = PlayerStats(names[key], streak=tables.people[key][1])
        player.plays += plays
        player.wins += wins
        player.games[played] = GameRecord(plays, wins, scored, points, best)
    head = [
        HeadToHead(names[a], names[b], plays, a_above, b_above)
        for a, b, plays, a_above, b_above in tables.pairs
    ]
    by_player: dict[str, list[HeadToHead]] = {}
    for (a, b, *_), h in zip(tables.pairs, head, strict=True):
        by_player.setdefault(a, []).append(h)
        by_player.setdefault(b, []).append(h)
    for key, p in players.items():
        _rival_and_nemesis(p, by_player.get(key, []))
    games = [
        GameStats(game, plays, top, list(by), *rest) for game, plays, top, by, *rest in tables.games
    ]
    return Stats(
        sorted(players.values(), key=lambda p: (-p.wins, -p.win_rate, p.name.casefold(), p.name)),
        sorted(games, key=lambda g: g.game),
        sorted(head, key=lambda h: (-h.plays, h.a.casefold(), h.b.casefold())),
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
