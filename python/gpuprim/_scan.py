"""The scans with NumPy's names and arguments: cumsum, cummax, cummin
(numpy.maximum.accumulate / numpy.minimum.accumulate of the flattened array)
and exclusive_scan, and the segmented sums.

cumsum along an axis is the core's scan of each row (``rows=True``), with
another axis moved last first and back after; a complex cumsum is the
cumsums of its real and imaginary parts (complex addition adds them
apart, so the answer is the same). cummax / cummin take the flattened
array, or along an axis of an N-D array one scan per row (a loop in
Python: there for NumPy's vocabulary, not for speed).
"""

import numpy as np

from . import _core
from ._arrays import (
    axis_and_dtype,
    check_out,
    compiled_ops,
    dtype_of,
    framework,
    move_axis_last,
    move_last_axis_back,
    ndim_of,
    normalize_axis,
    shape_of,
    sum_type,
    wrap_to_dtype,
    write_out,
)

_op = _core.scan_op

# exclusive_scan's operator names: NumPy's ufunc names and the C++ ones.
_EXCLUSIVE_OPS = {
    "add": _op.sum,
    "sum": _op.sum,
    "plus": _op.sum,
    "max": _op.max,
    "maximum": _op.max,
    "min": _op.min,
    "minimum": _op.min,
    "nanmax": _op.nanmax,
    "fmax": _op.nanmax,
    "maximum_number": _op.nanmax,
    "nanmin": _op.nanmin,
    "fmin": _op.nanmin,
    "minimum_number": _op.nanmin,
}


def _parts(a):
    """(real part, imaginary part) of a complex array, by its framework."""
    if framework(a) is None:
        a = np.asarray(a)
    return a.real, a.imag


def _complex_of(re, im, dtype):
    """The complex array re + i im of `dtype`, assembled part by part (no
    multiplication, so inf and NaN parts stay as they are)."""
    kind = framework(re)
    if kind == "torch":
        import torch

        return torch.complex(re, im)
    out = re.astype(dtype)
    out.imag = im
    return out


def _complex_cumsum(fn, a, axis, dtype, out, stream):
    want = np.dtype(dtype) if dtype is not None else dtype_of(a)
    if want.kind != "c":
        raise TypeError(f"{fn}: a complex input needs a complex dtype= (got {want})")
    if dtype_of(a) != want:
        a = np.asarray(a).astype(want) if framework(a) in (None, "numpy") else a.astype(want)
    if out is not None:
        ax = normalize_axis(fn, axis, ndim_of(a))
        shape = shape_of(a) if ax is not None else (int(np.prod(shape_of(a))),)
        check_out(fn, out, a, shape, want)
    re, im = _parts(a)
    result = _complex_of(cumsum(re, axis, stream=stream), cumsum(im, axis, stream=stream), want)
    return result if out is None else write_out(out, result)


def cumsum(a, axis=None, dtype=None, out=None, *, stream=None):
    """Inclusive prefix sums, as numpy.cumsum: of the flattened array
    (axis=None, a 1-D result) or along one axis (the input's shape).
    Integers accumulate in int64 / uint64, as NumPy's; float32 stays
    float32. dtype= converts the elements first and accumulates in that
    type; out= (the result's shape and dtype, the input's kind and device,
    checked before any work) receives the result. Complex inputs sum their
    real and imaginary parts apart, as complex addition does."""
    ops = compiled_ops(a)
    if ops is not None and dtype is None and out is None:  # traced by torch.compile
        return ops.cumsum(a.reshape(-1), 0) if axis is None else ops.cumsum(a, axis)
    fn = "cumsum"
    if axis is None and dtype is None and out is None and dtype_of(a).kind != "c":
        return _core._scan(fn, _op.sum, a, False, False, None, stream)  # the common call
    if dtype_of(a).kind == "c" or (dtype is not None and np.dtype(dtype).kind == "c"):
        return _complex_cumsum(fn, a, axis, dtype, out, stream)
    a, ndim, ax, want = axis_and_dtype(fn, a, axis, dtype)
    if out is not None:
        shape = shape_of(a)
        if ax is None:
            shape = (int(np.prod(shape)),)
        check_out(fn, out, a, shape, want or sum_type(dtype_of(a)))
    if ax is None or ndim == 1:
        result = _core._scan(fn, _op.sum, a, False, False, None, stream)
    elif ax == ndim - 1:
        result = _core._scan(fn, _op.sum, a, True, False, None, stream)
    else:
        moved = _core._scan(fn, _op.sum, move_axis_last(fn, a, ax), True, False, None, stream)
        result = move_last_axis_back(moved, ax)
    result = wrap_to_dtype(result, want)
    return result if out is None else write_out(out, result)


def _running(fn, op, a, axis, out, stream):
    ndim = ndim_of(a)
    ax = normalize_axis(fn, axis, ndim)
    shape = shape_of(a) if ax is not None else (int(np.prod(shape_of(a))),)
    if out is not None:
        check_out(fn, out, a, shape, dtype_of(a))
    if ax is None or ndim <= 1:
        result = _core._scan(fn, op, a, False, False, None, stream)
    else:
        moved = move_axis_last(fn, a, ax)
        if int(np.prod(shape_of(moved))) == 0:
            empty = moved.clone() if framework(moved) == "torch" else moved.copy()
            result = move_last_axis_back(empty, ax)  # empty: the input's shape
        else:
            rows = moved.reshape(-1, shape_of(moved)[-1])
            scanned = [_core._scan(fn, op, row, False, False, None, stream) for row in rows]
            result = move_last_axis_back(_stack(scanned).reshape(shape_of(moved)), ax)
    return result if out is None else write_out(out, result)


def _stack(rows):
    kind = framework(rows[0])
    if kind == "torch":
        import torch

        return torch.stack(rows)
    if kind == "cupy":
        import cupy

        # Row by row on the device: cupy.stack copies the rows' pointers from
        # the host, which a CUDA-graph capture refuses.
        out = cupy.empty((len(rows),) + tuple(rows[0].shape), rows[0].dtype)
        for i, row in enumerate(rows):
            out[i] = row
        return out
    return np.stack(rows)


def cummax(a, axis=None, out=None, *, stream=None):
    """Running maximum of the flattened array (axis=None) or along `axis`, as
    numpy.maximum.accumulate: NaN propagates. out= as in cumsum. Along an
    axis of an N-D array each row is one scan (a Python loop)."""
    return _running("cummax", _op.max, a, axis, out, stream)


def cummin(a, axis=None, out=None, *, stream=None):
    """Running minimum of the flattened array (axis=None) or along `axis`, as
    numpy.minimum.accumulate: NaN propagates. out= as in cumsum. Along an
    axis of an N-D array each row is one scan (a Python loop)."""
    return _running("cummin", _op.min, a, axis, out, stream)


def exclusive_scan(x, op="add", init=None, *, stream=None):
    """Exclusive scan of the flattened array: out[0] = init, out[i] = init op x[0]
    op ... op x[i-1]. op: 'add' (integers accumulate in int64 / uint64, as
    cumsum), 'max' / 'min' (NaN propagates, as numpy.maximum), 'nanmax' /
    'nanmin' (NaN skipped, as numpy.fmax), in x's dtype otherwise.

    init=None starts from the operator's identity (0; +inf or the largest
    integer for min; -inf or the lowest for max; NaN for the float nanmax /
    nanmin, which every number beats), so out[i] is the inclusive scan's
    out[i-1] -- the same start as the C++ exclusive_scan without init and the
    CLI's ``scan --exclusive``."""
    fn = "exclusive_scan"
    if not isinstance(op, str):
        raise TypeError(f"{fn}: op must be a string such as 'add', not {type(op).__name__}")
    code = _EXCLUSIVE_OPS.get(op)
    if code is None:
        raise ValueError(
            f"{fn}: op must be 'add', 'max', 'min', 'nanmax' or 'nanmin', not {op!r}"
        )
    return _core._scan(fn, code, x, False, True, init, stream)


def segmented_sum(x, offsets, *, check=True, stream=None):
    """Sum of each segment x[offsets[s]:offsets[s+1]] (num_segments + 1 non-decreasing
    offsets within x; empty segments sum to 0), as numpy.add.reduceat without its
    empty-segment rule. On the GPU offsets are int64 and check=True copies them to
    the host to check them (one wait); check=False skips that, and bad offsets then
    read out of bounds."""
    return _core._segmented("segmented_sum", False, x, offsets, bool(check), stream)


def segmented_cumsum(x, offsets, *, check=True, stream=None):
    """cumsum restarted at every segment: offsets partition x (offsets[0] == 0,
    offsets[-1] == len(x), non-decreasing). check as in segmented_sum."""
    return _core._segmented("segmented_cumsum", True, x, offsets, bool(check), stream)
