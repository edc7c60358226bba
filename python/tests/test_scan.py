"""Scans against NumPy: cumsum, cummax, cummin, exclusive_scan, segmented."""

import numpy as np
import pytest

import gpuprim as gp
from conftest import ALL_TYPES, every_type_and_size, random_array


def assert_close(got, want):
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape
    if want.dtype == np.float32:
        np.testing.assert_allclose(got, want, rtol=2e-4, atol=2e-3)
    elif want.dtype == np.float64:
        np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-9)
    else:
        np.testing.assert_array_equal(got, want)


@every_type_and_size
def test_cumsum(dtype, n):
    x = random_array(dtype, n, seed=n)
    before = x.copy()
    assert_close(gp.cumsum(x), np.cumsum(x))
    np.testing.assert_array_equal(x, before)


@pytest.mark.parametrize("dtype", ALL_TYPES)
@pytest.mark.parametrize("n", [0, 1, 33, 1025, 100_003])
def test_cummax_cummin(dtype, n):
    x = random_array(dtype, n, seed=n + 1)
    assert_close(gp.cummax(x), np.maximum.accumulate(x))
    assert_close(gp.cummin(x), np.minimum.accumulate(x))


def test_scan_nan_propagates():
    x = np.array([1.0, 3.0, np.nan, 5.0, 0.0])
    np.testing.assert_array_equal(gp.cummax(x), np.maximum.accumulate(x))
    np.testing.assert_array_equal(gp.cummin(x), np.minimum.accumulate(x))
    np.testing.assert_array_equal(gp.cumsum(x), np.cumsum(x))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("where", [0, 1, 5000, 99_999, 100_002])
def test_scan_nan_propagates_long(dtype, where):
    """A NaN anywhere (first, across the parallel scan's chunks, last) makes
    every later running max / min NaN, as np.maximum.accumulate; the NaN
    variants of the reductions skip it."""
    x = random_array(dtype, 100_003, seed=where)
    x[where] = np.nan
    np.testing.assert_array_equal(gp.cummax(x), np.maximum.accumulate(x))
    np.testing.assert_array_equal(gp.cummin(x), np.minimum.accumulate(x))
    assert gp.nanmin(x) == np.nanmin(x) and gp.nanmax(x) == np.nanmax(x)
    assert np.isnan(gp.min(x)) and np.isnan(gp.max(x))


@pytest.mark.parametrize("shape", [(3, 5), (1, 100), (100, 1), (0, 4), (4, 0), (2, 3, 4)])
def test_cumsum_rows(shape):
    x = random_array(np.int32, 0, shape=shape)
    assert_close(gp.cumsum(x, axis=-1), np.cumsum(x, axis=-1))
    # axis=None flattens.
    assert_close(gp.cumsum(x), np.cumsum(x))


@pytest.mark.parametrize("dtype", [np.int32, np.uint16, np.float32, np.float64])
@pytest.mark.parametrize("n", [0, 1, 31, 1025])
def test_exclusive_scan(dtype, n):
    x = random_array(dtype, n, seed=3)
    got = gp.exclusive_scan(x, "add", 5)
    want = np.concatenate([[0], np.cumsum(x)[:-1]]).astype(np.cumsum(x).dtype) + 5 if n else np.cumsum(x)
    assert_close(got, want.astype(np.cumsum(x).dtype))
    init = -7 if np.dtype(dtype).kind != "u" else 7
    got = gp.exclusive_scan(x, "max", init)
    want = np.maximum.accumulate(np.concatenate([[init], x[:-1]]).astype(dtype)) if n else x
    assert_close(got, want.astype(dtype))
    got = gp.exclusive_scan(x, "min", 100)
    want = np.minimum.accumulate(np.concatenate([[100], x[:-1]]).astype(dtype)) if n else x
    assert_close(got, want.astype(dtype))


def test_exclusive_scan_bad():
    with pytest.raises(ValueError):
        gp.exclusive_scan(np.arange(3), "mul", 1)
    with pytest.raises(TypeError):
        gp.exclusive_scan(np.arange(3), "add", 1.5)  # a float init for an integer scan
    with pytest.raises(TypeError):
        gp.exclusive_scan(np.arange(3.0), "add", "zero")


def reduceat_sum(x, offsets):
    acc = np.cumsum(x).dtype
    return np.array([x[a:b].sum(dtype=acc) for a, b in zip(offsets[:-1], offsets[1:])], dtype=acc)


@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.uint64, np.float32, np.float64])
def test_segmented(dtype):
    x = random_array(dtype, 1000, seed=4)
    offsets = np.array([0, 0, 3, 3, 500, 999, 1000], dtype=np.int64)
    assert_close(gp.segmented_sum(x, offsets), reduceat_sum(x, offsets))
    want = np.concatenate([np.cumsum(x[a:b]) for a, b in zip(offsets[:-1], offsets[1:])])
    assert_close(gp.segmented_cumsum(x, offsets), want.astype(np.cumsum(x).dtype))
    # Segments need not cover x for the sums; other integer offsets work on the host.
    sub = np.array([10, 20, 20, 40], dtype=np.int32)
    assert_close(gp.segmented_sum(x, sub), reduceat_sum(x, sub))


def test_segmented_bad_offsets():
    x = np.arange(10.0)
    for bad in ([], [3, 2], [0, 11], [-1, 3]):
        with pytest.raises(ValueError):
            gp.segmented_sum(x, np.array(bad, dtype=np.int64))
    with pytest.raises(ValueError):
        gp.segmented_cumsum(x, np.array([0, 5], dtype=np.int64))  # does not end at 10
    with pytest.raises(TypeError):
        gp.segmented_sum(x, np.array([0.0, 10.0]))
    with pytest.raises(ValueError):
        gp.segmented_sum(np.ones((2, 2)), np.array([0, 4]))


@pytest.mark.parametrize("name", ["cumsum", "cummax", "cummin"])
def test_bad_input(name):
    f = getattr(gp, name)
    with pytest.raises(TypeError):
        f(np.array(["a"]))
    with pytest.raises(TypeError):
        f(np.ones(3, np.float16))
    with pytest.raises(ValueError):
        f(np.ones((2, 3)), axis=2)


@pytest.mark.parametrize("dtype", [np.int32, np.uint8, np.float32, np.float64])
@pytest.mark.parametrize("shape", [(5, 7), (3, 4, 6), (0, 3), (3, 0), (1, 9)])
def test_cummax_cummin_axes(dtype, shape):
    x = random_array(dtype, 0, seed=11, shape=shape)
    if np.dtype(dtype).kind == "f" and x.size:
        x.flat[::5] = np.nan
    for axis in list(range(-len(shape), len(shape))) + [None]:
        for gp_fn, ufunc in ((gp.cummax, np.maximum), (gp.cummin, np.minimum)):
            got = gp_fn(x, axis=axis)
            want = ufunc.accumulate(x.ravel() if axis is None else x, axis=axis or 0)
            assert got.dtype == want.dtype and got.shape == want.shape
            np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_cumsum_complex(dtype):
    rng = np.random.default_rng(2)
    x = (rng.integers(-9, 9, (4, 6)) + 1j * rng.integers(-9, 9, (4, 6))).astype(dtype)
    x[1, 2] = complex(np.inf, np.nan)
    for axis in (None, 0, 1, -1):
        got = gp.cumsum(x, axis=axis)
        want = np.cumsum(x, axis=axis)
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(got, want)
    out = np.empty((4, 6), np.complex128)
    assert gp.cumsum(x, axis=0, dtype=np.complex128, out=out) is out
    np.testing.assert_array_equal(out, np.cumsum(x, axis=0, dtype=np.complex128))
    with pytest.raises(TypeError):
        gp.cumsum(x, dtype=np.float64)
