"""What ``step`` and ``reset`` take, checked before a tick is played.

``step`` takes exactly what its ``action_space.contains`` takes (Gymnasium's ``Discrete``
and ``MultiDiscrete``, as installed), except a bool: ``True`` is an int to Python and to
``Discrete.contains``, but not an action here. Anything else raises ``TypeError`` (a value
of the wrong type or dtype) or ``ValueError`` (an integer out of range, an array of the
wrong shape), naming the value and the space, as Gymnasium's own environments refuse an
action outside their space, instead of playing another action (-1 indexing from the end,
1.7 cut to 1) or failing deep inside the game.

``reset`` takes ``options=None`` or a mapping with at most one key, ``"game_seed"``: an int
(or numpy integer) in ``GAME_SEEDS``.
"""

from __future__ import annotations

import reprlib
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from gymnasium import spaces

from asteroids.messages import MAX_LINE, QUOTED, clip, one_line, quote

__all__ = ["GAME_SEEDS", "OPTIONS", "action_index", "action_indices", "game_seed_option",
           "shown"]

GAME_SEEDS = range(0, 2**63)
"""The game seeds ``options={"game_seed": G}`` takes: the environment's own draws lie here,
and ``info["game_seed"]`` is int64 in a vector environment (ours and ``SyncVectorEnv``)."""
OPTIONS = ("game_seed",)
"""The keys ``reset(options=...)`` knows."""

_REPR = reprlib.Repr()
_REPR.maxlevel, _REPR.maxlist, _REPR.maxtuple, _REPR.maxdict = 3, 8, 8, 4
_REPR.maxstring, _REPR.maxother, _REPR.maxlong = QUOTED, QUOTED, 40


def shown(value: object) -> str:
    """``value`` for a message, in at most ``QUOTED`` characters and at a cost that does not
    grow with it: a string through ``messages.quote``, an int too long for Python's repr by
    its size, anything else by a bounded repr (its type when that repr fails)."""
    if isinstance(value, str):
        return quote(value)
    if isinstance(value, int) and value.bit_length() > 128:
        return f"(an int of {value.bit_length()} bits)"
    try:
        text = " ".join(_REPR.repr(value).split())  # one line (an array's repr has several)
    except Exception:  # a hostile __repr__: the message must still come out
        return f"(a {type(value).__name__})"
    return clip(text, QUOTED)


def _space_text(space: spaces.Space[Any]) -> str:
    """``space`` for a message: its repr (``Discrete(14)``), or for a long one (a
    ``MultiDiscrete`` of many games) its kind and shape."""
    text = repr(space)
    return text if len(text) <= 2 * QUOTED else f"{type(space).__name__} of shape {space.shape}"


def _refuse(kind: type[Exception], value: object, space: spaces.Space[Any],
            why: str) -> Exception:
    """The error for an action outside ``space``: one line of at most ``MAX_LINE``."""
    return kind(one_line(f"action {shown(value)} ({type(value).__name__}) is not in the "
                         f"action space {_space_text(space)}: {why}", MAX_LINE))


def _contains(space: spaces.Space[Any], value: object) -> bool:
    """``space.contains(value)``, False where it raises (a ragged list, a hostile object)."""
    try:
        return bool(space.contains(value))
    except Exception:
        return False


def action_index(space: spaces.Discrete, action: object) -> int:
    """One environment's action as an int in ``[0, space.n)``.

    Raises:
        TypeError: for a bool, a float, a string, an array of a dtype ``space`` does not
            take (floats, bools, uint64), or any other type.
        ValueError: for an integer outside the space, or an integer array of another shape
            than ``()``.
    """
    n = int(space.n)
    expect = f"actions are ints (or 0-d integer arrays) in [0, {n - 1}]"
    if _is_bool(action):
        raise _refuse(TypeError, action, space, f"a bool is not an action; {expect}")
    if _contains(space, action):
        return int(action)  # type: ignore[call-overload]
    if isinstance(action, int):
        raise _refuse(ValueError, action, space, expect)
    if isinstance(action, (np.generic, np.ndarray)) and action.dtype.kind in "iu":
        if action.shape != ():
            raise _refuse(ValueError, action, space, f"shape {action.shape}; {expect}")
        if not np.can_cast(action.dtype, space.dtype):
            raise _refuse(TypeError, action, space, f"dtype {action.dtype}; {expect}")
        raise _refuse(ValueError, action, space, expect)
    dtype = getattr(action, "dtype", None)
    why = f"dtype {dtype}" if isinstance(dtype, np.dtype) else "the wrong type"
    raise _refuse(TypeError, action, space, f"{why}; {expect}")


def _is_bool(value: object) -> bool:
    """Whether ``value`` is a bool: Python's, numpy's, or a bool array."""
    return isinstance(value, (bool, np.bool_)) or (
        isinstance(value, np.ndarray) and value.dtype.kind == "b")


def _holds_bool(actions: Sequence[object]) -> bool:
    """Whether a sequence of actions holds a bool: ``MultiDiscrete.contains`` takes
    ``[True, 2]`` as ``[1, 2]``."""
    kinds = set(map(type, actions))
    return bool in kinds or np.bool_ in kinds or any(
        _is_bool(a) for a in actions if isinstance(a, np.ndarray))


def action_indices(space: spaces.MultiDiscrete, actions: object) -> np.ndarray:
    """A vector environment's actions as an int64 array of ``space.shape``.

    A sequence is made an array once, as ``contains`` would make it, and checked as one.

    Raises:
        TypeError: for bools, an array of a dtype ``space`` does not take (floats, uint64,
            objects), or anything that is neither an array nor a sequence.
        ValueError: for the wrong shape (a ragged list too), or an action out of range.
    """
    shape, top = space.shape, int(np.max(space.nvec)) - 1
    expect = f"actions are integers in [0, {top}], shape {shape}"
    value = actions
    if isinstance(actions, Sequence) and not isinstance(actions, (str, bytes)):
        if _holds_bool(actions):
            raise _refuse(TypeError, actions, space, f"a bool is not an action; {expect}")
        try:
            value = np.array(actions)
        except Exception:  # ragged, or not numbers at all
            raise _refuse(ValueError, actions, space, expect) from None
    elif _is_bool(actions):
        raise _refuse(TypeError, actions, space, f"a bool is not an action; {expect}")
    if _contains(space, value):
        taken = np.asarray(value).astype(np.int64)
        # what contains saw of a masked array is not all its data: check what is played
        if taken.shape == shape and not ((taken < 0) | (taken > space.nvec - 1)).any():
            return taken
        raise _refuse(ValueError, actions, space, _out_of_range(taken, space, expect))
    if not isinstance(value, np.ndarray):
        raise _refuse(TypeError, actions, space, f"the wrong type; {expect}")
    if value.dtype.kind not in "iu" or not np.can_cast(value.dtype, space.dtype):
        raise _refuse(TypeError, actions, space, f"dtype {value.dtype}; {expect}")
    if value.shape != shape:
        raise _refuse(ValueError, actions, space, f"shape {value.shape}; {expect}")
    raise _refuse(ValueError, actions, space, _out_of_range(value, space, expect))


def _out_of_range(actions: np.ndarray, space: spaces.MultiDiscrete, expect: str) -> str:
    """Which game's action is out of range (the first), for the message."""
    bad = ((actions < 0) | (actions > space.nvec - 1)).nonzero()[0]
    if actions.shape != space.shape or not bad.size:
        return expect
    return f"game {int(bad[0])} has {int(actions[bad[0]])}; {expect}"


def game_seed_option(options: object) -> int | None:
    """The game seed ``reset(options=...)`` asks for, or None to draw one.

    Raises:
        TypeError: for options that are not a mapping, or a game seed that is not an int
            (a float, a bool, a string).
        ValueError: for a key other than ``OPTIONS``, or a game seed outside ``GAME_SEEDS``.
    """
    if options is None:
        return None
    if not isinstance(options, Mapping):
        raise TypeError(f"reset options must be a dict or None; got {shown(options)} "
                        f"({type(options).__name__})")
    unknown = [key for key in options if key not in OPTIONS]
    if unknown:
        names = ", ".join(shown(key) for key in unknown[:3])
        more = f" and {len(unknown) - 3} more" if len(unknown) > 3 else ""
        raise ValueError(one_line(f"unknown reset option {names}{more}: the environment "
                                  f"takes only {', '.join(map(repr, OPTIONS))}"))
    if "game_seed" not in options:
        return None
    seed = options["game_seed"]
    seeds = f"[{GAME_SEEDS.start}, 2**63)"
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)):
        raise TypeError(f"game_seed must be an int in {seeds}; got {shown(seed)} "
                        f"({type(seed).__name__})")
    if int(seed) not in GAME_SEEDS:
        raise ValueError(f"game_seed must be an int in {seeds}; got {shown(int(seed))}")
    return int(seed)
