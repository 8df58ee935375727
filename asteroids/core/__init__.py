"""The simulation core: pure, deterministic numpy. Never imports arcade, pyglet or a clock.

The whole interface of the game as data::

    world = new_world(config, seed)
    world, events = step(world, InputFrame.THRUST | InputFrame.FIRE, config)
    state_hash(world)

and of B games in lock-step, each bit-identical to its one-game run::

    batch = new_batch(config, seeds)
    batch, events = step_batch(batch, masks, config)   # masks: one input mask per game
    batch.world(i)
"""

from asteroids.core.batch import Batch, new_batch, step_batch
from asteroids.core.hashing import state_hash
from asteroids.core.inputs import InputFrame
from asteroids.core.simulation import new_world, step
from asteroids.core.world import World

__all__ = ["Batch", "InputFrame", "World", "new_batch", "new_world", "state_hash", "step",
           "step_batch"]
