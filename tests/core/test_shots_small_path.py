"""The fused small-scene path of the shot query (``first_hits_small``), called directly.

``test_collision.py`` checks that ``first_hits`` gives the same bits whichever path it takes.
These tests pin down *when* the fused path is taken (at its pair cap and one past it, for the
input forms the game and modders pass) and that what it returns is the general path's answer
in the cases its own code handles apart: hit points on the wrap seam, many hits at once in a
wrapping world, the broad phase's pad far from the origin, and starts inside tiny outlines.
"""

from __future__ import annotations

import numpy as np
import pytest

from asteroids.core.shots import Hits, first_hits, first_hits_small

SQUARE = np.array([[0.0, 0.0], [4.0, 0.0], [4.0, 4.0], [0.0, 4.0]])


def _same(a: Hits | None, b: Hits) -> None:
    assert a is not None, "the small path declined a scene it should take"
    for f in ("body", "edge", "t", "point"):
        x, y = getattr(a, f), getattr(b, f)
        assert x.dtype == y.dtype and x.shape == y.shape, f
        assert x.tobytes() == y.tobytes(), f


def _row_of_squares(nb: int) -> tuple[np.ndarray, np.ndarray]:
    points = np.concatenate([SQUARE + [10.0 * k, 0.0] for k in range(nb)])
    return points, np.arange(0, 4 * nb + 1, 4, dtype=np.int64)


def _shots_at_squares(n_s: int, nb: int) -> tuple[np.ndarray, np.ndarray]:
    k = np.arange(n_s) % nb
    starts = np.column_stack([10.0 * k + 2.0, -3.0 - 0.001 * (np.arange(n_s) % 500)])
    return starts, starts + [0.0, 4.0]


@pytest.mark.parametrize("nb", [1, 2, 32])
def test_small_path_taken_at_exactly_max_pairs_and_not_one_past(nb: int) -> None:
    """1024 (shot, body) pairs is the cap: at it the fused path answers (the general path's
    bits), one shot more and it declines."""
    points, offsets = _row_of_squares(nb)
    n_s = 1024 // nb
    starts, ends = _shots_at_squares(n_s, nb)
    got = first_hits_small(starts, ends, points, offsets, None, None)
    _same(got, first_hits(starts, ends, points, offsets, method="direct"))
    assert got is not None and bool(got.hit.all())
    starts, ends = _shots_at_squares(n_s + 1, nb)
    assert first_hits_small(starts, ends, points, offsets, None, None) is None


def test_small_path_takes_integer_and_list_inputs() -> None:
    """Integer arrays and plain lists (as a modder's script might pass) are read as float64,
    exactly as the general path reads them."""
    points, offsets = _row_of_squares(3)
    starts, ends = _shots_at_squares(6, 3)
    motion = [[1, 0], [0, -2], [3, 3]]
    want = first_hits(starts, ends, points, offsets, body_motion=np.array(motion, float),
                      method="direct")
    ints = (np.round(starts * 1000).astype(np.int64), np.round(ends * 1000).astype(np.int64),
            (points * 1000).astype(np.int64))
    want_ints = first_hits(*ints, offsets, body_motion=motion, method="direct")
    _same(first_hits_small(*ints, offsets, None, motion), want_ints)
    lists = (starts.tolist(), ends.tolist(), points.tolist())
    _same(first_hits_small(*lists, offsets.tolist(), None, motion), want)
    assert bool(want_ints.hit.all())


@pytest.mark.parametrize("world", [(100.0, 80.0), (100, 80), [100.0, 80.0],
                                   np.array([100.0, 80.0])])
def test_small_path_takes_every_world_size_form(world: object) -> None:
    points, offsets = _row_of_squares(3)
    starts, ends = _shots_at_squares(6, 3)
    starts[:, 1] += 40.0
    ends[:, 1] += 40.0
    points = points + [0.0, 40.0]
    want = first_hits(starts, ends, points, offsets, world_size=(100.0, 80.0), method="direct")
    _same(first_hits_small(starts, ends, points, offsets, world, None), want)


@pytest.mark.parametrize("form", ["int64", "int32", "uint64", "list", "strided"])
def test_small_path_takes_every_offsets_form(form: str) -> None:
    points, offsets = _row_of_squares(4)
    starts, ends = _shots_at_squares(8, 4)
    given = {"int64": offsets, "int32": offsets.astype(np.int32),
             "uint64": offsets.astype(np.uint64), "list": offsets.tolist(),
             "strided": np.repeat(offsets, 2)[::2]}[form]
    if form == "strided":
        assert not given.flags.c_contiguous
    want = first_hits(starts, ends, points, offsets, method="direct")
    _same(first_hits_small(starts, ends, points, given, None, None), want)


@pytest.mark.parametrize("offsets", [[0, 3, 8], [0, 5, 8], [0.0, 4.0, 8.0], [[0, 4, 8]]])
def test_small_path_declines_outlines_that_are_not_uniform(offsets: list) -> None:
    """Two bodies of 3 and 5 points (same total as two squares), float or 2-D offsets: the
    general path's business (it answers or raises)."""
    points, _ = _row_of_squares(2)
    starts, ends = _shots_at_squares(2, 2)
    assert first_hits_small(starts, ends, points, np.array(offsets), None, None) is None


@pytest.mark.parametrize(("scale", "taken"), [(1e99, True), (1e100, False)])
@pytest.mark.parametrize("side", [-1.0, 1.0])
def test_small_path_scale_limit_at_exactly_1e100(scale: float, taken: bool, side: float) -> None:
    """Coordinates up to (not reaching) 1e100 either side of the origin stay on the fused
    path; at 1e100 the general path takes over (its numpy calls report overflow)."""
    points, offsets = _row_of_squares(1)
    starts, ends = _shots_at_squares(2, 1)
    far = np.array([[side * scale, 0.0]])
    got = first_hits_small(np.concatenate([starts, far]), np.concatenate([ends, far]),
                           points, offsets, None, None)
    assert (got is not None) is taken


@pytest.mark.parametrize("axis", [0, 1])
def test_small_path_folds_a_hit_exactly_on_the_seam_to_zero(axis: int) -> None:
    """In a 100 x 80 wrapping world a shot hits a square's edge lying exactly on the right
    (top) seam: the hit point is reported at 0, not at the world's size, as the general
    path reports it."""
    world = (100.0, 80.0)
    size = world[axis]
    square = SQUARE.copy()
    square[:, axis] += size
    square[:, 1 - axis] += 20.0
    start = np.array([[size - 3.0, 22.0]]) if axis == 0 else np.array([[22.0, size - 3.0]])
    end = start.copy()
    end[0, axis] += 4.0
    want = first_hits(start, end, square, [0, 4], world_size=world, method="direct")
    assert bool(want.hit[0]) and float(want.point[0, axis]) == 0.0
    _same(first_hits_small(start, end, square, np.array([0, 4]), world, None), want)


@pytest.mark.parametrize("axis", [0, 1])
def test_small_path_folds_a_hit_a_rounding_error_below_zero_to_zero(axis: int) -> None:
    """A shot leaving the world across its left (bottom) seam hits a square whose edge lies
    on it; ``start + t * d`` comes out -3.3e-16, which wraps to the world's size in floats:
    the reported point is 0, as the general path reports it."""
    world = (100.0, 80.0)
    a, length = 0.4410372420317049, 3.2874990889720643
    square = np.array([[-4.0, 20.0], [0.0, 20.0], [0.0, 24.0], [-4.0, 24.0]])
    start, end = np.array([[a, 22.0]]), np.array([[a - length, 22.0]])
    if axis:
        square, start, end = square[::-1, ::-1].copy(), start[:, ::-1].copy(), end[:, ::-1].copy()
        world = (80.0, 100.0)
    want = first_hits(start, end, square, [0, 4], world_size=world, method="direct")
    assert bool(want.hit[0]) and float(want.point[0, axis]) == 0.0
    assert start[0, axis] + float(want.t[0]) * (end[0, axis] - start[0, axis]) < 0.0
    _same(first_hits_small(start, end, square, np.array([0, 4]), world, None), want)


def test_small_path_many_hits_in_a_wrapping_world_fold_like_the_general_path() -> None:
    """64 shots across the seam at once, at 15 squares standing on it (more candidate rows
    than the fused path reduces in Python floats), four through a corner (two edges at the
    same t): the numpy reduction folds hit points into the world and breaks ties the same
    way."""
    world = (100.0, 80.0)
    points = np.concatenate([SQUARE + [100.0, 5.0 * k] for k in range(15)])
    offsets = np.arange(0, 61, 4, dtype=np.int64)
    ys = (5.0 * np.arange(15)[:, None] + [0.5, 1.5, 2.5, 3.5]).ravel()
    ys = np.concatenate([ys, [0.0, 5.0, 10.0, 15.0]])  # through a corner: two edges, one t
    starts = np.column_stack([np.full(64, 97.0), ys])
    ends = starts + [4.0, 0.0]
    want = first_hits(starts, ends, points, offsets, world_size=world, method="direct")
    assert bool(want.hit.all()) and (want.point[:, 0] == 0.0).all()
    _same(first_hits_small(starts, ends, points, offsets, world, None), want)


@pytest.mark.parametrize("offset", [-3e4, 3e4])
def test_small_path_pad_grows_with_the_coordinates(offset: float) -> None:
    """A 2000 px shot along a square's top edge, 1.5e-6 above it, hits (within the segment
    test's tolerance, relative to the shot's length); its box lies wholly above the square's,
    so only a broad-phase pad grown with the scene's coordinates (3e-3 here, not the 1e-7 of
    the origin) lets the narrow phase see it, on either side of the origin."""
    square = np.array([[0.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.0, 2.0]]) + offset
    y = offset + 2.0 + 1.5e-6
    start, end = np.array([[offset - 1000.0, y]]), np.array([[offset + 1000.0, y]])
    want = first_hits(start, end, square, [0, 4], method="direct")
    assert int(want.body[0]) == 0
    _same(first_hits_small(start, end, square, np.array([0, 4]), None, None), want)


def test_small_path_start_inside_a_tiny_outline_picks_the_nearest_edge() -> None:
    """A shot starting inside a 0.5 px square hits at t = 0 on the edge nearest its start:
    the left edge (0.1 away), not the bottom one (0.2 away), with edges shorter than 1 px
    projected onto properly."""
    tiny = SQUARE / 8.0
    start = np.array([[0.1, 0.2]])
    end = start + [0.0, 0.05]
    want = first_hits(start, end, tiny, [0, 4], method="direct")
    assert int(want.edge[0]) == 3 and float(want.t[0]) == 0.0
    _same(first_hits_small(start, end, tiny, np.array([0, 4]), None, None), want)


def _comb(teeth: int) -> np.ndarray:
    """A comb: a flat bottom and a zigzag top of ``teeth`` points, 2 + ``teeth`` points."""
    xs = np.arange(teeth, 0, -1, dtype=float)
    top = np.column_stack([xs, np.where(xs % 2 == 0, 4.0, 2.0)])
    return np.concatenate([[[0.0, 0.0], [teeth + 0.0, 0.0], [teeth + 0.0, 4.0]], top[1:]])


@pytest.mark.parametrize(("teeth", "taken"), [(14, True), (15, False)])
def test_small_path_row_cap_at_exactly_16384_edge_rows(teeth: int, taken: bool) -> None:
    """1024 shots straight through a 16-point comb: 16 384 candidate edge rows, the cap, and
    over 4 096 hits (each shot crosses about 14 edges), so the reduction takes its crowded
    branch; a 17-point comb is one row per shot past the cap and declined."""
    comb = _comb(teeth)
    m = comb.shape[0]
    ys = 2.05 + 1.9 * np.arange(1024) / 1024
    starts = np.column_stack([np.full(1024, -1.0), ys])
    ends = starts + [teeth + 2.0, 0.0]
    got = first_hits_small(starts, ends, comb, np.array([0, m]), None, None)
    if not taken:
        assert m * 1024 > 16384 and got is None
        return
    assert m * 1024 == 16384
    want = first_hits(starts, ends, comb, [0, m], method="direct")
    assert bool(want.hit.all())
    _same(got, want)
