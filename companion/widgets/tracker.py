"""A round and start-player tracker that follows its game to the end.

Each game's button applies that game's rule: Shimoda's fewer-tourists rule for
seven rounds, Shibuya's win check (the scorer's own, over all four pawn
counts with teams), Kamakura's 8-coin end, Shogun's action order (the
terminal's own :func:`companion.play.shogun.order_bids`: province-card bids
first, then war chests from 4 down to 0, then no bid; equal bids drawn with a
seed that is shown), Tokaido's inns up to Edo. The round advances in every game, and a
start player drawn in the set-up is carried over.
"""

from __future__ import annotations

import html
from typing import Any

import ipywidgets as w

from companion.play.setup import new_seed, shuffled
from scorers import join_names

LAST_ROUND = {"shimoda": 7, "tokaido": 4, "shogun": 6}
ROUND_WORD = {
    "shimoda": "Round",
    "shibuya": "Turn",
    "tokaido": "Stage",
    "kamakura": "Round",
    "shogun": "Season",
}
SEASONS = ("spring", "summer", "autumn")
TOKAIDO_STOPS = ("the first inn", "the second inn", "the third inn", "Edo")
HINTS = {
    "shimoda": "Tourists on each street at the end of the round:",
    "shibuya": "Pawns at goal, per player:",
    "kamakura": "Site coins per player:",
    "shogun": "Each player's bid (a province card acts first, then war chests from 4 down):",
    "tokaido": "Who reached the inn first? Choose them as 'Starts', then press the button.",
}
COUNT_NAMES = {
    "shimoda": "tourists on the street",
    "shibuya": "pawns at goal",
    "kamakura": "site coins",
    "shogun": "bid",
}
"""What each player's box of the tracker holds (its accessible name after the name)."""
BUTTONS = {
    "shimoda": "End the round",
    "shibuya": "Check for a winner",
    "kamakura": "Check the end",
    "shogun": "Action order",
    "tokaido": "Arrived at the inn",
}


NO_CHOICE = ""
"""A bid not chosen yet (each season's bids start so)."""


def bid_options() -> list[tuple[str, str]]:
    """The bids of :data:`companion.play.shogun.BIDS`, after a "choose" of no bid yet."""
    from companion.kits.shogun.codes import BIDS

    return [("– choose –", NO_CHOICE), *((b, b) for b in BIDS)]


class Tracker:
    """Round counter, start player and the game's helper.

    Args:
        game: The game id.
        names: The people in seat order (Shibuya with teams: side 0's first,
            side 1's first, side 0's second, side 1's second).
        sides: Shibuya's side names (the people themselves with 2 players).
    """

    def __init__(self, game: str, names: list[str], sides: list[str] | None = None) -> None:
        self.game = game
        self.names = list(names)
        self.sides = list(sides or names)
        self.round_number = 1
        self.first_start: int | None = None
        self.start_seat = 0
        self.round = w.HTML()
        self.round.add_class("round")
        self.start = w.Dropdown(
            options=self._options(),
            value=0,
            layout=w.Layout(width="12em"),
            tooltip="Starts this round",
        )
        self.start.add_class("starts")
        self.start.observe(self._start_changed, names="value")
        self.status = w.HTML()
        self.status.add_class("tracker-status")
        self.message = ""
        self.counts: list[w.BoundedIntText] = []
        self.bids: list[w.Dropdown] = []
        for _ in names:
            if game == "shogun":
                bid = w.Dropdown(
                    options=bid_options(), value=NO_CHOICE, layout=w.Layout(width="12em")
                )
                bid.add_class("bid")
                self.bids.append(bid)
                continue
            box = w.BoundedIntText(
                value=0, min=0, max=99, continuous_update=True, layout=w.Layout(width="6em")
            )
            box.add_class("num")
            self.counts.append(box)
        self.labels = [w.HTML() for _ in names]
        self.variant = w.Dropdown(
            options=[
                ("standard (6 at goal)", "standard"),
                ("optional rule (4)", "no_construction"),
            ],
            value="standard",
            layout=w.Layout(width="14em"),
            tooltip="Rules",
        )
        self.next_button = w.Button(description=BUTTONS[game])
        self.next_button.add_class("tracker-next")
        self.next_button.on_click(self.next)
        self.reset_button = w.Button(description="Start over")
        self.reset_button.on_click(lambda _: self.reset())
        inputs: list[w.Widget] = [*self.counts, *self.bids]
        counts = w.HBox(
            [w.VBox([label, box]) for label, box in zip(self.labels, inputs, strict=True)]
        )
        counts.add_class("counts")
        parts: list[w.Widget] = [
            w.HTML("<h2>Rounds</h2>"),
            w.HBox([self.round, w.HTML("starts:"), self.start]),
            w.HTML(html.escape(HINTS[game])),
        ]
        if game == "shibuya":
            parts.append(self.variant)
        if game != "tokaido":
            parts.append(counts)
        parts += [w.HBox([self.next_button, self.reset_button]), self.status]
        self.widget = w.VBox(parts)
        self.widget.add_class("panel")
        self.widget.add_class("tracker")
        self.set_names(names, sides)

    @property
    def controls(self) -> list[w.Widget]:
        """Everything a player sets in the tracker (for the draft)."""
        return [*self.counts, *self.bids, self.start, self.variant]

    def _options(self) -> list[tuple[str, int]]:
        return [(name, k) for k, name in enumerate(self.names)]

    def _start_changed(self, change: dict[str, Any]) -> None:
        self.start_seat = int(change["new"])
        if self.first_start is None or self.round_number == 1:
            self.first_start = self.start_seat

    def set_names(self, names: list[str], sides: list[str] | None = None) -> None:
        """Show ``names`` everywhere (the start player stays the same seat)."""
        seat = self.start_seat
        self.names = list(names)
        self.sides = list(sides or names)
        self.start.options = self._options()
        self.start.value = seat if seat < len(names) else 0
        for label, name in zip(self.labels, self.names, strict=False):
            label.value = html.escape(name)
        what = COUNT_NAMES.get(self.game, "")
        for k, control in enumerate([*self.counts, *self.bids]):
            who = self.names[k] if k < len(self.names) else f"Player {k + 1}"
            control.tooltip = f"{who}: {what}"
        self._show_round()

    def _show_round(self) -> None:
        self.round.value = f"<b>{html.escape(self.round_text())}</b>"

    def round_text(self) -> str:
        """``Round 3 of 7``, ``Year 1, summer``, ``Stage 2: to the second inn``."""
        word = ROUND_WORD[self.game]
        if self.game == "shogun":
            year, season = divmod(self.round_number - 1, 3)
            text = f"Year {year + 1}, {SEASONS[season]}"
        elif self.game == "tokaido":
            text = f"Stage {self.round_number}: to {TOKAIDO_STOPS[self.round_number - 1]}"
        elif self.game in LAST_ROUND:
            text = f"{word} {self.round_number} of {LAST_ROUND[self.game]}"
        else:
            text = f"{word} {self.round_number}"
        return text

    def set_start(self, name: str) -> None:
        """A start player drawn in the set-up."""
        if name in self.names:
            self.start.value = self.names.index(name)
            self.first_start = self.start_seat

    def _advance(self) -> None:
        last = LAST_ROUND.get(self.game)
        if last is None or self.round_number < last:
            self.round_number += 1
        self._show_round()

    def next(self, _: Any = None) -> str:
        """Apply the game's rule and say what happens next."""
        if self.first_start is None:
            self.first_start = self.start_seat
        values = [c.value for c in self.counts]
        message = str(getattr(self, f"_{self.game}")(values))
        self.show(message)
        return message

    def show(self, message: str) -> None:
        """Say ``message`` under the button."""
        self.message = message
        self.status.value = html.escape(message)

    def reset(self) -> None:
        """Back to the first round."""
        self.round_number = 1
        self.first_start = None
        self.show("")
        for box in self.counts:
            box.value = 0
        for bid in self.bids:
            bid.value = NO_CHOICE
        self._show_round()

    def _shimoda(self, tourists: list[int]) -> str:
        from companion.play.shimoda import next_start

        holder = self.start_seat
        if self.round_number >= LAST_ROUND["shimoda"]:
            return "Round 7 was the last: place the victory markers and score the game below."
        following = next_start(tourists[:2], holder)
        reason = "a tie: the marker passes" if tourists[0] == tourists[1] else "fewer tourists"
        self._advance()
        self.start.value = following
        return f"{self.names[following]} starts round {self.round_number} ({reason})."

    def _shibuya(self, goals: list[int]) -> str:
        from scorers import SCORERS, ScoreFileError

        teams = len(self.names) == 4
        sides = [sum(goals[k] for k in range(side, len(goals), 2)) for side in (0, 1)]
        players: list[dict[str, Any]] = []
        for side in (0, 1):
            entry: dict[str, Any] = {"name": self.sides[side], "goals": sides[side]}
            if teams:
                entry["members"] = [self.names[side], self.names[side + 2]]
            players.append(entry)
        document = {"game": "shibuya", "variant": self.variant.value, "players": players}
        score = f"{self.sides[0]} {sides[0]} – {sides[1]} {self.sides[1]}"
        try:
            result = SCORERS["shibuya"].score_json(document).to_json()
        except ScoreFileError as error:
            messages = [p.message for p in error.problems]
            if any("not over" in m for m in messages):
                self._advance()
                following = (self.start_seat + 1) % len(self.names)
                self.start.value = following
                return f"No winner yet ({score}); {self.names[following]} plays next."
            return f"{score}: " + "; ".join(messages)
        return f"{', '.join(result['winners'])} wins! ({score})"

    def _kamakura(self, coins: list[int]) -> str:
        done = [k for k, c in enumerate(coins) if c >= 8]
        if not done:
            self._advance()
            return f"Nobody has 8 site coins yet: round {self.round_number}."
        first = done[0]
        order = [(first + k) % len(self.names) for k in range(1, len(self.names))]
        others = ", ".join(self.names[k] for k in order)
        return f"{self.names[first]} has 8 site coins: one last turn each for {others}."

    def _shogun(self, _: list[int]) -> str:
        from companion.kits.shogun.codes import BID_RANKS, order_bids, short

        bids = [bid.value for bid in self.bids]
        missing = [name for name, bid in zip(self.names, bids, strict=True) if bid == NO_CHOICE]
        if missing:
            return f"Choose the bid of {join_names(missing)} first."
        seed = new_seed()
        ties: list[str] = []

        def draw(tied: list[str], rank: int) -> list[str]:
            drawn = shuffled(tied, seed, f"bids.{rank}")
            ties.append(f"equal bids ({short(BID_RANKS[rank])}) drawn: {', '.join(drawn)}")
            return drawn

        order = order_bids(self.names, bids, draw)
        season = self.round_text()
        shown = [f"{name} ({short(bids[self.names.index(name)])})" for name in order]
        self.start.value = self.names.index(order[0])
        text = f"{season}: action order {', '.join(shown)}."
        if ties:
            text += f" Seed {seed}: " + "; ".join(ties) + "."
        text += " Special cards are taken from the highest bid down, equal bids in the drawn order."
        if self.round_number % 3 == 0:
            year = self.round_number // 3
            text += f" After the actions: winter of year {year}" + (
                ", the final scoring: score it below." if year == 2 else " (an interim scoring)."
            )
        self._advance()
        for bid in self.bids:
            bid.value = NO_CHOICE  # each season's bids are new
        return text

    def _tokaido(self, _: list[int]) -> str:
        first = self.names[self.start_seat]
        stop = TOKAIDO_STOPS[self.round_number - 1]
        if self.round_number >= LAST_ROUND["tokaido"]:
            return f"{first} reached {stop} first: the journey is over, score it below."
        meals = len(self.names) + 1
        self._advance()
        return f"{first} reached {stop} first: draws {meals} meal cards and may buy one."

    def state(self) -> dict[str, Any]:
        """Everything the tracker shows, for the draft."""
        return {
            "round": self.round_number,
            "start": self.start_seat,
            "first": self.first_start,
            "counts": [c.value for c in self.counts],
            "bids": [b.value for b in self.bids],
            "variant": self.variant.value,
            "message": self.message,
        }

    def restore(self, state: dict[str, Any]) -> None:
        """Put back :meth:`state` (what no longer fits is left out)."""
        last = LAST_ROUND.get(self.game, 999)
        number = state.get("round")
        if isinstance(number, int) and 1 <= number <= last:
            self.round_number = number
        start = state.get("start")
        if isinstance(start, int) and 0 <= start < len(self.names):
            self.start.value = start
        first = state.get("first")
        self.first_start = (
            first if isinstance(first, int) and 0 <= first < len(self.names) else None
        )
        for box, value in zip(self.counts, state.get("counts", []), strict=False):
            if isinstance(value, int) and box.min <= value <= box.max:
                box.value = value
        for bid, value in zip(self.bids, state.get("bids", []), strict=False):
            if value in [option for _, option in bid_options()]:
                bid.value = value
        if state.get("variant") in ("standard", "no_construction"):
            self.variant.value = state["variant"]
        if isinstance(state.get("message"), str):
            self.show(state["message"][:500])
        self._show_round()
