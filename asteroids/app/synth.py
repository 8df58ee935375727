"""The game's sounds, synthesised with numpy: pure and deterministic, no files, no audio
library, so every sound can be measured in a test.

Two sets (``audio.sound_set``): ``cabinet`` (``synth_cabinet``, modelled on the 1979 board)
and ``modern`` (``synth_modern``, the voices of asteroids 0.1.0). A set maps each sound name
to a mono float32 buffer at its mix level (``render_set``); ``mixer.Mixer`` plays them, and
``audio.SoundBank`` streams the mix.
"""

from __future__ import annotations

import functools

import numpy as np

from asteroids.app import synth_cabinet, synth_modern
from asteroids.app.enemy_looks import voices
from asteroids.config.player_tables import SOUND_SETS

__all__ = ["DEFAULT_SOUND_SET", "LOOPING", "RATE", "SOUND_NAMES", "SOUND_SETS", "level_db",
           "render_set", "render_voice", "voice_names"]

RATE = 22050
"""Sample rate in Hz: the cabinet's sounds live below 4 kHz, and 22 050 Hz keeps them quick
to build and to mix."""

_SETS = {"cabinet": synth_cabinet, "modern": synth_modern}
assert set(_SETS) == set(SOUND_SETS), "every sound set in the schema needs its builders"

DEFAULT_SOUND_SET = "cabinet"
"""The set the built-in settings pick (``AudioConfig.sound_set``); README, "Sound", says why."""

SOUND_NAMES: tuple[str, ...] = tuple(dict.fromkeys(
    name for module in _SETS.values() for name in module.BUILDERS))
"""Every sound name the game asks for; a set may leave some out (the cabinet has no
hyperspace sound), and asking for those plays nothing."""

LOOPING: frozenset[str] = frozenset({"thrust", "saucer_large", "saucer_small"})
"""Sounds built as exact loops (their buffer wraps with no seam)."""


def voice_names(sound_set: str) -> tuple[str, ...]:
    """The sounds ``sound_set`` has.

    Raises:
        KeyError: for an unknown set.
    """
    return tuple(_SETS[sound_set].BUILDERS)


def level_db(name: str, sound_set: str) -> float:
    """The peak of ``name`` in the mix, in dB below full scale before the volume controls.

    Raises:
        KeyError: for an unknown set or a sound the set does not have.
    """
    return float(_SETS[sound_set].LEVELS_DB[name])


def render_voice(name: str, sound_set: str = DEFAULT_SOUND_SET, rate: int = RATE) -> np.ndarray:
    """One sound's shape, float64 with its peak at exactly 1.0 and no DC.

    Raises:
        KeyError: for an unknown set or a sound the set does not have.
    """
    wave = np.asarray(_SETS[sound_set].BUILDERS[name](rate), dtype=np.float64)
    if name in LOOPING:
        wave = wave - wave.mean()
    peak = float(np.abs(wave).max()) if wave.size else 0.0
    return wave / peak if peak > 0 else wave


def render_set(sound_set: str = DEFAULT_SOUND_SET, rate: int = RATE) -> dict[str, np.ndarray]:
    """Every sound of ``sound_set`` at its mix level, as read-only float32 buffers for the
    mixer (built once per set and rate: about 0.3 s for the cabinet set), and every declared
    enemy's own sound (``enemy_looks.voices``).

    Raises:
        KeyError: for an unknown set.
    """
    return {**dict(_rendered(sound_set, rate)), **voices(rate)}


@functools.cache
def _rendered(sound_set: str, rate: int) -> tuple[tuple[str, np.ndarray], ...]:
    module = _SETS[sound_set]
    out = []
    for name in module.BUILDERS:
        wave = (render_voice(name, sound_set, rate)
                * 10.0 ** (module.LEVELS_DB[name] / 20.0)).astype(np.float32)
        wave.setflags(write=False)
        out.append((name, wave))
    return tuple(out)
