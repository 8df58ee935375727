"""TEMP stand-in for the replay API (replaced by i9-replay on merge). Same names, JSON inside."""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from asteroids import __version__
from asteroids.config import Config, ConfigError, load_config, render_toml
from asteroids.core import World, new_world, state_hash, step

__all__ = ["CHECKPOINT_EVERY", "MAX_REPLAY_BYTES", "Recorder", "Replay", "ReplayError",
           "VerifyResult", "load_replay", "save_replay", "verify_replay"]

CHECKPOINT_EVERY = 300
MAX_REPLAY_BYTES = 8 << 20


class ReplayError(Exception):
    """A replay file that cannot be used; str() names the file and the problem."""


@dataclass(frozen=True)
class Replay:
    seed: int
    config: Config
    masks: bytes
    checkpoints: tuple[tuple[int, str], ...]
    final_hash: str
    final_score: int
    final_wave: int
    created_at: str
    game_version: str
    rules: str
    tick_hz: float

    @property
    def ticks(self) -> int:
        return len(self.masks)


@dataclass(frozen=True)
class VerifyResult:
    ok: bool
    first_bad_tick: int | None = None


class Recorder:
    """Feed it exactly what the core was given."""

    def __init__(self, config: Config, seed: int, *, every: int = CHECKPOINT_EVERY) -> None:
        self.config, self.seed, self.every = config, seed, every
        self.masks = bytearray()
        self.checkpoints: list[tuple[int, str]] = []

    def add(self, mask: int, world_after: World) -> None:
        self.masks.append(mask)
        if len(self.masks) % self.every == 0:
            self.checkpoints.append((len(self.masks), state_hash(world_after)))

    def finish(self, world: World) -> Replay:
        return Replay(self.seed, self.config, bytes(self.masks), tuple(self.checkpoints),
                      state_hash(world), int(world.score), int(world.wave),
                      datetime.now(UTC).isoformat(timespec="seconds"), __version__, "stand-in",
                      float(self.config.world.tick_hz))


def save_replay(replay: Replay, path: str | os.PathLike[str]) -> Path:
    out = Path(path)
    data = {k: getattr(replay, k) for k in ("seed", "final_hash", "final_score", "final_wave",
                                            "created_at", "game_version", "rules", "tick_hz")}
    data["masks"] = replay.masks.hex()
    data["checkpoints"] = [list(c) for c in replay.checkpoints]
    data["config"] = render_toml(replay.config, with_comments=False)
    fd, tmp = tempfile.mkstemp(dir=out.parent, prefix=f".{out.name}.")
    try:
        with os.fdopen(fd, "w") as f:
            json.dump(data, f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, out)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return out


def load_replay(path: str | os.PathLike[str]) -> Replay:
    p = Path(path)
    try:
        data = json.loads(p.read_text())
        with tempfile.TemporaryDirectory() as d:
            (Path(d) / "c.toml").write_text(data["config"])
            config = load_config(Path(d) / "c.toml")
        return Replay(int(data["seed"]), config, bytes.fromhex(data["masks"]),
                      tuple((int(t), str(h)) for t, h in data["checkpoints"]),
                      data["final_hash"], data["final_score"], data["final_wave"],
                      data["created_at"], data["game_version"], data["rules"],
                      float(data["tick_hz"]))
    except (OSError, ValueError, KeyError, TypeError, ConfigError) as exc:
        raise ReplayError(f"{p}: not a usable replay file ({type(exc).__name__}: {exc})") from exc


def verify_replay(replay: Replay) -> VerifyResult:
    world = new_world(replay.config, replay.seed)
    marks = dict(replay.checkpoints)
    for i, mask in enumerate(replay.masks, start=1):
        world, _ = step(world, mask, replay.config)
        if i in marks and marks[i] != state_hash(world):
            return VerifyResult(False, i)
    ok = state_hash(world) == replay.final_hash
    return VerifyResult(ok, None if ok else replay.ticks)
