"""A change a device sends twice is applied once: the kernel's side of a value kept.

A page sends a widget's change again on its next connection when it never
heard that the kernel handled it (the connection dropped first: the Wi-Fi,
a phone asleep, the server closing a silent socket). When the kernel did
handle it, applying it again could undo a newer value another device typed
meanwhile ("Eleonora" back to "Doroth" on every device). The page sends the
same message again, with its id (and a new date: jupyter_client refuses
a message signed exactly as one it has seen, and answers nothing): :func:`install` makes the kernel
remember the ids of the changes it handled and, for one it has seen, apply
nothing and only confirm the current value to the page (the ``echo_update``
ipywidgets sends for every change), so that the page takes the value the
table holds now.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import Any

REMEMBERED = 5000  # changes remembered; a page resends only those of one connection
MARK = "_companion_once"


class Seen:
    """The ids of the last changes handled, oldest first."""

    def __init__(self, size: int = REMEMBERED) -> None:
        self.size = size
        self.ids: OrderedDict[str, None] = OrderedDict()

    def first_time(self, msg_id: str) -> bool:
        """True the first time ``msg_id`` is given (and remembers it)."""
        if msg_id in self.ids:
            return False
        self.ids[msg_id] = None
        if len(self.ids) > self.size:
            self.ids.popitem(last=False)
        return True


def confirm(msg: dict[str, Any]) -> None:
    """Answer a change seen before with the widget's current value of what it changed."""
    from ipywidgets.widgets.widget import _instances, _remove_buffers

    content = msg.get("content", {})
    widget = _instances.get(str(content.get("comm_id")))
    state = content.get("data", {}).get("state", {})
    if widget is None or not isinstance(state, dict):
        return
    keys = [key for key in state if key in widget.keys]
    if not keys:
        return
    current, paths, buffers = _remove_buffers(widget.get_state(keys))
    widget._send(
        {"method": "echo_update", "state": current, "buffer_paths": paths}, buffers=buffers
    )


def once(handler: Callable[..., Any], seen: Seen) -> Callable[..., Any]:
    """``handler`` of ``comm_msg``, skipping a widget change it handled already."""

    def handle(stream: Any, ident: Any, msg: dict[str, Any]) -> Any:
        data = msg.get("content", {}).get("data", {})
        if isinstance(data, dict) and data.get("method") == "update":
            msg_id = str(msg.get("header", {}).get("msg_id", ""))
            if msg_id and not seen.first_time(msg_id):
                confirm(msg)
                return None
        return handler(stream, ident, msg)

    setattr(handle, MARK, seen)
    return handle


def install() -> bool:
    """In a running kernel, make its ``comm_msg`` handler apply each change once.

    Returns:
        False outside a kernel (a test, a script); True once installed.
    """
    try:
        from ipykernel.kernelbase import Kernel

        if not Kernel.initialized():
            return False
        kernel = Kernel.instance()
    except Exception:
        return False
    handlers = kernel.shell_handlers
    current = handlers.get("comm_msg")
    if current is None:
        return False
    if not hasattr(current, MARK):
        handlers["comm_msg"] = once(current, Seen())
    return True
