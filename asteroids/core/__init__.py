"""The simulation core: pure, deterministic numpy. Never imports arcade, pyglet or a clock.

The whole interface of the game as data::

    world = new_world(config, seed)
    world, events = step(world, InputFrame.THRUST | InputFrame.FIRE, config)
    state_hash(world)
"""

from asteroids.core.hashing import state_hash
from asteroids.core.inputs import InputFrame
from asteroids.core.simulation import new_world, step
from asteroids.core.world import World

__all__ = ["InputFrame", "World", "new_world", "state_hash", "step"]
