"""NumPy's and SciPy's vocabulary on GPU arrays (issue 46): the arguments the
peers' own tests pass (sort kind= / axis= / bool and float16 keys; cumsum
axis= on N-D; histogram string bins, density=, weights=, bool and int64
samples, edges given as a list, typed ranges; cg / bicgstab with
LinearOperators, callback=, x0='Mb', mixed dtypes), each compared with
NumPy's / SciPy's answer on the same data. Every test skips without a CUDA
device, a CUDA build of gpuprim, or the framework (CuPy-only features skip
on PyTorch)."""

import warnings

import numpy as np
import pytest

import gpuprim as gp
from conftest import random_array

KINDS = [None, "quicksort", "mergesort", "heapsort", "stable"]


def on_host(xp, got):
    assert isinstance(got, xp.array_type()), type(got)
    return xp.to_numpy(got)


def same(xp, got, want):
    np.testing.assert_array_equal(on_host(xp, got), want, strict=True)


def histograms_agree(xp, x, *args, **kwargs):
    """gpuprim.histogram of x on the device (the other array arguments given
    for the device) against numpy.histogram of x with them on the host."""

    def moved(v):
        return xp.asarray(v) if isinstance(v, np.ndarray) else v

    given = {k: moved(v) for k, v in kwargs.items()}
    counts, edges = gp.histogram(xp.asarray(x), *map(moved, args), **given)
    want_counts, want_edges = np.histogram(x, *args, **kwargs)
    same(xp, counts, want_counts)
    same(xp, edges, want_edges)


def cupy_only(xp):
    if xp.name != "cupy":
        pytest.skip("a CuPy feature (NumPy's functions dispatch to CuPy's)")
    return xp.module


@pytest.mark.parametrize("dtype", [np.bool_, np.float16, np.int16, np.float64])
@pytest.mark.parametrize("axis", [0, 1, -1, None])
def test_sort_kinds_axes_bool_and_float16(xp, dtype, axis):
    x = random_array(dtype, 0, seed=4, shape=(6, 33, 5))
    if dtype == np.float16:
        x[0, :3, 0] = [np.nan, -0.0, np.inf]
    d = xp.asarray(x)
    for kind in KINDS:
        same(xp, gp.sort(d, axis=axis, kind=kind), np.sort(x, axis=axis, kind="stable"))
        same(xp, gp.argsort(d, axis=axis, kind=kind), np.argsort(x, axis=axis, kind="stable"))
    with pytest.raises(ValueError, match="sort kind"):
        gp.sort(d, kind="bogus")


@pytest.mark.parametrize("dtype", [np.bool_, np.int32, np.uint8, np.float64])
@pytest.mark.parametrize("axis", [0, 1, 2, -2, None])
def test_cumsum_along_any_axis_of_nd(xp, dtype, axis):
    x = random_array(dtype, 0, seed=5, shape=(3, 40, 7))
    if dtype == np.float64:
        x = np.round(x)  # integer values: exact in any order of addition
    same(xp, gp.cumsum(xp.asarray(x), axis=axis), np.cumsum(x, axis=axis))


ESTIMATORS = ["auto", "fd", "doane", "scott", "stone", "rice", "sturges", "sqrt"]


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int32, np.int64])
@pytest.mark.parametrize("estimator", ESTIMATORS)
def test_histogram_string_bins(xp, dtype, estimator):
    cupy_only(xp)
    rng = np.random.default_rng(6)
    x = (rng.standard_normal(2000) * 30).astype(dtype)
    histograms_agree(xp, x, estimator)
    histograms_agree(xp, x, estimator, range=(-20, 35))


def test_histogram_estimators_on_constant_and_empty_data(xp):
    cupy_only(xp)
    for x in (np.full(50, 3.0), np.array([], np.float64), np.array([1.0, 1.0 + 1e-12, 2.0])):
        for estimator in ESTIMATORS:
            histograms_agree(xp, x, estimator)
    with pytest.raises(ValueError, match="not a valid estimator"):
        gp.histogram(xp.asarray(np.arange(3.0)), bins="bogus")


def test_histogram_density(xp):
    x = random_array(np.float64, 1000, seed=7)
    histograms_agree(xp, x, 10, density=True)
    histograms_agree(xp, x, np.array([-30.0, -1.0, 0.0, 0.5, 40.0]), density=True)


@pytest.mark.parametrize(
    "wtype", [np.float64, np.float32, np.int64, np.int32, np.uint8, np.bool_, np.complex128]
)
def test_histogram_weights(xp, wtype):
    cupy = cupy_only(xp)
    rng = np.random.default_rng(8)
    x = rng.standard_normal(3000) * 5
    x[:3] = [np.nan, -100.0, 100.0]  # left out: NaN, and outside the range
    w = rng.integers(0, 4, 3000).astype(wtype)  # integer values: exact sums
    if wtype == np.complex128:
        w = w + 1j * rng.integers(0, 3, 3000)
    d, dw = cupy.asarray(x), cupy.asarray(w)
    cases = [(7, (-10, 12)), (np.array([-12.0, -1.0, 0.0, 0.0, 3.5, 12.0]), None)]
    for bins, range_ in cases:
        given = bins if np.ndim(bins) == 0 else cupy.asarray(bins)
        if wtype == np.bool_ and np.ndim(bins):
            with pytest.raises(TypeError):  # NumPy's cumulative form refuses bool weights
                np.histogram(x, bins=bins, weights=w)
            with pytest.raises(TypeError):
                gp.histogram(d, bins=given, weights=dw)
            continue
        for density in (False, True):
            histograms_agree(xp, x, bins, range_, density, w)
    with pytest.raises(ValueError, match="same shape"):
        gp.histogram(d, weights=dw[:-1])
    with pytest.raises(ValueError, match="both on the host or both on the GPU"):
        gp.histogram(d, weights=w)


def test_histogram_bool_samples(xp):
    x = np.array([True, False, True, True] * 10)
    with pytest.warns(RuntimeWarning, match="Converting input from bool"):
        counts, edges = gp.histogram(xp.asarray(x), bins=3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        want = np.histogram(x, bins=3)
    same(xp, counts, want[0])
    same(xp, edges, want[1])


@pytest.mark.parametrize("dtype", [np.int64, np.uint64])
def test_histogram_64_bit_integer_samples(xp, dtype):
    if xp.name == "torch" and dtype == np.uint64:
        pytest.skip("PyTorch's uint64 tensors have no min / max")
    x = np.concatenate([random_array(dtype, 5000, seed=9), np.array([7, 7], dtype)])
    for bins, range_ in ((10, None), (1000, None), (6, (-3.5, 100.25)), (3, (0, 7))):
        histograms_agree(xp, x, bins, range_)
    histograms_agree(xp, np.full(9, 5, dtype), 4)  # the bins span [v - 0.5, v + 0.5]
    histograms_agree(xp, x, np.array([-50.0, 0.0, 7.0, 600.0]))
    # Extremes of the type (NumPy's test_signed_overflow_bounds): the float64
    # edges and the counts as NumPy's.
    info = np.iinfo(dtype)
    extremes = np.array([info.min + 4, info.max - 4, info.max // 3], dtype)
    histograms_agree(xp, extremes, 2)
    # What NumPy compares as integers beyond 2**53: refused by name.
    with pytest.raises(TypeError, match="beyond"):
        gp.histogram(xp.asarray(extremes), bins=2, range=(0, 2**60 + 1))
    with pytest.raises(TypeError, match="beyond"):
        gp.histogram(xp.asarray(extremes), bins=[0, 5, 2**60 + 1])
    histograms_agree(xp, extremes, [0.0, 5.0, 2.0**60])  # float edges: float64 compares


def test_histogram_edges_given_as_a_list(xp):
    # NumPy's edges (int64, as given) on the device
    histograms_agree(xp, random_array(np.float32, 500, seed=10), [-5, 0, 2, 8])


def test_histogram_typed_range_bins_in_numpys_type(xp):
    x = np.array([1.0, 1.5, 2.0], np.float32)
    eps = np.finfo(np.float64).eps
    for range_ in ((np.float64(1.0 + eps), np.float64(2.0)), (np.float32(0.5), np.float32(2.0))):
        histograms_agree(xp, x, 3, range_)
    with pytest.raises(TypeError, match="longdouble"):
        gp.histogram(xp.asarray(x), bins=1, range=(np.longdouble(0), np.longdouble(2)))


def test_histogram_float16_samples(xp):
    x = (random_array(np.float32, 300, seed=14) / 4).astype(np.float16)
    histograms_agree(xp, x, np.array([-3.0, -0.5, 0.0, 0.25, 1.0, 3.0]))
    histograms_agree(xp, x, [-1, 0, 2])
    histograms_agree(xp, x, 5, (np.float32(-2.0), np.float32(2.5)))
    with pytest.raises(TypeError, match="float16 samples on the GPU"):
        gp.histogram(xp.asarray(x), bins=4)  # NumPy's float16 arithmetic


# cg / bicgstab on CuPy: SciPy's vocabulary, compared with SciPy's answers.


def _system(n=12, seed=11):
    rng = np.random.default_rng(seed)
    A = rng.random((n, n))
    return A @ A.T + n * np.eye(n), rng.random(n)


class _CupyOperator:
    """A LinearOperator over CuPy vectors that records what it was given."""

    def __init__(self, cupy, M):
        self.cupy, self.M = cupy, cupy.asarray(M)
        self.shape, self.dtype = M.shape, M.dtype
        self.given = []

    def matvec(self, v):
        self.given.append(type(v))
        return self.M @ v


@pytest.mark.parametrize("name", ["cg", "bicgstab"])
def test_solvers_take_scipys_vocabulary_on_cupy(xp, name):
    cupy = cupy_only(xp)
    spl = pytest.importorskip("scipy.sparse.linalg")
    A, b = _system()
    M = np.diag(1 / np.diag(A))
    ours, theirs = getattr(gp.sparse.linalg, name), getattr(spl, name)
    db = cupy.asarray(b)

    def agree(got, want):
        (x, info), (xs, info_s) = got, want
        assert info == info_s
        np.testing.assert_allclose(on_host(xp, x), xs, rtol=1e-9, atol=1e-12)

    # A and M as operators whose matvec is called with CuPy vectors.
    opA, opM = _CupyOperator(cupy, A), _CupyOperator(cupy, M)
    agree(ours(opA, db, M=opM, rtol=1e-10), theirs(A, b, M=M, rtol=1e-10))
    assert set(opA.given) == set(opM.given) == {cupy.ndarray}
    # callback= gets the iterate on the device; as many calls as SciPy makes.
    seen, seen_s = [], []
    agree(
        ours(cupy.asarray(A), db, rtol=1e-10, callback=lambda xk: seen.append(type(xk))),
        theirs(A, b, rtol=1e-10, callback=lambda xk: seen_s.append(1)),
    )
    assert len(seen) == len(seen_s) and set(seen) == {cupy.ndarray}
    # x0='Mb', a dense M, and SciPy's info when the last iteration meets the tolerance.
    agree(ours(cupy.asarray(A), db, x0="Mb", M=cupy.asarray(M)), theirs(A, b, x0="Mb", M=M))
    for maxiter in (1, 2, 3):
        agree(
            ours(cupy.asarray(A), db, maxiter=maxiter, rtol=1e-3),
            theirs(A, b, maxiter=maxiter, rtol=1e-3),
        )
    # float32 A with float64 b: solved in float64, as SciPy's make_system.
    x, info = ours(cupy.asarray(A.astype(np.float32)), db, rtol=1e-8)
    xs, info_s = theirs(A.astype(np.float32), b, rtol=1e-8)
    assert x.dtype == xs.dtype == np.float64 and info == info_s
    np.testing.assert_allclose(on_host(xp, x), xs, rtol=1e-6)
