"""A PulseAudio server of a capture's own, playing into a null sink (issue 37, item 5).

``asteroids sounds --capture --audio pulse`` (pyglet's PulseAudio driver) and ``--audio
miniaudio`` (our callback driver, through its PulseAudio backend) play into the null sink
``SINK`` of a server started for the capture alone; ``parec`` records the sink's monitor,
which hands over each block of samples as the sink renders it (``Recorder``).

The monitor sees a sample when the sink renders it, not when a card would play it: a card
adds the sink's own buffer, which PulseAudio sizes from what the streams ask for (a share of
their latency). ``SinkLatency`` reads it from ``pactl`` while the game plays, so the report
can say what a card would add.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import threading
import time
from pathlib import Path

__all__ = ["SETTLE_S", "SINK", "Recorder", "SinkLatency", "has_pulse", "null_sink"]

SINK = "asteroids_capture"
"""The null sink the PulseAudio capture plays into (its monitor is recorded)."""
SETTLE_S = 1.0
"""A PulseAudio server started here is left this long before the game plays: while it
starts, it and the game share the CPU (captures right after its start saw 8-15 underruns
in their first seconds, none after)."""


def has_pulse() -> bool:
    """Whether a PulseAudio server can be started here and its monitor recorded."""
    return all(shutil.which(t) for t in ("pulseaudio", "pactl", "parec"))



def _not_nice() -> None:
    """In the sound server's process: undo an inherited ``nice`` where allowed (root), as a
    desktop's server runs; a niced server under load underran every few hundred ms."""
    try:
        os.setpriority(os.PRIO_PROCESS, 0, 0)
    except OSError:
        pass


def null_sink(folder: Path) -> tuple[subprocess.Popen[bytes], dict[str, str]]:
    """A PulseAudio server of this capture's own (its socket in ``folder``: captures side by
    side, or a desktop's server, never meet) playing into the null sink ``SINK``; returns it
    (to be stopped) and the environment its clients need.

    Raises:
        RuntimeError: it did not start.
    """
    folder.mkdir(parents=True, exist_ok=True)
    socket = folder / "native"
    env = dict(os.environ, PULSE_RUNTIME_PATH=str(folder), PULSE_STATE_PATH=str(folder),
               PULSE_SERVER=f"unix:{socket}", PULSE_SINK=SINK)
    # as root too (CI): no D-Bus, no system mode, never exiting while it is used
    server = subprocess.Popen(
        ["pulseaudio", "--daemonize=no", "--exit-idle-time=-1", "-n", "--use-pid-file=no",
         f"--load=module-native-protocol-unix socket={socket} auth-anonymous=1",
         f"--load=module-null-sink sink_name={SINK} rate=22050 channels=1"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, preexec_fn=_not_nice)
    for _ in range(100):
        ready = subprocess.run(["pactl", "list", "short", "sinks"], env=env,
                               capture_output=True, text=True, timeout=20)
        if ready.returncode == 0 and SINK in ready.stdout:
            time.sleep(SETTLE_S)
            return server, env
        if server.poll() is not None:
            break
        time.sleep(0.1)
    server.terminate()
    _, err = server.communicate(timeout=10)
    raise RuntimeError(f"PulseAudio did not start: {err.decode(errors='replace')[-400:]}")


class Recorder:
    """``parec`` on the sink's monitor: the PCM it read and when (``stamps``: wall time,
    bytes so far)."""

    def __init__(self, env: dict[str, str], stamps: list[tuple[float, int]]) -> None:
        self.stamps = stamps
        self._chunks: list[bytes] = []
        self._rec = subprocess.Popen(
            ["parec", "--raw", "--format=s16le", "--rate=22050", "--channels=1",
             "--latency-msec=5", "-d", f"{SINK}.monitor"], stdout=subprocess.PIPE, env=env)

    def read(self) -> None:
        """Read until ``parec`` stops (run on a thread of its own)."""
        assert self._rec.stdout is not None
        fd, total = self._rec.stdout.fileno(), 0
        while chunk := os.read(fd, 65536):
            total += len(chunk)
            self._chunks.append(chunk)
            self.stamps.append((time.monotonic(), total))

    def stop(self) -> bytes:
        """Stop ``parec``; the PCM it read."""
        self._rec.terminate()
        self._rec.wait(10)
        return b"".join(self._chunks)

    def close(self) -> None:
        """Close the pipe (after the reading thread ended)."""
        if self._rec.stdout is not None:
            self._rec.stdout.close()


_CONFIGURED = re.compile(r"configured\s*(\d+)\s*usec")


class SinkLatency:
    """Reads, every ``every`` seconds, the latency the sink is configured for (``pactl list
    sinks``: "configured"; PulseAudio sets it from what the playing streams ask for), while
    the capture runs: a card's buffer that size would be added to what the monitor hears."""

    def __init__(self, env: dict[str, str], every: float = 1.0) -> None:
        self.seen_us: list[int] = []
        self._env, self._every = env, every
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._poll, daemon=True)
        self._thread.start()

    def _poll(self) -> None:
        while not self._stop.wait(self._every):
            try:
                out = subprocess.run(["pactl", "list", "sinks"], env=self._env,
                                     capture_output=True, text=True, timeout=5).stdout
                busy = subprocess.run(["pactl", "list", "short", "sink-inputs"],
                                      env=self._env, capture_output=True, text=True,
                                      timeout=5).stdout.strip()
            except (OSError, subprocess.SubprocessError):
                continue
            if busy:  # a stream plays: the sink is sized for it
                self.seen_us += [int(v) for v in _CONFIGURED.findall(out)]

    def stop(self) -> float | None:
        """Stop; the median of what was read, in ms (None: no stream was seen)."""
        self._stop.set()
        self._thread.join(10)
        if not self.seen_us:
            return None
        return round(sorted(self.seen_us)[len(self.seen_us) // 2] / 1000.0, 1)
