"""gpuprim.ndimage on CuPy arrays and PyTorch tensors against scipy.ndimage
on the same data: bit for bit wherever the N-D filters run (N-D inputs,
every integer and float dtype, output= of any dtype or array, in place,
axes=, origins, per-axis modes, Gaussian derivatives, any radius, float32),
and close where the 2-D tiled kernels run when asked to (ndimage's
_TILED_FLOAT64). The GPU frameworks skip without a device; "torch-cpu" runs the same argument code on CPU tensors (the host
backend) wherever PyTorch is installed."""

import numpy as np
import pytest

ndi = pytest.importorskip("scipy.ndimage")

import gpuprim as gp  # noqa: E402
from conftest import ALL_TYPES, Framework, _framework  # noqa: E402


class CpuTorch(Framework):
    def asarray(self, a):
        return self.module.from_numpy(np.ascontiguousarray(a).copy())

    def to_numpy(self, a):
        return a.numpy()

    def new_stream(self):
        return None

    def synchronize(self):
        pass


@pytest.fixture(params=["cupy", "torch", "torch-cpu"])
def xp(request):
    if request.param == "torch-cpu":
        torch = pytest.importorskip("torch")
        return CpuTorch("torch", torch)
    return _framework(request.param)


MODES = ["reflect", "constant", "nearest", "mirror", "wrap"]


def data(shape, dtype, seed=0):
    x = np.random.default_rng(seed).standard_normal(shape) * 30
    if np.dtype(dtype) == np.bool_:
        return x > 0
    return x.astype(dtype)


def torch_has(xp, dtype):
    """PyTorch before 2.3 has no uint16 / uint32 / uint64 tensors."""
    return xp.name != "torch" or hasattr(xp.module, np.dtype(dtype).name)


def exact(xp, got, want):
    """got (an array of the framework) holds SciPy's answer, bit for bit."""
    assert isinstance(got, xp.array_type())
    host = xp.to_numpy(got)
    assert host.dtype == want.dtype and host.shape == want.shape
    np.testing.assert_array_equal(host, want)


def close(xp, got, want):
    assert isinstance(got, xp.array_type())
    host = xp.to_numpy(got)
    assert host.dtype == want.dtype and host.shape == want.shape
    np.testing.assert_allclose(host, want, rtol=1e-12, atol=1e-12 * max(1.0, np.abs(want).max()))


@pytest.mark.parametrize("dtype", ALL_TYPES)
@pytest.mark.parametrize("shape", [(23,), (6, 7), (4, 5, 6), (2, 3, 4, 3)])
def test_nd_dtypes_exact(xp, dtype, shape):
    if not torch_has(xp, dtype):
        pytest.skip("PyTorch has no such dtype")
    x = data(shape, dtype, seed=len(shape))
    d = xp.asarray(x)
    nd = len(shape)
    w = np.random.default_rng(2).standard_normal((3,) * nd)
    for mode in MODES:
        calls = [
            ("correlate", (w,), {"cval": 1.5}),
            ("convolve", (w[..., :2],), {}),
            ("gaussian_filter", (1.2,), {}),
            ("uniform_filter", (4,), {"cval": -2}),
            ("sobel", (), {}),
            ("laplace", (), {}),
            ("correlate1d", ([0.5, -1.0, 2.0, 0.25],), {"axis": 0, "origin": 1}),
            ("convolve1d", ([1.0, 2.0, 1.0],), {"axis": -1}),
            ("uniform_filter1d", (5,), {"axis": 0, "origin": -2}),
            ("gaussian_filter1d", (0.8,), {"order": 1}),
        ]
        for name, args, kwargs in calls:
            got = getattr(gp.ndimage, name)(d, *args, mode=mode, **kwargs)
            exact(xp, got, getattr(ndi, name)(x, *args, mode=mode, **kwargs))


@pytest.mark.parametrize("dtype", [np.uint8, np.int32, np.float32, np.float64])
def test_outputs_of_other_types_and_in_place(xp, dtype):
    x = data((9, 10, 3), dtype, seed=4)
    w = np.arange(12.0).reshape(2, 3, 2) - 5
    for out in (np.uint8, np.int16, np.int64, np.float32, np.float64):
        for name, args in [("sobel", ()), ("correlate", (w,)), ("uniform_filter", (3,))]:
            want = getattr(ndi, name)(x, *args, output=out)
            exact(xp, getattr(gp.ndimage, name)(xp.asarray(x), *args, output=out), want)
            given = xp.asarray(np.zeros(x.shape, out))
            getattr(gp.ndimage, name)(xp.asarray(x), *args, output=given)
            exact(xp, given, want)
    # output=input: SciPy's passes read and write the same array.
    for name, args, kwargs in [
        ("correlate", (w,), {}),
        ("gaussian_filter", (1.5,), {}),
        ("uniform_filter", (5,), {"mode": "wrap"}),
        ("correlate1d", ([1.0, 3.0, -2.0],), {"axis": 1}),
    ]:
        want = x.copy()
        getattr(ndi, name)(want, *args, output=want, **kwargs)
        d = xp.asarray(x)
        got = getattr(gp.ndimage, name)(d, *args, output=d, **kwargs)
        exact(xp, d, want)
        if got is not None:
            exact(xp, got, want)


def test_axes_origins_modes_orders_and_large_filters(xp):
    x = data((7, 8, 9), np.float32, seed=5)
    d = xp.asarray(x)
    w2 = np.random.default_rng(6).standard_normal((3, 4))
    calls = [
        ("correlate", (w2,), {"axes": (0, 2), "origin": (-1, 1)}),
        ("convolve", (w2,), {"axes": (2, 1), "origin": np.array([1, 0])}),
        ("correlate", (np.ones((3, 3, 3)),), {"origin": -1, "mode": "nearest"}),
        ("gaussian_filter", (1.1,), {"order": (0, 2, 1), "mode": ["wrap", "nearest", "mirror"]}),
        ("gaussian_filter", ((1.0, 2.0),), {"axes": (-1, 0), "order": 3}),
        ("gaussian_filter", (12.0,), {}),  # radius 48
        ("gaussian_filter", (1.0,), {"radius": 40, "mode": "constant", "cval": 3.0}),
        ("uniform_filter", (70,), {"mode": "reflect"}),  # size over 63
        (
            "uniform_filter",
            ((3, 2, 5),),
            {"origin": (1, 0, -2), "mode": ["constant", "wrap", "mirror"]},
        ),
        ("sobel", (), {"axis": 1, "mode": ["reflect", "constant", "wrap"]}),
        ("laplace", (), {"axes": (0, 2), "mode": ["mirror", "nearest"]}),
        ("correlate1d", (np.linspace(-1, 1, 41),), {"axis": 1, "origin": 20}),
        ("uniform_filter1d", (100,), {"axis": 2, "mode": "wrap", "origin": -50}),
    ]
    for name, args, kwargs in calls:
        exact(
            xp,
            getattr(gp.ndimage, name)(d, *args, **kwargs),
            getattr(ndi, name)(x, *args, **kwargs),
        )


def test_float32_is_scipys_float32(xp):
    """The cases SciPy's own tests check: sums in float64, one rounding."""
    c = np.full((20, 20), 5000, np.float32)
    got = gp.ndimage.correlate(xp.asarray(c), np.ones((3, 3)) / 9)
    assert (xp.to_numpy(got) == 5000.0).all()
    a = np.arange(100 * 100, dtype=np.float32).reshape(100, 100)
    g = gp.ndimage.gaussian_filter(xp.asarray(a), 4)
    exact(xp, g, ndi.gaussian_filter(a, 4))
    g = xp.to_numpy(g)
    assert abs(float(g.sum(dtype=np.float64)) - float(a.sum(dtype=np.float64))) < 1.5


def test_float64_images_exact_and_the_tiled_kernels_close(xp, monkeypatch):
    """2-D float64 images: SciPy's bits by default; with _TILED_FLOAT64 the
    2-D tiled kernels (CPU tensors: the host's), within ulps."""
    x = data((300, 257), np.float64, seed=7)
    d = xp.asarray(x)
    calls = [
        ("gaussian_filter", (2.0,), {}),
        ("uniform_filter", (5,), {"mode": "wrap"}),
        ("sobel", (0,), {"mode": "nearest"}),
        ("laplace", (), {"mode": "constant", "cval": 2.0}),
        ("correlate", (np.arange(15.0).reshape(3, 5),), {"mode": "mirror"}),
    ]
    for name, args, kwargs in calls:
        want = getattr(ndi, name)(x, *args, **kwargs)
        exact(xp, getattr(gp.ndimage, name)(d, *args, **kwargs), want)
    monkeypatch.setattr(gp.ndimage, "_TILED_FLOAT64", True)
    for name, args, kwargs in calls:
        want = getattr(ndi, name)(x, *args, **kwargs)
        close(xp, getattr(gp.ndimage, name)(d, *args, **kwargs), want)


def test_complex_through_real_parts(xp):
    x = data((8, 9), np.float64, seed=8) + 1j * data((8, 9), np.float64, seed=9)
    w = np.array([[1.0, 2.0 - 1j], [0.5j, -1.0]])
    d = xp.asarray(x)
    exact(xp, gp.ndimage.correlate(d, w), ndi.correlate(x, w))
    exact(
        xp,
        gp.ndimage.convolve1d(d, [1.0, -2.0, 0.5], axis=0),
        ndi.convolve1d(x, [1.0, -2.0, 0.5], axis=0),
    )
    exact(xp, gp.ndimage.uniform_filter(d, 3), ndi.uniform_filter(x, 3))


def test_non_contiguous_inputs_and_outputs(xp):
    x = data((12, 10, 4), np.int16, seed=10)
    d = xp.asarray(x)
    view = d[::2, :, 1:3]
    host_view = x[::2, :, 1:3]
    exact(xp, gp.ndimage.gaussian_filter(view, 1.0), ndi.gaussian_filter(host_view, 1.0))
    out = xp.asarray(np.zeros((6, 10, 4), np.float32))[:, :, ::2]
    gp.ndimage.uniform_filter(view, 3, output=out)
    exact(xp, out, ndi.uniform_filter(host_view, 3, output=np.float32))


def test_stream_and_errors(xp):
    x = data((5, 6, 7), np.int32, seed=11)
    d = xp.asarray(x)
    s = xp.new_stream()
    got = gp.ndimage.gaussian_filter(d, 1.0, stream=s)
    xp.synchronize()
    exact(xp, got, ndi.gaussian_filter(x, 1.0))
    with pytest.raises(RuntimeError):  # SciPy's error for float16
        gp.ndimage.uniform_filter(xp.asarray(np.zeros((4, 4), np.float16)), 3)
    with pytest.raises(RuntimeError):  # output shape
        gp.ndimage.correlate1d(d, [1.0, 2.0], output=xp.asarray(np.zeros((5, 6), np.int32)))
    with pytest.raises(ValueError):  # origin past the filter
        gp.ndimage.correlate1d(d, [1.0, 2.0, 3.0], origin=2)
    if not isinstance(xp, CpuTorch):
        with pytest.raises(ValueError):  # host output for a GPU input
            gp.ndimage.uniform_filter(d, 3, output=np.zeros(x.shape, np.int32))
    empty = gp.ndimage.correlate(xp.asarray(np.zeros((0, 3, 2), np.uint8)), np.ones((2, 2, 2)))
    assert isinstance(empty, xp.array_type()) and tuple(empty.shape) == (0, 3, 2)
