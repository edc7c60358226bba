"""Iterative solvers of A x = b with SciPy's ``scipy.sparse.linalg`` interface.

``cg`` (symmetric positive definite A) and ``bicgstab`` (general A) as
SciPy's, and ``jacobi`` / ``richardson`` (not in SciPy) with the same
arguments. Each returns ``(x, info)``: info 0 when ||b - A x|| <=
max(rtol * ||b||, atol); -10 for a breakdown (a division by zero in CG or
BiCGStab; SciPy's BiCGStab says -10 or -11); otherwise the number of
iterations run, positive: maxiter, as SciPy, or fewer when the residual
diverged (became non-finite or 1e8 times the initial one: gpuprim stops
there with x the last iterate, where SciPy runs on to maxiter and returns
maxiter). ``A`` is a CSR matrix as ``gpuprim.sparse.spmv``
takes it; ``b`` and ``x0`` are vectors of A's dtype on A's device; ``x`` is
of b's kind. Defaults are SciPy's: ``rtol=1e-5``, ``atol=0``, ``maxiter=10
* n``, ``M=None``; ``M='jacobi'`` is the diagonal preconditioner (the only
other M).

Differences from SciPy: the test is on the residual the solver keeps
(CG / BiCGStab then confirm it with ||b - A x|| of the returned x: when
that does not meet the tolerance, info is the iteration count), with
``<=`` where SciPy's cg uses ``<``; ``maxiter`` must be at least 1; ``M``
takes None or 'jacobi' only; no ``callback``.
"""

import numbers

from .. import _core
from . import _csr_parts

__all__ = ["cg", "bicgstab", "jacobi", "richardson"]

BREAKDOWN = -10  # the info of a breakdown (set by the extension)


def _solve(method, A, b, x0, rtol, atol, maxiter, M, omega, stream):
    data, indices, indptr, rows, cols = _csr_parts(method, A)
    if M is None:
        jacobi_m = False
    elif isinstance(M, str) and M == "jacobi":
        jacobi_m = True
    elif isinstance(M, str):
        raise ValueError(f"{method}: M={M!r}; gpuprim takes M=None or M='jacobi'")
    else:
        raise TypeError(
            f"{method}: M is a {type(M).__name__}; gpuprim takes M=None or M='jacobi' "
            "(the diagonal preconditioner)"
        )
    if maxiter is None:
        maxiter = 10 * rows
        if maxiter == 0:
            maxiter = 1
    elif not isinstance(maxiter, numbers.Integral):
        raise TypeError(f"{method}: maxiter must be an integer (got {maxiter!r})")
    x, info, _status, _iterations, _residual, _message = _core._solve(
        method,
        data,
        indices,
        indptr,
        rows,
        cols,
        b,
        x0,
        float(rtol),
        float(atol),
        int(maxiter),
        jacobi_m,
        float(omega),
        stream,
    )
    return x, int(info)


def cg(A, b, x0=None, *, rtol=1e-5, atol=0.0, maxiter=None, M=None, stream=None):
    """Conjugate gradients, as scipy.sparse.linalg.cg: returns (x, info)."""
    return _solve("cg", A, b, x0, rtol, atol, maxiter, M, 1.0, stream)


def bicgstab(A, b, x0=None, *, rtol=1e-5, atol=0.0, maxiter=None, M=None, stream=None):
    """BiCGStab, as scipy.sparse.linalg.bicgstab: returns (x, info)."""
    return _solve("bicgstab", A, b, x0, rtol, atol, maxiter, M, 1.0, stream)


def jacobi(A, b, x0=None, *, rtol=1e-5, atol=0.0, maxiter=None, omega=1.0, stream=None):
    """The (weighted) Jacobi iteration x += omega D^-1 (b - A x): returns (x, info)."""
    return _solve("jacobi", A, b, x0, rtol, atol, maxiter, None, omega, stream)


def richardson(
    A, b, x0=None, *, rtol=1e-5, atol=0.0, maxiter=None, M=None, omega=1.0, stream=None
):
    """Richardson's iteration x += omega M (b - A x) (M = I, or D^-1 with M='jacobi'):
    returns (x, info)."""
    return _solve("richardson", A, b, x0, rtol, atol, maxiter, M, omega, stream)
