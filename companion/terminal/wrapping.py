"""Lines broken between words at the terminal's width, never mid-word."""

from __future__ import annotations


def between_words(text: str, columns: int | None = None) -> str:
    """``text`` with each line wider than the terminal broken at spaces, not mid-word.

    A broken line goes on indented as it began (plus two spaces for a list item).
    Only on a terminal (or with ``columns``): a pipe has no width, its lines stay whole.
    """
    import shutil
    import sys
    import textwrap

    if columns is None and not sys.stdout.isatty():
        return text
    width = columns or shutil.get_terminal_size((100, 24)).columns
    out: list[str] = []
    for line in text.split("\n"):
        if len(line) <= width or not line.strip():
            out.append(line)
            continue
        indent = line[: len(line) - len(line.lstrip())]
        out.extend(
            textwrap.wrap(
                line,
                width,
                subsequent_indent=indent + "  ",
                break_on_hyphens=False,
                drop_whitespace=True,
            )
            or [line]
        )
    return "\n".join(out)
