"""NumPy's argument rules (python/gpuprim/_arrays.py and the family modules):
masked arrays, axes, keywords, kinds, the exclusive scans' start, and the
errors that must say what was wrong (issue 41, sections 1 and 2)."""

import numpy as np
import pytest

import gpuprim as gp

REDUCTIONS = ["sum", "nansum", "min", "max", "nanmin", "nanmax",
              "argmin", "argmax", "nanargmin", "nanargmax"]
MASKED = np.ma.array([1, 2, 3], mask=[0, 1, 0])


@pytest.mark.parametrize("call", [
    lambda m: gp.sum(m),
    lambda m: gp.nanmax(m),
    lambda m: gp.argmin(m),
    lambda m: gp.cumsum(m),
    lambda m: gp.cummax(m),
    lambda m: gp.exclusive_scan(m),
    lambda m: gp.sort(m),
    lambda m: gp.argsort(m),
    lambda m: gp.sort_by_key(m, np.ones(3, np.int32)),
    lambda m: gp.sort_by_key(np.ones(3), m.astype(np.int32)),
    lambda m: gp.segmented_sum(m, np.array([0, 3])),
    lambda m: gp.histogram(m, bins=3),
    lambda m: gp.transpose(m),
    lambda m: gp.matmul(m.astype(np.float64).reshape(1, 3), np.ones((3, 1))),
    lambda m: gp.ndimage.uniform_filter(np.ma.array(np.ones((3, 3)), mask=np.eye(3))),
    lambda m: gp.ndimage.correlate(np.ones((3, 3)), np.ma.array(np.ones((3, 3)), mask=np.eye(3))),
])
def test_masked_arrays_are_refused(call):
    # gp.sum(np.ma.array([1, 2, 3], mask=[0, 1, 0])) returned 6 (NumPy: 4).
    with pytest.raises(TypeError, match=r"MaskedArray.*compressed\(\).*filled\("):
        call(MASKED)
    # What the message suggests works.
    assert gp.sum(MASKED.compressed()) == np.sum(MASKED) == 4
    assert gp.sum(MASKED.filled(0)) == 4


@pytest.mark.parametrize("name", REDUCTIONS)
def test_bool_axis_is_a_type_error(name):
    # gp.sum(a, axis=True) was taken as axis 1; NumPy raises TypeError.
    a = np.arange(6.0).reshape(2, 3)
    with pytest.raises(TypeError, match="axis"):
        getattr(gp, name)(a, axis=True)
    with pytest.raises(TypeError, match="axis"):
        getattr(gp, name)(a, axis=np.True_)
    with pytest.raises(TypeError):
        getattr(gp, name)(a, axis=1.0)


FUNCTIONS = REDUCTIONS + ["cumsum", "cummax", "cummin", "exclusive_scan", "sort", "argsort",
                          "transpose"]


@pytest.mark.parametrize("name", FUNCTIONS)
def test_unknown_keyword_says_so(name):
    # An unknown keyword dumped nanobind's list of signatures.
    with pytest.raises(TypeError, match="unexpected keyword argument 'bogus'"):
        getattr(gp, name)(np.arange(4.0), bogus=1)


def test_unknown_keyword_of_the_other_functions():
    x = np.arange(4.0)
    for call in (lambda: gp.matmul(np.ones((2, 2)), np.ones((2, 2)), bogus=1),
                 lambda: gp.sort_by_key(x, x, bogus=1),
                 lambda: gp.segmented_sum(x, np.array([0, 4]), bogus=1),
                 lambda: gp.segmented_cumsum(x, np.array([0, 4]), bogus=1),
                 lambda: gp.ndimage.gaussian_filter(np.ones((3, 3)), 1.0, bogus=1)):
        with pytest.raises(TypeError, match="unexpected keyword argument 'bogus'"):
            call()


@pytest.mark.parametrize("name", REDUCTIONS)
@pytest.mark.parametrize("shape", [(4, 5), (3, 4, 5), (2, 1, 3, 2)])
def test_reductions_along_any_axis(name, shape):
    a = np.random.default_rng(1).standard_normal(shape)
    for axis in range(-len(shape), len(shape)):
        np.testing.assert_allclose(getattr(gp, name)(a, axis=axis),
                                   getattr(np, name)(a, axis=axis), rtol=1e-12, atol=1e-12)
        got = getattr(gp, name)(a, axis=axis, keepdims=True)
        want = getattr(np, name)(a, axis=axis, keepdims=True)
        assert got.shape == want.shape
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)
    got = getattr(gp, name)(a, keepdims=True)
    assert got.shape == getattr(np, name)(a, keepdims=True).shape


def test_refused_numpy_arguments_name_themselves():
    with pytest.raises(TypeError, match="out="):
        gp.matmul(np.ones((2, 2)), np.ones((2, 2)), out=np.empty((2, 2)))


@pytest.mark.parametrize("name", REDUCTIONS)
def test_reductions_out(name):
    a = np.random.default_rng(4).standard_normal((3, 4))
    want = getattr(np, name)(a, axis=1)
    out = np.empty_like(want)
    assert getattr(gp, name)(a, axis=1, out=out) is out
    np.testing.assert_allclose(out, want, rtol=1e-12)
    out = np.empty((1, 4), want.dtype)
    assert getattr(gp, name)(a, axis=0, out=out, keepdims=True) is out
    np.testing.assert_allclose(out, getattr(np, name)(a, axis=0, keepdims=True), rtol=1e-12)
    out = np.empty((), want.dtype)
    getattr(gp, name)(a, out=out)
    assert out == getattr(np, name)(a)
    # Wrong shape, dtype or kind: refused before any work, out untouched.
    bad = np.full(4, 7, want.dtype)
    with pytest.raises(ValueError, match="shape"):
        getattr(gp, name)(a, axis=1, out=bad)
    assert (bad == 7).all()
    with pytest.raises(TypeError, match="dtype"):
        getattr(gp, name)(a, axis=1, out=np.empty(3, np.float16))
    with pytest.raises(TypeError, match="out must be"):
        getattr(gp, name)(a, axis=1, out=[0, 0, 0])


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.uint32, np.int64, np.float32,
                                   np.float64])
def test_sum_and_cumsum_dtype(dtype):
    a = np.arange(-300, 700, 7, dtype=np.int64).reshape(11, 13)[:, :12]
    if np.dtype(dtype).kind == "u":
        a = np.abs(a)
    for axis in (None, 0, 1):
        want = np.sum(a, axis=axis, dtype=dtype)
        got = gp.sum(a, axis=axis, dtype=dtype)
        assert np.asarray(got).dtype == want.dtype, (axis, np.asarray(got).dtype)
        np.testing.assert_array_equal(got, want)
        want = np.cumsum(a, axis=axis, dtype=dtype)
        got = gp.cumsum(a, axis=axis, dtype=dtype)
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)
    f = np.linspace(0, 1, 1001, dtype=np.float32)
    assert gp.sum(f, dtype=np.float64) == pytest.approx(np.sum(f, dtype=np.float64), rel=1e-15)
    assert type(gp.sum(f, dtype=np.float64)) is np.float64
    with pytest.raises(TypeError, match="dtype"):
        gp.sum(f, dtype=np.complex64)


def test_cumsum_cummax_out():
    a = np.random.default_rng(5).integers(-9, 9, size=(4, 5)).astype(np.int32)
    out = np.empty((4, 5), np.int64)
    assert gp.cumsum(a, axis=0, out=out) is out
    np.testing.assert_array_equal(out, np.cumsum(a, axis=0))
    out = np.empty(20, np.int32)
    assert gp.cummax(a, out=out) is out
    np.testing.assert_array_equal(out, np.maximum.accumulate(a.ravel()))
    with pytest.raises(TypeError, match="dtype"):
        gp.cumsum(a, out=np.empty(20, np.int32))  # cumsum of int32 is int64
    with pytest.raises(ValueError, match="shape"):
        gp.cummin(a, out=np.empty(19, np.int32))


@pytest.mark.parametrize("shape", [(4, 5), (3, 4, 5)])
def test_cumsum_along_any_axis(shape):
    a = np.random.default_rng(2).integers(-50, 50, size=shape).astype(np.int32)
    for axis in range(-len(shape), len(shape)):
        got = gp.cumsum(a, axis=axis)
        want = np.cumsum(a, axis=axis)
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("kind", [None, "quicksort", "mergesort", "heapsort", "stable"])
@pytest.mark.parametrize("shape", [(50,), (6, 7), (3, 4, 5)])
def test_sort_kinds_and_axes(kind, shape):
    a = np.random.default_rng(3).integers(0, 5, size=shape).astype(np.float32)
    for axis in list(range(-len(shape), len(shape))) + [None]:
        np.testing.assert_array_equal(gp.sort(a, axis=axis, kind=kind),
                                      np.sort(a, axis=axis, kind=kind))
        # Equal keys everywhere: only the stable order is one answer.
        np.testing.assert_array_equal(gp.argsort(a, axis=axis, kind=kind),
                                      np.argsort(a, axis=axis, kind="stable"))
    np.testing.assert_array_equal(gp.sort(a, stable=True), np.sort(a, stable=True))
    with pytest.raises(ValueError):
        gp.sort(a, kind="stable", stable=True)
    with pytest.raises(ValueError):
        gp.sort(a, order="x")


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_exclusive_nanmax_is_the_inclusive_shifted(dtype):
    # scan --op nanmax gave [nan 1 1 2] and --exclusive [-inf -inf 1 1].
    x = np.array([np.nan, 1, np.nan, 2], dtype)
    inclusive = np.fmax.accumulate(x)
    for op, ufunc in (("nanmax", np.fmax), ("nanmin", np.fmin),
                      ("max", np.maximum), ("min", np.minimum), ("add", np.add)):
        inc = ufunc.accumulate(x)
        got = gp.exclusive_scan(x, op)
        np.testing.assert_array_equal(got[1:], inc[:-1], err_msg=op)
    got = gp.exclusive_scan(x, "nanmax")
    assert np.isnan(got[0]) and np.isnan(got[1]) and got[2] == 1 and got[3] == 1
    np.testing.assert_array_equal(got[1:], inclusive[:-1])
    assert gp.exclusive_scan(x, "max")[0] == -np.inf
    assert gp.exclusive_scan(x, "min")[0] == np.inf


@pytest.mark.parametrize("dtype", [np.int8, np.uint16, np.int32, np.uint64, np.float32, np.bool_])
def test_exclusive_scan_starts_from_the_identity(dtype):
    # exclusive_scan(x, op="min") started from 0: all zeros for positive data.
    x = np.array([5, 3, 9, 1, 4]).astype(dtype)
    for op, ufunc in (("min", np.minimum), ("max", np.maximum)):
        got = gp.exclusive_scan(x, op)
        assert got.dtype == x.dtype
        np.testing.assert_array_equal(got[1:], ufunc.accumulate(x)[:-1], err_msg=op)
        if np.dtype(dtype).kind == "f":
            ident = np.inf if op == "min" else -np.inf
        elif dtype == np.bool_:
            ident = op == "min"
        else:
            info = np.iinfo(dtype)
            ident = info.max if op == "min" else info.min
        assert got[0] == ident, op
    s = gp.exclusive_scan(x)
    assert s[0] == 0
    np.testing.assert_array_equal(s[1:], np.cumsum(x)[:-1])


def test_gaussian_filter_truncate_nan_says_what_was_wrong():
    a = np.ones((8, 8))
    for bad in (np.nan, np.inf, -1.0):
        with pytest.raises(ValueError, match="gaussian_filter: truncate"):
            gp.ndimage.gaussian_filter(a, 1.0, truncate=bad)


@pytest.mark.parametrize("name", ["gaussian_filter", "sobel", "laplace", "uniform_filter"])
def test_filter_errors_name_the_filter(name):
    f = getattr(gp.ndimage, name)
    args = (1.0,) if name == "gaussian_filter" else ()
    with pytest.raises(TypeError, match=f"^{name}:"):
        f(np.ones((4, 4), np.int32), *args)
    with pytest.raises(ValueError, match=f"^{name}:"):
        f(np.ones((2, 4, 4)), *args)


@pytest.mark.parametrize("dtype", [np.float16, np.bool_])
def test_sort_float16_and_bool_keys(dtype):
    rng = np.random.default_rng(6)
    a = (rng.standard_normal((5, 40)) * 3).astype(dtype)
    if dtype == np.float16:
        a[0, :3] = [np.nan, -0.0, np.inf]
    for axis in (-1, 0, None):
        got = gp.sort(a, axis=axis)
        assert got.dtype == a.dtype
        np.testing.assert_array_equal(got, np.sort(a, axis=axis))
        np.testing.assert_array_equal(gp.argsort(a, axis=axis),
                                      np.argsort(a, axis=axis, kind="stable"))
