"""transpose and matmul with NumPy's names."""

import operator

import numpy as np

from . import _core
from ._arrays import AxisError, check_out, dtype_of, framework, ndim_of, shape_of, write_out


def _axes(fn, axes, ndim):
    """NumPy's axes= of transpose: None or a permutation of the axes (negative
    ones counted from the end); True when it swaps the two axes of a 2-D array."""
    if axes is None:
        return ndim == 2
    try:
        perm = [operator.index(i) for i in axes]
    except TypeError:
        raise TypeError(f"{fn}: axes must be None or a sequence of integers") from None
    if len(perm) != ndim:
        raise ValueError(f"{fn}: axes don't match array (got {len(perm)} for {ndim} dimensions)")
    for i in perm:
        if not -ndim <= i < ndim:
            raise AxisError(f"{fn}: axis {i} is out of bounds for array of dimension {ndim}")
    perm = [i % ndim for i in perm]
    if sorted(perm) != list(range(ndim)):
        raise ValueError(f"{fn}: repeated axis in transpose")
    return perm == [1, 0]


def _copy(a):
    if framework(a) == "torch":
        return a.clone()
    if framework(a) is None:
        return np.array(a)
    return a.copy()


def transpose(a, axes=None, *, out=None, stream=None):
    """The transpose of a 2-D array as a new C-contiguous array, as
    numpy.ascontiguousarray(numpy.transpose(a, axes)) (a 1-D array, or
    axes=(0, 1), is copied). bool, integers, float16-64. Differs from numpy.transpose on
    purpose: the result is a new array, never a view. out= (gpuprim's
    addition; numpy.transpose has none) is an array of the result's shape,
    of the input's kind and device, checked before any work; the result is
    cast into it as NumPy's copyto (same_kind)."""
    fn = "transpose"
    ndim = ndim_of(a)
    if ndim > 2:
        return _core._transpose(a, stream)  # the core's error: 1-D and 2-D arrays
    swap = _axes(fn, axes, ndim)
    if out is not None:
        shape = shape_of(a)[::-1] if swap else shape_of(a)
        check_out(fn, out, a, shape, dtype_of(a), "same_kind")
    result = _core._transpose(a, stream) if swap or ndim < 2 else _copy(a)
    return result if out is None else write_out(out, result)


def matmul(a, b, out=None, *, stream=None):
    """a @ b for 2-D float32 or float64 matrices, or 3-D stacks of them (a stack of
    one, or a 2-D operand, broadcasts), as numpy.matmul. Full fp32 (no TF32) on
    the GPU, through cuBLAS. out= (the result's shape; a dtype the result casts
    to under NumPy's same_kind rule, e.g. float64 into float32; the inputs'
    kind and device) is checked before any work and receives the result."""
    if out is not None:
        na, nb = ndim_of(a), ndim_of(b)
        sa, sb = shape_of(a), shape_of(b)
        if 2 <= na <= 3 and 2 <= nb <= 3 and dtype_of(a) == dtype_of(b):
            shape = (sa[-2], sb[-1])
            if na == 3 or nb == 3:
                ba = sa[0] if na == 3 else 1
                bb = sb[0] if nb == 3 else 1
                shape = (ba if bb == 1 else bb,) + shape
            check_out("matmul", out, a, shape, dtype_of(a), "same_kind")
        # Otherwise the core refuses the operands (before any work).
    result = _core._matmul(a, b, stream)
    return result if out is None else write_out(out, result)
