"""Replays: record a game as seed + config + inputs, save it, load it, verify it bit for bit.

Pure (never imports arcade)::

    recorder = Recorder(config, seed)
    world, events = step(world, mask, config); recorder.add(mask, world)   # every tick
    save_replay(recorder.finish(world), path)
    result = verify_replay(load_replay(path))   # result.ok, result.first_bad_tick, ...

A two-player match is the same with ``Recorder(config, seed, players=2)`` and the Match
instead of the World (``asteroids.core.play`` is the seam both go through).

The file format is described in ``docs/replay-format.md``.
"""

from asteroids.replay.changes import ConfigChange
from asteroids.replay.files import load_replay, save_replay
from asteroids.replay.format import (
    CHECKPOINT_EVERY,
    FORMAT_VERSION,
    MAX_REPLAY_BYTES,
    NON_RULE_TABLES,
    RULE_TABLES,
    Replay,
    ReplayError,
    rules_fingerprint,
)
from asteroids.replay.record import Recorder, bot_names, get_bot, record_bot_game
from asteroids.replay.verify import VerifyResult, verify_replay, world_diff

__all__ = [
    "CHECKPOINT_EVERY",
    "ConfigChange",
    "FORMAT_VERSION",
    "MAX_REPLAY_BYTES",
    "NON_RULE_TABLES",
    "RULE_TABLES",
    "Recorder",
    "Replay",
    "ReplayError",
    "VerifyResult",
    "bot_names",
    "get_bot",
    "load_replay",
    "record_bot_game",
    "rules_fingerprint",
    "save_replay",
    "verify_replay",
    "world_diff",
]
