"""What the server and the kernel let through to the Listen button: pieces of sound, bounded."""

from __future__ import annotations

import json
import logging
import struct
from typing import Any

import ipywidgets as w
import pytest

from companion.widgets import comm_filter
from companion.widgets.bounds import QuietLog
from companion.widgets.listen import Listen
from companion.widgets.socket_filter import (
    VOICE_PART_BYTES,
    VOICE_PARTS,
    SocketFilter,
    is_loopback,
    unpack,
)


def pack(msg: dict[str, Any], buffers: list[bytes]) -> bytes:
    """Jupyter's binary framing as the page's kernel.js writes it (big-endian offsets)."""
    parts = [json.dumps({**msg, "buffers": []}).encode(), *buffers]
    offsets = []
    at = 4 * (len(parts) + 1)
    for part in parts:
        offsets.append(at)
        at += len(part)
    head = struct.pack(f">{len(parts) + 1}I", len(parts), *offsets)
    return head + b"".join(parts)


def custom(comm: str, content: dict[str, Any]) -> dict[str, Any]:
    return {
        "header": {"msg_type": "comm_msg"},
        "content": {"comm_id": comm, "data": {"method": "custom", "content": content}},
        "channel": "shell",
    }


def piece(part: int = 0, end: bool = True, take: int = 7) -> dict[str, Any]:
    return {"event": "voice", "take": take, "part": part, "end": end}


def rule(local: bool = True) -> tuple[SocketFilter, list[str]]:
    lines: list[str] = []

    class Collect(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            lines.append(record.getMessage())

    log = logging.getLogger("test.listen.rules")
    log.handlers = [Collect()]
    log.propagate = False
    found = SocketFilter(quiet=QuietLog(log), local=local, where="127.0.0.1")
    found.models.update({"listen": "ListenModel", "save": "ButtonModel", "name": "TextModel"})
    return found, lines


SECOND = b"\x01\x00" * (VOICE_PART_BYTES // 2)


def test_the_frame_reads_back() -> None:
    raw = pack(custom("listen", piece()), [b"ab", b"cd"])
    found = unpack(raw)
    assert found is not None
    assert found[0]["content"]["data"]["content"] == piece()
    assert found[1] == [b"ab", b"cd"]


def test_a_second_of_sound_to_the_listen_button_passes() -> None:
    found, lines = rule()
    assert found.allows(pack(custom("listen", piece()), [SECOND]))
    assert found.allows(pack(custom("listen", piece(VOICE_PARTS - 1)), [b"\x00\x00"]))
    seen = {"event": "seen", "cell": "c-players-0-journey"}
    assert found.allows(json.dumps(custom("listen", seen)))
    assert lines == []


@pytest.mark.parametrize(
    ("comm", "content", "buffers", "reason"),
    [
        (
            "listen",
            piece(),
            [SECOND + b"\x00\x00"],
            "a comm_msg: a piece of sound too large "
            f"({VOICE_PART_BYTES + 2} bytes, at most {VOICE_PART_BYTES})",
        ),
        ("listen", piece(), [b"\x00"], "a comm_msg: a piece of sound of an odd number of bytes"),
        ("listen", piece(), [b"ab", b"cd"], "a comm_msg: a piece of sound with 2 buffers"),
        ("listen", piece(VOICE_PARTS), [b"ab"], "a comm_msg: a piece of sound out of order"),
        (
            "listen",
            {**piece(), "rate": 44100},
            [b"ab"],
            "a comm_msg: a piece of sound of another shape",
        ),
        (
            "listen",
            {"event": "click"},
            [b"ab"],
            "a comm_msg: a message to the Listen button that is not sound ('click')",
        ),
        (
            "save",
            piece(),
            [b"ab"],
            "a comm_msg: sound to a widget that is not the Listen button",
        ),
        (
            "unknown",
            piece(),
            [b"ab"],
            "a comm_msg: sound to a widget that is not the Listen button",
        ),
    ],
)
def test_sound_of_another_shape_or_size_is_refused_and_named(
    comm: str, content: dict[str, Any], buffers: list[bytes], reason: str
) -> None:
    found, lines = rule()
    raw = pack(custom(comm, content), buffers)
    assert found.reason(raw) == reason
    assert not found.allows(raw)
    kind, _, detail = reason.partition(": ")
    assert lines == [f"Refused {kind} from 127.0.0.1: {detail}"]


def test_sound_from_a_device_on_the_network_is_refused_a_look_is_not() -> None:
    found, _ = rule(local=False)
    assert found.reason(pack(custom("listen", piece()), [b"ab"])) == (
        "a comm_msg: sound from a device that is not the host's screen"
    )
    seen = {"event": "seen", "cell": "c-players-0-journey"}
    assert found.reason(json.dumps(custom("listen", seen))) is None


def test_buffers_with_any_other_message_are_refused() -> None:
    found, _ = rule()
    update = {
        "header": {"msg_type": "comm_msg"},
        "content": {"comm_id": "name", "data": {"method": "update", "state": {"value": "x"}}},
    }
    assert found.reason(pack(update, [b"ab"])) == (
        "a comm_msg: a message with buffers that is not sound"
    )
    info = {"header": {"msg_type": "kernel_info_request"}, "content": {}}
    assert found.reason(pack(info, [b"ab"])) == (
        "a kernel_info_request with buffers: the page sends none"
    )
    assert found.reason(pack(custom("listen", piece()), [])) == "a binary message: without buffers"
    # Without a buffer, sound is not a click either.
    assert found.reason(json.dumps(custom("listen", piece()))) == (
        "a comm_msg: a piece of sound with 0 buffers"
    )


@pytest.mark.parametrize(
    ("address", "loopback"),
    [("127.0.0.1", True), ("::1", True), ("192.168.1.20", False), ("x", False)],
)
def test_only_the_host_s_own_address_is_loopback(address: str, loopback: bool) -> None:
    assert is_loopback(address) is loopback


def test_the_kernel_takes_sound_only_for_the_listen_button() -> None:
    comm_filter.install()
    listen = Listen()
    got: list[tuple[Any, int]] = []
    listen.on_msg(lambda _, content, buffers: got.append((content, len(buffers))))
    text = w.Text("")

    def send(widget: w.Widget, content: Any, buffers: list[Any]) -> None:
        data = {"method": "custom", "content": content}
        widget._handle_msg({"content": {"data": data}, "buffers": buffers})

    send(listen, piece(), [memoryview(SECOND)])
    send(listen, piece(), [memoryview(SECOND + b"\x00\x00")])
    send(listen, {"event": "click"}, [])
    send(text, piece(), [b"ab"])
    assert got == [(piece(), 1)]
    assert comm_filter.refusal(listen, {"method": "custom", "content": piece()}, [b"abc"]) == (
        "a piece of sound of an odd number of bytes (to a ListenModel)"
    )
    assert comm_filter.refusal(text, {"method": "custom", "content": piece()}, [b"ab"]) == (
        "a message to a TextModel with buffers"
    )
