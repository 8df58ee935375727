"""Replays mutated structurally by hypothesis, re-sealed with a correct checksum.

A checksum stops an accident, not a forger: anyone can edit a replay and write a fitting
checksum line. Three real games (one player with the shield, a two-player match, a game
whose rules changed twice while it ran, 300 ticks each) are decoded, mutated the way a
forger would (a header field, a setting, a recorded change, the inputs; either on the
decoded replay and written back with ``encode_replay``, or on a line of its text) and
re-sealed. Reading and verifying each mutant must end in a result (ok or mismatch) or a
``ReplayError`` of one line; anything else fails the test, and hypothesis shrinks it. A
batch of mutants also goes through ``asteroids verify --jobs 2`` under the suite's caps.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import re
import time
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from asteroids.config import Config, ConfigError, load_config
from asteroids.config.knobs import Knob, knobs
from asteroids.config.live import apply_changes
from asteroids.config.render import render_value
from asteroids.config.rulesets import RULE_TABLES
from asteroids.core import new_world, step
from asteroids.core.bot import aimer_bot
from asteroids.core.params import params_for
from asteroids.replay import (
    Recorder,
    Replay,
    ReplayError,
    record_bot_game,
    rules_fingerprint,
    verify_replay,
)
from asteroids.replay.format import decode_replay, encode_replay
from tests.hostile.harness import (
    EXIT_BAD_INPUT,
    EXIT_MISMATCH,
    EXIT_OK,
    reseal,
    run_cli,
)

TICKS = 300
EVERY = 100
NAME = "mutant.replay"
PER_CASE_S = 5.0
"""Time limit of reading and verifying one mutant in this process."""

HOSTILE = [
    "0x" + "f" * 4000, "9" * 5000, "9" * 400, "-" + "9" * 30, "18446744073709551616",
    "-9223372036854775809", "0", "-1", "1e999", "-inf", "nan", "0.1", "true", "''",
    '"x"', "'" + "x" * 300 + "'", "[]", "[1, 2]", "[" * 40 + "]" * 40, "{a = 1}",
    "{" + "a = {" * 40 + "}" * 41, "1979-05-27T07:32:00Z", '["ship.lives=3"]',
    '[{tick = 1, set = ["ship.thrust_px_per_s2=1"]}]', '[[0, "' + "0" * 32 + '", ""]]',
]
"""Values a forger might write in place of any value."""


@functools.cache
def _bases() -> dict[str, Replay]:
    """The games every mutant starts from (recorded once per test session)."""
    rules = load_config(overrides=["ship.shield.enabled=true", "ship.shield.radius_px=80"])
    one = Recorder(rules, 5, every=EVERY)
    p = params_for(rules)  # compiled once (and once per change below), passed every tick
    world = new_world(p, 5)
    for _ in range(TICKS):  # the aimer, with the shield held 20 ticks in 50
        mask = aimer_bot(world, p) | (32 if world.tick % 50 < 20 else 0)
        world, _ = step(world, mask, p)
        one.add(mask, world)
    bases = {"one": one.finish(world)}
    live = Recorder(rules, 6, every=EVERY)
    config, world = rules, new_world(p, 6)
    for t in range(TICKS):  # thrust changed at ticks 100 and 200, as --live records it
        if t in (100, 200):
            config = apply_changes(config, [f"ship.thrust_px_per_s2={300 + t}.0"])
            p = params_for(config)
        mask = aimer_bot(world, p)
        world, _ = step(world, mask, p)
        live.add(mask, world, config)
    bases["live"] = live.finish(world)
    bases["two"] = record_bot_game(load_config(), 7, aimer_bot, TICKS, players=2,
                                   every=EVERY, stop_at_game_over=False)
    return bases


def _rule_knobs(cls: type = Config, prefix: tuple[str, ...] = ()) -> list[tuple[str, Knob]]:
    out = []
    for k in knobs(cls):
        if k.kind == "table" and k.cls is not None:
            out += _rule_knobs(k.cls, (*prefix, k.name))
        elif k.kind in ("int", "float", "bool", "str") and (prefix or ("",))[0] in RULE_TABLES:
            out.append((".".join((*prefix, k.name)), k))
    return out


RULE_KNOBS = _rule_knobs()


def _value(knob: Knob) -> st.SearchStrategy[object]:
    """A value inside the knob's range (the forger keeps the file loadable)."""
    meta = knob.meta
    if knob.kind == "bool":
        return st.booleans()
    if knob.kind == "str":
        return st.sampled_from(meta["choices"])
    if knob.kind == "int":
        return st.integers(int(meta["lo"]), int(meta["hi"]))
    return st.floats(meta["lo"], meta["hi"], exclude_min=meta["lo_open"], allow_nan=False)


def _consistent(replay: Replay, masks: bytes) -> Replay:
    """``replay`` with new inputs and every count that depends on them made to fit, so the
    mutant is read and re-simulated rather than refused for its shape."""
    ticks = len(masks)
    recorded = dict(replay.checkpoints)
    digests = dict(zip((t for t, _ in replay.checkpoints), replay.checkpoint_digests,
                       strict=True))
    filler_hash, filler_digest = replay.checkpoints[0][1], replay.checkpoint_digests[0]
    cps = tuple((t, recorded.get(t, filler_hash)) for t in range(0, ticks + 1, EVERY))
    hashes = (replay.tick_hashes + bytes(ticks))[:ticks]
    final = cps[-1][1] if ticks % EVERY == 0 else replay.final_hash
    return dataclasses.replace(
        replay, masks=masks, checkpoints=cps, tick_hashes=hashes, final_hash=final,
        checkpoint_digests=tuple(digests.get(t, filler_digest) for t, _ in cps))


@st.composite
def structural(draw: st.DrawFn) -> bytes:
    """A mutant made on the decoded replay and written back whole (a fitting checksum)."""
    base = _bases()[draw(st.sampled_from(["one", "live", "two"]))]
    kind = draw(st.sampled_from(["seed", "numbers", "masks", "setting", "strings", "changes"]))
    replay = base
    if kind == "seed":
        replay = dataclasses.replace(base, seed=draw(st.integers(-(2**70), 2**70)))
    elif kind == "numbers":
        replay = dataclasses.replace(
            base, tick_hz=draw(st.floats(allow_nan=True, allow_infinity=True)),
            final_score=draw(st.integers(-(2**65), 2**65)),
            final_wave=draw(st.integers(-5, 2**33)),
            checkpoint_every=draw(st.sampled_from([EVERY, 1, 0, -1, 7, 10**7])))
    elif kind == "masks":
        masks = bytearray(base.masks)
        for _ in range(draw(st.integers(1, 8))):
            i = draw(st.integers(0, len(masks) - 1))
            masks[i] = draw(st.integers(0, 255))
        cut = draw(st.integers(0, len(masks) + 150))
        masks = (masks + bytes(draw(st.binary(min_size=150, max_size=150))))[:cut]
        replay = _consistent(base, bytes(m & 0x3F for m in masks))
    elif kind == "setting":
        key, knob = draw(st.sampled_from(RULE_KNOBS))
        try:
            config = apply_changes(base.config, [f"{key}={render_value(draw(_value(knob)))}"])
        except ConfigError:
            config = base.config  # a value that contradicts another: not a loadable mutant
        fitting = draw(st.booleans())
        rules = rules_fingerprint(config, base.players) if fitting else base.rules
        replay = dataclasses.replace(base, config=config, rules=rules)
    elif kind == "strings":
        text = st.text(max_size=80)
        replay = dataclasses.replace(base, created_at=draw(text), game_version=draw(text))
    elif kind == "changes" and base.config_changes:
        changes = list(base.config_changes)
        i = draw(st.integers(0, len(changes) - 1))
        changes[i] = dataclasses.replace(changes[i], tick=draw(st.integers(-3, TICKS + 3)),
                                         settings=tuple(draw(st.lists(st.sampled_from([
                                             "ship.thrust_px_per_s2=999.0", "game.lives=4",
                                             "world.width_px=999", "display.palette=green",
                                             "ship.thrust_px_per_s2=-1", "nope=1", "x",
                                             "ship.thrust_px_per_s2=300.0"]), max_size=3))))
        replay = dataclasses.replace(base, config_changes=tuple(changes))
    return encode_replay(replay)


_VALUE_LINE = re.compile(r"^( *)([A-Za-z_][A-Za-z0-9_]*) = (.*)$", re.M)


@st.composite
def textual(draw: st.DrawFn) -> bytes:
    """A mutant made on one ``key = value`` line of the text (header or settings), or on
    one recorded change, re-sealed."""
    text = encode_replay(_bases()[draw(st.sampled_from(["one", "live", "two"]))]).decode()
    lines = list(_VALUE_LINE.finditer(text))
    m = draw(st.sampled_from(lines))
    value = draw(st.one_of(st.sampled_from(HOSTILE), st.integers().map(str),
                           st.floats().map(repr), st.text(max_size=40).map(json.dumps)))
    action = draw(st.sampled_from(["replace", "delete", "duplicate"]))
    if action == "replace":
        new = f"{m.group(1)}{m.group(2)} = {value}"
    elif action == "delete":
        new = ""
    else:
        new = m.group(0) + "\n" + m.group(0)
    mutated = text[: m.start()] + new + text[m.end():]
    if "config_changes" in text and draw(st.booleans()):
        mutated = mutated.replace("{tick = 100,", f"{{tick = {value},", 1)
    return reseal(mutated)


MUTANTS = st.one_of(structural(), textual())


def outcome(data: bytes) -> str:
    """``ok``, ``mismatch`` or ``error`` (a one-line ``ReplayError``); anything else raises
    (the test fails); each within ``PER_CASE_S``."""
    start = time.perf_counter()
    try:
        replay = decode_replay(data, NAME)
    except ReplayError as exc:
        assert str(exc).startswith(f"{NAME}: ") and "\n" not in str(exc), str(exc)
        result = "error"
    else:
        assert replay.ticks <= TICKS + 150
        result = "ok" if verify_replay(replay).ok else "mismatch"
    assert time.perf_counter() - start < PER_CASE_S
    return result


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=MUTANTS)
def test_a_mutated_replay_is_read_and_verified_or_refused_in_one_line(data: bytes) -> None:
    outcome(data)


def test_the_bases_verify_and_the_mutations_reach_every_outcome() -> None:
    seen = set()
    for name, replay in _bases().items():
        assert outcome(encode_replay(replay)) == "ok", name
    for data in (encode_replay(dataclasses.replace(_bases()["one"], final_score=1)),
                 encode_replay(dataclasses.replace(_bases()["one"], seed=-(2**70)))):
        seen.add(outcome(data))
    assert seen == {"mismatch", "error"}


@settings(max_examples=3, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(batch=st.lists(MUTANTS, min_size=8, max_size=8))
def test_a_batch_of_mutants_through_verify_jobs_2(tmp_path: Path, batch: list[bytes]) -> None:
    names = []
    for i, data in enumerate(batch):
        path = tmp_path / f"m{i}.replay"
        path.write_bytes(data)
        names.append(path.name)
    found = [outcome(data) for data in batch]
    expect = (EXIT_BAD_INPUT if "error" in found else
              EXIT_MISMATCH if "mismatch" in found else EXIT_OK)
    out = run_cli("verify", "--jobs", "2", *names, expect=expect, cwd=tmp_path)
    lines = out.stdout.splitlines()
    assert len(lines) == len(batch) + 1
    for line, name, what in zip(lines, names, found, strict=False):
        assert line.startswith(f"{name}: ")
        assert (what == "error") == ("unusable" in line)
    assert "a bug in asteroids" not in out.stderr
