"""Which audio driver plays (issue 37, item 2): ``asteroids play --audio openal``.

``miniaudio`` is our own driver (``audio_miniaudio``: a device that calls back for each
10 ms period); the others are pyglet's. ``auto`` tries ours first when the ``miniaudio``
package is installed (the shortest lag: 50-54 ms from tick to sound against pyglet's 81-86,
measured in docs/maintainers/sound-timing.md), then pyglet's order; ``--audio miniaudio``
without the package, or without an output it can open, falls back to pyglet's order too,
and the game's report line says so. pyglet opens its driver only when the sound bank asks
for it, so with ours playing pyglet opens none.

pyglet opens its audio driver when ``pyglet.media`` is first imported, from
``pyglet.options["audio"]``; arcade imports ``pyglet.media`` (``arcade/sound.py``) *before*
it copies ``ARCADE_SOUND_BACKENDS`` into those options, so that variable alone changes
nothing (``=pulse`` still gave OpenAL). ``choose`` sets the options before anything imports
``pyglet.media``; ``current`` names the driver that was opened.
"""

from __future__ import annotations

import os
import sys

__all__ = ["CHOICES", "TooLate", "callback_first", "choose", "current"]

_PYGLET_AUTO = ("openal", "xaudio2", "directsound", "pulse", "silent")
CHOICES: dict[str, tuple[str, ...]] = {
    "auto": _PYGLET_AUTO,
    "miniaudio": _PYGLET_AUTO,
    "openal": ("openal",),
    "pulse": ("pulse",),
    "silent": ("silent",),
}
"""``--audio`` choices -> pyglet's driver order (``auto``: arcade's own order, or
``ARCADE_SOUND_BACKENDS`` when set; ``miniaudio``: the order it falls back to). A driver
that fails to open falls back to silence."""

_callback: list[bool] = [False]
"""Whether the sound bank tries ``miniaudio`` before pyglet (set by ``choose``)."""

_NAMES = {"OpenALDriver": "openal", "PulseAudioDriver": "pulse", "SilentDriver": "silent",
          "XAudio2Driver": "xaudio2", "DirectSoundDriver": "directsound"}


class TooLate(RuntimeError):
    """pyglet has already opened its audio driver: the choice cannot take effect."""


def choose(name: str) -> tuple[str, ...]:
    """Make pyglet open driver ``name`` (a key of ``CHOICES``) and return the order set.

    Must run before ``arcade`` or ``pyglet.media`` is imported.

    Raises:
        KeyError: for an unknown name.
        TooLate: pyglet's driver is already open (unless it is the order asked for).
    """
    order = CHOICES[name]
    env = os.environ.get("ARCADE_SOUND_BACKENDS", "")
    pinned = name == "auto" and bool(env.strip())
    if pinned:  # the variable names pyglet's drivers: ours is not among them
        order = tuple(v.strip() for v in env.split(",") if v.strip())
    import pyglet

    if "pyglet.media.drivers" in sys.modules and tuple(pyglet.options["audio"]) != order:
        raise TooLate(f"the audio driver is already open ({current()}): --audio {name} "
                      "cannot take effect")
    _callback[0] = name == "miniaudio" or (name == "auto" and not pinned)
    if "pyglet.media.drivers" in sys.modules:
        return order
    pyglet.options["audio"] = order
    os.environ["ARCADE_SOUND_BACKENDS"] = ",".join(order)  # arcade sets the same after
    return order


def callback_first() -> bool:
    """Whether the sound bank tries our ``miniaudio`` driver before pyglet's: ``--audio
    miniaudio``, or ``auto`` without ``ARCADE_SOUND_BACKENDS``. False until ``choose`` runs
    (tests and tools that build a sound bank themselves get pyglet's driver)."""
    return _callback[0]


def current() -> str:
    """The driver pyglet opened (``openal``, ``pulse``, ``silent``, ...); opens it if none
    is open yet."""
    from pyglet.media.drivers import get_audio_driver

    driver = get_audio_driver()
    kind = type(driver).__name__
    return "none" if driver is None else _NAMES.get(kind, kind)
