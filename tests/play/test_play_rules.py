"""``:rules`` opens the topic for the exact step: every prompt of every flow, mapped."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from companion.play.runner import flow_for, rules_text
from companion.play.table import Table
from companion.rules import load_topics
from tests.support.prompters import Scripted

N = r"\d+"
# Every question's key (numbers as N) -> the topic id `:rules` must open there.
EXPECTED: dict[tuple[str, str], dict[str, str]] = {
    ("tokaido", "play"): {
        "players.count": "setup",
        "players.N": "setup",
        "setup.skipped": "setup",
        "deal": "travelers",
        "traveler.N": "travelers",
        "lineup": "setup",
        "lineup.last": "setup",
        "innN.first": "inns",
        "innN.notes": "inns",
        "innN.gain.meal_cost": "inns",
        "innN.gain.souvenirs": "village",
        "innN.gain.hot_springs": "hot-springs",
        "innN.gain.encounters": "encounters",
        "innN.gain.temple": "temple",
        "score.journey": "scoring-journey",
        "score.temple": "scoring-temple",
        "score.meal_cost": "scoring-gourmet",
        "score.souvenirs": "scoring-collector",
        "score.hot_springs": "scoring-bather",
        "score.encounters": "scoring-chatterbox",
        "score.panorama_achievements": "panorama-achievements",
        "reviewN": "scoring-achievements",
        "fixN.which": "scoring-achievements",
        "fixN.traveler.N": "travelers",
        "fixN.journey.N": "scoring-journey",
        "fixN.temple.N": "scoring-temple",
        "fixN.meal_cost.N": "scoring-gourmet",
        "fixN.souvenirs.N": "scoring-collector",
        "fixN.hot_springs.N": "scoring-bather",
        "fixN.encounters.N": "scoring-chatterbox",
        "fixN.panorama_achievements.N": "panorama-achievements",
    },
    ("shibuya", "play"): {
        "mode": "four-players",
        "players.N": "setup|four-players",
        "colour": "setup|four-players",
        "variant": "optional-rule",
        "setup.skipped": "setup|four-players",
        "start": "setup|four-players",
        "build.N": "construction",
        "cross.N": "crossing-move|four-players",
        "reviewN": "how-to-win",
        "fixN.which": "how-to-win",
        "fixN.goals.N": "how-to-win",
        "fixN.variant": "optional-rule",
    },
    ("shogun", "play"): {
        "players.count": "setup",
        "players.N": "setup",
        "setup.skipped": "setup",
        "oldest": "claiming-provinces",
        "yN.(spring|summer|autumn).bid.N": "turn-order",
        "yN.(spring|summer|autumn).done": "actions",
        "yN.winter.held.N": "scoring-winter",
        "yN.winter.changed.N": "scoring-winter",
        "yN.winter.rice": "winter",
        "yN.winter.taken.N": "battles",
        "yN.winter.recheckN": "winter",
        "yN.winter.tied": "tie-breaks",
        "reviewN": "scoring-winter|scoring-final-winter",
        "fixN.which": "scoring-winter|scoring-final-winter",
        "fixN.(brown|yellow|red|purple|green).N": "scoring-winter|scoring-final-winter",
        "fixN.before.N": "scoring-previous",
        "fixN.chests.N": "tie-breaks",
    },
    ("kamakura", "play"): {
        "players.count": "setup",
        "players.N": "setup",
        "setup.skipped": "setup",
        "advanced": "advanced-rules",
        "first_game": "tour-cards",
        "draw_tours": "tour-cards",
        "tours": "tour-cards",
        "start": "setup",
        "circles": "site-coins",
        "turn.N": "actions",
        "turn.N.coin": "coins",
        "circle.[A-Z]": "site-coins",
        "score.tour.[A-M]": "tour-cards",
        "score.N.coins": "memento-board",
        "score.N.eat": "scoring-eat-coins",
        "score.N.pieces": "tour-cards",
        "score.N.tickets": "taxi-tickets",
        "reviewN": "game-end",
        "fixN.which": "game-end",
        "fixN.track.N": "scoring-track",
        "fixN.coins.N": "memento-board",
        "fixN.eat.N": "scoring-eat-coins",
        "fixN.pieces.N": "tour-cards",
        "fixN.tickets.N": "taxi-tickets",
        "fixN.tour.[A-M]": "tour-cards",
        "fixN.claim.[A-K]": "advanced-rules",
        "fixN.circle.[A-Z]": "site-coins",
    },
    ("shimoda", "play"): {
        "players.N": "setup",
        "setup.skipped": "setup",
        "start": "setup",
        "merchant.N": "merchants",
        "merchant.N.name": "merchants",
        "merchant.N.when": "merchants",
        "merchant.N.icon": "merchants",
        "rN.N.N": "select-card",
        "rN.N.N.icons": "movement",
        "rN.N.N.merchant": "movement",
        "rN.tourists": "round-end",
        "score.N.shopN": "scoring-shops",
        "score.N.tourists": "scoring-victory-markers",
        "score.N.points": "scoring-merchant",
        "reviewN": "scoring-victory-markers",
        "fixN.which": "scoring-victory-markers",
        "fixN.merchant.N": "merchants",
        "fixN.points.N": "scoring-merchant",
        "fixN.shopN.N": "scoring-shops",
        "fixN.tourists.N": "scoring-victory-markers",
    },
}
EXPECTED[("tokaido", "score")] = {
    **{k: v for k, v in EXPECTED[("tokaido", "play")].items() if not k.startswith("inn")},
}
EXPECTED[("shibuya", "score")] = {
    "mode": "four-players",
    "players.N": "setup|four-players",
    "colour": "setup|four-players",
    "variant": "optional-rule",
    "score.N.goals": "how-to-win",
    "reviewN": "how-to-win",
    "fixN.which": "how-to-win",
    "fixN.goals.N": "how-to-win",
    "fixN.variant": "optional-rule",
}
EXPECTED[("shogun", "score")] = {
    "players.count": "setup",
    "players.N": "setup",
    "year": "game-end",
    "before": "scoring-previous",
    "y2.winter.tied": "tie-breaks",
    "regions.N": "scoring-winter",
    "reviewN": "scoring-winter|scoring-final-winter",
    "fixN.which": "scoring-winter|scoring-final-winter",
    "fixN.(brown|yellow|red|purple|green).N": "scoring-winter|scoring-final-winter",
    "fixN.before.N": "scoring-previous",
    "fixN.chests.N": "tie-breaks",
}
EXPECTED[("kamakura", "score")] = {
    **EXPECTED[("kamakura", "play")],
    "advanced": "advanced-rules",
    "tours": "tour-cards",
    "score.track": "scoring-track",
}
EXPECTED[("shimoda", "score")] = {
    **EXPECTED[("shimoda", "play")],
    "merchant.N": "scoring-merchant",
}
SEEDS = 14


def walk(game: str, kind: str) -> dict[str, set[str]]:
    """Every question's key and the topics it opened, over several games."""
    found: dict[str, set[str]] = {}
    for seed in range(SEEDS):
        holder: dict[str, Table] = {}

        def save(key: str, value: Any, where: str, holder: dict[str, Table] = holder) -> None:
            if not key.startswith("seed:"):
                found.setdefault(key, set()).add(holder["t"].asking)

        t = Table(game, [], save=save, prompter=Scripted(random.Random(seed)), out=lambda _: None)
        holder["t"] = t
        flow_for(game, kind)(t)
    return found


@pytest.mark.parametrize(("game", "kind"), sorted(EXPECTED))
def test_every_prompt_opens_the_topic_of_its_step(game: str, kind: str) -> None:
    ids = {t.id for t in load_topics(game)}
    expected = EXPECTED[(game, kind)]
    for topic in expected.values():
        assert set(topic.split("|")) <= ids, f"{game}: no topic {topic}"
    for key, topics in walk(game, kind).items():
        matches = [p for p in expected if re.fullmatch(p.replace(".", r"\.").replace("N", N), key)]
        assert matches, f"{game} {kind}: no topic mapped for the question {key}"
        allowed = set(expected[matches[0]].split("|"))
        assert topics <= allowed, f"{game} {kind}: {key} opens {topics}, expected {allowed}"


def test_the_rules_text_is_the_topic_itself() -> None:
    text = rules_text("shogun", "winter")
    assert text.startswith("\nWinter: rice and revolts\n")
    assert "(More: companion rules shogun; companion rules shogun winter)" in text
    assert rules_text("shogun", "nothing").startswith("No rules topic for this part")
