"""The work of replaying a file: its bound, its estimate and its time limit.

A replay is hostile input, and a tick's work is bounded by the rules (``docs/limits.md``);
the total is bounded here, before it is done:

- **how long a game may be**: ``verify`` and ``watch`` refuse a replay of more than
  ``DEFAULT_MAX_TICKS`` ticks (``--max-ticks N`` raises it, up to the format's
  ``MAX_TICKS``), at load time, before any simulation;
- **how long a forgery lasts**: each checkpoint is compared as soon as its tick is
  reached, and a file whose checkpoints are more than ``MAX_HASH_GAP`` ticks apart has every
  tick's hash byte compared instead, so a replay that does not match fails within that many
  ticks (``asteroids.replay.verify``);
- **what it will cost**: the work is measured on the first ticks and stated in one line
  (``work_line``) when it comes to more than ``NOTICE_S`` seconds;
- **when to stop**: ``--time-limit S`` is a ``Deadline`` that the re-simulation looks at
  every ``CHECK_EVERY`` ticks; past it, the command stops with exit code 2.

Pure: no arcade, no printing.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from asteroids.messages import count
from asteroids.replay.model import DEFAULT_MAX_TICKS, MAX_HASH_GAP, MAX_TICKS, Replay

__all__ = ["CALIBRATE_S", "CHECK_EVERY", "DEFAULT_MAX_TICKS", "MAX_HASH_GAP",
           "MAX_TICKS", "NOTICE_S", "Deadline", "measure_rate", "play_time",
           "time_limit_problem", "too_long", "watch_notice", "work_line"]

NOTICE_S = 3.0
"""Work estimated over this many seconds is stated before it is done."""
CALIBRATE_S = 0.2
"""Seconds of re-simulation the estimate is measured on (at most; a shorter game is done
by then)."""
CHECK_EVERY = 64
"""Ticks between two looks at the clock (a look costs ~0.1 us, a tick ~30 us or more)."""


@dataclass
class Deadline:
    """``--time-limit S`` of one command, shared by its worker processes: ``at`` is a
    ``time.time()`` (every process of a machine reads the same clock); None: no limit."""

    at: float | None = None
    limit_s: float | None = None
    """The limit as given, for messages."""
    stopped_at: int | None = None
    """Set by the work it stopped (the replay viewer): the tick it stopped at."""

    @classmethod
    def after(cls, seconds: float | None) -> Deadline:
        """The deadline ``seconds`` from now (None: none)."""
        if seconds is None:
            return cls()
        return cls(time.time() + seconds, seconds)

    def passed(self) -> bool:
        """Whether the limit has been reached."""
        return self.at is not None and time.time() >= self.at

    def left(self) -> float | None:
        """Seconds left (0 when passed); None without a limit."""
        return None if self.at is None else max(0.0, self.at - time.time())


def _rounded(rate: float) -> int:
    """``rate`` to two significant digits, for an estimate: 16 384 -> 16 000."""
    if rate < 100:
        return max(1, round(rate))
    digits = len(str(int(rate))) - 2
    return int(round(rate, -digits))


def work_line(verb: str, ticks: int, rate: float) -> str:
    """``verifying 999 999 ticks, about 62 s at ~16 000 ticks/s``: the work to do."""
    seconds = ticks / rate if rate > 0 else float("inf")
    about = f"{seconds:.0f} s" if seconds < 600 else f"{seconds / 60:.0f} min"
    return f"{verb} {count(ticks)} ticks, about {about} at ~{count(_rounded(rate))} ticks/s"


def time_limit_problem(limit_s: float | None, tick: int, ticks: int) -> str:
    """Why the work stopped at ``--time-limit``: one sentence."""
    shown = f"{limit_s:g} s" if limit_s is not None else "the limit"
    where = (f"at tick {count(tick)} of {count(ticks)}" if tick else
             "before it started")
    return (f"stopped at the time limit (--time-limit {shown}) {where}; not verified (a "
            "larger --time-limit lets it finish)")


def measure_rate(replay: Replay, seconds: float = CALIBRATE_S) -> float:
    """Ticks per second of re-simulating ``replay`` here, measured on its first ticks for at
    most ``seconds`` (the whole game when it is shorter); 0.0 for a game of no ticks."""
    from asteroids.core.params import params_for
    from asteroids.core.play import play_for

    play = play_for(replay.players)
    changes = {c.tick: params_for(c.config) for c in replay.config_changes}
    config = params_for(replay.config)
    state: Any = play.start(config, replay.seed)
    masks = replay.masks
    began = time.perf_counter()
    elapsed = 0.0
    t = 0
    while t < len(masks):
        config = changes.get(t, config)
        state, _ = play.step(state, masks[t], config)
        t += 1
        if t % 16 == 0:
            elapsed = time.perf_counter() - began
            if elapsed >= seconds:
                break
    elapsed = time.perf_counter() - began
    return t / elapsed if t and elapsed > 0 else 0.0


def watch_notice(replay: Replay, deadline: Deadline | None = None) -> str:
    """What watching ``replay`` may cost, when a seek to its end would take more than
    ``NOTICE_S`` seconds (measured on its first ticks); "" otherwise."""
    if not replay.ticks:
        return ""
    rate = measure_rate(replay)
    if rate <= 0 or replay.ticks / rate <= NOTICE_S:
        return ""
    hz = replay.config.world.tick_hz
    limit = ("" if deadline is None or deadline.limit_s is None else
             f"; the window closes at the time limit, {deadline.limit_s:g} s")
    return (f"{play_time(replay.ticks, hz)} of play at {hz:g} Hz; "
            f"{work_line('a seek to its end re-simulates', replay.ticks, rate)}{limit}")


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
