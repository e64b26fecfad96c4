"""The rules a guest's messages and requests meet, without a server (fast)."""

from __future__ import annotations

import json
import logging
from typing import Any

import ipywidgets as w
import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.widgets import comm_filter
from companion.widgets.bounds import Bucket, Connections, QuietLog
from companion.widgets.paths import Verdict, canonical
from companion.widgets.socket_filter import BURST, MAX_MESSAGE_BYTES, SocketFilter


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def frame(msg_type: str, content: dict[str, Any], channel: str = "shell", **extra: Any) -> str:
    return json.dumps(
        {"header": {"msg_type": msg_type}, "content": content, "channel": channel, **extra}
    )


def update(comm: str, state: Any) -> str:
    return frame("comm_msg", {"comm_id": comm, "data": {"method": "update", "state": state}})


def quiet_filter() -> tuple[SocketFilter, list[str]]:
    lines: list[str] = []

    class Collect(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            lines.append(record.getMessage())

    log = logging.getLogger("test.guest.rules")
    log.handlers = [Collect()]
    log.propagate = False
    return SocketFilter(quiet=QuietLog(log, clock=Clock())), lines


def learned() -> SocketFilter:
    found, _ = quiet_filter()
    found.learn(
        json.dumps(
            {
                "content": {
                    "comm_id": "c",
                    "data": {
                        "method": "update_states",
                        "states": {
                            "html": {"model_name": "HTMLModel", "state": {}},
                            "name": {"model_name": "TextModel", "state": {}},
                            "count": {"model_name": "DropdownModel", "state": {}},
                            "save": {"model_name": "ButtonModel", "state": {}},
                        },
                    },
                }
            }
        )
    )
    found.learn(
        json.dumps(
            {
                "content": {
                    "comm_id": "late",
                    "data": {"state": {"_model_name": "HTMLModel", "value": ""}},
                }
            }
        )
    )
    return found


def test_the_page_s_own_messages_pass() -> None:
    rule = learned()
    assert rule.reason(frame("kernel_info_request", {})) is None
    assert rule.reason(frame("comm_info_request", {"target_name": "jupyter.widget"})) is None
    opening = {"comm_id": "k", "target_name": "jupyter.widget.control", "data": {}}
    assert rule.reason(frame("comm_open", opening)) is None
    asking = {"comm_id": "k", "data": {"method": "request_states"}}
    assert rule.reason(frame("comm_msg", asking)) is None
    assert rule.reason(frame("comm_close", {"comm_id": "k", "data": {}})) is None
    assert rule.reason(update("name", {"value": "Aki"})) is None
    assert rule.reason(update("count", {"index": 2})) is None
    click = {"comm_id": "save", "data": {"method": "custom", "content": {"event": "click"}}}
    assert rule.reason(frame("comm_msg", click)) is None


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        (
            update("html", {"value": "<img src=x onerror=alert(1)>"}),
            "a comm_msg: an update of a display widget (HTMLModel)",
        ),
        (update("late", {"value": "x"}), "a comm_msg: an update of a display widget (HTMLModel)"),
        (
            update("name", {"description": "<b>"}),
            "a comm_msg: an update of TextModel's 'description', which a device does not change",
        ),
        (
            update("name", {"value": "x" * 2_001}),
            "a comm_msg: an update of TextModel's 'value' with a value it does not take",
        ),
        (
            update("count", {"index": "1"}),
            "a comm_msg: an update of DropdownModel's 'index' with a value it does not take",
        ),
        (
            update("unknown", {"_view_module": "evil"}),
            "a comm_msg: an update of '_view_module' that no input takes",
        ),
        (
            frame("shutdown_request", {"restart": False}, channel="control"),
            "a shutdown_request: on the control channel",
        ),
        (frame("shutdown_request", {}), "a shutdown_request: the page never sends one"),
        (frame("execute_request", {"code": "1"}), "a execute_request: the page never sends one"),
        (
            frame("comm_open", {"comm_id": "x", "target_name": "jupyter.widget", "data": {}}),
            "a comm_open: of 'jupyter.widget'",
        ),
        (frame("comm_close", {"comm_id": "name", "data": {}}), "a comm_close: of a widget"),
        (
            frame("comm_msg", {"comm_id": "name", "data": {"method": "custom", "content": {}}}),
            "a comm_msg: a custom message that is not a click",
        ),
        (
            frame(
                "comm_msg",
                {"comm_id": "name", "data": {"method": "custom", "content": {"event": "click"}}},
            ),
            "a comm_msg: a click on a TextModel",
        ),
        (b"\x00\x00\x00\x01", "a binary message: not in Jupyter's framing"),
        ("x" * (MAX_MESSAGE_BYTES + 1), f"an oversized message: {MAX_MESSAGE_BYTES + 1} bytes"),
        ("{", "a message that is not JSON"),
    ],
)
def test_what_a_page_never_sends_is_refused(raw: str | bytes, reason: str) -> None:
    assert learned().reason(raw) == reason


def test_refusals_are_named_once_a_minute_per_kind() -> None:
    rule, lines = quiet_filter()
    clock = rule.quiet.clock
    assert isinstance(clock, Clock)
    rule.where = "192.0.2.7"
    for _ in range(5):
        assert not rule.allows(frame("shutdown_request", {}, channel="control"))
    clock.now = 61
    assert not rule.allows(frame("shutdown_request", {}, channel="control"))
    assert lines == [
        "Refused a shutdown_request from 192.0.2.7: on the control channel",
        "Refused a shutdown_request from 192.0.2.7: on the control channel (5 since the last line)",
    ]


def test_a_flood_is_paced_after_its_burst() -> None:
    clock = Clock()
    bucket = Bucket(40, BURST, clock)
    assert [bucket.wait() for _ in range(int(BURST))] == [0.0] * int(BURST)
    assert bucket.wait() == pytest.approx(1 / 40)
    assert bucket.wait() == pytest.approx(2 / 40)
    clock.now = 10.0  # ten quiet seconds give the burst back
    assert bucket.wait() == 0.0


class Stream:
    def __init__(self) -> None:
        self.shut = False

    def closed(self) -> bool:
        return self.shut

    def close(self) -> None:
        self.shut = True


def test_one_address_holds_at_most_its_bound() -> None:
    bound = Connections(3)
    streams = [Stream() for _ in range(4)]
    assert [bound.admit("192.0.2.1", s) for s in streams] == [True, True, True, False]
    assert bound.admit("192.0.2.2", Stream())  # another address is not counted with it
    streams[0].shut = True
    assert bound.admit("192.0.2.1", streams[3])
    assert bound.count("192.0.2.1") == 3


def test_a_crowd_past_the_bound_pushes_out_its_oldest_not_a_device() -> None:
    bound = Connections(per_address=2, most=4)
    device = Stream()
    assert bound.admit("192.0.2.9", device)
    bound.trust(device)  # it showed the secret
    crowd = [Stream() for _ in range(6)]
    for n, stream in enumerate(crowd):
        assert bound.admit(f"198.51.100.{n}", stream)
        bound.make_room()
    assert [s.shut for s in crowd] == [True, True, True, False, False, False]
    assert not device.shut and bound.total() == 4
    # Out of descriptors: the oldest untrusted go first, never the device.
    assert bound.evict(10) == 3
    assert all(s.shut for s in crowd) and not device.shut
    assert bound.evict(10) == 0
    bound.forget(device)
    assert bound.total() == 0 and bound.count("192.0.2.9") == 0


@pytest.mark.parametrize(
    ("path", "verdict"),
    [
        ("/voila/render/tokaido.ipynb", Verdict(0)),
        ("/", Verdict(0)),
        ("/voila/render/tokaido.ipynb/", Verdict(301, "/voila/render/tokaido.ipynb")),
        ("/voila/render/./tokaido.ipynb", Verdict(301, "/voila/render/tokaido.ipynb")),
        ("/voila/render//tokaido.ipynb", Verdict(301, "/voila/render/tokaido.ipynb")),
        ("//voila/render/tokaido.ipynb", Verdict(301, "/voila/render/tokaido.ipynb")),
        ("/voila/render/%2e/tokaido.ipynb", Verdict(301, "/voila/render/tokaido.ipynb")),
        ("/voila/render/tokaido.ipynb%00", Verdict(404)),
        ("/voila/static/../x", Verdict(404)),
        ("/voila/static/%2e%2e/x", Verdict(404)),
        ("/voila/static/%ff", Verdict(404)),
        ("/voila/static/a%5cb", Verdict(404)),
    ],
)
def test_every_spelling_has_one_answer(path: str, verdict: Verdict) -> None:
    assert canonical(path) == verdict


@given(st.text(max_size=60))
def test_a_redirect_always_lands_on_a_path_that_passes(tail: str) -> None:
    from urllib.parse import quote

    verdict = canonical("/voila/render/" + quote(tail, safe="/"))
    if verdict.status == 301:
        assert verdict.location.startswith("/") and not verdict.location.startswith("//")
        assert canonical(verdict.location) == Verdict(0)


def test_the_kernel_applies_only_input_values_and_clicks() -> None:
    comm_filter.install()
    panel = w.HTML("<b>score</b>")
    name = w.Text("")
    count = w.Dropdown(options=["2", "3"], index=0)
    clicks: list[bool] = []
    button = w.Button()
    button.on_click(lambda _: clicks.append(True))

    def send(widget: w.Widget, data: dict[str, Any]) -> None:
        widget._handle_msg({"content": {"data": data}, "buffers": []})

    send(panel, {"method": "update", "state": {"value": "<img src=x onerror=alert(1)>"}})
    send(name, {"method": "update", "state": {"value": "Aki", "placeholder": "<i>"}})
    send(count, {"method": "update", "state": {"index": 1}})
    send(button, {"method": "custom", "content": {"event": "click"}})
    send(name, {"method": "custom", "content": {"event": "click"}})
    assert panel.value == "<b>score</b>"
    assert (name.value, name.placeholder) == ("", w.Text().placeholder)
    assert count.index == 1
    assert clicks == [True]
    send(name, {"method": "update", "state": {"value": "Aki"}})
    assert name.value == "Aki"
    button.disabled = True
    send(button, {"method": "custom", "content": {"event": "click"}})
    assert clicks == [True]
    assert comm_filter.refusal(panel, {"method": "update", "state": {"value": ""}}) == (
        "an update of a display widget (HTMLModel)"
    )


def test_the_empty_warnings_of_writes_to_closed_tabs_are_not_shown() -> None:
    from companion.widgets.log_filter import LogFilter

    shown: list[str] = []
    kept = LogFilter(shown.append)
    for line in ("[Voila] WARNING | ", "[Voila] WARNING | \n", "[companion 02:00:00] Refused x"):
        kept.feed(line)
    assert shown == ["[companion 02:00:00] Refused x\n"]


# What Chromium sends (checked in tests/widgets/test_guest_browser.py): a typed
# address or a bookmark is "none"; a link, a form, a script's window.open or
# location change is "same-origin", with "?1" while a click is fresh; a reload
# sends what the first visit sent.
TYPED = {"Sec-Fetch-Site": "none", "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "document"}
NAVIGATIONS: list[tuple[dict[str, str], bool]] = [
    (TYPED, True),
    ({**TYPED, "Sec-Fetch-User": "?1"}, True),
    ({**TYPED, "Sec-Fetch-Site": "same-origin", "Sec-Fetch-User": "?1"}, False),  # window.open
    ({**TYPED, "Sec-Fetch-Site": "same-origin"}, False),  # a script's location change
    ({**TYPED, "Sec-Fetch-Site": "cross-site"}, False),
    ({**TYPED, "Sec-Fetch-Dest": "iframe"}, False),
    ({"Sec-Fetch-Site": "same-origin", "Sec-Fetch-Mode": "cors", "Sec-Fetch-Dest": "empty"}, False),
    ({"Sec-Fetch-Site": "none", "Sec-Fetch-Mode": "cors", "Sec-Fetch-Dest": "empty"}, False),
    ({"Upgrade-Insecure-Requests": "1"}, False),  # plain HTTP: the browser says nothing
    ({}, False),
]


@pytest.mark.parametrize(("headers", "shown"), NAVIGATIONS)
def test_only_a_visit_the_host_started_is_shown_the_secret(
    headers: dict[str, str], shown: bool
) -> None:
    from companion.widgets.policy import may_show_secret

    assert may_show_secret(True, headers) is shown
    assert may_show_secret(False, headers) is False  # never to another device


def test_the_host_is_told_where_the_code_is_when_it_is_not_shown() -> None:
    from companion.widgets.policy import FRONT_DOOR_HEADERS, hidden_note

    assert hidden_note({**TYPED, "Sec-Fetch-Site": "same-origin"}).startswith(
        "The join code shows when you open this page yourself: click the address bar and press "
        "Enter (or type the address, or use a bookmark)."
    )
    plain = hidden_note({}, "http://127.0.0.1:8866/")
    assert plain.startswith("The join code is not shown at this address")
    assert plain.endswith(
        "On this computer, open http://127.0.0.1:8866/ with the secret (the terminal prints it)"
        " to show it here."
    )
    assert "127.0.0.1" not in hidden_note({})
    assert FRONT_DOOR_HEADERS == {
        "Cross-Origin-Opener-Policy": "same-origin",
        "X-Frame-Options": "DENY",
    }
