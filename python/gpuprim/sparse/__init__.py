"""Sparse matrices: ``spmv(A, x)`` (and the solvers in ``gpuprim.sparse.linalg``).

``A`` is a CSR matrix: a SciPy ``csr_matrix`` / ``csr_array`` (CPU), a
``cupyx.scipy.sparse.csr_matrix`` (GPU), or a ``(data, indices, indptr,
shape)`` tuple of arrays of one kind. Values are float32 or float64, indices
int32 or int64; vectors must have A's dtype (gpuprim converts nothing;
SciPy would upcast mixed types). Other sparse formats raise TypeError (use
``A.tocsr()``).

The structure (row offsets and column indices) is checked in full before
first use, on the arrays' device (the library's ``check_csr``), and the
result is kept on the matrix object: later calls with the same matrix (the
same ``data``, ``indices`` and ``indptr`` array objects and shape) do not
check again, so a structure changed in place afterwards (``A.indices[k] =
...``) is not seen; assigning new arrays is. A tuple's check is kept for its
arrays (the last 16 tuples, by the arrays' identity).
"""

import numbers
import threading
import weakref

from .. import _core

__all__ = ["spmv", "linalg"]


def _csr_parts(fn, A):
    """(data, indices, indptr, rows, cols) of a CSR matrix argument."""
    if isinstance(A, tuple):
        if len(A) != 4:
            raise TypeError(
                f"{fn}: a matrix tuple is (data, indices, indptr, shape); got {len(A)} items"
            )
        data, indices, indptr, shape = A
    else:
        fmt = getattr(A, "format", None)
        if fmt is None or not all(hasattr(A, a) for a in ("data", "indices", "indptr", "shape")):
            raise TypeError(
                f"{fn}: A must be a SciPy or cupyx CSR matrix or a (data, indices, indptr, shape) "
                f"tuple (got {type(A).__name__})"
            )
        if fmt != "csr":
            raise TypeError(f"{fn}: A is a {fmt} matrix; gpuprim takes CSR (use A.tocsr())")
        data, indices, indptr, shape = A.data, A.indices, A.indptr, A.shape
    try:
        rows, cols = shape
    except (TypeError, ValueError):
        raise ValueError(f"{fn}: the matrix shape must be (rows, cols) (got {shape!r})") from None
    if not isinstance(rows, numbers.Integral) or not isinstance(cols, numbers.Integral):
        raise TypeError(f"{fn}: the matrix shape must be two integers (got {shape!r})")
    return data, indices, indptr, int(rows), int(cols)


# A matrix object keeps its structure check in this attribute: (data,
# indices, indptr, shape, stats), the arrays by identity.
_CHECKED = "_gpuprim_csr_checked"
# A (data, indices, indptr, shape) tuple has no object to keep it on: the
# last few checks, keyed by the arrays' ids, each with weak references that
# tell a reused id from the same array.
# Threads share it: the lock makes "drop the oldest, add this one" one step
# (two threads dropping the same oldest entry would raise KeyError).
_TUPLE_CHECKS = {}
_TUPLE_CHECKS_KEPT = 16
_TUPLE_CHECKS_LOCK = threading.Lock()


def _kept_tuple_check(key, arrays):
    kept = _TUPLE_CHECKS.get(key)
    if kept is not None and all(ref() is a for ref, a in zip(kept[0], arrays)):
        return kept[1]
    return None


def _keep_tuple_check(key, arrays, stats):
    try:
        refs = tuple(weakref.ref(a) for a in arrays)
    except TypeError:
        return  # arrays without weak references: checked on every call
    with _TUPLE_CHECKS_LOCK:
        if key not in _TUPLE_CHECKS and len(_TUPLE_CHECKS) >= _TUPLE_CHECKS_KEPT:
            del _TUPLE_CHECKS[next(iter(_TUPLE_CHECKS))]
        _TUPLE_CHECKS[key] = (refs, stats)


def _checked_csr(fn, A, stream):
    """(data, indices, indptr, rows, cols, stats) of a CSR matrix argument whose
    structure has been checked (now, or by an earlier call on the same arrays)."""
    data, indices, indptr, rows, cols = _csr_parts(fn, A)
    arrays = (data, indices, indptr)
    if isinstance(A, tuple):
        key = (id(data), id(indices), id(indptr), rows, cols)
        stats = _kept_tuple_check(key, arrays)
        if stats is None:
            stats = _core._csr_check(fn, data, indices, indptr, rows, cols, stream)
            _keep_tuple_check(key, arrays, stats)
        return data, indices, indptr, rows, cols, stats
    kept = getattr(A, _CHECKED, None)
    if (
        kept is not None
        and kept[0] is data
        and kept[1] is indices
        and kept[2] is indptr
        and kept[3] == (rows, cols)
    ):
        return data, indices, indptr, rows, cols, kept[4]
    stats = _core._csr_check(fn, data, indices, indptr, rows, cols, stream)
    try:
        setattr(A, _CHECKED, (data, indices, indptr, (rows, cols), stats))
    except (AttributeError, TypeError):
        pass  # an object that takes no attribute: checked on every call
    return data, indices, indptr, rows, cols, stats


def spmv(A, x, *, stream=None):
    """y = A @ x for a CSR matrix A (see the module's help), of x's kind and A's dtype."""
    data, indices, indptr, rows, cols, stats = _checked_csr("spmv", A, stream)
    return _core._spmv(data, indices, indptr, rows, cols, stats, x, stream)


from . import linalg  # noqa: E402
