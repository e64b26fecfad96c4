"""One game, one address: every spelling of a path is sent to its one form, or refused.

``/voila/render/tokaido.ipynb/``, ``/voila/render/./tokaido.ipynb`` and
``/voila/render//tokaido.ipynb`` are the same page: each is redirected to
``/voila/render/tokaido.ipynb``, so that the game has one kernel and one
draft whatever a device typed. A path that cannot name anything (``..``, a
NUL or another control character, percent escapes that are not UTF-8) is a
plain 404, before any handler could raise on it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, unquote_to_bytes

MAX_PATH = 2_000


@dataclass(frozen=True)
class Verdict:
    """What to do with a request's path: 0 (go on), 301 (to ``location``) or 404."""

    status: int
    location: str = ""


GO_ON = Verdict(0)
NOT_FOUND = Verdict(404)


def canonical(path: str) -> Verdict:
    """The verdict on a request's path (as sent, percent escapes included)."""
    if len(path) > MAX_PATH or not path.startswith("/"):
        return NOT_FOUND
    try:
        text = unquote_to_bytes(path).decode("utf-8")
    except UnicodeDecodeError:
        return NOT_FOUND
    if any(ord(c) < 32 or ord(c) == 127 or c == "\\" for c in text):
        return NOT_FOUND
    parts = [p for p in text.split("/") if p not in ("", ".")]
    if ".." in parts:
        return NOT_FOUND
    fixed = "/" + "/".join(parts)
    if text == "/" or fixed == text:
        return GO_ON
    if text.endswith("/") and fixed + "/" == text and not text.startswith("/voila/render/"):
        return GO_ON  # a folder's own address (the render path takes none)
    return Verdict(301, quote(fixed, safe="/:@!$&'()*+,;=-._~"))


def handler() -> type[Any]:
    """The tornado handler that answers a path's verdict (a redirect or a plain 404)."""
    from tornado import web

    class PathAnswer(web.RequestHandler):
        def initialize(self, verdict: Verdict) -> None:
            self.verdict = verdict

        def prepare(self) -> None:
            self.set_header("Cache-Control", "no-store")
            if self.verdict.status == 301:
                query = f"?{self.request.query}" if self.request.query else ""
                self.redirect(self.verdict.location + query, permanent=True)
                return
            self.set_status(404)
            self.set_header("Content-Type", "text/plain; charset=utf-8")
            self.finish("404: no such page\n")

    return PathAnswer
