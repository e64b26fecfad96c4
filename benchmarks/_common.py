"""What the benchmark scripts share: bytecode as an install has it, and timing a command."""

from __future__ import annotations

import compileall
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorers import SCORERS

ROOT = Path(__file__).resolve().parent.parent

# The generated histories' people, and each game's (fewest, most) players.
NAMES = ["Aki", "Ben", "Cho", "Dai", "Emi", "Fay", "Gen", "Hana", "Isa", "Jun", "Kai", "Lia"]
PLAYER_COUNTS = {g: (s.info.min_players, s.info.max_players) for g, s in SCORERS.items()}


def compile_project() -> None:
    """Write bytecode as a normal install would (PYTHONDONTWRITEBYTECODE may be set)."""
    for package in ("companion", "scorers"):
        compileall.compile_dir(str(ROOT / package), quiet=1)


def timed(command: list[str], env: dict[str, str] | None = None) -> float:
    """Wall time of one run of ``command``, in seconds."""
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, env=env)
    return time.perf_counter() - start
