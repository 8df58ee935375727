"""``new_world`` and ``step``: the whole game, one fixed tick at a time.

(The module is ``simulation`` so that ``asteroids.core.step`` can be the function.)

The tick pipeline only calls phases, each a free function over the tick's ``Draft`` (the
World's arrays) in its own module, in this order, always:

1. the ship obeys this tick's input (turn, thrust, shield, hyperspace, fire): ``ship``;
2. the saucer's timers run (spawn, zig-zag, fire): ``saucer``; then each declared enemy's
   (``bodies.ENEMIES``, ``Enemy.act``);
3. shots sweep their whole path for this tick against every asteroid edge, the saucer, the
   ship and obstacles, and claim the first thing they hit: ``sweep``;
4. asteroids, the ship, the saucer and each declared enemy move and meet the borders and
   obstacles, and asteroids collide with each other (if enabled): ``motion``;
5. the ship, shield and saucer touch the rocks and each other: ``touch``;
6. what was claimed breaks: scores, fragments (which join only now, so one shot cannot break
   them too), extra lives, the ship's loss: ``resolve``;
7. timers: respawn, hyperspace re-entry and the grace (``ship``), the next wave and the
   heartbeat (``waves``).

What a tick finds as it goes (the claims on targets) is its ``Frame``; nothing outlives the
step that made it. docs/architecture.md draws the data flow.
"""

from __future__ import annotations

from asteroids.config.schema import Config
from asteroids.core import events as ev
from asteroids.core.bodies import ENEMIES, KINDS
from asteroids.core.craft import Enemy
from asteroids.core.frame import Frame
from asteroids.core.inputs import InputFrame, as_mask
from asteroids.core.lanes import ONE
from asteroids.core.motion import bounce_off_obstacles, collide_asteroids, move_bodies
from asteroids.core.params import Params, compile_params, params_for
from asteroids.core.resolve import resolve
from asteroids.core.rng import Pcg32, seed_state
from asteroids.core.saucer import update_saucer
from asteroids.core.ship import control_ship, update_ship_timers
from asteroids.core.sweep import MAX_SHOT_PIECES, sweep_shots
from asteroids.core.touch import touch
from asteroids.core.waves import heartbeat, run_waves, start_wave
from asteroids.core.world import Draft, World, starting_world

__all__ = ["MAX_SHOT_PIECES", "new_world", "step"]


def new_world(config: Config | Params, seed: int) -> World:
    """A new game: the ship at the centre and the first wave on the edges.

    Args:
        config: the resolved settings, or their compiled ``Params`` (a Config is compiled
            here, which costs more than a tick: a caller that has Params passes them).
        seed: any integer; the same seed and inputs give the same game everywhere.
    """
    p = params_for(config)
    state, inc = seed_state(int(seed))
    world = starting_world(p, state, inc)
    d = Draft(world)
    rng = Pcg32(state, inc)
    start_wave(d, p, rng, [])
    d.rng_state = rng.state
    return d.freeze()


def step(
    world: World, inputs: InputFrame | int, config: Config | Params
) -> tuple[World, tuple[ev.Event, ...]]:
    """Advance the game by one tick.

    Args:
        world: the current state (never modified).
        inputs: this tick's buttons, an InputFrame or a plain int bit mask (bit 0 thrust,
            1 left, 2 right, 3 fire, 4 hyperspace, 5 shield).
        config: the rules the game runs under: their compiled ``Params``, as every loop
            passes them (``params.params_for`` once, then every tick, as Gymnasium passes
            its params); a Config is the slow convenience: it is compiled on every call,
            which costs about twice a tick.

    Returns:
        The next World and what happened during the tick, in the order it happened.
    """
    p = config if isinstance(config, Params) else compile_params(config)
    mask = as_mask(inputs)
    d = Draft(world)
    rng = Pcg32(world.rng_state, world.rng_inc)
    events: list[ev.Event] = []
    frame = Frame(world.ast_id.shape[0], len(KINDS))

    control_ship(d, p, mask, rng, events)
    update_saucer(d, p, rng, events)
    for enemy in ENEMIES:
        _enemy_acts(enemy, d, p, rng, events)
    sweep_shots(d, p, frame)
    move_bodies(d, p)
    for enemy in ENEMIES:
        enemy.move(ONE, d, p)
    if p.obstacle_offsets.shape[0] > 1:
        bounce_off_obstacles(d, p)
    if p.asteroids_collide and d.ast_id.shape[0] > 1:
        collide_asteroids(d, p)
    touch(d, p, frame)
    resolve(d, p, rng, frame, events)
    update_ship_timers(d, p, rng, events)
    if not run_waves(d, p, rng, events):
        heartbeat(d, p, events)  # a wave's first beat counts from the tick after it starts
    d.tick += 1
    d.since_break += 1
    d.rng_state = rng.state
    return d.freeze(), tuple(events)


def _enemy_acts(enemy: Enemy, d: Draft, p: Params, rng: Pcg32, events: list[ev.Event]) -> None:
    """A declared enemy's phase 2 (``Enemy.act``) and the events it reports."""
    arrived, left = enemy.act(ONE, d, p, rng)
    if arrived:
        craft = enemy.craft(d, p)
        if craft is not None:
            events.append(ev.CraftSpawned(enemy.label, craft.x, craft.y))
    if left:
        events.append(ev.CraftLeft(enemy.label))
