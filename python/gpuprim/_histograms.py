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


def _ptp(x):
    """max - min, without the overflow of a signed integer type (as NumPy's)."""
    if np.issubdtype(x.dtype, np.signedinteger):
        return np.subtract(x.max(), x.min(), dtype=np.dtype(x.dtype.char.upper()), casting="unsafe")
    return x.max() - x.min()


# Bin widths of NumPy's estimators for `bins` given as a string, from the
# data x (a NumPy array, already cut to the range) and the outer edges; 0
# means "one bin" (fd and stone can give it).
def _width_sqrt(x, span):
    return _ptp(x) / np.sqrt(x.size)


def _width_sturges(x, span):
    return _ptp(x) / (np.log2(x.size) + 1.0)


def _width_rice(x, span):
    return _ptp(x) / (2.0 * x.size ** (1.0 / 3))


def _width_scott(x, span):
    return (24.0 * np.pi**0.5 / x.size) ** (1.0 / 3.0) * np.std(x)


def _width_doane(x, span):
    if x.size <= 2:
        return 0.0
    skew_error = np.sqrt(6.0 * (x.size - 2) / ((x.size + 1.0) * (x.size + 3)))
    sigma = np.std(x)
    if sigma <= 0:
        return 0.0
    standardized = (x - np.mean(x)) / sigma
    skew = np.mean(standardized**3)
    return _ptp(x) / (1.0 + np.log2(x.size) + np.log2(1.0 + np.absolute(skew) / skew_error))


def _width_fd(x, span):
    quartile_range = np.subtract(*np.percentile(x, [75, 25]))
    return 2.0 * quartile_range * x.size ** (-1.0 / 3.0)


def _width_stone(x, span):
    # The width minimizing the leave-one-out cross-validation estimate of
    # the integrated squared error, over 1 .. max(100, sqrt(n)) bins.
    n = x.size
    ptp_x = _ptp(x)
    if n <= 1 or ptp_x == 0:
        return 0
    candidates = np.arange(1, int(max(100, np.sqrt(n))) + 1)
    widths = ptp_x / candidates

    def risk(nbins):
        width = ptp_x / nbins
        counts = _counts_even(x, nbins, span)
        p = counts / n
        return (2 - (n + 1) * p.dot(p)) / width

    risks = [risk(k) for k in candidates]
    return widths[np.argmin(risks)]


def _width_auto(x, span):
    # fd, kept from giving more than twice sqrt's bins, or sturges if smaller.
    fd = max(_width_fd(x, span), _width_sqrt(x, span) / 2)
    return min(fd, _width_sturges(x, span))


_ESTIMATORS = {
    "auto": _width_auto,
    "doane": _width_doane,
    "fd": _width_fd,
    "rice": _width_rice,
    "scott": _width_scott,
    "sqrt": _width_sqrt,
    "stone": _width_stone,
    "sturges": _width_sturges,
}


def _counts_even(x, n, range):
    return _core._histogram_even(x, n, range, None)[0]


def _estimated_bins(a, name, range):
    """The number of even bins NumPy's estimator `name` picks for a."""
    if name not in _ESTIMATORS:
        raise ValueError(f"{name!r} is not a valid estimator for `bins`")
    if _on_device(a):
        raise TypeError(f"histogram: the bin estimator {name!r} takes NumPy arrays (CPU) only")
    x = a.ravel()
    if range is not None:
        first, last = _range_pair(range)
        keep = (x >= first) & (x <= last)
        if not keep.all():
            x = x[keep]
    else:
        first = last = None
    if x.size == 0:
        return 1
    if first is None:
        first, last = x.min(), x.max()
        if not (np.isfinite(first) and np.isfinite(last)):
            raise ValueError(f"autodetected range of [{first}, {last}] is not finite")
        if first == last:
            first, last = first - 0.5, last + 0.5
    width = _ESTIMATORS[name](x, (float(first), float(last)))
    if not width:
        return 1
    if np.issubdtype(x.dtype, np.integer) and width < 1:
        width = 1
    if isinstance(first, np.integer):  # the exact difference, as NumPy's unsigned one
        span = float(int(last) - int(first))
    else:
        span = last - first
    return int(np.ceil(span / width))


def histogram(a, bins=10, range=None, density=None, weights=None, *, stream=None):
    """(counts, edges) as ``numpy.histogram(a, bins, range)``.

    ``bins`` is an int (even bins over ``range``, by default the data's min
    and max; a single value v gives [v - 0.5, v + 0.5]) or a 1-d array of
    edges that do not decrease; every bin is half-open but the last, and
    samples outside and NaN are not counted. counts are int64; the edges of
    even bins are float32 for float32 data, else float64 (array edges come
    back as given), each equal to NumPy's. Samples: int8-64, uint8-64,
    float16, float32, float64 and bool (counted as uint8, with NumPy's
    warning) on the CPU; int8-32, uint8-32, float32, float64 on the GPU.

    NumPy's errors, with its exception types: TypeError for a ``bins`` that
    is not an integer, a string or an array; ValueError for bins < 1, a
    range whose max is below its min or that is not finite, data whose own
    range is not finite (a NaN or an infinity), and "Too many bins for data
    range" where the edges would not increase (NumPy 2.4's test; where
    NumPy's edges would be NaN because the range's width overflows, this
    raises the same ValueError, where NumPy answers with a NaN edge or an
    IndexError).

    ``bins`` may also name one of NumPy's estimators ('auto', 'fd',
    'doane', 'scott', 'stone', 'rice', 'sturges', 'sqrt'; NumPy arrays
    only), and ``density=True`` gives NumPy's density (float64). Data of
    non-native byte order is read through a native copy.

    Not supported (raising TypeError): ``weights=``, float16 data on the
    GPU. On the GPU, a call without ``range`` waits for the data's min and
    max (NumPy's checks need them); with ``range`` nothing waits.
    """
    _core._refuse_masked(a, "histogram")
    if weights is not None:
        raise TypeError("histogram: weights= is not supported")
    if not _on_device(a):
        a = np.asarray(a)
        if a.dtype == np.bool_:
            warnings.warn(
                f"Converting input from {a.dtype} to {np.uint8} for compatibility.",
                RuntimeWarning,
                stacklevel=2,
            )
            a = a.view(np.uint8)
        elif not a.dtype.isnative:
            a = a.astype(a.dtype.newbyteorder("="))  # the library reads native numbers
    if isinstance(bins, str):
        bins = _estimated_bins(a, bins, range)
    counts, edges = _counts_and_edges(a, bins, range, stream)
    if density:
        widths = (edges[1:] - edges[:-1]).astype(np.float64)
        return counts / widths / counts.sum(), edges
    return counts, edges


def _counts_and_edges(a, bins, range, stream):
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
        counts, edges = _core._histogram_even(a, n, pair, stream)
        if str(getattr(a, "dtype", "")) == "float16":
            edges = edges.astype(np.float16)  # float16 values, exactly
        return counts, edges
    if np.ndim(bins) != 1:
        raise ValueError("`bins` must be 1d, when an array")
    edges = bins if _on_device(bins) else np.asarray(bins)
    if len(edges) < 2:
        raise ValueError("histogram: `bins` needs at least 2 edges, when an array")
    if bool((edges[:-1] > edges[1:]).any()):
        raise ValueError("`bins` must increase monotonically, when an array")
    as_double = edges.astype(np.float64) if str(edges.dtype) != "float64" else edges
    return _core._histogram_of_edges(a, as_double, stream), edges
