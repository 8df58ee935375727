"""Vectorised geometry for the deterministic core: one module per concept, one path per kernel.

- ``checks``: the validation the public entry points (the collision queries) run on what
  callers hand them, and the array types;
- ``wrap``: the torus: shortest displacements, positions wrapped into the world;
- ``bounce``: positions folded into a box, reflections, a move split at the walls;
- ``polygon``: packed outlines placed in the world, edge normals, orientation, containment;
- ``segment``: the segment kernel every collision query shares (EPS-widened bounds).

Everything is array in, array out, float64, and built only from IEEE basic operations
(``+ - * /``, ``sqrt``, comparisons, ``abs``, ``floor``, ``%``, ``min``/``max``), so the same
inputs give bit-identical outputs on every machine and numpy 2.x build. No transcendentals, no
float reductions, no BLAS.

Conventions:

* Points and vectors are ``(N, 2)`` float64 arrays of ``(x, y)`` in world units (pixels).
* A *packed outline* set is ``points`` ``(V, 2)`` with ``offsets`` ``(B + 1,)`` int64: body ``b``
  owns ``points[offsets[b]:offsets[b + 1]]``, a closed polygon; edge ``i`` of a body runs from its
  point ``i`` to point ``i + 1``, wrapping to point 0.
* A *world size* ``(W, H)`` makes the world a torus ``[0, W) x [0, H)``.
* Kernels do not validate: they take what a World holds or what a public entry point (a
  collision query, ``step``) has checked. Invalid input (NaN, inf) gives NaN, not an error.
"""

from asteroids.core.geometry.bounce import (
    WallBounce,
    bounce_positions,
    reflect,
    remaining_travel,
    segment_wall_bounce,
)
from asteroids.core.geometry.checks import (
    BoolArray,
    F64Array,
    I64Array,
    as_offsets,
    as_vec2,
    as_world_size,
    check_finite,
    offsets_counts,
    vec2,
    vec2_scale,
)
from asteroids.core.geometry.polygon import (
    edge_normals,
    edge_rows,
    orientation_ccw,
    point_segment_distance2,
    points_in_polygons,
    transform_outlines,
)
from asteroids.core.geometry.segment import (
    EPS,
    candidate_rows,
    parallel_hits,
    resolve_rows,
    segment_intersections,
)
from asteroids.core.geometry.wrap import wrap_delta, wrap_positions

__all__ = [
    "EPS",
    "BoolArray",
    "F64Array",
    "I64Array",
    "WallBounce",
    "as_offsets",
    "as_vec2",
    "as_world_size",
    "bounce_positions",
    "candidate_rows",
    "check_finite",
    "edge_normals",
    "edge_rows",
    "offsets_counts",
    "orientation_ccw",
    "parallel_hits",
    "point_segment_distance2",
    "points_in_polygons",
    "reflect",
    "remaining_travel",
    "resolve_rows",
    "segment_intersections",
    "segment_wall_bounce",
    "transform_outlines",
    "vec2",
    "vec2_scale",
    "wrap_delta",
    "wrap_positions",
]
