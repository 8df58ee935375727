"""One headless bot game as a pure function: (config, seed, bot, tick cap) -> ``GameResult``.

Everything in the result is counted from the events the core returns, as event columns
(``asteroids.core.event_columns``), by one counter (``Tally``) that both balance engines use:
``play_game`` counts its one game as a batch of one, ``lab.batch_run`` every lane of its
batch. So two runs of the same game (in this process, a pool worker, a Ray task on another
machine, or a lane of a batch) give equal results. Definitions, as the balance report uses
them:

* **survival time**: the game's length in seconds of game time (``ticks / tick_hz``), from
  the start to game over, or to the tick cap when the ship is still playing then
  (``game_over`` is false for those games: their true survival is longer);
* **waves cleared**: ``WaveCleared`` events;
* **deaths by cause**: ``ShipDestroyed.cause``: asteroid, saucer (rammed), saucer-shot,
  hyperspace (a failed jump), then each cause a declared enemy claims the ship by
  (``DEATH_CAUSES``, read from ``asteroids.core.bodies``);
* **kills**: asteroids, saucers and declared enemies destroyed by the ship's shots (ramming
  is not a kill);
  **shots per kill** is the ship's shots fired over its kills;
* **extra lives**: the ships ``ExtraLife`` events award (their ``count``);
* **death ticks** and **wave ticks**: when each ship was lost, and when each wave after the
  first began (for survival curves and the hazard by time and by wave: ``lab.survival``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from asteroids.config import Config
from asteroids.core import new_world, step
from asteroids.core.bodies import CONTACTS, NAMES
from asteroids.core.event_columns import EventColumns, EventKind, encode
from asteroids.core.kinds import BY_SHIP, Cause, Kind
from asteroids.core.params import params_for
from asteroids.replay.format import Replay
from asteroids.replay.record import Recorder, get_bot

if TYPE_CHECKING:
    from asteroids.pilots import Persona

__all__ = ["DEATH_CAUSES", "GameResult", "GameTask", "Tally", "play_game", "run_task"]

_BUILT_IN_DEATHS = ("asteroid", "saucer", "saucer-shot", "hyperspace")
"""The causes the built-in kinds lose the ship by, in report order."""


def _death_causes() -> tuple[str, ...]:
    """The built-in causes, then every other cause a contact of ``bodies.CONTACTS`` claims the
    ship by (a declared enemy's: the mine's "mine"), named by ``bodies.NAMES``."""
    claims = [c.craft_by if c.craft == Kind.SHIP else c.other_by for c in CONTACTS
              if Kind.SHIP in (c.craft, c.other)]
    return tuple(dict.fromkeys((*_BUILT_IN_DEATHS, *(NAMES.causes[int(c)] for c in claims))))


DEATH_CAUSES = _death_causes()
"""Every ``ShipDestroyed.cause`` the core reports, in report order (the shipped game's four
when no enemy is declared, so its results and reports are unchanged)."""


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
    """Asteroids, saucers and declared enemies destroyed by the ship's shots."""
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


_SHIP_SHOT = int(Cause.SHIP_SHOT)
# As plain ints: numpy compares an array with an IntEnum member five times as slowly.
_FIRED, _WAVE_CLEARED = int(EventKind.SHOT_FIRED), int(EventKind.WAVE_CLEARED)
_ROCK_DOWN, _SAUCER_DOWN = int(EventKind.ASTEROID_DESTROYED), int(EventKind.SAUCER_DESTROYED)
_CRAFT_DOWN = int(EventKind.CRAFT_DESTROYED)
_EXTRA_LIFE, _SHIP_DOWN = int(EventKind.EXTRA_LIFE), int(EventKind.SHIP_DESTROYED)


class Tally:
    """What each lane's game has counted so far, by the module's definitions, from its
    events as columns: the one result counter of both balance engines (``play_game``: a
    batch of one; ``lab.batch_run``: every lane of a batch). The counts that change most
    ticks are (lanes,) arrays, the rare events (deaths, waves reached) lists.

    Args:
        waves: (lanes,) the wave each lane's game starts at.
    """

    def __init__(self, waves: np.ndarray) -> None:
        lanes = waves.shape[0]
        self.wave = waves.astype(np.int64)
        self.shots = np.zeros(lanes, dtype=np.int64)
        self.kills = np.zeros(lanes, dtype=np.int64)
        self.waves = np.zeros(lanes, dtype=np.int64)
        self.extra = np.zeros(lanes, dtype=np.int64)
        self.deaths = [dict.fromkeys(DEATH_CAUSES, 0) for _ in range(lanes)]
        self.death_ticks: list[list[int]] = [[] for _ in range(lanes)]
        self.wave_ticks: list[list[int]] = [[] for _ in range(lanes)]

    def add(self, events: EventColumns, ticks: np.ndarray, waves: np.ndarray) -> None:
        """One step's events (``events.game`` is the lane), and each lane's tick and wave
        after the step."""
        lanes = ticks.shape[0]
        if events.size:
            kind, game = events.kind, events.game
            self.shots += np.bincount(game[(kind == _FIRED) & (events.i0 == BY_SHIP)],
                                      minlength=lanes)
            broke = (kind == _ROCK_DOWN) | (kind == _SAUCER_DOWN) | (kind == _CRAFT_DOWN)
            self.kills += np.bincount(game[broke & (events.i2 == _SHIP_SHOT)], minlength=lanes)
            self.waves += np.bincount(game[kind == _WAVE_CLEARED], minlength=lanes)
            extra_rows = kind == _EXTRA_LIFE
            if extra_rows.any():
                self.extra += np.bincount(game[extra_rows], weights=events.i1[extra_rows],
                                          minlength=lanes).astype(np.int64)
            for row in np.flatnonzero(kind == _SHIP_DOWN).tolist():
                lane = int(game[row])
                cause = events.names.causes[int(events.i0[row])]
                deaths = self.deaths[lane]
                deaths[cause] = deaths.get(cause, 0) + 1
                self.death_ticks[lane].append(int(ticks[lane]))
        for lane in np.flatnonzero(waves != self.wave).tolist():
            self.wave[lane] = waves[lane]
            self.wave_ticks[lane].append(int(ticks[lane]))

    def result(self, lane: int, seed: int, tick_hz: float, *, ticks: int, game_over: bool,
               score: int, wave: int, lives: int) -> GameResult:
        """Lane ``lane``'s game as a ``GameResult``, given its state where it stopped."""
        return GameResult(
            seed=seed, ticks=int(ticks), tick_hz=tick_hz, game_over=bool(game_over),
            score=int(score), final_wave=int(wave), waves_cleared=int(self.waves[lane]),
            deaths=self.deaths[lane], shots_fired=int(self.shots[lane]),
            kills=int(self.kills[lane]), extra_lives=int(self.extra[lane]),
            lives_left=int(lives), death_ticks=tuple(self.death_ticks[lane]),
            wave_ticks=tuple(self.wave_ticks[lane]))

    def restart(self, lane: int, wave: int) -> None:
        """Lane ``lane`` starts a new game (at ``wave``)."""
        self.wave[lane] = wave
        for counts in (self.shots, self.kills, self.waves, self.extra):
            counts[lane] = 0
        self.deaths[lane] = dict.fromkeys(DEATH_CAUSES, 0)
        self.death_ticks[lane], self.wave_ticks[lane] = [], []

    def keep(self, lanes: list[int]) -> None:
        """Only these lanes go on, in this order."""
        index = np.asarray(lanes, dtype=np.int64)
        for name in ("wave", "shots", "kills", "waves", "extra"):
            setattr(self, name, getattr(self, name)[index])
        for name in ("deaths", "death_ticks", "wave_ticks"):
            setattr(self, name, [getattr(self, name)[lane] for lane in lanes])


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
    rules = params_for(config)  # compiled once, passed every tick
    world = new_world(rules, seed)
    tally = Tally(np.array([world.wave]))
    while world.tick < max_ticks and not world.game_over:
        mask = pilot(world, rules)
        world, events = step(world, mask, rules)
        if recorder is not None:
            recorder.add(mask, world)
        if events:  # a wave starts only with its WaveStarted: an empty tick counts nothing
            tally.add(encode((events,), NAMES), np.array([world.tick]),
                      np.array([world.wave]))
    result = tally.result(0, seed, float(config.world.tick_hz), ticks=world.tick,
                          game_over=world.game_over, score=world.score, wave=world.wave,
                          lives=world.lives)
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
