"""The hot path's shortcuts give exactly what the general code gives.

``step`` runs tens of thousands of times per replay verification, so a few of its pieces skip
work the general functions do (validation the caller already guarantees, copies of unchanged
fields). Each shortcut is compared here with the general function it stands for, on many
random scenes, bit for bit.
"""

from __future__ import annotations

import numpy as np
import pytest

from asteroids.core import new_world, simulation, state_hash, step
from asteroids.core.bot import bot_input
from asteroids.core.geometry import transform_outlines
from asteroids.core.tables import COS, HEADING_STEPS, SIN
from asteroids.core.world import _ARRAY_FIELDS, FIELD_NAMES, Draft, World

from .bot_game import preset


def _bot_worlds(name: str, seed: int, ticks: int) -> list[World]:
    cfg = preset(name)
    w = new_world(cfg, seed)
    out = [w]
    for _ in range(ticks):
        w, _ = step(w, bot_input(w, cfg.world.width_px, cfg.world.height_px), cfg)
        out.append(w)
    return out


@pytest.mark.parametrize("name", ["classic", "arena"])
def test_draft_freeze_is_the_dataclass_constructor(name: str) -> None:
    """``Draft.freeze`` stores fields without the dataclass ``__init__``: the World it builds
    has the same fields (same objects) as ``World(**fields)`` and every array read-only, so a
    rule that wrote into an old state would still fail loudly."""
    for world in _bot_worlds(name, 3, 300):
        d = Draft(world)
        d.ast_pos = d.ast_pos + 0.0  # one replaced (writeable) array, the rest shared
        fast = d.freeze()
        slow = World(**{n: getattr(d, n) for n in FIELD_NAMES})
        assert all(getattr(fast, n) is getattr(slow, n) for n in FIELD_NAMES)
        assert state_hash(fast) == state_hash(slow)
        for n in _ARRAY_FIELDS:
            assert not getattr(fast, n).flags.writeable, n
        with pytest.raises(ValueError, match="read-only"):
            fast.ast_pos[...] = np.zeros_like(fast.ast_pos)


@pytest.mark.parametrize("name", ["classic", "default", "arena"])
def test_asteroid_outlines_are_transform_outlines(name: str) -> None:
    """The step's own outline transform (no validation, cached point-to-body index) gives
    ``transform_outlines``' bits, for all rocks and for random subsets of them."""
    rng = np.random.default_rng(5)
    for world in _bot_worlds(name, 11, 400)[::7]:
        d = Draft(world)
        n = d.ast_id.shape[0]
        if n == 0:
            continue
        ang = d.ast_angle % HEADING_STEPS
        cs = np.stack([COS[ang], SIN[ang]], axis=1)
        general = transform_outlines(d.ast_pos, cs, d.ast_local, d.ast_offsets)
        assert simulation._asteroid_outlines(d).tobytes() == general.tobytes()
        index = np.flatnonzero(rng.random(n) < 0.5)
        pts, offs = simulation._outlines_of(d, index)
        counts = np.diff(d.ast_offsets)[index]
        assert offs.tolist() == [0, *np.cumsum(counts).tolist()]
        rows = np.concatenate([np.arange(d.ast_offsets[i], d.ast_offsets[i + 1])
                               for i in index] or [np.zeros(0, dtype=np.int64)])
        assert pts.tobytes() == general[rows].tobytes()
