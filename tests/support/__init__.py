"""What the tests share and that is not a test: data, helpers, scripted games, strategies.

Fixtures live in the ``conftest.py`` files; values the tests need at collection
time (parametrize tables) and plain functions live here.
"""
