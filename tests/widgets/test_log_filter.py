"""What the server's terminal shows: no tracebacks or warnings of normal events."""

from __future__ import annotations

import pytest

from companion.widgets.log_filter import LogFilter

CLOSED_TAB = """\
[Voila] ERROR | Task exception was never retrieved
future: <Task finished name='Task-99' exception=WebSocketClosedError()>
Traceback (most recent call last):
  File "/venv/lib/python3.11/site-packages/tornado/websocket.py", line 1090, in wrapper
    await fut
tornado.iostream.StreamClosedError: Stream is closed

During handling of the above exception, another exception occurred:

Traceback (most recent call last):
  File "/venv/lib/python3.11/site-packages/tornado/websocket.py", line 1092, in wrapper
    raise WebSocketClosedError()
tornado.websocket.WebSocketClosedError
"""
SHUTDOWN = """\
[IPKernelApp] ERROR | Exception in message handler:
Traceback (most recent call last):
  File "/venv/lib/python3.11/site-packages/ipykernel/kernelbase.py", line 508, in dispatch_shell
    await result
  File "zmq/backend/cython/_zmq.py", line 1339, in zmq.backend.cython._zmq._check_closed
zmq.error.ZMQError: Socket operation on non-socket
"""
WARNINGS = """\
/venv/lib/python3.11/site-packages/voila/app.py:12: DeprecationWarning: the old way
  warnings.warn(
[Voila] WARNING | Notebook tokaido.ipynb is not trusted
[Voila] WARNING | Timeout waiting for IOPub output
[Voila] Kernel started: a6e607c7-9b68-4d25-9367-b906292a01c2
http://127.0.0.1:8866/
"""
REAL = """\
[Voila] ERROR | Uncaught exception GET /voila/render/tokaido.ipynb (127.0.0.1)
Traceback (most recent call last):
  File "/work/companion/widgets/page.py", line 10, in build
    raise KeyError("players")
KeyError: 'players'
"""


def shown(text: str) -> str:
    out: list[str] = []
    kept = LogFilter(out.append)
    for line in text.splitlines():
        kept.feed(line)
    kept.close()
    return "".join(out)


@pytest.mark.parametrize("noise", [CLOSED_TAB, SHUTDOWN, WARNINGS])
def test_normal_events_leave_nothing(noise: str) -> None:
    assert shown(noise) == ""


def test_a_real_error_shows_whole() -> None:
    assert shown(REAL) == REAL


def test_the_companions_own_lines_show() -> None:
    mine = "[companion 23:04:12] A device joined tokaido (2 connected)\n"
    assert shown(CLOSED_TAB + mine + SHUTDOWN + REAL) == mine + REAL


def test_an_unfinished_traceback_is_not_lost() -> None:
    cut = 'Traceback (most recent call last):\n  File "x.py", line 1, in <module>\n'
    assert shown(cut) == cut


def test_a_connection_the_server_dropped_shows() -> None:
    dropped = "[Voila] WARNING | WebSocket ping timeout after 35012 ms.\n"
    assert shown(WARNINGS + dropped + CLOSED_TAB) == dropped
