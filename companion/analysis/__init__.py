"""The after-game engines over plain data: stats, records, ratings, explanations, time.

Nothing here reads the history or touches SQL: :mod:`companion.history` reads
the plays and hands them over as plain values.
"""
