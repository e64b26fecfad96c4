"""The kernel's own check of what a device sends its widgets (the second line).

The server already drops every message a page never sends
(:mod:`companion.widgets.socket_filter`). In the kernel, a widget accepts
from a front end only what :data:`companion.widgets.socket_filter.INPUTS`
allows its class (the value of an input, in the shape that input takes), a
click on a button, and to the score pad's Listen button alone the pieces of
a recording in the shape and size :func:`companion.widgets.socket_filter.voice_shape`
allows; an update of any other widget or trait, or any other
custom message, is refused and named on the kernel's error stream (which
``companion serve`` shows), at most once a minute per kind.

:func:`install` is called where a page is built, so every kernel that shows
a page has it; it changes nothing for changes made in Python.
"""

from __future__ import annotations

import logging
import sys
from typing import Any

from companion.widgets.bounds import QuietLog
from companion.widgets.socket_filter import BUTTONS, CLICK, INPUTS, VOICE_MODEL, voice_shape

LOG = logging.getLogger("companion.kernel")
QUIET_KERNEL = QuietLog(LOG)
_installed: list[bool] = []


def refusal(widget: Any, data: Any, buffers: Any = None) -> str | None:
    """Why a front end's message to ``widget`` is refused; None when it is applied.

    Args:
        widget: The widget the message is for.
        data: The message's data.
        buffers: Its binary buffers (only sound, to the Listen button, has any).
    """
    model = getattr(widget, "_model_name", type(widget).__name__)
    if not isinstance(data, dict):
        return "a widget message without data"
    method = data.get("method")
    found = list(buffers or [])
    if model == VOICE_MODEL and method == "custom":
        refused = voice_shape(data.get("content"), found)
        return None if refused is None else f"{refused} (to a {model})"
    if found:
        return f"a message to a {model} with buffers"
    if method == "request_state":
        return None
    if method == "update":
        if data.get("buffer_paths"):
            return f"an update of a {model} with buffers"
        state = data.get("state")
        traits = INPUTS.get(model)
        if traits is None:
            return f"an update of a display widget ({model})"
        if not isinstance(state, dict) or not state:
            return f"an update of a {model} without a state"
        for key, value in state.items():
            check = traits.get(key)
            if check is None:
                return f"an update of a {model}'s {key!r}, which a device does not change"
            if not check(value):
                return f"an update of a {model}'s {key!r} with a value it does not take"
        return None
    if method == "custom":
        if model not in BUTTONS or data.get("content") != CLICK:
            return f"a custom message to a {model} that is not a click"
        if getattr(widget, "disabled", False):
            return "a click on a disabled button"
        return None
    return f"a widget message of method {str(method)[:40]!r}"


def install() -> None:
    """Check every front-end message to a widget of this process (once)."""
    if _installed:
        return
    import ipywidgets

    if not LOG.handlers:
        shown = logging.StreamHandler(sys.stderr)
        shown.setFormatter(logging.Formatter("[companion kernel] %(message)s"))
        LOG.addHandler(shown)
        LOG.setLevel(logging.INFO)
        LOG.propagate = False
    widget: Any = ipywidgets.Widget
    original = widget._handle_msg

    def _handle_msg(self: Any, msg: Any) -> None:
        content = msg.get("content") if isinstance(msg, dict) else None
        data = content.get("data") if isinstance(content, dict) else None
        buffers = msg.get("buffers") if isinstance(msg, dict) else None
        reason = refusal(self, data, buffers)
        if reason is not None:
            QUIET_KERNEL.refused(f"{reason}, from a device")
            return
        original(self, msg)

    widget._handle_msg = _handle_msg
    _installed.append(True)
