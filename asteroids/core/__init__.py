"""The simulation core: pure, deterministic numpy. Never imports arcade, pyglet or a clock."""
