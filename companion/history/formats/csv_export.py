"""The history as csv, written only: one row per person per play, then one column per
scoring category; a cell a spreadsheet would run is made plain text."""

from __future__ import annotations

import io
from collections.abc import Sequence

from companion.history.formats.shared import BGG_IDS, people_rows, play_date
from companion.history.model import Play
from scorers import title

CSV_COLUMNS = (
    "play_id",
    "play_uuid",
    "play_date",
    "game",
    "game_id",
    "bgg_id",
    "duration_min",
    "location",
    "ignored",
    "status",
    "expansions",
    "team",
    "player",
    "anonymous",
    "seat_order",
    "start_player",
    "score",
    "rank",
    "winner",
    "notes",
)
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: object) -> object:
    """A cell a spreadsheet will not run: text starting with ``= + - @``, a tab
    or a CR gets a leading apostrophe. Numbers are left as they are."""
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        return "'" + value
    return value


class _LineEnds:
    """A text sink for :func:`csv.writer` (rows end in CRLF) writing ``ending`` instead."""

    def __init__(self, out: io.StringIO, ending: str) -> None:
        self.out = out
        self.ending = ending

    def write(self, row: str) -> int:
        """Write one row (it ends in CRLF; any CR or LF inside it is quoted)."""
        return self.out.write(row.removesuffix("\r\n") + self.ending)


def to_csv(plays: Sequence[Play], *, excel: bool = False) -> str:
    """One row per person per play, then one column per scoring category.

    A team game's members each get a row with their side's score, and their
    side's name in ``team``; a side whose members are not known gets one row
    with an empty ``player``. Not-scored seats have an empty ``score``;
    ``status`` is ``final``, or ``interim`` for a scoring that did not end its
    game.
    """
    import csv

    from scorers import SCORERS

    categories: list[str] = []
    for info in (s.info for s in SCORERS.values()):
        categories.extend(c for c in info.categories if c not in categories)
    for play in plays:
        for p in play.result["players"]:
            categories.extend(c for c in p["breakdown"] if c not in categories)
    out = io.StringIO()
    # The csv module quotes a field holding a character of the line ending: with CRLF
    # both a lone CR and a lone LF are quoted. A plain export then ends its rows in LF.
    writer = csv.writer(_LineEnds(out, "\r\n" if excel else "\n"), lineterminator="\r\n")
    writer.writerow([safe_cell(c) for c in (*CSV_COLUMNS, *categories)])
    for play in plays:
        teams = play.uses_teams
        winners = set(play.result["winners"])
        expansions = "; ".join(e.name for e in play.expansions)
        for person, side_index, position in people_rows(play):
            side = play.result["players"][side_index]
            cells: list[object] = [
                play.id,
                play.uuid,
                play_date(play),
                title(play.game),
                play.game,
                BGG_IDS.get(play.game, 0),
                "" if play.duration_min is None else play.duration_min,
                play.location,
                int(play.ignored),
                play.status,
                expansions,
                side["name"] if teams else "",
                person.name if person else "",
                int(person.anonymous) if person else "",
                "" if position is None else position + 1,
                int(position is not None and play.start_player == position),
                "" if side["total"] is None else side["total"],
                "" if side["rank"] is None else side["rank"],
                int(side["name"] in winners),
                play.notes,
                *(side["breakdown"].get(c, "") for c in categories),
            ]
            writer.writerow([safe_cell(c) for c in cells])
    return out.getvalue()
