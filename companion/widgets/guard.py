"""Who may use ``companion serve``: the table secret, the Host check and the closed doors.

Every run of ``companion serve`` has a random secret (the *table secret*).
A request is answered only when:

- its ``Host`` header names this server: ``localhost``, ``127.0.0.1``,
  ``[::1]``, the machine's own names and addresses, or the ``--host`` given
  (so a web page whose own name was rebound to 127.0.0.1, DNS rebinding,
  finds nothing);
- an ``Origin`` header, when there is one, is this very server;
- it carries the secret: in the cookie the first visit got, or as
  ``?table=SECRET`` in the URL (the first visit: answered with the cookie and
  a redirect to the same address without the secret);
- (the app's manifest and icons need no secret: nothing of the table is in them);
- it is not one of Jupyter's doors the pages never use (the kernel listing,
  contents, sessions, terminals, kernel specs, files, the file tree);
- a kernel it names is one the server handed to a page.

The kernels themselves ask the server for their visitor's request (Voilà's
preheated kernels) with a second secret that never changes while the
server runs, the *kernel secret*, as they cannot hold a cookie.

This module only decides; :mod:`companion.widgets.server` wires it into tornado.
"""

from __future__ import annotations

import hmac
import re
import secrets
import socket
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from urllib.parse import urlsplit

SECRET_VARIABLE = "COMPANION_TABLE_SECRET"
KERNEL_SECRET_VARIABLE = "COMPANION_KERNEL_SECRET"
HOSTS_VARIABLE = "COMPANION_ALLOWED_HOSTS"
COOKIE = "companion_table"
PARAMETER = "table"
SECRET_BYTES = 24  # 192 bits
MAX_SECRET = 100

LOOPBACK = ("localhost", "127.0.0.1", "::1")
KERNEL_PATH = re.compile(
    r"^/api/kernels/(?P<id>[0-9a-f]{8}-[0-9a-f-]{27})(?P<channels>/channels)?$"
)
QUERY_PATH = re.compile(r"^/voila/query/(?P<id>[0-9a-f-]{36})$")
# Jupyter's doors that no page of the companion uses.
CLOSED = (
    "/api/",
    "/voila/api/contents",
    "/voila/tree",
    "/voila/files",
    "/voila/labextensions",
    "/voila/execution",
    "/login",
    "/logout",
    "/tree",
    "/files",
    "/terminals",
)

# The installable app's manifest and icons: nothing of the table in them, and a
# browser may fetch them without the page's cookie.
PUBLIC = frozenset(
    f"/voila/templates/companion/static/{name}"
    for name in ("manifest.json", "icon.svg", "icon-192.png", "icon-512.png")
)


def new_secret() -> str:
    """A random secret of 192 bits, safe in a URL."""
    return secrets.token_urlsafe(SECRET_BYTES)


def host_name(host: str) -> str:
    """The name in a ``Host`` header, lower case, without port or brackets."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:].split("]", 1)[0]
    if host.count(":") == 1:
        host = host.split(":", 1)[0]
    return host.rstrip(".")


def own_names() -> set[str]:
    """The machine's own names and addresses (as a phone on the table may call it)."""
    names: set[str] = set(LOOPBACK)
    try:
        hostname = socket.gethostname()
    except OSError:
        return names
    names.update({hostname.lower(), f"{hostname.lower()}.local"})
    try:
        names.add(socket.getfqdn().lower())
        for info in socket.getaddrinfo(hostname, None):
            names.add(str(info[4][0]).lower())
    except OSError:
        pass
    return names


def network_addresses() -> list[str]:
    """The machine's IPv4 addresses other than loopback (the table's Wi-Fi among them).

    Found without sending anything: the address a UDP socket would use toward
    a private address, and the addresses of the host name.
    """
    found: list[str] = []
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            address = str(info[4][0])
            if not address.startswith("127.") and address not in found:
                found.append(address)
    except OSError:
        pass
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 1))  # UDP: nothing is sent
            address = str(probe.getsockname()[0])
        except OSError:
            address = ""
    if address and not address.startswith("127.") and address not in found:
        found.insert(0, address)
    return found


@dataclass
class Decision:
    """What to do with a request: pass it on, refuse it, or give the cookie and redirect."""

    status: int = 0  # 0: pass on; 403: refused; 302: set the cookie, go to ``location``
    reason: str = ""
    location: str = ""
    rejoin: bool = False  # refused for want of the secret: a browser gets the rejoin page


PASS = Decision()


@dataclass
class Guard:
    """The rules above, for one server run.

    Args:
        secret: The table secret.
        kernel_secret: The kernels' secret.
        hosts: The names the ``Host`` header may give besides the loopback ones.
    """

    secret: str
    kernel_secret: str
    hosts: set[str] = field(default_factory=set)
    kernels: set[str] = field(default_factory=set)  # handed to a page

    def __post_init__(self) -> None:
        self.hosts = {host_name(h) for h in (*self.hosts, *LOOPBACK) if h}

    @classmethod
    def from_environment(cls, env: Mapping[str, str]) -> Guard:
        """The guard of a server started by ``companion serve`` (a new secret when none)."""
        hosts = {h for h in env.get(HOSTS_VARIABLE, "").split(",") if h}
        return cls(
            env.get(SECRET_VARIABLE) or new_secret(),
            env.get(KERNEL_SECRET_VARIABLE) or new_secret(),
            hosts | own_names(),
        )

    def renew(self) -> str:
        """A new table secret (the old one no longer opens anything)."""
        self.secret = new_secret()
        return self.secret

    def knows(self, candidate: str | None, secret: str | None = None) -> bool:
        """True when ``candidate`` is the secret (compared in constant time)."""
        expected = self.secret if secret is None else secret
        if not candidate or len(candidate) > MAX_SECRET:
            return False
        return hmac.compare_digest(candidate.encode(), expected.encode())

    def allow_kernel(self, kernel_id: str) -> None:
        """A kernel handed to a page: devices with the secret may reach it."""
        self.kernels.add(kernel_id)

    def forget_kernels(self, running: Iterable[str]) -> None:
        """Keep only the kernels that still run."""
        self.kernels &= set(running)

    def decide(
        self,
        path: str,
        query: Mapping[str, list[str]],
        headers: Mapping[str, str],
        cookie: str | None,
    ) -> Decision:
        """What to do with one request.

        Args:
            path: The request's path (without the query).
            query: Its query arguments.
            headers: Its headers (``Host``, ``Origin``).
            cookie: The value of the table cookie it carries, if any.
        """
        host = headers.get("Host", "")
        if host_name(host) not in self.hosts:
            return Decision(403, "this server does not answer to that name")
        origin = headers.get("Origin")
        if origin is not None and urlsplit(origin).netloc.lower() != host.lower():
            return Decision(403, "a request from another site")
        asked = query.get(PARAMETER, [""])[-1]
        query_match = QUERY_PATH.match(path)
        if query_match:  # a preheated kernel waiting for its visitor
            if self.knows(asked, self.kernel_secret):
                return PASS
            return Decision(403, "for the server's own kernels only")
        if path in PUBLIC:
            return PASS
        if not (self.knows(cookie) or self.knows(asked)):
            return Decision(
                403, "open the address with its secret (companion serve prints it)", rejoin=True
            )
        kernel = KERNEL_PATH.match(path)
        if kernel:
            if kernel["id"] in self.kernels:
                return PASS
            return Decision(403, "that kernel belongs to no page of this table")
        if path.startswith(CLOSED):
            return Decision(403, "not open on this server")
        if self.knows(asked):
            return Decision(302, location=path)
        return PASS
