"""Personas by name: the bundled ones, ``perfect`` (the core's aimer) and persona files.

``asteroids record --bot novice``, ``asteroids balance --persona novice,expert`` and the
lab's engines find pilots through ``asteroids.replay.record.get_bot``, which asks here for
any name the core's bots do not have.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from asteroids.config.schema import Config
from asteroids.core import World
from asteroids.pilots.persona import BUNDLED, Persona, bundled_persona, load_persona_file
from asteroids.pilots.pilot import PersonaPilot

__all__ = ["PERFECT", "PERSONA_NAMES", "is_persona_file", "load_persona", "pilot_for"]

PERFECT = "perfect"
"""Today's aimer bot (``asteroids.core.bot.aimer_bot``): no human limit at all."""

PERSONA_NAMES = (*BUNDLED, PERFECT)
"""Every persona known by name, from the least skilled to the aimer."""

Pilot = Callable[[World, Config], int]


def is_persona_file(name: str) -> bool:
    """Whether ``name`` reads as a persona file rather than a name (``.toml``, or a path)."""
    return name.endswith(".toml") or os.sep in name or "/" in name


def load_persona(name: str) -> Persona | None:
    """The persona called ``name`` (bundled) or written in the file ``name``; None for
    ``perfect``, which has no human parameters.

    Raises:
        KeyError: for a name that is neither (the message lists the known names).
        PersonaError: for a persona file that cannot be read or is not valid.
    """
    if name == PERFECT:
        return None
    if name in BUNDLED:
        return bundled_persona(name)
    if is_persona_file(name):
        return load_persona_file(name)
    raise KeyError(f"no persona named {name!r}; known personas: {', '.join(PERSONA_NAMES)} "
                   "(or a persona file, NAME.toml)")


def pilot_for(spec: str | Persona) -> Pilot:
    """A fresh pilot for a persona name, a persona file or a ``Persona``.

    Personas remember what they saw, so each concurrent game needs its own pilot; one pilot
    plays games one after another.

    Raises:
        KeyError, PersonaError: as ``load_persona``.
    """
    persona = spec if isinstance(spec, Persona) else load_persona(spec)
    if persona is None:
        from asteroids.core import bot as core_bot

        return core_bot.BOTS["aimer"]
    return PersonaPilot(persona)
