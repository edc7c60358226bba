"""GPU arrays (CuPy and PyTorch): results equal NumPy's, results of the
input's kind on the input's device, zero-copy inputs, streams, empty and
odd sizes, mixed host/device rejected. Every test skips without a CUDA
device, a CUDA build of gpuprim, or the framework."""

import numpy as np
import pytest

import gpuprim as gp
from conftest import random_array

SIZES = [0, 1, 31, 1025, 100_003]


def check(xp, got, want, rtol=0.0, scale=None):
    """Exact unless rtol is given; then within rtol, and within rtol * scale
    absolutely (scale: the sum of magnitudes that a float sum or scan
    rounds against; default 10)."""
    assert isinstance(got, xp.array_type()), type(got)
    got = xp.to_numpy(got)
    want = np.asarray(want)
    assert got.shape == want.shape, (got.shape, want.shape)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    if rtol:
        # atol may be an array (one per row): compared by hand, as older
        # NumPy's assert_allclose formats its tolerances as scalars.
        atol = rtol * (10 if scale is None else np.maximum(scale, 10))
        g, w = got.astype(np.float64), want.astype(np.float64)
        ok = (g == w) | (np.isnan(g) & np.isnan(w)) | (np.abs(g - w) <= atol + rtol * np.abs(w))
        assert ok.all(), (got[~ok][:5], want[~ok][:5])
    else:
        np.testing.assert_array_equal(got, want)


def magnitude(x, axis=None):
    """Sums of |x| (as float64): the scale of a float sum's rounding."""
    return np.abs(x.astype(np.float64)).sum(axis=axis)


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.int32, np.uint32, np.int64, np.float32, np.float64])
@pytest.mark.parametrize("n", SIZES)
def test_reductions(xp, dtype, n):
    x = random_array(dtype, n, seed=n)
    d = xp.asarray(x)
    for name in ["sum", "nansum", "min", "max", "nanmin", "nanmax", "argmin", "argmax",
                 "nanargmin", "nanargmax"]:
        if n == 0 and name not in ("sum", "nansum"):
            with pytest.raises(ValueError):
                getattr(gp, name)(d)
            continue
        got = getattr(gp, name)(d)
        assert got.shape == ()  # a 0-d array of the input's kind, not a host scalar
        rtol = 1e-5 if dtype == np.float32 and "sum" in name else 1e-12 if "sum" in name else 0
        check(xp, got, np.asarray(getattr(np, name)(x)), rtol, magnitude(x))


@pytest.mark.parametrize("dtype", [np.int32, np.uint8, np.float32, np.float64])
@pytest.mark.parametrize("shape", [(7, 33), (1000, 3), (3, 5000), (0, 4)])
def test_reductions_last_axis(xp, dtype, shape):
    x = random_array(dtype, 0, seed=2, shape=shape)
    if np.dtype(dtype).kind == "f" and x.size:
        x[0, 0] = np.nan
    d = xp.asarray(x)
    for name in ["sum", "nansum", "min", "max", "nanmin", "nanmax", "argmin", "argmax"]:
        rtol = 1e-5 if dtype == np.float32 and "sum" in name else 1e-12 if "sum" in name else 0
        want = getattr(np, name)(x, axis=-1)
        scale = magnitude(np.nan_to_num(x) if x.dtype.kind == "f" else x, axis=-1)
        check(xp, getattr(gp, name)(d, axis=-1), want, rtol, scale)


def test_nan_reductions(xp):
    x = np.array([3.0, np.nan, -1.0, np.nan], np.float32)
    d = xp.asarray(x)
    for name in ["sum", "min", "max", "argmin", "argmax", "nansum", "nanmin", "nanmax",
                 "nanargmin", "nanargmax"]:
        check(xp, getattr(gp, name)(d), np.asarray(getattr(np, name)(x)))


@pytest.mark.parametrize("dtype", [np.bool_, np.int16, np.int32, np.uint64, np.float32, np.float64])
@pytest.mark.parametrize("n", SIZES)
def test_scans(xp, dtype, n):
    x = random_array(dtype, n, seed=n + 1)
    d = xp.asarray(x)
    rtol = 1e-5 if dtype == np.float32 else 1e-12 if dtype == np.float64 else 0
    running = np.cumsum(np.abs(x.astype(np.float64)))
    check(xp, gp.cumsum(d), np.cumsum(x), rtol, running)
    check(xp, gp.cummax(d), np.maximum.accumulate(x))
    check(xp, gp.cummin(d), np.minimum.accumulate(x))
    if n:
        want = np.concatenate([[0], np.cumsum(x)[:-1]]).astype(np.cumsum(x).dtype)
        check(xp, gp.exclusive_scan(d, "add", 0), want, rtol, running)


def test_scan_nan(xp):
    x = np.array([1.0, 3.0, np.nan, 5.0, 0.0])
    d = xp.asarray(x)
    check(xp, gp.cummax(d), np.maximum.accumulate(x))
    check(xp, gp.cummin(d), np.minimum.accumulate(x))


def test_segmented_and_rows(xp):
    x = random_array(np.int32, 1000, seed=4)
    offsets = np.array([0, 0, 3, 3, 500, 999, 1000], dtype=np.int64)
    d, o = xp.asarray(x), xp.asarray(offsets)
    sums = [x[a:b].sum(dtype=np.int64) for a, b in zip(offsets[:-1], offsets[1:])]
    check(xp, gp.segmented_sum(d, o), np.array(sums, np.int64))
    check(xp, gp.segmented_sum(d, o, check=False), np.array(sums, np.int64))
    want = np.concatenate([np.cumsum(x[a:b]) for a, b in zip(offsets[:-1], offsets[1:])])
    check(xp, gp.segmented_cumsum(d, o), want)
    with pytest.raises(ValueError):
        gp.segmented_sum(d, xp.asarray(np.array([5, 2], np.int64)))
    rows = random_array(np.float64, 0, shape=(9, 100))
    scale = np.cumsum(np.abs(rows), axis=-1)
    check(xp, gp.cumsum(xp.asarray(rows), axis=-1), np.cumsum(rows, axis=-1), 1e-12, scale)


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.uint16, np.int32, np.int64, np.float32, np.float64])
@pytest.mark.parametrize("shape", [(0,), (1,), (31,), (1025,), (100_003,), (7, 33), (100, 64), (3, 2000)])
def test_sorts(xp, dtype, shape):
    x = random_array(dtype, 0, seed=7, shape=shape)
    if np.dtype(dtype).kind == "f" and x.size > 3:
        x.flat[[1, 3]] = np.nan
    d = xp.asarray(x)
    check(xp, gp.sort(d), np.sort(x, axis=-1))
    check(xp, gp.argsort(d), np.argsort(x, axis=-1, kind="stable"))
    check(xp, gp.sort(d, axis=None), np.sort(x, axis=None))
    down = xp.to_numpy(gp.sort(d, descending=True))
    finite = np.sort(x, axis=-1)
    assert down.shape == x.shape and (np.isnan(down) == np.isnan(finite)).all()


def test_sort_by_key(xp):
    keys = random_array(np.float32, 1001, seed=8)
    values = random_array(np.int64, 1001, seed=9)
    k, v = gp.sort_by_key(xp.asarray(keys), xp.asarray(values))
    order = np.argsort(keys, kind="stable")
    check(xp, k, keys[order])
    check(xp, v, values[order])


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32,
                                   np.float32, np.float64])
@pytest.mark.parametrize("n", [0, 1, 1025, 100_003])
@pytest.mark.parametrize("bins", [1, 10, 1024])
def test_histogram(xp, dtype, n, bins):
    x = random_array(dtype, n, seed=n + bins)
    d = xp.asarray(x)
    for rng in (None, (-3.5, 100.25)):
        counts, edges = gp.histogram(d, bins=bins, range=rng)
        want_counts, want_edges = np.histogram(x, bins=bins, range=rng)
        check(xp, counts, want_counts)
        check(xp, edges, want_edges)
    edges = np.array([-100.0, -1.0, 0.0, 2.5, 1000.0])
    counts, got_edges = gp.histogram(d, bins=xp.asarray(edges))
    check(xp, counts, np.histogram(x, bins=edges)[0])


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.uint16])
def test_histogram_narrow_integers(xp, dtype):
    # The types' extremes, the data's range and a range that leaves some out,
    # 20000 bins (global counters); NumPy's counts and float64 edges.
    info = np.iinfo(dtype)
    x = np.concatenate([random_array(dtype, 50_001, seed=3),
                        np.array([info.min, info.max, info.max, 0], dtype)])
    d = xp.asarray(x)
    for bins, rng in ((7, None), (20_000, None), (3, (-3.5, 100.25)), (1000, (info.min, 0))):
        counts, edges = gp.histogram(d, bins=bins, range=rng)
        want_counts, want_edges = np.histogram(x, bins=bins, range=rng)
        check(xp, counts, want_counts)
        check(xp, edges, want_edges)
    constant = xp.asarray(np.full(33, info.max, dtype))
    counts, edges = gp.histogram(constant, bins=4)
    want_counts, want_edges = np.histogram(np.full(33, info.max, dtype), bins=4)
    check(xp, counts, want_counts)
    check(xp, edges, want_edges)


def test_histogram_weights_on_host_and_device_are_not_mixed(xp):
    # Weighted histograms on the GPU (CuPy): test_gpu_numpy_vocabulary.py.
    d = xp.asarray(np.arange(10, dtype=np.float32))
    with pytest.raises(ValueError, match="both on the host or both on the GPU"):
        gp.histogram(np.arange(10.0), bins=4, weights=xp.asarray(np.ones(10)))
    with pytest.raises(ValueError, match="both on the host or both on the GPU"):
        gp.histogram(d, bins=4, weights=np.ones(10))
    from decimal import Decimal

    with pytest.raises(TypeError, match="object weights .* CPU only"):
        gp.histogram(d, bins=4, weights=np.array([Decimal(1)] * 10))
    if xp.name == "torch":
        with pytest.raises(TypeError, match="CuPy samples and weights"):
            gp.histogram(d, bins=4, weights=xp.asarray(np.ones(10, np.float32)))


@pytest.mark.parametrize("name", ["cummax", "cummin"])
def test_running_scans_along_an_axis(xp, name):
    x = random_array(np.float32, 0, seed=12, shape=(3, 5, 4))
    ufunc = np.maximum if name == "cummax" else np.minimum
    for axis in (0, 1, 2):
        check(xp, getattr(gp, name)(xp.asarray(x), axis=axis), ufunc.accumulate(x, axis=axis))


def test_complex_cumsum(xp):
    rng = np.random.default_rng(13)  # small integers: every sum exact
    x = (rng.integers(-9, 9, (4, 6)) + 1j * rng.integers(-9, 9, (4, 6))).astype(np.complex64)
    check(xp, gp.cumsum(xp.asarray(x), axis=0), np.cumsum(x, axis=0))


def test_dense(xp):
    a = random_array(np.float32, 0, shape=(65, 33))
    check(xp, gp.transpose(xp.asarray(a)), np.ascontiguousarray(a.T))
    b = random_array(np.float64, 0, seed=3, shape=(4, 33, 17))
    c = random_array(np.float64, 0, seed=4, shape=(4, 17, 5))
    check(xp, gp.matmul(xp.asarray(b), xp.asarray(c)), b @ c, 1e-12, np.abs(b) @ np.abs(c))


def test_zero_copy_and_kind(xp):
    x = random_array(np.float32, 4096, seed=10)
    d = xp.asarray(x)
    ptr = xp.data_ptr(d)
    view = d[1000:3000]  # a view into d: its pointer is d's + 4000 bytes
    assert xp.data_ptr(view) == ptr + 4000
    check(xp, gp.cumsum(view), np.cumsum(x[1000:3000]), 1e-5,
          np.cumsum(np.abs(x[1000:3000].astype(np.float64))))
    out = gp.sort(view)
    assert xp.data_ptr(out) not in (ptr, ptr + 4000)
    np.testing.assert_array_equal(xp.to_numpy(d), x)  # the input is not modified
    # Results live on the input's device.
    if xp.name == "cupy":
        assert out.device.id == d.device.id
    else:
        assert out.device == d.device


def test_streams(xp):
    x = random_array(np.float64, 1 << 20, seed=11)
    d = xp.asarray(x)
    s = xp.new_stream()
    xp.synchronize()
    got = gp.cumsum(d, stream=s)
    s.synchronize()
    check(xp, got, np.cumsum(x), 1e-12, np.cumsum(np.abs(x)))
    handle = s.ptr if xp.name == "cupy" else s.cuda_stream
    got = gp.sort(d, stream=handle)
    s.synchronize()
    check(xp, got, np.sort(x))
    # The framework's current stream is the default.
    if xp.name == "cupy":
        with s:
            total = gp.sum(d)
    else:
        with xp.module.cuda.stream(s):
            total = gp.sum(d)
    s.synchronize()
    np.testing.assert_allclose(float(xp.to_numpy(total)), x.sum(), rtol=1e-12,
                               atol=1e-12 * magnitude(x))


def test_mixed_host_device(xp):
    d = xp.asarray(np.arange(10, dtype=np.int64))
    with pytest.raises(ValueError):
        gp.segmented_sum(d, np.array([0, 10], np.int64))
    with pytest.raises(ValueError):
        gp.sort_by_key(d, np.arange(10, dtype=np.int64))
    with pytest.raises(ValueError):
        gp.matmul(xp.asarray(np.ones((2, 2))), np.ones((2, 2)))
    with pytest.raises(TypeError):
        gp.sum(d, stream="fast")


def test_non_contiguous(xp):
    a = random_array(np.float64, 0, shape=(40, 30))
    d = xp.asarray(a)
    t = d.T  # made contiguous on the device by its own framework
    check(xp, gp.cumsum(t), np.cumsum(a.T), 1e-12, np.cumsum(np.abs(a.T)))


def test_torch_cpu_tensors():
    torch = pytest.importorskip("torch")
    x = torch.arange(10, dtype=torch.int32)
    s = gp.cumsum(x)
    assert isinstance(s, torch.Tensor) and s.device.type == "cpu"
    assert s.tolist() == np.cumsum(np.arange(10)).tolist()
    assert int(gp.sum(x)) == 45
