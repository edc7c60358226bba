"""gpuprim.ndimage against scipy.ndimage: every filter, mode, dtype, number of
axes and argument form, bit for bit on the host; errors; a GPU smoke test
(the GPU cases in full: test_ndimage_gpu.py)."""

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
    for alias, mode in [
        ("grid-mirror", "reflect"),
        ("grid-wrap", "wrap"),
        ("grid-constant", "constant"),
    ]:
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
    exact(out, ndi.gaussian_filter(x, 1.0))
    out2 = np.empty_like(x)
    got = gp.ndimage.sobel(x, output=out2, mode="constant", cval=3.0)
    assert got is out2
    exact(out2, ndi.sobel(x, mode="constant", cval=3.0))
    # another dtype, as a dtype, a string or an array (strided too)
    for output in (np.float64, "int16", np.int32, np.uint8):
        exact(gp.ndimage.laplace(x, output=output), ndi.laplace(x, output=output))
    strided = np.zeros((16, 34), np.int64)[:, ::2]
    assert gp.ndimage.uniform_filter(x * 10, 4, output=strided) is strided
    exact(strided, ndi.uniform_filter(x * 10, 4, output=np.int64))
    with pytest.raises(RuntimeError, match="output shape"):
        gp.ndimage.laplace(x, output=np.empty((16, 16), np.float32))


@pytest.mark.parametrize("name", ["correlate", "convolve", "gaussian_filter", "sobel", "laplace"])
def test_output_is_input(name):
    """output=input: SciPy's answer for the same call (correlate / convolve
    through a temporary, the 1-D passes in place)."""
    x = image((9, 11, 4), np.float64)
    args = {
        "correlate": (np.arange(12.0).reshape(2, 3, 2),),
        "convolve": (np.ones((3, 1, 3)),),
        "gaussian_filter": (1.3,),
        "sobel": (1,),
        "laplace": (),
    }[name]
    y = x.copy()
    want = getattr(ndi, name)(y, *args, output=y)  # laplace's later axes read the first's result
    assert getattr(gp.ndimage, name)(x, *args, output=x) is x
    exact(x, want)


def exact(got, want):
    """The same dtype, shape and values as SciPy's, bit for bit."""
    assert isinstance(got, np.ndarray)
    np.testing.assert_array_equal(got, want, strict=True)


INT_AND_FLOAT = [
    np.bool_,
    np.int8,
    np.uint8,
    np.int16,
    np.uint16,
    np.int32,
    np.uint32,
    np.int64,
    np.uint64,
    np.float32,
    np.float64,
]


@pytest.mark.parametrize("dtype", INT_AND_FLOAT)
@pytest.mark.parametrize("shape", [(13,), (6, 7), (4, 5, 6), (2, 3, 2, 3)])
def test_nd_dtypes(dtype, shape):
    """Every real dtype and 1-4 axes: SciPy's answer bit for bit, output types
    (truncation, wrap of negative values into unsigned types) included."""
    x = (image(shape, np.float64, seed=len(shape)) * 3).astype(dtype)
    nd = len(shape)
    w = np.random.default_rng(2).standard_normal((3,) * nd)
    for mode in MODES:
        exact(
            gp.ndimage.correlate(x, w, mode=mode, cval=1.5),
            ndi.correlate(x, w, mode=mode, cval=1.5),
        )
        exact(gp.ndimage.convolve(x, w[..., :2], mode=mode), ndi.convolve(x, w[..., :2], mode=mode))
        exact(gp.ndimage.gaussian_filter(x, 1.2, mode=mode), ndi.gaussian_filter(x, 1.2, mode=mode))
        exact(
            gp.ndimage.uniform_filter(x, 4, mode=mode, cval=-2),
            ndi.uniform_filter(x, 4, mode=mode, cval=-2),
        )
        exact(gp.ndimage.sobel(x, mode=mode), ndi.sobel(x, mode=mode))
        exact(gp.ndimage.laplace(x, mode=mode), ndi.laplace(x, mode=mode))
    for out in (np.uint8, np.int16, np.uint64, np.float32):
        exact(gp.ndimage.sobel(x, output=out), ndi.sobel(x, output=out))
        exact(gp.ndimage.correlate(x, w, output=out), ndi.correlate(x, w, output=out))


def test_scipy_accuracy_cases():
    """The float32 cases SciPy's tests check: one rounding from float64."""
    c = np.full((20, 20), 5000, np.float32)
    got = gp.ndimage.correlate(c, np.ones((3, 3)) / 9)
    assert (got == 5000.0).all()
    a = np.arange(100 * 100, dtype=np.float32).reshape(100, 100)
    g = gp.ndimage.gaussian_filter(a, 4)
    exact(g, ndi.gaussian_filter(a, 4))
    assert abs(float(g.sum(dtype=np.float64)) - float(a.sum(dtype=np.float64))) < 1.5


def test_axes_origin_modes_order_radius():
    x = image((7, 8, 9), np.float64)
    w2 = np.arange(6.0).reshape(2, 3)
    cases = [
        ("correlate", (w2,), {"axes": (0, 2), "origin": (0, 1)}),
        ("convolve", (w2,), {"axes": (-1, 0), "origin": np.array([-1, 0])}),
        ("correlate", (np.ones((3, 2, 4)),), {"origin": (1, -1, 0), "mode": "wrap"}),
        ("correlate1d", ([1.0, 2.0, -1.0, 0.5],), {"axis": 1, "origin": -2}),
        (
            "convolve1d",
            ([1.0, 2.0, -1.0, 0.5],),
            {"axis": 0, "origin": 1, "mode": "constant", "cval": 2},
        ),
        ("gaussian_filter", (1.5,), {"order": (0, 1, 2), "mode": ["wrap", "nearest", "mirror"]}),
        ("gaussian_filter", ((1.0, 2.0),), {"order": 3, "axes": (2, 0)}),
        ("gaussian_filter", (3.0,), {"radius": 40}),  # past the GPU's 31
        ("gaussian_filter", (9.0,), {}),  # radius 36
        ("gaussian_filter1d", (2.0,), {"axis": 0, "order": 1}),
        (
            "uniform_filter",
            ((2, 3, 4),),
            {"origin": (0, 1, -2), "mode": ["constant", "wrap", "reflect"]},
        ),
        ("uniform_filter", (5,), {"axes": (1,), "origin": 2}),
        ("uniform_filter1d", (6,), {"axis": 2, "origin": -3}),
        ("uniform_filter", (80,), {}),  # past the GPU's 63
        ("sobel", (-2,), {"mode": ["reflect", "constant", "wrap"], "cval": 1.0}),
        ("laplace", (), {"axes": (0, 2), "mode": ["nearest", "mirror"]}),
    ]
    for name, args, kwargs in cases:
        exact(getattr(gp.ndimage, name)(x, *args, **kwargs), getattr(ndi, name)(x, *args, **kwargs))


def test_complex():
    """Complex data through the real filters of its parts, as SciPy."""
    x = image((6, 7), np.float64) + 1j * image((6, 7), np.float64, seed=5)
    w = np.array([[1, 2j, 0], [0.5, 1, -1j]])
    for name, args in [
        ("correlate", (w,)),
        ("convolve", (w,)),
        ("correlate1d", (w[1],)),
        ("uniform_filter", (3,)),
        ("gaussian_filter", (1.0,)),
        ("sobel", ()),
    ]:
        exact(getattr(gp.ndimage, name)(x, *args), getattr(ndi, name)(x, *args))
    exact(gp.ndimage.correlate(x.real, w), ndi.correlate(x.real, w))


def test_errors_as_scipy():
    """Bad arguments raise SciPy's exception types (checked on SciPy too),
    before anything is written."""
    x = image((8, 8), np.float64)
    before = x.copy()
    half = np.zeros((4, 4), np.float16)
    raising = [
        (RuntimeError, "laplace", (x,), {"mode": "bogus"}),
        (RuntimeError, "correlate", (x, np.ones((3, 3))), {"mode": ["wrap", "reflect"]}),
        (RuntimeError, "correlate", (x, np.ones(3)), {}),
        (RuntimeError, "correlate1d", (x, []), {}),
        (RuntimeError, "gaussian_filter", (x, (1.0, 2.0, 3.0)), {}),
        (RuntimeError, "uniform_filter1d", (x, 0), {}),
        (RuntimeError, "laplace", (half,), {}),
        (RuntimeError, "laplace", (x,), {"output": np.complex128}),
        (RuntimeError, "laplace", (x,), {"output": np.empty((8, 7))}),
        (ValueError, "correlate", (x, np.ones((3, 3))), {"origin": 2}),
        (ValueError, "correlate", (x, np.ones((3, 3))), {"axes": (0, 0)}),
        (ValueError, "gaussian_filter", (x, 1.0), {"order": -1}),
        (ValueError, "gaussian_filter", (x, 1.0), {"radius": -1}),
        (ValueError, "uniform_filter1d", (x, 3), {"origin": 2}),
        (np.exceptions.AxisError, "sobel", (x,), {"axis": 2}),
    ]
    for error, name, args, kwargs in raising:
        with pytest.raises(error):
            getattr(ndi, name)(*args, **kwargs)
        with pytest.raises(error):
            getattr(gp.ndimage, name)(*args, **kwargs)
    np.testing.assert_array_equal(x, before)


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
