"""What every scorer shares: game descriptions, results, ranking and the file root."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from scorers._validate import ROOT, Reader, index_path, key_path, quoted
from scorers.names import name_key


@dataclass(frozen=True)
class GameInfo:
    """Static facts about one game: the one place each of them is written.

    Attributes:
        id: The short id used on the command line (``tokaido``); also the
            name of the game's module in ``scorers``.
        title: The title printed on the box.
        short_title: The title in few words, for headings and lists
            (``Shimoda`` for "Shimoda: Perry Road").
        min_players: Fewest entries in ``players`` (sides, in a team game).
        max_players: Most entries in ``players``.
        player_counts: Every number of people the game is played by, smallest
            first, as the play flows and pages offer them.
        categories: Every breakdown category the scorer can report, in order.
        labels: Each category as players say it, with its article
            (``temple`` → ``the temple ranking``).
        rulebook: The rulebook file the rules come from.
        aliases: Other names that resolve to this game.
        team_counts: The player counts played as two teams, each team one
            side (one entry in ``players``): Shibuya's four players.
        bgg_id: The game's BoardGameGeek id, ``None`` while it is not confirmed.
        unit: What a total counts, singular and plural.
        interim: Whether a parsed score file is an interim scoring (one that
            does not end the game); ``None`` when every scoring ends it. Use
            :meth:`is_interim`, which also takes files that are not objects.
        bounds: The least and most value of each whole-number field the
            scorer checks, by name (``journey``: its key in a player's entry);
            the score pads read their bounds here, the scorer checks by them.
        row_titles: A category's name as a row of a results table, where its
            id's words are not it (``theater_majorities`` → ``Theatre
            majorities``, spelt as the rest of the game is).
        name_fields: Other places of a score file that name a person, as
            ``(list, field)``: each item of the top-level list ``list`` may name
            one in ``field`` (Kamakura's ``tours``' ``claimed_by``); a rename or
            merge of the person renames them there too.
    """

    id: str
    title: str
    short_title: str
    min_players: int
    max_players: int
    player_counts: tuple[int, ...]
    categories: tuple[str, ...]
    labels: Mapping[str, str] = field(hash=False)
    rulebook: str
    aliases: tuple[str, ...] = ()
    team_counts: tuple[int, ...] = ()
    bgg_id: int | None = None
    unit: tuple[str, str] = ("point", "points")
    interim: Callable[[Mapping[str, object]], bool] | None = field(default=None, hash=False)
    bounds: Mapping[str, tuple[int, int]] = field(default_factory=dict, hash=False)
    row_titles: Mapping[str, str] = field(default_factory=dict, hash=False)
    name_fields: tuple[tuple[str, str], ...] = ()

    def is_interim(self, data: object) -> bool:
        """Whether a parsed score file (valid or not) is an interim scoring of this game."""
        return self.interim is not None and isinstance(data, Mapping) and self.interim(data)


@dataclass(frozen=True)
class PlayerScore:
    """One player's (or side's) final score.

    Attributes:
        name: As given in the score file.
        breakdown: Category → points, in the scorer's category order.
        total: The sum of the breakdown.
        rank: 1 for the best; tied players share a rank (1, 1, 3).
    """

    name: str
    breakdown: tuple[tuple[str, int], ...]
    total: int
    rank: int


@dataclass(frozen=True)
class Result:
    """The scored game, in the shape of the score-file contract.

    Attributes:
        game: The game id.
        players: In input (seat) order.
        winners: One name, or several for a shared win.
        tiebreak: The rule that separated players tied on the top total, if any.
        notes: Warnings that do not make the file invalid.
        tie: The tie the tie-break broke, in words, with the values that broke it
            (``tie on 42 broken by most war chests: Ann 3, Ben 1``); not part of
            the JSON (a result stored before it scores the same).
    """

    game: str
    players: tuple[PlayerScore, ...]
    winners: tuple[str, ...]
    tiebreak: str | None = None
    notes: tuple[str, ...] = ()
    tie: str | None = None

    def to_json(self) -> dict[str, Any]:
        """Return the result as the JSON document of the contract."""
        doc: dict[str, Any] = {
            "game": self.game,
            "players": [
                {
                    "name": p.name,
                    "total": p.total,
                    "rank": p.rank,
                    "breakdown": dict(p.breakdown),
                }
                for p in self.players
            ],
            "winners": list(self.winners),
            "tiebreak": self.tiebreak,
        }
        if self.notes:
            doc["notes"] = list(self.notes)
        return doc


@dataclass(frozen=True)
class Tiebreak:
    """A tie-break rule: higher ``values`` (one per player) rank first."""

    label: str
    values: tuple[int, ...]


@dataclass(frozen=True)
class Scorer:
    """A registered game: its facts plus its two pure functions.

    Attributes:
        info: The game's :class:`GameInfo`.
        parse: Validates a parsed JSON document; raises ``ScoreFileError``.
        score: Scores what ``parse`` returned.
    """

    info: GameInfo
    parse: Callable[[object], Any]
    score: Callable[[Any], Result]

    def score_json(self, data: object) -> Result:
        """Validate and score a parsed score file in one step."""
        return self.score(self.parse(data))


def make_result(
    game: str,
    names: Sequence[str],
    breakdowns: Sequence[Mapping[str, int]],
    *,
    tiebreaks: Sequence[Tiebreak] = (),
    notes: Sequence[str] = (),
) -> Result:
    """Total the breakdowns, rank the players and name the winners.

    Ranking is competition ranking on (total, tie-break values...): players
    equal on all of them share a rank. ``tiebreak`` in the result names the
    last rule that narrowed the group tied on the top total.

    Args:
        game: The game id.
        names: Player names in seat order.
        breakdowns: One category → points mapping per player.
        tiebreaks: Rules applied in order to separate equal totals.
        notes: Warnings to carry in the result.
    """
    totals = [sum(b.values()) for b in breakdowns]
    keys = [(totals[i], *(t.values[i] for t in tiebreaks)) for i in range(len(names))]
    ranks = [1 + sum(1 for other in keys if other > mine) for mine in keys]
    top = max(totals)
    group = [i for i, total in enumerate(totals) if total == top]
    used: str | None = None
    tie: str | None = None
    for rule in tiebreaks:
        if len(group) == 1:
            break
        best = max(rule.values[i] for i in group)
        narrowed = [i for i in group if rule.values[i] == best]
        if len(narrowed) < len(group):
            used = rule.label
            values = ", ".join(f"{names[i]} {rule.values[i]}" for i in group)
            tie = f"tie on {top} broken by {rule.label}: {values}"
            group = narrowed
    players = tuple(
        PlayerScore(names[i], tuple(breakdowns[i].items()), totals[i], ranks[i])
        for i in range(len(names))
    )
    return Result(
        game=game,
        players=players,
        winners=tuple(names[i] for i in group),
        tiebreak=used,
        notes=tuple(notes),
        tie=tie,
    )


@dataclass(frozen=True)
class Root:
    """The top of a score file after the checks every game shares.

    Attributes:
        data: The top-level object (empty if it was not an object).
        players: ``(path, object)`` for each player entry that is an object.
        names: Each player's name, or ``None`` where it was invalid.
    """

    data: dict[str, object]
    players: list[tuple[str, dict[str, object]]] = field(default_factory=list)
    names: list[str | None] = field(default_factory=list)


def read_root(
    reader: Reader,
    value: object,
    info: GameInfo,
    *,
    keys: Collection[str] = (),
    required: Collection[str] = (),
    player_required: Collection[str] = (),
    player_optional: Collection[str] = (),
) -> Root:
    """Check the parts every score file has: the object, ``game`` and ``players``.

    Args:
        reader: Collects problems.
        value: The parsed JSON document.
        info: The game being scored.
        keys: Optional top-level keys besides ``game``.
        required: Required top-level keys besides ``players``.
        player_required: Keys every player entry must have (besides ``name``).
        player_optional: Keys a player entry may have.
    """
    data = reader.obj(value, ROOT, required=("players", *required), optional=("game", *keys))
    if data is None:
        return Root({})
    root = Root(data)
    if "game" in data:
        named = data["game"]
        if not isinstance(named, str):
            reader.error("game", f"must be the text {info.id!r}")
        elif _fold(named) not in _names_of(info):
            reader.error("game", f"this file is for {quoted(named)}, not {info.id!r}")
    if "players" not in data:
        return root
    entries = reader.array(
        data["players"],
        "players",
        min_len=info.min_players,
        max_len=info.max_players,
        what="players",
    )
    if entries is None:
        return root
    seen: dict[str, tuple[int, str]] = {}
    for i, entry in enumerate(entries):
        path = index_path("players", i)
        player = reader.obj(
            entry, path, required=("name", *player_required), optional=player_optional
        )
        if player is None:
            continue
        name_path = key_path(path, "name")
        name = reader.name(player["name"], name_path) if "name" in player else None
        if name is not None:
            if name_key(name) in seen:
                reader.error(name_path, same_player(name, *seen[name_key(name)]))
            else:
                seen[name_key(name)] = (i, name)
        root.players.append((path, player))
        root.names.append(name)
    return root


def same_player(name: str, index: int, other: str, where: str = "players") -> str:
    """The problem of a name already given to ``where[index]`` (as ``other``)."""
    if name == other:
        return f"{name!r} is already the name of {where}[{index}]"
    return (
        f"{name!r} is the same player as {where}[{index}] ({other!r}): "
        "names that differ only in capitals are one player"
    )


def _fold(name: str) -> str:
    return "".join(ch for ch in name.casefold() if ch.isalnum())


def _names_of(info: GameInfo) -> set[str]:
    return {_fold(n) for n in (info.id, info.title, *info.aliases)}


def matches(info: GameInfo, name: str) -> bool:
    """Whether ``name`` names this game (id, title or alias; case and punctuation ignored)."""
    return _fold(name) in _names_of(info)
