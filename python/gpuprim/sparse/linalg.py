"""Iterative solvers of A x = b with SciPy's ``scipy.sparse.linalg`` interface.

``cg`` (symmetric A; SciPy's iteration, which goes on through an indefinite
matrix) and ``bicgstab`` (general A) as SciPy's, and ``jacobi`` /
``richardson`` (not in SciPy) with the same arguments and rules. Each
returns ``(x, info)`` with SciPy's info:

- ``0``: converged, ``||b - A x|| < max(rtol * ||b||, atol)`` found before
  the iteration limit (SciPy tests before each iteration, and BiCGStab at
  its half step too; a residual that first meets the tolerance after the
  last allowed iteration gives ``maxiter``, as SciPy);
- ``maxiter``: not converged within ``maxiter`` iterations; also when the
  residual became NaN or inf (NaN or inf in ``A``, ``b`` or ``x0``), where
  ``x`` is then all NaN, as SciPy's (gpuprim stops at the non-finite
  residual instead of iterating on); ``maxiter=0`` returns ``x0`` (or
  zeros) at once with info 0, as SciPy;
- ``-10`` / ``-11`` (``bicgstab``): SciPy's breakdowns, ``|rhat.r| <
  eps**2`` and ``|omega| < eps**2`` (or ``rhat.A p = 0``); ``x`` is the last
  iterate. CG has no breakdown info in SciPy: a division by zero
  (``p.A p = 0``) stops gpuprim's CG with info ``maxiter`` and x the last
  iterate (SciPy would go on with NaN).

``A`` is a CSR matrix as ``gpuprim.sparse.spmv`` takes it; ``b`` and ``x0``
are vectors of A's dtype on A's device (1-D or n x 1); ``x`` is 1-D, of
b's kind. Defaults are SciPy's: ``rtol=1e-5``, ``atol=0``, ``maxiter=10 *
n``, ``M=None``; ``M='jacobi'`` is the diagonal preconditioner (the only
other M; a zero or non-finite diagonal entry raises ValueError).

Differences from SciPy: where the recurrence's residual meets the
tolerance, CG and BiCGStab confirm it with ``b - A x`` and go on from x when
it falls short (SciPy trusts the recurrence); an exactly zero residual
meets ``rtol=atol=0`` (SciPy would divide 0 by 0); ``M`` takes None or
'jacobi' only; no ``callback``, dense or ``LinearOperator`` ``A``.
"""

import numbers

from .. import _core
from . import _checked_csr

__all__ = ["cg", "bicgstab", "jacobi", "richardson"]

# SciPy's bicgstab info for each breakdown the library reports.
_BICGSTAB_BREAKDOWN_INFO = {"rho": -10, "omega": -11}


def _scipy_info(method, maxiter, status, iterations, half_step, cause):
    """SciPy's info for how the library's solve stopped."""
    if status == "converged" and (iterations < maxiter or half_step):
        return 0
    if status == "breakdown" and method == "bicgstab":
        return _BICGSTAB_BREAKDOWN_INFO.get(cause, -11)
    return maxiter


def _iteration_limit(method, maxiter, n):
    if maxiter is None:
        return 10 * n
    if isinstance(maxiter, bool) or not isinstance(maxiter, numbers.Integral):
        raise TypeError(f"{method}: maxiter must be an integer (got {maxiter!r})")
    if maxiter < 0:
        raise ValueError(f"{method}: maxiter must be >= 0 (got {maxiter})")
    return int(maxiter)


def _tolerance(method, name, value):
    if isinstance(value, str) or value is None:
        raise ValueError(f"{method}: {name} must be a real, non-negative number (got {value!r})")
    value = float(value)
    if not value >= 0:
        raise ValueError(f"{method}: {name} must be a real, non-negative number (got {value!r})")
    return value


def _solve(method, A, b, x0, rtol, atol, maxiter, M, omega, stream):
    data, indices, indptr, rows, cols, stats = _checked_csr(method, A, stream)
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
    rtol = _tolerance(method, "rtol", rtol)
    atol = _tolerance(method, "atol", atol)
    limit = _iteration_limit(method, maxiter, rows)
    x, status, iterations, residual, half_step, cause, _message = _core._solve(
        method,
        data,
        indices,
        indptr,
        rows,
        cols,
        stats,
        b,
        x0,
        rtol,
        atol,
        limit,
        jacobi_m,
        float(omega),
        stream,
    )
    if status == "diverged" and iterations < limit:
        # A NaN or inf residual: SciPy iterates on to maxiter, and its x is NaN.
        x[...] = float("nan")
    return x, _scipy_info(method, limit, status, iterations, half_step, cause)


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
