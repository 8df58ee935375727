"""Rules across versions: the rules fingerprint, computed the same for every version's files.

A game's rules are its rule settings (``RULE_TABLES``, plus ``MATCH_TABLES`` for a two-player
game). A knob added after the first release declares a ``before`` value, the one that plays
as the game did without it (``asteroids.config.declare.knob``). The canonical rules leave out
every such knob that is at its ``before`` value, so:

- a replay, or a high-score table's ruleset, recorded by a version that did not have the knob
  (its stored settings lack it) keeps the fingerprint it was recorded with: the settings
  read back from the file, with the knob at ``before``, hash to exactly what was stored;
- a game of today with the knob at ``before`` plays as the old version did, and has the same
  fingerprint as the old games, so it is ranked in the same table;
- a game with the knob set otherwise plays other rules, and has another fingerprint.

The fingerprint is BLAKE2b-128 of the canonical rules as JSON (sorted keys, floats written
with ``repr`` so every bit counts). No arcade, no numpy.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from typing import Any

from asteroids.config.knobs import knobs
from asteroids.config.schema import MATCH_TABLES, RULE_TABLES, Config

__all__ = ["canonical_rules", "rules_fingerprint"]


def _plain(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def _at_before(meta: Any, value: Any) -> bool:
    if "before" not in meta:
        return False
    before = meta["before"]
    return type(before) is type(value) and before == value


def _table(obj: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for knob in knobs(type(obj)):
        value = getattr(obj, knob.name)
        if knob.kind == "table":
            sub = _table(value)
            if sub or not knob.cls or not _all_new(knob.cls):
                out[knob.name] = sub
        elif not _at_before(knob.meta, value):
            out[knob.name] = _plain(value)
    return out


def _all_new(cls: type) -> bool:
    """Whether every knob of a table arrived after the first release (a whole new table
    left out of the rules of a game that uses none of it)."""
    return all(_all_new(k.cls) if k.kind == "table" and k.cls else "before" in k.meta
               for k in knobs(cls))


def canonical_rules(config: Config, players: int = 1) -> dict[str, Any]:
    """The rule settings of ``config`` as plain data, without the knobs that are at their
    ``before`` value (see the module docstring).

    Args:
        config: the settings.
        players: 2 adds the two-player ``MATCH_TABLES``.
    """
    names = RULE_TABLES + (MATCH_TABLES if players > 1 else ())
    by_name = {k.name: k for k in knobs(Config)}
    tree: dict[str, Any] = {}
    for name in names:
        knob = by_name[name]
        value = getattr(config, name)
        if knob.kind == "table":
            sub = _table(value)
            if sub or not knob.cls or not _all_new(knob.cls):
                tree[name] = sub
        elif not _at_before(knob.meta, value):
            tree[name] = _plain(value)
    return tree


def rules_fingerprint(config: Config, players: int = 1) -> str:
    """A 32-hex-digit digest of the settings that change how the game plays.

    Only the rule tables count, and for a two-player game the match tables too: rebinding a
    key or turning the volume down keeps a replay's fingerprint; changing the ship's thrust
    changes it. A knob at its ``before`` value does not count, so a rules fingerprint never
    changes when the game gains a knob (see the module docstring).
    """
    text = json.dumps(canonical_rules(config, players), sort_keys=True, separators=(",", ":"),
                      allow_nan=False)
    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).hexdigest()
