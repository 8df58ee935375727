"""asteroids: an Asteroids-style vector game with a deterministic numpy core.

Importing the package is cheap: it imports neither arcade nor numpy.
"""

__all__ = ["__version__"]

__version__ = "0.1.0"
