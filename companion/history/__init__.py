"""The history of games played, kept in SQLite, and everything that reads or writes it.

:mod:`~companion.history.history_file` owns the connection and its transactions;
:class:`~companion.history.store.History` is that file with the recorded games;
the play model is in :mod:`~companion.history.model`; the other modules
(sessions, imports, exports, editing, checks, queries) work through the store.
No module outside this package touches a connection.
"""
