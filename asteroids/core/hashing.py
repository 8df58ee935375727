"""Hashes of the game's state: the yardstick of determinism and replays, and their one encoder.

Every hashed value goes through ``value_bytes``: integers (and bools) as 16 little-endian
signed bytes, floats as little-endian float64 with ``-0.0`` folded into ``0.0``, arrays as
their elements the same way (int64 or float64). Python's ``hash()`` is never used (it is
salted per process for str and bytes). What each hash frames around those bytes:

- ``state_hash``: every World field in the fixed order of ``World``'s declaration, an array
  preceded by its element count (int64); a field added after the first release goes in only
  while it is not at its neutral value (``NEUTRAL``), so every older game keeps its hashes;
- ``field_digests``: one byte per field (the first byte of a BLAKE2b digest), an array's bytes
  preceded by its row count: enough to say which fields differ;
- ``asteroids.core.match.match_hash`` and ``match_field_digests``: the same for a Match, its
  own fields then each World's.
"""

from __future__ import annotations

import hashlib
import struct

import numpy as np

from asteroids.core.world import FIELD_NAMES, NEUTRAL, World

__all__ = ["digest_byte", "field_digests", "state_hash", "value_bytes"]

_COUNT = struct.Struct("<q").pack
_FLOAT = struct.Struct("<d").pack


def value_bytes(value: object, name: str | None = None) -> bytes:
    """The canonical bytes of one hashed value (an int, bool, float or numpy array).

    Args:
        value: the value.
        name: when given, a NaN or infinite float in ``value`` raises, naming it (a broken
            state must not get a hash that looks valid).

    Raises:
        ValueError: ``non-finite value in NAME``.
    """
    if isinstance(value, np.ndarray):
        if value.dtype.kind == "f":
            if name is not None and not np.isfinite(value).all():
                raise ValueError(f"non-finite value in {name}")
            return np.ascontiguousarray(value + 0.0, dtype="<f8").tobytes()
        return np.ascontiguousarray(value, dtype="<i8").tobytes()
    if isinstance(value, float):
        if name is not None and (value != value or value in (float("inf"), float("-inf"))):
            raise ValueError(f"non-finite value in {name}")
        return _FLOAT(value + 0.0)
    return int(value).to_bytes(16, "little", signed=True)  # type: ignore[call-overload]


def digest_byte(data: bytes) -> int:
    """One byte that names ``data``: the first of its BLAKE2b digest."""
    return hashlib.blake2b(data, digest_size=1).digest()[0]


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
            h.update(_COUNT(value.size))
        h.update(value_bytes(value, f"world.{name}"))
    return h.hexdigest()


def field_digests(world: World) -> bytes:
    """One byte per World field (in ``FIELD_NAMES`` order) from a digest of its value, with
    the same canonical bytes as ``state_hash``: enough to say which fields differ."""
    out = bytearray()
    for name in FIELD_NAMES:
        value = getattr(world, name)
        data = value_bytes(value)
        if isinstance(value, np.ndarray):
            data = len(value).to_bytes(8, "little") + data
        out.append(digest_byte(data))
    return bytes(out)


def _neutral(value: object, neutral: object) -> bool:
    if isinstance(value, np.ndarray):
        return bool((value == neutral).all())
    return bool(value == neutral)
