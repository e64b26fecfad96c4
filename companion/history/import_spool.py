"""The checked plays of a large import, kept on disk until the whole file is checked.

An import file is checked whole before anything is written (a problem anywhere
imports nothing), but a real BG Stats backup holds tens of thousands of plays:
held in memory, they would cost a few hundred megabytes. So the plays read from
a file are kept here in batches of :data:`SPOOL_EVERY`: the batch at hand in
memory, the others in an anonymous temporary file (unlinked as it is made, so
it leaves nothing behind, even when the process is killed). Once the file has
passed, the plays are read back in order, one batch at a time, to be replayed
and written. A batch is written with :mod:`marshal`, each play as a tuple of
plain values (quicker both ways than pickling the dataclasses, and reading it
back makes nothing but those values and plays).
"""

from __future__ import annotations

import marshal
from collections.abc import Iterator
from dataclasses import fields, replace
from typing import IO, Any

from companion.history.model import Expansion, Person, Play

SPOOL_EVERY = 1000
"""Plays kept in memory before they go to the temporary file."""

Log = list[dict[str, Any]]
"""The event log of a played-along game."""
_FIELDS = tuple(f.name for f in fields(Play))
_PEOPLE = _FIELDS.index("people")
_EXPANSIONS = _FIELDS.index("expansions")


def _flat(play: Play) -> tuple[Any, ...]:
    """``play`` as a tuple of plain values (its people and expansions as tuples)."""
    values = [getattr(play, name) for name in _FIELDS]
    if play.people is not None:
        values[_PEOPLE] = tuple((p.name, p.side, p.anonymous) for p in play.people)
    values[_EXPANSIONS] = tuple((e.name, e.bgg_id) for e in play.expansions)
    return tuple(values)


def _play(values: list[Any]) -> Play:
    """The play :func:`_flat` made ``values`` of."""
    people = values[_PEOPLE]
    if people is not None:
        values[_PEOPLE] = tuple(Person(*person) for person in people)
    values[_EXPANSIONS] = tuple(Expansion(*expansion) for expansion in values[_EXPANSIONS])
    return Play(*values)


class Spool:
    """Plays in the order they were read, each with its event log (or ``None``).

    A play of a BG Stats file that lists its locations after its plays has its
    place filled in when it is read back (:attr:`places`).
    """

    def __init__(self) -> None:
        self._batch: list[tuple[Play, Log | None, object]] = []
        self._file: IO[bytes] | None = None
        self.count = 0
        """How many plays are kept."""
        self.logged = 0
        """How many of them have an event log."""
        self.places: dict[object, str] = {}
        """Place names by BG Stats location id, for the plays kept with that id."""

    def append(self, play: Play, log: Log | None = None, place: object = None) -> None:
        """Keep ``play`` with its event log and (BG Stats) location id."""
        self._batch.append((play, log or None, place))
        self.count += 1
        self.logged += bool(log)
        if len(self._batch) >= SPOOL_EVERY:
            self._flush()

    def _flush(self) -> None:
        if not self._batch:
            return
        if self._file is None:
            import tempfile

            self._file = tempfile.TemporaryFile(prefix="companion-import-")  # noqa: SIM115
        self._file.seek(0, 2)
        blob = marshal.dumps([(_flat(play), log, place) for play, log, place in self._batch])
        self._file.write(len(blob).to_bytes(8, "little"))
        self._file.write(blob)  # (one read back: marshal.load reads a file in small pieces)
        self._batch = []

    def clear(self) -> None:
        """Forget every play kept."""
        self.close()
        self._batch = []
        self.count = self.logged = 0

    def __iter__(self) -> Iterator[tuple[Play, Log | None]]:
        """The plays and their logs, in order (one batch in memory at a time)."""
        if self._file is None:
            batches: Iterator[list[tuple[Play, Log | None, object]]] = iter([list(self._batch)])
        else:
            self._flush()
            batches = self._batches(self._file)
        places = self.places
        for batch in batches:
            for play, log, place in batch:
                if place is not None and place in places:
                    yield replace(play, location=places[place]), log
                else:
                    yield play, log

    @staticmethod
    def _batches(handle: IO[bytes]) -> Iterator[list[tuple[Play, Log | None, object]]]:
        handle.seek(0)
        while size := handle.read(8):
            # Our own file, made by this process and unlinked at once: never another's.
            batch = marshal.loads(handle.read(int.from_bytes(size, "little")))
            yield [(_play(list(values)), log, place) for values, log, place in batch]

    def close(self) -> None:
        """Remove the temporary file (it goes anyway when the process ends)."""
        if self._file is not None:
            self._file.close()
            self._file = None
