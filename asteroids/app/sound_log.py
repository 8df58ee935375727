"""What the mixer was asked and what it made, written as it goes (issue 37, item 5).

``asteroids sounds --capture`` measures a game's sound against its cues: it needs each cue
(its tick time, when it was sent, the sample the mixer scheduled it on) and the samples the
mixer rendered. A game process that runs with ``ASTEROIDS_SOUND_LOG=FOLDER`` (``ENV``) keeps
them in that folder while it plays (``SoundBank`` attaches a ``SoundLog`` to its mixer), so
the game in a real window can be measured as a player hears it, however its process ends.

Files: ``cues.jsonl`` (one cue a line: ``name``, ``at``, ``sent``, ``due``: when its tick
was due, where the window says, ``sample``, and ``late``: its sample had gone when it came),
``mix.f32`` (the rendered samples, float32), and ``meta.json`` (the stream's first sample,
the rate, the mixer's room and counters, the driver's report line; rewritten every
``META_S``). Nothing is written without ``ENV``.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import numpy as np

from asteroids.app.mixer import Mixer

__all__ = ["ENV", "META_S", "SoundLog", "read_log"]

ENV = "ASTEROIDS_SOUND_LOG"
META_S = 0.25
"""How often ``meta.json`` is rewritten while the stream plays."""


class SoundLog:
    """Keeps a mixer's cues and output in ``folder`` (created if needed)."""

    def __init__(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.folder = folder
        self.report: str | None = None
        """The sound bank's line on its driver (``SoundBank.report``)."""
        self.queue_s = 0.0
        """The driver's queue now (``SoundBank.queue_s``: it grows after underruns)."""
        self.driver: Any = None
        """The stream that plays (its ``period_frames`` and ``underruns``, where it has them,
        go into ``meta.json``: our OpenAL driver's period dates the wave writer's file)."""
        self._cues = open(folder / "cues.jsonl", "a", encoding="utf-8")  # noqa: SIM115
        self._mix = open(folder / "mix.f32", "ab")  # noqa: SIM115
        self._mixer: Mixer | None = None
        self._first: int | None = None
        self._meta_at = 0.0

    def attach(self, mixer: Mixer) -> None:
        """Log ``mixer``'s timed cues and every block it renders from now on."""
        self._mixer = mixer
        play, schedule, render = mixer.play, mixer.schedule, mixer.render
        pending: dict[str, Any] = {}

        def logged_schedule(at: float, sent: float | None = None,
                            due: float | None = None) -> int:
            late = mixer.late_cues
            pending["sample"] = schedule(at, sent, due)
            pending["late"] = mixer.late_cues > late  # its sample had gone: played at once
            return int(pending["sample"])

        def logged_play(name: str, at: float | None = None, sent: float | None = None,
                        due: float | None = None) -> None:
            pending.clear()
            play(name, at=at, sent=sent, due=due)
            self._cues.write(json.dumps({"name": name, "at": at, "sent": sent, "due": due,
                                         "sample": pending.get("sample"),
                                         "late": pending.get("late", False)}) + "\n")

        def logged_render(n: int) -> np.ndarray:
            if self._first is None:
                self._first = mixer.samples
            block = render(n)
            if self._mix.closed:  # a block asked for as the stream stopped
                return block
            self._mix.write(np.asarray(block, dtype="<f4").tobytes())
            self._cues.flush()
            self._mix.flush()
            now = time.monotonic()
            if now - self._meta_at >= META_S:
                self._meta_at = now
                self.write_meta()
            return block

        mixer.schedule = logged_schedule  # type: ignore[method-assign]
        mixer.play = logged_play  # type: ignore[method-assign]
        mixer.render = logged_render  # type: ignore[method-assign]

    def close(self) -> None:
        """Write ``meta.json`` a last time and close the files."""
        self.write_meta()
        self._cues.close()
        self._mix.close()

    def write_meta(self) -> None:
        """Rewrite ``meta.json`` (whole, by rename)."""
        mixer = self._mixer
        meta = {"stream_start": self._first or 0, "report": self.report,
                "queue_ms": round(self.queue_s * 1000.0, 1),
                "rate": mixer.rate if mixer else 0,
                "latency_samples": mixer.latency if mixer else 0,
                "late_cues": mixer.late_cues if mixer else 0,
                "underruns": mixer.underruns if mixer else 0,
                "drift_ppm": round(mixer.clock_map.drift * 1e6) if mixer else 0,
                "period_frames": getattr(self.driver, "period_frames", 0),
                "driver_underruns": getattr(self.driver, "underruns", None)}
        temp = self.folder / "meta.json.tmp"
        temp.write_text(json.dumps(meta))
        os.replace(temp, self.folder / "meta.json")


def read_log(folder: Path) -> tuple[dict[str, Any], np.ndarray]:
    """``(log, mix)`` from a ``SoundLog`` folder: ``meta.json``'s fields with ``cues`` (the
    cue lines; a line cut off as the process ended is left out), and the rendered samples.

    Raises:
        ValueError: the folder holds no log (the game made no sound).
    """
    try:
        log = json.loads((folder / "meta.json").read_text())
        lines = (folder / "cues.jsonl").read_text(encoding="utf-8").splitlines()
        raw = (folder / "mix.f32").read_bytes()
    except (OSError, ValueError) as exc:
        raise ValueError(f"no sound log in {folder}: {exc}") from exc
    cues = []
    for line in lines:
        try:
            cues.append(json.loads(line))
        except ValueError:
            break
    log["cues"] = cues
    return log, np.frombuffer(raw[: len(raw) // 4 * 4], "<f4").astype(np.float64)
