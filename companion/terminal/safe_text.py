"""User text as plain text: never rich markup, never a terminal control sequence.

Names, notes, locations and every other text that comes from the players or a
file are data. On their way to the screen they go through these functions:
rich renders a :class:`~rich.text.Text` as it is (``[red]Aki`` stays
``[red]Aki``, ``:smile:`` stays ``:smile:``), and invisible or control
characters (an escape sequence, a bidi override, a NUL) are shown as escapes
such as ``\\x1b`` instead of reaching the terminal.

Example:
    >>> line("Dad [/] \\x1b[2J")
    'Dad [/] \\\\x1b[2J'
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from scorers._validate import printable

if TYPE_CHECKING:
    from rich.console import Console
    from rich.text import Text


def line(value: object) -> str:
    """``value`` as one line of plain text: every invisible character escaped."""
    return printable(str(value))


def lines(value: object) -> str:
    """``value`` as plain text that may span lines (notes): line breaks kept."""
    return "\n".join(printable(part) for part in str(value).split("\n"))


def json_text(document: object) -> str:
    """``document`` as indented JSON for the terminal: non-ASCII text kept as it is,
    but every invisible or control character (a C1 control, a bidi override) written
    as a ``\\uXXXX`` escape, so the JSON reads the same and the terminal sees none."""
    import json

    text = json.dumps(document, indent=2, ensure_ascii=False)
    if text.isprintable() or all(ch.isprintable() or ch == "\n" for ch in text):
        return text
    return "".join(ch if ch.isprintable() or ch == "\n" else json.dumps(ch)[1:-1] for ch in text)


def plain(value: object, style: str = "") -> Text:
    """``value`` as a rich :class:`~rich.text.Text` (never parsed as markup)."""
    from rich.text import Text

    return Text(line(value), style=style)


def console(*, stderr: bool = False) -> Console:
    """A rich console that never reads markup, emoji codes or highlights in strings."""
    from rich.console import Console

    return Console(stderr=stderr, markup=False, emoji=False, highlight=False)
