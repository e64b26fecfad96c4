"""``companion play``, ``resume`` and ``setup``."""

from typing import Annotated

import typer

from companion.cli.common import (
    GAMES_HELP,
    DbOption,
    JsonOption,
    LocationOption,
    VoiceFileOption,
    checked_place,
    fail,
    game_id,
    print_json,
    require_kit,
)
from companion.cli.sessions import resume_session, start_session


def play(
    game: Annotated[str, typer.Argument(help=GAMES_HELP + ".")],
    location: LocationOption = None,
    db: DbOption = None,
    voice_file: VoiceFileOption = None,
) -> None:
    """Start a new game and play along: set-up, rounds, start players, scoring.

    Without --location, places from the history are offered (when it knows some).
    At the end count, F2 or :say fills the answer with what is said (docs/voice.md).
    """
    start_session(game_id(game), "play", db, checked_place(location), voice_file=voice_file)


def resume(
    session: Annotated[
        int | None, typer.Argument(metavar="ID", help="The game to resume (default: choose).")
    ] = None,
    abandon: Annotated[
        bool, typer.Option("--abandon", help="Set game ID aside for good instead.")
    ] = False,
    db: DbOption = None,
    voice_file: VoiceFileOption = None,
) -> None:
    """Continue an unfinished game at the question where it stopped.

    At the end count, F2 or :say fills the answer with what is said (docs/voice.md).
    """
    resume_session(session, abandon, db, voice_file=voice_file)


def setup(
    game: Annotated[str, typer.Argument(help=GAMES_HELP + ".")],
    players: Annotated[int, typer.Option("--players", "-p", help="How many players.")],
    seed: Annotated[
        int | None, typer.Option("--seed", help="Repeat the draws of this seed.")
    ] = None,
    json: JsonOption = False,
) -> None:
    """Print the set-up checklist and the random draws for a player count."""
    from companion.play.setup import SetupError, checklist, draws, new_seed, setup_text

    gid = game_id(game)
    require_kit(gid)
    try:
        steps = checklist(gid, players)
    except SetupError as error:
        fail(str(error), 2)
    seed = seed if seed is not None else new_seed()
    drawn = draws(gid, players, seed)
    if json:
        print_json({"game": gid, "players": players, "seed": seed, "steps": steps, "draws": drawn})
        return
    typer.echo(setup_text(gid, players, steps, seed, drawn))
