"""What a device may send on a game's kernel connection: its players' input, nothing else.

The page's front end sends a few kinds of message to its kernel. Every
message from a device passes :class:`SocketFilter` before it reaches the
kernel; one that the page never sends is dropped and named in the log
(:class:`companion.widgets.bounds.QuietLog`, one line a minute per kind):

- only the ``shell`` channel (no ``control``: no shutdown, restart,
  interrupt or debugger request), and there only ``kernel_info_request``,
  ``comm_info_request``, ``comm_open``, ``comm_msg`` and ``comm_close``;
- a ``comm_open`` only for the widgets' control comm (``jupyter.widget.control``,
  the one the page opens to read every widget), and a ``comm_close`` only for
  a control comm this connection opened: a widget's own comm is never closed;
- a ``comm_msg`` only to ask for widgets' state, to change an input's value
  (:data:`INPUTS`: the trait each input has and the shape of its value) or
  to click a button; an update of a display widget (an HTML panel) or of any
  other trait is refused;
- no binary buffers, and no message larger than :data:`MAX_MESSAGE_BYTES`
  (the score file's bound: a whole game fits; a larger one closes the
  connection); the one exception is a piece of a spoken count (:func:`voice_shape`):
  one buffer of at most :data:`VOICE_PART_BYTES`, only to the pad's Listen widget
  (:data:`VOICE_MODEL`), and only from the host's own screen (a loopback address:
  the only page a browser gives its microphone); any device may tell that widget
  a heard cell was looked at.

One connection's messages are read at most :data:`RATE` a second after a
burst of :data:`BURST` (requests for one widget's state, which a page that
reconnects sends for each of its widgets, :data:`READ_RATE` after
:data:`READ_BURST`): tornado reads a connection's next message only once
the last one was handled, so a flood waits in the flooding device's own
connection (and its network buffers) and the other games do not slow.

The kernel applies the same rule again (:mod:`companion.widgets.comm_filter`),
for a message that would get past this one.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

from companion.bounded_json import MAX_SCORE_FILE_BYTES
from companion.widgets.bounds import QUIET, Bucket, QuietLog

MAX_MESSAGE_BYTES = MAX_SCORE_FILE_BYTES
"""The largest message a device may send (a whole score file fits)."""
MAX_TEXT = 2_000
"""The most characters of a typed value (a name, a place, a street of card codes)."""
MAX_NUMBER = 10**9
"""The largest number a box takes (no score comes near)."""
RATE = 40.0
"""Messages a second one connection may send, once its burst is spent."""
BURST = 200.0
"""Messages one connection may send at once (a page's first load, a quick typist)."""

READ_RATE = 400.0
READ_BURST = 2_000.0
"""The same for asking widgets' state one by one (a page that reconnects asks for each)."""

CONTROL_TARGET = "jupyter.widget.control"
MESSAGE_TYPES = frozenset(
    {"kernel_info_request", "comm_info_request", "comm_open", "comm_msg", "comm_close"}
)


def is_text(value: Any) -> bool:
    """A typed value of a text box."""
    return isinstance(value, str) and len(value) <= MAX_TEXT


def is_number(value: Any) -> bool:
    """A number typed in a number box."""
    return type(value) is int and -MAX_NUMBER <= value <= MAX_NUMBER


def is_flag(value: Any) -> bool:
    """A check box's value."""
    return type(value) is bool


def is_index(value: Any) -> bool:
    """A drop-down's choice (None: nothing chosen)."""
    return value is None or (type(value) is int and 0 <= value <= 10_000)


INPUTS: dict[str, dict[str, Any]] = {
    "TextModel": {"value": is_text},
    "TextareaModel": {"value": is_text},
    "ComboboxModel": {"value": is_text},
    "IntTextModel": {"value": is_number},
    "BoundedIntTextModel": {"value": is_number},
    "CheckboxModel": {"value": is_flag},
    "DropdownModel": {"index": is_index},
}
"""For each input the page shows: the traits a device may change, and the shape of each."""
BUTTONS = frozenset({"ButtonModel"})
"""The widgets a device may click."""
CLICK = {"event": "click"}

VOICE_MODEL = "ListenModel"
"""The one widget a device may send sound to: the score pad's Listen button."""
VOICE_RATE = 16_000
"""Samples a second of the sound a page sends (16-bit, one channel)."""
VOICE_SECONDS = 15
"""The longest recording a page sends."""
VOICE_PART_BYTES = 2 * VOICE_RATE
"""The most bytes of sound in one message (a second of it): a recording comes in pieces."""
VOICE_MAX_BYTES = 2 * VOICE_RATE * VOICE_SECONDS
"""The most bytes of one recording, all its pieces together."""
VOICE_PARTS = -(-VOICE_MAX_BYTES // VOICE_PART_BYTES)
"""The most pieces of one recording."""
MAX_CELL_NAME = 200


def voice_shape(content: Any, buffers: list[Any]) -> str | None:
    """Why a custom message to the Listen widget is refused; None when it has a shape it takes.

    Two shapes: a piece of a recording, ``{"event": "voice", "take": n, "part": k,
    "end": bool}`` with one buffer of 16-bit sound (an even number of bytes, at most
    :data:`VOICE_PART_BYTES`), and ``{"event": "seen", "cell": name}`` (a heard cell
    was looked at) without any.
    """
    if not isinstance(content, dict):
        return "a message to the Listen button without content"
    event = content.get("event")
    if event == "seen":
        cell = content.get("cell")
        if set(content) != {"event", "cell"} or not isinstance(cell, str):
            return "a 'seen' of another shape"
        if len(cell) > MAX_CELL_NAME:
            return "a 'seen' of a cell name too long"
        return None if not buffers else "a 'seen' with buffers"
    if event != "voice":
        return f"a message to the Listen button that is not sound ({str(event)[:20]!r})"
    if set(content) != {"event", "take", "part", "end"}:
        return "a piece of sound of another shape"
    take, part, end = content["take"], content["part"], content["end"]
    if type(take) is not int or not 0 <= take < 2**31:
        return "a piece of sound without a take"
    if type(part) is not int or not 0 <= part < VOICE_PARTS or type(end) is not bool:
        return "a piece of sound out of order"
    if len(buffers) != 1:
        return f"a piece of sound with {len(buffers)} buffers"
    try:
        size = memoryview(buffers[0]).nbytes
    except TypeError:
        return "a piece of sound that is not bytes"
    if size > VOICE_PART_BYTES:
        return f"a piece of sound too large ({size} bytes, at most {VOICE_PART_BYTES})"
    if size % 2:
        return "a piece of sound of an odd number of bytes"
    return None


def unpack(raw: bytes) -> tuple[Any, list[bytes]] | None:
    """A binary websocket message in Jupyter's framing: its JSON and its buffers (None: not)."""
    if len(raw) < 8:
        return None
    count = int.from_bytes(raw[:4], "big")
    if not 1 <= count <= 8 or len(raw) < 4 * (count + 1):
        return None
    offsets = [int.from_bytes(raw[4 * k : 4 * k + 4], "big") for k in range(1, count + 1)]
    offsets.append(len(raw))
    if offsets[0] != 4 * (count + 1) or any(b < a for a, b in pairwise(offsets)):
        return None
    try:
        msg = json.loads(raw[offsets[0] : offsets[1]].decode("utf-8"))
    except ValueError:
        return None
    return msg, [raw[offsets[k] : offsets[k + 1]] for k in range(1, count)]


def shape_of_any_input(key: str, value: Any) -> bool:
    """Whether ``key: value`` is what some input takes (the widget not known yet)."""
    return any(key in traits and traits[key](value) for traits in INPUTS.values())


def check_update(model: str | None, state: Any) -> str | None:
    """Why an ``update`` of a ``model`` widget (None: not known) is refused; None if not."""
    if not isinstance(state, dict) or not state:
        return "an update without a state"
    if model is not None and model not in INPUTS:
        return f"an update of a display widget ({model})"
    for key, value in state.items():
        if model is None:
            if not shape_of_any_input(key, value):
                return f"an update of {key!r} that no input takes"
            continue
        check = INPUTS[model].get(key)
        if check is None:
            return f"an update of {model}'s {key!r}, which a device does not change"
        if not check(value):
            return f"an update of {model}'s {key!r} with a value it does not take"
    return None


@dataclass
class SocketFilter:
    """The rule for one device's connection to one kernel.

    Args:
        quiet: Where refusals are counted and logged.
        bucket: The flood bound of this connection.
    """

    quiet: QuietLog = field(default_factory=lambda: QUIET)
    bucket: Bucket = field(default_factory=lambda: Bucket(RATE, BURST))
    reads: Bucket = field(default_factory=lambda: Bucket(READ_RATE, READ_BURST))
    models: dict[str, str] = field(default_factory=dict)  # comm id -> widget class
    controls: set[str] = field(default_factory=set)  # control comms this connection opened
    where: str = "a device"
    local: bool = False  # the host's own screen (a loopback address): may send sound

    def pace(self, raw: str | bytes = "") -> float:
        """Seconds this connection's next message waits (0: at once); a wait is logged."""
        asks = isinstance(raw, str) and '"request_state"' in raw
        wait = (self.reads if asks else self.bucket).wait()
        if wait > 0:
            self.quiet.refused(
                f"a flood of messages from {self.where}",
                f"more than {RATE:.0f} a second: read no faster",
                verb="Slowed",
            )
        return wait

    def allows(self, raw: str | bytes) -> bool:
        """True when the message may reach the kernel; a refused one is logged."""
        reason = self.reason(raw)
        if reason is None:
            return True
        kind, _, detail = reason.partition(": ")
        self.quiet.refused(f"{kind} from {self.where}", detail)
        return False

    def reason(self, raw: str | bytes) -> str | None:
        """Why the message is refused (``kind: detail``), or None when it may pass."""
        if len(raw) > MAX_MESSAGE_BYTES:
            return f"an oversized message: {len(raw)} bytes"
        buffers: list[bytes] = []
        if isinstance(raw, bytes):
            # Only the pieces of a recording come with a buffer (checked below).
            unpacked = unpack(raw)
            if unpacked is None:
                return "a binary message: not in Jupyter's framing"
            msg, buffers = unpacked
            if not buffers:
                return "a binary message: without buffers"
        else:
            try:
                msg = json.loads(raw)
            except ValueError:
                return "a message that is not JSON"
        if not isinstance(msg, dict):
            return "a message that is not an object"
        header = msg.get("header")
        content = msg.get("content")
        kind = header.get("msg_type") if isinstance(header, dict) else None
        if not isinstance(kind, str) or not isinstance(content, dict):
            return "a message without a type"
        if msg.get("channel", "shell") != "shell":
            return f"a {kind[:40]}: on the {str(msg.get('channel'))[:20]} channel"
        if kind not in MESSAGE_TYPES:
            return f"a {kind[:40]}: the page never sends one"
        if msg.get("buffers"):
            return "a message with buffers: the page sends none"
        comm = content.get("comm_id")
        if buffers and (kind != "comm_msg" or not isinstance(content.get("data"), dict)):
            return f"a {kind[:40]} with buffers: the page sends none"
        if kind == "comm_open":
            if content.get("target_name") != CONTROL_TARGET or not isinstance(comm, str):
                return f"a comm_open: of {str(content.get('target_name'))[:40]!r}"
            self.controls.add(comm)
            return None
        if kind == "comm_close":
            if comm not in self.controls:
                return "a comm_close: of a widget"
            self.controls.discard(comm)
            return None
        if kind != "comm_msg":
            return None
        data = content.get("data")
        if not isinstance(data, dict) or not isinstance(comm, str):
            return "a comm_msg: without data"
        method = data.get("method")
        model = self.models.get(comm)
        if buffers and method != "custom":
            return "a comm_msg: a message with buffers that is not sound"
        if method == "request_states":
            return None if comm in self.controls else "a comm_msg: request_states to a widget"
        if method == "request_state":
            return None
        if method == "update":
            if data.get("buffer_paths"):
                return "a comm_msg: an update with buffers"
            refused = check_update(model, data.get("state"))
            return None if refused is None else f"a comm_msg: {refused}"
        if method == "custom" and (model == VOICE_MODEL or buffers):
            if model != VOICE_MODEL:
                return "a comm_msg: sound to a widget that is not the Listen button"
            refused = voice_shape(data.get("content"), buffers)
            if refused is not None:
                return f"a comm_msg: {refused}"
            if buffers and not self.local:  # a heard cell looked at may come from any device
                return "a comm_msg: sound from a device that is not the host's screen"
            return None
        if method == "custom":
            if data.get("content") != CLICK:
                return "a comm_msg: a custom message that is not a click"
            if model is not None and model not in BUTTONS:
                return f"a comm_msg: a click on a {model}"
            return None
        return f"a comm_msg: of method {str(method)[:40]!r}"

    def learn(self, message: Any) -> None:
        """Note the widget classes named in a message from the kernel to this device."""
        if isinstance(message, bytes):
            return
        if isinstance(message, str):
            if "model_name" not in message:
                return
            try:
                message = json.loads(message)
            except ValueError:
                return
        if not isinstance(message, dict):
            return
        content = message.get("content")
        if not isinstance(content, dict):
            return
        data = content.get("data")
        if not isinstance(data, dict):
            return
        comm = content.get("comm_id")
        state = data.get("state")
        if isinstance(comm, str) and isinstance(state, dict):
            name = state.get("_model_name")
            if isinstance(name, str):
                self.models[comm] = name
        states = data.get("states")
        if isinstance(states, dict):
            for model_id, found in states.items():
                if isinstance(found, dict) and isinstance(found.get("model_name"), str):
                    self.models[str(model_id)] = found["model_name"]


def is_loopback(address: str) -> bool:
    """True for the host's own loopback address (127.0.0.1, ::1)."""
    try:
        return ipaddress.ip_address(address.split("%")[0]).is_loopback
    except ValueError:
        return False


def install(quiet: QuietLog = QUIET) -> None:
    """Put a :class:`SocketFilter` on every device's kernel connection of this process."""
    from voila.tornado.kernel_websocket_handler import VoilaKernelWebsocketHandler

    handler: Any = VoilaKernelWebsocketHandler
    original_message = handler.on_message
    original_write = handler.write_message

    def socket_filter(self: Any) -> SocketFilter:
        found: SocketFilter | None = self.__dict__.get("_companion_filter")
        if found is None:
            ip = f"{self.request.remote_ip}"
            found = SocketFilter(quiet=quiet, where=ip, local=is_loopback(ip))
            self.__dict__["_companion_filter"] = found
        return found

    def passed(self: Any, message: str | bytes) -> Any:
        if socket_filter(self).allows(message):
            return original_message(self, message)
        return None

    async def later(self: Any, message: str | bytes, wait: float) -> None:
        await asyncio.sleep(wait)
        if self.ws_connection is not None:
            passed(self, message)

    def on_message(self: Any, message: str | bytes) -> Any:
        wait = socket_filter(self).pace(message)
        if wait > 0:
            # tornado reads this connection's next message only after this one:
            # a flood waits in its own connection, and costs the server nothing.
            return later(self, message, wait)
        return passed(self, message)

    def write_message(self: Any, message: Any, binary: bool = False) -> Any:
        socket_filter(self).learn(message)
        return original_write(self, message, binary)

    handler.on_message = on_message
    handler.write_message = write_message
    # tornado closes a connection whose message is larger (before reading it all).
    handler.max_message_size = property(lambda self: MAX_MESSAGE_BYTES)
