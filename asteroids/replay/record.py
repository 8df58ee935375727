"""Recording: ``Recorder`` watches a game tick by tick; ``record_bot_game`` plays one headless.

The recorder is fed exactly what the core was given (the mask of each step) and the state
that step returned, so a replay holds the game the player saw, whatever the frame rate. It
hashes the state after every tick (one byte of it is kept per tick, for naming the first
divergent tick later) and keeps a full checkpoint every ``every`` ticks. One player or two:
the state is the one of ``asteroids.core.play.play_for(players)`` (a World or a Match), and
everything else is the same.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from asteroids import __version__
from asteroids.config import Config
from asteroids.core.inputs import as_mask
from asteroids.core.params import Params, params_for
from asteroids.core.play import Play, play_for
from asteroids.core.world import World
from asteroids.replay.changes import (
    MAX_CHANGES,
    MAX_TOTAL_SETTINGS,
    ConfigChange,
    rule_settings,
)
from asteroids.replay.format import (
    CHECKPOINT_EVERY,
    MAX_CHECKPOINT_EVERY,
    MAX_TICKS,
    Replay,
    rules_fingerprint,
)

if TYPE_CHECKING:
    from asteroids.pilots import Persona

__all__ = ["Bot", "Recorder", "TickLog", "bot_names", "get_bot", "record_bot_game", "utc_now"]

Bot = Callable[[World, Config | Params], int]
"""A pilot: the input mask for this tick, from the World and the config (pure)."""

_LEGACY_STYLES = {"classic": 0, "classic-hyper": 1, "classic-shield": 2}
"""The original bot (``asteroids.core.bot.bot_input``) and its two habits, by name."""


def utc_now() -> str:
    """The current time as ISO 8601 UTC to the second, e.g. ``2026-05-01T12:00:00Z``."""
    now = _dt.datetime.now(_dt.UTC).replace(microsecond=0)
    return now.isoformat().replace("+00:00", "Z")


def check_seed_and_interval(seed: int, every: int) -> None:
    """Refuse a seed or checkpoint interval a replay file cannot hold (both recorders).

    Raises:
        ValueError: naming the bad value and the range.
    """
    if isinstance(seed, bool) or not isinstance(seed, int) or not (-(2**63) <= seed < 2**64):
        raise ValueError(f"a replay's seed must be an int in [-2**63, 2**64); got {seed!r}")
    if not 1 <= every <= MAX_CHECKPOINT_EVERY:
        raise ValueError(f"checkpoint interval must be in [1, {MAX_CHECKPOINT_EVERY}]")


class TickLog:
    """What a recorder keeps as a game goes: the mask of each tick, one byte of each tick's
    state hash, and a checkpoint (the full hash and the per-field digests) every ``every``
    ticks.

    Args:
        start_hash: the hash of the state at tick 0.
        start_digests: its per-field digests.
        every: ticks between checkpoints.
    """

    def __init__(self, start_hash: str, start_digests: bytes, every: int) -> None:
        self.every = every
        self.masks = bytearray()
        self.tick_hashes = bytearray()
        self.last_hash = start_hash
        self.checkpoints: list[tuple[int, str]] = [(0, start_hash)]
        self.digests: list[bytes] = [start_digests]

    @property
    def ticks(self) -> int:
        """Ticks recorded so far."""
        return len(self.masks)

    def next_tick(self, caller: str, noun: str, got: int) -> int:
        """The tick the next ``append`` records, after checking the state handed in is at it.

        Raises:
            ValueError: if ``got`` is not the next tick (a step was missed or recorded twice)
                or a replay cannot hold one more tick.
        """
        tick = len(self.masks) + 1
        if got != tick:
            raise ValueError(f"{caller}: expected the {noun} after tick {tick}, got tick {got} "
                             "(every step must be recorded once)")
        if tick > MAX_TICKS:
            raise ValueError(f"a replay holds at most {MAX_TICKS} ticks")
        return tick

    def append(self, mask: int, state_hash: str, digests: Callable[[], bytes]) -> None:
        """Record one tick: its mask and the hash of the state after it (``digests`` is
        called only at a checkpoint)."""
        self.masks.append(mask)
        self.tick_hashes.append(int(state_hash[:2], 16))
        self.last_hash = state_hash
        tick = len(self.masks)
        if tick % self.every == 0:
            self.checkpoints.append((tick, state_hash))
            self.digests.append(digests())

    def fields(self) -> dict[str, Any]:
        """The ``Replay`` fields this log holds."""
        return {"masks": bytes(self.masks), "checkpoints": tuple(self.checkpoints),
                "final_hash": self.last_hash, "checkpoint_every": self.every,
                "tick_hashes": bytes(self.tick_hashes),
                "checkpoint_digests": tuple(self.digests)}


class Recorder:
    """Feed it exactly what the core was given; it hashes checkpoints as it goes.

    Args:
        config: the settings the game runs under.
        seed: the seed given to ``new_world`` (one player) or ``new_match`` (two).
        players: 1, or 2 for a two-player match (then every state handed in is a Match).
        every: ticks between full checkpoints.

    Raises:
        ValueError: for a seed, interval or player count a replay cannot hold.
    """

    def __init__(self, config: Config, seed: int, *, players: int = 1,
                 every: int = CHECKPOINT_EVERY) -> None:
        check_seed_and_interval(seed, every)
        self.play: Play[Any] = play_for(players)
        self.config = config
        self.seed = seed
        self._step_config = config
        """The settings of the last step recorded (the game's current settings)."""
        self._changes: list[ConfigChange] = []
        self._settings = 0
        """Settings the changes set, in all."""
        self.every = every
        start = self.play.start(config, seed)
        self._hash = self.play.hasher()
        self._log = TickLog(self._hash(start), self.play.field_digests(start), every)

    @property
    def players(self) -> int:
        """How many players the recorded game has."""
        return self.play.players

    @property
    def ticks(self) -> int:
        """Ticks recorded so far."""
        return self._log.ticks

    @property
    def changes(self) -> tuple[ConfigChange, ...]:
        """The rule changes recorded so far (``asteroids play --live``)."""
        return tuple(self._changes)

    def add(self, mask: int, state_after: Any, config: Config | None = None) -> None:
        """Record one step: the mask and the settings it was given, and the state (a World,
        or a Match for two players) it returned.

        Args:
            mask: the input mask of the step.
            state_after: the World (or Match) the step returned.
            config: the settings the step ran on, when they may have changed since the
                last step (a live reload); None: the same as the last step's. A change of
                rule settings is recorded at this step's tick (one player only).

        Raises:
            ValueError: if the mask is not a valid input mask, ``state_after`` is not the
                next tick (a step was missed or recorded twice), or ``config`` changes a
                setting that cannot change during a game (any, in a two-player match), or
                one change more than a replay holds (``MAX_CHANGES``,
                ``MAX_TOTAL_SETTINGS``).
        """
        mask = as_mask(mask)
        play = self.play
        tick = self._log.next_tick("Recorder.add", play.noun, play.tick(state_after))
        if config is not None and config is not self._step_config:
            self._note_config(tick - 1, config)
        self._log.append(mask, self._hash(state_after),
                         lambda: play.field_digests(state_after))

    def has_room(self, settings: int) -> bool:
        """Whether one more change setting ``settings`` rule settings fits in the replay
        (``MAX_CHANGES`` changes, ``MAX_TOTAL_SETTINGS`` settings in all): a game that would
        go past that keeps its rules until the next game instead of failing to record."""
        return (len(self._changes) < MAX_CHANGES
                and self._settings + settings <= MAX_TOTAL_SETTINGS)

    def _note_config(self, tick: int, config: Config) -> None:
        """Record the settings of the step from ``tick`` on, if their rules changed."""
        settings = rule_settings(self._step_config, config)
        self._step_config = config
        if not settings:
            return
        if self.players != 1:
            raise ValueError("a two-player replay records no settings changes")
        if len(self._changes) >= MAX_CHANGES:
            raise ValueError(f"a replay holds at most {MAX_CHANGES} settings changes")
        if self._settings + len(settings) > MAX_TOTAL_SETTINGS:
            raise ValueError(f"a replay's changes set at most {MAX_TOTAL_SETTINGS} settings "
                             "in all")
        self._settings += len(settings)
        self._changes.append(ConfigChange(tick, settings, config))

    def finish(self, state: Any, *, created_at: str | None = None) -> Replay:
        """The replay of the game so far; ``state`` is the last World (or Match) recorded,
        or the start.

        Args:
            state: the current World or Match, to take the final scores and wave from.
            created_at: ISO 8601 UTC time to write (default: now).
        """
        play = self.play
        if play.tick(state) != self.ticks:
            raise ValueError(f"Recorder.finish: the {play.noun} is at tick {play.tick(state)}, "
                             f"but {self.ticks} ticks were recorded")
        scores = play.scores(state)
        two = {} if self.players == 1 else {
            "players": self.players, "final_scores": scores, "field_names": play.field_names}
        return Replay(
            seed=self.seed, config=self.config, **self._log.fields(),
            final_score=max(scores), final_wave=max(play.waves(state)),
            created_at=created_at or utc_now(), game_version=__version__,
            rules=rules_fingerprint(self.config, self.players),
            tick_hz=float(self.config.world.tick_hz),
            config_changes=tuple(self._changes), **two,
        )


def bot_names() -> list[str]:
    """Names ``get_bot`` accepts: the core's ``BOTS`` (when present), the original bot's
    styles ("classic", "classic-hyper", "classic-shield") and the personas
    (``asteroids.pilots``: "novice", "average", "expert", "perfect"); persona files too."""
    from asteroids.core import bot as bot_module
    from asteroids.pilots import PERSONA_NAMES

    names = list(getattr(bot_module, "BOTS", {}))
    if hasattr(bot_module, "bot_input"):
        names += [n for n in _LEGACY_STYLES if n not in names]
    names += [n for n in PERSONA_NAMES if n not in names]
    return sorted(names)


def get_bot(name: str | Persona) -> Bot:
    """The pilot called ``name``: a core bot, a persona (a fresh pilot on every call:
    personas remember what they saw), a persona file (``me.toml``) or a ``Persona``.

    Raises:
        KeyError: for an unknown name, or a persona file that cannot be used; the message
            lists the known names, or every problem of the file.
    """
    from asteroids.core import bot as bot_module
    from asteroids.pilots import Persona, PersonaError, pilot_for
    from asteroids.pilots.registry import PERSONA_NAMES, is_persona_file

    if isinstance(name, Persona):
        return pilot_for(name)
    bots = getattr(bot_module, "BOTS", {})
    if name in bots:
        return bots[name]
    if name in PERSONA_NAMES or is_persona_file(name):
        try:
            return pilot_for(name)
        except PersonaError as exc:
            raise KeyError(str(exc)) from None
    if name in _LEGACY_STYLES and hasattr(bot_module, "bot_input"):
        style = _LEGACY_STYLES[name]
        legacy = bot_module.bot_input

        def pilot(world: World, config: Config | Params) -> int:
            p = params_for(config)
            return legacy(world, p.width, p.height, style)

        return pilot
    raise KeyError(f"no bot named {name!r}; known bots: {', '.join(bot_names())} "
                   "(or a persona file, NAME.toml)")


def record_bot_game(config: Config, seed: int, bot: Bot, ticks: int, *, players: int = 1,
                    every: int = CHECKPOINT_EVERY, created_at: str | None = None,
                    stop_at_game_over: bool = True) -> Replay:
    """Play ``ticks`` ticks (fewer if the game ends first) with a bot and record them; with
    two players one bot flies both players' turns (it sees the active player's World)."""
    if not 0 <= ticks <= MAX_TICKS:
        raise ValueError(f"ticks must be in [0, {MAX_TICKS}]; got {ticks}")
    recorder = Recorder(config, seed, players=players, every=every)
    play = recorder.play
    rules = params_for(config)
    state = play.start(rules, seed)
    for _ in range(ticks):
        if stop_at_game_over and play.over(state):
            break
        mask = bot(play.world(state), rules)
        state, _ = play.step(state, mask, rules)
        recorder.add(mask, state)
    return recorder.finish(state, created_at=created_at)
