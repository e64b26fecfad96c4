"""A widget change a device sends again after a drop is applied once (companion.widgets.once)."""

from __future__ import annotations

from typing import Any

import ipywidgets as w
import pytest

from companion.widgets import once


def update(widget: w.Widget, msg_id: str, **state: Any) -> dict[str, Any]:
    return {
        "header": {"msg_id": msg_id, "msg_type": "comm_msg"},
        "content": {"comm_id": widget.model_id, "data": {"method": "update", "state": state}},
        "buffers": [],
    }


@pytest.fixture
def box(monkeypatch: pytest.MonkeyPatch) -> tuple[w.Text, list[dict[str, Any]]]:
    widget = w.Text(value="")
    sent: list[dict[str, Any]] = []
    monkeypatch.setattr(widget, "_send", lambda msg, buffers=None: sent.append(msg))
    return widget, sent


def test_a_change_sent_again_is_not_applied_again(
    box: tuple[w.Text, list[dict[str, Any]]],
) -> None:
    widget, sent = box
    handled: list[str] = []

    def handler(stream: Any, ident: Any, msg: dict[str, Any]) -> None:
        handled.append(msg["header"]["msg_id"])
        widget.set_state(msg["content"]["data"]["state"])

    handle = once.once(handler, once.Seen())
    handle(None, None, update(widget, "a", value="Doroth"))
    handle(None, None, update(widget, "b", value="Eleonora"))  # another device, later
    sent.clear()
    handle(None, None, update(widget, "a", value="Doroth"))  # the first device, after a drop
    assert widget.value == "Eleonora"
    assert handled == ["a", "b"]
    # The page that sent it again is told the value the table holds now.
    assert sent == [{"method": "echo_update", "state": {"value": "Eleonora"}, "buffer_paths": []}]


def test_other_messages_pass_every_time(box: tuple[w.Text, list[dict[str, Any]]]) -> None:
    widget, _ = box
    handled: list[str] = []
    handle = once.once(lambda s, i, m: handled.append(m["header"]["msg_id"]), once.Seen())
    click = {
        "header": {"msg_id": "c"},
        "content": {"comm_id": widget.model_id, "data": {"method": "request_state"}},
    }
    handle(None, None, click)
    handle(None, None, click)
    assert handled == ["c", "c"]


def test_only_the_last_changes_are_remembered() -> None:
    seen = once.Seen(size=3)
    assert [seen.first_time(i) for i in "abcd"] == [True] * 4
    assert seen.first_time("a")  # forgotten: the oldest of four
    assert not seen.first_time("d")


def test_outside_a_kernel_nothing_is_installed() -> None:
    assert once.install() is False
