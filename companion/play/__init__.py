"""Playing along at the table: set-up, rounds, start players and guided scoring.

One module per game (``shimoda``, ``shibuya``, ``tokaido``, ``kamakura``,
``shogun``), each with ``flow(table)`` for a whole game and
``score_only(table)`` for entering a finished game's scores.
"""
