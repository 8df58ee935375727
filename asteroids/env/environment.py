"""``AsteroidsEnv``: one game as a Gymnasium environment (the ``[rl]`` extra).

Each ``step`` is one tick of the game (or ``frame_skip`` ticks with the same buttons). The
reward is the score the tick(s) earned; ``terminated`` is game over; ``truncated`` comes
after ``max_ticks`` ticks. ``reset(seed=S)`` starts the game of a seed drawn from S, so the
same seed gives the same episode; the game's seed is in ``info["game_seed"]``. Observation
and actions: ``asteroids.env.observation``. ``step`` takes exactly what ``action_space``
contains, bools aside, and ``reset`` only the option ``game_seed``; anything else raises
``TypeError`` or ``ValueError`` before a tick is played (``asteroids.env.checks``).

Every episode can be kept as a replay that ``asteroids watch`` plays and ``asteroids
verify`` checks: ``record=True`` keeps the current one (``save_replay(path)``), and
``replay_dir=FOLDER`` saves each episode there as it ends.

The ALE v5 protocol as options (the ``-v1`` ids set them; the ``-v0`` ids leave them off):
``repeat_action_probability=p`` (sticky actions: at each step, with probability p, the
previous step's action is played instead of the one given; one draw per env step from the
env's own seeded generator ``np_random``, where ALE draws per frame; the previous action is
0 at reset), ``max_episode_steps=N`` (truncated after N steps, N * ``frame_skip`` ticks),
``terminal_on_life_loss`` (terminated at the tick a life is lost) and ``extended_obs`` (lives,
wave, timers and the ship's own shots in the observation).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from asteroids.config import Config, load_config
from asteroids.core import World, new_world, step
from asteroids.core.lanes import ONE, Lanes
from asteroids.core.params import Params, params_for
from asteroids.env.checks import action_index, game_seed_option
from asteroids.env.observation import ACTION_NAMES, ACTIONS, DEFAULT_ROCKS, Observer
from asteroids.env.pixels import Observations

__all__ = ["DEFAULT_MAX_MINUTES", "AsteroidsEnv", "config_for", "episode_end", "game_seed_from",
           "max_ticks_for", "play_ticks", "sticky_probability"]

DEFAULT_MAX_MINUTES = 5.0
"""Without ``max_ticks``, an episode is truncated after this much game time."""


def game_seed_from(rng: np.random.Generator) -> int:
    """The seed of an episode's game, drawn from the environment's seeded generator."""
    return int(rng.integers(0, 2**63 - 1))


def play_ticks(world: World, mask: int, config: Config | Params, frame_skip: int, max_ticks: int,
               recorder: Any = None, until_life_lost: bool = False) -> tuple[World, World | None]:
    """One environment step: ``frame_skip`` ticks with the buttons of ``mask``, fewer when the
    game ends or reaches ``max_ticks`` (or, ``until_life_lost``, at a tick that loses a
    life). Returns the World after them and the one before the last tick (None when no tick
    was played)."""
    prev = None
    for _ in range(frame_skip):
        if world.game_over or world.tick >= max_ticks or (
                until_life_lost and prev is not None and world.lives < prev.lives):
            break
        prev = world
        world, _ = step(world, mask, config)
        if recorder is not None:
            recorder.add(mask, world)
    return world, prev


def episode_end(game_over: Any, tick: Any, max_ticks: int, lost: Any = False,
                lanes: Lanes = ONE) -> tuple[Any, Any]:
    """``(terminated, truncated)``: terminated at game over (or when the step lost a life,
    ``lost``, under ``terminal_on_life_loss``), truncated once ``max_ticks`` ticks are played
    without it. One text for one game (``lanes.ONE``: Python bools and ints, as
    ``AsteroidsEnv`` passes them) and for B games (``lanes.MANY``: ``(B,)`` arrays, as
    ``AsteroidsVectorEnv`` passes them)."""
    terminated = game_over | lost
    return terminated, lanes.where(terminated, False, tick >= max_ticks)


def max_ticks_for(config: Config, max_ticks: int | None, max_episode_steps: int | None = None,
                  frame_skip: int = 1) -> int:
    """The ticks an episode may last: ``max_ticks``, ``max_episode_steps * frame_skip`` (the
    fewer when both are given), or ``DEFAULT_MAX_MINUTES`` of game time at the config's tick
    rate when neither is."""
    if max_episode_steps is not None:
        if max_episode_steps < 1:
            raise ValueError(f"max_episode_steps must be 1 or more; got {max_episode_steps}")
        steps = max_episode_steps * frame_skip
        max_ticks = steps if max_ticks is None else min(max_ticks, steps)
    ticks = max_ticks if max_ticks is not None else round(
        DEFAULT_MAX_MINUTES * 60.0 * float(config.world.tick_hz))
    if ticks < 1:
        raise ValueError(f"max_ticks must be 1 or more; got {ticks}")
    return ticks


def sticky_probability(p: float) -> float:
    """``repeat_action_probability`` checked: a number in [0, 1].

    Raises:
        ValueError: for anything else.
    """
    if isinstance(p, bool) or not isinstance(p, int | float) or not 0.0 <= p <= 1.0:
        raise ValueError(f"repeat_action_probability must be a number in [0, 1]; got {p!r}")
    return float(p)


def config_for(config: Config | str | os.PathLike[str] | None) -> Config:
    """A ``Config`` from a Config, a bundled preset's name, a TOML file or None (defaults)."""
    return config if isinstance(config, Config) else (
        load_config() if config is None else load_config(os.fspath(config)))


class AsteroidsEnv(gym.Env):
    """The game as a Gymnasium environment.

    Args:
        config: the rules: a ``Config``, a bundled preset's name (``classic``) or a TOML file
            (None: the built-in defaults).
        max_ticks: truncate an episode after this many ticks (default: 5 minutes of game
            time at the config's tick rate).
        rocks: how many of the nearest rocks the observation holds.
        frame_skip: ticks per step, the same buttons held.
        render_mode: None or ``"rgb_array"`` (the game's own renderer, offscreen).
        record: keep each episode as a replay (``replay()``, ``save_replay``).
        replay_dir: save each episode there as it ends (implies ``record``).
        render_size: the rgb_array frame's (width, height) in px.
        obs_type: ``"vector"`` (``asteroids.env.observation``), ``"grayscale"`` or
            ``"rgb"`` (frames of ``asteroids.env.pixels``).
        obs_size: the frame's (width, height) in px, or one int (84: 84 x 84).
        frame_stack: observations stacked on a new leading axis (1: none).
        repeat_action_probability: sticky actions (see the module docstring); 0 is off.
        max_episode_steps: truncate after this many steps (with ``max_ticks``, the first).
        terminal_on_life_loss: end the episode (terminated) at the tick a life is lost.
        extended_obs: the observation adds lives, wave, timers and the ship's own shots.
    """

    metadata = {"render_modes": ["rgb_array"], "render_fps": 60}

    def __init__(self, config: Config | str | os.PathLike[str] | None = None, *,
                 max_ticks: int | None = None, rocks: int = DEFAULT_ROCKS,
                 obs_type: str = "vector", obs_size: int | tuple[int, int] = 84,
                 frame_stack: int = 1,
                 frame_skip: int = 1, render_mode: str | None = None, record: bool = False,
                 replay_dir: str | os.PathLike[str] | None = None,
                 render_size: tuple[int, int] = (320, 240),
                 repeat_action_probability: float = 0.0, max_episode_steps: int | None = None,
                 terminal_on_life_loss: bool = False, extended_obs: bool = False) -> None:
        if render_mode not in (None, "rgb_array"):
            raise ValueError(f"render_mode must be None or 'rgb_array'; got {render_mode!r}")
        if frame_skip < 1 or rocks < 1:
            raise ValueError("frame_skip and rocks must be 1 or more")
        self.repeat_action_probability = sticky_probability(repeat_action_probability)
        self.terminal_on_life_loss = bool(terminal_on_life_loss)
        self.config = config_for(config)
        self.params = params_for(self.config)
        """The compiled rules, passed to every step (compiled once, here)."""
        hz = float(self.config.world.tick_hz)
        self.max_ticks = max_ticks_for(self.config, max_ticks, max_episode_steps, frame_skip)
        self.frame_skip = frame_skip
        self.observer = Observer(self.config, rocks, extended_obs)
        self.obs = Observations(self.config, self.observer, obs_type, obs_size, frame_stack)
        self.observation_space = spaces.Box(self.obs.low, self.obs.high, self.obs.shape,
                                            self.obs.dtype)
        self.action_space = spaces.Discrete(len(ACTIONS))
        self.action_names = ACTION_NAMES
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "render_fps": hz / frame_skip}
        self.render_size = render_size
        self.replay_dir = Path(replay_dir) if replay_dir is not None else None
        self.record = record or replay_dir is not None
        self.world: World | None = None
        self.prev: World | None = None
        self.game_seed = 0
        self.episodes = 0
        self.last_action = 0
        self._recorder: Any = None
        self._renderer: Any = None

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        """Start a new game; its seed is drawn from ``seed`` (``info["game_seed"]``), or
        given outright as ``options={"game_seed": G}``, G an int in [0, 2**63).

        Raises:
            TypeError: for options that are not a dict, or a game seed that is not an int.
            ValueError: for an option other than ``game_seed``, or a game seed out of range.
        """
        chosen = game_seed_option(options)
        super().reset(seed=seed)
        self.game_seed = game_seed_from(self.np_random) if chosen is None else chosen
        self.world = self.prev = new_world(self.params, self.game_seed)
        self.episodes += 1
        self.last_action = 0
        if self.record:
            from asteroids.replay import Recorder

            self._recorder = Recorder(self.config, self.game_seed)
        return self.obs.observe_world(self.world, True), self._info()

    def _info(self) -> dict[str, Any]:
        w = self.world
        assert w is not None
        return {"game_seed": self.game_seed, "tick": w.tick, "score": w.score,
                "lives": w.lives, "wave": w.wave}

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Press the buttons of ``action`` for ``frame_skip`` ticks (fewer at game over).

        Raises:
            TypeError: for an action of the wrong type (a bool, a float, a string).
            ValueError: for an integer outside ``action_space`` or an array of a shape
                other than ``()``.
        """
        index = action_index(self.action_space, action)
        if self.world is None:
            raise RuntimeError("call reset() before step()")
        if self.repeat_action_probability and \
                self.np_random.random() < self.repeat_action_probability:
            index = self.last_action
        self.last_action = index
        start = self.world.score
        self.world, prev = play_ticks(self.world, ACTIONS[index], self.params,
                                      self.frame_skip, self.max_ticks, self._recorder,
                                      self.terminal_on_life_loss)
        self.prev = prev if prev is not None else self.prev
        lost = (self.terminal_on_life_loss and prev is not None
                and self.world.lives < prev.lives)
        terminated, truncated = episode_end(bool(self.world.game_over), self.world.tick,
                                            self.max_ticks, lost)
        if (terminated or truncated) and self.replay_dir is not None:
            self.save_replay(self.replay_dir / f"episode{self.episodes:05d}-seed"
                             f"{self.game_seed}.replay")
        reward = float(self.world.score - start)
        return (self.obs.observe_world(self.world, False), reward, terminated, truncated,
                self._info())

    def replay(self) -> Any:
        """The episode so far as a ``Replay`` (needs ``record=True`` or ``replay_dir``)."""
        if self._recorder is None or self.world is None:
            raise RuntimeError("this environment does not record: make it with record=True")
        return self._recorder.finish(self.world)

    def save_replay(self, path: str | os.PathLike[str]) -> Path:
        """Save the episode so far as a replay file (``asteroids watch PATH`` plays it)."""
        from asteroids.replay import save_replay

        Path(path).parent.mkdir(parents=True, exist_ok=True)
        return save_replay(self.replay(), path)

    def render(self) -> np.ndarray | None:  # type: ignore[override]
        """With ``render_mode="rgb_array"``: the game as it looks now, (height, width, 3)."""
        if self.render_mode != "rgb_array" or self.world is None:
            return None
        if self._renderer is None:
            from asteroids.app.frames import FrameRenderer

            self._renderer = FrameRenderer(self.config, *self.render_size)
        return self._renderer.frame(self.prev or self.world, self.world)

    def close(self) -> None:
        if self._renderer is not None:
            self._renderer.close()
            self._renderer = None
