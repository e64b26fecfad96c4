"""The table secret, the Host check and the closed doors of ``companion serve``."""

from __future__ import annotations

import pytest

from companion.widgets.guard import Decision, Guard, host_name, new_secret

SECRET = "s" * 32
KERNEL_SECRET = "k" * 32
KERNEL = "173758c1-acb9-4e7d-a6d9-3edcd038e22b"
OTHER = "a6e607c7-9b68-4d25-9367-b906292a01c2"
HOST = {"Host": "127.0.0.1:8866"}


def guard() -> Guard:
    found = Guard(SECRET, KERNEL_SECRET, {"192.168.1.20", "laptop"})
    found.allow_kernel(KERNEL)
    return found


def decide(
    path: str,
    *,
    query: dict[str, list[str]] | None = None,
    headers: dict[str, str] | None = None,
    cookie: str | None = SECRET,
) -> Decision:
    return guard().decide(path, query or {}, headers or HOST, cookie)


def test_a_secret_has_at_least_128_bits_and_is_new_each_time() -> None:
    first, second = new_secret(), new_secret()
    assert first != second
    assert len(first) * 6 >= 128


@pytest.mark.parametrize(
    ("host", "name"),
    [
        ("127.0.0.1:8866", "127.0.0.1"),
        ("LOCALHOST:8866", "localhost"),
        ("[::1]:8866", "::1"),
        ("laptop.", "laptop"),
        ("evil.example:8866", "evil.example"),
    ],
)
def test_host_names(host: str, name: str) -> None:
    assert host_name(host) == name


@pytest.mark.parametrize(
    "host",
    ["127.0.0.1:8866", "localhost:8866", "[::1]:8866", "192.168.1.20:8866", "laptop:8866"],
)
def test_the_server_answers_to_its_own_names(host: str) -> None:
    assert decide("/", headers={"Host": host}).status == 0


@pytest.mark.parametrize("host", ["evil.example:8866", "127.0.0.1.evil.example", "", "10.0.0.9"])
def test_a_foreign_host_is_refused_even_with_the_secret(host: str) -> None:
    refused = decide("/", headers={"Host": host})
    assert (refused.status, refused.reason) == (403, "this server does not answer to that name")


def test_a_foreign_origin_is_refused() -> None:
    headers = {**HOST, "Origin": "http://evil.example:8866"}
    assert decide(f"/api/kernels/{KERNEL}/channels", headers=headers) == Decision(
        403, "a request from another site"
    )
    same = {**HOST, "Origin": "http://127.0.0.1:8866"}
    assert decide(f"/api/kernels/{KERNEL}/channels", headers=same).status == 0


@pytest.mark.parametrize("cookie", [None, "", "wrong", SECRET + "x", "s" * 1000])
def test_without_the_secret_everything_is_refused(cookie: str | None) -> None:
    for path in ("/", "/voila/render/tokaido.ipynb", f"/api/kernels/{KERNEL}/channels"):
        refused = decide(path, cookie=cookie)
        assert refused.status == 403, path
        assert "secret" in refused.reason


def test_the_first_visit_gets_the_cookie_and_the_address_without_the_secret() -> None:
    first = decide("/voila/render/shogun.ipynb", query={"table": [SECRET]}, cookie=None)
    assert first == Decision(302, location="/voila/render/shogun.ipynb")
    wrong = decide("/", query={"table": ["nope"]}, cookie=None)
    assert wrong.status == 403


@pytest.mark.parametrize(
    "path",
    [
        "/api/kernels",
        "/api/kernels/",
        "/api/contents",
        "/api/contents/tokaido.ipynb",
        "/api/sessions",
        "/api/terminals",
        "/api/kernelspecs",
        "/voila/api/contents/",
        "/voila/tree",
        "/voila/files/tokaido.ipynb",
        "/login",
        "/terminals/websocket/1",
    ],
)
def test_jupyters_doors_are_closed_even_with_the_secret(path: str) -> None:
    assert decide(path) == Decision(403, "not open on this server")


def test_only_kernels_handed_to_a_page_are_reachable() -> None:
    assert decide(f"/api/kernels/{KERNEL}").status == 0
    assert decide(f"/api/kernels/{KERNEL}/channels").status == 0
    refused = decide(f"/api/kernels/{OTHER}/channels")
    assert refused == Decision(403, "that kernel belongs to no page of this table")


def test_kernels_ask_for_their_visitor_with_their_own_secret() -> None:
    path = f"/voila/query/{OTHER}"
    assert decide(path, query={"table": [KERNEL_SECRET]}, cookie=None).status == 0
    assert decide(path, cookie=SECRET).status == 403  # a device has no business there
    assert decide(path, query={"table": [SECRET]}, cookie=None).status == 403


def test_a_new_secret_shuts_out_the_old_one() -> None:
    table = guard()
    renewed = table.renew()
    assert renewed != SECRET
    assert table.decide("/", {}, HOST, SECRET).status == 403
    assert table.decide("/", {}, HOST, renewed).status == 0
