"""sort, argsort and sort_by_key with NumPy's names and arguments.

Every sort is the library's stable radix sort (rows through its batched
sorts; float16 keys as their float32 values), so each of NumPy's kinds ('quicksort', 'mergesort', 'heapsort',
'stable') is answered with the stable order, which is also a valid answer
for the unstable kinds. Another axis than the last is moved last and back.
"""

import numpy as np

from . import _core
from ._arrays import (
    as_dtype,
    cast_result,
    dtype_of,
    move_axis_last,
    move_last_axis_back,
    ndim_of,
    normalize_axis,
)

_KINDS = (None, "quicksort", "quick", "mergesort", "merge", "heapsort", "heap", "stable")


def _check_kind(fn, kind, order, stable):
    if kind not in _KINDS:
        raise ValueError(
            f"{fn}: sort kind must be one of 'quicksort', 'mergesort', 'heapsort' or 'stable' "
            f"(got {kind!r})"
        )
    if stable is not None and kind is not None:
        raise ValueError(f"{fn}: `kind` and `stable` parameters can't be provided at the same time")
    if order is not None:
        raise ValueError(f"{fn}: order= needs a structured array, which gpuprim does not sort")


def _sort(fn, indices, a, axis, descending, stream):
    if getattr(a, "dtype", None) is not None and dtype_of(a) == np.float16:
        # float16 keys sort as their exact float32 values (the same order,
        # -0.0 and NaN included); sorted keys convert back exactly.
        wide, _ = as_dtype(fn, a, np.float32)
        result = _sort(fn, indices, wide, axis, descending, stream)
        return result if indices else cast_result(result, np.dtype(np.float16))
    if axis is None:
        return _core._sort(fn, indices, a, False, bool(descending), stream)
    ndim = ndim_of(a)
    ax = normalize_axis(fn, axis, ndim)  # a 0-d array has no axis: AxisError, as NumPy
    if ax == ndim - 1:
        return _core._sort(fn, indices, a, True, bool(descending), stream)
    moved = _core._sort(fn, indices, move_axis_last(fn, a, ax), True, bool(descending), stream)
    return move_last_axis_back(moved, ax)


def sort(a, axis=-1, kind=None, order=None, *, stable=None, descending=False, stream=None):
    """A sorted copy, as numpy.sort: along `axis` (default the last; rows
    through the batched sorts) or of the flattened array (axis=None). NaN
    sorts last, also with descending=True. Every kind gives the stable
    order."""
    _check_kind("sort", kind, order, stable)
    return _sort("sort", False, a, axis, descending, stream)


def argsort(a, axis=-1, kind=None, order=None, *, stable=None, descending=False, stream=None):
    """The indices (int64) that sort a, as numpy.argsort(kind='stable'), whatever
    the kind: along `axis` or of the flattened array (axis=None). NaN last;
    descending=True keeps equal keys in input order."""
    _check_kind("argsort", kind, order, stable)
    return _sort("argsort", True, a, axis, descending, stream)


def sort_by_key(keys, values, descending=False, *, stream=None):
    """(sorted keys, values in the keys' new order) for 1-D keys and values of 4 or
    8 bytes; stable, NaN keys last."""
    return _core._sort_by_key(keys, values, bool(descending), stream)
