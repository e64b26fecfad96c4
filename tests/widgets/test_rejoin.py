"""The rejoin page and the host's own machine (companion.widgets.rejoin)."""

from __future__ import annotations

import html
import types
from typing import Any

import pytest

from companion.widgets.guard import PUBLIC, Guard
from companion.widgets.rejoin import rejoin_page, same_machine, wants_page


def test_a_device_that_had_joined_is_told_what_happened_and_how_to_rejoin() -> None:
    page = rejoin_page(had_cookie=True, again="/voila/render/tokaido.ipynb")
    assert "<meta name='viewport' content='width=device-width, initial-scale=1'>" in page
    assert "<h1>Join the table again</h1>" in page
    assert "was started again, or the host chose a new secret" in page
    assert "Scan it with this device" in page
    assert "<a href='/voila/render/tokaido.ipynb'>Try again</a>" in page
    assert "<script" not in page


def test_a_device_that_never_joined_is_told_so() -> None:
    page = rejoin_page(had_cookie=False)
    assert "<h1>Join the table</h1>" in page
    assert "has not joined this table yet" in page


def test_the_address_asked_for_is_data() -> None:
    page = rejoin_page(had_cookie=False, again="/x'><script>alert(1)</script>")
    assert "<script>" not in page
    assert html.escape("/x'><script>", quote=True) in page


@pytest.mark.parametrize(
    ("method", "accept", "page"),
    [
        ("GET", "text/html,application/xhtml+xml,*/*;q=0.8", True),
        ("GET", "*/*", False),  # a page's fetch
        ("POST", "text/html", False),
    ],
)
def test_only_a_browser_opening_an_address_gets_the_page(
    method: str, accept: str, page: bool
) -> None:
    assert wants_page(method, accept) is page


def request(remote: str, local: str | None) -> Any:
    def getsockname() -> tuple[str, int]:
        if local is None:
            raise OSError("closed")
        return (local, 8866)

    socket = types.SimpleNamespace(getsockname=getsockname)
    return types.SimpleNamespace(
        remote_ip=remote,
        connection=types.SimpleNamespace(stream=types.SimpleNamespace(socket=socket)),
    )


@pytest.mark.parametrize(
    ("remote", "local", "host"),
    [
        ("127.0.0.1", "127.0.0.1", True),
        ("::1", "::1", True),
        ("192.168.1.20", "192.168.1.20", True),  # the host opened the printed join address
        ("::ffff:192.168.1.20", "192.168.1.20", True),
        ("192.168.1.31", "192.168.1.20", False),  # a phone on the Wi-Fi
        ("192.168.1.31", None, False),
    ],
)
def test_the_host_machine_is_known_by_any_of_its_addresses(
    remote: str, local: str | None, host: bool
) -> None:
    assert same_machine(request(remote, local)) is host


def test_the_manifest_and_icons_need_no_secret_and_nothing_else_does() -> None:
    guard = Guard("s" * 32, "k" * 32)
    headers = {"Host": "127.0.0.1:8866"}
    for path in PUBLIC:
        assert guard.decide(path, {}, headers, None).status == 0, path
    for path in ("/voila/templates/companion/static/page.js", "/", "/voila/render/tokaido.ipynb"):
        refused = guard.decide(path, {}, headers, None)
        assert (refused.status, refused.rejoin) == (403, True), path
    assert guard.decide(next(iter(PUBLIC)), {}, {"Host": "evil.example"}, None).status == 403


@pytest.mark.parametrize(
    ("asked", "link"),
    [
        ("/voila/render/tokaido.ipynb", "/voila/render/tokaido.ipynb"),
        ("//elsewhere.example/x", "/"),
        ("/\\elsewhere.example", "/"),
        ("elsewhere", "/"),
    ],
)
def test_try_again_stays_on_this_server(asked: str, link: str) -> None:
    assert f"<a href='{link}'>Try again</a>" in rejoin_page(had_cookie=True, again=asked)
