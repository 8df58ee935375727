"""Which audio driver plays (issue 37, item 2): ``asteroids play --audio openal``.

Our own drivers come first; pyglet's are what they fall back to:

- ``openal``: our OpenAL driver (``audio_openal``: short buffers on one source, OpenAL Soft
  asked for 5 ms periods), on the ``libopenal`` pyglet uses too;
- ``pulse``: our callback driver (``audio_miniaudio``) on PulseAudio (PipeWire serves it too),
  when the ``miniaudio`` package is installed (``pip install 'asteroids[audio]'``);
- ``miniaudio``: our callback driver on whichever output miniaudio finds first;
- ``auto``: ``miniaudio``, then ``openal``, then pyglet's order;
- ``pyglet-openal``, ``pyglet-pulse``: pyglet's own drivers (a longer lag: 72-100 ms from tick
  to sound against ours' 46-52, measured in docs/maintainers/sound-timing.md);
- ``silent``: none.

A driver of ours that cannot open (no package, no library, no output) falls back to pyglet's
order for that choice, and the game's report line says why. pyglet opens a driver when
``pyglet.media`` is imported (by arcade): with ours first it opens its silent one, so that it
holds no device of its own, and ``open_fallback`` opens its real order only if ours fail.

pyglet opens its audio driver when ``pyglet.media`` is first imported, from
``pyglet.options["audio"]``; arcade imports ``pyglet.media`` (``arcade/sound.py``) *before*
it copies ``ARCADE_SOUND_BACKENDS`` into those options, so that variable alone changes
nothing (``=pulse`` still gave OpenAL). ``choose`` sets the options before anything imports
``pyglet.media``; ``current`` names the driver that was opened.
"""

from __future__ import annotations

import contextlib
import os
import sys

__all__ = ["CHOICES", "OURS", "TooLate", "choose", "current",
           "current_if_open", "open_fallback", "ours"]

_PYGLET_AUTO = ("openal", "xaudio2", "directsound", "pulse", "silent")
CHOICES: dict[str, tuple[str, ...]] = {
    "auto": _PYGLET_AUTO,
    "miniaudio": _PYGLET_AUTO,
    "openal": ("openal",),
    "pulse": ("pulse",),
    "pyglet-openal": ("openal",),
    "pyglet-pulse": ("pulse",),
    "silent": ("silent",),
}
"""``--audio`` choices -> pyglet's driver order (``auto``: arcade's own order, or
``ARCADE_SOUND_BACKENDS`` when set; ``miniaudio``: the order it falls back to). A driver
that fails to open falls back to silence."""

OURS: dict[str, tuple[str, ...]] = {
    "auto": ("miniaudio", "openal"),
    "miniaudio": ("miniaudio",),
    "openal": ("openal",),
    "pulse": ("miniaudio-pulse",),
}
"""``--audio`` choices -> our own drivers, tried in this order before pyglet's
(``miniaudio-pulse``: ``audio_miniaudio`` on PulseAudio only)."""

_ours: list[tuple[str, ...]] = [()]
"""Our drivers the sound bank tries before pyglet's (set by ``choose``)."""
_fallback: list[tuple[str, ...]] = [()]
"""pyglet's order to open when none of ours does (set by ``choose``, used once)."""

_NAMES = {"OpenALDriver": "openal", "PulseAudioDriver": "pulse", "SilentDriver": "silent",
          "XAudio2Driver": "xaudio2", "DirectSoundDriver": "directsound"}


class TooLate(RuntimeError):
    """pyglet has already opened its audio driver: the choice cannot take effect."""


def choose(name: str) -> tuple[str, ...]:
    """Choose driver ``name`` (a key of ``CHOICES``); returns pyglet's order for it.

    Where drivers of ours come first (``OURS``), pyglet opens its silent driver when arcade
    imports it, so that it holds no device of its own (two OpenAL devices would both play),
    and ``open_fallback`` opens pyglet's order if none of ours opens. Must run before
    ``arcade`` or ``pyglet.media`` is imported for pyglet's own choices.

    Raises:
        KeyError: for an unknown name.
        TooLate: pyglet's driver is already open (unless it is the order asked for) and
            none of ours is to be tried first.
    """
    order = CHOICES[name]
    env = os.environ.get("ARCADE_SOUND_BACKENDS", "")
    pinned = name == "auto" and bool(env.strip())
    if pinned:  # the variable names pyglet's drivers: ours are not among them
        order = tuple(v.strip() for v in env.split(",") if v.strip())
    import pyglet

    first = () if pinned else OURS.get(name, ())
    opened = "pyglet.media.drivers" in sys.modules
    if opened and not first and tuple(pyglet.options["audio"]) != order:
        raise TooLate(f"the audio driver is already open ({current()}): --audio {name} "
                      "cannot take effect")
    _ours[0], _fallback[0] = first, (order if first else ())
    if opened:
        return order
    if first:  # pyglet holds nothing while ours play (arcade's own order is cosmetic then)
        pyglet.options["audio"] = ("silent",)
    else:
        pyglet.options["audio"] = order
        os.environ["ARCADE_SOUND_BACKENDS"] = ",".join(order)  # arcade sets the same after
    return order


def current_if_open() -> str | None:
    """The driver pyglet opened, or None when ``pyglet.media`` is not imported yet (opens
    nothing)."""
    return current() if "pyglet.media.drivers" in sys.modules else None


def open_fallback() -> str:
    """None of our drivers opened: open pyglet's order for the choice (pyglet opened its
    silent driver meanwhile). Returns the driver pyglet has now (``current``)."""
    order, _fallback[0] = _fallback[0], ()
    if not order or current() in order:
        return current()
    import importlib

    import pyglet.media.drivers as drivers

    for name in order:
        try:
            driver = importlib.import_module(f"pyglet.media.drivers.{name}").create_audio_driver()
        except Exception:  # noqa: S112  (pyglet's own loop: the next driver may open)
            continue
        if driver is not None:
            old, drivers._audio_driver = drivers._audio_driver, driver  # type: ignore[attr-defined]
            with contextlib.suppress(Exception):
                old.delete()
            break
    return current()


def ours() -> tuple[str, ...]:
    """Our drivers the sound bank tries before pyglet's, in order (``OURS``; none for
    ``auto`` when ``ARCADE_SOUND_BACKENDS`` names pyglet's drivers). Empty until ``choose``
    runs: tests and tools that build a sound bank themselves get pyglet's driver."""
    return _ours[0]



def current() -> str:
    """The driver pyglet opened (``openal``, ``pulse``, ``silent``, ...); opens it if none
    is open yet."""
    from pyglet.media.drivers import get_audio_driver

    driver = get_audio_driver()
    kind = type(driver).__name__
    return "none" if driver is None else _NAMES.get(kind, kind)
