"""Output for a terminal: result tables, stats and standings, and user text made safe."""
