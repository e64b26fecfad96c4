"""The one rule for stored free text (notes, places), never refused: what names forbid is
left out (see :func:`clean_text`). Imports nothing of the history, so that every layer
that stores or writes text may use it."""

from __future__ import annotations

import unicodedata

_FORBIDDEN = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
"""Control, format, surrogate and separator characters: what the name rule refuses."""


_JOINER = "\u200d"
"""The zero-width joiner: it holds emoji sequences together, and moves no cursor."""


def clean_text(text: str, *, lines: bool) -> str:
    """Stored text (notes: ``lines``; a place) by the rule names use, never refused:
    control and invisible format characters (escape, bidi overrides, zero-width
    spaces) are left out, line breaks kept in notes (``\r\n`` and ``\r`` as
    ``\n``, a line or paragraph separator too) and a tab is a space; a place is one
    line with single spaces. So no export writes an escape sequence.
    """
    if text.isprintable():
        return text if lines else " ".join(text.split())
    if lines:
        text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\t", " ")
    kept = []
    for char in text:
        category = unicodedata.category(char)
        if category in ("Zl", "Zp"):
            kept.append("\n" if lines else " ")
        elif char == "\n" and lines:
            kept.append(char)
        elif category in _FORBIDDEN and char != _JOINER:
            kept.append(" " if char in "\t\n\r\x0b\x0c" else "")
        else:
            kept.append(char)
    cleaned = "".join(kept)
    return cleaned if lines else " ".join(cleaned.split())
