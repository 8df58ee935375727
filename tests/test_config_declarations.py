"""Every rule knob declares what the game needs from it, or the game refuses to start.

A rule setting carries its live timing, its per-tick conversion and, when it arrived after
the first release, its ``before`` value (``asteroids.config.declare.knob``); the live-reload
table and the core's per-tick numbers are built from those declarations, never kept beside
them.
"""

from __future__ import annotations

import dataclasses
import subprocess
import sys

import pytest

from asteroids.config import load_config
from asteroids.config.compat import canonical_rules, rules_fingerprint
from asteroids.config.declare import AS_IS, STEP, knob, ticks
from asteroids.config.live import leaf_keys
from asteroids.config.rulesets import KNOB_TIMING
from asteroids.config.schema import (
    MATCH_TABLES,
    RULE_TABLES,
    RULES_VERSION,
    check_declarations,
)
from asteroids.core.params import (
    DERIVED_PARAMS,
    KNOB_PARAMS,
    Params,
    compile_params,
    param_name,
    per_tick,
)


@dataclasses.dataclass(frozen=True)
class _NoTiming:
    speed: float = knob(1.0, "a speed", lo=0.0, hi=2.0, tick=AS_IS)


@dataclasses.dataclass(frozen=True)
class _NoTick:
    speed: float = knob(1.0, "a speed", lo=0.0, hi=2.0, timing=STEP)


@dataclasses.dataclass(frozen=True)
class _NoBefore:
    speed: float = knob(1.0, "a speed", lo=0.0, hi=2.0, timing=STEP, tick=AS_IS,
                        since="0.3.0")


@dataclasses.dataclass(frozen=True)
class _BeforeOutOfRange:
    speed: float = knob(1.0, "a speed", lo=0.5, hi=2.0, timing=STEP, tick=AS_IS,
                        since="0.3.0", before=0.0)


@dataclasses.dataclass(frozen=True)
class _Complete:
    speed: float = knob(1.0, "a speed", lo=0.0, hi=2.0, timing=STEP, tick=ticks(1),
                        since="0.3.0", before=0.0)


@pytest.mark.parametrize(("cls", "says"), [
    (_NoTiming, "rule knob speed declares no timing="),
    (_NoTick, "rule knob speed declares no tick="),
    (_NoBefore, "speed arrived in 0.3.0, after the first release, so it must declare before="),
    (_BeforeOutOfRange, "speed's before=0.0 is outside its own range"),
])
def test_a_rule_knob_without_its_declarations_is_refused(cls: type, says: str) -> None:
    with pytest.raises(TypeError, match=says.replace("(", r"\(").replace(".", r"\.")):
        check_declarations(cls, rule=True)


def test_a_complete_declaration_passes_and_a_player_knob_needs_no_timing() -> None:
    check_declarations(_Complete, rule=True)
    check_declarations(_NoTiming, rule=False)  # display, audio, keys: not rules


def test_the_schema_declares_every_rule_knob_at_import() -> None:
    # The package imports (and so checks) the schema in a fresh interpreter without error.
    done = subprocess.run([sys.executable, "-c", "import asteroids.config.schema"],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    check_declarations()


def test_knob_timing_and_per_tick_numbers_come_from_the_schema() -> None:
    rule_keys = [k for k in leaf_keys() if k.split(".")[0] in RULE_TABLES + MATCH_TABLES]
    assert set(rule_keys) <= set(KNOB_TIMING)
    numbers = per_tick(load_config("classic"))
    assert set(numbers) == set(rule_keys)
    params = compile_params(load_config("classic"))
    assert params.per_tick["ship.respawn_delay_s"] == params.ship_respawn_delay_ticks
    assert numbers["rules_version"] == params.rules_version == RULES_VERSION


def test_the_fingerprint_leaves_out_a_knob_at_its_before_value() -> None:
    one = load_config(overrides=["rules_version=1"])
    assert "rules_version" not in canonical_rules(one)
    assert "match" not in canonical_rules(one) and "match" in canonical_rules(one, 2)
    bumped = dataclasses.replace(one, rules_version=2)  # a later version's rules
    assert canonical_rules(bumped)["rules_version"] == 2
    assert rules_fingerprint(bumped) != rules_fingerprint(one)


def test_every_params_field_is_made_by_one_table_entry() -> None:
    """``compile_params`` maps nothing by hand: each Params field is one knob's per-tick value
    (``KNOB_PARAMS``, its knob a rule knob, its field named after it by ``param_name``) or one
    derivation (``DERIVED_PARAMS``), once."""
    made = [param_name(k) for k in KNOB_PARAMS] + [name for name, _ in DERIVED_PARAMS]
    fields = [f for f in Params.__dataclass_fields__ if f not in ("config", "per_tick")]
    assert sorted(made) == sorted(fields) and len(set(made)) == len(made)
    config = load_config("classic")
    t = per_tick(config)
    p = compile_params(config)
    for key in KNOB_PARAMS:
        name = param_name(key)
        assert getattr(p, name) is t[key] or getattr(p, name) == t[key], name
