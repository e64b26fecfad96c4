"""The menu of ``companion`` without a command."""

from pathlib import Path

from companion.cli.common import open_history, show_parts, show_topic
from companion.cli.sessions import resume_session, start_session


def menu(db: Path | None) -> None:
    """The main menu of ``companion`` without arguments."""
    import questionary

    from scorers import GAME_IDS

    while True:
        choice = questionary.select(
            "What now?",
            choices=[
                "New game",
                "Resume a game",
                "Score a finished game",
                "Rules",
                "History",
                "Quit",
            ],
        ).unsafe_ask()
        if choice == "Quit":
            return
        if choice == "New game":
            start_session(questionary.select("Which game?", GAME_IDS).unsafe_ask(), "play", db)
        elif choice == "Score a finished game":
            start_session(questionary.select("Which game?", GAME_IDS).unsafe_ask(), "score", db)
        elif choice == "Resume a game":
            resume_session(None, False, db)
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


def rules_menu() -> None:
    """Pick a game, then a topic, and show it."""
    import questionary

    from companion.rules import load_topics
    from scorers import GAME_IDS, SCORERS

    game = questionary.select("Rules of which game?", GAME_IDS).unsafe_ask()
    topics = {f"{t.title} ({t.id})": t for t in load_topics(game)}
    topic = questionary.select("Which topic?", list(topics)).unsafe_ask()
    show_topic(topics[topic], SCORERS[game].info.title)
