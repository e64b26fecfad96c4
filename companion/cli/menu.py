"""The menu of ``companion`` without a command.

Every submenu ends with *Back*; Esc and Ctrl-C in a submenu go back a level
too. In the main menu, Quit, Esc and Ctrl-C leave, with exit status 0 (leaving
is on purpose). Games are listed by their titles.
"""

from pathlib import Path
from typing import Any

import typer

from companion.cli.common import BACK, ask, open_history, show_parts, show_topic
from companion.cli.sessions import resume_session, start_session


def game_choices() -> list[Any]:
    """The games by their titles (the answer is the game's id)."""
    import questionary

    from scorers import SCORERS

    return [questionary.Choice(title=s.info.title, value=s.info.id) for s in SCORERS.values()]


def menu(db: Path | None) -> None:
    """The main menu of ``companion`` without arguments."""
    import questionary
    from prompt_toolkit.key_binding import KeyBindings, merge_key_bindings

    while True:
        question = questionary.select(
            "What now?",
            choices=[
                "New game",
                "Resume a game",
                "Score a finished game",
                "Rules",
                "History",
                "Quit",
            ],
        )
        keys = KeyBindings()

        @keys.add("escape", eager=True)
        def _quit(event: Any) -> None:
            event.app.exit(result="Quit")

        application = question.application
        application.key_bindings = merge_key_bindings([application.key_bindings or keys, keys])
        choice = question.unsafe_ask()
        if choice == "Quit":
            return
        if choice in ("New game", "Score a finished game"):
            game = ask("Which game?", game_choices())
            if game != BACK:
                start_session(game, "play" if choice == "New game" else "score", db)
        elif choice == "Resume a game":
            resume_session(None, False, db, back=True)
        elif choice == "Rules":
            rules_menu()
        else:
            recent(db)


def recent(db: Path | None) -> None:
    """The 20 most recent games, as ``companion history list --limit 20`` lists them."""
    from companion.history.model import Filter
    from companion.history.reports import listing
    from companion.terminal.history_tables import listing_parts

    with open_history(db, write=False) as history:
        shown = listing(history, Filter(), 20)
    show_parts(listing_parts(shown, filtered=False))


SEARCH = "Search these rules (type a question)"
OTHER = "Other topics"


def rules_menu() -> None:
    """Pick a game, then a topic (or search its rules), and show it; *Back* goes up a level.

    After a topic, a short question names it (so its title stays in view
    under the text) and offers its related topics by their titles.
    """
    from scorers import SCORERS

    while True:
        game = ask("Rules of which game?", game_choices())
        if game == BACK:
            return
        browse_rules(game, SCORERS[game].info.title)


def browse_rules(game: str, title: str) -> None:
    """The topics of one game: listed, searched, shown, and followed by their links."""
    import questionary

    from companion.rules import by_phase, load_topics

    topics = {t.id: t for t in by_phase(load_topics(game))}  # as `companion rules GAME`
    current: str | None = None
    while True:
        if current is None:
            choices = [questionary.Choice(title=SEARCH, value=SEARCH)]
            choices += [questionary.Choice(title=t.title, value=t.id) for t in topics.values()]
            picked = ask(f"Which topic of {title}?", choices)
            if picked == BACK:
                return
            current = search_rules(game, title) if picked == SEARCH else picked
            if current is None or current not in topics:
                current = None
                continue
        topic = topics[current]
        show_topic(topic, title)
        related = [
            questionary.Choice(title=f"See also: {topics[i].title}", value=i)
            for i in topic.see_also
            if i in topics
        ]
        after = ask(
            f"{title}: {topic.title}. Next?",
            [*related, questionary.Choice(title=SEARCH, value=SEARCH), OTHER],
        )
        if after == SEARCH:
            found = search_rules(game, title)
            current = found if found in topics else current
        elif after in (BACK, OTHER):
            current = None
        else:
            current = after


def search_rules(game: str, title: str) -> str | None:
    """Ask a question, list the topics that answer it best; the one picked (``None``: back)."""
    import questionary

    from companion.rules.search import search
    from companion.terminal.safe_text import line

    # The question is typed on a line of its own: a long one is never wrapped mid-word.
    typed = questionary.text(
        f"Search the rules of {title}", instruction="(Enter alone: back)\n"
    ).unsafe_ask()
    if not typed or not typed.strip():
        return None
    found = search(typed, game=game, limit=5)
    if not found.hits:
        typer.echo("Nothing found: try other words, or pick from the list.")
        return None
    choices = [questionary.Choice(title=line(hit.title), value=hit.topic) for hit in found.hits]
    picked = ask(f"Best answers to {line(typed.strip()[:60])!r}:", choices)
    return None if picked == BACK else str(picked)


def goodbye(db: Path | None) -> str:
    """What Ctrl-C in the main menu says: bye, and the unfinished games only if any wait."""
    from companion.history.errors import HistoryError
    from companion.history.sessions import TERMINAL_KINDS, SessionStore
    from companion.wording import plural

    try:
        with open_history(db, write=False) as history:
            waiting = len(SessionStore(history).unfinished(TERMINAL_KINDS))
    except (HistoryError, typer.Exit):
        waiting = 0
    if not waiting:
        return "\nBye."
    verb = "waits" if waiting == 1 else "wait"
    return f"\nBye. {plural(waiting, 'unfinished game')} {verb} in: companion resume"
