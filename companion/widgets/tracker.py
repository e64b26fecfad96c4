"""A round and start-player tracker, with each game's own rule for who starts."""

from __future__ import annotations

from typing import Any

import ipywidgets as w

from companion.play.setup import new_seed, shuffled


class Tracker:
    """Round counter, start player and the game's helper.

    Args:
        game: The game id.
        names: Players in seat order.
    """

    def __init__(self, game: str, names: list[str]) -> None:
        self.game = game
        self.names = names
        self.round = w.BoundedIntText(value=1, min=1, max=99, description="Round")
        self.start = w.Dropdown(options=names, description="Starts")
        self.status = w.HTML()
        self.counts = [w.BoundedIntText(value=0, min=0, max=99, description=n) for n in names]
        self.next_button = w.Button(description=self.button_label())
        self.next_button.on_click(self.next)
        hint = {
            "shimoda": "Tourists on each street at the end of the round:",
            "shibuya": "Pawns at goal per side:",
            "kamakura": "Site coins per player:",
            "shogun": "Bids (0-4 chests; a province card counts 0):",
            "tokaido": "Who reached the inn first? (choose them as 'Starts')",
        }[game]
        self.variant = w.Dropdown(options=["standard", "no_construction"], description="Rules")
        shown = self.counts if game != "tokaido" else []
        if game == "shibuya":
            shown = [self.variant, *shown]
        self.widget = w.VBox(
            [
                w.HTML("<b>Rounds</b>"),
                w.HBox([self.round, self.start]),
                w.HTML(hint),
                *shown,
                self.next_button,
                self.status,
            ]
        )

    def button_label(self) -> str:
        """What the button does in this game."""
        return {
            "shimoda": "End the round",
            "shibuya": "Check for a winner",
            "kamakura": "Check the end",
            "shogun": "Turn order",
            "tokaido": "Arrived at the inn",
        }[self.game]

    def next(self, _: Any = None) -> str:
        """Apply the game's rule and say what happens next."""
        values = [c.value for c in self.counts]
        message = str(getattr(self, f"_{self.game}")(values))
        self.status.value = message
        return message

    def _shimoda(self, tourists: list[int]) -> str:
        from companion.play.shimoda import next_start

        holder = self.names.index(self.start.value)
        following = next_start(tourists, holder)
        self.start.value = self.names[following]
        self.round.value = min(self.round.value + 1, 7)
        reason = "a tie: the marker passes" if tourists[0] == tourists[1] else "fewer tourists"
        return f"{self.names[following]} starts round {self.round.value} ({reason})."

    def _shibuya(self, goals: list[int]) -> str:
        from companion.play.shibuya import TARGETS, winner_of

        side = winner_of(goals[:2], TARGETS[self.variant.value])
        return f"{self.names[side]} wins!" if side is not None else "No winner yet."

    def _kamakura(self, coins: list[int]) -> str:
        done = [n for n, c in zip(self.names, coins, strict=True) if c >= 8]
        if not done:
            return "Nobody has 8 site coins yet."
        others = [n for n in self.names if n != done[0]]
        return f"{done[0]} has 8 site coins: one last turn each for {', '.join(others)}."

    def _shogun(self, bids: list[int]) -> str:
        seed = new_seed()
        order: list[str] = []
        for amount in sorted(set(bids), reverse=True):
            tied = [n for n, b in zip(self.names, bids, strict=True) if b == amount]
            order += shuffled(tied, seed, "bids") if len(tied) > 1 else tied
        self.start.value = order[0]
        return f"Turn order: {', '.join(order)} (ties drawn with seed {seed})."

    def _tokaido(self, _: list[int]) -> str:
        meals = len(self.names) + 1
        return f"{self.start.value} draws {meals} meal cards and may buy one."
