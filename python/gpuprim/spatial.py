"""Closest pair of points.

``closest_pair(points)`` takes an (n, 2) or (n, 3) float32 / float64 array
(NumPy on the CPU, a CUDA array on the GPU), n >= 2, finite coordinates,
and returns ``(i, j, distance)``: Python ints i < j and a float, the pair
at the least distance; among equally near pairs the lexicographically
smallest (i, j) (the library's rule, the same on every backend). Squared
distances are compared in double precision. A GPU call synchronizes (the
answer is three host numbers).
"""

from . import _core

__all__ = ["closest_pair"]


def closest_pair(points, *, stream=None):
    """(i, j, distance) of the closest pair of points (rows); see the module's help."""
    return _core._closest_pair(points, stream)
