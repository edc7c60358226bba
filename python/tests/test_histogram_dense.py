"""histogram against numpy.histogram (counts and edges, exactly); transpose
and matmul against NumPy; info, cuda_available, tune."""

import numpy as np
import pytest

import gpuprim as gp
from conftest import random_array


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32,
                                   np.int64, np.float32, np.float64])
@pytest.mark.parametrize("n", [0, 1, 2, 31, 1025, 100_003])
@pytest.mark.parametrize("bins", [1, 7, 10, 256, 1000])
def test_histogram(dtype, n, bins):
    x = random_array(dtype, n, seed=n + bins)
    for rng in (None, (-3.5, 100.25), (0, 0)):
        counts, edges = gp.histogram(x, bins=bins, range=rng)
        want_counts, want_edges = np.histogram(x, bins=bins, range=rng)
        np.testing.assert_array_equal(counts, want_counts)
        np.testing.assert_array_equal(edges, want_edges)
        assert counts.dtype == want_counts.dtype and edges.dtype == want_edges.dtype


def test_histogram_edges_given_and_nan():
    x = np.array([0.0, 1.0, 2.0, 2.5, 10.0, np.nan, -1.0, 11.0])
    bins = np.array([0.0, 2.0, 5.0, 10.0])
    counts, edges = gp.histogram(x, bins=bins)
    want_counts, want_edges = np.histogram(x, bins=bins)
    np.testing.assert_array_equal(counts, want_counts)
    np.testing.assert_array_equal(edges, want_edges)
    counts, _ = gp.histogram(x, range=(0, 10))
    np.testing.assert_array_equal(counts, np.histogram(x, range=(0, 10))[0])


def test_histogram_bad():
    with pytest.raises(ValueError):
        gp.histogram(np.ones(3), bins=0)
    with pytest.raises(ValueError):
        gp.histogram(np.ones(3), range=(2, 1))
    with pytest.raises(ValueError):
        gp.histogram(np.ones(3), range=(0, np.inf))
    with pytest.raises(ValueError):
        gp.histogram(np.array([1.0, np.nan]))  # autodetected range not finite
    with pytest.raises(ValueError):
        gp.histogram(np.ones(3), bins=np.array([0.0, 2.0, 1.0]))
    with pytest.raises(TypeError):
        gp.histogram(np.ones(3, np.complex128))
    with pytest.raises(ValueError):  # numpy: too many values to unpack
        gp.histogram(np.ones(3), range="wide")
    with pytest.raises(ValueError, match="not a valid estimator"):
        gp.histogram(np.ones(3), bins="foo")


@pytest.mark.parametrize("dtype", [np.uint8, np.float16, np.int32, np.float64, np.complex128])
@pytest.mark.parametrize("shape", [(3, 5), (64, 33), (1, 7), (0, 3), (9,)])
def test_transpose(dtype, shape):
    if np.dtype(dtype) == np.complex128:
        with pytest.raises(TypeError):
            gp.transpose(np.zeros(shape, dtype))
        return
    a = random_array(np.float64, 0, shape=shape).astype(dtype)
    got = gp.transpose(a)
    np.testing.assert_array_equal(got, np.ascontiguousarray(a.T))
    assert got.flags.c_contiguous and got.dtype == a.dtype


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shapes", [((3, 4), (4, 5)), ((1, 1), (1, 1)), ((2, 3, 4), (2, 4, 5)),
                                    ((3, 4), (2, 4, 5)), ((2, 3, 4), (1, 4, 6)), ((0, 4), (4, 2)),
                                    ((3, 0), (0, 2))])
def test_matmul(dtype, shapes):
    a = random_array(dtype, 0, seed=1, shape=shapes[0])
    b = random_array(dtype, 0, seed=2, shape=shapes[1])
    got = gp.matmul(a, b)
    want = np.matmul(a, b)
    assert got.shape == want.shape and got.dtype == want.dtype
    tol = 1e-4 if dtype == np.float32 else 1e-12
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol * 100)


def test_matmul_bad():
    with pytest.raises(ValueError):
        gp.matmul(np.ones((2, 3)), np.ones((4, 5)))
    with pytest.raises(TypeError):
        gp.matmul(np.ones((2, 2), np.int32), np.ones((2, 2), np.int32))
    with pytest.raises(TypeError):
        gp.matmul(np.ones((2, 2), np.float32), np.ones((2, 2)))
    with pytest.raises(ValueError):
        gp.matmul(np.ones(3), np.ones(3))
    with pytest.raises(ValueError):
        gp.matmul(np.ones((2, 2, 2)), np.ones((3, 2, 2)))


def test_info():
    info = gp.info()
    assert info["version"] == gp.__version__
    assert isinstance(info["cuda_built"], bool)
    assert info["cpu_threads"] >= 1
    assert isinstance(gp.cuda_available(), bool)
    assert len(info["devices"]) == (1 if gp.cuda_available() else 0) or gp.cuda_available()


def test_tune():
    if not gp.cuda_available():
        with pytest.raises(ValueError):
            gp.tune("reduce")
        return
    with pytest.raises(ValueError):
        gp.tune("no-such-algorithm")
    r = gp.tune("reduce", "float32", 1 << 16, max_trials=3)
    assert r["algorithm"] == "reduce" and r["candidates"]
    assert r["winner"] in [c["config"] for c in r["candidates"]]
