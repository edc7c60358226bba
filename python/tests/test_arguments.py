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
                 lambda: gp.ndimage.gaussian_filter(np.ones((3, 3)), 1.0, bogus=1),
                 lambda: gp.histogram(x, bogus=1),
                 lambda: gp.searchsorted(x, x, bogus=1),
                 lambda: gp.topk(x, 2, bogus=1),
                 lambda: gp.partition(x, 1, bogus=1),
                 lambda: gp.sparse.linalg.cg(np.eye(4), x, bogus=1)):
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
    if name.startswith(("arg", "nanarg")):
        # An index casts same_kind (NumPy: int32 takes it, bool does not).
        with pytest.raises(TypeError, match="dtype"):
            getattr(gp, name)(a, axis=1, out=np.empty(3, np.bool_))
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
    # NumPy casts the int64 sums into an int32 out (unsafe casting).
    out = np.empty(20, np.int32)
    assert gp.cumsum(a, out=out) is out
    np.testing.assert_array_equal(out, np.cumsum(a, out=np.empty(20, np.int32)))
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
    for bad in (np.nan, np.inf):
        with pytest.raises(ValueError, match="gaussian_filter: truncate"):
            gp.ndimage.gaussian_filter(a, 1.0, truncate=bad)


@pytest.mark.parametrize("name", ["gaussian_filter", "sobel", "laplace", "uniform_filter"])
def test_filter_errors_name_the_filter(name):
    """SciPy's exception types; where gpuprim words the message, it names the
    filter called."""
    f = getattr(gp.ndimage, name)
    args = (1.0,) if name == "gaussian_filter" else ()
    with pytest.raises(RuntimeError, match=f"^{name}: array type dtype\\('float16'\\)"):
        f(np.ones((4, 4), np.float16), *args)
    with pytest.raises(RuntimeError, match="^boundary mode not supported"):  # SciPy's words
        f(np.ones((4, 4)), *args, mode="bogus")


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


# Issue 47, point 1: NumPy's out=, dtype=, keepdims= and axis= on 2-D input.
# Each answer is compared with NumPy's, dtype included.

def _same(got, want):
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, want.dtype,
                                                                 got.shape, want.shape)
    np.testing.assert_array_equal(got, want)


M_INT = np.random.default_rng(7).integers(-100, 100, size=(5, 6)).astype(np.int16)
M_FLT = np.random.default_rng(8).integers(-8, 8, size=(5, 6)) / 4  # exact float64 sums
M_NAN = M_FLT.copy()
M_NAN[1, 2] = M_NAN[3, 0] = np.nan


@pytest.mark.parametrize("name", REDUCTIONS)
@pytest.mark.parametrize("axis", [0, 1, -1, None])
@pytest.mark.parametrize("keepdims", [False, True])
def test_reductions_2d_axis_keepdims_out(name, axis, keepdims):
    for a in (M_INT, M_FLT, M_NAN):
        if name.startswith("nanarg") and a is M_NAN and axis is not None:
            a = np.where(np.isnan(a), 0.5, a)  # an all-NaN slice raises in both
        want = getattr(np, name)(a, axis=axis, keepdims=keepdims)
        _same(getattr(gp, name)(a, axis=axis, keepdims=keepdims), want)
        out = np.full(np.shape(want), 99, np.asarray(want).dtype)
        assert getattr(gp, name)(a, axis=axis, out=out, keepdims=keepdims) is out
        _same(out, want)


@pytest.mark.parametrize("name", ["sum", "nansum", "min", "max", "nanmin", "nanmax"])
@pytest.mark.parametrize("out_dtype", [np.int8, np.int32, np.float32, np.float64, np.complex128,
                                       np.bool_])
def test_reduction_out_casts_as_numpy(name, out_dtype):
    # NumPy computes in the reduction's type and casts into out (unsafe casting):
    # sum([0.5, 0.5, 0.75], out=int64) is 1, not 0.
    for a in (M_INT, M_FLT + 0.25):
        for axis in (0, 1, None):
            want = np.empty(np.shape(getattr(np, name)(a, axis=axis)), out_dtype)
            getattr(np, name)(a, axis=axis, out=want)
            got = np.empty_like(want)
            assert getattr(gp, name)(a, axis=axis, out=got) is got
            _same(got, want)


@pytest.mark.parametrize("name", ["sum", "nansum", "cumsum"])
@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int32, np.uint64, np.float32,
                                   np.float64])
def test_dtype_sets_accumulation_and_result(name, dtype):
    # int8 accumulation wraps as NumPy's; float32 from int16 rounds as NumPy's.
    big = np.full((4, 300), 100, np.int16)
    for a in (M_INT, np.abs(M_INT), big, M_FLT):
        if np.dtype(dtype).kind == "u" and (a < 0).any():
            continue
        for axis in (0, 1, -1, None):
            _same(getattr(gp, name)(a, axis=axis, dtype=dtype),
                  getattr(np, name)(a, axis=axis, dtype=dtype))
            want = getattr(np, name)(a, axis=axis, dtype=dtype)
            out = np.empty_like(np.asarray(want))
            assert getattr(gp, name)(a, axis=axis, dtype=dtype, out=out) is out
            _same(out, want)


@pytest.mark.parametrize("name", ["cumsum", "cummax", "cummin"])
@pytest.mark.parametrize("out_dtype", [np.int16, np.int64, np.float32, np.float64])
def test_cumulative_out_2d(name, out_dtype):
    ref = {"cumsum": np.cumsum, "cummax": np.maximum.accumulate,
           "cummin": np.minimum.accumulate}[name]
    for a in (M_INT, M_FLT + 0.25):
        for axis in (0, 1, -1, None):
            src = a.ravel() if axis is None else a
            want = np.empty(src.shape, out_dtype)
            ref(src, axis=0 if axis is None else axis, out=want)
            got = np.full_like(want, 7)
            assert getattr(gp, name)(a, axis=axis, out=got) is got
            _same(got, want)
            _same(getattr(gp, name)(a, axis=axis), ref(src, axis=0 if axis is None else axis))


def test_matmul_out():
    rng = np.random.default_rng(9)
    a = rng.integers(-4, 4, size=(5, 3)).astype(np.float64)
    b = rng.integers(-4, 4, size=(3, 4)).astype(np.float64)
    for out_dtype in (np.float64, np.float32):  # float64 -> float32 is same_kind
        want = np.matmul(a, b, out=np.empty((5, 4), out_dtype))
        out = np.full((5, 4), 7, out_dtype)
        assert gp.matmul(a, b, out=out) is out
        _same(out, want)
    s = np.stack([a, 2 * a])
    out = np.empty((2, 5, 4))
    assert gp.matmul(s, b, out=out) is out
    _same(out, np.matmul(s, b))
    # Non-contiguous out: a view into a bigger array.
    big = np.zeros((5, 8))
    gp.matmul(a, b, out=big[:, ::2])
    _same(big[:, ::2], a @ b)
    assert (big[:, 1::2] == 0).all()


@pytest.mark.parametrize("name", REDUCTIONS + ["cumsum", "cummax", "cummin", "matmul",
                                               "transpose"])
def test_bad_out_is_refused_before_any_work(name):
    a = np.arange(12.0).reshape(3, 4)
    before = a.copy()
    if name == "matmul":
        call = lambda out: gp.matmul(a, a.T.copy(), out=out)  # noqa: E731
        good_shape = (3, 3)
    elif name == "transpose":
        call = lambda out: gp.transpose(a, out=out)  # noqa: E731
        good_shape = (4, 3)
    elif name in ("cumsum", "cummax", "cummin"):
        call = lambda out: getattr(gp, name)(a, axis=1, out=out)  # noqa: E731
        good_shape = (3, 4)
    else:
        call = lambda out: getattr(gp, name)(a, axis=1, out=out)  # noqa: E731
        good_shape = (3,)
    good_dtype = np.int64 if name.startswith(("arg", "nanarg")) else np.float64
    # Wrong shape: ValueError, as NumPy's; out untouched.
    bad = np.full((2, 2), 5, good_dtype)
    with pytest.raises(ValueError, match="shape"):
        call(bad)
    assert (bad == 5).all()
    # Not an array: TypeError, as NumPy's "return arrays must be of ArrayType".
    with pytest.raises(TypeError, match="out must be"):
        call([0.0] * int(np.prod(good_shape)))
    # A dtype NumPy's casting refuses: TypeError (UFuncTypeError is one).
    refused = {"matmul": np.int64, "transpose": np.int32}.get(name)
    if name.startswith(("arg", "nanarg")):
        refused = np.bool_
    if refused is not None:
        bad = np.full(good_shape, 5, refused)
        with pytest.raises(TypeError, match="dtype"):
            call(bad)
        assert (bad == np.full(good_shape, 5, refused)).all()
    np.testing.assert_array_equal(a, before)


@pytest.mark.parametrize("dtype", [np.int8, np.uint16, np.float32, np.float64, np.bool_])
def test_transpose_axes_and_out(dtype):
    a = (np.arange(12).reshape(3, 4) - 5).astype(dtype)
    for axes in (None, (1, 0), (-1, 0), (0, 1), [0, -1]):
        _same(gp.transpose(a, axes), np.ascontiguousarray(np.transpose(a, axes)))
        got = gp.transpose(a, axes=axes)
        assert got.flags.c_contiguous and not np.shares_memory(got, a)
    out = np.empty((4, 3), dtype)
    assert gp.transpose(a, out=out) is out
    _same(out, a.T)
    _same(gp.transpose(np.arange(5), (0,)), np.arange(5))
    with pytest.raises(ValueError):
        gp.transpose(a, (0, 0))
    with pytest.raises(ValueError):
        gp.transpose(a, (0,))
    with pytest.raises(ValueError):  # AxisError is a ValueError
        gp.transpose(a, (0, 2))


class _CudaArrayInterfaceOnly:
    """An array known only by __cuda_array_interface__ (as JAX's GPU arrays
    and Numba's are); its pointer is never read on a host-only build."""

    def __init__(self, typestr):
        self.__cuda_array_interface__ = {
            "shape": (3,),
            "typestr": typestr,
            "data": (0, False),
            "strides": None,
            "version": 3,
        }


@pytest.mark.skipif(gp.info()["cuda_built"], reason="a CUDA build would read the fake pointer")
def test_cuda_array_interface_is_parsed_before_the_backend_check():
    # The typestr is read as a str (an unparsed one would surface as
    # RuntimeError std::bad_cast); a host-only build then refuses the GPU.
    with pytest.raises(ValueError, match="built without the CUDA backend"):
        gp.sum(_CudaArrayInterfaceOnly("<f4"))
    with pytest.raises(TypeError, match="typestr"):
        gp.sum(_CudaArrayInterfaceOnly("<c32"))
