"""The files the import tests start from: a real-shaped BG Stats backup and our own export."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

FILES = Path(__file__).parents[1] / "files"
BACKUP = FILES / "bgstats-backup.bgsplay"


def ours() -> dict[str, Any]:
    """A valid json export of one Tokaido play with its score file."""
    score_file = (FILES / "tokaido-final.json").read_text()
    from scorers import SCORERS

    result = SCORERS["tokaido"].score_json(json.loads(score_file)).to_json()
    return {
        "format": "companion-history",
        "version": 2,
        "plays": [
            {
                "id": 1,
                "uuid": "2b1a4c4e-0000-4000-8000-000000000001",
                "played_at": "2026-11-30T20:15:00Z",
                "game": "tokaido",
                "location": "",
                "notes": "",
                "duration_min": None,
                "source": "companion",
                "start_player": 0,
                "people": [
                    {"name": p["name"], "side": k, "anonymous": False}
                    for k, p in enumerate(result["players"])
                ],
                "ignored": False,
                "expansions": [],
                "score_file": score_file,
                "result": result,
                "events": [],
            }
        ],
    }
