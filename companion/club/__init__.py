"""A club's shared history: a ledger on PostgreSQL that every table's history syncs with.

:mod:`companion.club.address` (a connection string shown without its password),
:mod:`companion.club.schema` (the ledger's tables, as numbered migrations),
:mod:`companion.club.ledger` (the connection and what is read and written there),
:mod:`companion.club.sync` (a sync and a status, over
:mod:`companion.history.sync_local`).
"""
