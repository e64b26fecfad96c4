"""Playing along at the table, for any game: the prompts, the terminal's score pad drawn
from a kit's description, set-up, and running and replaying a session.

Each game's own flow (``flow(table)`` for a whole game, ``score_only(table)`` for a
finished game's scores) lives in its kit: :mod:`companion.kits`.
"""
