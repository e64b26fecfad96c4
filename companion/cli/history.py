"""``companion history …``: list, show, edit, delete, note, stats, records, ratings, export,
import, check, backup."""

from collections.abc import Iterable, Iterator
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from companion.cli.common import (
    DbOption,
    JsonOption,
    checked_place,
    fail,
    fail_with_problems,
    game_id,
    open_history,
    print_json,
    show,
    show_parts,
)
from companion.wording import plural

if TYPE_CHECKING:
    from companion.history.model import Filter, Play

history_app = typer.Typer(
    help="The record of every game played.", no_args_is_help=True, rich_markup_mode=None
)

GameOption = Annotated[
    str | None, typer.Option("--game", "-g", help="Only this game (id or title).")
]
TABLE_LIMIT = 50


def parse_time(text: str, option: str) -> str:
    """``2026-11-30``, ``2026-11-30 20:15`` or ISO 8601 → stored UTC form; exit 2 if not."""
    cleaned = text.strip().removesuffix("Z").replace(" ", "T")
    try:
        moment = datetime.fromisoformat(cleaned)
    except ValueError:
        fail(f"{option}: {text!r} is not a date such as 2026-11-30 or 2026-11-30 20:15", 2)
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def make_filter(game: str | None, player: str | None = None, since: str | None = None) -> "Filter":
    """A :class:`Filter` from command-line options."""
    from companion.history.model import Filter

    return Filter(
        game=game_id(game), player=player, since=parse_time(since, "--since") if since else None
    )


@history_app.command("list")
def history_list(
    game: GameOption = None,
    player: Annotated[
        str | None, typer.Option("--player", "-p", help="Only games this player was in.")
    ] = None,
    since: Annotated[
        str | None,
        typer.Option(
            "--since", metavar="DATE", help="Only games on or after DATE (UTC), e.g. 2026-11-30."
        ),
    ] = None,
    limit: Annotated[
        int | None,
        typer.Option(
            "--limit", "-n", help="Show the N most recent (default 50 in the table, all in JSON)."
        ),
    ] = None,
    json: JsonOption = False,
    db: DbOption = None,
) -> None:
    """List the recorded games, oldest first."""
    from companion.history.reports import listing

    where = make_filter(game, player, since)
    with open_history(db, write=False) as history:
        shown = listing(
            history, where, limit if limit is not None else (0 if json else TABLE_LIMIT)
        )
    if json:
        print_json(shown.plays)
        return
    from companion.terminal.history_tables import listing_parts

    show_parts(listing_parts(shown, filtered=where != make_filter(None)))


@history_app.command("show")
def history_show(
    game: Annotated[str, typer.Argument(metavar="ID", help="The game's number, or its uuid.")],
    json: JsonOption = False,
    db: DbOption = None,
) -> None:
    """Show one recorded game: its breakdown, why it was won, the records it set, its details.

    The records are those it set against the games before it, as the history is now.
    """
    from companion.history.errors import HistoryError
    from companion.history.reports import play_report
    from companion.history.sync_local import local_numbers
    from companion.terminal.safe_text import line

    with open_history(db, write=False) as history:
        if game.strip().isdigit():
            play_id = int(game.strip())
        else:
            found = local_numbers(history, [game.strip()[:100]])
            if not found:
                fail(line(f"no game with the uuid {game.strip()[:100]} in this history"))
            play_id = next(iter(found.values()))
        try:
            report = play_report(history, play_id)
        except HistoryError as error:
            fail(str(error))
    if json:
        print_json(report.to_json())
        return
    from companion.terminal.history_tables import play_parts

    show_parts(play_parts(report))


def _get(db: Path | None, play_id: int, *, write: bool = True) -> "Play":
    from companion.history.errors import HistoryError

    with open_history(db, write=write) as history:
        try:
            return history.get(play_id)
        except HistoryError as error:
            fail(str(error))


@history_app.command("edit")
def history_edit(
    play_id: Annotated[int, typer.Argument(metavar="ID", help="The game's number.")],
    rename: Annotated[
        list[str] | None,
        typer.Option("--rename", metavar="OLD=NEW", help="Rename a person or a team (repeatable)."),
    ] = None,
    members: Annotated[
        list[str] | None,
        typer.Option(
            "--members",
            metavar="TEAM=A,B",
            help="Name a team's members in seat order (repeatable).",
        ),
    ] = None,
    start: Annotated[
        str | None, typer.Option("--start-player", metavar="NAME", help="Who started.")
    ] = None,
    date: Annotated[
        str | None,
        typer.Option(
            "--date",
            metavar="DATE",
            help="When it was played, in UTC: 2026-11-30 20:15 or 2026-11-30.",
        ),
    ] = None,
    location: Annotated[
        str | None, typer.Option("--location", metavar="PLACE", help="Where it was played.")
    ] = None,
    notes: Annotated[
        str | None, typer.Option("--notes", metavar="TEXT", help="Replace the notes.")
    ] = None,
    duration: Annotated[
        int | None,
        typer.Option("--duration", metavar="MINUTES", min=0, help="Minutes it took, e.g. 55."),
    ] = None,
    score_file: Annotated[
        str | None,
        typer.Option(
            "--score-file", metavar="FILE", help="Replace the score file (- for stdin); re-scores."
        ),
    ] = None,
    db: DbOption = None,
) -> None:
    """Change a recorded game: names, a team's members, date, location, notes or its score file."""
    from companion.history.editing import EditError, edit_play

    location = checked_place(location)
    given = (rename, members, start, date, location, notes, duration, score_file)
    if not any(v is not None for v in given):
        fail(
            "nothing to change: give --rename, --members, --start-player, --date, "
            "--location, --notes, --duration or --score-file",
            2,
        )
    teams: dict[str, list[str]] = {}
    for item in members or []:
        team, sep, names = item.partition("=")
        listed = [n.strip() for n in names.split(",") if n.strip()]
        if not sep or not team.strip() or not listed:
            fail(f"--members takes TEAM=NAME,NAME, got {item!r}", 2)
        teams[team.strip()] = listed
    from scorers.names import InvalidName, clean_name

    renames: dict[str, str] = {}
    for item in rename or []:
        old, sep, new = item.partition("=")
        if not sep or not old.strip() or not new.strip():
            fail(f"--rename takes OLD=NEW, got {item!r}", 2)
        try:
            renames[old.strip()] = clean_name(new, what="new name")
        except InvalidName as error:
            fail(f"--rename {item!r}: {error}", 2)
    text = None
    if score_file is not None:
        from companion.bounded_json import (
            MAX_SCORE_FILE_BYTES,
            FileTooLarge,
            InputError,
            NotText,
            read_source,
        )

        try:
            text = read_source(score_file, limit=MAX_SCORE_FILE_BYTES)
        except (FileTooLarge, NotText) as error:
            fail(f"{error}; nothing was changed", 2)
        except InputError as error:
            fail(str(error))
    from companion.history.errors import HistoryError

    with open_history(db) as history:
        try:
            play = history.get(play_id)
            changed = edit_play(
                play,
                renames=renames,
                members=teams,
                start=start,
                played_at=parse_time(date, "--date") if date else None,
                location=location,
                notes=notes,
                duration_min=duration,
                score_file=text,
            )
            history.replace(changed)
        except EditError as error:
            fail_with_problems(str(error), error.problems)
        except HistoryError as error:
            fail(str(error))
    typer.echo(f"Game #{play_id} changed.")


@history_app.command("rename")
def history_rename(
    old: Annotated[str, typer.Argument(metavar="OLD", help="The person's name now.")],
    new: Annotated[
        str, typer.Argument(metavar="NEW", help="Their new name; if it is someone's, a merge.")
    ],
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Merge without asking.")] = False,
    db: DbOption = None,
) -> None:
    """Rename a person in every game, or merge them into NEW when NEW is someone's already.

    Stats, records and ratings then know one person. A merge asks first; the
    history backup taken before it undoes it.
    """
    from companion.history.errors import HistoryError
    from companion.history.people import RenameError, plan_rename, rename_person
    from companion.terminal.safe_text import line

    with open_history(db) as history:
        try:
            plan = plan_rename(history, old, new)
            if plan.merge and not yes:
                question = line(
                    f"{plan.new} is already in the history: {plan.old} is in "
                    f"{plural(len(plan.old_games), 'game')} and {plan.new} in "
                    f"{plural(len(plan.new_games), 'game')}. Merge {plan.old} into {plan.new} "
                    f"({plural(len(plan.old_games) + len(plan.new_games), 'game')})?"
                )
                if not typer.confirm(question, default=False):
                    typer.echo("Nothing changed.")
                    raise typer.Exit(1)
            changed = rename_person(history, plan)
        except RenameError as error:
            fail(str(error), 2)
        except HistoryError as error:
            fail(str(error))
    done = "merged into" if plan.merge else "renamed"
    typer.echo(line(f"{plan.old} {done} {plan.new} in {plural(changed, 'game')}."))


@history_app.command("people")
def history_people(json: JsonOption = False, db: DbOption = None) -> None:
    """List the people of the history with their games and earlier names."""
    from companion.history.errors import HistoryError
    from companion.history.people import people

    with open_history(db, write=False) as history:
        try:
            found = people(history)
        except HistoryError as error:
            fail(str(error))
    if json:
        print_json([{"name": p.name, "games": p.games, "aliases": list(p.aliases)} for p in found])
        return
    from companion.terminal.safe_text import line

    if not found:
        typer.echo("Nobody is in the history yet.")
        return
    width = max(len(p.name) for p in found)
    for person in found:
        aliases = f"   was: {', '.join(person.aliases)}" if person.aliases else ""
        typer.echo(line(f"{person.name:<{width}}  {plural(person.games, 'game'):>9}{aliases}"))


@history_app.command("delete")
def history_delete(
    play_id: Annotated[int, typer.Argument(metavar="ID", help="The game's number.")],
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Do not ask to confirm.")] = False,
    db: DbOption = None,
) -> None:
    """Delete a recorded game (asks first)."""
    from companion.history.errors import HistoryError

    play = _get(db, play_id)
    if not yes:
        from companion.history.reports import game_title, stamp
        from companion.terminal.safe_text import line

        question = line(
            f"Delete game #{play.id} ({game_title(play.game)}, {stamp(play.played_at)}, "
            f"{', '.join(play.players)})?"
        )
        if not typer.confirm(question, default=False):
            typer.echo("Nothing deleted.")
            raise typer.Exit(1)
    with open_history(db) as history:
        try:
            history.delete(play_id)
        except HistoryError as error:
            fail(str(error))
    typer.echo(f"Game #{play_id} deleted.")


@history_app.command("note")
def history_note(
    play_id: Annotated[int, typer.Argument(metavar="ID", help="The game's number.")],
    text: Annotated[str, typer.Argument(help="The note, added on a line of its own.")],
    db: DbOption = None,
) -> None:
    """Add a note to a recorded game."""
    from dataclasses import replace

    from companion.history.errors import HistoryError
    from companion.history.user_text import clean_text

    if not clean_text(text, lines=True).strip():
        fail("the note is empty", 2)
    with open_history(db) as history:
        try:
            play = history.get(play_id)
            added = clean_text(text, lines=True).strip()
            notes = f"{play.notes}\n{added}" if play.notes else added
            history.replace(replace(play, notes=notes))
        except HistoryError as error:
            fail(str(error))
    typer.echo(f"Note added to game #{play_id}.")


@history_app.command("stats")
def history_stats(game: GameOption = None, json: JsonOption = False, db: DbOption = None) -> None:
    """Wins, scores, streaks, rivals, head-to-head records and how long games take."""
    from companion.history.after_game import lengths
    from companion.history.stat_queries import of_history

    where = make_filter(game)
    with open_history(db, write=False) as history:
        stats = of_history(history, where)
        timed = lengths(history, where)
    if json:
        print_json({**stats.to_json(), "lengths": [length.to_json() for length in timed]})
        return
    if not stats.players:
        typer.echo("No games recorded yet.")
        return
    from companion.terminal.stats_tables import lengths_table, stats_tables

    show(stats_tables(stats))
    if timed:
        show(lengths_table(timed))


GameArgument = Annotated[
    str | None,
    typer.Argument(metavar="[GAME]", help="Only this game (id or title); default: every game."),
]
NOT_COUNTED = "interim scorings and ignored games do not count"


@history_app.command("records")
def history_records(
    game: GameArgument = None, json: JsonOption = False, db: DbOption = None
) -> None:
    """Records: highest totals, biggest margins, longest win streaks, best in each category.

    With GAME, the records in each category and everyone's personal bests too.
    """
    from companion.history.after_game import records

    gid = game_id(game)
    with open_history(db, write=False) as history:
        found = records(history, gid)
    if json:
        from companion.terminal.standings import records_json

        print_json(records_json(found))
        return
    if not found:
        from companion.history.reports import game_title

        which = f"{game_title(gid)} games" if gid else "games"
        typer.echo(f"No {which} recorded yet ({NOT_COUNTED}).")
        return
    from companion.terminal.standings import records_tables

    show(records_tables(found, gid))
    if gid is None:
        typer.echo("Each category and personal bests: companion history records GAME")


@history_app.command("ratings")
def history_ratings(
    game: GameArgument = None, json: JsonOption = False, db: DbOption = None
) -> None:
    """Skill ratings (openskill's Plackett-Luce), best first, from every game in play order.

    Rating is skill minus three times its uncertainty: it starts at 0 and rises as
    a player wins and the rating becomes sure. Without GAME, over every game.
    """
    from companion.history.after_game import ratings

    gid = game_id(game)
    with open_history(db, write=False) as history:
        rated = ratings(history, gid)
    if json:
        from companion.terminal.standings import ratings_json

        print_json(ratings_json(rated, gid))
        return
    if not rated.plays:
        from companion.history.reports import game_title

        which = f"{game_title(gid)} games" if gid else "games"
        typer.echo(f"No {which} rated yet ({NOT_COUNTED}).")
        return
    from companion.terminal.standings import ratings_table

    show(ratings_table(rated, gid))


@history_app.command("export")
def history_export(
    fmt: Annotated[
        str, typer.Option("--format", "-f", metavar="FORMAT", help="csv, json, bgstats or bgg-xml.")
    ],
    out: Annotated[
        Path | None,
        typer.Option(
            "--out", "-o", metavar="FILE", help="Write to FILE (a new file) instead of the screen."
        ),
    ] = None,
    force: Annotated[
        bool, typer.Option("--force", help="Replace FILE if it already exists.")
    ] = False,
    excel: Annotated[
        bool,
        typer.Option("--excel", help="csv for Excel: UTF-8 with a byte order mark, CRLF lines."),
    ] = False,
    game: GameOption = None,
    db: DbOption = None,
) -> None:
    """Export the history for spreadsheets, BG Stats or BoardGameGeek."""
    from companion.history.formats.dispatch import FORMATS, encoded, export, missing_bgg_ids
    from companion.history.store import default_path

    if fmt not in FORMATS:
        fail(f"--format must be one of {', '.join(FORMATS)}, got {fmt!r}", 2)
    if excel and fmt != "csv":
        fail("--excel is for --format csv", 2)
    database = db or default_path()
    if out is not None:
        _check_out(out, database, force=force)
    if fmt == "json":
        _export_json(out, game, db, force=force)
        return
    with open_history(db, write=False) as history:
        plays = history.plays(make_filter(game))
        logs = history.event_logs() if fmt == "json" else {}
        uuids = history.player_uuids() if fmt in ("json", "bgstats") else {}
        kept = history.kept("bgstats") if fmt == "bgstats" else None
    data = encoded(
        export(plays, fmt, events=logs, excel=excel, player_uuids=uuids, kept=kept), excel=excel
    )
    if fmt in ("bgstats", "bgg-xml"):
        missing = missing_bgg_ids(plays)
        if missing:
            typer.echo(
                f"Note: no BoardGameGeek id is known yet for {', '.join(missing)}; written as 0.",
                err=True,
            )
    if out is None:
        import sys

        sys.stdout.buffer.write(data)
        sys.stdout.flush()
        return
    _write_out(out, data)
    typer.echo(f"Exported {len(plays)} games to {out}.", err=True)


def _export_json(out: Path | None, game: str | None, db: Path | None, *, force: bool) -> None:
    """Our json export, written a page of games at a time: bounded memory for a history
    of any size. To the screen, one document; to ``out``, through temporary files, in
    parts an import takes (``out``, then ``NAME-2.json``… when it is larger than an
    import reads at once)."""
    import io
    import sys

    from companion.history.formats.bounded import MAX_IMPORT_BYTES
    from companion.history.formats.ours import JsonWriter, entries, write_json
    from companion.history.sync_local import game_logs
    from companion.safe_file import replacing

    with open_history(db, write=False) as history:
        pages = ((page, game_logs(history, page)) for page in history.play_pages(make_filter(game)))
        uuids = history.player_uuids()
        if out is None:
            stream = io.TextIOWrapper(sys.stdout.buffer, encoding="utf-8", newline="\n")
            try:
                write_json(stream, pages, player_uuids=uuids)
            finally:
                stream.flush()
                stream.detach()
            return
        items = entries(pages)
        item = next(items, None)
        written: list[tuple[Path, int]] = []
        limit = MAX_IMPORT_BYTES * 9 // 10  # room for the people's uuids at the end
        while item is not None or not written:
            path = (
                out if not written else out.with_name(f"{out.stem}-{len(written) + 1}{out.suffix}")
            )
            if written and path.exists() and not force:
                fail(f"{path} already exists; use --force to replace it")
            try:
                with (
                    replacing(path) as temporary,
                    temporary.open("w", encoding="utf-8", newline="\n") as file,
                ):
                    writer = JsonWriter(file, uuids)
                    while item is not None:
                        size = len(item[1].encode("utf-8", "surrogatepass")) + 2
                        if writer.count and writer.size + size > limit:
                            break
                        writer.add(*item)
                        item = next(items, None)
                    writer.close()
            except OSError as error:
                fail(f"cannot write {path}: {error.strerror or error}")
            written.append((path, writer.count))
    count = sum(n for _, n in written)
    if len(written) == 1:
        typer.echo(f"Exported {count} games to {out}.", err=True)
        return
    typer.echo(
        f"Exported {count} games to {out} and {len(written) - 1} more files "
        f"({', '.join(p.name for p, _ in written[1:])}): each is imported on its own "
        "(history import FILE, for each).",
        err=True,
    )


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve() or (a.exists() and b.exists() and a.samefile(b))
    except OSError:
        return False


def _check_out(out: Path, database: Path, *, force: bool) -> None:
    """Refuse to write over the history, a link, a device, a folder, or (without --force)
    an existing file."""
    for part in ("", "-wal", "-shm", "-journal"):
        if _same_file(out, database.with_name(database.name + part)):
            fail(f"{out} is the history database itself; nothing was written")
    if out.is_symlink():
        fail(f"{out} is a symbolic link; nothing was written")
    if out.exists():
        if not out.is_file():
            fail(f"{out} is not a regular file; nothing was written")
        if not force:
            fail(f"{out} already exists; use --force to replace it")
    if not out.parent.is_dir():
        fail(f"cannot write {out}: the folder {out.parent} does not exist")


def _write_out(out: Path, data: bytes) -> None:
    """Write through a temporary file beside ``out``, renamed into place; removed on failure."""
    from companion.safe_file import write_bytes

    try:
        write_bytes(out, data)
    except OSError as error:
        fail(f"cannot write {out}: {error.strerror or error}")


IN_PARTS = (
    "Our json export writes a history this large in parts that import: "
    "companion history export -f json --out backup.json writes backup.json, "
    "backup-2.json and so on; import each part."
)
"""Told when an import file is larger than an import reads at once."""


@history_app.command("import")
def history_import(
    file: Annotated[
        str,
        typer.Argument(
            metavar="FILE",
            help="Our json export, a BG Stats backup or BoardGameGeek play XML; - reads stdin.",
        ),
    ],
    db: DbOption = None,
) -> None:
    """Import games from our json export, a BG Stats backup or BoardGameGeek's play XML."""
    from companion.bounded_json import FileTooLarge, InputError, NotText
    from companion.history.formats.dispatch import read_history_file
    from scorers import ScoreFileError

    try:
        parsed = read_history_file(file)
    except FileTooLarge as error:
        fail(f"{error}; nothing was imported.\n{IN_PARTS}", 2)
    except NotText as error:
        fail(f"{error}; nothing was imported", 2)
    except InputError as error:
        fail(str(error))
    except ScoreFileError as error:
        fail_with_problems(
            f"{file} cannot be imported ({plural(len(error.problems), 'problem')}); "
            "nothing was imported:",
            error.problems,
        )
    from companion.history.reports import Added, import_report

    counted = Added()
    try:  # (the plays are read back from a temporary file, one batch at a time)
        if parsed.has_events:
            from companion.play.replay_check import logged_problems

            replayed = logged_problems(parsed.logged())
            if replayed:
                fail_with_problems(
                    f"{file} cannot be imported ({plural(len(replayed), 'problem')}); "
                    "nothing was imported:",
                    replayed,
                )
        with open_history(db) as history:
            done = history.add_logged(
                _with_progress(parsed.logged(), parsed.count),
                keep_ids=parsed.kind == "json",
                added=counted.count,
                player_uuids=parsed.player_uuids,
                records=parsed.records,
                corrected_by={"bgstats": "bgstats", "bgg-xml": "bgg"}.get(parsed.kind),
            )
    finally:
        parsed.close()
    typer.echo("\n".join(import_report(parsed, done, counted)))


def _with_progress(plays: Iterator[Any], total: int) -> Iterable[Any]:
    """Show a progress bar on a terminal for large imports."""
    import sys

    if total < 500 or not sys.stderr.isatty():
        return plays
    from rich.console import Console
    from rich.progress import track

    return track(plays, total=total, description="Importing", console=Console(stderr=True))


@history_app.command("check")
def history_check(db: DbOption = None) -> None:
    """Check the history: SQLite's integrity, every score file and every played-along game."""
    from companion.play.replay_check import check_history, report_text

    with open_history(db, write=False, verify=False) as history:
        report = check_history(history)
        text = report_text(report, history.path, missing=history.missing)
    typer.echo(text)
    if not report.ok:
        raise typer.Exit(1)


@history_app.command("backup")
def history_backup(
    file: Annotated[Path, typer.Argument(metavar="FILE", help="Where to write the copy.")],
    force: Annotated[
        bool, typer.Option("--force", help="Replace FILE if it is an existing file.")
    ] = False,
    db: DbOption = None,
) -> None:
    """Write a consistent copy of the history to FILE (safe while games are being saved)."""
    from companion.history.backup import backup
    from companion.history.errors import HistoryError

    with open_history(db, write=False) as history:
        if history.missing:
            fail(f"there is no history at {history.path} to back up")
        try:
            games = backup(history, file, force=force)
        except HistoryError as error:
            fail(str(error))
    typer.echo(f"Backed up {plural(games, 'game')} to {file}.")
