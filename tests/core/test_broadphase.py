"""The broad phase on its own: every strategy reports exactly the overlapping box pairs.

The collision queries call ``box_pairs`` / ``box_self_pairs`` and then decide each candidate
exactly, so a broad phase that reported extra pairs, or the same pair twice, would go unseen
through them, and one that missed a pair would only show on the rare scene that needs it.
Here the pairs are compared with a brute-force oracle (every pair, every image shift within
reach, the same inclusive comparisons) for the all-pairs ("direct") and sort-and-sweep
strategies, in plain and wrapping worlds, for boxes smaller and larger than half the world,
and for crowds large enough that the sweep splits its candidates into chunks.

Coordinates are multiples of 1/4 so every comparison is exact in both the oracle and the code.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from asteroids.core.broadphase import body_boxes, box_pairs, box_self_pairs, stable_order
from asteroids.core.shots import first_hits

WORLD = np.array([64.0, 32.0])

Pair = tuple[int, ...]


def oracle(alo, ahi, blo, bhi, world, *, self_pairs: bool = False, reach: int = 3) -> set[Pair]:
    """Every (a, b[, kx, ky]) with b shifted by (kx W, ky H) overlapping a (bounds inclusive)."""
    shifts = [(0, 0)] if world is None else list(itertools.product(range(-reach, reach + 1),
                                                                   repeat=2))
    out: set[Pair] = set()
    for i in range(alo.shape[0]):
        for j in range(blo.shape[0]):
            if self_pairs and i >= j:
                continue
            for kx, ky in shifts:
                sx = 0.0 if world is None else kx * world[0]
                sy = 0.0 if world is None else ky * world[1]
                if (alo[i, 0] <= bhi[j, 0] + sx and blo[j, 0] + sx <= ahi[i, 0]
                        and alo[i, 1] <= bhi[j, 1] + sy and blo[j, 1] + sy <= ahi[i, 1]):
                    out.add((i, j) if world is None else (i, j, kx, ky))
    return out


def found(result, world) -> list[Pair]:
    """The pairs as a list (so a pair reported twice shows up twice)."""
    ia, ib, kx, ky = result
    if world is None:
        assert kx is None and ky is None
        return list(zip(ia.tolist(), ib.tolist(), strict=True))
    return list(zip(ia.tolist(), ib.tolist(), kx.tolist(), ky.tolist(), strict=True))


def quarter_boxes(rng: np.random.Generator, n: int, lo: float, hi: float, extent: float):
    low = np.round(rng.uniform(lo, hi, (n, 2)) * 4.0) / 4.0
    return low, low + np.round(rng.uniform(0.0, extent, (n, 2)) * 4.0) / 4.0


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(0, 24), m=st.integers(0, 24),
       extent=st.sampled_from([0.0, 3.0, 8.0, 30.0]), wrap=st.booleans())
def test_box_pairs_every_method_equals_the_oracle(seed, n, m, extent, wrap) -> None:
    # extent 30 makes boxes wider than half the 64 x 32 world: several images may overlap.
    rng = np.random.default_rng(seed)
    world = WORLD if wrap else None
    alo, ahi = quarter_boxes(rng, n, -16.0, 80.0, extent)
    blo, bhi = quarter_boxes(rng, m, -16.0, 80.0, extent)
    want = oracle(alo, ahi, blo, bhi, world)
    for method in ("auto", "direct", "sweep"):
        got = found(box_pairs(alo, ahi, blo, bhi, world, method=method), world)
        assert len(got) == len(set(got)), method  # each pair once
        assert set(got) == want, method


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(0, 30),
       extent=st.sampled_from([0.0, 3.0, 8.0, 30.0]), wrap=st.booleans())
def test_box_self_pairs_every_method_equals_the_oracle(seed, n, extent, wrap) -> None:
    rng = np.random.default_rng(seed)
    world = WORLD if wrap else None
    lo, hi = quarter_boxes(rng, n, -16.0, 80.0, extent)
    want = oracle(lo, hi, lo, hi, world, self_pairs=True)
    for method in ("auto", "direct", "sweep"):
        got = found(box_self_pairs(lo, hi, world, method=method), world)
        assert len(got) == len(set(got)), method
        assert set(got) == want, method


def test_boxes_that_touch_overlap_and_one_ulp_apart_do_not() -> None:
    a_lo, a_hi = np.array([[0.0, 0.0]]), np.array([[2.0, 2.0]])
    for method in ("direct", "sweep"):
        touching = box_pairs(a_lo, a_hi, np.array([[2.0, 2.0]]), np.array([[3.0, 3.0]]), None,
                             method=method)
        assert found(touching, None) == [(0, 0)]
        gap = np.nextafter(2.0, 3.0)
        apart = box_pairs(a_lo, a_hi, np.array([[gap, 0.0]]), np.array([[3.0, 2.0]]), None,
                          method=method)
        assert found(apart, None) == []


def test_a_box_across_the_corner_is_found_in_each_image() -> None:
    # A box over the top-right corner of the wrapping world meets boxes by the other three
    # corners, each through its own image shift.
    lo = np.array([[62.0, 30.0], [0.0, 0.0], [62.0, 0.0], [0.0, 30.0]])
    hi = lo + 1.0
    hi[0] = [65.0, 33.0]
    for method in ("direct", "sweep"):
        got = set(found(box_self_pairs(lo, hi, WORLD, method=method), WORLD))
        assert got == {(0, 1, 1, 1), (0, 2, 0, 1), (0, 3, 1, 0)}, method
        assert got == oracle(lo, hi, lo, hi, WORLD, self_pairs=True)


@pytest.mark.parametrize("wrap", [False, True])
def test_a_crowd_split_into_chunks_gives_the_same_pairs(wrap: bool) -> None:
    # 800 crowded boxes give tens of thousands of candidates: the sweep handles them in blocks
    # of about 8192 (broadphase's chunk size); no block boundary may lose or repeat a pair.
    rng = np.random.default_rng(7)
    world = WORLD * 4.0 if wrap else None
    lo, hi = quarter_boxes(rng, 800, 0.0, 30.0, 12.0)
    blo, bhi = quarter_boxes(rng, 400, 0.0, 30.0, 12.0)
    self_direct = found(box_self_pairs(lo, hi, world, method="direct"), world)
    self_sweep = found(box_self_pairs(lo, hi, world, method="sweep"), world)
    assert len(self_direct) > 4 * 8192
    assert sorted(self_sweep) == sorted(self_direct)
    cross_direct = found(box_pairs(lo, hi, blo, bhi, world, method="direct"), world)
    cross_sweep = found(box_pairs(lo, hi, blo, bhi, world, method="sweep"), world)
    assert len(cross_direct) > 2 * 8192
    assert sorted(cross_sweep) == sorted(cross_direct)


@pytest.mark.parametrize("max_key", [0, 65_535, 65_536, 2**32 - 1, 2**32, 2**40])
def test_stable_order_sorts_stably_at_each_key_width(max_key: int) -> None:
    # 16-bit keys take one radix pass, 32-bit keys two, wider keys numpy's stable sort; the
    # boundaries 2**16 and 2**32 are where the strategy changes. Many equal keys test stability.
    rng = np.random.default_rng(max_key % 1000)
    keys = rng.integers(0, max_key + 1, 5000, dtype=np.int64)
    keys[:50] = max_key
    keys[50:100] = 0
    keys[100:2000] = keys[100:2000] // 4096 * 4096  # equal keys in long runs
    order = stable_order(keys, max_key)
    np.testing.assert_array_equal(order, np.argsort(keys, kind="stable"))


@pytest.mark.parametrize("offset", [0.0, 1e4, -3e4])
@pytest.mark.parametrize("method", ["auto", "direct", "sweep"])
def test_a_grazing_shot_the_narrow_phase_accepts_is_not_culled(offset: float, method: str) -> None:
    # A shot along a square's top edge, 1.5e-9 above it: within the segment test's tolerance
    # (EPS x the 2 px length), so it hits; 2.5e-9 above it is outside and misses. The shot's box
    # lies wholly above the square's box, so only the broad phase's pad (relative to the
    # scene's scale: far from the origin it must grow with the coordinates) lets the narrow
    # phase see it.
    square = np.array([[0.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.0, 2.0]]) + offset
    for gap, body in ((1.5e-9, 0), (2.5e-9, -1)):
        y = offset + 2.0 + gap
        hits = first_hits([[offset - 1.0, y]], [[offset + 1.0, y]], square, [0, 4],
                          method=method)
        assert int(hits.body[0]) == body, gap


@pytest.mark.parametrize("nb", [63, 64, 65])
@pytest.mark.parametrize("uniform", [0, 5])
def test_body_boxes_are_each_outlines_min_and_max_either_side_of_the_fast_layout(
        nb: int, uniform: int) -> None:
    # From 64 uniform bodies on, the boxes come from a transposed layout instead of reduceat;
    # both must give every body's exact min and max corner.
    rng = np.random.default_rng(nb + uniform)
    points = rng.uniform(-500.0, 500.0, (nb * 5, 2))
    offsets = np.arange(0, nb * 5 + 1, 5, dtype=np.int64)
    lo, hi = body_boxes(points, offsets, uniform)
    per_body = points.reshape(nb, 5, 2)
    np.testing.assert_array_equal(lo, per_body.min(axis=1))
    np.testing.assert_array_equal(hi, per_body.max(axis=1))


def test_body_boxes_of_no_bodies_are_two_empty_corner_arrays() -> None:
    lo, hi = body_boxes(np.zeros((0, 2)), np.array([0], dtype=np.int64))
    assert lo.shape == hi.shape == (0, 2)
    assert lo.dtype == hi.dtype == np.float64


@pytest.mark.parametrize("world", [None, (200.0, 150.0)])
def test_the_default_method_is_auto(world: tuple[float, float] | None) -> None:
    rng = np.random.default_rng(3)
    lo = rng.uniform(0.0, 150.0, (40, 2))
    hi = lo + rng.uniform(1.0, 30.0, (40, 2))
    size = None if world is None else np.array(world)
    for got, want in (
        (box_pairs(lo[:20], hi[:20], lo[20:], hi[20:], size),
         box_pairs(lo[:20], hi[:20], lo[20:], hi[20:], size, method="auto")),
        (box_self_pairs(lo, hi, size), box_self_pairs(lo, hi, size, method="auto")),
    ):
        for x, y in zip(got, want, strict=True):
            assert (x is None) == (y is None)
            if x is not None:
                np.testing.assert_array_equal(x, y)
    assert box_self_pairs(lo, hi, size)[0].shape[0] > 0


SEAMS = {
    # name: (a box, b box), b meets a only through its image one world to the right / above
    "right": (([60.0, 10.0], [64.0, 12.0]), ([0.0, 10.0], [2.0, 12.0]), (1, 0)),
    "top": (([10.0, 28.0], [12.0, 32.0]), ([10.0, 0.0], [12.0, 3.0]), (0, 1)),
    # a crosses the right border and ends exactly on the top one: only its copy shifted both
    # ways (to the left and down) reaches b's corner
    "corner": (([62.0, 30.0], [65.0, 32.0]), ([0.0, 0.0], [1.0, 1.0]), (1, 1)),
}


def _pair_of(a, b):
    (alo, ahi), (blo, bhi) = a, b
    return (np.array([alo]), np.array([ahi]), np.array([blo]), np.array([bhi]))


@pytest.mark.parametrize("seam", sorted(SEAMS))
def test_boxes_touching_across_the_seam_meet_as_inside_the_world(seam: str) -> None:
    # Bounds are inclusive: a box ending exactly on the world's right (top) edge touches a box
    # starting at 0, as two boxes sharing an edge inside the world do. The sweep must copy a
    # box that ends exactly on the border, not only one that crosses it.
    a, b, (kx, ky) = SEAMS[seam]
    alo, ahi, blo, bhi = _pair_of(a, b)
    lo, hi = np.concatenate([alo, blo]), np.concatenate([ahi, bhi])
    for method in ("direct", "sweep"):
        assert found(box_pairs(alo, ahi, blo, bhi, WORLD, method=method), WORLD) == [
            (0, 0, kx, ky)], method
        assert found(box_pairs(blo, bhi, alo, ahi, WORLD, method=method), WORLD) == [
            (0, 0, -kx, -ky)], method
        assert found(box_self_pairs(lo, hi, WORLD, method=method), WORLD) == [
            (0, 1, kx, ky)], method
    assert oracle(alo, ahi, blo, bhi, WORLD) == {(0, 0, kx, ky)}


@pytest.mark.parametrize("seam", ["right", "top", "corner"])
def test_two_boxes_crossing_the_seam_together_are_one_pair(seam: str) -> None:
    # Both boxes stick out over the same border, so the sweep copies both to the other side,
    # where the copies overlap too: that is the same pair again and must not be reported twice.
    dx, dy = {"right": (52.0, 0.0), "top": (0.0, 20.0), "corner": (52.0, 20.0)}[seam]
    alo, ahi = np.array([[10.0 + dx, 10.0 + dy]]), np.array([[14.0 + dx, 14.0 + dy]])
    blo, bhi = alo + 1.0, ahi - 1.0 + 0.5
    lo, hi = np.concatenate([alo, blo]), np.concatenate([ahi, bhi])
    assert (ahi > WORLD).any() and (bhi > WORLD).any()
    for method in ("direct", "sweep"):
        assert found(box_pairs(alo, ahi, blo, bhi, WORLD, method=method), WORLD) == [
            (0, 0, 0, 0)], method
        assert found(box_self_pairs(lo, hi, WORLD, method=method), WORLD) == [(0, 1, 0, 0)], method


@pytest.mark.parametrize("world", [None, WORLD])
def test_one_box_against_many_and_many_against_one(world) -> None:
    # The shot query often asks about a single shot: one small box (in one strip of the sweep)
    # against the bodies' boxes, and the other way round. Boxes starting inside its x-range,
    # before it, and touching only its corner are all found, each once.
    one_lo, one_hi = np.array([[10.0, 10.0]]), np.array([[11.0, 11.0]])
    many_lo = np.array([[10.5, 10.0], [9.0, 9.0], [0.0, 0.0], [20.0, 20.0], [10.75, 10.75]])
    many_hi = many_lo + np.array([[1.5, 8.0], [1.0, 1.0], [3.0, 8.0], [4.0, 8.0], [0.25, 0.25]])
    for method in ("direct", "sweep"):
        got = found(box_pairs(one_lo, one_hi, many_lo, many_hi, world, method=method), world)
        back = found(box_pairs(many_lo, many_hi, one_lo, one_hi, world, method=method), world)
        image = () if world is None else (0, 0)
        assert sorted(got) == [(0, j, *image) for j in (0, 1, 4)], method  # any order
        assert sorted(back) == [(j, 0, *image) for j in (0, 1, 4)], method
        assert set(got) == oracle(one_lo, one_hi, many_lo, many_hi, world)


def test_boxes_starting_a_hair_apart_at_the_scenes_left_edge() -> None:
    # Left edges 1/16 apart just right of the leftmost box, with the scene 100 wide: the sweep
    # sorts the boxes into x-bins about 0.1 wide, so these share the first few bins (a start
    # in the same bin as another's, in the bin after it). Every overlapping pair is found once.
    a_lo = np.array([[0.0, 0.0], [0.125, 0.0], [0.25, 0.0], [96.0, 0.0]])
    b_lo = np.array([[0.0625, 0.0], [0.1875, 0.0], [0.125, 2.0], [96.0, 2.0]])
    a_hi, b_hi = a_lo + 4.0, b_lo + 4.0
    lo, hi = np.concatenate([a_lo, b_lo]), np.concatenate([a_hi, b_hi])
    for method in ("direct", "sweep"):
        for args in ((a_lo, a_hi, b_lo, b_hi), (b_lo, b_hi, a_lo, a_hi)):
            got = found(box_pairs(*args, None, method=method), None)
            assert len(got) == len(set(got)), method
            assert set(got) == oracle(*args, None) and len(got) == 10, method
        got = found(box_self_pairs(lo, hi, None, method=method), None)
        assert len(got) == len(set(got)), method
        assert set(got) == oracle(lo, hi, lo, hi, None, self_pairs=True), method


@pytest.mark.parametrize("scale", [2.0**-520, 1.0, 2.0**520])
@pytest.mark.parametrize("wrap", [False, True])
def test_every_method_finds_the_same_pairs_at_any_scale(scale: float, wrap: bool) -> None:
    # Same pairs at every finite scale: coordinates near 1e-157 or 1e157 (powers of two, so
    # every comparison stays exact) must not make the sweep's strip arithmetic under- or
    # overflow.
    rng = np.random.default_rng(11)
    world = WORLD * scale if wrap else None
    alo, ahi = (x * scale for x in quarter_boxes(rng, 12, -16.0, 80.0, 8.0))
    blo, bhi = (x * scale for x in quarter_boxes(rng, 12, -16.0, 80.0, 8.0))
    want = oracle(alo, ahi, blo, bhi, world)
    assert len(want) > 0
    for method in ("direct", "sweep"):
        got = found(box_pairs(alo, ahi, blo, bhi, world, method=method), world)
        assert len(got) == len(set(got)) and set(got) == want, method
        lo, hi = np.concatenate([alo, blo]), np.concatenate([ahi, bhi])
        got = found(box_self_pairs(lo, hi, world, method=method), world)
        assert set(got) == oracle(lo, hi, lo, hi, world, self_pairs=True), method


@pytest.mark.parametrize("world", [None, WORLD])
@pytest.mark.parametrize("method", ["direct", "sweep"])
def test_pairs_and_image_shifts_are_int64_for_every_method(world, method: str) -> None:
    # box_pairs / box_self_pairs return int64 arrays whichever strategy answers (boxes under
    # a quarter of the world, so the sweep answers in the wrapping world too).
    rng = np.random.default_rng(5)
    lo, hi = quarter_boxes(rng, 20, -4.0, 40.0, 6.0)
    for result in (box_pairs(lo[:10], hi[:10], lo[10:], hi[10:], world, method=method),
                   box_self_pairs(lo, hi, world, method=method)):
        assert result[0].shape[0] > 0
        for x in result if world is not None else result[:2]:
            assert x.dtype == np.int64


def test_boxes_wrapping_over_different_borders_meet_at_the_corner() -> None:
    # One box sticks out over the top border near the left edge, the other over the right
    # border near the bottom: in the world, their wrapped-around parts overlap just above the
    # bottom-left corner, where neither box itself is. The sweep meets them only through its
    # copy of each shifted across its own border (one down, one to the left), so it may drop
    # copies shifted on the same axis (a repeat of the unshifted pair) but not these.
    # (Found by the oracle property test: seed 1029, 21 boxes.)
    lo = np.array([[64.25, 63.0], [63.25, 1.0]])
    hi = np.array([[65.25, 65.25], [64.5, 1.75]])
    for method in ("direct", "sweep"):
        assert found(box_self_pairs(lo, hi, WORLD, method=method), WORLD) == [(0, 1, 0, 2)], method
        assert found(box_pairs(lo[:1], hi[:1], lo[1:], hi[1:], WORLD, method=method),
                     WORLD) == [(0, 0, 0, 2)], method
        assert found(box_pairs(lo[1:], hi[1:], lo[:1], hi[:1], WORLD, method=method),
                     WORLD) == [(0, 0, 0, -2)], method
    assert oracle(lo, hi, lo, hi, WORLD, self_pairs=True) == {(0, 1, 0, 2)}


def test_boxes_wider_than_half_the_world_touch_on_both_sides_and_one_ulp_apart_do_not() -> None:
    # Boxes this wide may meet in several images (every image shift is tried): b touches a's
    # right side unshifted and, one world to the left, a's left side across the seam. One ulp
    # less on both ends, neither image meets a, though the shifts tried (with 1e-9 of slack)
    # still include both.
    a_lo, a_hi = np.array([[0.0, 0.0]]), np.array([[40.0, 10.0]])
    touching = (np.array([[40.0, 0.0]]), np.array([[64.0, 10.0]]))
    apart = (np.array([[np.nextafter(40.0, 64.0), 0.0]]),
             np.array([[np.nextafter(64.0, 0.0), 10.0]]))
    for (b_lo, b_hi), want in ((touching, [(0, 0, -1, 0), (0, 0, 0, 0)]), (apart, [])):
        lo, hi = np.concatenate([a_lo, b_lo]), np.concatenate([a_hi, b_hi])
        for method in ("direct", "sweep"):
            got = found(box_pairs(a_lo, a_hi, b_lo, b_hi, WORLD, method=method), WORLD)
            assert sorted(got) == want, method
            got = found(box_self_pairs(lo, hi, WORLD, method=method), WORLD)
            assert sorted(got) == [(0, 1, kx, ky) for _, _, kx, ky in want], method
        assert oracle(a_lo, a_hi, b_lo, b_hi, WORLD) == set(want)


@pytest.mark.parametrize(("world", "a", "b", "shift"), [
    # wide world: along y (its short side), a and b together span the height
    ((64.0, 32.0), ([0.0, 0.0], [4.0, 20.0]), ([1.0, 20.0], [3.0, 32.0]), (0, -1)),
    # tall world, four times as high as wide: along x
    ((16.0, 64.0), ([0.0, 0.0], [10.0, 4.0]), ([10.0, 1.0], [16.0, 3.0]), (-1, 0)),
])
def test_boxes_spanning_the_short_side_together_meet_in_both_images(world, a, b, shift) -> None:
    # Only boxes whose extents stay well under the world's shorter side can meet in a single
    # image (the nearest one); these two span it exactly, so they touch unshifted and again
    # one world away, and every method must try both images.
    size = np.array(world)
    alo, ahi, blo, bhi = _pair_of(a, b)
    lo, hi = np.concatenate([alo, blo]), np.concatenate([ahi, bhi])
    want = sorted([(0, 0, 0, 0), (0, 0, *shift)])
    for method in ("auto", "direct", "sweep"):
        assert sorted(found(box_pairs(alo, ahi, blo, bhi, size, method=method), size)) == want
        assert sorted(found(box_self_pairs(lo, hi, size, method=method), size)) == [
            (0, 1, kx, ky) for _, _, kx, ky in want]
    assert oracle(alo, ahi, blo, bhi, size) == set(want)
