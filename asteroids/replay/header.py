"""The header of a replay file, read: every field's type and range checked, into a ``Replay``.

``asteroids.replay.format`` checks the file as a whole (its first line, its checksum) and
parses the header, the TOML document between them; ``replay_from_header`` makes the game of
it or says, in one sentence, the first thing wrong: a missing or unknown key, a value out of
range, settings that are not valid or that a newer version wrote, inputs or checkpoints that
do not match the tick count, a rules fingerprint that does not match the settings.
"""

from __future__ import annotations

import base64
import datetime as _dt
import re
import tomllib
import zlib
from typing import Any

from asteroids import __version__
from asteroids.config import ConfigError, bounded, load_config_text
from asteroids.config.compat import rules_fingerprint
from asteroids.config.declare import version_key
from asteroids.config.schema import RULES_VERSION
from asteroids.messages import clip, count, one_line, quote
from asteroids.replay.changes import ConfigChange, decode_changes
from asteroids.replay.masks import decode_masks
from asteroids.replay.model import (
    FORMAT_CHANGES,
    FORMAT_PLAIN,
    HEX32,
    MAX_CHECKPOINT_EVERY,
    MAX_TICKS,
    Replay,
)
from asteroids.replay.work import too_long

__all__ = ["SEED_RANGE", "replay_from_header"]

SEED_RANGE = (-(2**63), 2**64 - 1)
"""Lowest and highest seed a replay holds (both included): any 64-bit integer, signed or
not (the batched core's ``SEED_RANGE``)."""
_MAX_SCORE = 2**63 - 1
_HEADER_KEYS = {
    "format", "game_version", "rules", "seed", "tick_hz", "created_at", "ticks",
    "final_score", "final_wave", "final_hash", "checkpoint_every", "checkpoint_fields",
    "checkpoints", "inputs", "tick_hashes", "config",
}
_CHANGES_KEY = "config_changes"
_MATCH_KEYS = {"players", "final_scores"}
"""Header keys of two-player files (format 2) only."""


def replay_from_header(doc: dict[str, Any], bad: Any, version: int,
                       max_ticks: int) -> Replay:
    """The ``Replay`` a file's parsed header ``doc`` describes, every field checked.

    Args:
        doc: the TOML document after the magic line (its checksum already matched).
        bad: makes the ``ReplayError`` to raise from a problem, a sentence.
        version: the format the first line names (one this version reads).
        max_ticks: the longest game accepted; a longer one is refused before its
            inputs are decoded.
    """
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
    rules = string("rules", HEX32)
    seed = integer("seed", *SEED_RANGE)
    players, final_scores = _players(doc, bad)
    ticks = integer("ticks", 0, MAX_TICKS)
    if ticks > max_ticks:
        raise bad(too_long(ticks, max_ticks, doc["tick_hz"]))
    final_score = integer("final_score", 0, _MAX_SCORE)
    final_wave = integer("final_wave", 0, 2**31)
    final_hash = string("final_hash", HEX32)
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
                or cp[0] != want or not isinstance(cp[1], str) or not HEX32.fullmatch(cp[1])
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


def _show(value: Any, limit: int = 40) -> str:
    text = repr(value)
    return clip(text, limit)
