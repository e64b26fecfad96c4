"""A prompter for :class:`companion.play.table.Table` that answers from a random generator."""

from __future__ import annotations

import random
import string
from collections.abc import Callable, Mapping, Sequence

from companion.play.table import Complete, Preview


class Scripted:
    """Answers from a random generator, like players who always type something valid."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.asked: list[str] = []

    def select(
        self,
        message: str,
        choices: Sequence[str],
        default: str | None,
        *,
        controls: bool = True,
        unavailable: Mapping[str, str] | None = None,
    ) -> str:
        self.asked.append(message)
        return self.rng.choice([c for c in choices if c not in (unavailable or {})])

    def text(
        self,
        message: str,
        validate: Callable[[str], str | None],
        default: str,
        suggestions: Sequence[str],
        *,
        complete: Complete | None = None,
        preview: Preview | None = None,
    ) -> str:
        self.asked.append(message)
        if preview:
            preview("bb - r")
        if complete:
            complete("b ")
        letters = list(string.ascii_uppercase)
        self.rng.shuffle(letters)
        candidates = [
            default,
            f"P{self.rng.randrange(1000)}",
            str(self.rng.randrange(4)),
            str(self.rng.randrange(3, 6)),
            "2",
            "3",
            "b y 3 3",
            "k rp 5 5 c1",
            "bb - r kyp - - b",
            "b3102 y21",
            "r1",
            "3 pink",
            "A N",
            "B2 F3",
            "B F K 5",
            "pink 4",
            "2 1 3",
            "A I L",
            "A B C",
            "A B C D",
            "B F I L M",
            *(" ".join(["1"] * n) for n in range(2, 6)),
            *letters,
        ]
        if validate("") is None and self.rng.random() < 0.5:
            return ""  # Enter: take what is offered (on the score pad: save)
        valid = [a for a in candidates if a and validate(a) is None]
        if valid and self.rng.random() < 0.8:
            return self.rng.choice(valid[:3])
        found = [a for a in [*candidates, ""] if validate(a) is None]
        assert found, message
        return found[0]
