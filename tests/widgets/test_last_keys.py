"""The beacon of a closing page: what it may carry, and the message the kernel gets."""

from __future__ import annotations

import json

from jupyter_client.session import Session

from companion.widgets.last_keys import MAX_BODY, MAX_CHANGES, Change, changes_from, message

MSG = "a" * 32
COMM = "b" * 32


def body(*changes: object) -> bytes:
    return json.dumps({"changes": list(changes)}).encode()


def test_a_page_s_changes_are_read_in_order() -> None:
    sent = body(
        {"msg_id": MSG, "comm_id": COMM, "state": {"value": "Friedema"}},
        {"msg_id": "c" * 32, "comm_id": COMM, "state": {"value": "Friedemann"}},
    )
    assert changes_from(sent) == [
        Change(MSG, COMM, {"value": "Friedema"}),
        Change("c" * 32, COMM, {"value": "Friedemann"}),
    ]


def test_what_a_page_never_sends_is_refused() -> None:
    refused = [
        b"not json",
        b"[]",
        body(),
        json.dumps({"changes": "x"}).encode(),
        body({"msg_id": MSG, "comm_id": COMM, "state": {"description": "<b>"}}),
        body({"msg_id": MSG, "comm_id": COMM, "state": {}}),
        body({"msg_id": MSG, "comm_id": COMM, "state": {"value": "x" * 2001}}),
        body({"msg_id": "../x", "comm_id": COMM, "state": {"value": "A"}}),
        body({"msg_id": MSG, "comm_id": 7, "state": {"value": "A"}}),
        body(*[{"msg_id": MSG, "comm_id": COMM, "state": {"value": "A"}}] * (MAX_CHANGES + 1)),
        b" " * (MAX_BODY + 1),
    ]
    assert [changes_from(sent) for sent in refused] == [None] * len(refused)


def test_the_kernel_gets_the_page_s_own_message_id() -> None:
    msg = message(Session(key=b"k"), Change(MSG, COMM, {"value": "Hildegard"}))
    assert msg["header"]["msg_id"] == MSG
    assert msg["header"]["msg_type"] == "comm_msg"
    assert msg["content"] == {
        "comm_id": COMM,
        "data": {"method": "update", "state": {"value": "Hildegard"}, "buffer_paths": []},
    }
