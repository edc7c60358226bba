"""numpy.histogram, with NumPy's arguments, answers and errors.

The arguments are read here as NumPy reads them; the counting, the data's
range and the edges are the library's ``numpy_histogram`` (the NumPy rule of
gpuprim/histogram.hpp), on the CPU for NumPy arrays and on the GPU for CUDA
arrays, which also get their results on the device.
"""

import operator
import warnings

import numpy as np

from . import _core

__all__ = ["histogram"]

_MAX_BINS = 2**31 - 1


def _on_device(a):
    if hasattr(a, "__cuda_array_interface__"):
        return True
    device = getattr(a, "__dlpack_device__", None)
    return device is not None and device()[0] != 1  # 1: kDLCPU


def _range_pair(range):
    first, last = range  # NumPy's unpacking, and its ValueError
    return float(first), float(last)


def histogram(a, bins=10, range=None, density=None, weights=None, *, stream=None):
    """(counts, edges) as ``numpy.histogram(a, bins, range)``.

    ``bins`` is an int (even bins over ``range``, by default the data's min
    and max; a single value v gives [v - 0.5, v + 0.5]) or a 1-d array of
    edges that do not decrease; every bin is half-open but the last, and
    samples outside and NaN are not counted. counts are int64; the edges of
    even bins are float32 for float32 data, else float64 (array edges come
    back as given), each equal to NumPy's. Samples: int8-64, uint8-64,
    float32, float64 and bool (counted as uint8, with NumPy's warning) on the
    CPU; uint8, int32, uint32, float32, float64 on the GPU.

    NumPy's errors, with its exception types: TypeError for a ``bins`` that
    is not an integer, a string or an array; ValueError for bins < 1, a
    range whose max is below its min or that is not finite, data whose own
    range is not finite (a NaN or an infinity), and "Too many bins for data
    range" where the edges would not increase (NumPy 2.4's test; where
    NumPy's edges would be NaN because the range's width overflows, this
    raises the same ValueError, where NumPy answers with a NaN edge or an
    IndexError).

    Not supported (raising): bin estimators given as strings
    (``'auto'``, ``'fd'``, ...), ``density=True``, ``weights=``, float16
    data. On the GPU, a call without ``range`` waits for the data's min and
    max (NumPy's checks need them); with ``range`` nothing waits.
    """
    if weights is not None:
        raise TypeError("histogram: weights= is not supported")
    if density:
        raise TypeError("histogram: density=True is not supported")
    if not _on_device(a):
        a = np.asarray(a)
        if a.dtype == np.bool_:
            warnings.warn(
                f"Converting input from {a.dtype} to {np.uint8} for compatibility.",
                RuntimeWarning,
                stacklevel=2,
            )
            a = a.view(np.uint8)
    if isinstance(bins, str):
        raise ValueError(
            f"histogram: bin estimators ({bins!r}) are not supported; give an int or edges"
        )
    if np.ndim(bins) == 0:
        try:
            n = operator.index(bins)
        except TypeError:
            raise TypeError("`bins` must be an integer, a string, or an array") from None
        if n < 1:
            raise ValueError("`bins` must be positive, when an integer")
        if n > _MAX_BINS:
            raise ValueError(f"histogram: too many bins ({n}); at most 2**31 - 1 are supported")
        pair = None if range is None else _range_pair(range)
        return _core._histogram_even(a, n, pair, stream)
    if np.ndim(bins) != 1:
        raise ValueError("`bins` must be 1d, when an array")
    edges = bins if _on_device(bins) else np.asarray(bins)
    if len(edges) < 2:
        raise ValueError("histogram: `bins` needs at least 2 edges, when an array")
    if bool((edges[:-1] > edges[1:]).any()):
        raise ValueError("`bins` must increase monotonically, when an array")
    as_double = edges.astype(np.float64) if str(edges.dtype) != "float64" else edges
    return _core._histogram_of_edges(a, as_double, stream), edges
