"""Selection with NumPy's and PyTorch's names: nonzero, flatnonzero,
count_nonzero, extract, compress, unique, unique_consecutive.

NumPy arrays run on the CPU backend, CUDA arrays (CuPy, PyTorch) on the GPU,
and results are arrays of the input's kind. Every function here returns an
array whose size depends on the data, so on the GPU each one waits once for
the GPU (to learn that size) and no more: the count is taken by the
library's selection kernel, then the outputs are written asynchronously on
the stream. ``count_nonzero`` returns a Python int, as NumPy does.

Differences from NumPy, on purpose:
  - ``count_nonzero`` and ``compress`` take ``axis=None`` only (the
    flattened array), ``unique`` ``axis=None`` only;
  - ``unique`` keeps one of equal zeros: where the input holds both -0.0
    and 0.0 its zero is -0.0 (the radix sort orders -0.0 first; NumPy's
    comparison sort keeps whichever came first);
  - float16 is not taken, and on the GPU 2-byte integers are not.
"""

import numbers

import numpy as np

from . import _core
from ._scan import cumsum

__all__ = [
    "nonzero",
    "flatnonzero",
    "count_nonzero",
    "extract",
    "compress",
    "unique",
    "unique_consecutive",
]


def _framework(a):
    """'numpy', 'cupy' or 'torch': which module made `a`."""
    module = type(a).__module__
    if module.startswith("cupy"):
        return "cupy"
    if module.startswith("torch"):
        return "torch"
    return "numpy"


def _as_array(a):
    """A NumPy array for lists and scalars; framework arrays as they are."""
    if _framework(a) == "numpy" and not isinstance(a, np.ndarray) and not hasattr(a, "dtype"):
        return np.asarray(a)
    return a


def _flat(a):
    return a.reshape(-1)


def _arange(a, n):
    """0 .. n-1 as int64, on `a`'s device."""
    kind = _framework(a)
    if kind == "torch":
        import torch

        return torch.arange(n, dtype=torch.int64, device=a.device)
    if kind == "cupy":
        import cupy

        return cupy.arange(n, dtype=cupy.int64)
    return np.arange(n, dtype=np.int64)


def _head_flags(s, heads):
    """True, then `heads` (whether each element after the first starts a run)."""
    kind = _framework(s)
    if kind == "torch":
        import torch

        return torch.cat([torch.ones(1, dtype=torch.bool, device=s.device), heads])
    if kind == "cupy":
        import cupy

        return cupy.concatenate([cupy.ones(1, dtype=cupy.bool_), heads])
    return np.concatenate([np.ones(1, dtype=np.bool_), heads])


def _run_numbers(s, equal_nan, stream):
    """Each element's run of equal consecutive elements, 0, 1, ... (int64),
    for a non-empty 1-D s: a cumulative sum of the runs' head flags."""
    heads = s[1:] != s[:-1]
    if equal_nan and _is_float(s):
        heads = heads & ~(_isnan(s[1:]) & _isnan(s[:-1]))
    return cumsum(_head_flags(s, heads), stream=stream) - 1


def _isnan(a):
    if _framework(a) == "torch":
        import torch

        return torch.isnan(a)
    return a != a


def _is_float(a):
    return str(a.dtype).split(".")[-1] in ("float16", "float32", "float64")


def _check_axis_none(fn, axis):
    if axis is not None:
        raise ValueError(f"{fn}: axis={axis!r} is not supported; gpuprim takes axis=None")


def flatnonzero(a, *, stream=None):
    """The int64 indices of the nonzero elements of the flattened array, as
    numpy.flatnonzero. On the GPU: one synchronization (for the count)."""
    a = _as_array(a)
    return _core._flatnonzero(a, stream=stream)


def nonzero(a, *, stream=None):
    """A tuple of int64 index arrays, one per dimension, of the nonzero
    elements in C order, as numpy.nonzero. On the GPU: one synchronization
    (for the count); the indices of an n-D array are unravelled from the
    flat ones by the array's own framework."""
    a = _as_array(a)
    if a.ndim == 0:
        raise ValueError(
            "nonzero: calling nonzero on 0d arrays is not allowed (as NumPy 2); use "
            "atleast_1d(a).nonzero() instead"
        )
    flat = _core._flatnonzero(a, stream=stream)
    if a.ndim == 1:
        return (flat,)
    out = []
    stride = 1
    for dim in reversed(a.shape):
        out.append((flat // stride) % dim)
        stride *= dim
    return tuple(reversed(out))


def count_nonzero(a, axis=None, *, keepdims=False, stream=None):
    """The number of nonzero elements, as numpy.count_nonzero with axis=None
    (an int; on the GPU the call waits for the count)."""
    _check_axis_none("count_nonzero", axis)
    if keepdims:
        raise ValueError("count_nonzero: keepdims=True is not supported (axis=None only)")
    return _core._count_nonzero(_as_array(a), stream=stream)


def _one_byte_condition(condition):
    """The condition as one byte per element (bool and 1-byte types as they
    are; others as condition != 0, by their framework)."""
    if str(condition.dtype).split(".")[-1] in ("bool", "int8", "uint8"):
        return condition
    return condition != 0


def extract(condition, arr, *, stream=None):
    """The elements of arr (flattened) where condition (flattened) is
    nonzero, as numpy.extract; condition and arr have one size. On the GPU:
    one synchronization (for the count)."""
    condition = _flat(_as_array(condition))
    arr = _flat(_as_array(arr))
    if condition.shape[0] != arr.shape[0]:
        raise ValueError(
            f"extract: the condition has {condition.shape[0]} elements, arr {arr.shape[0]}"
        )
    return _core._compact(_one_byte_condition(condition), arr, stream=stream)


def compress(condition, a, axis=None, out=None, *, stream=None):
    """The elements of a (flattened) where the 1-D condition is true, as
    numpy.compress with axis=None: a condition shorter than a selects from
    its first elements; a longer one may only be False past a's end
    (else IndexError, as NumPy). On the GPU: one synchronization (for the
    count), two for a condition longer than a (its tail is counted first)."""
    _check_axis_none("compress", axis)
    if out is not None:
        raise ValueError("compress: out= is not supported")
    condition = _as_array(condition)
    a = _flat(_as_array(a))
    if condition.ndim != 1:
        raise ValueError("condition must be a 1-d array")
    n = a.shape[0]
    m = condition.shape[0]
    if m > n:
        if count_nonzero(condition[n:], stream=stream):
            raise IndexError(f"index {n} is out of bounds for axis 0 with size {n}")
        condition = condition[:n]
    return _core._compact(_one_byte_condition(condition), a[: condition.shape[0]], stream=stream)


def unique(
    ar,
    return_index=False,
    return_inverse=False,
    return_counts=False,
    axis=None,
    *,
    equal_nan=True,
    sorted=True,
    stream=None,
):
    """The sorted unique elements of ar (flattened), as numpy.unique: with
    return_index the index of each one's first occurrence, with
    return_inverse the indices (of ar's shape) that rebuild ar from them,
    with return_counts how often each occurs (all int64). NaNs count as one
    value, last, unless equal_nan=False (NumPy 2's rule). Through the
    library's radix sort (stable) and its run compaction; on the GPU the
    call waits once, for the number of unique values."""
    _check_axis_none("unique", axis)
    if not sorted:
        raise ValueError("unique: sorted=False is not supported (the result is sorted)")
    ar = _as_array(ar)
    flat = _flat(ar)
    n = flat.shape[0]
    from . import _core as core
    from . import _sort

    perm = None
    if return_index or return_inverse:
        s, perm = _sort.sort_by_key(flat, _arange(flat, n), stream=stream)
    else:
        s = _sort.sort(flat, axis=None, stream=stream)
    u, first, counts = core._unique_runs(
        s, perm if return_index else None, return_counts, equal_nan, stream=stream
    )
    result = [u]
    if return_index:
        result.append(first)
    if return_inverse:
        # Each sorted element's run, sent back to its place in ar: a stable
        # sort of the positions carries the run numbers with them.
        if n:
            runs = _run_numbers(s, equal_nan, stream)
            _, inverse = _sort.sort_by_key(perm, runs, stream=stream)
        else:
            inverse = _arange(flat, 0)
        result.append(inverse.reshape(ar.shape))
    if return_counts:
        result.append(counts)
    return result[0] if len(result) == 1 else tuple(result)


def unique_consecutive(x, return_inverse=False, return_counts=False, dim=None, *, stream=None):
    """The first element of each run of equal consecutive elements of x
    (flattened), as torch.unique_consecutive with dim=None; with
    return_inverse the run of each element (int64, x's shape), with
    return_counts each run's length (int64). NaN never equals NaN (torch's
    rule). On the GPU the call waits once, for the number of runs."""
    if dim is not None:
        raise ValueError("unique_consecutive: dim is not supported (dim=None only)")
    x = _as_array(x)
    flat = _flat(x)
    from . import _core as core

    u, _, counts = core._unique_runs(
        flat, None, return_counts or return_inverse, False, stream=stream
    )
    result = [u]
    if return_inverse:
        inverse = _run_numbers(flat, False, stream) if flat.shape[0] else _arange(flat, 0)
        result.append(inverse.reshape(x.shape))
    if return_counts:
        result.append(counts)
    return result[0] if len(result) == 1 else tuple(result)
