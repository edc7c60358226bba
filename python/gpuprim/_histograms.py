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
from ._arrays import cast_result, compiled_ops, dtype_of, framework, host_results_like
from ._arrays import on_device as _on_device

__all__ = ["histogram"]

_MAX_BINS = 2**31 - 1




def _range_pair(range):
    first, last = range  # NumPy's unpacking, and its ValueError
    return float(first), float(last)


def _typed(v):
    """Whether a range bound has a dtype of its own (a NumPy scalar or an
    element of a NumPy, CuPy or PyTorch array), which NumPy's type rules
    use; Python numbers are weak."""
    return isinstance(v, (np.generic, np.ndarray)) or framework(v) in ("cupy", "torch")


def _bound_types(range):
    """The range's bounds as np.result_type takes them: NumPy scalars and
    Python numbers as they are, an element of a CuPy or PyTorch array as
    its dtype."""
    return [
        v if isinstance(v, (np.generic, np.ndarray)) or not _typed(v) else dtype_of(v)
        for v in range
    ]


def _range_bits(range):
    """The float type (its bits) np.linspace computes the edges of a given
    range in: np.result_type(lower, upper, 1.0), float64 for Python numbers,
    float32 / float16 for NumPy scalars (or array elements) of those types."""
    if range is None:
        return 64
    first, last = range
    if not any(_typed(v) for v in (first, last)):
        return 64
    arithmetic = np.result_type(*_bound_types((first, last)), 1.0)
    return {np.dtype(np.float16): 16, np.dtype(np.float32): 32}.get(arithmetic, 64)


def _ptp(x):
    """max - min, without the overflow of a signed integer type (as NumPy's:
    both converted to the unsigned type, subtracted modulo 2**bits)."""
    if np.issubdtype(x.dtype, np.signedinteger):
        unsigned = np.dtype(x.dtype.char.upper())
        if isinstance(x, np.ndarray):
            return np.subtract(x.max(), x.min(), dtype=unsigned, casting="unsafe")
        return x.max().astype(unsigned) - x.min().astype(unsigned)  # CuPy: on the device
    return x.max() - x.min()


# Bin widths of NumPy's estimators for `bins` given as a string, from the
# data x (already cut to the range) and the outer edges; 0 means "one bin"
# (fd and stone can give it). x is a NumPy or a CuPy array: NumPy's
# functions (np.std, np.percentile, the ufuncs) run CuPy's on the device
# through its __array_function__ / __array_ufunc__, and the width is a
# 0-d array on x's device.
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
    candidates = int(max(100, np.sqrt(n)))
    span = _range_pair(span)  # read once (a wait on the GPU), not per candidate

    def risk(nbins):
        width = ptp_x / nbins
        counts = _counts_even(x, nbins, span)
        p = counts / n
        return (2 - (n + 1) * p.dot(p)) / width

    # The first of the smallest risks, as NumPy's min(); one wait on the GPU.
    risks = _array_module(x).stack([risk(k) for k in range(1, candidates + 1)])
    return ptp_x / (int(risks.argmin()) + 1)


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
    x, range = _wide_integers_on_device(x, range)
    return _core._histogram_even(x, n, _range_pair(range), _range_bits(range), None)[0]


def _array_module(x):
    """numpy, or cupy for a CuPy array."""
    if framework(x) == "cupy":
        import cupy

        return cupy
    return np


def _estimated_bins(a, name, range):
    """The number of even bins NumPy's estimator `name` picks for a (NumPy or
    CuPy; on the GPU the statistics are computed there and the result read
    once, a wait, as the edges need it)."""
    if name not in _ESTIMATORS:
        raise ValueError(f"{name!r} is not a valid estimator for `bins`")
    if _on_device(a) and framework(a) != "cupy":
        raise TypeError(
            f"histogram: the bin estimator {name!r} takes NumPy and CuPy arrays "
            f"(got {type(a).__module__}.{type(a).__name__})"
        )
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
    if _typed(first) and dtype_of(first).kind in "iu":
        span = float(int(last) - int(first))  # the exact difference, as NumPy's unsigned one
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
    back as given, on the samples' device), each equal to NumPy's. Samples:
    int8-64, uint8-64, float16, float32, float64 and bool (counted as
    uint8, with NumPy's warning), on the CPU and on the GPU (float16 there
    with an array of edges or a float32 / float64 range). int64 / uint64
    samples on the GPU are binned as float64 copies, NumPy's bin type for
    them (integer range bounds or edges, which NumPy compares as integers,
    within +-2**53; beyond, TypeError).

    NumPy's errors, with its exception types: TypeError for a ``bins`` that
    is not an integer, a string or an array; ValueError for bins < 1, a
    range whose max is below its min or that is not finite, data whose own
    range is not finite (a NaN or an infinity), and "Too many bins for data
    range" where the edges would not increase (NumPy 2.4's test; where
    NumPy's edges would be NaN because the range's width overflows, this
    raises the same ValueError, where NumPy answers with a NaN edge or an
    IndexError).

    ``bins`` may also name one of NumPy's estimators ('auto', 'fd',
    'doane', 'scott', 'stone', 'rice', 'sturges', 'sqrt'; NumPy and CuPy
    arrays, the statistics computed on the data's device and the number of
    bins read once), and ``density=True`` gives NumPy's density (float64).
    Data of
    non-native byte order is read through a native copy. A ``range`` of
    NumPy float scalars wider than the data bins in NumPy's bin type,
    ``np.result_type(range, a)`` (float64 edges for float32 data and
    np.float64 bounds), its edges computed in NumPy's linspace arithmetic
    (float32 for np.float32 bounds, float64 for Python numbers).

    ``weights=`` (an array of a's shape; NumPy arrays on the CPU, see below
    for CuPy) sums the
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

    CuPy samples with CuPy weights (bool, integer, float, complex) are summed
    on their device: each sample's bin found among the edges, the weights
    of a bin added in float64 (as NumPy's bincount of a block) and
    converted to the weights' dtype, in the device's order, so float sums
    may differ from NumPy's by rounding where they are not exact.

    Not supported (raising TypeError): weights of other dtypes (str,
    datetime64), object weights with GPU samples, weights of other GPU
    arrays than CuPy's, datetime64 samples, even bins over float16 data on
    the GPU (an array of edges, or a float32 range, takes them), a
    longdouble range. Samples and weights on the host and the GPU:
    ValueError. On the GPU, a call without ``range`` waits for the data's
    min and max (NumPy's checks need them), and so does one with a string
    ``bins`` (the bin count) or an array of edges (their order is checked);
    with ``range`` and an int ``bins`` nothing waits.
    """
    if weights is None and not density and range is not None and isinstance(bins, int):
        ops = compiled_ops(a)
        if ops is not None:  # traced by torch.compile: the custom operator
            lo, hi = _range_pair(range)
            return ops.histogram(a, bins, lo, hi)
    _core._refuse_masked(a, "histogram")
    if weights is not None:
        return _weighted(a, bins, range, density, weights)
    if _plain_device_call(a, bins, range, density):
        return _counts_and_edges(a, bins, range, stream)  # nothing to read as NumPy would
    given = a
    a = _samples(a, stacklevel=3)
    if isinstance(bins, str):
        bins = _estimated_bins(a, bins, range)
    a = _in_bin_type(a, range)
    a, range = _wide_integers_on_device(a, range, None if np.ndim(bins) == 0 else bins)
    counts, edges = _counts_and_edges(a, bins, range, stream)
    if density:
        widths = cast_result(edges[1:] - edges[:-1], np.dtype(np.float64))
        counts = counts / widths / counts.sum()
    if given is not a and not _on_device(given) and not isinstance(given, np.ndarray):
        return host_results_like(given, counts, edges)
    return counts, edges


# The GPU sample types the library bins as they are.
_GPU_SAMPLES = frozenset(
    np.dtype(t) for t in "int8 int16 int32 uint8 uint16 uint32 float32 float64".split()
)


def _plain_device_call(a, bins, range, density):
    """Whether a GPU call needs none of the argument reading below (the
    common call: a GPU array the library bins as it is, an int bins, no
    range or one of Python numbers, no density), which it then skips."""
    if type(bins) is not int or density or not _on_device(a):
        return False
    if range is not None and (
        type(range) not in (tuple, list) or any(type(v) not in (int, float) for v in range)
    ):
        return False
    return dtype_of(a) in _GPU_SAMPLES


def _in_bin_type(a, range):
    """a in NumPy's bin type, np.result_type(range's values, a), where that is
    a wider float than a's: a range of np.float64 scalars over float32 data
    bins, and compares, in float64 (its edges float64), as NumPy's; np.float32
    bounds over float16 data in float32. A longdouble range is refused
    (TypeError). The edges' arithmetic is _range_bits'."""
    a_type = dtype_of(a)
    if range is None or a_type.kind != "f":
        return a
    first, last = range
    if not any(_typed(v) for v in (first, last)):
        return a  # Python numbers: the data's type
    bin_type = np.result_type(*_bound_types((first, last)), a_type)
    if bin_type.kind != "f" or bin_type.itemsize <= a_type.itemsize:
        return a
    if bin_type.itemsize > 8:
        raise TypeError(
            f"histogram: a range of {bin_type} (longdouble) bins in {bin_type}, "
            "which is not supported"
        )
    return cast_result(a, bin_type)  # on a's device


def _native(x):
    return x if x.dtype.isnative else x.astype(x.dtype.newbyteorder("="))


def _samples(a, stacklevel):
    """a as NumPy's histogram reads it: bool as uint8 (with its warning; a
    view, on the GPU too), a native copy of another byte order; datetime64
    refused. Lists and scalars become NumPy arrays; GPU arrays stay where
    they are."""
    if not _on_device(a):
        a = np.asarray(a)
    dt = dtype_of(a)
    if dt == np.bool_:
        warnings.warn(
            f"Converting input from {dt} to {np.uint8} for compatibility.",
            RuntimeWarning,
            stacklevel=stacklevel,
        )
        a = _as_uint8(a)
    if dt.kind in "mM":
        raise TypeError(f"histogram: {dt} samples (datetime64 / timedelta64) are not supported")
    return _native(a) if isinstance(a, np.ndarray) else a


def _as_uint8(a):
    """A bool array's bytes as uint8, a view by its framework (others are
    left to the core, which refuses bool by name)."""
    if framework(a) == "torch":
        import torch

        return a.view(torch.uint8)
    if framework(a) in ("numpy", "cupy"):
        return a.view(np.uint8)
    return a


# int64 / uint64 samples on the GPU (whose histograms the library does not
# precompile) are binned as float64 copies; integers up to this magnitude
# compare alike as integers and as float64.
_EXACT_IN_FLOAT64 = 2**53


def _is_integer(v):
    return isinstance(v, int) or (_typed(v) and dtype_of(v).kind in "iu")


def _wide_integers_on_device(a, range, edges=None):
    """(samples, range) for the library's GPU histogram of int64 / uint64
    samples: a float64 copy on the device. NumPy bins integer samples in
    float64 (its bin type for them: the samples converted, the edges a
    float64 linspace of the outer edges, each sample's bin checked against
    them), so the copy with the same outer edges gives NumPy's counts and
    edges. Without a range those are the data's min and max, read once (a
    wait, as NumPy's rule needs them) and passed as the range. What NumPy
    compares as integers -- integer range bounds against the samples, an
    integer array of edges (`edges`) against them -- compares alike in
    float64 within +-2**53 (the samples and edges are checked then, a
    wait); beyond, TypeError naming the case. Everything else as it is."""
    if not _on_device(a):
        return a, range
    dt = dtype_of(a)
    if dt.kind not in "iu" or dt.itemsize < 8:
        return a, range
    size = int(np.prod(getattr(a, "shape", ())))
    exact = []  # the integers NumPy compares exactly
    if edges is None and range is None and size:
        range = (int(a.min()), int(a.max()))
    elif edges is None and range is not None:
        exact = [v for v in range if _is_integer(v)]
    elif edges is not None and dtype_of(edges).kind in "iu" and size:
        e = edges if _on_device(edges) else np.asarray(edges)
        exact = [int(a.min()), int(a.max()), int(e.min()), int(e.max())]
    beyond = [int(v) for v in exact if not abs(int(v)) <= _EXACT_IN_FLOAT64]
    if beyond:
        raise TypeError(
            f"histogram: {dt} samples on the GPU are binned as float64, where integer bounds "
            f"and edges compare as NumPy's within +-2**53; {beyond[0]} is beyond"
        )
    return cast_result(a, np.dtype(np.float64)), range


# The weights' dtype -> the type the library sums them in (the result is
# converted back to the weights' dtype: integers wrap as NumPy's do).
_WEIGHT_SUMS = {"f": np.float64, "i": np.int64, "u": np.uint64, "b": np.int64}


def _weighted(a, bins, range, density, weights):
    a_on, w_on = _on_device(a), _on_device(weights)
    if a_on and not w_on and np.asarray(weights).dtype == object:
        raise TypeError(
            "histogram: object weights (such as Decimal) are summed on the CPU only "
            "(NumPy arrays), not over a GPU array"
        )
    if a_on != w_on:
        raise ValueError(
            "histogram: a and weights must be both on the host or both on the GPU "
            f"(got {type(a).__name__} and {type(weights).__name__})"
        )
    if a_on:
        return _weighted_on_device(a, bins, range, density, weights)
    a = _samples(a, stacklevel=4)
    weights = np.asarray(weights)
    ntype = weights.dtype  # NumPy's sums are of the weights' dtype, byte order included
    _check_weighted(a, bins, weights)
    a, weights = a.ravel(), _native(weights.ravel())
    if weights.dtype == object:
        n, edges = _object_sums(_in_bin_type(a, range), weights, bins, range)
        return _weighted_answer(n, edges, density)
    parts = (weights.real, weights.imag) if weights.dtype.kind == "c" else (weights,)
    a = _in_bin_type(a, range)
    even = np.ndim(bins) == 0
    _refuse_bool_cumulative(ntype, even, a.size)
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
    return _weighted_answer(_sums_as(sums, ntype), edges, density)


def _check_weighted(a, bins, weights):
    """NumPy's checks of a weighted call (either side): the weights' shape,
    no estimator, a dtype the sums take."""
    if tuple(weights.shape) != tuple(a.shape):
        raise ValueError("weights should have the same shape as a.")
    if isinstance(bins, str):
        if bins not in _ESTIMATORS:
            raise ValueError(f"{bins!r} is not a valid estimator for `bins`")
        raise TypeError(
            "Automated estimation of the number of bins is not supported for weighted data"
        )
    kind = dtype_of(weights).kind
    if kind not in _WEIGHT_SUMS and kind not in "cO":
        raise TypeError(
            f"histogram: weights of dtype {dtype_of(weights)} are not supported "
            "(bool, integers, floats and complex are)"
        )


def _refuse_bool_cumulative(ntype, even, size):
    if ntype.kind == "b" and not even and size:
        # NumPy's cumulative form adds int64 running sums into bool totals
        raise TypeError(
            "Cannot cast ufunc 'add' output from dtype('int64') to dtype('bool') with casting "
            "rule 'same_kind'"
        )


def _sums_as(sums, ntype):
    """The weights' dtype from the sums of their parts (one, or the real and
    imaginary parts), by the sums' framework."""
    if ntype.kind == "c":
        n = _array_module(sums[0]).empty(len(sums[0]), ntype)
        n.real, n.imag = sums
        return n
    if ntype.kind == "b":
        return sums[0] != 0  # NumPy's n += block.astype(bool): any True weight
    return sums[0].astype(ntype, copy=False)


def _weighted_answer(n, edges, density):
    if density:
        widths = _array_module(edges).diff(edges).astype(np.float64)
        return n / widths / n.sum(), edges
    return n, edges


def _weighted_on_device(a, bins, range, density, weights):
    """NumPy's weighted histogram of CuPy samples and weights, on their
    device: the edges as for counting (the library's), each sample's bin
    found among them (cupy.searchsorted; the last bin holds its right
    edge), the weights summed per bin in float64 (cupy.bincount, the sum
    NumPy's bincount makes of each block) and converted to the weights'
    dtype (bool: any True; complex: the parts apart). The float sums'
    order is the device's, so they equal NumPy's where the sums are exact
    and are within rounding otherwise."""
    if framework(a) != "cupy" or framework(weights) != "cupy":
        raise TypeError(
            "histogram: weights= on the GPU takes CuPy samples and weights "
            f"(got {type(a).__module__}.{type(a).__name__})"
        )
    import cupy

    a = _samples(a, stacklevel=5)
    _check_weighted(a, bins, weights)
    ntype = dtype_of(weights)
    a = _in_bin_type(a, range)
    even = np.ndim(bins) == 0
    _refuse_bool_cumulative(ntype, even, a.size)
    if even:
        binned, binned_range = _wide_integers_on_device(a, range)
        edges = _counts_and_edges(binned, bins, binned_range, None)[1]
    else:
        edges = _edges_array(bins, None, samples=a)
        binned = _wide_integers_on_device(a, None, edges)[0]
    with cupy.cuda.Device(a.device.id):
        n = _sums_by_search(cupy, binned, edges, weights, ntype)
        return _weighted_answer(n, edges, density)


def _sums_by_search(xp, samples, edges, weights, ntype):
    """The weights' sums per bin (of dtype ntype) by array module xp's
    searchsorted and bincount: the device's weighted histogram (NumPy's
    even bins find the same bin for each sample as a search among their
    edges does)."""
    x = samples.ravel().astype(np.float64)  # exact: samples compare with the edges so
    e = _edges_in_double(edges)
    n = len(e) - 1
    keep = (x >= e[0]) & (x <= e[-1])
    index = xp.clip(xp.searchsorted(e, x, side="right") - 1, 0, n - 1)[keep]
    w = weights.ravel()[keep]
    parts = (w.real, w.imag) if ntype.kind == "c" else (w,)
    sums = [xp.bincount(index, weights=p.astype(np.float64), minlength=n) for p in parts]
    if ntype.kind in "iu":
        # float64 -> the 64-bit type of the kind -> ntype: narrower integers
        # wrap as NumPy's conversion of its sums does
        sums = [v.astype(_WEIGHT_SUMS[ntype.kind]) for v in sums]
    return _sums_as(sums, ntype)


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


def _edges_array(bins, stream=None, samples=None):
    """bins as an array of edges that do not decrease (NumPy's errors); host
    edges (a list, a NumPy array) for samples on a GPU are copied to the
    samples' device, where NumPy's answer (the edges) is then returned."""
    if np.ndim(bins) != 1:
        raise ValueError("`bins` must be 1d, when an array")
    edges = bins if _on_device(bins) else np.asarray(bins)
    if samples is not None and _on_device(samples) and not _on_device(edges):
        edges = _to_device_of(edges, samples)
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


def _to_device_of(x, like):
    """The NumPy array x copied to the device of the CuPy array or PyTorch
    tensor `like` (other GPU arrays: x as it is, which the core refuses as
    a mix of host and device)."""
    kind = framework(like)
    if kind == "cupy":
        import cupy

        with cupy.cuda.Device(like.device.id):
            return cupy.asarray(x)
    if kind == "torch":
        import torch

        return torch.as_tensor(np.ascontiguousarray(x), device=like.device)
    return x


def _edges_in_double(edges):
    """The edges as float64 in their own framework (NumPy, CuPy or PyTorch):
    NumPy bins compare samples with float64 edges."""
    if dtype_of(edges) == np.float64:
        return edges
    return cast_result(edges, np.dtype(np.float64))


def _counts_and_edges(a, bins, range, stream):
    half_on_device = _on_device(a) and dtype_of(a) == np.float16
    if np.ndim(bins) == 0:
        n = _bin_count(bins)
        if half_on_device:
            raise TypeError(
                "histogram: even bins over float16 samples on the GPU are not supported (NumPy "
                "places them in float16 arithmetic); pass an array of edges, a float32 range, "
                "or float32 samples"
            )
        pair = None if range is None else _range_pair(range)
        counts, edges = _core._histogram_even(a, n, pair, _range_bits(range), stream)
        if str(getattr(a, "dtype", "")) == "float16":
            edges = edges.astype(np.float16)  # float16 values, exactly
        return counts, edges
    edges = _edges_array(bins, stream, samples=a)
    if half_on_device:
        a = cast_result(a, np.dtype(np.float32))  # exact; the edges compare as float64 anyway
    return _core._histogram_of_edges(a, _edges_in_double(edges), stream), edges
