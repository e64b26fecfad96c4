"""Running a session at the terminal: start it, ask its questions, say how it ended.

Shared by ``companion play``, ``resume``, ``score`` without a score file and
the menu. A new game is started, or an unfinished one found, here, and opened
once as a :class:`~companion.history.sessions.Session` that is handed to
:func:`companion.play.runner.run`, which asks its questions (with questionary,
:mod:`companion.play.prompts`), scores and saves it; what is said after the
save comes from :mod:`companion.history.saving`.
"""

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from companion.cli.common import (
    BACK,
    INTERRUPTED,
    ask,
    fail,
    open_history,
    print_json,
    require_kit,
    resume_command,
    show,
)
from companion.terminal.wrapping import between_words

if TYPE_CHECKING:
    from companion.history.sessions import Session, SessionInfo

NO_TERMINAL = {
    "play": "companion play asks the players at a terminal, and there is none here; "
    "run it in a terminal (nothing was started)",
    "score": "there is no terminal to ask the players in; give the score file with "
    "--input FILE, or --input - to read it from standard input (nothing was saved)",
    "resume": "companion resume asks the players at a terminal, and there is none here; "
    "run it in a terminal (nothing was changed)",
}


def has_terminal() -> bool:
    """Whether questions can be asked: stdin is a terminal, or an input was set up."""
    import sys

    from prompt_toolkit.application.current import get_app_session

    # A caller (a test, an embedding program) may give prompt_toolkit its own input.
    return get_app_session()._input is not None or sys.stdin.isatty()


def need_terminal(kind: str) -> None:
    """Exit 2 with what to do instead when there is no terminal to ask in."""
    if not has_terminal():
        fail(NO_TERMINAL[kind], 2)


def resume_session(
    session: int | None,
    abandon: bool,
    db: Path | None,
    *,
    back: bool = False,
    voice_file: Path | None = None,
) -> None:
    """Continue unfinished game ``session`` (or one the players choose), or set it aside.

    Args:
        session: The game to resume; ``None`` goes on with the only unfinished
            game, or asks which when there are several.
        abandon: Set game ``session`` aside for good instead.
        db: The ``--db`` option.
        back: Offer *Back* in the list (the menu's submenu): it, Esc or
            Ctrl-C return without resuming.
        voice_file: ``--voice-file``: the WAV heard at the end count instead
            of the microphone.
    """
    from companion.history.sessions import TERMINAL_KINDS, SessionStore
    from companion.terminal.safe_text import line

    if not abandon:
        need_terminal("resume")
    if abandon and session is None:
        fail("--abandon needs the id of an unfinished game (companion resume lists them)")
    # Finding the game only reads: no history file is created to find nothing in it.
    with open_history(db, write=False) as history:
        store = SessionStore(history)
        if session is None:
            waiting = store.unfinished(TERMINAL_KINDS)
            if not waiting:
                typer.echo("No unfinished games.")
                return
        found = store.get(session) if session is not None else None
    if session is None:
        picked = waiting[0].id if len(waiting) == 1 else pick_session(waiting, back=back)
        if picked is None:
            return
        session = picked
    elif found is not None and found.status == "active" and found.kind not in TERMINAL_KINDS:
        fail(f"game #{session} is being filled in on the web page: open it with companion serve")
    elif found is None or found.status != "active":
        if abandon:
            fail("--abandon needs the id of an unfinished game (companion resume lists them)")
        fail(f"no unfinished game #{session} (companion resume lists them)")
    with open_history(db) as history:
        store = SessionStore(history)
        if abandon:
            found = store.get(session)
            holder = found.held_by() if found is not None else None
            if holder:
                fail(f"game #{session} is being played in another terminal ({holder})")
            store.abandon(session)
            typer.echo(f"Game #{session} set aside; it will not be offered again.")
            return
        info = store.get(session)
        if info is None or info.status != "active":
            fail(f"no unfinished game #{session} (companion resume lists them)")
        holder = info.held_by()
        if holder:
            from companion.history.sessions import held_message

            fail(held_message(info.id, holder))
        from scorers import SCORERS, title

        shown = title(info.game) if info.game in SCORERS else info.game
        drive(
            store.session(info.id),
            heading=lambda where: line(f"Resuming game #{info.id} ({shown}, {where})."),
            voice_file=voice_file,
        )


def pick_session(waiting: "list[SessionInfo]", *, back: bool = False) -> int | None:
    """Ask which unfinished game to resume; ``None`` for *Back* (or Esc, or Ctrl-C).

    ``back``: asked from the menu (kept for the callers; every chooser has Back).
    """
    import shutil

    from companion.history.reports import stamp
    from companion.terminal.safe_text import line
    from scorers import title

    # A choice is drawn after the pointer ("» "): what is longer is shortened, not wrapped.
    most = max(30, shutil.get_terminal_size().columns - 4)
    labels = {}
    for s in waiting:
        held = s.held_by()
        where = f"; open in another terminal: {held}" if held else ""
        when = f" (last answer {stamp(s.updated_at)} UTC{where})"
        game = line(f"#{s.id} {title(s.game)}, {s.note or 'setup'}")
        label = shorten(game, max(len(f"#{s.id}") + 2, most - len(when))) + line(when)
        labels[shorten(label, most)] = s.id
    # Back, Esc and Ctrl-C leave the chooser (from the menu: back to it; else: nothing done).
    answer = ask("Which game?", list(labels))
    return None if answer == BACK else labels[answer]


def shorten(text: str, most: int) -> str:
    """``text``, or its first whole words within ``most`` characters and ``…``."""
    if len(text) <= most:
        return text
    cut = text[: most - 1]
    if text[most - 1] != " " and not cut.endswith(" ") and " " in cut.strip():
        cut = cut[: cut.rstrip().rfind(" ")]  # the last word does not fit whole
    return cut.rstrip(" ,;:·") + "…"


OTHER_PLACE = "Somewhere else (type it)"
NO_PLACE = "No place (not saved)"


def ask_place(places: "list[str]") -> str | None:
    """Where the game is played: one of the known ``places``, another one, or none.

    ``None``: *Back* (or Esc): the players chose not to start.
    """
    import questionary

    from companion.history.places import NONE, clean_place, place_problem
    from companion.terminal.safe_text import line

    choices = [questionary.Choice(line(p), value=p) for p in places]
    answer = ask("Where are you playing?", [*choices, OTHER_PLACE, NO_PLACE], interrupt=True)
    if answer == BACK:
        return None
    if answer == NO_PLACE:
        return ""
    if answer != OTHER_PLACE:
        return str(answer)
    typed = questionary.text(
        f"The place ({NONE} for none)?",
        validate=lambda text: place_problem(text) or True,
        validate_while_typing=False,
    ).unsafe_ask()
    return clean_place(str(typed))


def start_session(
    game: str,
    kind: str,
    db: Path | None,
    place: str | None = None,
    *,
    save: bool = True,
    as_json: bool = False,
    voice_file: Path | None = None,
) -> None:
    """Open a new session and run it (exit 2, creating nothing, without a terminal).

    Args:
        game: The game id.
        kind: ``play`` or ``score``.
        db: The ``--db`` option.
        place: Where it is played (``""``: none); ``None`` asks, offering the
            places the history knows (nothing is asked when it knows none).
        save: ``False`` (``score --no-save``): the entry is kept while it is
            typed, so that Ctrl-C loses nothing, and removed once scored;
            nothing is recorded.
        as_json: ``score --json``: the questions and messages go to standard
            error and standard output gets only the result's JSON.
        voice_file: ``--voice-file``: the WAV heard at the end count instead
            of the microphone.
    """
    from companion.events import LOCATION
    from companion.history.places import known_places
    from companion.history.sessions import SessionStore
    from companion.play.runner import NO_SAVE

    require_kit(game, flows=True)
    need_terminal(kind)
    with open_history(db) as history, prompts_to_stderr(as_json):
        if place is None:
            places = known_places(history) if save else []
            try:
                place = ask_place(places) if places else ""
            except KeyboardInterrupt:
                typer.echo("\nStopped; nothing was started.", err=as_json)
                raise typer.Exit(INTERRUPTED) from None
            if place is None:
                typer.echo("Nothing was started.", err=as_json)
                return
        facts: list[tuple[str, object]] = [(LOCATION, place)] if place else []
        if not save:
            facts.append((NO_SAVE, True))
        store = SessionStore(history)
        session = store.session(store.start(game, kind, facts=facts))
        drive(session, as_json=as_json, voice_file=voice_file)


@contextmanager
def prompts_to_stderr(wanted: bool) -> Iterator[None]:
    """While ``wanted``, the prompts draw on standard error (stdout is kept for JSON).

    A caller that gave prompt_toolkit an output of its own (a test) keeps it.
    """
    from prompt_toolkit.application.current import create_app_session, get_app_session

    current = get_app_session()
    if not wanted or current._output is not None:
        yield
        return
    import sys

    from prompt_toolkit.output import create_output

    with create_app_session(input=current._input, output=create_output(stdout=sys.stderr)):
        yield


def drive(
    session: "Session",
    *,
    as_json: bool = False,
    heading: Callable[[str], str] | None = None,
    voice_file: Path | None = None,
) -> None:
    """Run an open session; a pause or Ctrl-C saves and says how to resume.

    ``heading``, given the part of the game it goes on at, is the line said
    before its first question (a resume's header: the stage asked now, not the
    one of the last answer).

    With ``as_json`` every message goes to standard error and the result is
    printed as the JSON of ``companion score --input FILE --json``. ``voice_file``
    is heard instead of the microphone at the end count (F2 or ``:say``).
    """
    from functools import partial

    from companion.analysis.played_game import INTERIM
    from companion.history.saving import after_saving
    from companion.history.sessions import SessionHeld, SessionLost
    from companion.play.prompts import QuestionaryPrompter
    from companion.play.runner import NO_SAVE, Abandoned, Stopped, run
    from companion.play.table import Pause
    from companion.terminal.results import after_block, result_table
    from companion.terminal.safe_text import lines

    def echo(text: str) -> None:
        typer.echo(text, err=as_json)

    try:
        done = run(
            session,
            prompter_for=partial(QuestionaryPrompter, voice_file=voice_file),
            out=lambda text: echo(between_words(lines(text))),
            heading=heading,
        )
    except (SessionHeld, SessionLost) as error:
        fail(str(error))
    except (Pause, Stopped, KeyboardInterrupt) as stop:
        if session.fact(NO_SAVE) and not isinstance(stop, Pause):
            # --no-save keeps nothing: an entry stopped before its end is removed, not
            # offered by resume (only an explicit :pause keeps it, until it is scored).
            session.store.discard(session.id)
            start = "\n" if isinstance(stop, KeyboardInterrupt) else ""
            echo(f"{start}Stopped; nothing was kept (--no-save).")
            raise typer.Exit(1 if isinstance(stop, Stopped) else INTERRUPTED) from None
        again = resume_command(session.id, session.store.history.path)
        if isinstance(stop, Pause):
            echo(f"Paused and saved. Continue with: {again}")
            raise typer.Exit(0) from None
        if isinstance(stop, Stopped):
            echo(f"Stopped; nothing was changed. Game #{session.id} waits in: {again}")
            raise typer.Exit(1) from None
        echo(f"\nStopped; every answer is saved. Continue with: {again}")
        raise typer.Exit(INTERRUPTED) from None
    except Abandoned:
        echo(f"Game #{session.id} set aside; its answers are kept in the history.")
        raise typer.Exit(0) from None
    from scorers import SCORERS

    document = done.result.to_json()
    if as_json:
        print_json(document)
    else:
        interim = done.saved.status == INTERIM
        title = SCORERS[done.result.game].info.title
        show(result_table(document, title=title, interim=interim, tie=done.result.tie))
        show(after_block(after_saving(session.history, done.saved)))
    echo(done.saved.message())
