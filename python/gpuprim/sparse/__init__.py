"""Sparse matrices: ``spmv(A, x)`` (and the solvers in ``gpuprim.sparse.linalg``).

``A`` is a CSR matrix: a SciPy ``csr_matrix`` / ``csr_array`` (CPU), a
``cupyx.scipy.sparse.csr_matrix`` (GPU), or a ``(data, indices, indptr,
shape)`` tuple of arrays of one kind. Values are float32 or float64, indices
int32 or int64; vectors must have A's dtype (gpuprim converts nothing;
SciPy would upcast mixed types). Other sparse formats raise TypeError (use
``A.tocsr()``).

The structure is checked before use: on the CPU all of it; on the GPU the
row offsets on every call and, for the solvers, the column indices too
(``spmv`` trusts a device matrix's column indices, as cupyx does).
"""

import numbers

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


def spmv(A, x, *, stream=None):
    """y = A @ x for a CSR matrix A (see the module's help), of x's kind and A's dtype."""
    data, indices, indptr, rows, cols = _csr_parts("spmv", A)
    return _core._spmv(data, indices, indptr, rows, cols, x, stream)


from . import linalg  # noqa: E402
