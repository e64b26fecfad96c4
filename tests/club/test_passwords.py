"""A club's password is never shown or kept, however it is written."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from companion.club.address import masked, scrub
from tests.support.club_tables import run, sync, table
from tests.support.postgres import Server


def member(server: Server, database: str, password: str) -> str:
    """A new role that may write the ledger of ``database``, with ``password``."""
    name, _ = server.new_role(database, read_only=False)
    server.admin(f"ALTER ROLE {name} PASSWORD '{password}'")
    return name


def kept(db: Path) -> str:
    """Everything the history file holds, as text."""
    with sqlite3.connect(db) as connection:
        return "\n".join(connection.iterdump())


@pytest.mark.parametrize("password", ["pa#ss-word9", "que?ry-word9", "both#and?9"])
def test_a_password_with_hash_or_question_mark_works_and_is_never_shown_or_kept(
    club: str, server: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, password: str
) -> None:
    # Expected: the sync works with the password written as is in the address;
    # neither sync nor status prints it, and the history file does not hold it.
    monkeypatch.delenv("PGPASSWORD")
    database = club.rsplit("/", 1)[1]
    name = member(server, database, password)
    url = f"postgresql://{name}:{password}@127.0.0.1:{server.port}/{database}"
    a = table(tmp_path / "a.sqlite3", "a", 2)
    said = sync(url, a)
    assert said.exit_code == 0, said.output
    assert said.output == "Sent 2 plays; took 0 plays (0 new, 0 changed, 0 deleted).\n"
    status = run("club", "status", url, "--db", str(a))
    assert status.exit_code == 0, status.output
    assert f"Club's ledger: postgresql://{name}:***@127.0.0.1:{server.port}/{database}\n" in (
        status.output
    )
    for secret in (password, password[:6], password[-6:]):
        assert secret not in status.output
        assert secret not in kept(a)


def test_an_at_sign_in_a_password_is_refused_unless_encoded(
    club: str, server: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Expected: written as is, one clear line without any part of it; written
    # as %40, the sync works.
    monkeypatch.delenv("PGPASSWORD")
    database = club.rsplit("/", 1)[1]
    name = member(server, database, "sec@ret-tail")
    a = table(tmp_path / "a.sqlite3", "a", 1)
    raw = f"postgresql://{name}:sec@ret-tail@127.0.0.1:{server.port}/{database}"
    refused = sync(raw, a)
    assert (refused.exit_code, refused.output) == (
        1,
        f"Error: the password in postgresql://{name}:***@127.0.0.1:{server.port}/{database} "
        "holds an @ or a /: write them as %40 and %2F, or give the password in PGPASSWORD "
        "or ~/.pgpass\n",
    )
    encoded = f"postgresql://{name}:sec%40ret-tail@127.0.0.1:{server.port}/{database}"
    assert sync(encoded, a).exit_code == 0
    assert "ret-tail" not in kept(a)


def test_a_one_letter_password_never_mangles_a_message(
    club: str, server: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Expected: a wrong one-letter password gives the usual line, its words whole.
    monkeypatch.delenv("PGPASSWORD")
    database = club.rsplit("/", 1)[1]
    name = member(server, database, "right-one")
    url = f"postgresql://{name}:a@127.0.0.1:{server.port}/{database}"
    said = sync(url, table(tmp_path / "a.sqlite3", "a", 1))
    assert (said.exit_code, said.output) == (
        1,
        f"Error: cannot connect to the club's ledger postgresql://{name}:***@127.0.0.1:"
        f"{server.port}/{database}: the server refused the password (check PGPASSWORD "
        "or ~/.pgpass)\n",
    )
    assert scrub('password authentication failed for user "x"', url) == (
        'password authentication failed for user "x"'
    )
    assert masked("host=h password='a b' user=x") == "host=h password=*** user=x"


def test_a_database_with_another_programs_ledger_table_says_so(
    server: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Expected: one line saying it is not a club's ledger, for sync and init.
    monkeypatch.setenv("PGPASSWORD", server.password)
    database = server.new_database()
    server.admin("CREATE TABLE ledger (entry_id serial, amount numeric)", database)
    url = server.url(database)
    for args in (("club", "sync", url, "--db", str(tmp_path / "a.sqlite3")), ("club", "init", url)):
        said = run(*args)
        assert (said.exit_code, said.output) == (
            1,
            f"Error: {url} is not a club's ledger: it holds another program's table named "
            "ledger (give the club its own database)\n",
        )
