"""The club's tests run against a real PostgreSQL server, started once for the session."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support import postgres


@pytest.fixture(scope="session")
def server() -> Iterator[postgres.Server]:
    """A PostgreSQL server on 127.0.0.1 for the whole session (skipped when not installed)."""
    if postgres.binaries() is None:
        pytest.skip("PostgreSQL is not installed (no initdb and pg_ctl): the club tests need it")
    with postgres.running() as running:
        yield running


@pytest.fixture
def club(server: postgres.Server, monkeypatch: pytest.MonkeyPatch) -> str:
    """A new database with a club's ledger; its URL (the password in ``PGPASSWORD``)."""
    from companion.club.ledger import connected

    name = server.new_database()
    monkeypatch.setenv("PGPASSWORD", server.password)
    monkeypatch.delenv("COMPANION_CLUB", raising=False)
    url = server.url(name)
    with connected(url) as ledger:
        ledger.init()
    return url
