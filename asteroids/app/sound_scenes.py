"""Offline renders through the game's own mixer: a sound alone, and the worst-case scene.

``asteroids sounds`` writes these to WAV and measures them, and the tests assert on them, so
both hear exactly what ``audio.SoundBank`` would stream: the same voices
(``synth.render_set``), cues (``audio.cues``) and ``mixer.Mixer``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

import numpy as np

from asteroids.app import synth
from asteroids.app.audio import Cue, apply_cue, cues
from asteroids.app.mixer import LOOP_FADE_S, Mixer
from asteroids.core import events as ev

__all__ = ["FASTEST_BEAT_S", "Step", "mixer_for", "render_scene", "solo", "worst_case"]

FASTEST_BEAT_S = 8 / 62.5
"""The quickest heartbeat of the 1979 game (8 frames, 128 ms; the default rules' is 130 ms)."""


class Step(NamedTuple):
    """One thing that happens in a scene: at ``time_s``, a core event or a bare cue."""

    time_s: float
    what: ev.Event | Cue


def mixer_for(sound_set: str, volume: float = 1.0, effects: float = 1.0,
              heartbeat: float = 1.0, rate: int = synth.RATE) -> Mixer:
    """A fresh mixer of ``sound_set`` at these volume settings (already reached)."""
    mixer = Mixer(synth.render_set(sound_set, rate), rate, synth.LOOPING)
    mixer.set_volumes(volume, effects, heartbeat)
    mixer.snap_volumes()
    return mixer


def render_scene(mixer: Mixer, steps: Iterable[Step], duration_s: float) -> np.ndarray:
    """Play ``steps`` on ``mixer`` at their sample and return ``duration_s`` of the mix."""
    total = round(duration_s * mixer.rate)
    out = np.zeros(total, dtype=np.float32)
    done = 0
    for step in sorted(steps, key=lambda s: s.time_s):
        at = min(total, max(done, round(step.time_s * mixer.rate)))
        out[done:at] = mixer.render(at - done)
        done = at
        for cue in (step.what,) if isinstance(step.what, tuple) else cues(step.what):
            apply_cue(mixer, cue)
    out[done:] = mixer.render(total - done)
    return out


def solo(name: str, sound_set: str, rate: int = synth.RATE) -> np.ndarray:
    """``name`` alone at full volume, as the mixer plays it: a one-shot to its end; a loop
    switched on, left on for one length of its buffer, then off (with both fades)."""
    mixer = mixer_for(sound_set, rate=rate)
    length = synth.render_set(sound_set, rate)[name].size / rate
    if name in synth.LOOPING:
        steps = [Step(0.0, ("loop_on", name)), Step(length, ("loop_off", name))]
        return render_scene(mixer, steps, length + 2 * LOOP_FADE_S)
    return render_scene(mixer, [Step(0.0, ("play", name))], length)


def worst_case(duration_s: float = 5.0, beat_s: float = FASTEST_BEAT_S) -> list[Step]:
    """Every voice at once: thrust and both saucer sirens on throughout, the heartbeat at
    ``beat_s``, the ship firing every 2 frames of 60 Hz and a saucer every 0.64 s, bursts of
    3 explosions within 250 ms (at 1 s) and of 6 (at 2.5 s, with the ship's explosion and an
    extra life), and a hyperspace jump at 4 s."""
    steps = [Step(0.0, ev.ThrustChanged(True)), Step(0.0, ev.SaucerSpawned(True, 0.0, 0.0)),
             Step(0.0, ev.SaucerSpawned(False, 0.0, 0.0))]
    beats = np.arange(0.0, duration_s, beat_s)
    steps += [Step(float(t), ev.Heartbeat(i % 2, 8)) for i, t in enumerate(beats)]
    steps += [Step(float(t), ev.ShotFired("ship", 0.0, 0.0))
              for t in np.arange(0.0, duration_s, 2 / 60)]
    steps += [Step(float(t), ev.ShotFired("saucer", 0.0, 0.0))
              for t in np.arange(0.3, duration_s, 0.64)]
    steps += [Step(1.0 + 0.125 * i, ev.AsteroidDestroyed(i % 3, 0.0, 0.0, 2, "ship-shot", 20))
              for i in range(3)]
    steps += [Step(2.5 + 0.05 * i, ev.AsteroidDestroyed(i % 3, 0.0, 0.0, 2, "ship", 20))
              for i in range(6)]
    steps += [Step(2.55, ev.SaucerDestroyed(True, 0.0, 0.0, "ship-shot", 1000)),
              Step(2.6, ev.ShipDestroyed(0.0, 0.0, "asteroid", 2)),
              Step(2.6, ev.ExtraLife(3)),
              Step(2.62, ("loop_on", "thrust")),
              Step(2.62, ("loop_on", "saucer_small")),
              Step(4.0, ev.HyperspaceEntered(0.0, 0.0))]
    return steps
