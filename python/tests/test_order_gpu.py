"""The order family on CUDA arrays (CuPy, PyTorch) against NumPy on the
copied-back results: searchsorted (ties, NaN, empty queries, scalars,
sorter), topk (ties, NaN, k = 1 and k = n, rows, axes). Skips without a
CUDA device, a CUDA build or the framework; topk skips only when the
library says its GPU backend is not built."""

import numpy as np
import pytest

import gpuprim as gp
from conftest import random_array

from test_order import check_topk, reference_order, sorted_table, topk_input, topk_ks


def host(xp, got):
    assert isinstance(got, xp.array_type()), type(got)
    return xp.to_numpy(got)


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.int16, np.uint16, np.int32, np.uint32,
                                   np.int64, np.uint64, np.float32, np.float64])
@pytest.mark.parametrize("n", [0, 1, 33, 100_003])
@pytest.mark.parametrize("side", ["left", "right"])
def test_gpu_searchsorted(xp, dtype, n, side):
    nans = 10 if np.dtype(dtype).kind == "f" else 0
    a = sorted_table(dtype, n, seed=n, nans=nans)
    v = np.concatenate([random_array(dtype, 500, seed=n + 1), a[::7]])
    if nans:
        v[::13] = np.nan
    da, dv = xp.asarray(a), xp.asarray(v)
    got = gp.searchsorted(da, dv, side=side)
    g = host(xp, got)
    assert g.dtype == np.int64 and g.shape == v.shape
    np.testing.assert_array_equal(g, np.searchsorted(a, v, side=side))
    np.testing.assert_array_equal(xp.to_numpy(da), a)


def test_gpu_searchsorted_shapes_scalars_sorter(xp):
    a = np.array([1.0, 2.0, 2.0, 3.0, np.nan], np.float32)
    da = xp.asarray(a)
    for v in (2, 2.0, np.float32(2.5), np.nan, -np.inf):
        for side in ("left", "right"):
            got = gp.searchsorted(da, v, side=side)
            assert host(xp, got).shape == ()
            assert int(host(xp, got)) == np.searchsorted(a, v, side=side)
    empty = gp.searchsorted(da, xp.asarray(np.zeros(0, np.float32)))
    assert host(xp, empty).shape == (0,)
    q = random_array(np.float32, 60, seed=4).reshape(3, 4, 5)
    np.testing.assert_array_equal(host(xp, gp.searchsorted(da, xp.asarray(q))),
                                  np.searchsorted(a, q))
    # an empty table
    e = xp.asarray(np.zeros(0, np.int32))
    assert host(xp, gp.searchsorted(e, xp.asarray(np.array([1, 2], np.int32)))).tolist() == [0, 0]
    # mixed dtypes: NumPy's common type
    b = np.array([1, 2, 4, 8], np.int16)
    qf = np.array([2.5, 4.0, -1e9])
    np.testing.assert_array_equal(host(xp, gp.searchsorted(xp.asarray(b), xp.asarray(qf))),
                                  np.searchsorted(b, qf))
    # sorter, as int64 and int32
    rng = np.random.default_rng(5)
    x = rng.standard_normal(2000)
    x[::17] = np.nan
    s = np.argsort(x)
    qq = rng.standard_normal(500)
    for side in ("left", "right"):
        for st in (np.int64, np.int32):
            got = gp.searchsorted(xp.asarray(x), xp.asarray(qq), side, sorter=xp.asarray(s.astype(st)))
            np.testing.assert_array_equal(host(xp, got), np.searchsorted(x, qq, side, sorter=s))


def test_gpu_searchsorted_refusals(xp):
    a = xp.asarray(np.arange(5.0))
    with pytest.raises(ValueError, match="side="):
        gp.searchsorted(a, 1, side="middle")
    with pytest.raises(ValueError, match="1-D"):
        gp.searchsorted(xp.asarray(np.zeros((5, 1))), 1)
    with pytest.raises(ValueError, match="sorter.size must equal a.size"):
        gp.searchsorted(a, 1, sorter=xp.asarray(np.array([0, 1])))
    with pytest.raises(ValueError, match="Sorter index out of range"):
        gp.searchsorted(a, 1, sorter=xp.asarray(np.array([0, 1, 2, 3, 5])))
    with pytest.raises(TypeError, match="sorter must hold integers"):
        gp.searchsorted(a, 1, sorter=xp.asarray(np.arange(5.0)))
    with pytest.raises(ValueError, match="on the host and on a GPU"):
        gp.searchsorted(a, np.array([1.0]))
    with pytest.raises(ValueError, match="on the host and on a GPU"):
        gp.searchsorted(np.arange(5.0), xp.asarray(np.array([1.0])))


def test_gpu_searchsorted_on_a_stream(xp):
    a = np.sort(random_array(np.float32, 10_000, seed=1))
    v = random_array(np.float32, 5000, seed=2)
    s = xp.new_stream()
    got = gp.searchsorted(xp.asarray(a), xp.asarray(v), stream=s)
    s.synchronize()
    np.testing.assert_array_equal(host(xp, got), np.searchsorted(a, v))


def gpu_topk(xp, d, k, **kw):
    """gp.topk on the device; skips only when the library says the GPU
    backend of the order family is not built."""
    try:
        return gp.topk(d, k, **kw)
    except RuntimeError as e:
        if "GPU backend of the order family is not built" in str(e):
            pytest.skip(str(e))
        raise


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.uint16, np.int32, np.uint32, np.int64,
                                   np.float16, np.float32, np.float64])
@pytest.mark.parametrize("n", [1, 2, 33, 1025, 100_003])
@pytest.mark.parametrize("largest", [True, False])
def test_gpu_topk_one_array(xp, dtype, n, largest):
    if xp.name == "torch" and dtype == np.uint16:
        pytest.skip("torch has few uint16 operations")
    x = topk_input(dtype, n)
    order = reference_order(x, largest)
    d = xp.asarray(x)
    for k in topk_ks(n):
        values, indices = gpu_topk(xp, d, k, largest=largest)
        check_topk(x, order, k, host(xp, values), host(xp, indices))
    np.testing.assert_array_equal(xp.to_numpy(d), x)


@pytest.mark.parametrize("dtype", [np.float32, np.int64, np.uint8])
@pytest.mark.parametrize(
    "shape,axis",
    [((7, 1), -1), ((300, 33), -1), ((64, 4096), -1), ((33, 300), 0), ((4, 5, 6), 1),
     ((2, 3, 4), -3)],
)
def test_gpu_topk_rows_and_axes(xp, dtype, shape, axis):
    x = random_array(dtype, 0, seed=sum(shape), shape=shape)
    if np.dtype(dtype).kind == "f":
        x.reshape(-1)[::7] = np.nan
    n = shape[axis]
    moved = np.moveaxis(x, axis, -1)
    d = xp.asarray(x)
    for largest in (True, False):
        order = reference_order(moved, largest)
        for k in sorted({1, 3, 64, n} & set(range(1, n + 1))):
            values, indices = gpu_topk(xp, d, k, largest=largest, axis=axis)
            want = np.moveaxis(order[..., :k], -1, axis)
            np.testing.assert_array_equal(host(xp, indices), want)
            np.testing.assert_array_equal(host(xp, values), np.take_along_axis(x, want, axis=axis))


def test_gpu_topk_k_zero_and_refusals(xp):
    d = xp.asarray(np.arange(6.0).reshape(2, 3))
    values, indices = gp.topk(d, 0)
    assert host(xp, values).shape == (2, 0) and host(xp, indices).dtype == np.int64
    with pytest.raises(ValueError, match=r"k \(4\) is out of range: the axis has 3 elements"):
        gp.topk(d, 4)
    with pytest.raises(TypeError, match="k must be an integer"):
        gp.topk(d, 1.5)
    with pytest.raises(np.exceptions.AxisError):
        gp.topk(d, 1, axis=2)


def test_gpu_partition_refused(xp):
    with pytest.raises(TypeError, match="not taken yet"):
        gp.partition(xp.asarray(np.arange(5.0)), 2)
