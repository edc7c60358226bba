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

``A`` is a CSR matrix as ``gpuprim.sparse.spmv`` takes it, a dense 2-D
array or a ``scipy.sparse.linalg.LinearOperator``; ``M`` is None,
``'jacobi'`` (the diagonal preconditioner), a matrix or a LinearOperator;
``b`` and ``x0`` are vectors on A's device (1-D or n x 1; ``x0='Mb'`` starts
from M b); ``x`` is 1-D, of b's kind. Dtypes as SciPy's: the system is
solved in A's and b's promoted dtype (integer b as float64), A's values, b
and x0 converted to it (a copy where they differ). Defaults are SciPy's:
``rtol=1e-5``, ``atol=0``, ``maxiter=10 * n``, ``M=None``, ``callback=None``
(called as ``callback(xk)`` after each iteration).

Two paths. A CSR ``A``, or a dense real C-contiguous NumPy / CuPy one, with
``M`` None or 'jacobi' and no callback runs on the library's solvers (both
backends, every iteration in C++ or on the device); anything else runs the
operator path (``_operator_solve.py``):
SciPy's loop in Python over ``matvec`` calls on NumPy or CuPy vectors, a
CSR ``A`` multiplied by ``gpuprim.sparse.spmv``, so LinearOperators see the
input's kind of array; ``stream=`` is refused there.

Differences from SciPy on the library path: where the recurrence's
residual meets the tolerance, CG and BiCGStab confirm it with ``b - A x``
and go on from x when it falls short (SciPy trusts the recurrence); an
exactly zero residual meets ``rtol=atol=0`` (SciPy would divide 0 by 0).
Complex systems run the operator path (the matrix's own product).
"""

import numbers

import numpy as np

from .. import _core
from . import _checked_csr, spmv
from ._operator_solve import is_operator_case, library_dense, solve_with_operators

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


def _system_dtype(data, b):
    """SciPy's dtype for A's values and b (NumPy and CuPy arrays; None for
    others, which must match A as they are)."""
    try:
        a_type, b_type = np.dtype(data.dtype), np.dtype(b.dtype)
    except (TypeError, AttributeError):
        return None
    if b_type.kind in "biu":
        b_type = np.dtype(np.float64)
    t = np.result_type(a_type, b_type)
    return t if t.kind == "f" and t.itemsize >= 4 else None


def _upcast(v, dtype):
    """v as the system's dtype (a converted copy where it differs)."""
    if not hasattr(v, "astype") or np.dtype(v.dtype) == dtype:
        return v
    return v.astype(dtype)


def _solve(method, A, b, x0, rtol, atol, maxiter, M, omega, callback, stream):
    rtol = _tolerance(method, "rtol", rtol)
    atol = _tolerance(method, "atol", atol)
    if is_operator_case(A, b, M, x0, callback):
        if stream is not None:
            raise ValueError(
                f"{method}: stream= is for CSR solves by the library; the operator path "
                "(LinearOperator, dense A or M, callback, x0='Mb') runs on the arrays' "
                "current stream"
            )
        limit = None if maxiter is None else _iteration_limit(method, maxiter, 0)
        return solve_with_operators(
            method, A, b, x0, rtol, atol, limit, M, omega, callback, spmv
        )
    dense = library_dense(A)
    if dense:
        data, rows = A, A.shape[0]
    else:
        data, indices, indptr, rows, cols, stats = _checked_csr(method, A, stream)
    # Mixed dtypes as SciPy's make_system: the system's dtype is A's and b's
    # promoted (integer b as float64); A's values, b and x0 are converted.
    dtype = _system_dtype(data, b)
    if dtype is not None:
        data, b = _upcast(data, dtype), _upcast(b, dtype)
        x0 = None if x0 is None else _upcast(x0, dtype)
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
    limit = _iteration_limit(method, maxiter, rows)
    if dense:
        solved = _core._solve_dense(
            method, data, b, x0, rtol, atol, limit, jacobi_m, float(omega), stream
        )
    else:
        solved = _core._solve(
            method, data, indices, indptr, rows, cols, stats, b, x0, rtol, atol, limit,
            jacobi_m, float(omega), stream,
        )
    x, status, iterations, residual, half_step, cause, _message = solved
    if status == "diverged" and iterations < limit:
        # A NaN or inf residual: SciPy iterates on to maxiter, and its x is NaN.
        x[...] = float("nan")
    return x, _scipy_info(method, limit, status, iterations, half_step, cause)


def cg(A, b, x0=None, *, rtol=1e-5, atol=0.0, maxiter=None, M=None, callback=None, stream=None):
    """Conjugate gradients, as scipy.sparse.linalg.cg: returns (x, info)."""
    return _solve("cg", A, b, x0, rtol, atol, maxiter, M, 1.0, callback, stream)


def bicgstab(
    A, b, x0=None, *, rtol=1e-5, atol=0.0, maxiter=None, M=None, callback=None, stream=None
):
    """BiCGStab, as scipy.sparse.linalg.bicgstab: returns (x, info)."""
    return _solve("bicgstab", A, b, x0, rtol, atol, maxiter, M, 1.0, callback, stream)


def jacobi(
    A, b, x0=None, *, rtol=1e-5, atol=0.0, maxiter=None, omega=1.0, callback=None, stream=None
):
    """The (weighted) Jacobi iteration x += omega D^-1 (b - A x): returns (x, info)."""
    return _solve("jacobi", A, b, x0, rtol, atol, maxiter, None, omega, callback, stream)


def richardson(
    A,
    b,
    x0=None,
    *,
    rtol=1e-5,
    atol=0.0,
    maxiter=None,
    M=None,
    omega=1.0,
    callback=None,
    stream=None,
):
    """Richardson's iteration x += omega M (b - A x) (M = I, D^-1 with M='jacobi', or a
    matrix / LinearOperator): returns (x, info)."""
    return _solve("richardson", A, b, x0, rtol, atol, maxiter, M, omega, callback, stream)
