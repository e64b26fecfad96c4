"""The history of games played, kept in SQLite, and everything that reads or writes it.

:mod:`~companion.history.store` owns the connection and its transactions; the
play model is in :mod:`~companion.history.model`; the other modules (sessions,
imports, exports, editing, checks, queries) work through the store. No module
outside this package touches a connection.
"""
