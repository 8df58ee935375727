"""Item 5 of issue 9: the window runs the same game as the core.

The real PlayView is driven headless with 30, 60 and 144 Hz frames, seeded jittered frames and
a single 0.5 s hitch, while the SAME per-tick inputs are injected through a scripted tick
source (indexed by tick, so frame timing cannot change which tick gets which mask). The tick
stream (mask and state hash per tick) must equal the pure core's, and the Recorder's replay
of the View game must hold exactly those masks and verify.
"""

from __future__ import annotations

import random

import pytest

from asteroids.app.play_view import PlayView
from asteroids.app.router import open_shell
from asteroids.config import Config
from asteroids.core import World, new_world, state_hash, step
from asteroids.replay import load_replay, verify_replay

pytestmark = pytest.mark.gl

TICKS = 900
"""15 s of game at 60 Hz: waves of shots, deaths and respawns in most seeds."""

SEED = 4242


def scripted_masks(n: int, seed: int) -> list[int]:
    """Plausible play: held buttons that change every few ticks, fire taps, rare hyperspace."""
    rng = random.Random(seed)
    masks, held = [], 0
    for _ in range(n):
        if rng.random() < 0.15:
            held = rng.choice([0, 1, 2, 4, 1 | 2, 1 | 4, 2, 4])  # thrust / left / right
        mask = held | (8 if rng.random() < 0.3 else 0)       # fire taps
        if rng.random() < 0.004:
            mask |= 16                                          # hyperspace
        masks.append(mask)
    return masks


def core_stream(config: Config, seed: int, masks: list[int]) -> list[tuple[int, str]]:
    """(mask, state hash after the tick) per tick, from the pure core alone."""
    world = new_world(config, seed)
    out = []
    for mask in masks:
        world, _ = step(world, mask, config)
        out.append((mask, state_hash(world)))
    return out


def frame_times(kind: str) -> list[float]:
    """Frame lengths in seconds for one way of presenting frames (enough for TICKS ticks)."""
    if kind in ("30", "60", "144"):
        return [1.0 / int(kind)] * int(TICKS / 60 * int(kind) + 60)
    rng = random.Random(7)
    if kind == "jitter":  # 4..40 ms, seeded
        return [rng.uniform(0.004, 0.040) for _ in range(TICKS)]
    if kind == "hitch":  # 60 Hz with one 0.5 s stall in the middle
        return [1 / 60] * 400 + [0.5] + [1 / 60] * (TICKS + 60)
    raise ValueError(kind)


class ScriptedSource:
    """The tick source: gives script[t] for tick t and notes the world it was asked with."""

    def __init__(self, script: list[int]) -> None:
        self.script = script
        self.asked: list[tuple[int, str]] = []

    def __call__(self, world: World) -> int:
        t = len(self.asked)
        self.asked.append((world.tick, state_hash(world)))
        return self.script[t] if t < len(self.script) else 0


@pytest.fixture(scope="module")
def script() -> list[int]:
    return scripted_masks(TICKS, 99)


@pytest.fixture(scope="module")
def expected(config, script) -> list[tuple[int, str]]:
    return core_stream(config, SEED, script)


@pytest.mark.parametrize("kind", ["30", "60", "144", "jitter", "hitch"])
def test_view_tick_stream_equals_the_core_and_its_recording_verifies(
        window, config, script, expected, kind, tmp_path):
    game = open_shell(window, config, seed=SEED, sound=False, record_to=tmp_path / "g.replay")
    source = ScriptedSource(script)
    view = PlayView(game, SEED, source=source)
    window.show_view(view)
    ticks_per_frame = []
    for i, dt in enumerate(frame_times(kind)):
        before = len(view.masks)
        view.on_update(dt)
        ticks_per_frame.append(len(view.masks) - before)
        if i % 25 == 0:
            view.on_draw()  # the real draw path runs between ticks too
        if len(view.masks) >= TICKS:
            break
    n = min(len(view.masks), TICKS)
    assert n == TICKS, f"only {n} ticks ran"
    # The frames really were uneven: frames without ticks (144 Hz, jitter), several ticks in
    # one frame (30 Hz, jitter, hitch).
    if kind in ("144", "jitter"):
        assert 0 in ticks_per_frame
    if kind in ("30", "jitter", "hitch"):
        assert max(ticks_per_frame) >= 2
    # The stream: each tick's mask, and the state after it (the world the next tick was
    # asked with; the last one is the view's world when exactly TICKS ran).
    after = [h for _, h in source.asked[1:]] + [state_hash(view.world)]
    stream = list(zip(view.masks, after, strict=True))[:n]
    assert [m for m, _ in stream] == script[:n]
    first_bad = next((t for t, (a, b) in enumerate(zip(stream, expected, strict=False))
                      if a != b), None)
    assert first_bad is None, f"the view left the core's path at tick {first_bad}"
    # Ticks are whole: the core's own counter went up by one per mask.
    assert [t for t, _ in source.asked] == list(range(len(source.asked)))

    # Leaving the game saves the recording: exactly the masks the core was given, verified.
    window.hide_view()
    assert view.saved is not None and view.saved.ok, view.saved and view.saved.error
    replay = load_replay(view.saved.path)
    assert replay.seed == SEED and replay.config == config
    assert replay.masks == bytes(view.masks)
    assert replay.masks[:TICKS] == bytes(script)
    assert replay.final_hash == state_hash(view.world)
    assert verify_replay(replay).ok
