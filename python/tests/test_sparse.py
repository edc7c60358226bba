"""gpuprim.sparse against SciPy: spmv and the solvers' (x, info); bad input."""

import numpy as np
import pytest

sp = pytest.importorskip("scipy.sparse")
spl = pytest.importorskip("scipy.sparse.linalg")

import gpuprim as gp  # noqa: E402


def poisson_2d(m, dtype=np.float64, index=np.int32):
    """The 5-point Laplacian of an m x m grid (SPD), as a SciPy CSR matrix."""
    t = sp.diags([-1.0, 2.0, -1.0], [-1, 0, 1], shape=(m, m))
    A = (sp.kron(sp.identity(m), t) + sp.kron(t, sp.identity(m))).tocsr().astype(dtype)
    A.indices = A.indices.astype(index)
    A.indptr = A.indptr.astype(index)
    return A


def random_csr(rows, cols, density, dtype, seed, index=np.int32):
    A = sp.random(rows, cols, density=density, format="csr", dtype=dtype, random_state=seed)
    A.indices = A.indices.astype(index)
    A.indptr = A.indptr.astype(index)
    return A


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("index", [np.int32, np.int64])
@pytest.mark.parametrize("shape", [(0, 0), (1, 1), (5, 7), (100, 60), (1000, 1000)])
def test_spmv(shape, dtype, index):
    A = random_csr(*shape, 0.1, dtype, seed=shape[0], index=index)
    x = np.random.default_rng(0).standard_normal(shape[1]).astype(dtype)
    before = (A.data.copy(), A.indices.copy(), A.indptr.copy(), x.copy())
    want = A @ x
    for form in (A, sp.csr_array(A), (A.data, A.indices, A.indptr, A.shape)):
        got = gp.sparse.spmv(form, x)
        assert isinstance(got, np.ndarray) and got.dtype == dtype and got.shape == want.shape
        tol = 1e-5 if dtype == np.float32 else 1e-12
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol * max(1, np.abs(want).max(initial=0)))
    for a, b in zip(before, (A.data, A.indices, A.indptr, x)):
        np.testing.assert_array_equal(a, b)


def test_spmv_repeated_and_unsorted_columns():
    data = np.array([1.0, 2.0, 3.0, 4.0])
    indices = np.array([2, 0, 2, 1], np.int32)
    indptr = np.array([0, 3, 4], np.int32)
    A = sp.csr_matrix((data, indices, indptr), shape=(2, 3))
    x = np.array([1.0, 10.0, 100.0])
    np.testing.assert_allclose(gp.sparse.spmv((data, indices, indptr, (2, 3)), x), A @ x)


SOLVERS = ["cg", "bicgstab"]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name", SOLVERS)
def test_solvers_match_scipy(name, dtype):
    A = poisson_2d(12, dtype)
    n = A.shape[0]
    b = np.random.default_rng(1).standard_normal(n).astype(dtype)
    Mj = sp.diags(1.0 / A.diagonal())
    x0 = np.full(n, 0.5, dtype)
    rtol = 1e-4 if dtype == np.float32 else 1e-8
    for kwargs, scipy_kwargs in [
        ({}, {}),
        ({"rtol": rtol}, {"rtol": rtol}),
        ({"rtol": 0.0, "atol": 1e-3}, {"rtol": 0.0, "atol": 1e-3}),
        ({"M": "jacobi", "rtol": rtol}, {"M": Mj, "rtol": rtol}),
        ({"x0": x0, "rtol": rtol}, {"x0": x0, "rtol": rtol}),
        ({"maxiter": 3}, {"maxiter": 3}),
    ]:
        x, info = getattr(gp.sparse.linalg, name)(A, b, **kwargs)
        xs, info_s = getattr(spl, name)(A, b, **scipy_kwargs)
        assert isinstance(x, np.ndarray) and x.dtype == xs.dtype == dtype and x.shape == (n,)
        assert info == info_s, (kwargs, info, info_s)
        if info == 0:
            bound = max(kwargs.get("rtol", 1e-5) * np.linalg.norm(b), kwargs.get("atol", 0.0))
            r = np.linalg.norm(b.astype(np.float64) - A.astype(np.float64) @ x.astype(np.float64))
            assert r <= bound * (1.01 if dtype == np.float64 else 1.5)
        else:
            # Same iterations from the same start: the same iterate, up to rounding.
            tol = 1e-3 if dtype == np.float32 else 1e-9
            np.testing.assert_allclose(x, xs, rtol=tol, atol=tol * np.abs(xs).max())
    assert x0[0] == 0.5  # x0 untouched


@pytest.mark.parametrize("name", ["jacobi", "richardson"])
def test_stationary_iterations(name):
    A = poisson_2d(6) + 4 * sp.identity(36, format="csr")  # diagonally dominant
    A = A.tocsr()
    b = np.random.default_rng(2).standard_normal(36)
    kwargs = {"omega": 0.1} if name == "richardson" else {}
    x, info = getattr(gp.sparse.linalg, name)(A, b, rtol=1e-10, **kwargs)
    assert info == 0
    assert np.linalg.norm(b - A @ x) <= 1e-10 * np.linalg.norm(b) * 1.01
    # Not converged: info is the number of iterations (maxiter), x the last iterate.
    x, info = getattr(gp.sparse.linalg, name)(A, b, rtol=1e-10, maxiter=4, **kwargs)
    assert info == 4
    # Jacobi with M='jacobi' for Richardson with omega 1 is the Jacobi iteration.
    if name == "richardson":
        xj, _ = gp.sparse.linalg.jacobi(A, b, maxiter=4)
        xr, _ = gp.sparse.linalg.richardson(A, b, maxiter=4, M="jacobi")
        np.testing.assert_allclose(xr, xj, rtol=1e-12)


def test_zero_rhs_and_default_maxiter():
    A = poisson_2d(4)
    x, info = gp.sparse.linalg.cg(A, np.zeros(16))
    assert info == 0 and not x.any()
    # Slow Richardson steps cannot reach rtol=1e-12 in the default 10 n iterations:
    # info is 10 n, as SciPy's default maxiter.
    x, info = gp.sparse.linalg.richardson(A, np.ones(16), rtol=1e-12, omega=1e-3)
    assert info == 160


def test_column_vector_rhs():
    A = poisson_2d(5)
    b = np.random.default_rng(4).standard_normal((25, 1))
    x, info = gp.sparse.linalg.cg(A, b, rtol=1e-10)
    xs, info_s = spl.cg(A, b, rtol=1e-10)
    assert info == info_s == 0 and x.shape == xs.shape == (25,)
    np.testing.assert_allclose(x, xs, rtol=1e-8, atol=1e-10)


def test_diverged_runs_to_maxiter():
    # Richardson with omega = 1 on the Poisson matrix (eigenvalues up to ~8)
    # grows the residual about 7x per step; as SciPy, there is no growth
    # stop: info is maxiter, and once the residual overflows x is NaN.
    A = poisson_2d(4)
    x, info = gp.sparse.linalg.richardson(A, np.ones(16), omega=1.0, maxiter=1000)
    assert info == 1000
    assert np.all(np.isnan(x))
    x, info = gp.sparse.linalg.richardson(A, np.ones(16), omega=1.0, maxiter=50)
    assert info == 50
    assert np.all(np.isfinite(x)) and np.abs(x).max() > 1e8


def test_breakdowns():
    # A = [[0, 1], [1, 0]], b = e0: CG's first p.Ap = 0; SciPy's cg has no
    # breakdown info (it goes on with NaN): info maxiter, x the last iterate.
    A = sp.csr_matrix(np.array([[0.0, 1.0], [1.0, 0.0]]))
    b = np.array([1.0, 0.0])
    x, info = gp.sparse.linalg.cg(A, b)
    assert info == 20
    assert np.all(np.isfinite(x))
    # BiCGStab: rhat.A p = 0, SciPy's -11.
    x, info = gp.sparse.linalg.bicgstab(A, b)
    xs, info_s = spl.bicgstab(A, b)
    assert info == info_s == -11
    np.testing.assert_array_equal(x, xs)


def _tridiagonal():
    return sp.csr_matrix(np.array([[4.0, 1, 0], [1, 4, 1], [0, 1, 4]]))


@pytest.mark.parametrize("name", ["cg", "bicgstab"])
@pytest.mark.parametrize("where", ["b nan", "b inf", "x0 nan", "A nan", "A inf"])
def test_non_finite_data_as_scipy(name, where):
    """NaN or inf in b, x0 or A.data: SciPy's (all-NaN x, maxiter), never info 0."""
    A, b, x0 = _tridiagonal(), np.array([1.0, 2.0, 3.0]), None
    bad = np.nan if "nan" in where else np.inf
    if where.startswith("b"):
        b = np.array([1.0, bad, 1.0])
    elif where.startswith("x0"):
        x0 = np.array([bad, 0.0, 0.0])
    else:
        A = A.copy()
        A.data[0] = bad
    with np.errstate(all="ignore"):
        xs, info_s = getattr(spl, name)(A, b, x0=x0)
    x, info = getattr(gp.sparse.linalg, name)(A, b, x0=x0)
    assert info == info_s == 30
    np.testing.assert_array_equal(x, xs)  # all NaN
    if x0 is not None:
        assert np.isnan(x0[0]) or np.isinf(x0[0])  # x0 untouched


@pytest.mark.parametrize("name", ["jacobi", "richardson"])
def test_non_finite_data_stationary(name):
    A = _tridiagonal()
    x, info = getattr(gp.sparse.linalg, name)(A, np.array([1.0, np.nan, 1.0]), omega=0.2)
    assert info == 30 and np.all(np.isnan(x))
    B = A.copy()
    B.data[1] = np.inf  # off the diagonal
    x, info = getattr(gp.sparse.linalg, name)(B, np.ones(3), omega=0.2)
    assert info == 30 and np.all(np.isnan(x))
    B.data[1] = np.nan
    x, info = getattr(gp.sparse.linalg, name)(B, np.ones(3), omega=0.2)
    assert info == 30 and np.all(np.isnan(x))
    x, info = getattr(gp.sparse.linalg, name)(A, np.array([1.0, np.inf, 1.0]), omega=0.2)
    assert info == 30 and np.all(np.isnan(x))
    for bad in (np.nan, np.inf):
        x0 = np.array([bad, 0.0, 0.0])
        x, info = getattr(gp.sparse.linalg, name)(A, np.ones(3), x0=x0, omega=0.2)
        assert info == 30 and np.all(np.isnan(x))
        assert x0[0] != 0  # x0 untouched


@pytest.mark.parametrize("bad", [np.nan, np.inf])
def test_jacobi_refuses_a_non_finite_diagonal(bad):
    """Jacobi divides by the diagonal: a NaN or inf there is refused by name."""
    A = _tridiagonal()
    A.data[0] = bad
    word = "nan" if np.isnan(bad) else "inf"
    with pytest.raises(ValueError, match=f"diagonal entry of row 0 is {word}"):
        gp.sparse.linalg.jacobi(A, np.ones(3), omega=0.2)


def test_cg_indefinite_as_scipy():
    """SciPy's rand-diag case: CG goes on through p.Ap < 0 and converges."""
    d = np.array([6, -5, 2, 7, -1, 10, 4, -3, -8, 9], dtype=float)
    A = sp.diags(d).tocsr()
    b = np.arange(10.0)
    for rtol in (1e-5, 1e-8):
        x, info = gp.sparse.linalg.cg(A, b, rtol=rtol)
        xs, info_s = spl.cg(A, b, rtol=rtol)
        assert info == info_s == 0
        assert np.linalg.norm(A @ x - b) <= rtol * np.linalg.norm(b)
        np.testing.assert_allclose(x, xs, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("name", SOLVERS)
def test_maxiter_zero_returns_x0(name):
    A = _tridiagonal()
    b = np.array([1.0, 2.0, 3.0])
    x0 = np.array([1.0, 1.0, 1.0])
    x, info = getattr(gp.sparse.linalg, name)(A, b, x0=x0, maxiter=0)
    assert info == 0
    np.testing.assert_array_equal(x, x0)
    assert x is not x0
    x, info = getattr(gp.sparse.linalg, name)(A, np.array([1.0, np.nan, 1.0]), maxiter=0)
    assert info == 0
    np.testing.assert_array_equal(x, np.zeros(3))
    if name in ("cg", "bicgstab"):
        xs, info_s = getattr(spl, name)(A, b, x0=x0, maxiter=0)
        assert info_s == 0
        np.testing.assert_array_equal(xs, x0)


@pytest.mark.parametrize("name", ["cg", "bicgstab"])
def test_last_iteration_rule_as_scipy(name):
    """info = maxiter when the residual first meets the tolerance after the last
    allowed iteration (SciPy tests before each one); BiCGStab's half step counts."""
    A = _tridiagonal()
    b = np.array([1.0, 2.0, 3.0])
    for maxiter in range(1, 6):
        x, info = getattr(gp.sparse.linalg, name)(A, b, maxiter=maxiter, rtol=1e-10)
        xs, info_s = getattr(spl, name)(A, b, maxiter=maxiter, rtol=1e-10)
        assert info == info_s, (maxiter, info, info_s)
        np.testing.assert_allclose(x, xs, rtol=1e-9, atol=1e-12)


def test_structure_check_cached_on_the_matrix():
    A = poisson_2d(4)
    b = np.ones(16)
    y = gp.sparse.spmv(A, b)
    np.testing.assert_allclose(y, A @ b)
    kept = A._gpuprim_csr_checked
    lengths = np.diff(A.indptr)
    assert kept[1] is A.indices and kept[4].nnz == A.nnz
    assert kept[4].max_row == lengths.max() and kept[4].empty_rows == 0
    gp.sparse.linalg.cg(A, b)
    assert A._gpuprim_csr_checked is kept  # not checked again
    # New arrays are checked again.
    bad = A.indices.copy()
    bad[20] = 99
    A.indices = bad
    row = int(np.searchsorted(A.indptr, 20, side="right")) - 1
    with pytest.raises(ValueError, match=f"row {row}: column index 99 is outside"):
        gp.sparse.spmv(A, b)


def test_bad_input():
    A = poisson_2d(4)
    b = np.ones(16)
    with pytest.raises(ValueError):  # non-square
        gp.sparse.linalg.cg(random_csr(4, 5, 0.5, np.float64, 0), np.ones(4))
    with pytest.raises(ValueError):  # size mismatch
        gp.sparse.linalg.cg(A, np.ones(15))
    with pytest.raises(ValueError):
        gp.sparse.spmv(A, np.ones(15))
    with pytest.raises(ValueError):  # 2-D x (SciPy's A @ x would be 2-D)
        gp.sparse.spmv(A, np.ones((16, 1)))
    with pytest.raises(ValueError):
        gp.sparse.linalg.cg(A, b, x0=np.ones(3))
    with pytest.raises(TypeError):  # dtype mismatch
        gp.sparse.spmv(A, np.ones(16, np.float32))
    with pytest.raises(TypeError):  # integer matrix
        gp.sparse.spmv(A.astype(np.int64), np.ones(16, np.int64))
    with pytest.raises(TypeError):  # object vector
        gp.sparse.spmv(A, np.array([object()] * 16))
    with pytest.raises(TypeError):  # not CSR
        gp.sparse.spmv(A.tocoo(), b)
    with pytest.raises(TypeError):
        gp.sparse.spmv(A.toarray(), b)
    with pytest.raises(TypeError):
        gp.sparse.spmv((A.data, A.indices, A.indptr), b)
    with pytest.raises(TypeError):  # indices and indptr of different types
        gp.sparse.spmv((A.data, A.indices, A.indptr.astype(np.int64), A.shape), b)
    with pytest.raises(ValueError):  # indptr of the wrong length
        gp.sparse.spmv((A.data, A.indices, A.indptr[:-1], A.shape), b)
    bad = A.indices.copy()
    bad[5] = 99
    with pytest.raises(ValueError, match="column index"):
        gp.sparse.spmv((A.data, bad, A.indptr, A.shape), b)
    bad = A.indptr.copy()
    bad[3], bad[4] = bad[4], bad[3]
    with pytest.raises(ValueError):
        gp.sparse.linalg.cg((A.data, A.indices, bad, A.shape), b)
    with pytest.raises(ValueError):
        gp.sparse.linalg.cg(A, b, M="ilu")
    with pytest.raises(TypeError):
        gp.sparse.linalg.cg(A, b, M=sp.identity(16))
    with pytest.raises(ValueError):
        gp.sparse.linalg.cg(A, b, rtol=-1.0)
    with pytest.raises(ValueError):
        gp.sparse.linalg.cg(A, b, maxiter=-1)
    with pytest.raises(TypeError):
        gp.sparse.linalg.cg(A, b, maxiter=2.5)
    for atol in ("legacy", None, -1):  # SciPy's test_invalid_atol
        with pytest.raises(ValueError):
            gp.sparse.linalg.cg(A, b, atol=atol)
    with pytest.raises(ValueError):  # zero diagonal
        gp.sparse.linalg.jacobi(sp.csr_matrix(np.array([[0.0, 1.0], [1.0, 1.0]])), np.ones(2))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_gpu(dtype):
    """cupyx CSR matrices: spmv and cg against SciPy, CuPy results, zero-copy, a stream."""
    from conftest import _framework

    xp = _framework("cupy")
    cupy = xp.module
    import cupyx.scipy.sparse as csp

    A = poisson_2d(40, dtype)
    dA = csp.csr_matrix(A)
    n = A.shape[0]
    b = np.random.default_rng(3).standard_normal(n).astype(dtype)
    db = cupy.asarray(b)
    y = gp.sparse.spmv(dA, db)
    assert isinstance(y, cupy.ndarray) and y.dtype == dtype
    np.testing.assert_allclose(cupy.asnumpy(y), A @ b, rtol=1e-5, atol=1e-5)
    y = gp.sparse.spmv((dA.data, dA.indices, dA.indptr, dA.shape), db, stream=xp.new_stream())
    cupy.cuda.runtime.deviceSynchronize()
    np.testing.assert_allclose(cupy.asnumpy(y), A @ b, rtol=1e-5, atol=1e-5)
    for name in SOLVERS:
        for M in (None, "jacobi"):
            x, info = getattr(gp.sparse.linalg, name)(dA, db, rtol=1e-4, M=M)
            assert isinstance(x, cupy.ndarray) and x.dtype == dtype
            assert info == 0
            r = np.linalg.norm(b - A @ cupy.asnumpy(x))
            assert r <= 1e-4 * np.linalg.norm(b) * 1.5
        x, info = getattr(gp.sparse.linalg, name)(dA, db, maxiter=2)
        assert info == 2
    with pytest.raises(ValueError):  # host vector, device matrix
        gp.sparse.spmv(dA, b)
    bad = dA.indptr.copy()
    bad[3] = bad[4] + 1
    with pytest.raises(ValueError):
        gp.sparse.spmv((dA.data, dA.indices, bad, dA.shape), db)
    badi = dA.indices.copy()
    badi[7] = n + 5
    with pytest.raises(ValueError, match="column index"):
        gp.sparse.linalg.cg((dA.data, badi, dA.indptr, dA.shape), db)
    with pytest.raises(ValueError, match="column index"):  # spmv checks them too now
        gp.sparse.spmv((dA.data, badi, dA.indptr, dA.shape), db)
    # The check is kept on the cupyx matrix.
    assert dA._gpuprim_csr_checked[4].nnz == A.nnz
    # SciPy's rules on the device: NaN in b, maxiter=0, a dense CuPy A.
    nan_b = db.copy()
    nan_b[3] = float("nan")
    x, info = gp.sparse.linalg.cg(dA, nan_b)
    assert info == 10 * n and bool(cupy.isnan(x).all())
    x, info = gp.sparse.linalg.bicgstab(dA, db, x0=db, maxiter=0)
    assert info == 0 and bool((x == db).all())
    dense = cupy.asarray(A.toarray())
    x, info = gp.sparse.linalg.cg(dense, db, rtol=1e-4)
    assert isinstance(x, cupy.ndarray) and info == 0
    x, info = gp.sparse.linalg.cg(dA, db, rtol=1e-4, callback=lambda xk: None)
    assert isinstance(x, cupy.ndarray) and info == 0


def test_mixed_dtypes_upcast_as_scipy():
    """float32 A with float64 b: solved in float64, as SciPy's make_system."""
    A = poisson_2d(6, np.float32)
    b = np.arange(36, dtype=np.float64)
    for name in SOLVERS[:2]:
        x, info = getattr(gp.sparse.linalg, name)(A, b, rtol=1e-10)
        xs, info_s = getattr(spl, name)(A, b, rtol=1e-10)
        assert x.dtype == xs.dtype == np.float64 and info == info_s == 0
        np.testing.assert_allclose(x, xs, rtol=1e-8)
    x, info = gp.sparse.linalg.cg(A, np.arange(36))  # integer b: float64
    assert x.dtype == np.float64 and info == 0
    assert A.dtype == np.float32  # A untouched


@pytest.mark.parametrize("name", ["cg", "bicgstab"])
def test_operator_path_as_scipy(name):
    """Dense A, LinearOperator A and M, callback=, x0='Mb': SciPy's iteration."""
    rng = np.random.default_rng(7)
    D = rng.random((9, 9))
    D = D @ D.T + 9 * np.eye(9)
    b = rng.random(9)
    ours, theirs = getattr(gp.sparse.linalg, name), getattr(spl, name)
    # The library's dense solvers (x near SciPy's: dot products in double).
    for kwargs in [{}, {"maxiter": 2}, {"M": "jacobi"}]:
        x, info = ours(D, b, rtol=1e-10, **kwargs)
        if kwargs.get("M") == "jacobi":
            kwargs = {"M": np.diag(1 / np.diag(D))}
        xs, info_s = theirs(D, b, rtol=1e-10, **kwargs)
        assert info == info_s, kwargs
        np.testing.assert_allclose(x, xs, rtol=1e-9, atol=1e-12)
    # The operator path: SciPy's loop, the same numbers.
    for kwargs in [
        {"x0": "Mb"},
        {"M": np.diag(1 / np.diag(D))},
        {"M": spl.LinearOperator((9, 9), matvec=lambda v: v / np.diag(D))},
    ]:
        x, info = ours(D, b, rtol=1e-10, **kwargs)
        xs, info_s = theirs(D, b, rtol=1e-10, **kwargs)
        assert info == info_s, kwargs
        np.testing.assert_allclose(x, xs, rtol=1e-12, atol=1e-14)
    x, info = ours(np.asfortranarray(D), b, rtol=1e-10)  # not C-contiguous: operator path
    xs, info_s = theirs(D, b, rtol=1e-10)
    assert info == info_s == 0
    np.testing.assert_allclose(x, xs, rtol=1e-12, atol=1e-14)
    seen, seen_s = [], []
    op = spl.LinearOperator((9, 9), matvec=lambda v: D @ v, dtype=np.float64)
    x, info = ours(op, b, rtol=1e-10, callback=lambda xk: seen.append(xk.copy()))
    xs, info_s = theirs(op, b, rtol=1e-10, callback=lambda xk: seen_s.append(xk.copy()))
    assert info == info_s == 0 and len(seen) == len(seen_s) > 1
    np.testing.assert_allclose(np.array(seen), np.array(seen_s), rtol=1e-12, atol=1e-14)
    # A CSR matrix with a callback: the product by gpuprim.sparse.spmv.
    A = poisson_2d(5)
    calls = []
    x, info = ours(A, np.ones(25), maxiter=1, callback=calls.append)
    assert info == 1 and len(calls) == 1
    with pytest.raises(ValueError):
        ours(op, b, stream=object())
    # Complex systems: the operator path, SciPy's vdot.
    C = D + 1j * np.diag(np.arange(9.0))
    x, info = ours(C, b.astype(complex), rtol=1e-10)
    xs, info_s = theirs(C, b.astype(complex), rtol=1e-10)
    assert info == info_s and x.dtype == xs.dtype == np.complex128
    np.testing.assert_allclose(x, xs, rtol=1e-12, atol=1e-14)
