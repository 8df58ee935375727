"""Our own OpenAL driver (issue 37): short buffers kept queued by a thread of their own.

pyglet's OpenAL player keeps 40 ms queued and its worker looks every 5 ms, on top of OpenAL
Soft's own period (23 ms at its defaults) that it mixes at once: a cue sounded 81-83 ms after
its tick. This driver plays the mixer through OpenAL itself (``libopenal``, through ctypes:
the same library pyglet loads) with:

- OpenAL Soft asked for ``PERIOD_MS`` periods (``period_size`` in its configuration, set only
  for this process and only where the player's own configuration does not say): OpenAL Soft
  1.19 ignores ``ALC_REFRESH`` from the program, so the request goes through
  ``ALSOFT_CONF``, as a file that is never on disk (a Linux ``memfd``); the player's own
  ``ALSOFT_CONF`` is read into it first, so every setting of theirs stays;
- buffers of ``BUFFER_MS`` on one source, ``QUEUE_MS`` of them queued: a thread of its own
  looks every ``POLL_MS`` for buffers OpenAL has played, fills each again from the mixer
  (``render``) and queues it. It never waits on the game thread (only on Python's lock, as
  every driver's thread does); a source that ran dry is counted and started again.

``NoOutput`` when there is no ``libopenal``, no device, or only OpenAL Soft's null output: the
sound bank then tries the next driver and says why.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import math
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

__all__ = ["BUFFER_MS", "LEAD_WINDOW_S", "NAME", "PERIOD_MS", "POLL_MS", "QUEUE_MS", "NoOutput",
           "OpenALStream", "available", "held_s", "period_config"]

NAME = "openal"
"""The driver's name in ``--audio`` and in the game's report line."""
PERIOD_MS = 5
"""OpenAL Soft is asked to mix this much at a time (its default: 1 024 frames, 21-23 ms)."""
BUFFER_MS = 5
"""Each buffer queued on the source holds this much audio."""
QUEUE_MS = 25
"""This much audio is kept queued on the source: OpenAL Soft takes a period from it at once,
and the thread may look late by the rest (15 ms) before the source runs dry."""
POLL_MS = 1.0
"""The thread looks for played buffers this often."""
LEAD_WINDOW_S = 8.0
"""The mixer reads how far this driver's queue runs ahead of the wall clock at its fullest
over this long (``ClockMap.lead_window_s``), as for ``audio_miniaudio``."""
RT_PRIORITY = 5
"""The feeder's real-time priority where it gets one (PulseAudio's own threads: 5)."""
MAX_CONF_BYTES = 1 << 16
"""The player's own OpenAL Soft configuration files are read up to this size (settings
files: bounded); a larger one is not read at all."""
OUTPUT_RATE = 48000
"""OpenAL Soft's output rate when its configuration names none (1.21 on: 48 kHz; 1.19:
44.1 kHz, where a period of ``PERIOD_MS`` comes out 0.4 ms longer)."""

_ALC_FREQUENCY, _ALC_REFRESH = 0x1007, 0x1008
_ALC_DEVICE_SPECIFIER = 0x1005
_AL_SOURCE_STATE, _AL_PLAYING = 0x1010, 0x1012
_AL_BUFFERS_PROCESSED = 0x1016
_AL_FORMAT_MONO16 = 0x1101
_AL_SOURCE_RELATIVE = 0x202
_NULL_OUTPUT = "No Output"
"""OpenAL Soft's null backend: plays nothing."""


class NoOutput(RuntimeError):
    """No OpenAL library, no device it can open, or only its null output."""


def _library_path() -> str | None:
    if sys.platform == "win32":
        return ctypes.util.find_library("OpenAL32") or ctypes.util.find_library("soft_oal")
    if sys.platform == "darwin":
        return "/System/Library/Frameworks/OpenAL.framework/OpenAL"
    found = ctypes.util.find_library("openal")
    if found:
        return found
    for folder in ("/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64",
                   "/usr/lib"):
        if Path(folder, "libopenal.so.1").is_file():
            return str(Path(folder, "libopenal.so.1"))
    return None


def available() -> bool:
    """Whether an OpenAL library can be found (nothing is opened)."""
    return _library_path() is not None


def held_s() -> float:
    """How late past the audio delivered the mixer may be asked before it counts an underrun
    itself (``ClockMap.underrun_slack``): never, as this driver sees a source that ran dry
    and counts it (``OpenALStream.underruns``), which the sound bank tells the mixer."""
    return math.inf


def _config_files(env: dict[str, str]) -> list[Path]:
    """OpenAL Soft's configuration files in the order it reads them (later ones win), less
    ``ALSOFT_CONF`` (read last)."""
    home = env.get("HOME", "")
    dirs = env.get("XDG_CONFIG_DIRS", "/etc/xdg").split(":")
    files = [Path("/etc/openal/alsoft.conf")]
    files += [Path(d, "alsoft.conf") for d in reversed(dirs) if d]
    if home:
        files.append(Path(home, ".alsoftrc"))
    config_home = env.get("XDG_CONFIG_HOME") or (str(Path(home, ".config")) if home else "")
    if config_home:
        files.append(Path(config_home, "alsoft.conf"))
    return files


def _read_text(path: Path) -> str | None:
    """A configuration file's text, whole: only a regular file of at most ``MAX_CONF_BYTES``
    (``storage.read_limited``: a named pipe is not waited on); None when it is not there, is
    something else, is larger or cannot be read."""
    from asteroids.storage import read_limited

    try:
        return read_limited(path, MAX_CONF_BYTES).decode("utf-8", "replace")
    except OSError:  # missing, not a regular file, too large, unreadable
        return None


def _general(text: str) -> dict[str, str]:
    """The ``[general]`` settings of an OpenAL Soft configuration (keys before any section
    are general too)."""
    found: dict[str, str] = {}
    section = "general"
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1].strip().lower()
        elif "=" in line and section == "general":
            key, value = line.split("=", 1)
            found[key.strip().lower()] = value.strip()
    return found


def period_config(env: dict[str, str], period_ms: int = PERIOD_MS) -> str | None:
    """The configuration text to hand OpenAL Soft as ``ALSOFT_CONF``: the player's own
    ``ALSOFT_CONF`` followed by ``period_size`` (``period_ms`` at the output rate their
    configuration names, else ``OUTPUT_RATE``) and ``periods = 3``. None where any of their
    configuration files sets ``period_size`` already (theirs wins), or where their
    ``ALSOFT_CONF`` cannot be read whole (it is left to OpenAL Soft as it is)."""
    theirs = _read_text(Path(env["ALSOFT_CONF"])) if env.get("ALSOFT_CONF") else ""
    if theirs is None:  # theirs cannot be carried over whole: it stands, we ask nothing
        return None
    settings: dict[str, str] = {}
    for path in _config_files(env):
        settings.update(_general(_read_text(path) or ""))
    settings.update(_general(theirs))
    if "period_size" in settings:
        return None
    try:
        rate = int(settings.get("frequency", OUTPUT_RATE))
    except ValueError:
        rate = OUTPUT_RATE
    rate = rate if 8000 <= rate <= 192000 else OUTPUT_RATE
    frames = max(64, round(rate * period_ms / 1000 / 4) * 4)  # OpenAL Soft: a multiple of 4
    return f"{theirs}\n[general]\nperiod_size = {frames}\nperiods = 3\n"


@contextlib.contextmanager
def _config_in_memory(text: str | None) -> Iterator[None]:
    """``ALSOFT_CONF`` names a file holding ``text`` while OpenAL Soft starts (it reads its
    configuration once, at its first call): an anonymous file in memory, never on disk, and
    the variable is put back afterwards so child processes never see it. Nothing where
    ``text`` is None (the caller asks nothing where the platform has no ``memfd``)."""
    if text is None:
        yield
        return
    fd = os.memfd_create("asteroids-alsoft.conf")
    saved = os.environ.get("ALSOFT_CONF")
    try:
        os.write(fd, text.encode("utf-8"))
        os.environ["ALSOFT_CONF"] = f"/proc/{os.getpid()}/fd/{fd}"
        yield
    finally:
        if saved is None:
            os.environ.pop("ALSOFT_CONF", None)
        else:
            os.environ["ALSOFT_CONF"] = saved
        os.close(fd)


def _load() -> Any:
    path = _library_path()
    if path is None:
        raise NoOutput("OpenAL is not installed (Debian: apt-get install libopenal1)")
    try:  # PyDLL: a call keeps Python's lock (CDLL gives it up and waits to get it back,
        lib = ctypes.PyDLL(path)  # up to a switch interval, 5 ms, per call while the game runs)
    except OSError as exc:
        raise NoOutput(f"OpenAL could not be loaded ({exc})") from exc
    vp, i, u = ctypes.c_void_p, ctypes.c_int, ctypes.c_uint
    ip, up = ctypes.POINTER(i), ctypes.POINTER(u)
    for name, res, args in (
            ("alcOpenDevice", vp, [ctypes.c_char_p]), ("alcCloseDevice", ctypes.c_char, [vp]),
            ("alcCreateContext", vp, [vp, ip]), ("alcDestroyContext", None, [vp]),
            ("alcMakeContextCurrent", ctypes.c_char, [vp]),
            ("alcGetIntegerv", None, [vp, i, i, ip]), ("alcGetString", ctypes.c_char_p, [vp, i]),
            ("alGenSources", None, [i, up]), ("alDeleteSources", None, [i, up]),
            ("alGenBuffers", None, [i, up]), ("alDeleteBuffers", None, [i, up]),
            ("alBufferData", None, [u, i, ctypes.c_char_p, i, i]),
            ("alSourceQueueBuffers", None, [u, i, up]),
            ("alSourceUnqueueBuffers", None, [u, i, up]),
            ("alGetSourcei", None, [u, i, ip]), ("alSourcei", None, [u, i, i]),
            ("alSourcePlay", None, [u]), ("alSourceStop", None, [u]),
            ("alGetError", i, [])):
        fn = getattr(lib, name)
        fn.restype, fn.argtypes = res, args
    return lib


def _realtime() -> bool:
    """Make the calling thread a real-time one (``SCHED_FIFO`` at ``RT_PRIORITY``) where the
    process may (as root, or within ``RLIMIT_RTPRIO``); False, silently, elsewhere. It then
    runs as soon as it wakes, ahead of every ordinary thread of every process: under a load of
    4 on 2 cores an ordinary feeder was left waiting 217 ms and the source ran dry. It sleeps
    ``POLL_MS`` between looks and does little when awake, so it never holds a core."""
    if not hasattr(os, "sched_setscheduler"):
        return False
    try:
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(RT_PRIORITY))
    except (OSError, ValueError):
        return False
    return True


class OpenALStream:
    """One OpenAL source playing mono 16-bit samples from ``render(n) -> bytes``.

    Args:
        render: ``n`` -> ``n`` samples as 16-bit bytes; called from the driver's thread.
        rate: sample rate in Hz.
        buffer_ms: audio per buffer (``BUFFER_MS``).
        queue_ms: audio kept queued (``QUEUE_MS``).
        period_ms: the period OpenAL Soft is asked for (``PERIOD_MS``); None asks nothing.

    Raises:
        NoOutput: no OpenAL, no device, or only its null output.
    """

    tuned = True
    """The queue is ours, as ``StreamPlayer.tuned`` says for pyglet's."""

    def __init__(self, render: Callable[[int], bytes], rate: int, *,
                 buffer_ms: int = BUFFER_MS, queue_ms: int = QUEUE_MS,
                 period_ms: int | None = PERIOD_MS) -> None:
        self._al = al = _load()
        self.rate = rate
        self._frames = max(1, rate * buffer_ms // 1000)
        count = max(2, round(queue_ms / buffer_ms))
        self.queue_s = count * self._frames / rate
        """The audio kept queued on the source (fixed)."""
        self.underruns = 0
        """Times the source ran dry and was started again (``SoundBank.render`` tells the
        mixer, which anchors its map afresh)."""
        self.error: str | None = None
        """The last exception ``render`` raised (its buffer played silence)."""
        asks = period_ms and hasattr(os, "memfd_create")  # else nothing is asked
        conf = period_config(dict(os.environ), period_ms) if asks else None
        with _config_in_memory(conf):
            self._device = al.alcOpenDevice(None)
        if not self._device:
            raise NoOutput("OpenAL found no audio device")
        name = al.alcGetString(self._device, _ALC_DEVICE_SPECIFIER) or b""
        self.device_name: str = name.decode("utf-8", "replace")
        """The output OpenAL opened (OpenAL Soft: ``OpenAL Soft``, ``Wave File Writer``...)."""
        if self.device_name == _NULL_OUTPUT:
            al.alcCloseDevice(self._device)
            raise NoOutput("OpenAL found no audio output (only its null output)")
        self._context = al.alcCreateContext(self._device, None)
        if not self._context or not al.alcMakeContextCurrent(self._context):
            al.alcCloseDevice(self._device)
            raise NoOutput("OpenAL could not make a context")
        self.period_frames = self._period_frames(conf)
        """The frames OpenAL Soft mixes at a time: what this driver asked for, else read back
        from the device (its refresh rate, rounded)."""
        self.period_s = self.period_frames / self.output_rate if self.output_rate else 0.0
        """That period, in seconds."""
        self._source = ctypes.c_uint()
        al.alGenSources(1, ctypes.byref(self._source))
        al.alSourcei(self._source, _AL_SOURCE_RELATIVE, 1)
        buffers = (ctypes.c_uint * count)()
        al.alGenBuffers(count, buffers)
        self._buffers = list(buffers)
        silence = bytes(2 * self._frames)
        for buffer in self._buffers:  # the queue starts full of silence, then plays
            al.alBufferData(buffer, _AL_FORMAT_MONO16, silence, len(silence), rate)
        al.alSourceQueueBuffers(self._source, count, buffers)
        al.alSourcePlay(self._source)
        if al.alGetError() != 0:
            self.delete()
            raise NoOutput("OpenAL would not play a stream")
        self._render = render
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._feed, name="asteroids-openal",
                                        daemon=True)
        self._thread.start()

    def _period_frames(self, conf: str | None) -> int:
        al, value = self._al, ctypes.c_int()
        al.alcGetIntegerv(self._device, _ALC_FREQUENCY, 1, ctypes.byref(value))
        self.output_rate = max(value.value, 0)
        """The rate OpenAL Soft mixes at (0: not known)."""
        if conf is not None:  # what this driver asked for
            return int(_general(conf)["period_size"])
        al.alcGetIntegerv(self._device, _ALC_REFRESH, 1, ctypes.byref(value))
        return round(self.output_rate / value.value) if value.value > 0 else 0

    def _feed(self) -> None:
        """The driver's thread: refill each buffer OpenAL has played, restart a dry source."""
        self.realtime = _realtime()
        al, source = self._al, self._source
        done, state, one = ctypes.c_int(), ctypes.c_int(), ctypes.c_uint()
        nbytes = 2 * self._frames
        while not self._stop.is_set():
            with self._lock:
                if self._stop.is_set():
                    return
                al.alGetSourcei(source, _AL_BUFFERS_PROCESSED, ctypes.byref(done))
                for _ in range(done.value):
                    al.alSourceUnqueueBuffers(source, 1, ctypes.byref(one))
                    try:
                        data = self._render(self._frames)
                    except Exception as exc:  # one bad buffer never stops the stream
                        self.error = f"{type(exc).__name__}: {exc}"
                        data = bytes(nbytes)
                    al.alBufferData(one, _AL_FORMAT_MONO16, data[:nbytes], nbytes, self.rate)
                    al.alSourceQueueBuffers(source, 1, ctypes.byref(one))
                al.alGetSourcei(source, _AL_SOURCE_STATE, ctypes.byref(state))
                if state.value != _AL_PLAYING:  # ran dry: OpenAL stopped the source
                    self.underruns += 1
                    al.alSourcePlay(source)
            time.sleep(POLL_MS / 1000.0)

    realtime = False
    """Whether the feeder runs as a real-time thread (``_realtime``)."""

    def grow(self) -> float:
        """After an underrun: the queue stays (the clock map is anchored afresh instead).
        Returns it, in seconds."""
        return self.queue_s

    def pause(self) -> None:
        """Stop feeding and playing (the stream is closing)."""
        self._stop.set()
        with self._lock:
            if self._context is not None:
                self._al.alSourceStop(self._source)

    def delete(self) -> None:
        """Close the source, the context and the device for good."""
        self._stop.set()
        thread = getattr(self, "_thread", None)
        if thread is not None and thread is not threading.current_thread():
            thread.join(1.0)
        al = self._al
        with contextlib.suppress(AttributeError):
            if self._context is not None:
                al.alSourceStop(self._source)
                al.alDeleteSources(1, ctypes.byref(self._source))
                buffers = (ctypes.c_uint * len(self._buffers))(*self._buffers)
                al.alDeleteBuffers(len(self._buffers), buffers)
                al.alcMakeContextCurrent(None)
                al.alcDestroyContext(self._context)
                self._context = None
            if self._device:
                al.alcCloseDevice(self._device)
                self._device = None

    def describe(self) -> str:
        """The driver, its output, its period and its queue, for the game's report line."""
        period = f"{self.period_s * 1000:.1f} ms periods" if self.period_s else "its periods"
        return (f"{NAME} driver ({self.device_name}, ours), {period}, "
                f"{round(self.queue_s * 1000)} ms queue")
