"""One headless bot game as a pure function: (config, seed, bot, tick cap) -> ``GameResult``.

Everything in the result is counted from the events the core returns, so two runs of the
same game (in this process, a pool worker or a Ray task on another machine) give equal
results. Definitions, as the balance report uses them:

* **survival time**: the game's length in seconds of game time (``ticks / tick_hz``), from
  the start to game over, or to the tick cap when the ship is still playing then
  (``game_over`` is false for those games: their true survival is longer);
* **waves cleared**: ``WaveCleared`` events;
* **deaths by cause**: ``ShipDestroyed.cause``: asteroid, saucer (rammed), saucer-shot,
  hyperspace (a failed jump);
* **kills**: asteroids and saucers destroyed by the ship's shots (ramming is not a kill);
  **shots per kill** is the ship's shots fired over its kills;
* **extra lives**: the ships ``ExtraLife`` events award (their ``count``);
* **death ticks** and **wave ticks**: when each ship was lost, and when each wave after the
  first began (for survival curves and the hazard by time and by wave: ``lab.survival``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from asteroids.config import Config
from asteroids.core import new_world, step
from asteroids.core.events import (
    AsteroidDestroyed,
    ExtraLife,
    SaucerDestroyed,
    ShipDestroyed,
    ShotFired,
    WaveCleared,
)
from asteroids.replay.format import Replay
from asteroids.replay.record import Recorder, get_bot

if TYPE_CHECKING:
    from asteroids.pilots import Persona

__all__ = ["DEATH_CAUSES", "GameResult", "GameTask", "play_game", "run_task"]

DEATH_CAUSES = ("asteroid", "saucer", "saucer-shot", "hyperspace")
"""Every ``ShipDestroyed.cause`` the core reports, in report order."""


@dataclass(frozen=True)
class GameResult:
    """What one bot game measured (see the module docstring for the definitions)."""

    seed: int
    ticks: int
    """Ticks played: to game over, or the tick cap."""
    tick_hz: float
    game_over: bool
    """False when the game was still going at the tick cap."""
    score: int
    final_wave: int
    waves_cleared: int
    deaths: dict[str, int]
    """Ship deaths by cause, every name of ``DEATH_CAUSES`` present."""
    shots_fired: int
    """Shots the ship fired (saucer shots not counted)."""
    kills: int
    """Asteroids and saucers destroyed by the ship's shots."""
    extra_lives: int
    lives_left: int
    death_ticks: tuple[int, ...] = ()
    """The tick of each ship lost, in order."""
    wave_ticks: tuple[int, ...] = ()
    """The tick at which each wave after the first began, in order."""

    @property
    def survival_s(self) -> float:
        """Game length in seconds of game time (to game over, or the cap)."""
        return self.ticks / self.tick_hz

    @property
    def total_deaths(self) -> int:
        """Ship deaths of every cause."""
        return sum(self.deaths.values())

    def as_dict(self) -> dict[str, object]:
        """Plain JSON-ready values, with ``survival_s`` included."""
        return {
            "seed": self.seed, "ticks": self.ticks, "tick_hz": self.tick_hz,
            "game_over": self.game_over, "survival_s": self.survival_s, "score": self.score,
            "final_wave": self.final_wave, "waves_cleared": self.waves_cleared,
            "deaths": dict(self.deaths), "shots_fired": self.shots_fired, "kills": self.kills,
            "extra_lives": self.extra_lives, "lives_left": self.lives_left,
            "death_ticks": list(self.death_ticks), "wave_ticks": list(self.wave_ticks),
        }


def play_game(config: Config, seed: int, bot: str | Persona, max_ticks: int, *,
              record: bool = False) -> tuple[GameResult, Replay | None]:
    """Play one game with the named bot until game over or ``max_ticks`` ticks.

    Args:
        config: the settings the game runs under.
        seed: the seed given to ``new_world``.
        bot: a name ``asteroids.replay.get_bot`` knows (``aimer``, ``spinner``, ``novice``,
            ...), a persona file, or a ``Persona``.
        max_ticks: the tick cap, 1 or more.
        record: also record the game as a replay (hashes every tick: slower).

    Returns:
        The result, and the replay when ``record`` (else None). The replay is the same game
        ``asteroids record --bot BOT --seed SEED --ticks MAX_TICKS`` would save.

    Raises:
        KeyError: for an unknown bot name.
        ValueError: for a tick cap below 1.
    """
    if max_ticks < 1:
        raise ValueError(f"max_ticks must be 1 or more; got {max_ticks}")
    pilot = get_bot(bot)
    recorder = Recorder(config, seed) if record else None
    world = new_world(config, seed)
    deaths = dict.fromkeys(DEATH_CAUSES, 0)
    shots = kills = waves = extra = 0
    death_ticks: list[int] = []
    wave_ticks: list[int] = []
    wave = world.wave
    while world.tick < max_ticks and not world.game_over:
        mask = pilot(world, config)
        world, events = step(world, mask, config)
        if recorder is not None:
            recorder.add(mask, world)
        for event in events:
            if isinstance(event, ShotFired):
                shots += event.shooter == "ship"
            elif isinstance(event, AsteroidDestroyed | SaucerDestroyed):
                kills += event.by == "ship-shot"
            elif isinstance(event, ShipDestroyed):
                deaths[event.cause] = deaths.get(event.cause, 0) + 1
                death_ticks.append(int(world.tick))
            elif isinstance(event, WaveCleared):
                waves += 1
            elif isinstance(event, ExtraLife):
                extra += event.count
        if world.wave != wave:
            wave = world.wave
            wave_ticks.append(int(world.tick))
    result = GameResult(
        seed=seed, ticks=int(world.tick), tick_hz=float(config.world.tick_hz),
        game_over=bool(world.game_over), score=int(world.score), final_wave=int(world.wave),
        waves_cleared=waves, deaths=deaths, shots_fired=shots, kills=kills,
        extra_lives=extra, lives_left=int(world.lives), death_ticks=tuple(death_ticks),
        wave_ticks=tuple(wave_ticks),
    )
    replay = recorder.finish(world) if recorder is not None else None
    return result, replay


@dataclass(frozen=True)
class GameTask:
    """One game of a balance run: what a worker needs, pickled whole (the config's floats
    cross a process boundary bit for bit)."""

    side: int
    """Which config of the run (0 = the first)."""
    index: int
    """The game's number within its side (0-based); its seed is the run's seed plus this."""
    seed: int
    config: Config
    bot: str | Persona
    """A bot or persona name, or a ``Persona`` (a persona file, read once by the caller)."""
    max_ticks: int
    record: bool = False


def run_task(task: GameTask) -> tuple[GameResult, Replay | None]:
    """``play_game`` for a ``GameTask``: the function pool workers and Ray tasks run."""
    return play_game(task.config, task.seed, task.bot, task.max_ticks, record=task.record)
