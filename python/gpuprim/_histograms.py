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
from ._arrays import cast_result, compiled_ops, dtype_of, host_results_like

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


def _range_bits(range):
    """The float type (its bits) np.linspace computes the edges of a given
    range in: np.result_type(lower, upper, 1.0), float64 for Python numbers,
    float32 / float16 for NumPy scalars of those types."""
    if range is None:
        return 64
    first, last = range
    if not any(isinstance(v, (np.generic, np.ndarray)) for v in (first, last)):
        return 64
    arithmetic = np.result_type(first, last, 1.0)
    return {np.dtype(np.float16): 16, np.dtype(np.float32): 32}.get(arithmetic, 64)


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
    return _core._histogram_even(x, n, _range_pair(range), _range_bits(range), None)[0]


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
    width = _ESTIMATORS[name](x, (first, last))
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
    non-native byte order is read through a native copy. A ``range`` of
    NumPy float scalars wider than the data bins in NumPy's bin type,
    ``np.result_type(range, a)`` (float64 edges for float32 data and
    np.float64 bounds), its edges computed in NumPy's linspace arithmetic
    (float32 for np.float32 bounds, float64 for Python numbers).

    ``weights=`` (an array of a's shape; NumPy arrays on the CPU) sums the
    weights of each bin instead of counting, in the weights' dtype, adding
    them in NumPy's order (blocks of 65536 samples; for an array of edges
    NumPy's cumulative form), so the sums are NumPy's: integer, float and
    bool weights (even bins; NumPy's cumulative form refuses them with an
    array of edges), and complex weights as their two parts. float16
    weights, and complex64 ones over even bins, are summed in float64 and
    rounded once (NumPy rounds after each block of 65536 samples: the same
    up to 65536 samples). With an array of edges NumPy sorts each block
    with an unstable sort, so where equal samples have different float
    weights its running sums may add them in another order than gpuprim's
    stable one (a difference of rounding).

    Object weights (Decimal, Fraction, any Python number; NumPy arrays on
    the CPU) are summed as NumPy sums them, in its cumulative form for even
    bins too: the library bins and sorts each block of samples and adds the
    weights with Python's own + and - in NumPy's order, so the sums (an
    object array) are NumPy's, Decimal ones exactly (the same caveat about
    equal samples).

    Not supported (raising TypeError): weights of other dtypes (str,
    datetime64), weights on the GPU and object weights with GPU samples,
    datetime64 samples, float16 data on the GPU, a longdouble range. On the GPU, a call without ``range``
    waits for the data's min and max (NumPy's checks need them); with
    ``range`` nothing waits.
    """
    if weights is None and not density and range is not None and isinstance(bins, int):
        ops = compiled_ops(a)
        if ops is not None:  # traced by torch.compile: the custom operator
            lo, hi = _range_pair(range)
            return ops.histogram(a, bins, lo, hi)
    _core._refuse_masked(a, "histogram")
    if weights is not None:
        return _weighted(a, bins, range, density, weights)
    given = a
    if not _on_device(a):
        a = _samples(a, stacklevel=3)
    if isinstance(bins, str):
        bins = _estimated_bins(a, bins, range)
    if not _on_device(a):
        a = _in_bin_type(a, range)
    counts, edges = _counts_and_edges(a, bins, range, stream)
    if density:
        widths = (edges[1:] - edges[:-1]).astype(np.float64)
        counts = counts / widths / counts.sum()
    if given is not a and not isinstance(given, np.ndarray):
        return host_results_like(given, counts, edges)
    return counts, edges



def _in_bin_type(a, range):
    """a in NumPy's bin type, np.result_type(range's values, a), where that is
    a wider float than a's: a range of np.float64 scalars over float32 data
    bins, and compares, in float64 (its edges float64), as NumPy's; np.float32
    bounds over float16 data in float32. A longdouble range is refused
    (TypeError). The edges' arithmetic is _range_bits'."""
    if range is None or a.dtype.kind != "f":
        return a
    first, last = range
    if not any(isinstance(v, (np.generic, np.ndarray)) for v in (first, last)):
        return a  # Python numbers: the data's type
    bin_type = np.result_type(first, last, a)
    if bin_type.kind != "f" or bin_type.itemsize <= a.dtype.itemsize:
        return a
    if bin_type.itemsize > 8:
        raise TypeError(
            f"histogram: a range of {bin_type} (longdouble) bins in {bin_type}, "
            "which is not supported"
        )
    return a.astype(bin_type)


def _native(x):
    return x if x.dtype.isnative else x.astype(x.dtype.newbyteorder("="))


def _samples(a, stacklevel):
    """a as NumPy's histogram reads it on the CPU: bool as uint8 (with its
    warning), a native copy of another byte order; datetime64 refused."""
    a = np.asarray(a)
    if a.dtype == np.bool_:
        warnings.warn(
            f"Converting input from {a.dtype} to {np.uint8} for compatibility.",
            RuntimeWarning,
            stacklevel=stacklevel,
        )
        a = a.view(np.uint8)
    if a.dtype.kind in "mM":
        raise TypeError(
            f"histogram: {a.dtype} samples (datetime64 / timedelta64) are not supported"
        )
    return _native(a)


# The weights' dtype -> the type the library sums them in (the result is
# converted back to the weights' dtype: integers wrap as NumPy's do).
_WEIGHT_SUMS = {"f": np.float64, "i": np.int64, "u": np.uint64, "b": np.int64}


def _weighted(a, bins, range, density, weights):
    if _on_device(a) or _on_device(weights):
        if not _on_device(weights) and np.asarray(weights).dtype == object:
            raise TypeError(
                "histogram: object weights (such as Decimal) are summed on the CPU only "
                "(NumPy arrays), not over a GPU array"
            )
        raise TypeError("histogram: weights= is computed on the CPU only (NumPy arrays)")
    a = _samples(a, stacklevel=4)
    weights = np.asarray(weights)
    if weights.shape != a.shape:
        raise ValueError("weights should have the same shape as a.")
    ntype = weights.dtype  # NumPy's sums are of the weights' dtype, byte order included
    a, weights = a.ravel(), _native(weights.ravel())
    if isinstance(bins, str):
        if bins not in _ESTIMATORS:
            raise ValueError(f"{bins!r} is not a valid estimator for `bins`")
        raise TypeError(
            "Automated estimation of the number of bins is not supported for weighted data"
        )
    if weights.dtype == object:
        n, edges = _object_sums(_in_bin_type(a, range), weights, bins, range)
        if density:
            widths = np.array(np.diff(edges), float)
            return n / widths / n.sum(), edges
        return n, edges
    if weights.dtype.kind == "c":
        parts = weights.real, weights.imag
    elif weights.dtype.kind in _WEIGHT_SUMS:
        parts = (weights,)
    else:
        raise TypeError(
            f"histogram: weights of dtype {weights.dtype} are not supported "
            "(bool, integers, floats and complex are)"
        )
    a = _in_bin_type(a, range)
    even = np.ndim(bins) == 0
    if ntype.kind == "b" and not even and a.size:
        # NumPy's cumulative form adds int64 running sums into bool totals
        raise TypeError(
            "Cannot cast ufunc 'add' output from dtype('int64') to dtype('bool') with casting "
            "rule 'same_kind'"
        )
    sums = []
    for part in parts:
        complex_even = even and ntype.kind == "c"
        if part.dtype == np.float64 or (part.dtype == np.float32 and not complex_even):
            as_taken = part
        else:
            # complex64 parts over even bins: NumPy adds each block's float64
            # totals to float32 sums in float64; summed in float64 here and
            # rounded once (the same for up to 65536 samples)
            as_taken = part.astype(_WEIGHT_SUMS[part.dtype.kind])
        part_sums, edges = _sums_and_edges(a, as_taken, bins, range)
        sums.append(part_sums)
    if not even:
        ntype = ntype.newbyteorder("=")  # NumPy's np.diff gives native numbers
    if ntype.kind == "c":
        n = np.empty(len(sums[0]), ntype)
        n.real, n.imag = sums
    elif ntype.kind == "b":
        n = sums[0] != 0  # NumPy's n += block.astype(bool): any True weight
    else:
        n = sums[0].astype(ntype, copy=False)
    if density:
        widths = np.array(np.diff(edges), float)
        return n / widths / n.sum(), edges
    return n, edges


def _sums_and_edges(a, w, bins, range):
    """(sums of w, edges) for the bins as _counts_and_edges reads them."""
    if np.ndim(bins) == 0:
        n = _bin_count(bins)
        pair = None if range is None else _range_pair(range)
        sums, edges = _core._histogram_even_weighted(a, w, n, pair, _range_bits(range))
        if a.dtype == np.float16:
            edges = edges.astype(np.float16)
        return sums, edges
    edges = _edges_array(bins)
    return _core._histogram_of_edges_weighted(a, w, _edges_in_double(edges)), edges


def _object_sums(a, weights, bins, range):
    """(sums, edges) for object weights (Decimal, Fraction, any Python
    number): NumPy sums them in its cumulative form for even bins too, so
    the edges are found as for counting and the library's
    numpy_histogram_of_edges_weighted adds the weights with Python's + and -
    in NumPy's order; the sums are an object array, as NumPy's."""
    if np.ndim(bins) == 0:
        n = _bin_count(bins)
        pair = None if range is None else _range_pair(range)
        edges = _core._histogram_even(a, n, pair, _range_bits(range), None)[1]
        if a.dtype == np.float16:
            edges = edges.astype(np.float16)
    else:
        edges = _edges_array(bins)
    sums = _core._histogram_of_edges_object_weighted(a, list(weights), _edges_in_double(edges))
    n = np.empty(len(sums), object)
    n[:] = sums
    return n, edges


def _bin_count(bins):
    try:
        n = operator.index(bins)
    except TypeError:
        raise TypeError("`bins` must be an integer, a string, or an array") from None
    if n < 1:
        raise ValueError("`bins` must be positive, when an integer")
    if n > _MAX_BINS:
        raise ValueError(f"histogram: too many bins ({n}); at most 2**31 - 1 are supported")
    return n


def _edges_array(bins, stream=None):
    if np.ndim(bins) != 1:
        raise ValueError("`bins` must be 1d, when an array")
    edges = bins if _on_device(bins) else np.asarray(bins)
    if len(edges) < 2:
        raise ValueError("histogram: `bins` needs at least 2 edges, when an array")
    if _on_device(edges):
        _core._refuse_capture(
            "histogram",
            "with an array of edges on the GPU it checks on the host that they increase (one "
            "wait); pass bins=<int> with range=(lo, hi) to capture it",
            edges,
            stream,
        )
    if bool((edges[:-1] > edges[1:]).any()):
        raise ValueError("`bins` must increase monotonically, when an array")
    return edges


def _edges_in_double(edges):
    """The edges as float64 in their own framework (NumPy, CuPy or PyTorch):
    NumPy bins compare samples with float64 edges."""
    if dtype_of(edges) == np.float64:
        return edges
    return cast_result(edges, np.dtype(np.float64))


def _counts_and_edges(a, bins, range, stream):
    if np.ndim(bins) == 0:
        n = _bin_count(bins)
        pair = None if range is None else _range_pair(range)
        counts, edges = _core._histogram_even(a, n, pair, _range_bits(range), stream)
        if str(getattr(a, "dtype", "")) == "float16":
            edges = edges.astype(np.float16)  # float16 values, exactly
        return counts, edges
    edges = _edges_array(bins, stream)
    return _core._histogram_of_edges(a, _edges_in_double(edges), stream), edges
