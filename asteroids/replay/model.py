"""What a replay is: the ``Replay`` record, ``ReplayError``, and the numbers of the format.

The versions a file may have, the longest game it holds, how often it checkpoints: shared by
the reader and writer of the file (``asteroids.replay.format``), the checks of its header
(``asteroids.replay.header``), the recorder, the verifier and the bounds on their work
(``asteroids.replay.work``). Pure: no file, no arcade.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass

from asteroids.config import Config
from asteroids.core.world import FIELD_NAMES
from asteroids.replay.changes import ConfigChange, config_at

__all__ = [
    "CHECKPOINT_EVERY",
    "DEFAULT_MAX_TICKS",
    "FORMAT_CHANGES",
    "FORMAT_PLAIN",
    "FORMAT_VERSION",
    "HEX32",
    "MAX_CHECKPOINT_EVERY",
    "MAX_HASH_GAP",
    "MAX_TICKS",
    "Replay",
    "ReplayError",
]

FORMAT_VERSION = 3
"""The format this version writes, for every game: format 2's header, where
``config_changes`` and ``players`` are both optional, and settings that may hold knobs
asteroids 0.1.0 did not know (``rules_version`` first). A 0.1.0 game meeting it says that a
newer version wrote it, instead of misreading it."""
FORMAT_PLAIN = 1
"""asteroids 0.1.0's format of a one-player game whose settings never changed."""
FORMAT_CHANGES = 2
"""asteroids 0.1.0's format of a game tuned while it ran (``config_changes``) or of a
two-player match (``players``)."""
MAX_TICKS = 17_280_000
"""Longest game the format holds: 10 hours at the highest tick rate (480 Hz). ``verify``
and ``watch`` replay at most ``DEFAULT_MAX_TICKS`` unless told more (``--max-ticks``)."""
DEFAULT_MAX_TICKS = 1_000_000
"""Longest game ``verify`` and ``watch`` replay unless ``--max-ticks`` raises it: 4 h 37 min
of play at 60 Hz (4 h 26 min at the classic 62.5 Hz), about 80 s of ``verify`` for a game of
the presets on the reference machine (docs/replay-format.md, *The work of a replay*). It
bounds the total work of a replay as the budget of docs/limits.md bounds a tick's."""
CHECKPOINT_EVERY = 600
"""Ticks between state-hash checkpoints (10 s at 60 Hz). Verification re-simulates at most
this many ticks again to find the first divergent tick."""
MAX_CHECKPOINT_EVERY = 1_000_000
"""Sparsest checkpoints a file may have. Every version of asteroids writes
``CHECKPOINT_EVERY``; sparser ones (the library's ``Recorder(every=...)``) are verified
against every tick's hash byte instead (``MAX_HASH_GAP``)."""
MAX_HASH_GAP = CHECKPOINT_EVERY
"""Most ticks a verification re-simulates without comparing a recorded hash: checkpoints
when they are at most this far apart, else every tick's hash byte. So a replay that does not
match (a forgery) fails within this many ticks, however long it says it is."""
HEX32 = re.compile(r"[0-9a-f]{32}")
"""A 128-bit digest as text, as the file writes every one: the checksum, the rules
fingerprint and the state hashes."""


class ReplayError(Exception):
    """A replay file that cannot be used; ``str(e)`` is one paragraph naming file and problem.

    Attributes:
        path: the file, as given.
        problem: the problem alone, a sentence.
    """

    def __init__(self, path: str, problem: str) -> None:
        self.path = path
        self.problem = problem
        super().__init__(f"{path}: {problem}")


@dataclass(frozen=True)
class Replay:
    """One recorded game: everything needed to play it again, bit for bit.

    Build one with ``Recorder`` (or ``load_replay``); ``masks[i]`` is the input the core was
    given for the step from tick ``i`` to tick ``i + 1``.
    """

    seed: int
    config: Config
    """The full resolved config (stored as TOML text in the file)."""
    masks: bytes
    """One input mask per tick; ``len(masks) == ticks``."""
    checkpoints: tuple[tuple[int, str], ...]
    """(tick, state_hash) at tick 0 and every ``checkpoint_every`` ticks."""
    final_hash: str
    final_score: int
    final_wave: int
    created_at: str
    """ISO 8601 UTC, e.g. ``2026-05-01T12:00:00Z``."""
    game_version: str
    rules: str
    """Rules fingerprint of ``config`` (``rules_fingerprint``)."""
    tick_hz: float
    checkpoint_every: int = CHECKPOINT_EVERY
    tick_hashes: bytes = b""
    """The first byte of the state hash after every tick (``len == ticks``), so a
    verification can name the first tick that differs, not only the checkpoint."""
    checkpoint_digests: tuple[bytes, ...] = ()
    """Per checkpoint, one byte per World field (``field_names``), so a verification can
    name the fields that differ at the first divergent checkpoint."""
    field_names: tuple[str, ...] = FIELD_NAMES
    config_changes: tuple[ConfigChange, ...] = ()
    """Rule settings changed during the game, in tick order (format 2; empty: format 1)."""
    players: int = 1
    """1, or 2 for a two-player match (``asteroids.core.match``; format 2): then the masks
    drive the match, the hashes are ``match_hash`` values, ``final_score`` and ``final_wave``
    are the best of the players' and ``final_scores`` has each player's. A two-player replay
    has no ``config_changes``."""
    final_scores: tuple[int, ...] = ()
    """Each player's final score, in player order (two-player replays only)."""
    format: int = FORMAT_VERSION
    """The format of the file it was read from (``FORMAT_PLAIN`` and ``FORMAT_CHANGES`` are
    those of asteroids 0.1.0); ``encode_replay`` always writes ``FORMAT_VERSION``."""

    @property
    def ticks(self) -> int:
        """Ticks in the game (one input mask each)."""
        return len(self.masks)

    @property
    def rules_version(self) -> int:
        """The rules version (compatibility level) the game was played under."""
        return self.config.rules_version

    def config_at(self, tick: int) -> Config:
        """The settings of the step from ``tick`` to ``tick + 1`` (``masks[tick]``)."""
        if not self.config_changes:
            return self.config
        return config_at(self.config, self.config_changes, tick)

    def same_game(self, other: Replay) -> bool:
        """Whether two replays record the same game: everything but when, by which version
        of the program and in which file format they were written, and the per-field digests
        that only explain a mismatch (their field list grows when the World gains a field;
        the state hashes, which decide, are compared)."""
        ignore = {"created_at", "game_version", "format", "field_names", "checkpoint_digests"}
        return all(getattr(self, f.name) == getattr(other, f.name)
                   for f in dataclasses.fields(self) if f.name not in ignore)
