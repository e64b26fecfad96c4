"""Topic text for people: rich Markdown on a terminal, plain text in a pipe.

On a terminal a topic is drawn with rich's Markdown at the terminal's width
(bold, lists, code and tables as rich draws them). In a pipe or a file the
same text comes out as plain text: the Markdown marks are removed, paragraphs
and list items are wrapped at whole words to the width, and tables are lined
up in columns. The plain path imports nothing heavy, so that piping a topic
starts as fast as the rest of ``companion rules``.
"""

from __future__ import annotations

import re
import shutil
import textwrap
from collections.abc import Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import Console

ITEM = re.compile(r"^(\s*)([-*+]|\d+[.)])\s+(.*)$")
CODE = re.compile(r"`([^`]*)`")
STRONG = re.compile(r"\*\*(.+?)\*\*|__(.+?)__")
EMPHASIS = re.compile(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])")
HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*$")
TABLE_RULE = re.compile(r"^\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?$")


def width() -> int:
    """The width to wrap at: the terminal's, or ``COLUMNS``, or 80."""
    return max(20, shutil.get_terminal_size((80, 24)).columns)


def inline(text: str) -> str:
    """One line of Markdown without its inline marks (code, bold, emphasis)."""
    text = CODE.sub(r"\1", text)
    text = STRONG.sub(lambda m: m.group(1) or m.group(2), text)
    return EMPHASIS.sub(r"\1", text)


def wrap(text: str, columns: int, first: str = "", rest: str = "") -> list[str]:
    """``text`` wrapped at whole words, never breaking a word or a hyphenated name."""
    return textwrap.wrap(
        text,
        width=columns,
        initial_indent=first,
        subsequent_indent=rest,
        break_long_words=False,
        break_on_hyphens=False,
    ) or [first.rstrip()]


def blocks(markdown: str) -> Iterator[tuple[str, list[str]]]:
    """The Markdown's blocks in order: ``("paragraph" | "item" | "table" | "heading", lines)``.

    A list item takes the indented lines that follow it; a blank line ends a
    paragraph or an item.
    """
    kind = ""
    lines: list[str] = []
    for raw in markdown.splitlines():
        line = raw.rstrip()
        if not line.strip():
            if lines:
                yield kind, lines
            kind, lines = "", []
            continue
        starts = (
            "heading"
            if HEADING.match(line)
            else "table"
            if line.lstrip().startswith("|")
            else "item"
            if ITEM.match(line)
            else ""
        )
        continuing = (
            (kind == "table" and starts == "table")
            or (kind == "item" and not starts and line.startswith(" "))
            or (kind == "paragraph" and not starts)
        )
        if lines and continuing:
            lines.append(line)
            continue
        if lines:
            yield kind, lines
        kind, lines = starts or "paragraph", [line]
    if lines:
        yield kind, lines


def table_lines(rows: list[str], columns: int) -> list[str]:
    """A Markdown table lined up in columns, with a rule under its header."""
    cells = [
        [inline(cell.strip()) for cell in row.strip().strip("|").split("|")]
        for row in rows
        if not TABLE_RULE.match(row.strip())
    ]
    count = max(len(row) for row in cells)
    cells = [row + [""] * (count - len(row)) for row in cells]
    sizes = [max(len(row[k]) for row in cells) for k in range(count)]
    out = [
        "  ".join(cell.ljust(size) for cell, size in zip(row, sizes, strict=True)).rstrip()
        for row in cells
    ]
    if len(out) > 1:
        out.insert(1, "  ".join("-" * size for size in sizes))
    return out


def plain_text(markdown: str, columns: int | None = None) -> str:
    """A topic's Markdown as plain text wrapped at ``columns`` (default: :func:`width`).

    Lists keep their bullets and numbers with a hanging indent, blank lines
    between blocks are kept, and tables are lined up in columns.
    """
    columns = columns or width()
    out: list[str] = []
    previous = ""
    for kind, lines in blocks(markdown):
        if out and not (kind == previous == "item"):
            out.append("")
        previous = kind
        if kind == "table":
            out.extend(table_lines(lines, columns))
        elif kind == "heading":
            heading = HEADING.match(lines[0])
            out.extend(wrap(inline(heading.group(1) if heading else lines[0]), columns))
        elif kind == "item":
            match = ITEM.match(lines[0])
            assert match is not None
            indent, mark, first = match.groups()
            text = " ".join([first, *(line.strip() for line in lines[1:])])
            lead = f"{indent}{mark} "
            out.extend(wrap(inline(text), columns, lead, " " * len(lead)))
        else:
            out.extend(wrap(inline(" ".join(line.strip() for line in lines)), columns))
    return "\n".join(out)


def print_markdown(markdown: str, console: Console) -> None:
    """Draw Markdown with rich at the console's width, without blank lines around it.

    Rich puts a blank line before a list that opens the text; the caller
    decides the spacing instead.
    """
    from rich.markdown import Markdown

    with console.capture() as capture:
        console.print(Markdown(markdown))
    lines = [line.rstrip() for line in capture.get().splitlines()]
    ansi = re.compile(r"\x1b\[[0-9;]*m")
    while lines and not ansi.sub("", lines[0]).strip():
        lines.pop(0)
    while lines and not ansi.sub("", lines[-1]).strip():
        lines.pop()
    console.file.write("\n".join(lines) + "\n")
