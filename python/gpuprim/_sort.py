"""sort, argsort and sort_by_key with NumPy's names and arguments.

Every sort is the library's stable radix sort (rows through its batched
sorts; float16 keys as their float32 values), so each of NumPy's kinds
('quicksort', 'mergesort', 'heapsort', 'stable', or any word starting with
q, h, m, s as NumPy reads them) is answered with the stable order, which is
also a valid answer for the unstable kinds. Another axis than the last is
moved last and back. Keys are bool, integers, float16/32/64 (NumPy arrays
of either byte order); complex, longdouble, strings, object, structured
(order=) and datetime64 / timedelta64 arrays, which NumPy sorts, are
refused by name with TypeError.
"""

import numpy as np

from . import _core
from ._arrays import (
    as_dtype,
    compiled_ops,
    cast_result,
    dtype_of,
    framework,
    move_axis_last,
    move_last_axis_back,
    ndim_of,
    normalize_axis,
)

# The dtypes NumPy sorts and gpuprim does not, by dtype.kind: refused by
# name (TypeError) before any work.
_REFUSED_KINDS = {
    "c": "complex numbers",
    "V": "structured (void) arrays",
    "O": "object arrays",
    "M": "datetime64 values",
    "m": "timedelta64 values",
    "U": "strings",
    "S": "byte strings",
    "T": "strings",
}


def _check_kind(fn, kind, stable):
    """NumPy's kind rule: None, or a str / bytes whose first letter is q, h, m
    or s (any case: 'quicksort', 'heap', 'M', 'stable', ...)."""
    if kind is None:
        return
    if stable is not None:
        raise ValueError(
            f"{fn}: `kind` and keyword parameters can't be provided at the same time. "
            "Use only one of them."
        )
    if not isinstance(kind, (str, bytes)):
        raise TypeError(f"{fn}: sort kind must be str, not {type(kind).__name__}")
    first = kind[:1].decode("latin-1") if isinstance(kind, bytes) else kind[:1]
    if first.lower() not in ("q", "h", "m", "s"):
        raise ValueError(
            f"{fn}: sort kind must be one of 'quick', 'heap', or 'stable' (got {kind!r})"
        )


def _check_dtype(fn, a, order):
    """a as the core takes it: a NumPy array of another byte order as a native
    copy; a dtype gpuprim does not sort refused by name (TypeError). order=
    needs fields: ValueError without them, as NumPy."""
    if framework(a) is None and not hasattr(a, "dtype"):
        a = np.asarray(a)  # lists and scalars (arrays of other kinds go to the core)
    dt = dtype_of(a)
    if dt.kind in _REFUSED_KINDS:
        raise TypeError(
            f"{fn}: {_REFUSED_KINDS[dt.kind]} are not sorted by gpuprim (dtype {dt}); "
            "it sorts bool, integers and floats up to 8 bytes"
        )
    if order is not None:
        raise ValueError(f"{fn}: Cannot specify order when the array has no fields.")
    if dt.kind == "f" and dt.itemsize > 8:
        raise TypeError(
            f"{fn}: longdouble is not sorted by gpuprim (dtype {dt}); "
            "it sorts bool, integers and floats up to 8 bytes"
        )
    if framework(a) == "numpy" and not dt.isnative:
        a = a.astype(dt.newbyteorder("="))
    return a


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


def _flat_axis(a, axis):
    """(tensor, dim) for the custom operators: axis=None sorts the flattened tensor."""
    return (a.reshape(-1), 0) if axis is None else (a, axis)


def sort(a, axis=-1, kind=None, order=None, *, stable=None, descending=False, stream=None):
    """A sorted copy, as numpy.sort: along `axis` (default the last; rows
    through the batched sorts) or of the flattened array (axis=None). NaN
    sorts last, also with descending=True. Every kind gives the stable
    order. The dtypes gpuprim does not sort (complex, longdouble, strings,
    object, structured, datetime64) raise TypeError naming them."""
    ops = compiled_ops(a)
    if ops is not None:  # traced by torch.compile: the custom operator
        return ops.sort(*_flat_axis(a, axis), bool(descending))
    _check_kind("sort", kind, stable)
    wanted = getattr(a, "dtype", None)
    a = _check_dtype("sort", a, order)
    result = _sort("sort", False, a, axis, descending, stream)
    if framework(a) == "numpy" and wanted is not None and result.dtype != wanted:
        result = result.astype(wanted)  # NumPy keeps the input's byte order
    return result


def argsort(a, axis=-1, kind=None, order=None, *, stable=None, descending=False, stream=None):
    """The indices (int64) that sort a, as numpy.argsort(kind='stable'), whatever
    the kind: along `axis` or of the flattened array (axis=None). NaN last;
    descending=True keeps equal keys in input order. Refused dtypes as sort's."""
    ops = compiled_ops(a)
    if ops is not None:
        return ops.argsort(*_flat_axis(a, axis), bool(descending))
    _check_kind("argsort", kind, stable)
    a = _check_dtype("argsort", a, order)
    return _sort("argsort", True, a, axis, descending, stream)


def sort_by_key(keys, values, descending=False, *, stream=None):
    """(sorted keys, values in the keys' new order) for 1-D keys and values of 4 or
    8 bytes; stable, NaN keys last."""
    return _core._sort_by_key(keys, values, bool(descending), stream)
