"""The front door of ``companion serve``: the page at ``/``.

The five games as links by their titles, the games in progress at this
table (a link joins the game), the history, and in table mode the join
address with its QR code. Plain HTML with nothing from outside the server:
no script, no font, no image but the QR code drawn inline.
"""

from __future__ import annotations

import html
from pathlib import Path

from companion.kits import KITS
from scorers import GAME_IDS, title

GAME_LINK = "/voila/render/{game}.ipynb"
HISTORY_LINK = "/voila/render/history.ipynb"

STYLE = """
body { font: 18px/1.5 system-ui, sans-serif; margin: 0 auto; padding: 1em; max-width: 40em; }
a { color: #0645ad; }
ul.games { list-style: none; padding: 0; }
ul.games li { margin: 0.4em 0; }
ul.games a { display: block; padding: 0.6em 0.8em; border: 1px solid #bbb; border-radius: 8px;
  text-decoration: none; font-size: 1.2em; min-height: 44px; box-sizing: border-box; }
.join svg { width: 14em; height: 14em; max-width: 100%; }
.join code { word-break: break-all; }
button { font: inherit; min-height: 44px; }
@media (prefers-color-scheme: dark) {
  body { background: #121212; color: #eee; } a { color: #8ab4f8; }
  .join svg { background: #fff; }
}
"""


def in_progress(db: Path | None = None) -> list[tuple[str, str]]:
    """The games in progress on the web pages: (game, names typed so far), newest first."""
    from companion.history.errors import HistoryError
    from companion.history.sessions import SessionStore
    from companion.widgets.drafts import KEY, KIND, reading

    found: list[tuple[str, str]] = []
    try:
        with reading(db) as history:
            store = SessionStore(history)
            for info in store.unfinished():
                if info.kind != KIND or info.game not in GAME_IDS:
                    continue
                if any(game == info.game for game, _ in found):
                    continue  # a page shows its game's latest draft
                names = ""
                for key, value in reversed(store.events(info.id)):
                    if key == KEY and isinstance(value, dict):
                        count = value.get("players")
                        typed = value.get("names", [])
                        if isinstance(typed, list) and isinstance(count, int):
                            names = ", ".join(
                                " ".join(str(n).split())[:40]
                                for n in typed[:count]
                                if str(n).strip()
                            )
                        break
                found.append((info.game, names))
    except HistoryError:
        return []
    return found


def qr_svg(text: str) -> str:
    """The QR code of ``text`` as inline SVG (empty when segno is not installed)."""
    try:
        import segno
    except ImportError:
        return ""
    code = segno.make(text, error="m")
    svg = code.svg_inline(scale=4, border=2, dark="#000", light="#fff")
    return str(svg)


def front_door(
    *,
    live: dict[str, int] | None = None,
    join: str = "",
    secret: str = "",
    host_device: bool = False,
    hidden: str = "",
    db: Path | None = None,
) -> str:
    """The front door's HTML.

    Args:
        live: The games whose page is open now, with the devices connected.
        join: The join address without the secret (table mode), or ``""``.
        secret: The table secret (shown only inside the join address; ``""``:
            the join address is not shown).
        host_device: The visitor is the host's own screen (it may change the secret).
        hidden: What the host's screen reads instead of a join address not shown.
        db: The history file (default: ``COMPANION_DB`` or the user's).
    """
    live = live or {}
    e = html.escape
    games = "\n".join(
        f'<li><a href="{GAME_LINK.format(game=game)}">{e(title(game))}</a></li>'
        for game in KITS.ready()
    )
    waiting = in_progress(db)
    names = dict(waiting)
    for game in live:
        names.setdefault(game, "")
    rows = []
    for game, typed in names.items():
        devices = live.get(game, 0)
        parts = [e(typed) if typed else "names not typed yet"]
        if devices:
            parts.append(f"{devices} device{'s' if devices != 1 else ''} connected")
        rows.append(
            f'<li><a href="{GAME_LINK.format(game=game)}">Join {e(title(game))}</a> '
            f"({'; '.join(parts)})</li>"
        )
    progress = (
        "<ul class='progress'>" + "\n".join(rows) + "</ul>"
        if rows
        else "<p>No game in progress.</p>"
    )
    table = ""
    if join and (secret or host_device):
        address = f"{join}?table={secret}"
        renew = (
            "<form method='post' action='/companion/new-secret'>"
            "<button type='submit'>New secret (closes every device that joined)</button></form>"
            if host_device
            else ""
        )
        shown = (
            "<p>Scan the code with a phone on the same Wi-Fi, or open:</p>"
            f"<p><code>{e(address)}</code></p>{qr_svg(address)}"
            "<p>Anyone who has this address can enter scores.</p>"
            if secret
            else f"<p class='hidden-code'>{e(hidden)}</p>"
        )
        table = f"<section class='join'><h2>Join this table</h2>{shown}{renew}</section>"
    return (
        "<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        f"<title>Board game companion</title><style>{STYLE}</style></head><body><main>"
        "<h1>Board game companion</h1>"
        f"<h2>Play</h2><ul class='games'>{games}</ul>"
        f"<h2>Games in progress</h2>{progress}"
        f"<h2>History</h2><p><a href='{HISTORY_LINK}'>Games played, stats and records</a></p>"
        f"{table}</main></body></html>\n"
    )
