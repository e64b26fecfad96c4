"""Reading a score file from disk or standard input and scoring it."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from scorers import Result, Scorer


class InputError(Exception):
    """The score file could not be read at all (missing, unreadable, not text)."""


def read_source(source: str) -> str:
    """Return the text of ``source``, a path or ``-`` for standard input.

    Raises:
        InputError: The file cannot be read or is not UTF-8 text.
    """
    try:
        data = sys.stdin.buffer.read() if source == "-" else Path(source).read_bytes()
    except OSError as error:
        raise InputError(f"cannot read {source}: {error.strerror or error}") from error
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise InputError(f"{source} is not UTF-8 text ({error.reason})") from error


def _no_constants(name: str) -> object:
    raise ValueError(f"{name} is not a number JSON allows")


def parse_json(text: str) -> object:
    """Parse JSON text.

    Raises:
        ScoreFileError: At ``$``, when the text is not JSON.
    """
    from scorers import ScoreFileError

    try:
        return json.loads(text, parse_constant=_no_constants)
    except json.JSONDecodeError as error:
        raise ScoreFileError.single(
            "$", f"not valid JSON: {error.msg} (line {error.lineno}, column {error.colno})"
        ) from error
    except ValueError as error:
        raise ScoreFileError.single("$", f"not valid JSON: {error}") from error


def score_text(scorer: Scorer, text: str) -> Result:
    """Validate and score the text of a score file.

    Raises:
        ScoreFileError: With every problem found.
    """
    return scorer.score_json(parse_json(text))
