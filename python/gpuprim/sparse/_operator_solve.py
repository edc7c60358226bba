"""The solvers' operator path: SciPy's iterations as a Python loop over
``matvec`` calls, for what the library's solvers cannot take (a dense or
``LinearOperator`` ``A``, an ``M`` that is a matrix or a ``LinearOperator``,
a ``callback``). The vectors stay NumPy or CuPy arrays (the input's kind);
a real CSR ``A`` multiplies through ``gpuprim.sparse.spmv`` (a complex one,
which the library's kernels do not take, by its own ``@``). The loops follow
``scipy.sparse.linalg.cg`` / ``bicgstab`` step for step (the test before
each iteration, the breakdown thresholds, the info values), so they give
SciPy's answers; jacobi and richardson use the same test and info rules.
"""

__all__ = ["solve_with_operators", "is_operator_case", "library_dense"]


def _jacobi_psolve(fn, A, xp, dtype, who_needs, note):
    """v -> v / diag(A), after checking A has a usable diagonal (M='jacobi' and
    the Jacobi iteration share it; `who_needs` and `note` word their errors)."""
    diagonal = getattr(A, "diagonal", None)
    if not callable(diagonal):
        raise TypeError(f"{fn}: {who_needs} a matrix A with a diagonal")
    d = xp.asarray(diagonal()).astype(dtype)
    if not bool(xp.all(d != 0)) or not bool(xp.all(xp.isfinite(d))):
        raise ValueError(f"{fn}: A has a zero or non-finite diagonal entry{note}")
    inverse = 1 / d
    return lambda v: inverse * v


def _array_module(v):
    """numpy or cupy, by the array's own module."""
    root = type(v).__module__.split(".")[0]
    if root == "numpy":
        import numpy

        return numpy
    if root == "cupy":
        import cupy

        return cupy
    raise TypeError(
        f"the operator path (LinearOperator, dense A, callback) takes NumPy or CuPy arrays "
        f"(got {type(v).__module__}.{type(v).__name__})"
    )


def _has_matvec(obj):
    return hasattr(obj, "matvec") and hasattr(obj, "shape")


def _times(fn, what, op, xp, spmv, dtype):
    """x -> op x for a CSR matrix (gpuprim.sparse.spmv, its values converted to
    the system's dtype once if they differ), a LinearOperator (its matvec) or a
    dense 2-D array (@)."""
    if _has_matvec(op):
        return lambda v: xp.asarray(op.matvec(v)).ravel()
    if getattr(op, "format", None) == "csr" or isinstance(op, tuple):
        if isinstance(op, tuple):
            data, indices, indptr, shape = op
        else:
            data, indices, indptr, shape = op.data, op.indices, op.indptr, op.shape
        if xp.dtype(dtype).kind == "c":
            if isinstance(op, tuple):
                raise TypeError("a complex system needs a matrix object, not a tuple")
            return lambda v: op @ v  # gpuprim's kernels are real: the matrix's own product
        if data.dtype != dtype:
            op = (data.astype(dtype), indices, indptr, shape)
        return lambda v: spmv(op, v)
    if getattr(op, "format", None) is not None:
        raise TypeError(f"{fn}: {what} is a {op.format} matrix; gpuprim takes CSR (use .tocsr())")
    if getattr(op, "ndim", None) == 2:
        return lambda v: op @ v
    raise TypeError(
        f"{fn}: {what} must be a CSR matrix, a dense 2-D array or a LinearOperator "
        f"(got {type(op).__name__})"
    )


def _shape_of(op):
    shape = op[3] if isinstance(op, tuple) else getattr(op, "shape", None)
    try:
        rows, cols = shape
        return int(rows), int(cols)
    except (TypeError, ValueError):
        raise ValueError(f"the matrix shape must be (rows, cols) (got {shape!r})") from None


def _value_type(xp, op, b):
    """SciPy's make_system: A's dtype (or that of A b), coerced with b's."""
    dtype = getattr(op, "dtype", None)
    if dtype is None and isinstance(op, tuple):
        dtype = op[0].dtype
    if dtype is None:
        dtype = xp.asarray(op.matvec(b)).dtype
    t = xp.result_type(dtype, b.dtype)
    if t.kind not in "fc" or t.itemsize < 4:
        t = xp.result_type(t, xp.float64)
    return t


def solve_with_operators(method, A, b, x0, rtol, atol, maxiter, M, omega, callback, spmv):
    """(x, info) by SciPy's iteration over A's and M's matvec."""
    fn = method
    xp = _array_module(b)
    rows, cols = _shape_of(A)
    if rows != cols:
        raise ValueError(f"{fn}: expected a square matrix, got shape {(rows, cols)}")
    n = rows
    b = xp.asarray(b)
    if b.shape not in ((n,), (n, 1)):
        raise ValueError(f"{fn}: shapes of A {(rows, cols)} and b {b.shape} are incompatible")
    if b.dtype.kind not in "fc":
        b = b.astype(xp.float64)
    dtype = _value_type(xp, A, b)
    b = b.astype(dtype, copy=False).ravel()
    matvec = _times(fn, "A", A, xp, spmv, dtype)
    if isinstance(M, str):
        if M != "jacobi":
            raise ValueError(f"{fn}: M={M!r}; gpuprim takes M=None, 'jacobi', a matrix or a "
                             "LinearOperator")
        psolve = _jacobi_psolve(fn, A, xp, dtype, "M='jacobi' needs", " (M='jacobi')")
    elif M is None:
        own = getattr(A, "psolve", None)  # SciPy takes A.psolve when M is None
        psolve = (lambda v: xp.asarray(own(v)).ravel()) if callable(own) else (lambda v: v)
    else:
        if _shape_of(M) != (n, n):
            raise ValueError(f"{fn}: A and M have different shapes")
        psolve = _times(fn, "M", M, xp, spmv, dtype)
    if method in ("jacobi",):
        psolve = _jacobi_psolve(fn, A, xp, dtype, "the Jacobi iteration needs", "")
    if x0 is None:
        x = xp.zeros(n, dtype)
    elif isinstance(x0, str):
        if x0 != "Mb":
            raise ValueError(f"{fn}: x0={x0!r}; x0 is an array, None or 'Mb'")
        x = xp.array(psolve(b.copy()), dtype=dtype).ravel()
    else:
        x = xp.array(x0, dtype=dtype)
        if x.shape not in ((n,), (n, 1)):
            raise ValueError(f"{fn}: shapes of A {(rows, cols)} and x0 {x.shape} are incompatible")
        x = x.ravel()
    b_norm = float(xp.linalg.norm(b))
    bound = max(atol, rtol * b_norm)
    if b_norm == 0:
        return b.copy(), 0
    if maxiter is None:
        maxiter = 10 * n
    loop = {"cg": _cg, "bicgstab": _bicgstab}.get(method, _stationary)
    return loop(xp, matvec, psolve, b, x, bound, maxiter, callback, dtype, float(omega))


def _met(xp, r, bound):
    return float(xp.linalg.norm(r)) < bound


def _dot(xp, dtype):
    """SciPy's dot product: vdot (conjugating) for complex systems."""
    return xp.vdot if xp.dtype(dtype).kind == "c" else xp.dot


def _cg(xp, matvec, psolve, b, x, bound, maxiter, callback, dtype, omega):
    dot = _dot(xp, dtype)
    r = b - matvec(x) if bool(x.any()) else b.copy()
    rho_prev, p = None, None
    for iteration in range(maxiter):
        if _met(xp, r, bound):
            return x, 0
        z = psolve(r)
        rho = dot(r, z)
        if iteration > 0:
            p = z + (rho / rho_prev) * p
        else:
            p = xp.array(z, dtype=dtype)
        q = matvec(p)
        alpha = rho / dot(p, q)
        x += alpha * p
        r -= alpha * q
        rho_prev = rho
        if callback is not None:
            callback(x)
    return x, maxiter


def _bicgstab(xp, matvec, psolve, b, x, bound, maxiter, callback, dtype, omega_unused):
    below = float(xp.finfo(dtype).eps) ** 2
    dot = _dot(xp, dtype)
    r = b - matvec(x) if bool(x.any()) else b.copy()
    rtilde = r.copy()
    rho_prev = omega = alpha = p = v = None
    for iteration in range(maxiter):
        if _met(xp, r, bound):
            return x, 0
        rho = dot(rtilde, r)
        if abs(complex(rho)) < below:
            return x, -10
        if iteration > 0:
            if abs(complex(omega)) < below:
                return x, -11
            p = r + (rho / rho_prev) * (alpha / omega) * (p - omega * v)
        else:
            p = r.copy()
        phat = psolve(p)
        v = matvec(phat)
        rv = dot(rtilde, v)
        if complex(rv) == 0:
            return x, -11
        alpha = rho / rv
        r = r - alpha * v
        if _met(xp, r, bound):
            x += alpha * phat
            return x, 0
        shat = psolve(r)
        t = matvec(shat)
        omega = dot(t, r) / dot(t, t)
        x += alpha * phat
        x += omega * shat
        r = r - omega * t
        rho_prev = rho
        if callback is not None:
            callback(x)
    return x, maxiter


def _stationary(xp, matvec, psolve, b, x, bound, maxiter, callback, dtype, omega):
    for _ in range(maxiter):
        r = b - matvec(x)
        if _met(xp, r, bound):
            return x, 0
        x += omega * psolve(r)
        if callback is not None:
            callback(x)
    return x, maxiter


def library_dense(A):
    """Whether A is a dense matrix the library's dense solvers take: a real
    float32/float64, C-contiguous 2-D NumPy or CuPy array."""
    if getattr(A, "ndim", None) != 2 or _has_matvec(A) or getattr(A, "format", None):
        return False
    if type(A).__module__.split(".")[0] not in ("numpy", "cupy"):
        return False
    flags = getattr(A, "flags", None)
    return (
        str(A.dtype) in ("float32", "float64")
        and flags is not None
        and bool(flags.c_contiguous)
    )


def is_operator_case(A, b, M, x0, callback):
    """Whether a call needs the operator path."""
    csr = getattr(A, "format", None) == "csr" or isinstance(A, tuple) or library_dense(A)
    m_ok = M is None or (isinstance(M, str))
    data = A[0] if isinstance(A, tuple) else getattr(A, "data", None)
    complex_system = any(
        getattr(getattr(v, "dtype", None), "kind", "") == "c" for v in (data, b)
    )
    return not csr or not m_ok or callback is not None or isinstance(x0, str) or complex_system

