"""Selection against NumPy (and torch.unique_consecutive's rules): nonzero,
flatnonzero, count_nonzero, extract, compress, unique, unique_consecutive; on
NumPy arrays here, on CuPy / PyTorch arrays where a GPU is present."""

import numpy as np
import pytest

import gpuprim as gp
from conftest import ALL_TYPES, every_type_and_size, random_array


def with_zeros(dtype, n, seed):
    x = random_array(dtype, n, seed=seed)
    x[::3] = 0
    return x


def runs(dtype, n, seed):
    """Values in runs of 1 to 7, a few distinct ones."""
    rng = np.random.default_rng(seed)
    return np.repeat(rng.integers(0, 20, size=n), rng.integers(1, 8, size=n))[:n].astype(dtype)


@every_type_and_size
def test_nonzero_flatnonzero_count_nonzero(dtype, n):
    x = with_zeros(dtype, n, seed=n)
    before = x.copy()
    want = np.flatnonzero(x).astype(np.int64)
    np.testing.assert_array_equal(gp.flatnonzero(x), want, strict=True)
    (idx,) = gp.nonzero(x)
    np.testing.assert_array_equal(idx, np.nonzero(x)[0])
    c = gp.count_nonzero(x)
    assert isinstance(c, int) and c == np.count_nonzero(x)
    np.testing.assert_array_equal(x, before)


@pytest.mark.parametrize("shape", [(3, 5), (7, 1, 33), (0, 4), (2, 3, 4, 5)])
def test_nonzero_of_every_dimension(shape):
    x = with_zeros(np.float32, 0, seed=3) if 0 in shape else None
    x = np.random.default_rng(1).integers(0, 3, size=shape).astype(np.float32)
    got = gp.nonzero(x)
    want = np.nonzero(x)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g.dtype == np.int64
        np.testing.assert_array_equal(g, w)


def test_nonzero_floats_nan_and_negative_zero():
    x = np.array([0.0, -0.0, np.nan, 1.0, -np.inf, 0.0], np.float32)
    np.testing.assert_array_equal(gp.flatnonzero(x), np.flatnonzero(x))
    assert gp.count_nonzero(x) == np.count_nonzero(x) == 3


def test_nonzero_refuses_0d_and_axis():
    with pytest.raises(ValueError, match="0d"):
        gp.nonzero(np.float32(1))
    with pytest.raises(ValueError, match="axis"):
        gp.count_nonzero(np.ones((2, 2)), axis=0)
    with pytest.raises(TypeError, match="float16"):
        gp.flatnonzero(np.ones(3, np.float16))


@pytest.mark.parametrize("dtype", ALL_TYPES)
@pytest.mark.parametrize("n", [0, 1, 1025, 100_003])
def test_extract_and_compress(dtype, n):
    x = random_array(dtype, n, seed=n + 1)
    cond = random_array(np.bool_, n, seed=n + 2)
    np.testing.assert_array_equal(gp.extract(cond, x), np.extract(cond, x))
    icond = random_array(np.int32, n, seed=n + 3) % 3
    np.testing.assert_array_equal(gp.extract(icond, x), np.extract(icond, x))
    np.testing.assert_array_equal(gp.compress(cond, x), np.compress(cond, x))
    short = cond[: n // 2]
    np.testing.assert_array_equal(gp.compress(short, x), np.compress(short, x))


def test_extract_and_compress_refuse_bad_input():
    x = np.arange(10)
    with pytest.raises(ValueError, match="condition has 9 elements"):
        gp.extract(np.ones(9, bool), x)
    long = np.zeros(12, bool)
    np.testing.assert_array_equal(gp.compress(long, x), np.compress(long, x))
    long[11] = True
    with pytest.raises(IndexError):
        np.compress(long, x)
    with pytest.raises(IndexError):
        gp.compress(long, x)
    with pytest.raises(ValueError, match="axis"):
        gp.compress(np.ones(2, bool), np.ones((2, 2)), axis=0)


def check_unique(x):
    want = np.unique(x, return_index=True, return_inverse=True, return_counts=True)
    got = gp.unique(x, return_index=True, return_inverse=True, return_counts=True)
    assert len(got) == 4
    for g, w, name in zip(got, want, ["values", "index", "inverse", "counts"]):
        assert g.shape == w.shape, name
        np.testing.assert_array_equal(g, w, err_msg=name)
    np.testing.assert_array_equal(gp.unique(x), np.unique(x))
    u, c = gp.unique(x, return_counts=True)
    np.testing.assert_array_equal(c, want[3])


@every_type_and_size
def test_unique_as_numpy(dtype, n):
    check_unique(runs(dtype, n, seed=n))
    check_unique(random_array(dtype, n, seed=n + 7))


def test_unique_nan_rule_and_shapes():
    x = np.array([[3.0, np.nan, 1.0], [np.nan, 3.0, -np.inf]], np.float64)
    check_unique(x)
    assert np.isnan(gp.unique(x)[-1]) and gp.unique(x).size == 4
    np.testing.assert_array_equal(gp.unique(x, equal_nan=False), np.unique(x, equal_nan=False))
    check_unique(np.array([], np.float32))
    with pytest.raises(ValueError, match="axis"):
        gp.unique(x, axis=0)


def reference_unique_consecutive(x):
    x = x.reshape(-1)
    if x.size == 0:
        return x, np.zeros(0, np.int64), np.zeros(0, np.int64)
    heads = np.concatenate([[True], x[1:] != x[:-1]])
    starts = np.flatnonzero(heads)
    counts = np.diff(np.append(starts, x.size))
    return x[starts], np.cumsum(heads) - 1, counts


@pytest.mark.parametrize("dtype", ALL_TYPES)
@pytest.mark.parametrize("n", [0, 1, 2, 1025, 100_003])
def test_unique_consecutive(dtype, n):
    x = runs(dtype, n, seed=n + 11)
    u, inverse, counts = reference_unique_consecutive(x)
    np.testing.assert_array_equal(gp.unique_consecutive(x), u)
    got_u, got_counts = gp.unique_consecutive(x, return_counts=True)
    np.testing.assert_array_equal(got_u, u)
    np.testing.assert_array_equal(got_counts, counts)
    got_u, got_inverse, got_counts = gp.unique_consecutive(x, True, True)
    np.testing.assert_array_equal(got_inverse, inverse)
    np.testing.assert_array_equal(got_counts, counts)


def test_unique_consecutive_keeps_every_nan():
    # torch.unique_consecutive: NaN never equals NaN.
    x = np.array([1.0, np.nan, np.nan, 2.0, 2.0], np.float32)
    u, c = gp.unique_consecutive(x, return_counts=True)
    assert u.size == 4 and np.isnan(u[1]) and np.isnan(u[2])
    np.testing.assert_array_equal(c, [1, 1, 1, 2])


# ---- GPU: the same answers on CuPy / PyTorch arrays, results of their kind.

GPU_TYPES = [np.bool_, np.int8, np.uint8, np.int32, np.uint32, np.int64, np.uint64, np.float32,
             np.float64]


@pytest.mark.parametrize("dtype", GPU_TYPES)
def test_gpu_selection(xp, dtype):
    n = 300_007
    x = with_zeros(dtype, n, seed=5)
    d = xp.asarray(x)
    got = gp.flatnonzero(d)
    assert isinstance(got, xp.array_type())
    np.testing.assert_array_equal(xp.to_numpy(got), np.flatnonzero(x))
    assert gp.count_nonzero(d) == np.count_nonzero(x)
    cond = random_array(np.bool_, n, seed=6)
    np.testing.assert_array_equal(xp.to_numpy(gp.extract(xp.asarray(cond), d)),
                                  np.extract(cond, x))
    r = runs(dtype, n, seed=7)
    want = np.unique(r, return_index=True, return_inverse=True, return_counts=True)
    got = gp.unique(xp.asarray(r), return_index=True, return_inverse=True, return_counts=True)
    for g, w in zip(got, want):
        assert isinstance(g, xp.array_type())
        np.testing.assert_array_equal(xp.to_numpy(g), w)
    u, inverse, counts = reference_unique_consecutive(r)
    got = gp.unique_consecutive(xp.asarray(r), True, True)
    for g, w in zip(got, (u, inverse, counts)):
        np.testing.assert_array_equal(xp.to_numpy(g), w)


def test_gpu_nonzero_2d_and_nan(xp):
    x = np.random.default_rng(2).integers(0, 3, size=(300, 701)).astype(np.float32)
    x[5, 7] = np.nan
    got = gp.nonzero(xp.asarray(x))
    for g, w in zip(got, np.nonzero(x)):
        np.testing.assert_array_equal(xp.to_numpy(g), w)
    check = np.array([2.0, np.nan, 1.0, np.nan, 2.0], np.float32)
    np.testing.assert_array_equal(xp.to_numpy(gp.unique(xp.asarray(check))), np.unique(check))
