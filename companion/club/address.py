"""A club's address: a PostgreSQL connection string, never shown with its password."""

from __future__ import annotations

import re
from urllib.parse import unquote, urlsplit

_URL_PASSWORD = re.compile(r"^([a-z][a-z0-9+.-]*://[^:@/?#]*:)([^@/?#]*)(@)", re.IGNORECASE)
_PARAM_PASSWORD = re.compile(r"(\bpassword\s*=\s*)('(?:[^'\\]|\\.)*'|[^\s&]*)", re.IGNORECASE)
MAX_URL = 2000
"""At most this many characters in a club's address."""


class ClubError(Exception):
    """Trouble with a club's ledger, said in one line without credentials."""


def masked(url: str) -> str:
    """``url`` with any password replaced by ``***`` (in the URL or as a parameter)."""
    return _PARAM_PASSWORD.sub(r"\1***", _URL_PASSWORD.sub(r"\1***\3", url))


def secrets_of(url: str) -> list[str]:
    """The passwords written in ``url`` (as written and decoded), to keep out of messages."""
    found = []
    match = _URL_PASSWORD.match(url)
    if match and match.group(2):
        found += [match.group(2), unquote(match.group(2))]
    for _, value in _PARAM_PASSWORD.findall(url):
        if value:
            found += [value, value.strip("'"), unquote(value)]
    return [s for s in found if len(s) >= 1]


def scrub(text: str, url: str) -> str:
    """``text`` (a server's message) without the passwords of ``url`` or any other."""
    text = masked(text)
    for secret in sorted(secrets_of(url), key=len, reverse=True):
        text = text.replace(secret, "***")
    return text


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
        scheme = urlsplit(url).scheme.lower()
        if scheme not in ("postgresql", "postgres"):
            raise ClubError(
                f"{masked(url)} is not a PostgreSQL address (postgresql://user@host/database)"
            )
    elif "=" not in url:
        raise ClubError(
            f"{masked(url)} is not a PostgreSQL address (postgresql://user@host/database)"
        )
    return url
