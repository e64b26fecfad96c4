"""Answers and keystrokes at the table, per game and player count, through the real prompts.

Plays the scripted complete games of ``tests/support/play_scripts.py`` through the
command line, with prompt_toolkit's pipe input, each into a fresh history,
and checks that each is saved with the expected winner. For each game and
player count it prints the end count's answers (in all, and per player) and
keystrokes (an arrow key counts once), then plays the same game with one value
of the end count typed wrong and counts the answers that fix it on the score
pad: from the pad showing the wrong value to the save, the save included.

Kamakura with four players is an ordinary game (:func:`ordinary_kamakura`):
68 turns in which every player walks off the station first, then visits,
walks, rests and rides taxis, new circles described by their first taker.
Shimoda is one too (:func:`ordinary_shimoda`): both streets full, each with
seven cards of its own typed at the end count. The other games are the test
scripts.

Targets for the largest player count, answers per player at the end count:
Tokaido <= 7, Shimoda <= 10, Kamakura <= 10, Shogun winter <= 7, Shibuya <= 2;
fixing one value <= 3 answers in every game. Keystrokes: Kamakura
``keys_per_turn`` <= 2.5, Shimoda ``keys_end_count`` <= 120, Shogun's second
winter <= 6 keys per player.

The Shogun game is an ordinary one (``tests/support/play_scripts.py``,
``shogun``): in the second winter every player's holding changed in two or
three regions since the first (provinces gained and lost, some with their
buildings, buildings built), one player is short of rice and a revolt takes
one of their provinces, and no totals are equal (no war chests asked).

``keys_end_count`` is the keystrokes of the end count (for Shogun the second
winter); ``keys_per_turn``, for the games whose scripts log turns, is the
keystrokes of the game before the end count (set-up and every turn) divided
by the turns played; ``keys_game`` is every keystroke of the game, the end
count included.

Usage: ``.venv/bin/python benchmarks/table_time.py [--json]``; ``--json``
prints ``{"<game>": {"players": N, "answers_per_player": N, "fix_answers": N,
"keys_end_count": N, "keys_per_turn": N or null, "keys_game": N}}`` for the
largest player count of each game (Shogun also ``"keys_per_player"``: its
second winter's keys per player).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

TARGETS = {"tokaido": 7, "shimoda": 10, "kamakura": 10, "shogun": 7, "shibuya": 2}
FIX_TARGET = 3
KEY_TARGETS = {"kamakura": ("keys_per_turn", 2.5), "shimoda": ("keys_end_count", 120)}
SHOGUN_KEYS_PER_PLAYER = 6


KAMAKURA_PLANS = {
    # Every player walks off the station first (nothing to take there), then visits,
    # walks, rests and rides taxis as a table does. Aki visits B O K M F C D E and
    # takes the 8th coin on the 17th turn; the others take the second coin of
    # Aki's circles or describe a new circle when they are first to take its coin.
    "Aki": "w B w O r K w M c F w C u D w r E",
    "Ben": "w B w O r w K w r M w c F u w r C",
    "Cho": "w D r E w G w r H w c I u w r w J",
    "Dai": "w r G w H r w I w J c w u L w r w",
}
"""Each player's turns in seat order (Aki starts): a circle is a visit there."""
NEW_CIRCLES = {"G": "G3p", "H": "H2b", "I": "I4g", "J": "J3p", "L": "L2g"}
"""Circles not described at set-up: the first to take their coin describes it."""


def kamakura_turn(plan: list[str], done: list[str], seen: set[str]) -> str:
    """The keys of one planned turn, given the player's turns so far (the offered one: Enter).

    ``seen``: the new circles described so far (one is described when first taken).
    """
    from companion.kits.kamakura.flow import LETTERS, VISIT, likely
    from tests.support.play_helpers import txt

    step = plan[len(done)]
    action = LETTERS.get(step, VISIT)
    history = [LETTERS.get(s, VISIT) for s in done]
    if action != VISIT and likely(history) == action:
        return txt("")
    if step in NEW_CIRCLES and step not in seen:
        seen.add(step)
        return txt(NEW_CIRCLES[step])
    return txt(step)


def ordinary_kamakura() -> Any:
    """Four players, 68 turns: everyone visits, walks, rests and rides; the usual count.

    The set-up is the test script's for four players (``tests/support/play_scripts.py``)
    but the companion draws the tour cards, as the question offers; the turns are
    :data:`KAMAKURA_PLANS`; the end count is the test script's with the drawn cards.
    """
    from tests.support.play_helpers import DOWN, txt
    from tests.support.play_scripts import kamakura

    script = kamakura(4)
    setup = script.before[: len(script.before) - script.turns]
    drawn = setup.index(DOWN + "\r")  # the table lets the companion draw the tour cards
    setup[drawn : drawn + 2] = [txt("")]
    plans = {name: plan.split() for name, plan in KAMAKURA_PLANS.items()}
    done: dict[str, list[str]] = {name: [] for name in plans}
    turns = []
    seen: set[str] = set()
    order = list(plans)
    for number in range(len(plans["Aki"])):
        for name in order:
            if number >= len(plans[name]):
                continue
            turns.append(kamakura_turn(plans[name], done[name], seen))
            done[name].append(plans[name][number])
    script.before = setup + turns
    script.turns = len(turns)
    # The companion's draw (seed 5000): tour cards I, F, E and B, counted first.
    tours = [txt("pink 4"), txt("B O K 6"), txt("C D E 5"), txt("F G H 4")]
    script.count = tours + script.count[4:]
    script.wrong = (1, txt("B O K 5"))
    script.fix = [txt("6"), txt("B O K 6")]  # card F: row 6 of the pad
    return script


SHIMODA_STREETS = {
    # Seven shops on each street, every kind of card, the words cut as short as
    # they still read (an, tw, al, th, c, v); tourists on most spaces.
    "Aki": (["by33", "krp55", "ran11", "ytw33", "pal77", "bc33c1", "kv47"], "yy b r kyp - bp y"),
    "Ben": (["rk33", "yan11", "pby55", "kth33", "bv17", "yc33c2", "ral77"], "bb k rr y - kp b"),
}
"""Each player's street at the end of a Shimoda game: its shop cards, then its tourists."""


def ordinary_shimoda() -> Any:
    """Two players, seven rounds, both streets full: each street's seven cards typed.

    The rounds are the test script's (``tests/support/play_scripts.py``); the test
    script's second street repeats the first (``=7`` ...), here it holds cards of its own.
    """
    from tests.support.play_helpers import txt
    from tests.support.play_scripts import shimoda

    script = shimoda()
    count = []
    for cards, tourists in SHIMODA_STREETS.values():
        count += [txt(card) for card in cards] + [txt(tourists)]
    script.count = [*count, txt("")]
    return script


ORDINARY = {"kamakura": ordinary_kamakura, "shimoda": ordinary_shimoda}
"""Games played as an ordinary table plays them, in place of the test script."""
ORDINARY_AT = {("kamakura", 4), ("shimoda", 2)}


def play(keys: str, args: list[str], folder: Path) -> dict[str, Any]:
    """Run one scripted game into a fresh history; return the saved game."""
    import companion.play.setup as setup
    from tests.support.play_helpers import run, saved

    counter = iter(range(5000, 10**6))
    setup.new_seed = lambda: next(counter)  # the same draws on every run

    db = folder / f"history-{len(list(folder.iterdir()))}.sqlite3"
    os.environ["COMPANION_DB"] = str(db)
    result = run(args, keys)
    if result.exit_code != 0 or "Saved to the history" not in result.stdout:
        raise SystemExit(f"{' '.join(args)} did not finish:\n{result.output[-2000:]}")
    [game] = saved(db)
    return game


def measure() -> list[dict[str, Any]]:
    """Play every script, plain and with one slip fixed; the figures of each."""
    from tests.support.play_helpers import keystrokes
    from tests.support.play_scripts import SCRIPTS

    os.environ.setdefault("COLUMNS", "100")
    rows = []
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        for game, scripts in SCRIPTS.items():
            for tested in scripts:
                script = ORDINARY[game]() if (game, tested.players) in ORDINARY_AT else tested
                plain = play(script.keys(), script.args, folder)
                fixed = play(script.fixed(), script.args, folder)
                for done in (plain, fixed):
                    if done["result"]["winners"] != script.winners:
                        raise SystemExit(f"{game}: won by {done['result']['winners']}")
                if fixed["score_file"] != plain["score_file"]:
                    raise SystemExit(f"{game}: the fixed game differs from the plain one")
                answers = len(script.count)
                played = keystrokes("".join(script.before))
                rows.append(
                    {
                        "game": game,
                        "players": script.players,
                        "answers": answers,
                        "answers_per_player": round(answers / script.players, 2),
                        "keystrokes": keystrokes("".join(script.count)),
                        "game_answers": len(script.before) + answers,
                        "fix_answers": len(script.fix) + 1,
                        "keys_end_count": keystrokes("".join(script.count)),
                        "keys_per_turn": round(played / script.turns, 2) if script.turns else None,
                        "keys_game": keystrokes(script.keys()),
                    }
                )
    return rows


def missed(game: str, row: dict[str, Any]) -> bool:
    """Whether the row misses one of its game's targets."""
    if row["answers_per_player"] > TARGETS[game] or row["fix_answers"] > FIX_TARGET:
        return True
    if game in KEY_TARGETS:
        name, limit = KEY_TARGETS[game]
        if row[name] is None or row[name] > limit:
            return True
    return game == "shogun" and row["keys_end_count"] > SHOGUN_KEYS_PER_PLAYER * row["players"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    options = parser.parse_args()
    rows = measure()
    largest = {}
    for row in rows:
        if row["players"] >= largest.get(row["game"], {"players": 0})["players"]:
            largest[row["game"]] = row
    failed = [game for game, row in largest.items() if missed(game, row)]
    if options.json:
        fields = (
            "players",
            "answers_per_player",
            "fix_answers",
            "keys_end_count",
            "keys_per_turn",
            "keys_game",
        )
        document = {game: {f: row[f] for f in fields} for game, row in largest.items()}
        if "shogun" in document:
            row = largest["shogun"]
            document["shogun"]["keys_per_player"] = round(row["keys_end_count"] / row["players"], 2)
        print(json.dumps(document, indent=2))
        return 1 if failed else 0
    print(
        f"{'game':<9}{'players':>8}{'end count':>11}{'per player':>12}{'keys':>7}"
        f"{'whole game':>12}{'fix':>5}{'target':>8}{'keys/turn':>11}{'all keys':>10}"
    )
    for row in rows:
        print(
            f"{row['game']:<9}{row['players']:>8}{row['answers']:>11}"
            f"{row['answers_per_player']:>12}{row['keystrokes']:>7}{row['game_answers']:>12}"
            f"{row['fix_answers']:>5}{'<= ' + str(TARGETS[row['game']]):>8}"
            f"{row['keys_per_turn'] if row['keys_per_turn'] is not None else '-':>11}"
            f"{row['keys_game']:>10}"
        )
    shogun = largest.get("shogun")
    if shogun is not None:
        print(
            "Shogun: the end count is the second winter (what changed, the rice, what the "
            "revolt took, save;\n  war chests only for equal totals): "
            f"{shogun['keys_end_count']} keys for {shogun['players']} players, "
            f"{round(shogun['keys_end_count'] / shogun['players'], 2)} a player "
            f"(goal <= {SHOGUN_KEYS_PER_PLAYER})."
        )
    for game, (name, limit) in KEY_TARGETS.items():
        if game in largest:
            print(f"{game}: {name} {largest[game][name]} (goal <= {limit})")
    print("fix: answers to correct one wrong value on the score pad, the save included.")
    print("all targets met" if not failed else f"targets missed: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
