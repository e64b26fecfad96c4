"""A club's address: a PostgreSQL connection string, never shown with its password."""

from __future__ import annotations

import re
from urllib.parse import unquote

_SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*://", re.IGNORECASE)
_PARAM_PASSWORD = re.compile(r"(\bpassword\s*=\s*)('(?:[^'\\]|\\.)*'|[^\s&]*)", re.IGNORECASE)
MAX_URL = 2000
"""At most this many characters in a club's address."""


class ClubError(Exception):
    """Trouble with a club's ledger, said in one line without credentials."""


def _userinfo(url: str) -> tuple[int, int] | None:
    """Where a URL's password is (``start, end``), taken widely: from the first ``:``
    after the scheme's ``//`` to the last ``@`` (a password may hold ``#``, ``?``,
    ``/`` or ``@``, written or not as ``%xx``)."""
    head = _SCHEME.match(url)
    if head is None:
        return None
    start = head.end()
    last_at = url.rfind("@", start)
    if last_at < 0:
        return None
    colon = url.find(":", start, last_at)
    if colon < 0:
        return None
    return colon + 1, last_at


def masked(url: str) -> str:
    """``url`` with any password replaced by ``***`` (in the URL or as a parameter)."""
    where = _userinfo(url)
    if where is not None and where[1] > where[0]:
        url = url[: where[0]] + "***" + url[where[1] :]
    return _PARAM_PASSWORD.sub(r"\1***", url)


def secrets_of(url: str) -> list[str]:
    """The passwords written in ``url`` (as written and decoded), to keep out of messages."""
    found = []
    where = _userinfo(url)
    if where is not None and where[1] > where[0]:
        secret = url[where[0] : where[1]]
        found += [secret, unquote(secret)]
    for _, value in _PARAM_PASSWORD.findall(url):
        if value:
            found += [value, value.strip("'"), unquote(value)]
    return [s for s in found if len(s) >= 1]


def scrub(text: str, url: str) -> str:
    """``text`` (a server's message) without the passwords of ``url`` or any other.

    A short password is taken out where it stands as a word of its own, so that
    masking never touches other words ("password authentication failed" with
    the password ``p``).
    """
    text = masked(text)
    for secret in sorted(set(secrets_of(url)), key=len, reverse=True):
        if len(secret) >= SHORT:
            text = text.replace(secret, "***")
        else:
            text = re.sub(rf"(?<![\w]){re.escape(secret)}(?![\w])", "***", text)
    return text


SHORT = 8
"""A password shorter than this is masked only where it stands as a word."""


def checked(url: str | None) -> str:
    """The club's address as given, checked to be one.

    Raises:
        ClubError: No address, or one that is too long or not PostgreSQL's.
    """
    if not url or not url.strip():
        raise ClubError(
            "no club given: name its ledger as an argument, with --club URL or in COMPANION_CLUB "
            "(such as postgresql://alice@club.example.org/club)"
        )
    url = url.strip()
    if len(url) > MAX_URL or "\x00" in url:
        raise ClubError(
            "the club's address is not a PostgreSQL connection string "
            f"({MAX_URL} characters at most)"
        )
    if "://" in url:
        scheme = url.split("://", 1)[0].lower()
        if scheme not in ("postgresql", "postgres"):
            raise ClubError(
                f"{masked(url)} is not a PostgreSQL address (postgresql://user@host/database)"
            )
        rest = url.split("://", 1)[1]
        userinfo = rest[: rest.rfind("@")] if "@" in rest else ""
        after_slash = userinfo.split("/", 1)[1] if "/" in userinfo else ""
        in_query = "?" in after_slash or "=" in after_slash
        if ":" in userinfo.split("/")[0].split("@")[0] and (
            "@" in userinfo.split("/")[0] or ("/" in userinfo and not in_query)
        ):
            raise ClubError(
                f"the password in {masked(url)} holds an @ or a /: write them as %40 and %2F, "
                "or give the password in PGPASSWORD or ~/.pgpass"
            )
    elif "=" not in url:
        raise ClubError(
            f"{masked(url)} is not a PostgreSQL address (postgresql://user@host/database)"
        )
    return url
