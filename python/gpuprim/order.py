"""Order primitives with NumPy's and PyTorch's names: searchsorted, topk,
partition, argpartition.

These run on the CPU backend (OpenMP) for NumPy arrays (and whatever
``numpy.asarray`` takes); arrays on a CUDA device are refused with a
TypeError, as the family has no GPU backend yet.

Differences from NumPy and PyTorch, on purpose:
  - ``topk`` takes ``axis=`` (``dim=`` is accepted too) and returns NumPy
    arrays ``(values, indices)``; its result is always sorted (torch's
    ``sorted=False`` allows any order, so this is one of those orders);
    equal values come in index order (torch leaves their order open) and
    NaN is the largest value (torch's too);
  - ``partition`` and ``argpartition`` take ``kind='introselect'`` only and
    no ``order``; they place more than NumPy promises: every position from
    0 to the largest kth (or from the smallest kth to the end) holds its
    sorted element;
  - float16 is computed in float32 (exactly: every float16 is a float32);
    complex, object, string and datetime dtypes are not taken.
"""

import numbers
import operator

import numpy as np

from . import _core

__all__ = ["searchsorted", "topk", "partition", "argpartition"]

_AxisError = np.exceptions.AxisError if hasattr(np, "exceptions") else np.AxisError


def _on_device(x):
    if hasattr(x, "__cuda_array_interface__"):
        return True
    return type(x).__module__.startswith("torch") and getattr(x, "is_cuda", False)


def _host_array(fn, x, name):
    """x as a NumPy array; TypeError for device arrays and masked arrays."""
    if _on_device(x):
        raise TypeError(
            f"{fn}: {name} is on a CUDA device; the order family runs on the CPU so far "
            "(pass a NumPy array)"
        )
    _core._refuse_masked(x, f"{fn}: {name}")
    return np.asarray(x)


def _working_dtype(fn, dtype):
    """The dtype the library computes in: float16 as float32, bool as uint8."""
    dtype = np.dtype(dtype)
    if dtype.kind not in "biuf" or dtype.itemsize > 8:
        raise TypeError(
            f"{fn}: dtype {dtype} is not taken (supported: bool, integers, float16, float32, "
            "float64)"
        )
    if dtype == np.float16:
        return np.dtype(np.float32)
    if dtype == np.bool_:
        return np.dtype(np.uint8)
    return dtype.newbyteorder("=")


def searchsorted(a, v, side="left", sorter=None):
    """Indices where the elements of v would be inserted into the sorted 1-D
    array a to keep it sorted, as numpy.searchsorted: side='left' gives the
    first such index, 'right' the last. NaN sorts after every number, as in
    numpy.sort. ``sorter`` (int indices that sort a) reads a as a[sorter].
    Returns int64 (numpy.intp) of v's shape; a NumPy integer for a scalar v.
    On an unsorted a the result is some indices, as NumPy's."""
    if side not in ("left", "right"):
        raise ValueError(f"side={side!r} is invalid. Expected one of: 'left', 'right'")
    a = _host_array("searchsorted", a, "a")
    if a.ndim != 1:
        raise ValueError(f"searchsorted: a must be 1-D (got {a.ndim}-D)")
    if sorter is not None:
        sorter = _host_array("searchsorted", sorter, "sorter")
        if sorter.dtype.kind not in "iu":
            raise TypeError(f"searchsorted: sorter must hold integers (got {sorter.dtype})")
        if sorter.ndim != 1 or sorter.size != a.size:
            raise ValueError("sorter.size must equal a.size")
        if sorter.size and (sorter.min() < 0 or sorter.max() >= a.size):
            raise ValueError("Sorter index out of range.")
        a = a[sorter]
    scalar = np.ndim(v) == 0 and not isinstance(v, np.ndarray)
    if _on_device(v):
        _host_array("searchsorted", v, "v")
    _core._refuse_masked(v, "searchsorted: v")
    common = np.result_type(a, v) if isinstance(v, (numbers.Number, np.generic)) else None
    v = np.asarray(v)
    if common is None:
        common = np.result_type(a, v)
    work = _working_dtype("searchsorted", common)
    a_w = np.ascontiguousarray(a, dtype=work)
    v_w = np.ascontiguousarray(v, dtype=work)
    out = _core._searchsorted(a_w, v_w, side == "right")
    if scalar or v.ndim == 0:
        return np.intp(out.reshape(()))
    return out


def _index(fn, name, value):
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{fn}: {name} must be an integer (got a bool)")
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError(
            f"{fn}: {name} must be an integer (got {type(value).__name__})"
        ) from None


def _rows_topk(x2, k, largest):
    """(values, indices) of the k first of each row of the 2-D x2 (k >= 1)."""
    work = _working_dtype("topk", x2.dtype)
    x_w = np.ascontiguousarray(x2, dtype=work)
    values, indices = _core._topk_rows(x_w, k, bool(largest))
    if values.dtype != x2.dtype:
        values = values.astype(x2.dtype)
    return values, indices


def topk(x, k, largest=True, sorted=True, axis=-1, *, dim=None):
    """The k largest (smallest when largest=False) elements along `axis`
    and their int64 indices, as torch.topk: (values, indices), each of x's
    shape with k along the axis, sorted from the largest (smallest). NaN is
    the largest value; equal values come in index order. k from 0 to the
    axis' length."""
    if dim is not None:
        axis = dim
    x = _host_array("topk", x, "x")
    if x.ndim == 0:
        raise ValueError("topk: x must have at least one dimension")
    axis = _index("topk", "axis", axis)
    if not -x.ndim <= axis < x.ndim:
        raise _AxisError(axis, x.ndim)
    k = _index("topk", "k", k)
    n = x.shape[axis]
    if not 0 <= k <= n:
        raise ValueError(f"topk: k ({k}) is out of range: the axis has {n} elements")
    _working_dtype("topk", x.dtype)
    moved = np.moveaxis(x, axis, -1)
    lead = moved.shape[:-1]
    rows = int(np.prod(lead, dtype=np.int64))
    if k == 0 or rows == 0:
        values = np.empty(lead + (k,), dtype=x.dtype)
        indices = np.empty(lead + (k,), dtype=np.int64)
    else:
        values, indices = _rows_topk(moved.reshape(rows, n), k, largest)
        values = values.reshape(lead + (k,))
        indices = indices.reshape(lead + (k,))
    return np.moveaxis(values, -1, axis), np.moveaxis(indices, -1, axis)


def _kths(fn, kth, n):
    """The kth values, made non-negative and checked against n."""
    if isinstance(kth, (bool, np.bool_)) or (
        isinstance(kth, np.ndarray) and kth.dtype == np.bool_
    ):
        raise ValueError(f"{fn}: kth must be an integer or a sequence of integers (got booleans)")
    values = np.atleast_1d(np.asarray(kth))
    if values.dtype.kind not in "iu" or values.ndim != 1:
        raise TypeError(f"{fn}: kth must be an integer or a sequence of integers")
    out = []
    for value in values.tolist():
        k = value + n if value < 0 else value
        if not 0 <= k < n:
            raise ValueError(f"kth(={value}) out of bounds ({n})")
        out.append(k)
    return out


def _argpartition_rows(fn, x2, kths):
    """Indices that partition each row of x2 at every kth."""
    rows, n = x2.shape
    low, high = min(kths), max(kths)
    front = high + 1  # sort the front ...
    back = n - low  # ... or the back
    mask = np.ones((rows, n), dtype=bool)
    if front <= back:
        sel = _rows_topk(x2, front, False)[1]
        np.put_along_axis(mask, sel, False, axis=1)
        rest = np.nonzero(mask)[1].reshape(rows, n - front)
        return np.concatenate([sel, rest], axis=1)
    sel = _rows_topk(x2, back, True)[1][:, ::-1]
    np.put_along_axis(mask, sel, False, axis=1)
    rest = np.nonzero(mask)[1].reshape(rows, n - back)
    return np.concatenate([rest, sel], axis=1)


def argpartition(a, kth, axis=-1, kind="introselect", order=None):
    """The int64 indices that partition a, as numpy.argpartition: along
    `axis` (None: the flattened array), the element at each kth is the one
    a sort would put there, those before it are not greater and those after
    not less. NaN sorts last."""
    return _partition("argpartition", a, kth, axis, kind, order, indices=True)


def partition(a, kth, axis=-1, kind="introselect", order=None):
    """A partitioned copy of a, as numpy.partition (see argpartition)."""
    return _partition("partition", a, kth, axis, kind, order, indices=False)


def _partition(fn, a, kth, axis, kind, order, indices):
    if kind != "introselect":
        raise ValueError(f"{fn}: kind must be 'introselect' (got {kind!r})")
    if order is not None:
        raise ValueError(f"{fn}: order (fields of a structured array) is not taken")
    a = _host_array(fn, a, "a")
    if axis is None:
        a = a.reshape(-1)
        axis = -1
    if a.ndim == 0:
        raise ValueError(f"{fn}: a must have at least one dimension (or use axis=None)")
    axis = _index(fn, "axis", axis)
    if not -a.ndim <= axis < a.ndim:
        raise _AxisError(axis, a.ndim)
    _working_dtype(fn, a.dtype)
    n = a.shape[axis]
    kths = _kths(fn, kth, n)
    moved = np.moveaxis(a, axis, -1)
    lead = moved.shape[:-1]
    rows = int(np.prod(lead, dtype=np.int64))
    x2 = moved.reshape(rows, n)
    if rows == 0 or not kths:
        idx = np.broadcast_to(np.arange(n, dtype=np.int64), (rows, n)).copy()
    else:
        idx = _argpartition_rows(fn, x2, kths)
    if indices:
        return np.moveaxis(idx.reshape(lead + (n,)), -1, axis)
    out = np.take_along_axis(x2, idx, axis=1)
    return np.moveaxis(out.reshape(lead + (n,)), -1, axis)
