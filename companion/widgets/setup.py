"""The set-up checklist with tick boxes, and the random draws with their seed."""

from __future__ import annotations

from typing import Any

import ipywidgets as w

from companion.play.setup import checklist, describe_draws, draws, new_seed


class SetupPanel:
    """Tick boxes for the set-up steps, and a Draw button that shows its seed.

    Args:
        game: The game id.
        players: The player count (its numbers are worked into the steps).
    """

    def __init__(self, game: str, players: int) -> None:
        self.game = game
        self.players = players
        self.boxes = [
            w.Checkbox(value=False, description=step, indent=False, layout=w.Layout(width="auto"))
            for step in checklist(game, players)
        ]
        self.seed = w.Text(description="Seed", placeholder="empty: a new draw")
        self.draw_button = w.Button(description="Draw")
        self.drawn = w.HTML()
        self.draw_button.on_click(self.draw)
        parts: list[w.Widget] = [w.HTML("<b>Set-up</b>"), *self.boxes]
        if draws(game, players, 1):
            parts += [w.HBox([self.seed, self.draw_button]), self.drawn]
        self.widget = w.VBox(parts)

    def draw(self, _: Any = None) -> dict[str, Any]:
        """Make the draws (with the typed seed, or a new one) and show them."""
        text = self.seed.value.strip()
        seed = int(text) if text.isdigit() else new_seed()
        self.seed.value = str(seed)
        result = draws(self.game, self.players, seed)
        lines = describe_draws(result)
        self.drawn.value = f"Seed {seed}:<br>" + "<br>".join(lines)
        return result
