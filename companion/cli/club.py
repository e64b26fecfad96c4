"""``companion club …``: init, sync, status with a club's ledger on PostgreSQL.

The password comes from where PostgreSQL's own tools take it (``PGPASSWORD``,
``~/.pgpass``, or the connection string); it is never shown, logged or kept.
"""

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Annotated

import typer

from companion.cli.common import INTERRUPTED, DbOption, fail, open_history

if TYPE_CHECKING:
    from pathlib import Path

    from companion.club.ledger import Conflict, Ledger

club_app = typer.Typer(
    help="A club's shared history on PostgreSQL, which every table syncs with.",
    no_args_is_help=True,
    rich_markup_mode=None,
)

UrlArgument = Annotated[
    str | None,
    typer.Argument(
        metavar="[URL]",
        help="The ledger: a PostgreSQL connection string such as "
        "postgresql://alice@club.example.org/club (or --club, or COMPANION_CLUB).",
        show_default=False,
    ),
]
ClubOption = Annotated[
    str | None,
    typer.Option(
        "--club",
        envvar="COMPANION_CLUB",
        metavar="URL",
        help="The ledger, when not given as an argument.",
        show_envvar=True,
    ),
]


@contextmanager
def _ledger(url: str | None, club: str | None) -> Iterator["Ledger"]:
    """The ledger named by the argument or ``--club``; any trouble is one line, exit 1."""
    from companion.club.address import ClubError, checked
    from companion.club.ledger import connected

    try:
        with connected(checked(url or club)) as ledger:
            yield ledger
    except ClubError as error:
        fail(str(error))
    except KeyboardInterrupt:
        fail("interrupted: what went through is kept; run it again to finish", INTERRUPTED)


@club_app.command("init")
def init(url: UrlArgument = None, club: ClubOption = None) -> None:
    """Create the club's ledger (its tables) in a PostgreSQL database, or upgrade it."""
    from companion.terminal.safe_text import line

    with _ledger(url, club) as ledger:
        before, now = ledger.init()
        shown = line(ledger.shown)
        if before == now:
            typer.echo(f"The club's ledger {shown} is ready (version {now}); nothing to do.")
        elif before == 0:
            typer.echo(f"Created the club's ledger in {shown} (version {now}).")
        else:
            typer.echo(f"Upgraded the club's ledger {shown} from version {before} to {now}.")


NameOption = Annotated[
    str | None,
    typer.Option("--name", help="This table's name, as the club's other tables see it."),
]


def _named(db: "Path | None", name: str | None) -> None:
    """Name this table: with ``--name``, or asked at its first sync when a person is there."""
    import sys

    from companion.history.sync_local import name_table, table_of
    from companion.terminal.safe_text import line

    if name is None:
        with open_history(db, write=False, verify=False) as history:  # (reads one row)
            if table_of(history)[1] is not None or not sys.stdin.isatty():
                return
        name = typer.prompt(
            "A name for this table, as the club's other tables will see it", default=""
        )
    name = line(name).strip()[:100]
    if not name:
        return
    with open_history(db) as history:
        name_table(history, name)


@club_app.command("sync")
def sync(
    url: UrlArgument = None, club: ClubOption = None, db: DbOption = None, name: NameOption = None
) -> None:
    """Make this history and the club's ledger the same: send up what changed here,
    take down what changed at other tables."""
    from companion.club.sync import idle
    from companion.club.sync import sync as run
    from companion.terminal.safe_text import line

    with _ledger(url, club) as ledger:
        ledger.check()
        _named(db, name)
        # Nothing new is found reading a few rows, without SQLite's quick check of
        # the whole file: a sync with work opens it for writing, which checks it.
        with open_history(db, write=False, verify=False) as history:
            report = idle(history, ledger)
        if report is None:
            with open_history(db) as history:
                report = run(history, ledger)
        for said in report.lines():
            typer.echo(line(said))


@club_app.command("name")
def name(
    new: Annotated[
        str, typer.Argument(metavar="NAME", help='The table\'s name, such as "Back room".')
    ],
    db: DbOption = None,
) -> None:
    """Name this table, as the club's other tables see it (goes up at the next sync)."""
    from companion.history.sync_local import name_table
    from companion.terminal.safe_text import line

    cleaned = line(new).strip()[:100]
    if not cleaned:
        fail("a table's name needs at least one letter", 2)
    with open_history(db) as history:
        name_table(history, cleaned)
    typer.echo(line(f"This table is '{cleaned}' (the club sees it at the next sync)."))


@club_app.command("status")
def status(url: UrlArgument = None, club: ClubOption = None, db: DbOption = None) -> None:
    """What waits to go up or come down, the last sync, and the conflicts kept."""
    from companion.club.sync import status as read
    from companion.terminal.safe_text import line
    from companion.wording import plural

    with _ledger(url, club) as ledger:
        ledger.check()
        with open_history(db, write=False) as history:
            now = read(history, ledger)
    from companion.club.sync import table_name

    typer.echo(f"Club's ledger: {line(now.shown)}")
    typer.echo(line(f"  This table: {table_name(now.name, now.table)}"))
    if now.copy:
        typer.echo(
            "  This history is a copy of another table's: its next sync makes it a table "
            "of its own, and takes what the other copy changed since."
        )
    typer.echo(f"  {plural(now.plays, 'play')} ({now.deleted} deleted)")
    if now.read_only:
        typer.echo("  This role may only read the ledger: it can take plays, not send them.")
    up = f", {plural(now.renames_up, 'rename')}" if now.renames_up else ""
    down = f", {plural(now.renames_down, 'rename')}" if now.renames_down else ""
    typer.echo(f"  Waiting to go up: {plural(now.waiting_up, 'play')} ({now.deleting} deleted){up}")
    typer.echo(f"  Waiting to come down: {plural(now.waiting_down, 'play')}{down}")
    typer.echo(f"  Last sync: {now.last_sync or 'never'}")
    typer.echo(f"  Conflicts to settle: {now.conflict_count}")
    for c in now.conflicts[:20]:
        typer.echo(line(f"    {_heading(c)}"))
    if now.conflict_count:
        typer.echo("  (companion club conflicts shows what differs; companion club settle N)")
    if now.set_aside or now.beyond:
        typer.echo(
            f"  Set aside: {plural(len(now.set_aside), 'row')} of the ledger this table cannot take"
        )
        for seq, uuid, why in now.set_aside[:20]:
            typer.echo(line(f"    change {seq}, play {uuid}: {why}"))
        if now.beyond:
            typer.echo(
                f"    {plural(now.beyond, 'row')} with a change number the server never gave "
                "(written around the ledger's numbering: never taken)"
            )


def _heading(c: "Conflict") -> str:
    from companion.club.sync import table_name

    what = f"{c.game or 'deleted game'} {(c.played_at or '')[:10]}".strip()
    where = f" at {c.place}" if c.place else ""
    who = f" ({', '.join(c.players)})" if c.players else ""
    return (
        f"{c.id}. {what}{where}{who}, play {c.uuid}: "
        f"1 = {table_name(c.kept_name, c.kept_origin)} (kept for now), "
        f"2 = {table_name(c.lost_name, c.lost_origin)}"
    )


def _differences(c: "Conflict") -> list[str]:
    from companion.club.merge import describe, shown
    from companion.club.sync import table_name

    one = table_name(c.kept_name, c.kept_origin)
    two = table_name(c.lost_name, c.lost_origin)
    if c.kind == "deleted":
        gone, kept = (one, two) if c.kept_entry is None else (two, one)
        return [f"Table {gone} deleted the game; table {kept} changed it."]
    said = []
    for d in c.differs:
        what = describe(d.path, c.kept_entry or c.lost_entry)
        said.append(
            f"Table {one} set {what} to {shown(d.kept)}; table {two} set it to {shown(d.other)} "
            f"(it was {shown(d.base)})."
        )
    return said


@club_app.command("conflicts")
def conflicts(url: UrlArgument = None, club: ClubOption = None, db: DbOption = None) -> None:
    """Each open conflict: the game, the two tables, and what each changed."""
    from companion.history.sync_local import local_numbers
    from companion.terminal.safe_text import line

    with _ledger(url, club) as ledger:
        ledger.check()
        count, found = ledger.conflicts(limit=1000)
    if not count:
        typer.echo("No conflicts to settle.")
        return
    with open_history(db, write=False) as history:
        numbers = local_numbers(history, [c.uuid for c in found])
    for c in found:
        number = numbers.get(c.uuid)
        here = f"Game #{number}" if number else "A game not here"
        typer.echo(line(f"{here} — {_heading(c)}"))
        for said in _differences(c):
            typer.echo(line(f"    {said}"))
    typer.echo(
        "Settle one with: companion club settle N --keep 1 (or --keep 2, or one digit per "
        "value to combine them: --keep 21); a conflict stays open, both versions kept, until then."
    )


@club_app.command("settle")
def settle(
    number: Annotated[int, typer.Argument(metavar="N", help="The conflict's number.")],
    keep: Annotated[
        str,
        typer.Option("--keep", metavar="VERSION", help="The version to keep: 1 (kept now) or 2."),
    ],
    url: UrlArgument = None,
    club: ClubOption = None,
    db: DbOption = None,
) -> None:
    """Settle a conflict: keep version 1 or 2 of the game, at every table."""
    from companion.club.sync import sync as run
    from companion.history.model import now_utc
    from companion.history.sync_local import table_of
    from companion.terminal.safe_text import line

    if not keep or set(keep) - {"1", "2"}:
        fail("--keep takes 1 or 2, or a digit 1 or 2 per value (companion club conflicts)", 2)
    with _ledger(url, club) as ledger:
        ledger.check()
        with open_history(db) as history:
            run(history, ledger)
            found = ledger.settle(number, keep, table_of(history)[0], now_utc())
            run(history, ledger)
    what = f"{found.game or 'the game'} {(found.played_at or '')[:10]}".strip()
    kept = f"version {keep} kept" if keep in ("1", "2") else f"versions combined ({keep})"
    typer.echo(
        line(f"Settled conflict {number} ({what}): {kept}; every table takes it at its next sync.")
    )
