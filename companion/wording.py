"""Small pieces of wording every wing uses."""


def plural(count: int, word: str) -> str:
    """``1 problem``, ``2 problems``."""
    return f"{count} {word}{'' if count == 1 else 's'}"
