"""The replay file format, versions 1 and 2: a text file that is a seed, a config and inputs.

Layout (``docs/replay-format.md`` is the full description)::

    asteroids-replay 1                      <- magic line: what the file is, format version
    # comments
    format = 1                              <- TOML header: every field readable as text
    game_version = "0.1.0"
    rules = "<32 hex>"                      <- fingerprint of the rule-affecting settings
    seed = 42
    ...
    checkpoints = [[0, "<hash>", "<field digests>"], [600, ...], ...]
    inputs = <multi-line string: base64 of the run-length encoded masks>
    tick_hashes = <multi-line string: base64, one byte of the state hash per tick>
    config = <multi-line literal string: the full resolved config as TOML>
    checksum blake2b-128 <32 hex>           <- over every byte before this line

Format 2 is format 1 plus what a format 1 reader would misread: ``config_changes``, the
rule settings changed during the game (``asteroids play --live``), one record per change
(``asteroids.replay.changes``); or ``players = 2`` and ``final_scores``, a two-player match
(``asteroids.core.play``). A one-player game without changes is written as format 1,
byte for byte as before.

Reading never executes anything from the file (``tomllib`` and ``base64`` only), refuses
files over ``MAX_REPLAY_BYTES`` before reading them whole, and checks every field's type and
range. A file whose content does not match its own checksum or rules fingerprint is
refused as damaged or edited (``ReplayError``); a well-formed file that re-simulates
differently is a *verification* failure (see ``asteroids.replay.verify``).
"""

from __future__ import annotations

import base64
import dataclasses
import datetime as _dt
import hashlib
import json
import re
import tomllib
import zlib
from dataclasses import dataclass
from typing import Any

from asteroids import __version__
from asteroids.config import Config, ConfigError, bounded, load_config_text, render_toml
from asteroids.config.compat import rules_fingerprint
from asteroids.config.declare import version_key
from asteroids.config.schema import MATCH_TABLES, NON_RULE_TABLES, RULE_TABLES, RULES_VERSION
from asteroids.core.hashing import field_digests
from asteroids.core.world import FIELD_NAMES
from asteroids.messages import clip, count, one_line, quote
from asteroids.replay.changes import ConfigChange, config_at, decode_changes, encode_changes
from asteroids.replay.masks import decode_masks, encode_masks

__all__ = [
    "CHECKPOINT_EVERY",
    "DEFAULT_MAX_TICKS",
    "FORMAT_CHANGES",
    "FORMAT_PLAIN",
    "FORMAT_VERSION",
    "MAGIC",
    "MAX_CHECKPOINT_EVERY",
    "MAX_HASH_GAP",
    "MAX_REPLAY_BYTES",
    "MAX_TICKS",
    "NON_RULE_TABLES",
    "RULE_TABLES",
    "Replay",
    "ReplayError",
    "decode_replay",
    "encode_replay",
    "field_digests",
    "rules_fingerprint",
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
_READABLE = (FORMAT_PLAIN, FORMAT_CHANGES, FORMAT_VERSION)
MAGIC = "asteroids-replay"
"""The first word of every replay file; the format version follows on the same line."""
MAX_REPLAY_BYTES = 4 * 1024 * 1024
"""Largest replay file read (4 MiB). A 10-minute bot game is about 72 KB; an hour of play
stays far below this, and the cap keeps a hostile file from eating memory."""
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

_CHECKSUM_PREFIX = "checksum blake2b-128 "
_HEX32 = re.compile(r"[0-9a-f]{32}")
_SEED_RANGE = (-(2**63), 2**64 - 1)
_MAX_SCORE = 2**63 - 1
_HEADER_KEYS = {
    "format", "game_version", "rules", "seed", "tick_hz", "created_at", "ticks",
    "final_score", "final_wave", "final_hash", "checkpoint_every", "checkpoint_fields",
    "checkpoints", "inputs", "tick_hashes", "config",
}
_GAME_VERSION_LINE = re.compile(rb'^game_version = "([0-9A-Za-z.+_-]{1,64})"$', re.MULTILINE)
_CHANGES_KEY = "config_changes"
_MATCH_KEYS = {"players", "final_scores"}
"""Header keys of two-player files (format 2) only."""


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


def _b64_lines(data: bytes) -> str:
    text = base64.b64encode(data).decode("ascii")
    return "\n".join(text[i:i + 76] for i in range(0, len(text), 76))


# ---------------------------------------------------------------- writing


def encode_replay(replay: Replay) -> bytes:
    """The file's bytes for ``replay`` (see the module docstring for the layout)."""
    config_text = render_toml(replay.config, with_comments=False,
                              skip=MATCH_TABLES if replay.players == 1 else ())
    if "'''" in config_text:  # pragma: no cover - no setting can hold three quotes
        raise ValueError("the config text cannot be embedded in a literal TOML string")
    cps = ",\n".join(
        f'    [{tick}, "{h}", "{d.hex()}"]'
        for (tick, h), d in zip(replay.checkpoints, replay.checkpoint_digests, strict=True)
    )
    version = FORMAT_VERSION
    lines = [
        f"{MAGIC} {version}",
        "# An asteroids replay: the seed, the full settings and one input mask per tick.",
        "# Check it: asteroids verify FILE. Watch it: asteroids watch FILE.",
        "# Format: docs/replay-format.md. Any edit breaks the checksum on the last line.",
        f"format = {version}",
        f"game_version = {json.dumps(replay.game_version)}",
        f'rules = "{replay.rules}"',
        f"seed = {replay.seed}",
        *([f"players = {replay.players}"] if replay.players != 1 else []),
        f"tick_hz = {replay.tick_hz!r}",
        f"created_at = {json.dumps(replay.created_at)}",
        f"ticks = {replay.ticks}",
        f"final_score = {replay.final_score}",
        f"final_wave = {replay.final_wave}",
        *([f"final_scores = [{', '.join(str(s) for s in replay.final_scores)}]"]
          if replay.players != 1 else []),
        f'final_hash = "{replay.final_hash}"',
        f"checkpoint_every = {replay.checkpoint_every}",
        "checkpoint_fields = [" + ", ".join(f'"{n}"' for n in replay.field_names) + "]",
        "checkpoints = [",
        cps,
        "]",
        '# Input masks, run-length encoded (docs/replay-format.md), zlib, base64.',
        'inputs = """',
        _b64_lines(zlib.compress(encode_masks(replay.masks), 9)),
        '"""',
        "# The first byte of the state hash after each tick, base64.",
        'tick_hashes = """',
        _b64_lines(replay.tick_hashes),
        '"""',
        *(encode_changes(replay.config_changes) if replay.config_changes else []),
        "config = '''",
        config_text.rstrip("\n"),
        "'''",
    ]
    body = ("\n".join(lines) + "\n").encode("utf-8")
    checksum = hashlib.blake2b(body, digest_size=16).hexdigest()
    return body + f"{_CHECKSUM_PREFIX}{checksum}\n".encode("ascii")


# ---------------------------------------------------------------- reading


def _older_formats() -> str:
    """The older formats still read, as words (``files of formats 1 and 2``)."""
    older = [str(v) for v in _READABLE if v != FORMAT_VERSION]
    if not older:
        return "no older format"
    words = older[0] if len(older) == 1 else f"{', '.join(older[:-1])} and {older[-1]}"
    return f"files of format{'s' if len(older) > 1 else ''} {words}"


def decode_replay(data: bytes, path: str, *, max_ticks: int = MAX_TICKS) -> Replay:
    """Parse and check a replay file's bytes; every problem is a ``ReplayError``.

    Args:
        data: the whole file (the caller has already refused oversized files).
        path: the file's name, for messages.
        max_ticks: the longest game accepted (``verify`` and ``watch`` give
            ``DEFAULT_MAX_TICKS`` or ``--max-ticks``); a longer one is refused before its
            inputs are decoded.
    """
    def bad(problem: str) -> ReplayError:
        return ReplayError(path, problem)

    if not data:
        raise bad("the file is empty, so it is not an asteroids replay.")
    first, sep, _ = data[:200].partition(b"\n")
    word, _, version = first.decode("latin-1").strip().partition(" ")
    if word != MAGIC:
        raise bad(f"this is not an asteroids replay (a replay's first line is "
                  f"'{MAGIC} {FORMAT_VERSION}'; {_older_formats()} are read too).")
    if not sep or not re.fullmatch(r"[0-9]{1,9}", version):
        raise bad("the first line is damaged: it should name the replay format version, "
                  f"e.g. '{MAGIC} {FORMAT_VERSION}'.")
    readable = ", ".join(str(v) for v in _READABLE)
    if int(version) > FORMAT_VERSION:
        raise bad(f"the replay was written by a newer version of asteroids "
                  f"({_peek_version(data)}replay format {int(version)}; this is asteroids "
                  f"{__version__}, which reads formats {readable}). Update the game to "
                  "verify or watch it.")
    if int(version) not in _READABLE:
        raise bad(f"replay format {int(version)} is not supported (this version reads "
                  f"formats {readable} only).")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise bad(f"the file is damaged: byte {exc.start} is not valid UTF-8 text.") from None
    body, last = _split_checksum(text)
    if last is None:
        raise bad("the file is truncated: it does not end with its checksum line, so part "
                  "of the game is missing.")
    if not _HEX32.fullmatch(last):
        raise bad("the file is damaged: its checksum line is not a 32-digit hex digest.")
    if hashlib.blake2b(body.encode("utf-8"), digest_size=16).hexdigest() != last:
        raise bad("the file was damaged or edited after it was written: its content does not "
                  "match the checksum on its last line.")
    try:
        doc = bounded.loads(body.partition("\n")[2])
    except bounded.TomlLimitError as exc:
        line = f" (line {exc.line + 1})" if exc.line is not None else ""
        raise bad(f"the header cannot be read: {exc.reason}{line}.") from None
    except tomllib.TOMLDecodeError as exc:
        raise bad(f"the header is not valid TOML ({exc}).") from None
    return _from_doc(doc, bad, int(version), min(max_ticks, MAX_TICKS))


def _peek_version(data: bytes) -> str:
    """``"asteroids 0.9.0, "`` from a header the reader will not parse (a newer format), or
    "" when the header does not say."""
    found = _GAME_VERSION_LINE.search(data[:4096])
    return f"asteroids {found.group(1).decode('ascii')}, " if found else ""


def _split_checksum(text: str) -> tuple[str, str | None]:
    if not text.endswith("\n"):
        return text, None
    head, sep, last = text[:-1].rpartition("\n")
    if not sep or not last.startswith(_CHECKSUM_PREFIX):
        return text, None
    return head + "\n", last[len(_CHECKSUM_PREFIX):]


def _from_doc(doc: dict[str, Any], bad: Any, version: int, max_ticks: int) -> Replay:
    plain = version == FORMAT_PLAIN
    keys = _HEADER_KEYS if plain else _HEADER_KEYS | {_CHANGES_KEY} | _MATCH_KEYS
    missing = sorted(_HEADER_KEYS - doc.keys())
    if missing:
        raise bad(f"the header lacks {', '.join(missing)}.")
    extra = sorted(doc.keys() - keys)
    if extra:
        raise bad(f"the header has unknown keys: {_key_list(extra)}.")
    if version == FORMAT_CHANGES and _CHANGES_KEY not in doc and not _MATCH_KEYS & doc.keys():
        raise bad(f"the header lacks {_CHANGES_KEY} (or players, for a two-player match): a "
                  f"format {version} replay has at least one of them.")
    if _CHANGES_KEY in doc and _MATCH_KEYS & doc.keys():
        raise bad(f"a two-player replay cannot have {_CHANGES_KEY} (its settings never change "
                  "during the game).")

    def integer(key: str, lo: int, hi: int) -> int:
        value = doc[key]
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            raise bad(f"'{key}' must be an integer in [{lo}, {hi}]; got {_show(value)}.")
        return value

    def string(key: str, pattern: re.Pattern[str] | None = None, limit: int = 64) -> str:
        value = doc[key]
        if not isinstance(value, str) or len(value) > limit or (
                pattern is not None and not pattern.fullmatch(value)):
            raise bad(f"'{key}' is not a valid value; got {_show(value)}.")
        return value

    if integer("format", 0, 2**31) != version:
        raise bad(f"the header says format {doc['format']} but the first line says "
                  f"{version}.")
    game_version = string("game_version", re.compile(r"[0-9A-Za-z.+_-]+"))
    rules = string("rules", _HEX32)
    seed = integer("seed", *_SEED_RANGE)
    players, final_scores = _players(doc, bad)
    ticks = integer("ticks", 0, MAX_TICKS)
    if ticks > max_ticks:
        raise bad(too_long(ticks, max_ticks, doc["tick_hz"]))
    final_score = integer("final_score", 0, _MAX_SCORE)
    final_wave = integer("final_wave", 0, 2**31)
    final_hash = string("final_hash", _HEX32)
    every = integer("checkpoint_every", 1, MAX_CHECKPOINT_EVERY)
    created_at = string("created_at")
    try:
        stamp = _dt.datetime.fromisoformat(created_at)
    except ValueError:
        raise bad(f"'created_at' is not an ISO 8601 time; got {_show(created_at)}.") from None
    if stamp.tzinfo is None:
        raise bad(f"'created_at' must say its time zone (UTC); got {_show(created_at)}.")
    tick_hz = doc["tick_hz"]
    if isinstance(tick_hz, bool) or not isinstance(tick_hz, (int, float)):
        raise bad(f"'tick_hz' must be a number; got {_show(tick_hz)}.")

    names = doc["checkpoint_fields"]
    if (not isinstance(names, list) or not names or len(names) > 1000
            or not all(isinstance(n, str) and re.fullmatch(r"[a-z_0-9]{1,64}", n)
                       for n in names)):
        raise bad("'checkpoint_fields' must be a list of World field names.")

    config_text = doc["config"]
    if not isinstance(config_text, str):
        raise bad("'config' must be the settings as TOML text.")
    try:
        config = load_config_text(config_text, source="config", recorded=True)
    except ConfigError as exc:
        raise bad(_settings_problem(exc, config_text, game_version)) from None
    if rules_fingerprint(config, players) != rules:
        raise bad("its settings do not match its rules fingerprint: the settings or the "
                  "'rules' line were edited.")
    if tick_hz != config.world.tick_hz:  # compared exactly: a huge int never converts
        raise bad(f"'tick_hz' ({_show(tick_hz)}) differs from the settings' world.tick_hz "
                  f"({config.world.tick_hz}).")

    packed = _blob(doc, "inputs", bad)
    try:
        masks = decode_masks(_inflate(packed, ticks), ticks)
    except ValueError as exc:
        raise bad(f"the inputs are damaged: {exc}.") from None
    tick_hashes = _blob(doc, "tick_hashes", bad)
    if len(tick_hashes) != ticks:
        raise bad(f"'tick_hashes' holds {len(tick_hashes)} ticks, the header says {ticks}.")

    cps = doc["checkpoints"]
    expected_ticks = range(0, ticks + 1, every)
    if not isinstance(cps, list) or len(cps) != len(expected_ticks):
        raise bad(f"'checkpoints' must list {len(expected_ticks)} checkpoints (tick 0 and "
                  f"every {every} ticks up to {ticks}).")
    checkpoints: list[tuple[int, str]] = []
    digests: list[bytes] = []
    for want, cp in zip(expected_ticks, cps, strict=True):
        if (not isinstance(cp, list) or len(cp) != 3 or type(cp[0]) is not int
                or cp[0] != want or not isinstance(cp[1], str) or not _HEX32.fullmatch(cp[1])
                or not isinstance(cp[2], str)
                or not re.fullmatch(f"[0-9a-f]{{{2 * len(names)}}}", cp[2])):
            raise bad(f"the checkpoint for tick {want} is damaged; got {_show(cp)}.")
        checkpoints.append((want, cp[1]))
        digests.append(bytes.fromhex(cp[2]))
    if ticks % every == 0 and checkpoints[-1][1] != final_hash:
        raise bad(f"'final_hash' differs from the checkpoint at the last tick ({ticks}).")
    changes: tuple[ConfigChange, ...] = ()
    if _CHANGES_KEY in doc:
        changes = decode_changes(doc[_CHANGES_KEY], config, ticks, bad)

    return Replay(
        seed=seed, config=config, masks=masks, checkpoints=tuple(checkpoints),
        final_hash=final_hash, final_score=final_score, final_wave=final_wave,
        created_at=created_at, game_version=game_version, rules=rules,
        tick_hz=float(tick_hz), checkpoint_every=every, tick_hashes=tick_hashes,
        checkpoint_digests=tuple(digests), field_names=tuple(names), config_changes=changes,
        players=players, final_scores=final_scores, format=version,
    )


def _newer(game_version: str) -> bool:
    """Whether ``game_version`` names a later release than this one."""
    try:
        return version_key(game_version) > version_key(__version__)
    except ValueError:
        return False


def _settings_problem(exc: ConfigError, config_text: str, game_version: str) -> str:
    """Why a replay's settings cannot be used: recorded under rules or with settings of a
    newer version of the game (update it), or invalid."""
    first = one_line(str(exc).splitlines()[0], 300)
    update = (f"this is asteroids {__version__}, which plays rules versions 1 to "
              f"{RULES_VERSION}. Update the game to verify or watch it.")
    try:
        rules = bounded.loads(config_text).get("rules_version")
    except (tomllib.TOMLDecodeError, ValueError, RecursionError):
        rules = None
    if type(rules) is int and rules > RULES_VERSION:
        return f"it was recorded by asteroids {game_version} under rules version {rules}; " \
               + update
    if _newer(game_version):
        return (f"it was recorded by asteroids {game_version}, a newer version, with settings "
                f"this version does not know ({first}); " + update)
    return f"its settings are not valid for this version of the game ({first})."


def _players(doc: dict[str, Any], bad: Any) -> tuple[int, tuple[int, ...]]:
    """``players`` and ``final_scores`` (format 2); one player without them (format 1)."""
    if not _MATCH_KEYS & doc.keys():
        return 1, ()
    players = doc.get("players")
    if isinstance(players, bool) or players != 2:
        raise bad(f"'players' must be 2 (a one-player game is written without it); got "
                  f"{_show(players)}.")
    scores = doc.get("final_scores")
    if (not isinstance(scores, list) or len(scores) != players
            or not all(type(s) is int and 0 <= s <= _MAX_SCORE for s in scores)):
        raise bad(f"'final_scores' must list {players} scores, one per player; got "
                  f"{_show(scores)}.")
    return players, tuple(scores)


def _inflate(packed: bytes, ticks: int) -> bytes:
    """zlib-decompress the run-length bytes, never past the most ``ticks`` masks can need
    (a run costs at least one byte and covers at least one tick)."""
    inflater = zlib.decompressobj()
    try:
        data = inflater.decompress(packed, ticks + 16)
    except zlib.error as exc:
        raise ValueError(f"they are not valid zlib data ({exc})") from None
    if inflater.unconsumed_tail or not inflater.eof or inflater.unused_data:
        raise ValueError("the compressed inputs are longer than the header's tick count "
                         "allows, cut off, or followed by extra bytes")
    return data


def _blob(doc: dict[str, Any], key: str, bad: Any) -> bytes:
    value = doc[key]
    if not isinstance(value, str):
        raise bad(f"'{key}' must be base64 text.")
    try:
        return base64.b64decode("".join(value.split()), validate=True)
    except ValueError:
        raise bad(f"'{key}' is damaged: it is not valid base64.") from None


_PLAIN_KEY = re.compile(r"[A-Za-z0-9_-]{1,40}")


def _key_list(keys: list[str], shown: int = 3) -> str:
    """Header keys for a message: plain short ones as they are, others quoted and shortened
    (``asteroids.messages.quote``), past ``shown`` a count: ``a, b, c and 19 997 more``."""
    head = ", ".join(k if _PLAIN_KEY.fullmatch(k) else quote(k) for k in keys[:shown])
    rest = len(keys) - shown
    return head if rest <= 0 else f"{head} and {count(rest)} more"


def play_time(ticks: int, tick_hz: float) -> str:
    """Ticks as hours, minutes and seconds of play: ``4:37:46``."""
    seconds = int(ticks / tick_hz) if tick_hz > 0 else 0
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


def too_long(ticks: int, max_ticks: int, tick_hz: object = None) -> str:
    """Why a game of ``ticks`` ticks is refused under ``max_ticks``, and how to allow it."""
    play = ""
    if isinstance(tick_hz, (int, float)) and not isinstance(tick_hz, bool) \
            and 0 < tick_hz <= 1e6:
        play = f" ({play_time(ticks, tick_hz)} of play at {tick_hz:g} Hz)"
    default = " by default" if max_ticks == DEFAULT_MAX_TICKS else ""
    return (f"the game is {count(ticks)} ticks long{play}, longer than the {count(max_ticks)} "
            f"ticks that verify and watch replay{default} (a bound on their work); if it is a "
            f"real game, allow it with --max-ticks {ticks}.")


def _show(value: Any, limit: int = 40) -> str:
    text = repr(value)
    return clip(text, limit)
