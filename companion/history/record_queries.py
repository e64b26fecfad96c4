"""The records of a game before one of its plays, read from the history with a few queries.

:func:`companion.history.after_game.records_set` says what a play set (``Aki's best Tokaido:
88, was 81``) after every save. Replaying every earlier play of its game
through :class:`~companion.analysis.records.RecordBook` costs seconds on a long
history; this module reads instead what that replay would know just before
the play, as far as it decides what the play sets, and hands it to
:func:`companion.analysis.records.set_after`, which applies the very same rules. So
the rules live in :mod:`companion.analysis.records` alone; here is only where to find
their inputs:

- the plays that count before it: final, not ignored, of the same game,
  earlier in play order (``played_at``, then uuid: see
  :mod:`companion.history.play_order`), scored or not (the
  statistics columns of migration 6: ``plays.top_score``, ``margin``; each
  person's ``play_people`` row with its game, time, side's result and total,
  which is ``NULL`` for a seat not scored);
- a person's plays of a game are their rows there, one per play (the first of
  their seats, scored or not, when a name is written twice in one play), read
  in play order from the ``play_people_stats`` index: their plays, wins and
  wins in a row come from that sequence, blank seats included; their best
  total from its scored rows;
- the highest total and the biggest margin come from the ``plays_counted``
  index, best value first, checking only the plays that could hold them;
- the group's longest streak is looked for only when the play could beat it
  (someone of the play on two wins in a row or more), and its search stops as
  soon as a run at least that long turns up;
- the best in each category needs the breakdowns, which only the stored
  result has: the results of the game's earlier plays are searched for the
  play's categories (as text, in batches), and those that name one are read,
  newest first, until each of the play's values is met by an earlier one at
  least as good (then it beats nothing, and that value stands for the
  record). Only a play that does set a record in a category has every one
  of them read. This is the one part that reads every earlier play of the
  game, and only for a play scored by category; :func:`companion.history.after_game.
  records_set` leaves out personal bests in a category, which it never tells.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from companion.analysis.played_game import PlayedGame, PlayedSeat
from companion.analysis.records import GameRecords, Mark, PersonRecords
from companion.history.play_order import PERSON_UUID, before, order_by
from companion.history.schema import COUNTED, NOT_COUNTED
from companion.history.to_played import side_people
from scorers.names import name_key

if TYPE_CHECKING:
    import sqlite3

    from companion.history.store import History

__all__ = ["play", "records_before"]


def play(history: History, play_id: int) -> PlayedGame | None:
    """One play as :func:`~companion.history.after_game._load` reads it, breakdowns included.

    ``None`` when there is no such play.
    """
    with history.guard("read the history"):
        return _play(history._db, play_id)


def _play(db: sqlite3.Connection, play_id: int) -> PlayedGame | None:
    found = _plays(db, [play_id])
    return found[0] if found else None


def _plays(db: sqlite3.Connection, ids: Sequence[int]) -> list[PlayedGame]:
    """Plays by id (in id order), each as :func:`companion.history.after_game._load` makes it."""
    listed = json.dumps(list(ids))
    within = "IN (SELECT value FROM json_each(?))"
    rows = db.execute(
        f"SELECT id, played_at, game, result, status, ignored, uuid FROM plays WHERE id {within} "
        "ORDER BY id",
        (listed,),
    ).fetchall()
    sides: dict[int, list[tuple[Any, ...]]] = {}
    for play_id, *side in db.execute(
        "SELECT play_id, seat, name, CASE WHEN scored THEN total END, nullif(rank, 0), winner "
        f"FROM play_players WHERE play_id {within} ORDER BY play_id, seat",
        (listed,),
    ):
        sides.setdefault(play_id, []).append(tuple(side))
    people: dict[int, list[tuple[Any, ...]]] = {}
    for play_id, *person in db.execute(
        "SELECT play_id, side, name, anonymous FROM play_people "
        f"WHERE play_id {within} ORDER BY play_id, side, position",
        (listed,),
    ):
        people.setdefault(play_id, []).append(tuple(person))
    plays = []
    for play_id, played_at, game, text, status, ignored, uuid in rows:
        split: list[Any] = json.loads(text)["players"]
        here = people.get(play_id, [])
        seats = []
        for seat, name, total, rank, winner in sides.get(play_id, []):
            members, anonymous = side_people(name, [p for p in here if p[0] == seat])
            points: tuple[tuple[str, int], ...] = ()
            if seat < len(split):
                breakdown = split[seat].get("breakdown") or {}
                points = tuple((str(c), v) for c, v in breakdown.items() if type(v) is int)
            seats.append(PlayedSeat(name, total, rank, bool(winner), points, members, anonymous))
        plays.append(
            PlayedGame(play_id, played_at, game, tuple(seats), status, bool(ignored), uuid)
        )
    return plays


@dataclass(frozen=True)
class _Person:
    """One person of the play: their name there, the seat that counts, their key."""

    key: str
    name: str
    seat: PlayedSeat


@dataclass(frozen=True)
class _Sequence:
    """A person's counted plays of the game before the play, one per play, in play order."""

    ids: tuple[int, ...]
    wins: bytes  # 1 for a win, 0 otherwise
    totals: tuple[int | None, ...]  # None for a seat not scored

    @property
    def current(self) -> int:
        """Wins in a row up to the last play."""
        return len(self.wins) - len(self.wins.rstrip(b"\1"))

    def longest(self) -> tuple[int, int]:
        """The longest run of wins and the index of the play that first reached it."""
        length = max(map(len, self.wins.split(b"\0")))
        return length, self.wins.find(b"\1" * length) + length - 1 if length else -1


def records_before(
    history: History, played: PlayedGame, *, personal_categories: bool = True
) -> GameRecords:
    """The records of ``played``'s game before it, as far as they decide what it sets.

    As :meth:`companion.analysis.records.RecordBook.game` would give them after every
    earlier counted play of the game, limited to what
    :func:`companion.analysis.records.set_after` reads: the people who played it and
    the categories it scores in. A record the play cannot beat (the group's
    longest streak, a best in a category) may stand as any earlier value at
    least as good as the play's; the game's play count is left at 0, and
    each person's name is the one they have in ``played``.

    Args:
        history: The history.
        played: The play (see :func:`play`).
        personal_categories: Also each person's best in each category, which
            :func:`companion.analysis.records.describe` leaves out unless asked; when
            not, they are left empty (and the play sets none).
    """
    with history.guard("read the history"):
        return _Reader(history._db, played, personal_categories).records()


class _Reader:
    """The queries of :func:`records_before` for one play."""

    def __init__(self, db: sqlite3.Connection, played: PlayedGame, categories: bool) -> None:
        self.db = db
        self.played = played
        self.personal_categories = categories
        self.game = played.game
        self.before = (played.played_at, played.uuid)
        left_out = db.execute(f"SELECT 1 FROM plays WHERE {NOT_COUNTED} LIMIT 1").fetchone()
        self.counted = f" AND play_id NOT IN (SELECT id FROM plays WHERE {NOT_COUNTED})"
        if left_out is None:
            self.counted = ""
        self._winners: dict[int, list[int]] = {}
        self._margins: list[tuple[int, str, int]] = []
        self._margins_read = False

    def records(self) -> GameRecords:
        scored = [s for s in self.played.seats if s.total is not None]
        named = [s for s in scored if not s.anonymous]
        people = _people([s for s in self.played.seats if not s.anonymous])
        sequences = {p.key: self.sequence(p.key) for p in people}
        won = _sole_winner(self.played.seats)
        # Group records.
        best_total = self.best_total() if named else None
        biggest_margin = self.biggest_margin() if won is not None else None
        streak = max((sequences[p.key].current + 1 for p in people if p.seat.winner), default=0)
        longest = self.longest_streak(streak, sequences) if streak >= 2 else None
        groups: dict[str, Mark] = {}
        personal: dict[str, dict[str, Mark]] = {}
        if any(len(s.breakdown) > 1 for s in scored):  # scored by category
            mine = people if self.personal_categories else []
            groups, personal = self.categories(named, mine, sequences)
        # Each person's.
        records = {}
        for person in people:
            seq = sequences[person.key]
            margin = None
            if won is not None and person.seat is won:
                margin = self.person_margin(person.key, seq)
            records[person.key] = PersonRecords(
                name=person.name,
                plays=len(seq.ids),
                wins=seq.wins.count(1),
                current_streak=seq.current,
                best_total=self.person_best(person.key, seq),
                categories=personal.get(person.key, {}),
                longest_streak=self.person_longest(person.key, seq),
                biggest_margin=margin,
            )
        return GameRecords(self.game, 0, best_total, groups, longest, biggest_margin, records)

    # --- one person ---

    def sequence(self, key: str) -> _Sequence:
        """A person's counted plays of the game before the play."""
        rows = self.db.execute(
            "SELECT play_id, winner, total FROM play_people WHERE name_key = ? AND game = ? "
            f"AND anonymous = 0 AND {before(uuid=PERSON_UUID)}"
            f"{self.counted} ORDER BY {order_by(uuid=PERSON_UUID)}",
            (key, self.game, *self.before),
        ).fetchall()
        if not rows:
            return _Sequence((), b"", ())
        ids, wins, totals = zip(*rows, strict=True)
        if len(set(ids)) < len(ids):
            ids, wins, totals = zip(*self.once_per_play(key, rows), strict=True)
        return _Sequence(ids, bytes(1 if w else 0 for w in wins), totals)

    def once_per_play(self, key: str, rows: list[Any]) -> list[Any]:
        """One row per play: where a name is written twice, the first seat (as records count)."""
        kept = []
        for k, row in enumerate(rows):
            if k and rows[k - 1][0] == row[0]:
                continue  # rows of one play are next to each other
            if k + 1 < len(rows) and rows[k + 1][0] == row[0]:
                row = (row[0], *self.first_seat(row[0], key, "winner, total"))
            kept.append(row)
        return kept

    def first_seat(self, play_id: int, key: str, columns: str) -> tuple[Any, ...]:
        """``columns`` of a person's first row in a play (seat order, then position)."""
        found: tuple[Any, ...] = self.db.execute(
            f"SELECT {columns} FROM play_people WHERE play_id = ? AND name_key = ? "
            "AND anonymous = 0 ORDER BY side, position LIMIT 1",
            (play_id, key),
        ).fetchone()
        return found

    def mark(self, value: int, key: str, play_id: int) -> Mark:
        """A person's record set in ``play_id``, under the name they had there."""
        name, played_at = self.first_seat(play_id, key, "name, played_at")
        return Mark(value, (name,), play_id, played_at)

    def person_best(self, key: str, seq: _Sequence) -> Mark | None:
        """Their highest total (the first play that reached it); ``None`` when never scored."""
        best = max((t for t in seq.totals if t is not None), default=None)
        if best is None:
            return None
        return self.mark(best, key, seq.ids[seq.totals.index(best)])

    def person_longest(self, key: str, seq: _Sequence) -> Mark | None:
        length, at = seq.longest() if seq.ids else (0, -1)
        return self.mark(length, key, seq.ids[at]) if length else None

    def person_margin(self, key: str, seq: _Sequence) -> Mark | None:
        """Their biggest margin as a sole winner before the play."""
        won = {play_id for play_id, w in zip(seq.ids, seq.wins, strict=True) if w}
        for play_id, _, margin in self.margins():
            if play_id in won and len(self.winners(play_id)) == 1:
                return self.mark(margin, key, play_id)
        return None

    # --- the group ---

    def best_total(self) -> Mark | None:
        """The highest total of a named seat: the first play that reached it."""
        best = None
        for play_id, top in self.db.execute(
            "SELECT id, top_score FROM plays INDEXED BY plays_counted "
            f"WHERE game = ? AND {COUNTED} AND top_score IS NOT NULL AND {before()} "
            "ORDER BY top_score DESC",
            (self.game, *self.before),
        ):
            if best is not None and top <= best:
                break  # no later play can beat it: a named seat's total is at most the top
            named = self.named_top(play_id)
            if named is not None and (best is None or named > best):
                best = named
        if best is None:
            return None
        for play_id, played_at in self.db.execute(
            "SELECT id, played_at FROM plays INDEXED BY plays_counted "
            f"WHERE game = ? AND {COUNTED} AND top_score >= ? AND {before()} "
            f"ORDER BY {order_by()}",
            (self.game, best, *self.before),
        ):
            if self.named_top(play_id) == best:
                holders = self.db.execute(
                    "SELECT name FROM play_people WHERE play_id = ? AND anonymous = 0 "
                    "AND total = ? ORDER BY side, position",
                    (play_id, best),
                ).fetchall()
                return Mark(best, _distinct(h[0] for h in holders), play_id, played_at)
        return None  # not reached: the play that gave ``best`` is among these

    def named_top(self, play_id: int) -> int | None:
        """The best total of a seat with a named person in it."""
        row = self.db.execute(
            "SELECT max(total) FROM play_people WHERE play_id = ? AND anonymous = 0", (play_id,)
        ).fetchone()
        return None if row is None else row[0]

    def winners(self, play_id: int) -> list[int]:
        """The seats that won a play, scored or not (a blank seat that won shares the win)."""
        found = self._winners.get(play_id)
        if found is None:
            found = self._winners[play_id] = [
                r[0]
                for r in self.db.execute(
                    "SELECT seat FROM play_players WHERE play_id = ? AND winner",
                    (play_id,),
                )
            ]
        return found

    def margins(self) -> Iterator[tuple[int, str, int]]:
        """The plays with a margin above 0: biggest first, then in play order.

        Read a page at a time (each a larger one), as the first few usually
        hold the records; kept for the next caller.
        """
        k = 0
        while True:
            if k == len(self._margins):
                if self._margins_read:
                    return
                page = self.db.execute(
                    "SELECT id, played_at, margin FROM plays INDEXED BY plays_counted "
                    f"WHERE game = ? AND {COUNTED} AND {before()} AND margin > 0 "
                    f"ORDER BY margin DESC, {order_by()} LIMIT ? OFFSET ?",
                    (self.game, *self.before, 64 + 3 * k, k),
                ).fetchall()
                self._margins += page
                self._margins_read = len(page) < 64 + 3 * k
                if not page:
                    return
            yield self._margins[k]
            k += 1

    def biggest_margin(self) -> Mark | None:
        """The biggest margin of a sole winner with a named person: its first play."""
        for play_id, played_at, margin in self.margins():
            seats = self.winners(play_id)
            if len(seats) != 1:
                continue  # a shared win sets no margin
            names = self.db.execute(
                "SELECT name FROM play_people WHERE play_id = ? AND side = ? AND anonymous = 0 "
                "ORDER BY position",
                (play_id, seats[0]),
            ).fetchall()
            if names:  # not a guest's win
                return Mark(margin, _distinct(n[0] for n in names), play_id, played_at)
        return None

    def longest_streak(self, streak: int, known: dict[str, _Sequence]) -> Mark | None:
        """The group's longest run of wins, or one at least ``streak`` long if there is one."""
        runs = {key: seq.longest() for key, seq in known.items() if seq.ids}
        for key, (length, at) in runs.items():
            if length >= streak:
                return self.mark(length, key, known[key].ids[at])
        sequences = dict(known)
        for key in self.keys():
            if key in sequences:
                continue
            seq = sequences[key] = self.sequence(key)
            if seq.ids:
                runs[key] = seq.longest()
                if runs[key][0] >= streak:
                    return self.mark(runs[key][0], key, seq.ids[runs[key][1]])
        longest = max((length for length, _ in runs.values()), default=0)
        if not longest:
            return None
        # The first play in which someone reached it, and everyone who did there.
        ends = {key: sequences[key].ids[at] for key, (n, at) in runs.items() if n == longest}
        when = {
            play_id: self.db.execute(
                "SELECT played_at, uuid FROM plays WHERE id = ?", (play_id,)
            ).fetchone()
            for play_id in set(ends.values())
        }
        first = min(ends.values(), key=lambda play_id: (*when[play_id], play_id))
        holders = self.db.execute(
            "SELECT name_key, name FROM play_people WHERE play_id = ? AND anonymous = 0 "
            "ORDER BY side, position",
            (first,),
        ).fetchall()
        named: dict[str, str] = {}
        for key, name in holders:
            if ends.get(key) == first:
                named.setdefault(key, name)  # a person's first seat in the play
        return Mark(longest, tuple(named.values()), first, when[first][0])

    def keys(self) -> Iterator[str]:
        """Every named person in the history, by key (the index's distinct keys, one seek each)."""
        key = ""
        while True:
            row = self.db.execute(
                "SELECT name_key FROM play_people WHERE anonymous = 0 AND name_key > ? "
                "ORDER BY name_key LIMIT 1",
                (key,),
            ).fetchone()
            if row is None:
                return
            key = row[0]
            yield key

    def categories(
        self, named: Sequence[PlayedSeat], people: Sequence[_Person], known: dict[str, _Sequence]
    ) -> tuple[dict[str, Mark], dict[str, dict[str, Mark]]]:
        """The group's best in each category the play scores in, and each of its people's.

        Only the earlier plays that name one of the categories can hold such a
        record; they are read newest first, a growing batch at a time, until
        every record of the play is met by an earlier value at least as good
        (it can then beat none of them, and that value stands for the record).
        Otherwise every one of them is read, and the records are exact.
        """
        goals: dict[tuple[str | None, str], int] = {}  # (person key or None, category) -> points
        for seat in named:
            for category, points in seat.breakdown:
                if points > goals.get((None, category), 0):
                    goals[(None, category)] = points
        for person in people:
            if person.seat.total is None:
                continue  # a seat not scored sets no category
            for category, points in person.seat.breakdown:
                if points > 0:
                    goals[(person.key, category)] = points
        wanted = sorted({category for _, category in goals})
        mentioning = self.mentioning(wanted) if wanted else []
        found: _Found = {}
        # The group's records from every play, newest first, read lightly; then each
        # person's own from their plays.
        queues = [(sorted(mentioning, reverse=True), {goal for goal in goals if goal[0] is None})]
        for person in people:
            theirs = set(known[person.key].ids).intersection(mentioning)
            mine = {goal for goal in goals if goal[0] == person.key}
            queues.append((sorted(theirs, reverse=True), mine))
        for k, (queue, open_goals) in enumerate(queues):
            size = _FIRST_BATCH
            while queue and open_goals & _unmet(goals, found):
                batch, queue = queue[:size], queue[size:]
                size *= 4
                if k == 0:
                    self.group_bests(batch, set(wanted), found)
                    continue
                for earlier in _plays(self.db, batch):
                    _read_categories(earlier, people[k - 1].key, wanted, found)
        groups: dict[str, Mark] = {}
        personal: dict[str, dict[str, Mark]] = {}
        for (whose, category), (points, played_at, _, play_id, holders) in found.items():
            if whose is None:
                groups[category] = self.category_mark(category, points, play_id, played_at)
            else:
                personal.setdefault(whose, {})[category] = Mark(points, holders, play_id, played_at)
        return groups, personal

    def group_bests(
        self,
        ids: Sequence[int],
        wanted: set[str],
        found: _Found,
    ) -> None:
        """Keep the group's best points in each wanted category of these plays.

        As :func:`_read_categories` does for the group, reading only what it
        needs: the scored seats, those with a named person, and the breakdowns.
        """
        listed = json.dumps(list(ids))
        within = "IN (SELECT value FROM json_each(?))"
        scored = set(
            self.db.execute(
                f"SELECT play_id, seat FROM play_players WHERE scored AND play_id {within}",
                (listed,),
            ).fetchall()
        )
        named = set(
            self.db.execute(
                "SELECT DISTINCT play_id, side FROM play_people WHERE anonymous = 0 "
                f"AND total IS NOT NULL AND play_id {within}",
                (listed,),
            ).fetchall()
        )
        # category -> (points, played_at, uuid, id)
        kept: dict[str, tuple[int, str, str, int]] = {}
        for play_id, played_at, text, uuid in self.db.execute(
            f"SELECT id, played_at, result, uuid FROM plays WHERE id {within}", (listed,)
        ):
            split = False
            best: dict[str, int] = {}
            for seat, side in enumerate(json.loads(text)["players"]):
                if (play_id, seat) not in scored:
                    continue
                breakdown = side.get("breakdown") or {}
                points = [(str(c), v) for c, v in breakdown.items() if type(v) is int]
                split = split or len(points) > 1
                if (play_id, seat) in named:
                    for category, value in points:
                        if value > best.get(category, 0) and category in wanted:
                            best[category] = value
            for category, value in best.items() if split else ():
                held = kept.get(category)
                if held is None or (value, *held[1:]) > (held[0], played_at, uuid, play_id):
                    kept[category] = (value, played_at, uuid, play_id)
        for category, (value, played_at, uuid, play_id) in kept.items():
            _keep(found, (None, category), (value, played_at, uuid, play_id, ()))

    def category_mark(self, category: str, points: int, play_id: int, played_at: str) -> Mark:
        """The group's record in a category, held by every named seat of the play with it."""
        found = _play(self.db, play_id)
        seats = found.seats if found is not None else ()
        holders = _distinct(
            name
            for s in seats
            if s.total is not None and not s.anonymous and (category, points) in s.breakdown
            for name in s.people
        )
        return Mark(points, holders, play_id, played_at)

    def mentioning(self, categories: Sequence[str]) -> list[int]:
        """The counted plays of the game before the play whose result names a category.

        Only these can hold a record in one. Their results are searched in
        Python: one string per batch of plays from SQLite costs far less than
        a search in SQL for each category. A game with many plays is read in
        batches of ids (the table in its own order, which bounds the memory a
        batch takes), one with few through the game's index.
        """
        # How a category is written in the stored JSON (with or without escapes).
        texts = {json.dumps(c, ensure_ascii=False) for c in categories}
        texts |= {json.dumps(c) for c in categories}
        query = (
            "SELECT group_concat(result, char(1)), group_concat(id) FROM plays "
            f"WHERE +game = ? AND {COUNTED} AND {before()}"
        )
        plays = self.db.execute(
            f"SELECT count(*) FROM plays INDEXED BY plays_counted WHERE game = ? AND {COUNTED} "
            f"AND {before()}",
            (self.game, *self.before),
        ).fetchone()[0]
        batches: Iterable[sqlite3.Cursor]
        if plays <= _BATCH:
            batches = [self.db.execute(query.replace("+game", "game"), (self.game, *self.before))]
        else:
            low, high = self.db.execute(  # each alone is one step down the table
                "SELECT (SELECT min(id) FROM plays), (SELECT max(id) FROM plays)"
            ).fetchone()
            batches = (
                self.db.execute(
                    f"{query} AND id > ? AND id <= ?",
                    (self.game, *self.before, start, start + _BATCH),
                )
                for start in range(low - 1, high, _BATCH)
            )
        names = re.compile("|".join(re.escape(text) for text in sorted(texts)))
        found = []
        for text, ids in (batch.fetchone() for batch in batches):
            # The results, parted by \1 (JSON text has none), and their ids in the
            # same order (both aggregates see the rows in one pass); after a match
            # the search goes on at the next result.
            numbers = ids.split(",") if ids else []
            at = counted = play = 0
            while text and (match := names.search(text, at)):
                play += text.count("\1", counted, match.start())
                counted = match.start()
                found.append(int(numbers[play]))
                at = text.find("\1", match.end())
                if at < 0:
                    break
        return sorted(found)


def _unmet(
    goals: dict[tuple[str | None, str], int],
    found: _Found,
) -> set[tuple[str | None, str]]:
    """The records of the play no earlier value is at least as good as, so far."""
    return {goal for goal, points in goals.items() if goal not in found or found[goal][0] < points}


def _read_categories(
    play: PlayedGame,
    key: str,
    wanted: Sequence[str],
    found: _Found,
) -> None:
    """Keep a person's best points in each wanted category of ``play``.

    As :class:`~companion.analysis.records.RecordBook` counts them: in a play scored by
    category, the points above 0 of the person's (first) named seat; the
    first play to reach a value holds it (plays come in any order here, so
    the earlier one is kept).
    """
    scored = [s for s in play.seats if s.total is not None]
    if not any(len(s.breakdown) > 1 for s in scored):
        return
    for person in _people([s for s in play.seats if not s.anonymous]):
        if person.key == key and person.seat.total is not None:
            for category, points in person.seat.breakdown:
                if points > 0 and category in wanted:
                    best = (points, play.played_at, play.uuid, play.id, (person.name,))
                    _keep(found, (key, category), best)


def _keep(
    found: _Found,
    goal: tuple[str | None, str],
    value: _Bests,
) -> None:
    """Keep ``value`` if it is higher, or as high and earlier in play order."""
    held = found.get(goal)
    if held is None or (value[0], *held[1:4]) > (held[0], *value[1:4]):
        found[goal] = value


_Bests = tuple[int, str, str, int, tuple[str, ...]]
"""A best value in a category: the points, where the play comes in play order (its time,
uuid and id), and who holds it."""
_Found = dict[tuple[str | None, str], _Bests]

_BATCH = 8192
"""Plays (by id) whose results are searched at a time: bounds the memory a search takes."""
_FIRST_BATCH = 16
"""Plays read first for the best in each category (each next batch is four times larger)."""


def _people(named: Sequence[PlayedSeat]) -> list[_Person]:
    """The people of the named seats, each once (their first seat, scored or not), as records
    count them."""
    people: list[_Person] = []
    seen: set[str] = set()
    for seat in named:
        for name in seat.people:
            key = name_key(name)
            if key not in seen:
                seen.add(key)
                people.append(_Person(key, name, seat))
    return people


def _sole_winner(seats: Sequence[PlayedSeat]) -> PlayedSeat | None:
    """The seat of a sole named winner ahead on points: the only one that can set a margin.

    As :mod:`companion.analysis.records` has it: the only seat that won (a seat not
    scored that won shares the win), scored, above the best scored seat that
    did not win.
    """
    winners = [s for s in seats if s.winner]
    others = [s.total for s in seats if not s.winner and s.total is not None]
    if len(winners) != 1 or not others or winners[0].anonymous:
        return None
    total = winners[0].total
    return winners[0] if total is not None and total > max(others) else None


def _distinct(names: Iterator[str] | Any) -> tuple[str, ...]:
    return tuple(dict.fromkeys(names))
