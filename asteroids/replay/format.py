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

Here: the file as bytes, written and read as a whole (the magic line, the checksum, the
parsing of the header). What a replay is and the numbers of the format are in
``asteroids.replay.model``; the header's fields are checked by ``asteroids.replay.header``.
Every name the format had is still importable from here.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import tomllib
import zlib

from asteroids import __version__
from asteroids.config import bounded, render_toml
from asteroids.config.compat import rules_fingerprint
from asteroids.config.schema import MATCH_TABLES, NON_RULE_TABLES, RULE_TABLES
from asteroids.core.hashing import field_digests
from asteroids.replay.changes import encode_changes
from asteroids.replay.header import replay_from_header
from asteroids.replay.masks import encode_masks
from asteroids.replay.model import (
    CHECKPOINT_EVERY,
    DEFAULT_MAX_TICKS,
    FORMAT_CHANGES,
    FORMAT_PLAIN,
    FORMAT_VERSION,
    HEX32,
    MAX_CHECKPOINT_EVERY,
    MAX_HASH_GAP,
    MAX_TICKS,
    Replay,
    ReplayError,
)

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

_READABLE = (FORMAT_PLAIN, FORMAT_CHANGES, FORMAT_VERSION)
MAGIC = "asteroids-replay"
"""The first word of every replay file; the format version follows on the same line."""
MAX_REPLAY_BYTES = 4 * 1024 * 1024
"""Largest replay file read (4 MiB). A 10-minute bot game is about 72 KB; an hour of play
stays far below this, and the cap keeps a hostile file from eating memory."""
_CHECKSUM_PREFIX = "checksum blake2b-128 "
_GAME_VERSION_LINE = re.compile(rb'^game_version = "([0-9A-Za-z.+_-]{1,64})"$', re.MULTILINE)


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
    if not HEX32.fullmatch(last):
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
    return replay_from_header(doc, bad, int(version), min(max_ticks, MAX_TICKS))


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
