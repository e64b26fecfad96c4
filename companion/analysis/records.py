"""Records: personal bests and the group's records, per game, and what a new game set.

Computed from a sequence of :class:`~companion.analysis.played_game.PlayedGame` in play order
(oldest first). Plays that do not count (interim scorings, ignored plays) are
left out. People are identified by :func:`scorers.names.name_key`; a side of a
team game credits each of its members with the side's result. Anonymous seats
take part in the game (a winner's margin over them counts) but hold no record.
A person written in two seats of one play counts once, with their first seat
(scored or not); the statistics count them in each seat (entry and imports
refuse such a play).

Plays and wins count as :mod:`companion.analysis.stats` counts them: every play that
counts is a play for every person in it, scored or not (a blank score in BG
Stats), and a seat that was not scored still wins when it is marked winner; any
other seat is a loss, which ends a streak. A play with no score at all is a
play like any other: a win for the seats marked winner, a loss for the rest (for
everyone when none is marked). Scores come from scored seats only: a seat that
was not scored sets no total, category or margin, and nothing is ever counted
as 0 points for want of a score.

The records of one game:
    highest total: the best total of any scored seat.
    best in each category: the most points in one category, for games whose
        breakdown has more than one category (Shibuya's only category is its
        total), and only above 0.
    longest win streak: wins in a row in that game, counting only the plays
        the person took part in, scored or not; a shared win is a win.
    biggest winning margin: a sole winner's total minus the best total of a
        scored seat that did not win; wins on a tie-break (margin 0) and shared
        wins set none (a seat not scored that was marked winner shares the
        win), nor does a win with no scored seat to beat.

The first to reach a value holds the record; a later equal value *equals* it.
Each person has the same records for themselves (personal bests).

:class:`RecordBook` adds plays one at a time and says what each one set, which
gives the sentences shown after a game ("Aki's best Tokaido: 88, was 81");
:func:`records` is the whole history at once. Nothing is said about a first
game: a record needs an earlier value to be beaten (a person's first game of
Tokaido is no "personal best").

Example:
    >>> from companion.analysis.played_game import FINAL, PlayedGame, PlayedSeat
    >>> def play(n, aki, ben):
    ...     return PlayedGame(n, f"2025-06-0{n}", "tokaido", (
    ...         PlayedSeat("Aki", aki, 1 if aki > ben else 2, aki > ben),
    ...         PlayedSeat("Ben", ben, 1 if ben > aki else 2, ben > aki)))
    >>> book = RecordBook()
    >>> book.add(play(1, 81, 70))
    []
    >>> for sentence in describe(book.add(play(2, 88, 75))):
    ...     print(sentence)
    Aki set the group's Tokaido record: 88, was 81.
    Aki won by 13, the group's biggest Tokaido margin (was 11).
    Aki has won 2 Tokaido games in a row, the group's longest streak (was 1).
    Ben's best Tokaido: 75, was 70.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from companion.analysis.explain import label
from companion.analysis.played_game import FINAL, PlayedGame, PlayedSeat
from scorers import join_names, short_title
from scorers.names import name_key

TOTAL = "total"
CATEGORY = "category"
STREAK = "streak"
MARGIN = "margin"
GROUP = "group"
PERSONAL = "personal"


@dataclass(frozen=True)
class Mark:
    """A record value and who set it.

    Attributes:
        value: The total, points, streak length or margin.
        holders: The people who set it (display names; two for a side, or
            several seats equal in the same play).
        play: The id of the play that set it.
        played_at: When that play was.
    """

    value: int
    holders: tuple[str, ...]
    play: int
    played_at: str

    @property
    def who(self) -> str:
        """The holders as a sentence names them: ``Aki and Ben``."""
        return join_names(self.holders)


@dataclass(frozen=True)
class PersonRecords:
    """One person's record in one game.

    Attributes:
        name: The person's name as most recently written.
        plays: Counted plays of the game, scored or not.
        wins: Of those, the ones they won (shared wins included).
        current_streak: Wins in a row up to their latest play.
        best_total: Their highest total (``None`` when never scored).
        categories: Their best points per category (above 0).
        longest_streak: Their longest run of wins.
        biggest_margin: Their biggest winning margin (above 0).
    """

    name: str
    plays: int
    wins: int
    current_streak: int
    best_total: Mark | None
    categories: dict[str, Mark]
    longest_streak: Mark | None
    biggest_margin: Mark | None


@dataclass(frozen=True)
class GameRecords:
    """The group's records in one game, and every person's.

    Attributes:
        game: The game id.
        plays: Counted plays, scored or not.
        best_total: The highest total (``None`` when no named seat was scored).
        categories: The best points per category (above 0).
        longest_streak: The longest run of wins by one person.
        biggest_margin: The biggest winning margin (above 0).
        people: Each person's records, by :func:`~scorers.names.name_key`.
    """

    game: str
    plays: int
    best_total: Mark | None
    categories: dict[str, Mark]
    longest_streak: Mark | None
    biggest_margin: Mark | None
    people: dict[str, PersonRecords]


@dataclass(frozen=True)
class NewRecord:
    """A record a play set or equalled.

    Attributes:
        kind: ``"total"``, ``"category"``, ``"streak"`` or ``"margin"``.
        scope: ``"group"`` or ``"personal"``.
        game: The game id.
        category: The category, for ``kind == "category"``.
        mark: The new value and its holders.
        previous: The value it beat or equalled and who held it.
        equalled: The play equalled the record rather than beating it.
    """

    kind: str
    scope: str
    game: str
    category: str | None
    mark: Mark
    previous: Mark
    equalled: bool = False


@dataclass
class _Person:
    name: str
    plays: int = 0
    wins: int = 0
    streak: int = 0
    best_total: Mark | None = None
    categories: dict[str, Mark] = field(default_factory=dict)
    longest_streak: Mark | None = None
    biggest_margin: Mark | None = None


@dataclass
class _Game:
    plays: int = 0
    best_total: Mark | None = None
    categories: dict[str, Mark] = field(default_factory=dict)
    longest_streak: Mark | None = None
    biggest_margin: Mark | None = None
    people: dict[str, _Person] = field(default_factory=dict)


class RecordBook:
    """The records so far; :meth:`add` a play at a time, in play order."""

    def __init__(self) -> None:
        self._games: dict[str, _Game] = {}
        self._keys: dict[str, str] = {}  # name as written -> name_key, worked out once

    def add(self, play: PlayedGame) -> list[NewRecord]:
        """Add one play and return the records it set or equalled.

        Plays that do not count (interim, ignored) change nothing. Every
        other play counts for the plays, wins and streaks of everyone in it;
        only its scored seats count for totals, categories and margins. The
        group's records come first, then personal ones, each in the order
        total, margin, streak, categories. A person who set a group record is
        not told the same as a personal best.
        """
        if play.status != FINAL or play.ignored:
            return []
        state = self._games.get(play.game)
        if state is None:
            state = self._games[play.game] = _Game()
        state.plays += 1
        scored = [s for s in play.seats if s.total is not None]
        named = [s for s in scored if not s.anonymous]
        won = _margin(play.seats)
        margin = won[1] if won is not None and not won[0].anonymous and won[1] > 0 else 0
        split = any(len(s.breakdown) > 1 for s in scored)
        ident, when, game = play.id, play.played_at, play.game

        # Who played, scored or not: plays, wins and the streak each is on now.
        people: list[tuple[PlayedSeat, str, _Person]] = []
        seen: list[str] = []
        keys = self._keys
        for seat in play.seats:
            if seat.anonymous:
                continue
            for name in seat.members or (seat.name,):
                key = keys.get(name)
                if key is None:
                    key = keys[name] = name_key(name)
                if key in seen:
                    continue  # one person in two seats of one play counts once: the first
                seen.append(key)
                me = state.people.get(key)
                if me is None:
                    me = state.people[key] = _Person(name)
                me.name = name
                me.plays += 1
                if seat.winner:
                    me.wins += 1
                    me.streak += 1
                else:
                    me.streak = 0
                people.append((seat, name, me))

        # The group's records: a Mark is made only for a value that beats or equals one.
        group: list[NewRecord] = []
        if named:
            top = max(s.total or 0 for s in named)
            old = state.best_total
            if old is None or top >= old.value:
                holders = _holders(s for s in named if s.total == top)
                new = Mark(top, holders, ident, when)
                if old is None or top > old.value:
                    state.best_total = new
                if old is not None:
                    group.append(NewRecord(TOTAL, GROUP, game, None, new, old, top == old.value))
        if margin and won is not None:
            old = state.biggest_margin
            if old is None or margin > old.value:
                new = state.biggest_margin = Mark(margin, _holders((won[0],)), ident, when)
                if old is not None:
                    group.append(NewRecord(MARGIN, GROUP, game, None, new, old))
        streak = max((me.streak for _, _, me in people), default=0)
        old = state.longest_streak
        if streak and (old is None or streak > old.value):
            holders = tuple(name for _, name, me in people if me.streak == streak)
            new = state.longest_streak = Mark(streak, holders, ident, when)
            if old is not None and streak >= 2:
                group.append(NewRecord(STREAK, GROUP, game, None, new, old))
        if split:
            best: dict[str, int] = {}
            for seat in named:
                for category, points in seat.breakdown:
                    if points > best.get(category, 0):
                        best[category] = points
            for category, points in best.items():
                old = state.categories.get(category)
                if old is None or points > old.value:
                    pair = (category, points)
                    holders = _holders(s for s in named if pair in s.breakdown)
                    new = state.categories[category] = Mark(points, holders, ident, when)
                    if old is not None:
                        group.append(NewRecord(CATEGORY, GROUP, game, category, new, old))

        # Each person's own: told unless they just set the group's record of the same.
        told = {(n.kind, n.category): n.mark.holders for n in group if not n.equalled}
        personal: list[NewRecord] = []
        for seat, name, me in people:
            total = seat.total
            old = me.best_total
            if total is not None and (old is None or total > old.value):
                new = me.best_total = Mark(total, (name,), ident, when)
                if old is not None and name not in told.get((TOTAL, None), ()):
                    personal.append(NewRecord(TOTAL, PERSONAL, game, None, new, old))
            if margin and won is not None and seat is won[0]:
                old = me.biggest_margin
                if old is None or margin > old.value:
                    new = me.biggest_margin = Mark(margin, (name,), ident, when)
                    if old is not None and name not in told.get((MARGIN, None), ()):
                        personal.append(NewRecord(MARGIN, PERSONAL, game, None, new, old))
            old = me.longest_streak
            if me.streak and (old is None or me.streak > old.value):
                new = me.longest_streak = Mark(me.streak, (name,), ident, when)
                fresh = name not in told.get((STREAK, None), ())
                if old is not None and me.streak >= 2 and fresh:
                    personal.append(NewRecord(STREAK, PERSONAL, game, None, new, old))
            if split and total is not None:
                mine = me.categories
                for category, points in seat.breakdown:
                    if points <= 0:
                        continue
                    old = mine.get(category)
                    if old is None or points > old.value:
                        new = mine[category] = Mark(points, (name,), ident, when)
                        if old is not None and name not in told.get((CATEGORY, category), ()):
                            personal.append(NewRecord(CATEGORY, PERSONAL, game, category, new, old))
        group.sort(key=lambda n: _KINDS[n.kind])
        personal.sort(key=lambda n: _KINDS[n.kind])
        return group + personal

    def games(self) -> dict[str, GameRecords]:
        """Every game's records so far, by game id."""
        return {game: _snapshot(game, state) for game, state in self._games.items()}

    def game(self, game: str) -> GameRecords | None:
        """One game's records so far, or ``None`` if it has no counted play."""
        state = self._games.get(game)
        return None if state is None else _snapshot(game, state)


_KINDS = {TOTAL: 0, MARGIN: 1, STREAK: 2, CATEGORY: 3}


def _holders(seats: Iterable[PlayedSeat]) -> tuple[str, ...]:
    """The people of the seats, each once, in seat order."""
    return tuple(dict.fromkeys(name for seat in seats for name in seat.members or (seat.name,)))


def _margin(seats: Sequence[PlayedSeat]) -> tuple[PlayedSeat, int] | None:
    """The sole winner and their margin over the best scored seat that did not win.

    ``None`` unless exactly one seat won (a seat not scored that won shares the
    win), it was scored, and some seat that did not win was scored.
    """
    winners = [s for s in seats if s.winner]
    if len(winners) != 1 or winners[0].total is None:
        return None
    others = [s.total for s in seats if not s.winner and s.total is not None]
    if not others:
        return None
    return winners[0], winners[0].total - max(others)


def _snapshot(game: str, state: _Game) -> GameRecords:
    people = {
        key: PersonRecords(
            name=p.name,
            plays=p.plays,
            wins=p.wins,
            current_streak=p.streak,
            best_total=p.best_total,
            categories=dict(p.categories),
            longest_streak=p.longest_streak,
            biggest_margin=p.biggest_margin,
        )
        for key, p in state.people.items()
    }
    return GameRecords(
        game=game,
        plays=state.plays,
        best_total=state.best_total,
        categories=dict(state.categories),
        longest_streak=state.longest_streak,
        biggest_margin=state.biggest_margin,
        people=people,
    )


def records(plays: Iterable[PlayedGame]) -> dict[str, GameRecords]:
    """Every game's records from the plays, given in play order (oldest first)."""
    book = RecordBook()
    for play in plays:
        book.add(play)
    return book.games()


def set_after(before: GameRecords | None, play: PlayedGame) -> list[NewRecord]:
    """What ``play`` set or equalled, given the records of its game before it.

    The same as :meth:`RecordBook.add` after every earlier play of the game,
    without them: ``before`` is what :meth:`RecordBook.game` said after the
    last of them (``None`` before the game's first counted play). Only the
    group's total, margin and streak, the categories ``play`` scores in and
    the people who played it are read from ``before``, so it may leave out
    every other person and category; its play counts are not read either.
    """
    book = RecordBook()
    if before is not None:
        people = {
            key: _Person(
                p.name,
                p.plays,
                p.wins,
                p.current_streak,
                p.best_total,
                dict(p.categories),
                p.longest_streak,
                p.biggest_margin,
            )
            for key, p in before.people.items()
        }
        book._games[play.game] = _Game(
            before.plays,
            before.best_total,
            dict(before.categories),
            before.longest_streak,
            before.biggest_margin,
            people,
        )
    return book.add(play)


def set_by(before: Iterable[PlayedGame], play: PlayedGame) -> list[str]:
    """The sentences for what ``play`` set, against the plays ``before`` it (in play order)."""
    book = RecordBook()
    for earlier in before:
        if earlier.game == play.game:
            book.add(earlier)
    return describe(book.add(play))


def same_game(a: PlayedGame, b: PlayedGame) -> bool:
    """Whether two plays had the same people with the same totals (one game scored twice?)."""

    def seats(play: PlayedGame) -> list[tuple[str, int]]:
        return sorted(
            (name_key(name), -1 if seat.total is None else seat.total + 1)
            for seat in play.seats
            for name in (seat.members or (seat.name,))
        )

    return a.game == b.game and seats(a) == seats(b)


def is_repeat(new: NewRecord, record_play: PlayedGame | None, play: PlayedGame) -> bool:
    """Whether ``new`` equals the group's best total only because ``play`` repeats the
    play that set it (``record_play``): the same people, the same totals."""
    return (
        new.scope == GROUP
        and new.kind == TOTAL
        and new.equalled
        and record_play is not None
        and record_play.id == new.previous.play
        and same_game(record_play, play)
    )


def repeat_sentence(new: NewRecord) -> str:
    """What is said instead of "equalled their own group record" for a game that
    repeats the record's game: it may be the same game scored twice."""
    game, mark, old = short_title(new.game), new.mark, new.previous
    return (
        f"Same people and scores as game #{old.play}, the group's {game} record "
        f"({mark.value}): if it is the same game scored twice, remove one with "
        f"companion history delete {mark.play}."
    )


def describe(news: Iterable[NewRecord], *, categories: bool = False) -> list[str]:
    """One sentence per record set, in the order given.

    Args:
        news: What :meth:`RecordBook.add` returned.
        categories: Also tell personal bests in a category (many early on;
            left out by default). The group's category records are always told.
    """
    sentences = []
    for new in news:
        if new.scope == PERSONAL and new.kind == CATEGORY and not categories:
            continue
        sentences.append(_sentence(new))
    return sentences


def _sentence(new: NewRecord) -> str:
    game, mark, old = short_title(new.game), new.mark, new.previous
    same = {name_key(n) for n in old.holders} == {name_key(n) for n in mark.holders}
    by = "" if same else f" by {old.who}"
    who = mark.who
    if new.scope == GROUP:
        if new.kind == TOTAL and new.equalled:
            if same:
                return f"{who} equalled their own group record for {game}: {mark.value}."
            return f"{who} equalled the group's {game} record: {mark.value}, set by {old.who}."
        if new.kind == TOTAL:
            return f"{who} set the group's {game} record: {mark.value}, was {old.value}{by}."
        if new.kind == MARGIN:
            return (
                f"{who} won by {mark.value}, the group's biggest {game} margin"
                f" (was {old.value}{by})."
            )
        if new.kind == STREAK:
            have = "has" if len(mark.holders) == 1 else "have"
            return (
                f"{who} {have} won {mark.value} {game} games in a row,"
                f" the group's longest streak (was {old.value}{by})."
            )
        area = label(new.game, new.category or "")
        return f"{who} set the group's {game} record in {area}: {mark.value}, was {old.value}{by}."
    if new.kind == TOTAL:
        return f"{who}'s best {game}: {mark.value}, was {old.value}."
    if new.kind == MARGIN:
        return f"{who}'s biggest {game} win: by {mark.value}, was {old.value}."
    if new.kind == STREAK:
        return (
            f"{who} has won {mark.value} {game} games in a row,"
            f" their longest streak (was {old.value})."
        )
    area = label(new.game, new.category or "")
    return f"{who}'s best {game} in {area}: {mark.value}, was {old.value}."
