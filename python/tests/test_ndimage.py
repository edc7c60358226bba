"""gpuprim.ndimage against scipy.ndimage: every filter, mode, dtype; bad input."""

import numpy as np
import pytest

ndi = pytest.importorskip("scipy.ndimage")

import gpuprim as gp  # noqa: E402

MODES = ["reflect", "constant", "nearest", "mirror", "wrap"]
SHAPES = [(0, 4), (1, 1), (2, 3), (37, 53), (64, 1), (5, 70)]


def image(shape, dtype, seed=0):
    return (np.random.default_rng(seed).standard_normal(shape) * 10).astype(dtype)


def check(got, want, x, wsum=1.0):
    assert isinstance(got, np.ndarray)
    assert got.dtype == want.dtype and got.shape == want.shape
    scale = float(np.abs(x).max(initial=1.0)) * max(wsum, 1.0)
    if want.dtype == np.float32:
        np.testing.assert_allclose(got, want, rtol=2e-5, atol=4e-6 * scale)
    else:
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12 * scale)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("name", ["correlate", "convolve"])
@pytest.mark.parametrize("wshape", [(3, 3), (5, 4), (1, 7), (2, 2)])
def test_general(name, shape, mode, dtype, wshape):
    x = image(shape, dtype, seed=shape[0])
    w = np.random.default_rng(1).standard_normal(wshape)
    before = x.copy()
    for cval in (0.0, 2.5):
        got = getattr(gp.ndimage, name)(x, w, mode=mode, cval=cval)
        want = getattr(ndi, name)(x, w, mode=mode, cval=cval)
        check(got, want, x, np.abs(w).sum())
    np.testing.assert_array_equal(x, before)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("shape", SHAPES)
def test_named(shape, mode, dtype):
    x = image(shape, dtype, seed=3)
    cases = [
        ("gaussian_filter", (2.0,), {}),
        ("gaussian_filter", ((1.0, 0.5),), {"truncate": 3.0}),
        ("gaussian_filter", (1.5,), {"radius": 2}),
        ("gaussian_filter", ((0.0, 1.2),), {}),
        ("gaussian_filter", (1.0,), {"axes": (0,)}),
        ("gaussian_filter", ((1.0, 2.0),), {"axes": (1, 0)}),
        ("uniform_filter", (), {}),
        ("uniform_filter", (4,), {}),
        ("uniform_filter", ((2, 5),), {}),
        ("uniform_filter", (3,), {"axes": (1,)}),
        ("sobel", (), {}),
        ("sobel", (0,), {}),
        ("sobel", (1,), {}),
        ("sobel", (-2,), {}),
        ("laplace", (), {}),
        ("laplace", (), {"axes": (1,)}),
    ]
    for name, args, kwargs in cases:
        for cval in (0.0, -1.5):
            got = getattr(gp.ndimage, name)(x, *args, mode=mode, cval=cval, **kwargs)
            want = getattr(ndi, name)(x, *args, mode=mode, cval=cval, **kwargs)
            check(got, want, x, 8.0)


def test_aliases_and_mode_sequence():
    x = image((20, 30), np.float64)
    for alias, mode in [("grid-mirror", "reflect"), ("grid-wrap", "wrap"), ("grid-constant", "constant")]:
        np.testing.assert_array_equal(
            gp.ndimage.gaussian_filter(x, 1.0, mode=alias),
            gp.ndimage.gaussian_filter(x, 1.0, mode=mode),
        )
    check(
        gp.ndimage.uniform_filter(x, mode=["wrap", "wrap"]),
        ndi.uniform_filter(x, mode=["wrap", "wrap"]),
        x,
    )


def test_output_argument():
    x = image((16, 17), np.float32)
    out = np.empty_like(x)
    got = gp.ndimage.gaussian_filter(x, 1.0, output=out)
    assert got is out
    check(out, ndi.gaussian_filter(x, 1.0), x)
    out2 = np.empty_like(x)
    got = gp.ndimage.sobel(x, output=out2, mode="constant", cval=3.0)
    assert got is out2
    check(out2, ndi.sobel(x, mode="constant", cval=3.0), x, 8.0)
    check(gp.ndimage.laplace(x, output=np.float32), ndi.laplace(x, output=np.float32), x, 8.0)
    with pytest.raises(TypeError):
        gp.ndimage.laplace(x, output=np.float64)
    with pytest.raises(TypeError):
        gp.ndimage.laplace(x, output=np.empty(x.shape, np.float64))
    with pytest.raises(ValueError):
        gp.ndimage.laplace(x, output=np.empty((16, 16), np.float32))
    with pytest.raises(ValueError):  # output is the input
        gp.ndimage.laplace(x, output=x)


def test_non_contiguous_input():
    x = image((30, 40), np.float64)[::2, ::3]
    check(gp.ndimage.gaussian_filter(x, 1.0), ndi.gaussian_filter(x, 1.0), x)


def test_nan_and_inf():
    """NaN and inf propagate as SciPy's; a weight of 0 skips its pixel, as
    scipy.ndimage.correlate does (SciPy's 1-D passes, and so its sobel,
    multiply it instead: a documented difference)."""
    x = image((10, 10), np.float64)
    x[3, 4] = np.nan
    x[7, 7] = np.inf
    w = np.array([[0.0, 1.0, 0.0], [2.0, -3.0, 0.5], [0.0, 1.0, 0.0]])
    for got, want in [
        (gp.ndimage.laplace(x), ndi.laplace(x)),
        (gp.ndimage.correlate(x, w), ndi.correlate(x, w)),
        (gp.ndimage.gaussian_filter(x, 1.0), ndi.gaussian_filter(x, 1.0)),
    ]:
        np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
        np.testing.assert_array_equal(np.isinf(got), np.isinf(want))
        finite = np.isfinite(want)
        np.testing.assert_allclose(got[finite], want[finite], rtol=1e-12, atol=1e-9)


@pytest.mark.parametrize("dtype", [np.uint8, np.int32, np.int64, np.float16, np.bool_, np.complex64])
def test_bad_dtype(dtype):
    x = np.zeros((8, 8), dtype)
    with pytest.raises(TypeError):
        gp.ndimage.gaussian_filter(x, 1.0)
    with pytest.raises(TypeError):
        gp.ndimage.correlate(x, np.ones((3, 3)), mode="constant", cval=1.0)


def test_bad_input():
    x = image((8, 8), np.float64)
    with pytest.raises(TypeError):
        gp.ndimage.laplace(np.array([[object()] * 3] * 3))
    with pytest.raises(ValueError):
        gp.ndimage.laplace(np.zeros(8))  # 1-D
    with pytest.raises(ValueError):
        gp.ndimage.laplace(np.zeros((2, 3, 4)))  # 3-D
    with pytest.raises(ValueError):
        gp.ndimage.laplace(x, mode="bogus")
    with pytest.raises(TypeError):
        gp.ndimage.laplace(x, mode=3)
    with pytest.raises(ValueError):
        gp.ndimage.laplace(x, mode=["wrap", "reflect"])
    with pytest.raises(ValueError):
        gp.ndimage.correlate(x, np.ones(3))  # 1-D weights
    with pytest.raises(ValueError):
        gp.ndimage.correlate(x, np.ones((0, 3)))
    with pytest.raises(TypeError):
        gp.ndimage.correlate(x, np.ones((3, 3), complex))
    with pytest.raises(ValueError):
        gp.ndimage.correlate(x, np.ones((64, 3)))  # past the largest side
    with pytest.raises(ValueError):
        gp.ndimage.correlate(x, np.ones((3, 3)), origin=1)
    with pytest.raises(ValueError):
        gp.ndimage.gaussian_filter(x, 1.0, order=1)
    with pytest.raises(ValueError):
        gp.ndimage.gaussian_filter(x, -1.0)
    with pytest.raises(ValueError):
        gp.ndimage.gaussian_filter(x, 8.0)  # radius 32
    with pytest.raises(ValueError):
        gp.ndimage.gaussian_filter(x, (1.0, 2.0, 3.0))
    with pytest.raises(ValueError):
        gp.ndimage.uniform_filter(x, 0)
    with pytest.raises(ValueError):
        gp.ndimage.uniform_filter(x, 64)
    with pytest.raises(ValueError):
        gp.ndimage.sobel(x, axis=2)


def test_gpu(xp):
    """CuPy / PyTorch images: results, kind, dtype, a non-default stream, output=."""
    x = image((257, 300), np.float32)
    d = xp.asarray(x)
    for name, args, kwargs in [
        ("gaussian_filter", (2.0,), {}),
        ("uniform_filter", (5,), {"mode": "wrap"}),
        ("sobel", (0,), {"mode": "nearest"}),
        ("laplace", (), {"mode": "constant", "cval": 1.0}),
        ("correlate", (np.arange(15.0).reshape(3, 5),), {"mode": "mirror"}),
        ("convolve", (np.arange(12.0).reshape(4, 3),), {"mode": "constant", "cval": -2.0}),
    ]:
        got = getattr(gp.ndimage, name)(d, *args, **kwargs)
        assert isinstance(got, xp.array_type())
        want = getattr(ndi, name)(x, *args, **kwargs)
        check(xp.to_numpy(got), want, x, 120.0)
    s = xp.new_stream()
    got = gp.ndimage.gaussian_filter(d, 1.0, stream=s)
    xp.synchronize()
    check(xp.to_numpy(got), ndi.gaussian_filter(x, 1.0), x)
    out = xp.asarray(np.zeros_like(x))
    ptr = xp.data_ptr(out)
    assert gp.ndimage.sobel(d, output=out) is out
    assert xp.data_ptr(out) == ptr
    check(xp.to_numpy(out), ndi.sobel(x), x, 8.0)
    with pytest.raises(ValueError):  # host and device mixed
        gp.ndimage.sobel(d, output=np.zeros_like(x))
    empty = gp.ndimage.gaussian_filter(xp.asarray(np.zeros((0, 7), np.float32)), 1.0)
    assert isinstance(empty, xp.array_type()) and tuple(empty.shape) == (0, 7)
