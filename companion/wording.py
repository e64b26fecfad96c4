"""Small pieces of wording every wing uses."""


def plural(count: int, word: str) -> str:
    """``1 problem``, ``2 problems``."""
    return f"{count} {word}{'' if count == 1 else 's'}"


def terminal_columns() -> int:
    """The terminal's width (``COLUMNS`` when set; 100 when unknown), at least 40."""
    import shutil

    return max(40, shutil.get_terminal_size((100, 24)).columns)


def hanging(lead: str, text: str, width: int | None = None) -> str:
    """``lead`` + ``text`` wrapped at whole words, the later lines lined up under the text.

    Lines stay shorter than ``width`` (default: the terminal's), so that no
    terminal breaks a word at its edge: ``  5. Shuffle the merchants; ...``.
    """
    import textwrap

    return textwrap.fill(
        " ".join(text.split()),
        width=(width or terminal_columns()) - 1,
        initial_indent=lead,
        subsequent_indent=" " * len(lead),
        break_long_words=False,
        break_on_hyphens=False,
    )
