"""Pilots that play like people: personas with human limits, and how to find them by name.

``pilot_for("novice")`` gives a fresh pilot (``pilot(world, config) -> mask``) for the
bundled personas ``novice``, ``average`` and ``expert``, for ``perfect`` (the core's aimer
bot) and for any persona file (``me.toml``). Everything a persona decides comes from the
World, its parameters and a random stream keyed on the game's seed: persona games are
reproducible and their replays verify like any other.
"""

from asteroids.pilots.persona import BUNDLED, Persona, PersonaError, bundled_persona
from asteroids.pilots.pilot import PersonaPilot
from asteroids.pilots.registry import PERSONA_NAMES, load_persona, pilot_for

__all__ = ["BUNDLED", "PERSONA_NAMES", "Persona", "PersonaError", "PersonaPilot",
           "bundled_persona", "load_persona", "pilot_for"]
