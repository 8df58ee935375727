"""Error messages of the collision queries' entry points name the bad argument.

Validation sits at the public entry points: the queries in ``shots``, ``contacts`` and
``overlap`` and the checks they run (``asteroids.core.geometry.checks``) reject bad input
(NaN/inf, wrong shape or row count, negative radius, bad offsets, bad world size, bad indices)
with a ``ValueError`` whose message starts with the public name of the offending argument and
says what was expected. Callers rely on that message to find the culprit, so this table calls
each validating function with otherwise valid tiny inputs and exactly ONE bad argument, and
matches the whole message, anchored (``^...$``), so a misspelt, re-cased or swapped name fails.

The geometry kernels (wrap, bounce, polygon, segment) run one path with no checks, on what a
World holds or an entry point has checked: a NaN goes in, a NaN comes out (tested last).

``asteroids.core.broadphase`` takes already-validated arrays and checks only its ``method``
(a typo would silently mean "sweep"); its public entry points are covered through the
collision functions that call it, and directly below for the method.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from asteroids.core.broadphase import box_pairs, box_self_pairs
from asteroids.core.contacts import (
    circle_circle_contact,
    circle_cross_pairs,
    circle_pairs,
    circle_segment_contacts,
)
from asteroids.core.geometry import (
    as_offsets,
    as_vec2,
    as_world_size,
    bounce_positions,
    offsets_counts,
    reflect,
    vec2,
    vec2_scale,
    wrap_delta,
    wrap_positions,
)
from asteroids.core.overlap import polygons_overlap
from asteroids.core.shots import first_hits

SQUARE = [[0.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.0, 2.0]]
TRI = [[1.0, 1.0], [1.5, 1.0], [1.0, 1.5]]
BAD_VALUES = (np.nan, np.inf, -np.inf)


def exact(msg: str) -> str:
    """Regex matching exactly ``msg`` (anchored both ends)."""
    return "^" + re.escape(msg) + "$"


def nonfinite(name: str) -> str:
    return exact(f"{name} contains NaN or inf")


def shape2(name: str, got: tuple[int, ...]) -> str:
    return exact(f"{name} must have shape (N, 2), got {got}")


def rows(name: str, n: int, got: int) -> str:
    return exact(f"{name} must have {n} rows, got {got}")


def radii_shape(name: str, n: int, got: tuple[int, ...]) -> str:
    return exact(f"{name} must have shape ({n},), got {got}")


def radius(name: str) -> str:
    return exact(f"{name} must be finite and >= 0")


def offs_ends(name: str, n_points: int) -> str:
    return exact(f"{name} must start at 0 and end at {n_points} (the number of points)")


def offs_int(name: str) -> str:
    return exact(f"{name} must be an integer array, got dtype float64")


def offs_strict(name: str) -> str:
    return exact(f"{name} must be strictly increasing: every body needs >= 1 point")


def offs_shape(name: str, got: tuple[int, ...]) -> str:
    return exact(f"{name} must have shape (B + 1,), got {got}")


WORLD_POSITIVE = "^" + re.escape("world_size must be two finite positive numbers, got ")
WORLD_TWO = "^" + re.escape("world_size must be two numbers (W, H), got ")
METHOD = exact("method must be one of auto, direct, sweep, got 'grid'")


def poison(x: Any, value: float) -> np.ndarray:
    """A float copy of ``x`` with its first entry replaced by ``value``."""
    a = np.array(x, dtype=np.float64)
    a.flat[0] = value
    return a


# Valid calls: (function, keyword arguments). Every case below changes ONE of these arguments.
BASE: dict[str, tuple[Callable[..., Any], dict[str, Any]]] = {
    "as_vec2": (as_vec2, {"x": [[1.0, 2.0]], "name": "thing", "n": 1}),
    "vec2_scale": (vec2_scale, {"x": [[1.0, 2.0]], "name": "thing", "n": 1}),
    "vec2": (vec2, {"x": [[1.0, 2.0]], "name": "thing", "n": 1}),
    "as_offsets": (as_offsets, {"offsets": [0, 2, 4], "n_points": 4, "name": "outline_offs"}),
    "offsets_counts": (offsets_counts, {"offsets": [0, 2, 4], "n_points": 4}),
    "as_world_size": (as_world_size, {"world_size": (800.0, 600.0)}),
    "first_hits": (
        first_hits,
        {
            "starts": [[-1.0, 1.0]],
            "ends": [[1.0, 1.0]],
            "points": SQUARE,
            "offsets": [0, 4],
            "world_size": (100.0, 100.0),
            "body_motion": [[0.5, 0.0]],
        },
    ),
    "circle_pairs": (
        circle_pairs,
        {"centers": [[0.0, 0.0], [3.0, 0.0]], "radii": [1.0, 2.0], "world_size": (100.0, 100.0)},
    ),
    "circle_cross_pairs": (
        circle_cross_pairs,
        {
            "centers_a": [[0.0, 0.0]],
            "radii_a": [1.0],
            "centers_b": [[5.0, 0.0], [1.5, 0.0]],
            "radii_b": [1.0, 1.0],
            "world_size": (100.0, 100.0),
        },
    ),
    "circle_circle_contact": (
        circle_circle_contact,
        {
            "c1": [[0.0, 0.0]],
            "r1": [2.0],
            "c2": [[3.0, 0.0]],
            "r2": [2.0],
            "world_size": (100.0, 100.0),
        },
    ),
    "circle_segment_contacts": (
        circle_segment_contacts,
        {
            "centers": [[3.0, 1.0]],
            "radii": [1.5],
            "points": SQUARE,
            "offsets": [0, 4],
            "world_size": (100.0, 100.0),
        },
    ),
    "polygons_overlap": (
        polygons_overlap,
        {
            "points_a": SQUARE,
            "offsets_a": [0, 4],
            "points_b": TRI,
            "offsets_b": [0, 3],
            "pairs_a": [0],
            "pairs_b": [0],
            "world_size": (100.0, 100.0),
        },
    ),
}


def case(func: str, label: str, pattern: str, **bad: Any) -> Any:
    return pytest.param(func, bad, pattern, id=f"{func}-{label}")


def nonfinite_cases(func: str, arg: str, pattern: str | None = None) -> list[Any]:
    """One case per NaN, inf and -inf written into the first entry of ``arg``."""
    good = BASE[func][1][arg]
    return [
        case(
            func,
            f"{arg}={v}",
            nonfinite(arg) if pattern is None else pattern,
            **{arg: poison(good, v)},
        )
        for v in BAD_VALUES
    ]


def world_cases(func: str) -> list[Any]:
    return [
        case(func, "world_size-zero", WORLD_POSITIVE, world_size=(0.0, 10.0)),
        case(func, "world_size-negative", WORLD_POSITIVE, world_size=(10.0, -1.0)),
        case(func, "world_size-nan", WORLD_POSITIVE, world_size=(np.nan, 10.0)),
        case(func, "world_size-inf", WORLD_POSITIVE, world_size=(10.0, np.inf)),
        case(func, "world_size-one-number", WORLD_TWO, world_size=(10.0,)),
        case(func, "world_size-three-numbers", WORLD_TWO, world_size=(1.0, 2.0, 3.0)),
        case(func, "world_size-scalar", WORLD_TWO, world_size=5.0),
    ]


def offsets_cases(func: str, arg: str, n_points: int) -> list[Any]:
    """Bad packed-outline offsets for an outline of ``n_points`` points in one body."""
    return [
        case(func, f"{arg}-short-end", offs_ends(arg, n_points), **{arg: [0, n_points - 1]}),
        case(func, f"{arg}-long-end", offs_ends(arg, n_points), **{arg: [0, n_points + 1]}),
        case(func, f"{arg}-no-zero", offs_ends(arg, n_points), **{arg: [1, n_points]}),
        case(func, f"{arg}-float", offs_int(arg), **{arg: [0.0, float(n_points)]}),
        case(func, f"{arg}-empty-body", offs_strict(arg), **{arg: [0, 1, 1, n_points]}),
        case(func, f"{arg}-scalar", offs_shape(arg, ()), **{arg: np.int64(0)}),
        case(func, f"{arg}-empty", offs_shape(arg, (0,)), **{arg: np.zeros(0, np.int64)}),
        case(func, f"{arg}-2d", offs_shape(arg, (1, 2)), **{arg: [[0, n_points]]}),
    ]


CASES: list[Any] = [
    # ---- geometry: validation helpers use the name they are given ----
    *[
        c
        for func in ("as_vec2", "vec2_scale", "vec2")
        for c in (
            case(func, "shape", shape2("thing", (2,)), x=[1.0, 2.0]),
            case(func, "rows", rows("thing", 1, 2), x=[[1.0, 2.0], [3.0, 4.0]]),
        )
    ],
    *nonfinite_cases("as_vec2", "x", nonfinite("thing")),
    *nonfinite_cases("vec2_scale", "x", nonfinite("thing")),
    case("as_offsets", "ends", offs_ends("outline_offs", 4), offsets=[0, 2, 3]),
    case("as_offsets", "float", offs_int("outline_offs"), offsets=[0.0, 2.0, 4.0]),
    case("as_offsets", "strict", offs_strict("outline_offs"), offsets=[0, 2, 2, 4]),
    case("as_offsets", "shape", offs_shape("outline_offs", ()), offsets=np.int64(0)),
    case("offsets_counts", "default-name", offs_strict("offsets"), offsets=[0, 4, 4]),
    case(
        "offsets_counts",
        "given-name",
        offs_ends("shape_offsets", 4),
        offsets=[0, 3],
        name="shape_offsets",
    ),
    *world_cases("as_world_size"),
    # ---- collision: first_hits (its NaN/inf cases are pinned in test_collision.py) ----
    case("first_hits", "starts-shape", shape2("starts", (2,)), starts=[-1.0, 1.0]),
    case("first_hits", "ends-rows", rows("ends", 1, 2), ends=[[1.0, 1.0], [2.0, 2.0]]),
    case("first_hits", "ends-shape", shape2("ends", (1, 3)), ends=[[1.0, 1.0, 1.0]]),
    case("first_hits", "points-shape", shape2("points", (8,)), points=np.ravel(SQUARE)),
    *offsets_cases("first_hits", "offsets", 4),
    case("first_hits", "body_motion-rows", rows("body_motion", 1, 2), body_motion=np.zeros((2, 2))),
    case("first_hits", "body_motion-shape", shape2("body_motion", (2,)), body_motion=np.zeros(2)),
    *world_cases("first_hits"),
    *(case(f, "method-unknown", METHOD, method="grid")
      for f in ("first_hits", "circle_pairs", "circle_cross_pairs", "circle_segment_contacts")),
    # ---- collision: circles ----
    case("circle_pairs", "centers-shape", shape2("centers", (2,)), centers=[0.0, 0.0]),
    *nonfinite_cases("circle_pairs", "centers"),
    case("circle_pairs", "radii-long", radii_shape("radii", 2, (3,)), radii=[1.0, 2.0, 3.0]),
    case("circle_pairs", "radii-2d", radii_shape("radii", 2, (2, 1)), radii=[[1.0], [2.0]]),
    case("circle_pairs", "radii-negative", radius("radii"), radii=[1.0, -0.5]),
    *nonfinite_cases("circle_pairs", "radii", radius("radii")),
    *world_cases("circle_pairs"),
    *[
        c
        for side, n in (("a", 1), ("b", 2))
        for c in (
            case(
                "circle_cross_pairs",
                f"centers_{side}-shape",
                shape2(f"centers_{side}", (3,)),
                **{f"centers_{side}": [0.0, 0.0, 0.0]},
            ),
            *nonfinite_cases("circle_cross_pairs", f"centers_{side}"),
            case(
                "circle_cross_pairs",
                f"radii_{side}-long",
                radii_shape(f"radii_{side}", n, (3,)),
                **{f"radii_{side}": [1.0, 1.0, 1.0]},
            ),
            case(
                "circle_cross_pairs",
                f"radii_{side}-negative",
                radius(f"radii_{side}"),
                **{f"radii_{side}": [-1.0] * n},
            ),
            *nonfinite_cases("circle_cross_pairs", f"radii_{side}", radius(f"radii_{side}")),
        )
    ],
    *world_cases("circle_cross_pairs"),
    case("circle_circle_contact", "c1-shape", shape2("c1", (2,)), c1=[0.0, 0.0]),
    *nonfinite_cases("circle_circle_contact", "c1"),
    case("circle_circle_contact", "c2-rows", rows("c2", 1, 2), c2=[[3.0, 0.0], [4.0, 0.0]]),
    case("circle_circle_contact", "c2-shape", shape2("c2", (1, 1)), c2=[[3.0]]),
    *nonfinite_cases("circle_circle_contact", "c2"),
    *[
        c
        for arg in ("r1", "r2")
        for c in (
            case(
                "circle_circle_contact",
                f"{arg}-long",
                radii_shape(arg, 1, (2,)),
                **{arg: [2.0, 2.0]},
            ),
            case("circle_circle_contact", f"{arg}-scalar", radii_shape(arg, 1, ()), **{arg: 2.0}),
            case("circle_circle_contact", f"{arg}-negative", radius(arg), **{arg: [-2.0]}),
            *nonfinite_cases("circle_circle_contact", arg, radius(arg)),
        )
    ],
    *world_cases("circle_circle_contact"),
    case("circle_segment_contacts", "centers-shape", shape2("centers", (2,)), centers=[3.0, 1.0]),
    *nonfinite_cases("circle_segment_contacts", "centers"),
    case("circle_segment_contacts", "radii-long", radii_shape("radii", 1, (2,)), radii=[1.5, 1.5]),
    case("circle_segment_contacts", "radii-negative", radius("radii"), radii=[-1.5]),
    *nonfinite_cases("circle_segment_contacts", "radii", radius("radii")),
    case(
        "circle_segment_contacts", "points-shape", shape2("points", (8,)), points=np.ravel(SQUARE)
    ),
    *nonfinite_cases("circle_segment_contacts", "points"),
    *offsets_cases("circle_segment_contacts", "offsets", 4),
    *world_cases("circle_segment_contacts"),
    # ---- collision: polygon overlap ----
    case("polygons_overlap", "points_a-shape", shape2("points_a", (8,)), points_a=np.ravel(SQUARE)),
    *nonfinite_cases("polygons_overlap", "points_a"),
    *offsets_cases("polygons_overlap", "offsets_a", 4),
    case(
        "polygons_overlap",
        "points_b-shape",
        shape2("points_b", (3, 1)),
        points_b=[[1.0], [1.0], [1.0]],
    ),
    *nonfinite_cases("polygons_overlap", "points_b"),
    *offsets_cases("polygons_overlap", "offsets_b", 3),
    case(
        "polygons_overlap",
        "pairs-lengths",
        exact("pairs_a and pairs_b must be 1-D arrays of equal length"),
        pairs_a=[0, 0],
    ),
    case(
        "polygons_overlap",
        "pairs-2d",
        exact("pairs_a and pairs_b must be 1-D arrays of equal length"),
        pairs_a=[[0]],
        pairs_b=[[0]],
    ),
    case("polygons_overlap", "pairs_a-too-big", exact("pairs_a index out of range"), pairs_a=[1]),
    case("polygons_overlap", "pairs_a-negative", exact("pairs_a index out of range"), pairs_a=[-1]),
    case("polygons_overlap", "pairs_b-too-big", exact("pairs_b index out of range"), pairs_b=[1]),
    case("polygons_overlap", "pairs_b-negative", exact("pairs_b index out of range"), pairs_b=[-1]),
    *world_cases("polygons_overlap"),
]


@pytest.mark.parametrize("func", sorted(BASE))
def test_base_call_is_valid(func: str) -> None:
    """The unmodified inputs are accepted, so each case below fails only by its one change."""
    fn, kwargs = BASE[func]
    fn(**kwargs)


@pytest.mark.parametrize(("func", "bad", "pattern"), CASES)
def test_error_names_the_bad_argument(func: str, bad: dict[str, Any], pattern: str) -> None:
    fn, kwargs = BASE[func]
    with pytest.raises(ValueError, match=pattern):
        fn(**{**kwargs, **bad})


def test_first_hits_general_path_names_arguments() -> None:
    """``method="direct"`` skips the small-scene fast path: the general path names them too."""
    fn, kwargs = BASE["first_hits"]
    with pytest.raises(ValueError, match=rows("ends", 1, 2)):
        fn(**{**kwargs, "ends": [[1.0, 1.0], [2.0, 2.0]]}, method="direct")
    with pytest.raises(ValueError, match=offs_ends("offsets", 4)):
        fn(**{**kwargs, "offsets": [0, 3]}, method="direct")
    with pytest.raises(ValueError, match=rows("body_motion", 1, 2)):
        fn(**{**kwargs, "body_motion": np.zeros((2, 2))}, method="direct")
    with pytest.raises(ValueError, match=WORLD_POSITIVE):
        fn(**{**kwargs, "world_size": (0.0, 1.0)}, method="direct")


@pytest.mark.parametrize("method", ["auto", "direct", "sweep"])
def test_every_named_method_is_accepted(method: str) -> None:
    """The methods the docstrings name are the ones the kernels take, with the same pairs."""
    fn, kwargs = BASE["circle_pairs"]
    i, j = fn(**kwargs, method=method)
    ref_i, ref_j = fn(**kwargs)
    assert i.tolist() == ref_i.tolist() and j.tolist() == ref_j.tolist()


def test_broadphase_refuses_unknown_method_even_with_no_boxes() -> None:
    empty = np.zeros((0, 2))
    with pytest.raises(ValueError, match=METHOD):
        box_pairs(empty, empty, empty, empty, None, method="grid")
    with pytest.raises(ValueError, match=METHOD):
        box_self_pairs(empty, empty, None, method="grid")


@pytest.mark.parametrize("bad", BAD_VALUES)
def test_kernels_pass_a_broken_value_through_unchecked(bad: float) -> None:
    """The kernels have one path and no checks: a non-finite input gives a non-finite output
    (which ``state_hash`` then refuses), never an exception and never a finite value."""
    size = np.array([800.0, 600.0])
    p = np.array([[bad, 10.0]])
    with np.errstate(invalid="ignore"):  # numpy's own warning for inf % W; no check of ours
        assert not np.isfinite(wrap_positions(p, size)[0, 0])
        assert not np.isfinite(wrap_delta(p, size)[0, 0])
        pos, _ = bounce_positions(p, np.array([[1.0, 0.0]]), np.zeros(2), size)
        out = reflect(np.array([[bad, -4.0]]), np.array([[0.0, 1.0]]))
    assert not np.isfinite(pos[0, 0]) and pos[0, 1] == 10.0
    assert not np.isfinite(out).all()
