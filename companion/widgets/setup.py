"""The set-up checklist with tick boxes, and the random draws with their seed."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ipywidgets as w

from companion.play.setup import checklist, describe_draws, draws, new_seed


def named(drawn: Any, names: list[str]) -> Any:
    """The draws with ``Player k`` replaced by the names typed at the top."""
    seats = {f"Player {k + 1}": name for k, name in enumerate(names)}
    if isinstance(drawn, dict):
        return {seats.get(k, k): named(v, names) for k, v in drawn.items()}
    if isinstance(drawn, list):
        return [named(v, names) for v in drawn]
    if isinstance(drawn, str):
        return seats.get(drawn, drawn)
    return drawn


class SetupPanel:
    """Tick boxes for the set-up steps, and a Draw button that shows its seed.

    Args:
        game: The game id.
        players: The player count (its numbers are worked into the steps).
        names: The players' names, used in the draws.
    """

    def __init__(self, game: str, players: int, names: list[str] | None = None) -> None:
        self.game = game
        self.players = players
        self.names = list(names or [f"Player {k + 1}" for k in range(players)])
        self.on_draw: Callable[[dict[str, Any]], None] | None = None
        self.boxes = [
            w.Checkbox(value=False, description=step, indent=False, layout=w.Layout(width="auto"))
            for step in checklist(game, players)
        ]
        self.seed = w.Text(
            placeholder="seed (empty: a new draw)",
            tooltip="Seed of the draw",
            layout=w.Layout(width="14em"),
        )
        self.seed.add_class("num")
        self.draw_button = w.Button(description="Draw")
        self.drawn = w.HTML()
        self.drawn_seed: int | None = None
        self.draw_button.on_click(self.draw)
        steps = w.VBox(self.boxes)
        steps.add_class("steps")
        parts: list[w.Widget] = [w.HTML("<h2>Set-up</h2>"), steps]
        self.has_draws = bool(draws(game, players, 1))
        if self.has_draws:
            parts += [w.HBox([self.seed, self.draw_button]), self.drawn]
        self.widget = w.VBox(parts)
        self.widget.add_class("panel")
        self.widget.add_class("setup")

    def set_names(self, names: list[str]) -> None:
        """Use ``names`` in the draws (an earlier draw is shown again with them)."""
        self.names = list(names)
        if self.drawn_seed is not None:
            self._show(self.drawn_seed)

    def draw(self, _: Any = None) -> dict[str, Any]:
        """Make the draws (with the typed seed, or a new one) and show them."""
        text = self.seed.value.strip()
        seed = int(text) if text.isdigit() and len(text) <= 12 else new_seed()
        self.seed.value = str(seed)
        result = self._show(seed)
        if self.on_draw is not None:
            self.on_draw(result)
        return result

    def _show(self, seed: int) -> dict[str, Any]:
        import html

        self.drawn_seed = seed
        result: dict[str, Any] = named(draws(self.game, self.players, seed), self.names)
        lines = describe_draws(self.game, result)
        self.drawn.value = f"Seed {seed}:<br>" + "<br>".join(html.escape(x) for x in lines)
        return result

    def state(self) -> dict[str, Any]:
        """Ticks and the draw, for the draft."""
        return {"ticks": [b.value for b in self.boxes], "seed": self.drawn_seed}

    def restore(self, state: dict[str, Any]) -> None:
        """Put back :meth:`state`."""
        for box, tick in zip(self.boxes, state.get("ticks", []), strict=False):
            box.value = bool(tick)
        seed = state.get("seed")
        if isinstance(seed, int) and self.has_draws:
            self.seed.value = str(seed)
            self._show(seed)
