"""Which audio driver pyglet opens (issue 37, item 2): ``asteroids play --audio openal``.

pyglet opens its audio driver when ``pyglet.media`` is first imported, from
``pyglet.options["audio"]``; arcade imports ``pyglet.media`` (``arcade/sound.py``) *before*
it copies ``ARCADE_SOUND_BACKENDS`` into those options, so that variable alone changes
nothing (``=pulse`` still gave OpenAL). ``choose`` sets the options before anything imports
``pyglet.media``; ``current`` names the driver that was opened.
"""

from __future__ import annotations

import os
import sys

__all__ = ["CHOICES", "TooLate", "choose", "current"]

CHOICES: dict[str, tuple[str, ...]] = {
    "auto": ("openal", "xaudio2", "directsound", "pulse", "silent"),
    "openal": ("openal",),
    "pulse": ("pulse",),
    "silent": ("silent",),
}
"""``--audio`` choices -> pyglet's driver order (``auto``: arcade's own order, or
``ARCADE_SOUND_BACKENDS`` when set). A driver that fails to open falls back to silence."""

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
    if name == "auto" and env.strip():
        order = tuple(v.strip() for v in env.split(",") if v.strip())
    import pyglet

    if "pyglet.media.drivers" in sys.modules:
        if tuple(pyglet.options["audio"]) == order:
            return order
        raise TooLate(f"the audio driver is already open ({current()}): --audio {name} "
                      "cannot take effect")
    pyglet.options["audio"] = order
    os.environ["ARCADE_SOUND_BACKENDS"] = ",".join(order)  # arcade sets the same after
    return order


def current() -> str:
    """The driver pyglet opened (``openal``, ``pulse``, ``silent``, ...); opens it if none
    is open yet."""
    from pyglet.media.drivers import get_audio_driver

    driver = get_audio_driver()
    kind = type(driver).__name__
    return "none" if driver is None else _NAMES.get(kind, kind)
