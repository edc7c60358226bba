"""The reductions with NumPy's names and arguments: sum, nansum, min, max,
nanmin, nanmax, argmin, argmax, nanargmin, nanargmax.

Each is one call of the core's ``_reduce(op, x, rows, stream)``: over all
elements (``axis=None``, or the one axis of a 1-D array) or along the last
axis (``rows=True``); another axis is first moved last (the core reads the
moved view as a contiguous copy made by the array's own framework).
"""

import numpy as np

from . import _core
from ._arrays import (
    axis_and_dtype,
    check_out,
    compiled_ops,
    dtype_of,
    expand_axis,
    move_axis_last,
    shape_of,
    sum_type,
    wrap_to_dtype,
    write_out,
)

_op = _core.reduce_op


_SUMS = (_op.sum, _op.nansum)
_ARGS = (_op.argmin, _op.argmax, _op.nanargmin, _op.nanargmax)


def _result_type(op, dtype):
    """NumPy's result type of a reduction of `dtype`."""
    if op in _SUMS:
        return sum_type(dtype)
    if op in _ARGS:
        return np.dtype(np.int64)
    return dtype


def _reduce(op, fn, a, axis, dtype, out, keepdims, stream):
    if op == _op.sum and dtype is None and out is None:
        ops = compiled_ops(a)
        if ops is not None:  # traced by torch.compile: the custom operator
            return ops.sum(a, axis, bool(keepdims))
    if axis is None and dtype is None and out is None and not keepdims:
        return _core._reduce(op, a, False, stream)  # the common call, kept short
    a, ndim, ax, want = axis_and_dtype(fn, a, axis, dtype)
    if out is not None:
        shape = list(shape_of(a))
        if ax is None:
            shape = [1] * ndim if keepdims else []
        elif keepdims:
            shape[ax] = 1
        else:
            del shape[ax]
        # NumPy casts the result into out (unsafe casting; an index result
        # same_kind: any integer or float).
        casting = "same_kind" if op in _ARGS else "unsafe"
        check_out(fn, out, a, shape, want or _result_type(op, dtype_of(a)), casting)
    if ax is None or ndim == 1:
        result = _core._reduce(op, a, False, stream)
    else:
        if ax != ndim - 1:
            a = move_axis_last(fn, a, ax)
        result = _core._reduce(op, a, True, stream)
    result = wrap_to_dtype(result, want)
    if keepdims:
        if ax is None:
            for _ in range(ndim):
                result = expand_axis(result, 0)
        else:
            result = expand_axis(result, ax)
    return result if out is None else write_out(out, result)


_DOC = """{what}

As numpy.{name}: over all elements (axis=None) or along one axis; keepdims
keeps the reduced axes as length 1; out= (an array of the result's shape
and dtype, of the input's kind and device, checked before any work)
receives the result.{dtype} NumPy input gives a NumPy scalar (axis=None);
GPU input (CuPy, PyTorch, ...) gives a 0-d array of its kind, computed on
`stream` (default: the framework's current stream) without
synchronizing.{extra}"""


def _make(name, op, what, extra="", has_dtype=False):
    if has_dtype:

        def f(a, axis=None, dtype=None, out=None, keepdims=False, *, stream=None):
            return _reduce(op, name, a, axis, dtype, out, keepdims, stream)

    elif name.startswith(("arg", "nanarg")):

        def f(a, axis=None, out=None, *, keepdims=False, stream=None):
            return _reduce(op, name, a, axis, None, out, keepdims, stream)

    else:

        def f(a, axis=None, out=None, keepdims=False, *, stream=None):
            return _reduce(op, name, a, axis, None, out, keepdims, stream)

    f.__name__ = f.__qualname__ = name
    dtype_doc = (
        " dtype= converts the elements first and accumulates in that type, as NumPy's."
        if has_dtype
        else ""
    )
    f.__doc__ = _DOC.format(what=what, name=name, extra=extra, dtype=dtype_doc)
    return f


sum = _make(
    "sum",
    _op.sum,
    "The sum (integers widen to int64 / uint64, as NumPy's). On the CPU float32 and float64"
    " sums accumulate in float64 and round once to the input's dtype (NumPy adds float32"
    " pairwise in float32), so a float32 sum can differ from NumPy's in the last bits,"
    " gpuprim's being the closer to the exact sum; the result dtype is NumPy's.",
    has_dtype=True,
)
nansum = _make("nansum", _op.nansum, "The sum with NaNs counted as zero.", has_dtype=True)
min = _make("min", _op.min, "The smallest element; NaN if any is NaN.")
max = _make("max", _op.max, "The largest element; NaN if any is NaN.")
nanmin = _make("nanmin", _op.nanmin, "The smallest element, NaNs ignored.")
nanmax = _make("nanmax", _op.nanmax, "The largest element, NaNs ignored.")
argmin = _make("argmin", _op.argmin, "The index of the first smallest element.")
argmax = _make("argmax", _op.argmax, "The index of the first largest element.")
nanargmin = _make(
    "nanargmin",
    _op.nanargmin,
    "argmin with NaNs ignored.",
    "\nAn all-NaN slice raises ValueError on the host.",
)
nanargmax = _make(
    "nanargmax",
    _op.nanargmax,
    "argmax with NaNs ignored.",
    "\nAn all-NaN slice raises ValueError on the host.",
)
