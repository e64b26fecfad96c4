"""A device talking to a game's kernel as the page does, for the hostile-guest tests.

It reads a game's page over HTTP (with the table cookie), connects to the
page's kernel over the server's websocket, reads every widget with the
widgets' control comm and sends what the page sends (or what a hostile
device would): updates, clicks and any other kernel message.
"""

from __future__ import annotations

import http.client
import json
import queue
import re
import threading
import time
import uuid
from contextlib import ExitStack
from typing import Any

KERNEL_ID = re.compile(r'"kernelId":\s*"([0-9a-f-]{36})"')


def get(port: int, path: str, cookie: str, timeout: float = 120) -> tuple[int, dict[str, str], str]:
    """One GET to 127.0.0.1 with the table cookie."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    connection.request(
        "GET", path, headers={"Host": f"127.0.0.1:{port}", "Cookie": f"companion_table={cookie}"}
    )
    response = connection.getresponse()
    body = response.read().decode(errors="replace")
    connection.close()
    return response.status, dict(response.getheaders()), body


def message(
    msg_type: str,
    content: dict[str, Any],
    channel: str = "shell",
    metadata: dict[str, Any] | None = None,
) -> dict[str, Any]:
    return {
        "header": {
            "msg_id": uuid.uuid4().hex,
            "msg_type": msg_type,
            "username": "",
            "session": "guest",
            "date": "2026-01-01T00:00:00Z",
            "version": "5.3",
        },
        "parent_header": {},
        "metadata": metadata or {},
        "content": content,
        "channel": channel,
    }


class Device:
    """One device on one game: its page's kernel, over a websocket."""

    def __init__(self, port: int, cookie: str, game: str) -> None:
        from websockets.sync.client import connect

        self.port = port
        self.cookie = cookie
        self.game = game
        status, _, page = get(port, f"/voila/render/{game}.ipynb", cookie)
        assert status == 200, status
        found = KERNEL_ID.search(page)
        assert found, page[:200]
        self.kernel = found[1]
        own = f"127.0.0.1:{port}"
        self.stack = ExitStack()
        self.socket = self.stack.enter_context(
            connect(
                f"ws://{own}/api/kernels/{self.kernel}/channels?session_id={uuid.uuid4().hex}",
                origin=f"http://{own}",
                additional_headers={"Cookie": f"companion_table={cookie}"},
                max_size=None,
                open_timeout=60,
            )
        )
        self.states: dict[str, dict[str, Any]] = {}
        self.names: dict[str, str] = {}
        # Everything the kernel sends is read at once (as a page does), so that the
        # connection answers the server's pings however slowly a test looks.
        self.inbox: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            for raw in self.socket:
                self.inbox.put(self._decode(raw))
        except ConnectionClosed as closed:
            self.closed = closed
        finally:
            self.inbox.put(None)

    @staticmethod
    def _decode(raw: str | bytes) -> dict[str, Any]:
        if isinstance(raw, bytes):  # with buffers: the JSON part is what counts here
            count = int.from_bytes(raw[:4], "big")
            start = int.from_bytes(raw[4:8], "big")
            end = int.from_bytes(raw[8:12], "big") if count > 1 else len(raw)
            found: dict[str, Any] = json.loads(raw[start:end])
            return found
        decoded: dict[str, Any] = json.loads(raw)
        return decoded

    def close(self) -> None:
        self.stack.close()

    def send(self, msg: dict[str, Any]) -> None:
        self.socket.send(json.dumps(msg))

    def receive(self, timeout: float) -> dict[str, Any] | None:
        """The next message from the kernel, or None when none came in time.

        Raises:
            ConnectionClosed: The server closed the connection.
        """
        from websockets.exceptions import ConnectionClosed

        try:
            found = self.inbox.get(timeout=max(0.0, timeout))
        except queue.Empty:
            return None
        if found is None:
            self.inbox.put(None)
            raise getattr(self, "closed", None) or ConnectionClosed(None, None)
        return found

    def read_all(self, timeout: float = 30) -> dict[str, dict[str, Any]]:
        """Every widget's class and state, read with the control comm as the page does."""
        control = uuid.uuid4().hex
        self.send(
            message(
                "comm_open",
                {"comm_id": control, "target_name": "jupyter.widget.control", "data": {}},
                metadata={"version": "1.0.0"},
            )
        )
        self.send(message("comm_msg", {"comm_id": control, "data": {"method": "request_states"}}))
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            msg = self.receive(deadline - time.monotonic())
            if msg is None:
                break
            data = msg.get("content", {}).get("data", {})
            if msg.get("header", {}).get("msg_type") == "comm_msg" and data.get("method") == (
                "update_states"
            ):
                for model, found in data["states"].items():
                    self.names[model] = found["model_name"]
                    self.states[model] = found["state"]
                self.send(message("comm_close", {"comm_id": control, "data": {}}))
                return self.states
        raise AssertionError("the kernel did not send its widgets' states")

    def of(self, model_name: str) -> list[str]:
        """The ids of the widgets of one class."""
        return [model for model, name in self.names.items() if name == model_name]

    def update(self, model: str, state: dict[str, Any]) -> None:
        self.send(
            message(
                "comm_msg",
                {
                    "comm_id": model,
                    "data": {"method": "update", "state": state, "buffer_paths": []},
                },
            )
        )

    def watch(self, model: str, key: str, value: Any, timeout: float) -> float | None:
        """Seconds until the kernel says ``model``'s ``key`` is ``value`` (None: not in time)."""
        start = time.monotonic()
        deadline = start + timeout
        while (left := deadline - time.monotonic()) > 0:
            msg = self.receive(left)
            if msg is None:
                return None
            content = msg.get("content", {})
            data = content.get("data", {})
            if content.get("comm_id") == model and data.get("state", {}).get(key) == value:
                return time.monotonic() - start
        return None

    def answers(self, timeout: float = 20) -> bool:
        """True when the kernel answers a kernel_info_request in time."""
        asked = message("kernel_info_request", {})
        self.send(asked)
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            msg = self.receive(left)
            if msg is None:
                return False
            if msg.get("parent_header", {}).get("msg_id") == asked["header"]["msg_id"] and (
                msg.get("header", {}).get("msg_type") == "kernel_info_reply"
            ):
                return True
        return False


def crowd_address(index: int, per_address: int) -> str:
    """The loopback address of the ``index``-th connection of a crowd, ``per_address``
    connections to an address (127.1.0.1, 127.1.0.2, …: other devices of the Wi-Fi)."""
    k = index // per_address
    return f"127.1.{k // 250}.{k % 250 + 1}"


def half_open(
    port: int, count: int, per_address: int = 60, timeout: float = 30, in_flight: int = 500
) -> tuple[list[Any], int]:
    """``count`` connections to the server that each send part of a request's headers
    and wait, from many addresses, opened as fast as the machine allows (up to
    ``in_flight`` connects at once); returns the sockets open and how many
    connects failed. The caller closes the sockets."""
    import errno
    import selectors
    import socket
    import time

    held: list[socket.socket] = []
    failed = 0
    waiting = selectors.DefaultSelector()
    started: dict[socket.socket, float] = {}
    index = 0
    while index < count or started:
        while index < count and len(started) < in_flight:
            sock = socket.socket()
            sock.setblocking(False)
            try:
                sock.bind((crowd_address(index, per_address), 0))
                code = sock.connect_ex(("127.0.0.1", port))
            except OSError:
                code = -1
            index += 1
            if code not in (0, errno.EINPROGRESS):
                sock.close()
                failed += 1
                continue
            started[sock] = time.monotonic()
            waiting.register(sock, selectors.EVENT_WRITE)
        for key, _ in waiting.select(timeout=0.5):
            sock = key.fileobj  # type: ignore[assignment]
            waiting.unregister(sock)
            del started[sock]
            try:
                if sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR):
                    raise OSError("connect failed")
                sock.send(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            except OSError:
                sock.close()
                failed += 1
                continue
            held.append(sock)
        now = time.monotonic()
        for sock in [s for s, at in started.items() if now - at > timeout]:
            waiting.unregister(sock)
            del started[sock]
            sock.close()
            failed += 1
    waiting.close()
    return held, failed
