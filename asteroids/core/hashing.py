"""A canonical hash of the whole world: the yardstick of determinism and replays.

Every field goes in, in the fixed order of ``World``'s declaration, as explicit
little-endian bytes: integers as int64, floats as float64 with ``-0.0`` folded into ``0.0``.
Python's ``hash()`` is never used (it is salted per process for str and bytes). A field added
after the first release goes in only while it is not at its neutral value (``NEUTRAL``), so
every older game keeps its hashes.
"""

from __future__ import annotations

import hashlib
import struct

import numpy as np

from asteroids.core.world import FIELD_NAMES, NEUTRAL, World

__all__ = ["state_hash"]


def state_hash(world: World) -> str:
    """A 32-hex-digit digest of every field of ``world``.

    Raises:
        ValueError: if any float in the world is NaN or infinite (a broken state must not
            get a hash that looks valid).
    """
    h = hashlib.blake2b(digest_size=16)
    for name in FIELD_NAMES:
        value = getattr(world, name)
        if name in NEUTRAL and _neutral(value, NEUTRAL[name]):
            continue
        if isinstance(value, np.ndarray):
            if value.dtype.kind == "f":
                if not np.isfinite(value).all():
                    raise ValueError(f"non-finite value in world.{name}")
                data = np.ascontiguousarray(value + 0.0, dtype="<f8")
            else:
                data = np.ascontiguousarray(value, dtype="<i8")
            h.update(struct.pack("<q", data.size))
            h.update(data.tobytes())
        elif isinstance(value, float):
            if value != value or value in (float("inf"), float("-inf")):
                raise ValueError(f"non-finite value in world.{name}")
            h.update(struct.pack("<d", value + 0.0))
        else:  # int or bool
            h.update(int(value).to_bytes(16, "little", signed=True))
    return h.hexdigest()


def _neutral(value: object, neutral: object) -> bool:
    if isinstance(value, np.ndarray):
        return bool((value == neutral).all())
    return bool(value == neutral)
