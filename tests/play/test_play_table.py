"""Findings of playing every game through at a real terminal, each held by a test.

Every test drives the real prompts (prompt_toolkit pipe input), as the table does.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.play.runner import rules_text
from tests.support.play_helpers import CLEAR, events, run, saved, sel, sessions, txt

TOKAIDO_ROWS = ("61 58", "1 2", "2 3", "1 0", "0 0", "0 1", "0 0")


def tokaido_score_keys() -> str:
    """``companion score tokaido`` for Aki and Ben, saved from the score pad."""
    keys = txt("2") + txt("Aki") + txt("Ben") + sel(0) + sel(1)
    return keys + "".join(txt(row) for row in TOKAIDO_ROWS) + txt("")


# --- :rules in the prompts is drawn as `companion rules` draws it ---------------------

SKIP_OVER_AT_60 = """
Skipping over occupied circles

A piece may pass over an occupied circle and land on the
next one, and keep doing so while circles stay occupied
(your own pieces included).

- On a walk, the circle you finally land on must be of the
  walk's colour.
- On a rickshaw ride, you skip only when the circle two
  steps away is occupied.

What happens to the coins of a circle you skip: see coins.

(More: companion rules kamakura; companion rules kamakura
skip-over)
"""

WINTER_TABLE_AT_60 = """
2. You need one rice per province you hold. Short of rice,
   some provinces revolt:

shortfall  revolts  extra farmers each
---------  -------  ------------------
0          0        0
1          1        1
2          1        2
3 to 4     2        2
5 to 6     2        3
7 or more  3        3
"""


def test_rules_in_a_prompt_are_plain_text_without_markdown_marks() -> None:
    assert rules_text("kamakura", "skip-over", 60) == SKIP_OVER_AT_60
    winter = rules_text("shogun", "winter", 60)
    assert winter.startswith("\nWinter: rice and revolts\n\n1. Everyone lowers their rice")
    assert WINTER_TABLE_AT_60 in winter
    assert "|" not in winter and "**" not in winter and "`" not in winter


def test_rules_asked_in_a_prompt_are_wrapped_at_the_terminal_width(db_path: Path) -> None:
    # COLUMNS is 80 in the tests: the topic comes wrapped at 80, without Markdown.
    keys = txt("2") + txt(":rules") + txt("Aki") + txt("Ben") + sel(0) + sel(1)
    keys += "".join(txt(row) for row in TOKAIDO_ROWS) + txt("")
    result = run(["score", "tokaido"], keys)
    assert result.exit_code == 0, result.output
    # The topic of the question asked (the players' count: set-up) comes as it is drawn.
    assert rules_text("tokaido", "setup", 80) in result.stdout
    assert "**" not in result.stdout and "`" not in result.stdout


# --- interactive score: --json and --no-save ------------------------------------------


def test_interactive_score_json_prints_what_score_input_json_prints(
    db_path: Path, tmp_path: Path
) -> None:
    result = run(["score", "tokaido", "--json"], tokaido_score_keys())
    assert result.exit_code == 0, result.output
    [game] = saved(db_path)
    file = tmp_path / "tokaido.json"
    file.write_text(json.dumps(game["score_file"]), encoding="utf-8")
    direct = run(["score", "tokaido", "--input", str(file), "--json", "--no-save"], "")
    assert direct.exit_code == 0, direct.output
    # Standard output is the JSON alone: the score pad and the messages went to stderr.
    assert result.stdout == direct.stdout
    assert json.loads(result.stdout)["winners"] == ["Ben"]
    assert "Tokaido: final count" in result.stderr
    assert result.stderr.endswith("Saved to the history as game #1.\n")


def test_interactive_score_no_save_records_nothing(db_path: Path) -> None:
    result = run(["score", "tokaido", "--no-save"], tokaido_score_keys())
    assert result.exit_code == 0, result.output
    assert "\nWinner: Ben.\n\nBen won by 3 points, 74 to 71.\n" in result.stdout
    assert result.stdout.endswith("Not saved (--no-save).\n")
    assert "Saved to the history" not in result.stdout
    assert saved(db_path) == []
    assert sessions(db_path) == []  # the answers typed are gone too


def test_interactive_score_no_save_json(db_path: Path) -> None:
    result = run(["score", "tokaido", "--no-save", "--json"], tokaido_score_keys())
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["game"] == "tokaido"
    assert result.stderr.endswith("Not saved (--no-save).\n")
    assert saved(db_path) == [] and sessions(db_path) == []


def test_ctrl_c_in_a_no_save_entry_leaves_nothing_to_resume(db_path: Path) -> None:
    keys = tokaido_score_keys()
    cut = keys.index(txt("0 0"))
    stopped = run(["score", "tokaido", "--no-save"], keys[:cut] + "\x03")
    assert stopped.exit_code == 130, stopped.output
    assert stopped.stdout.endswith("\nStopped; nothing was kept (--no-save).\n")
    assert saved(db_path) == [] and sessions(db_path) == []
    listed = run(["resume"], "")
    assert listed.stdout == "No unfinished games.\n"


def test_the_pause_message_names_the_db_a_plain_resume_would_not_find(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    keys = tokaido_score_keys()
    cut = keys.index(txt("0 0"))
    other = tmp_path / "other dir" / "h.db"
    other.parent.mkdir()
    commands = (["score", "tokaido", "--db", str(other)], ["--db", str(other), "score", "tokaido"])
    for args in commands:
        paused = run(args, keys[:cut] + txt(":pause"))
        assert paused.exit_code == 0, paused.output
        number = 1 if args[0] == "score" else 2
        assert paused.stdout.endswith(
            f"Paused and saved. Continue with: companion --db '{other}' resume {number}\n"
        )
    resumed = run(["--db", str(other), "resume", "2"], keys[cut:])
    assert resumed.exit_code == 0, resumed.output
    # The shell's COMPANION_DB names that file: a plain resume finds it.
    monkeypatch.setenv("COMPANION_DB", str(other))
    paused = run(["score", "tokaido", "--db", str(other)], keys[:cut] + txt(":pause"))
    assert paused.stdout.endswith("Paused and saved. Continue with: companion resume 3\n")


def test_a_paused_no_save_entry_is_still_not_recorded_when_resumed(db_path: Path) -> None:
    keys = tokaido_score_keys()
    cut = keys.index(txt("0 0"))
    paused = run(["score", "tokaido", "--no-save"], keys[:cut] + txt(":pause"))
    assert paused.exit_code == 0, paused.output
    assert paused.stdout.endswith("Paused and saved. Continue with: companion resume 1\n")
    assert sessions(db_path) == [(1, "tokaido", "active")]  # Ctrl-C or a pause loses nothing
    resumed = run(["resume", "1"], keys[cut:])
    assert resumed.exit_code == 0, resumed.output
    assert resumed.stdout.endswith("Not saved (--no-save).\n")
    assert saved(db_path) == [] and sessions(db_path) == []


# --- resuming at the score pad --------------------------------------------------------


def test_a_resumed_score_pad_shows_only_its_latest_values(db_path: Path) -> None:
    # Found at the table: after a fix on the pad, Ctrl-C and resume, the context
    # showed the pad twice, the first one with the value already corrected.
    keys = tokaido_score_keys()[: -len(txt(""))] + txt("A2") + txt("60") + txt(":pause")
    paused = run(["score", "tokaido"], keys)
    assert paused.exit_code == 0, paused.output
    assert paused.stdout.count("Tokaido: final count") == 2  # live: before and after the fix
    resumed = run(["resume", "1"], txt(""))
    assert resumed.exit_code == 0, resumed.output
    context = resumed.stdout.split("\nTokaido\n")[0]
    assert context.count("Tokaido: final count") == 1
    assert "\n2   Score track             60        58\n" in context
    assert "61" not in context
    [game] = saved(db_path)
    assert [p["journey"] for p in game["score_file"]["players"]] == [60, 58]


# --- Kamakura: a station holds no site coin -------------------------------------------


@pytest.mark.slow
def test_a_site_coin_from_a_station_is_refused_and_asked_again(db_path: Path) -> None:
    from companion.kits.kamakura.codes import coins_problem
    from tests.support.play_scripts import kamakura

    assert coins_problem("A", {}) == "circle A is a station: it holds no site coin"
    assert coins_problem("B O N3p", {}) == "circle N is a station: it holds no site coin"
    script = kamakura(2)
    first_visit = script.before.index(txt("v B"))
    before = list(script.before)
    before[first_visit] = txt("v A") + CLEAR + txt("v B")  # refused, cleared, typed again
    result = run(script.args, "".join(before + script.count))
    assert result.exit_code == 0, result.output
    [game] = saved(db_path)
    coins = [c["circle"] for c in game["score_file"]["players"][0]["site_coins"]]
    assert "A" not in coins and coins[0] == "B"


# --- Shogun: round names read well in a list ------------------------------------------


@pytest.mark.slow
def test_shogun_rounds_are_named_without_commas(db_path: Path, seeds: list[int]) -> None:
    # Found at the table: "Rounds: set-up <1 min, year 1, spring <1 min, year 1, summer ..."
    # could not be read; a round's name now has no comma of its own.
    from tests.support.play_scripts import shogun

    script = shogun(3)
    result = run(script.args, script.keys())
    assert result.exit_code == 0, result.output
    [timing] = [value for key, value in events(db_path, 1) if key == "meta:time"]
    names = list(dict.fromkeys(entry["round"] for entry in timing["rounds"]))
    assert names == [
        "set-up",
        *[f"year {y} {s}" for y in (1, 2) for s in ("spring", "summer", "autumn", "winter")],
    ]


@pytest.mark.parametrize(
    ("first", "said"),
    [
        ("", "Done by the companion: step 6, Turn up 3 exclusive tour cards.\n"),
        ("y", "Done by the companion: step 6, Turn up 3 exclusive tour cards (L and M left "),
    ],
)
def test_kamakura_s_drawn_tours_say_only_what_applied(db_path: Path, first: str, said: str) -> None:
    people = txt("3") + txt("Aki") + txt("Ben") + txt("Cho")
    result = run(["play", "kamakura"], people + txt("") + txt("") + txt(first) + txt("") + "\x03")
    assert said in result.stdout
    done = result.stdout[result.stdout.index("Done by the companion") :]
    assert ("first game: leave out" in done) is False


def test_shogun_s_first_winter_pad_shows_the_totals_before_enter(db_path: Path) -> None:
    from tests.support.play_scripts import shogun

    script = shogun(3)
    result = run(script.args, script.keys())
    assert result.exit_code == 0, result.output
    # On the pad itself, above the question that keeps it (not only after Enter).
    assert "6 Winter of year: 1\nTotals: Aki 17, Ben 16, Cho 10\n" in result.stdout
