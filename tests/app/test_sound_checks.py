"""The checks ``asteroids sounds`` prints can fail: a voice off the board's number, or a loop
that leaves a gap or a click, is reported as such."""

from __future__ import annotations

import numpy as np

from asteroids.app import synth
from asteroids.app.sound_checks import (
    CIRCUIT_TOLERANCE,
    CircuitCheck,
    LoopCheck,
    circuit_checks,
    loop_table,
)


def _stretched(x: np.ndarray, factor: float) -> np.ndarray:
    """``x`` played ``factor`` times faster (pitch and rate up by ``factor``)."""
    t = np.arange(0.0, x.size - 1, factor)
    return np.interp(t, np.arange(x.size), x).astype(np.float32)


def test_a_cabinet_voice_off_the_board_fails_its_checks():
    voices = dict(synth.render_set("cabinet"))
    assert all(c.ok for c in circuit_checks(voices=voices))
    voices["beat_low"] = _stretched(voices["beat_low"], 1.15)
    voices["saucer_small"] = _stretched(voices["saucer_small"], 0.85)
    failed = {(c.sound, c.what) for c in circuit_checks(voices=voices) if not c.ok}
    assert ("beat_low", "pitch") in failed
    assert {("saucer_small", "highest pitch"), ("saucer_small", "warble rate")} <= failed


def test_ten_percent_is_within_and_a_hair_more_is_not():
    at = CircuitCheck("x", "pitch", 100.0, 110.0, "Hz")
    assert CIRCUIT_TOLERANCE == 0.10 and at.ok and at._replace(measured=90.0).ok
    assert not at._replace(measured=110.001).ok
    assert not at._replace(measured=89.999).ok


def test_a_loop_with_a_gap_or_a_click_is_not_gapless():
    good = LoopCheck("cabinet", "thrust", 3.0, 0.0, 0.0, 0.01, 0.01)
    assert good.ok
    assert not good._replace(mismatch=0.05).ok  # the output left the buffer: a gap or a jump
    assert not good._replace(largest_step=0.02).ok  # a click at a wrap or the fade-in
    assert "| NO |" in loop_table([good._replace(mismatch=0.05)])
