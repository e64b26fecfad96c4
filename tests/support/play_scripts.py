"""Scripted complete games, answer by answer, for the tests and ``benchmarks/table_time.py``.

A :class:`Script` lists the keys of every answer of a game played along,
split into the game itself and its end count (which ends with the answer
that saves). ``fixed`` is the same game with one value of the end count typed
wrong and corrected on the score pad before saving.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tests.support.play_helpers import DOWN, sel, txt

NAMES = ("Aki", "Ben", "Cho", "Dai", "Eve")


@dataclass
class Script:
    """One game's answers.

    Attributes:
        game: The game id.
        players: How many play.
        args: The command (``play GAME`` or ``score GAME``).
        before: The answers before the end count.
        count: The end count's answers, the last one saving.
        wrong: Which answer of ``count`` is typed wrong in ``fixed``, and its keys.
        fix: The answers on the score pad that correct it (before the saving one).
        winners: Who wins.
    """

    game: str
    players: int
    args: list[str]
    before: list[str]
    count: list[str]
    wrong: tuple[int, str]
    fix: list[str]
    winners: list[str] = field(default_factory=list)
    turns: int | None = None

    def keys(self) -> str:
        """Every answer's keys."""
        return "".join(self.before + self.count)

    def fixed(self) -> str:
        """The game with one slip, corrected on the score pad."""
        count = list(self.count)
        index, keys = self.wrong
        count[index] = keys
        return "".join(self.before + count[:-1] + self.fix + count[-1:])


def names(count: int) -> list[str]:
    """The first ``count`` names."""
    return list(NAMES[:count])


def tokaido(count: int) -> Script:
    """Everyone keeps their first tile; the line-up is drawn; no notes on the way."""
    people = names(count)
    before = [txt(str(count)), *map(txt, people), txt(""), sel(0), *[sel(0)] * count, sel(0)]
    for stage in range(4):
        before += [sel(stage % count), txt("")]  # first at the inn; no notes
    rows = [
        [60 - 2 * k for k in range(count)],  # score track
        [3, 2, 1, 0, 4][:count],  # temple coins
        [7, 6, 5, 4, 3][:count],  # meal prices
        [6, 3, 2, 1, 0][:count],  # souvenirs
        [3, 2, 1, 0, 0][:count],  # hot springs
        [1, 4, 2, 0, 1][:count],  # encounters
        [1, 1, 0, 0, 1][:count],  # panorama achievements
    ]
    count_keys = [txt(" ".join(map(str, row))) for row in rows] + [txt("")]
    wrong_row = " ".join(map(str, [61, *rows[0][1:]]))
    return Script(
        "tokaido",
        count,
        ["play", "tokaido"],
        before,
        count_keys,
        (0, txt(wrong_row)),
        [txt("A2"), txt("60")],
        ["Aki"],
    )


def shimoda() -> Script:
    """Ben takes the Veterinarian, Aki the Antique Dealer; seven rounds; the count."""
    before = [txt("Aki"), txt("Ben"), txt(""), sel(0), sel(0), sel(0)]
    holder = 0
    for number in range(1, 8):
        before += [sel(0), sel(0)]  # both turns done
        if number < 7:
            before.append(txt("4 4"))  # a tie: the marker passes
            holder = 1 - holder
    cards = ["by33", "krp55", "rany11", "ytwo33", "pall77", "bchair33c1", "kvm47"]
    aki = [txt(c) for c in cards] + [txt("yy b r kyp - bp y")]
    # Ben's street holds the same cards, space k facing Aki's space 8 - k: =7 ... =1.
    ben = [txt(f"={SEVEN - k}") for k in range(SEVEN)] + [txt("b - k rr - p -")]
    count_keys = aki + ben + [txt("")]
    return Script(
        "shimoda",
        2,
        ["play", "shimoda"],
        before,
        count_keys,
        (7, txt("yy b r kyp - bp -")),
        [txt("A16"), txt("y")],  # Aki's space 7 tourists: row 16 of the pad
        ["Aki"],
        14,
    )


SEVEN = 7


def shibuya(count: int) -> Script:
    """The first player's side reaches its goals three times while the other only moves."""
    people = names(count)
    before = [sel(0 if count == 2 else 1), *map(txt, people), sel(0), sel(0), txt(""), sel(0)]
    before.append(sel(1))  # all 16 construction tiles laid at once
    for turn in range(5):
        before.append(sel(1) if turn % 2 == 0 else sel(0))
    return Script(
        "shibuya",
        count,
        ["play", "shibuya"],
        before,
        [txt("")],
        (0, txt("")),
        [txt("A1"), txt("3")],  # a side's pawns at goal, corrected on the pad
        ["Red" if count == 4 else "Aki"],
    )


def kamakura(count: int) -> Script:
    """Aki visits a new circle every other turn and walks between; the others walk and rest.

    Nobody does the same action twice in a row. The coins of the circles Aki
    takes are described at set-up in one answer; each turn is one short
    answer, and Enter takes the action offered (the one before the last).
    """
    people = names(count)
    before = [txt(str(count)), *map(txt, people), txt("")]
    if count > 2:
        before.append(txt(""))  # not the advanced rules
    cards = "A I L M" if count > 2 else "A I L"
    before += [txt(""), DOWN + "\r", txt(cards), sel(0)]
    before.append(txt("Bp Og Kb Mp Fg C2p D3g E1p"))  # the board's coins, for the table
    circles = "BOKMFCDE"
    turns = 0
    for number in range(15):
        # Aki: v B, then Enter for the walk offered; the others: w, r, then Enter.
        before.append(txt(f"v {circles[number // 2]}") if number % 2 == 0 else txt(""))
        for _ in range(1, count):
            before.append(txt(["w", "r"][number]) if number < 2 else txt(""))
        turns += count
    count_keys = [txt("B O K 6"), txt("pink 4"), txt("3")]
    if count > 2:
        count_keys.append(txt("2"))
    count_keys += [txt("2 1 3"), *[txt(str(k + 1)) for k in range(count - 1)]]
    if count > 2:
        count_keys += [txt("A A"), *[txt("A N")] * (count - 1)]
    count_keys += [txt("B2"), *[txt("")] * (count - 1)]
    # The others never used the ticket they were dealt: the pad flags it ("you noted 1,
    # 0 shown"); with more than one marked, Enter to "which marked value is wrong"
    # asks each again; Enter keeps the pad's count.
    count_keys += [txt("")] * (count - 1 + (count > 2))
    count_keys.append(txt(""))
    return Script(
        "kamakura",
        count,
        ["play", "kamakura"],
        before,
        count_keys,
        (0, txt("B O K 5")),
        [txt("6" if count > 2 else "5"), txt("B O K 6")],
        ["Aki"],
        turns,
    )


def shogun_round(count: int, bids: list[int]) -> list[str]:
    """Bids as places in the list (4, 3, 2, 1, 0 chests, province card, no bid)."""
    return [sel(bids[k % len(bids)]) for k in range(count)] + [sel(0)]


def shogun(count: int) -> Script:
    """Two years; Aki holds the most in both winters.

    An ordinary second winter: every player's holding changed in two or three
    regions since the first (provinces gained and lost, some with buildings,
    buildings built), and one player, Cho, is short of rice and loses a yellow
    province to the revolt. No totals are equal, so no war chests are asked.
    """
    people = names(count)
    before = [txt(str(count)), *map(txt, people), txt(""), sel(count - 1)]
    grids = ["b3102 y21 g1", "r3110 p21", "g3100 y2 b1", "y2 r2 p1", "p3 g2 r1"]
    # Aki: a brown province, a castle built in green. Ben: a red province lost, a temple
    # built in purple, a yellow province gained. Cho: a green province gained with its
    # castle, the brown one lost. Dai: a yellow and a red province. Eve: a purple province
    # lost, a temple built in green.
    changes = ["bgc", "r-pty", "g+cb-", "yr", "p-gt"]
    count_keys: list[str] = []
    for year in (1, 2):
        before += shogun_round(count, [0, 1, 2, 5]) + shogun_round(count, [4, 4, 3])
        before += shogun_round(count, [5, 6, 2])
        if year == 1:
            before += [txt(grids[seat]) for seat in range(count)]
            before += [txt(""), txt("")]  # every province fed; the pad: go on
        else:
            count_keys = [txt(changes[seat]) for seat in range(count)]
            # Cho has 4 rice for 6 provinces: one revolt, which takes a yellow province.
            count_keys += [txt("c4"), txt("y"), txt("")]
    return Script(
        "shogun",
        count,
        ["play", "shogun"],
        before,
        count_keys,
        (0, txt("bgt")),
        [txt("A6"), txt("1 1 0 0")],
        ["Aki"],
    )


# The short Shibuya game the play, check and after-game tests share.


def shibuya_keys(names: tuple[str, str] = ("Aki", "Ben")) -> str:
    """The keys of a whole two-player Shibuya game, won by the first player 3 to 0."""
    keys = sel(0) + txt(names[0]) + txt(names[1]) + sel(0) + sel(0) + txt("") + sel(0)
    keys += sel(0) * 3 + sel(1)  # three tiles laid one by one, then the other 13 at once
    # Aki's pawn reaches the goal on each of her turns; Ben only moves.
    keys += (sel(1) + sel(0)) * 2 + sel(1)
    return keys + txt("")  # the score pad: save


def shibuya_answers() -> list[str]:
    """The keys of each answer of a whole Shibuya game, one entry per answer."""
    answers = [sel(0), txt("Aki"), txt("Ben"), sel(0), sel(0), txt(""), sel(0)]
    answers += [sel(0)] * 3 + [sel(1)] + [sel(1), sel(0), sel(1), sel(0), sel(1), txt("")]
    assert "".join(answers) == shibuya_keys()
    return answers


SCRIPTS = {
    "tokaido": [tokaido(2), tokaido(5)],
    "shimoda": [shimoda()],
    "kamakura": [kamakura(2), kamakura(4)],
    "shogun": [shogun(3), shogun(5)],
    "shibuya": [shibuya(2), shibuya(4)],
}


def scripts_for(game: str) -> list[Script]:
    """The scripted games of ``game``: :data:`SCRIPTS`, or the ``script`` module beside its kit.

    Raises:
        LookupError: Naming the game that has no scripted game.
    """
    import importlib

    from companion.kits import KITS

    if game in SCRIPTS:
        return SCRIPTS[game]
    beside = KITS.module_of(game).rpartition(".")[0] + ".script"
    try:
        return list(importlib.import_module(beside).SCRIPTS)
    except ModuleNotFoundError:
        raise LookupError(f"{game}: no scripted game (SCRIPTS here, or {beside})") from None
