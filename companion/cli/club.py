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
    from companion.club.ledger import Ledger

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


@club_app.command("sync")
def sync(url: UrlArgument = None, club: ClubOption = None, db: DbOption = None) -> None:
    """Make this history and the club's ledger the same: send up what changed here,
    take down what changed at other tables."""
    from companion.club.sync import idle
    from companion.club.sync import sync as run
    from companion.terminal.safe_text import line

    with _ledger(url, club) as ledger:
        ledger.check()
        with open_history(db, write=False) as history:
            report = idle(history, ledger)
        if report is None:
            with open_history(db) as history:
                report = run(history, ledger)
        said = report.line()
        typer.echo(line(said[0].upper() + said[1:] + "."))


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
    typer.echo(f"Club's ledger: {line(now.shown)}")
    typer.echo(f"  {plural(now.plays, 'play')} ({now.deleted} deleted)")
    if now.read_only:
        typer.echo("  This role may only read the ledger: it can take plays, not send them.")
    up = f", {plural(now.renames_up, 'rename')}" if now.renames_up else ""
    down = f", {plural(now.renames_down, 'rename')}" if now.renames_down else ""
    typer.echo(f"  Waiting to go up: {plural(now.waiting_up, 'play')} ({now.deleting} deleted){up}")
    typer.echo(f"  Waiting to come down: {plural(now.waiting_down, 'play')}{down}")
    typer.echo(f"  Last sync: {now.last_sync or 'never'}")
    typer.echo(f"  Conflicts: {now.conflict_count}")
    for c in now.conflicts:
        what = f"{c.game or 'deleted play'} {c.played_at or ''}".strip()
        typer.echo(
            line(
                f"    {c.uuid} ({what}): kept table {c.kept_origin[:8]}'s version; "
                f"table {c.lost_origin[:8]}'s change of {c.lost_changed_at} is kept in the ledger"
            )
        )
