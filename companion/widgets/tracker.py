"""A round and start-player tracker that follows its game to the end.

The tracker shows the round in the game's words, who starts it, one box per
player (a count, or a choice such as a bid) and a button that applies the
game's rule (its kit's ``rounds.step``: Shimoda's fewer-tourists rule, Shibuya's
win check, Kamakura's 8-coin end, Shogun's action order, Tokaido's inns).

The game's start player (:attr:`Tracker.first_start`) is the one the set-up's
draw chose; the table changes it on purpose only, by choosing who starts the
first round where the choice means that (``rounds.picks_start``). Following a
later round's rule, or Tokaido's "who reached the inn first", never does.
Nothing here knows a game.
"""

from __future__ import annotations

import html
from typing import Any

import ipywidgets as w

from companion.kits import KITS
from companion.kits.rounds import CHOICE, COUNT, RoundState
from companion.play.setup import new_seed


class Tracker:
    """Round counter, start player and the game's helper.

    Args:
        game: The game id.
        names: The people in seat order (a team game: side 0's first, side
            1's first, side 0's second, side 1's second).
        sides: The sides' names (the people themselves without teams).
    """

    def __init__(self, game: str, names: list[str], sides: list[str] | None = None) -> None:
        self.game = game
        self.rounds = KITS[game].rounds
        self.names = list(names)
        self.sides = list(sides or names)
        self.round_number = 1
        self.pressed: int | None = None  # the round of the last press (this game)
        self.first_start: int | None = None
        self.start_seat = 0
        self.quiet = False  # the choice is set by the tracker itself, not by the table
        self.ending = ""  # "last": the last round is under way; "over": the rounds are over
        self.round = w.HTML()
        self.round.add_class("round")
        self.start = w.Dropdown(
            options=self._options(),
            value=0,
            layout=w.Layout(width="12em"),
            tooltip=(
                "Starts this round"
                if self.rounds.picks_start
                else self.rounds.picker.rstrip(":").capitalize()
            ),
        )
        self.start.add_class("starts")
        self.start.observe(self._start_changed, names="value")
        self.status = w.HTML()
        self.status.add_class("tracker-status")
        self.message = ""
        self.counts: list[w.BoundedIntText] = []
        self.bids: list[w.Dropdown] = []
        for _ in names:
            if self.rounds.entry == CHOICE:
                bid = w.Dropdown(
                    options=list(self.rounds.choices),
                    value=self.rounds.choices[0][1],
                    layout=w.Layout(width="12em"),
                )
                bid.add_class("bid")
                self.bids.append(bid)
            elif self.rounds.entry == COUNT:
                box = w.BoundedIntText(
                    value=0,
                    min=0,
                    max=self.rounds.count_max,
                    continuous_update=True,
                    layout=w.Layout(width="6em"),
                )
                box.add_class("num")
                self.counts.append(box)
        self.labels = [w.HTML() for _ in names]
        options = list(self.rounds.options) or [("", "")]
        self.variant = w.Dropdown(
            options=options,
            value=options[0][1],
            layout=w.Layout(width="14em"),
            tooltip=self.rounds.option_name or "Option",
        )
        self.next_button = w.Button(description=self.rounds.button)
        self.next_button.add_class("tracker-next")
        self.next_button.on_click(self.next)
        self.reset_button = w.Button(description="Start over")
        self.reset_button.on_click(lambda _: self.reset())
        inputs: list[w.Widget] = [*self.counts, *self.bids]
        parts: list[w.Widget] = [
            w.HTML("<h2>Rounds</h2>"),
            w.HBox([self.round, w.HTML(html.escape(self.rounds.picker)), self.start]),
            w.HTML(html.escape(self.rounds.hint)),
        ]
        if self.rounds.options:
            parts.append(self.variant)
        if inputs:
            counts = w.HBox(
                [w.VBox([label, box]) for label, box in zip(self.labels, inputs, strict=True)]
            )
            counts.add_class("counts")
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
        if self.quiet or not self.rounds.picks_start:
            return
        if self.first_start is None or self.round_number == 1:
            self.first_start = self.start_seat

    def _set_choice(self, seat: int) -> None:
        """Show ``seat`` in the choice without taking it as the table's own choice."""
        quiet, self.quiet = self.quiet, True
        try:
            self.start.value = seat
        finally:
            self.quiet = quiet

    def set_names(self, names: list[str], sides: list[str] | None = None) -> None:
        """Show ``names`` everywhere (the start player stays the same seat)."""
        seat = self.start_seat
        self.names = list(names)
        self.sides = list(sides or names)
        quiet, self.quiet = self.quiet, True
        try:
            self.start.options = self._options()
            self.start.value = seat if seat < len(names) else 0
        finally:
            self.quiet = quiet
        for label, name in zip(self.labels, self.names, strict=False):
            label.value = html.escape(name)
        for k, control in enumerate([*self.counts, *self.bids]):
            who = self.names[k] if k < len(self.names) else f"Player {k + 1}"
            control.tooltip = f"{who}: {self.rounds.count_name}"
        self._show_round()

    def _show_round(self) -> None:
        self.round.value = f"<b>{html.escape(self.round_text())}</b>"

    def round_text(self) -> str:
        """``Round 3 of 7``, ``Year 1, summer``, ``Stage 2: to the second inn``."""
        return self.rounds.text(self.round_number)

    def under_way_text(self) -> str:
        """The round being played now, as the clock names its time.

        The round shown, except in a game whose button opens a round
        (:attr:`companion.kits.rounds.Rounds.opens_round`): after a press, the
        round it was pressed in is played (Shogun: the season whose action
        order was just given), while the tracker already shows the next one.
        """
        if self.rounds.opens_round and self.pressed is not None:
            return self.rounds.text(self.pressed)
        return self.round_text()

    def set_start(self, name: str) -> None:
        """A start player drawn in the set-up: the game's, and (where the choice
        means that) the first round's."""
        if name not in self.names:
            return
        seat = self.names.index(name)
        self.first_start = seat
        if self.rounds.picks_start and self.round_number == 1:
            self._set_choice(seat)

    def next(self, _: Any = None) -> str:
        """Apply the game's rule and say what happens next."""
        if self.first_start is None and self.rounds.picks_start:
            self.first_start = self.start_seat
        values = [c.value for c in self.counts] or [b.value for b in self.bids]
        step = self.rounds.apply(
            RoundState(
                names=self.names,
                sides=self.sides,
                round=self.round_number,
                start=self.start_seat,
                values=values,
                option=str(self.variant.value),
                seed=new_seed(),
            )
        )
        self.pressed = self.round_number
        self.round_number = step.round
        if step.start != self.start_seat and 0 <= step.start < len(self.names):
            self._set_choice(step.start)  # the rule's, not the table's choice
        if step.over:
            self.ending = "over"
        elif step.last and self.ending != "over":
            self.ending = "last"
        if step.clear:
            for bid in self.bids:
                bid.value = self.rounds.choices[0][1]
        self._show_round()
        self.show(step.message)
        return step.message

    def show(self, message: str) -> None:
        """Say ``message`` under the button."""
        self.message = message
        self.status.value = html.escape(message)

    def reset(self) -> None:
        """Back to the first round."""
        self.round_number = 1
        self.pressed = None
        self.first_start = None
        self.ending = ""
        self.show("")
        for box in self.counts:
            box.value = 0
        for bid in self.bids:
            bid.value = self.rounds.choices[0][1]
        self._show_round()

    def state(self) -> dict[str, Any]:
        """Everything the tracker shows, for the draft."""
        return {
            "round": self.round_number,
            "pressed": self.pressed,
            "start": self.start_seat,
            "first": self.first_start,
            "counts": [c.value for c in self.counts],
            "bids": [b.value for b in self.bids],
            "variant": self.variant.value,
            "message": self.message,
            "ending": self.ending,
        }

    def restore(self, state: dict[str, Any]) -> None:
        """Put back :meth:`state` (what no longer fits is left out)."""
        last = self.rounds.last or 999
        number = state.get("round")
        if isinstance(number, int) and 1 <= number <= last:
            self.round_number = number
        pressed = state.get("pressed")
        self.pressed = pressed if type(pressed) is int and 1 <= pressed <= last else None
        start = state.get("start")
        if isinstance(start, int) and 0 <= start < len(self.names):
            self._set_choice(start)
        first = state.get("first")
        self.first_start = (
            first if isinstance(first, int) and 0 <= first < len(self.names) else None
        )
        for box, value in zip(self.counts, state.get("counts", []), strict=False):
            if isinstance(value, int) and box.min <= value <= box.max:
                box.value = value
        for bid, value in zip(self.bids, state.get("bids", []), strict=False):
            if value in [option for _, option in self.rounds.choices]:
                bid.value = value
        if state.get("variant") in [option for _, option in self.rounds.options]:
            self.variant.value = state["variant"]
        ending = state.get("ending")
        self.ending = ending if ending in ("", "last", "over") else ""
        if isinstance(state.get("message"), str):
            self.show(state["message"][:500])
        self._show_round()
