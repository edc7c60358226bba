"""gpuprim.spatial.closest_pair against a brute-force NumPy answer; bad input."""

import numpy as np
import pytest

import gpuprim as gp


def brute_force(p):
    """(i, j, distance) minimizing the distance, least (i, j) among ties."""
    q = p.astype(np.float64)
    d2 = ((q[:, None, :] - q[None, :, :]) ** 2).sum(-1)
    n = len(q)
    d2[np.tril_indices(n)] = np.inf
    k = int(np.argmin(d2))  # row-major: the least (i, j) among equal minima
    i, j = divmod(k, n)
    return i, j, float(np.sqrt(d2[i, j]))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("dim", [2, 3])
@pytest.mark.parametrize("n", [2, 3, 17, 500, 3000])
def test_random(n, dim, dtype):
    p = np.random.default_rng(n + dim).random((n, dim)).astype(dtype)
    before = p.copy()
    i, j, d = gp.spatial.closest_pair(p)
    assert type(i) is int and type(j) is int and type(d) is float
    wi, wj, wd = brute_force(p)
    assert (i, j) == (wi, wj)
    assert d == pytest.approx(wd, rel=1e-12)
    np.testing.assert_array_equal(p, before)


def test_ties_and_duplicates():
    grid = np.array([[x, y] for x in range(5) for y in range(5)], np.float64)
    assert gp.spatial.closest_pair(grid) == (0, 1, 1.0)
    p = np.array([[0.0, 0.0], [5.0, 5.0], [1.0, 1.0], [5.0, 5.0], [1.0, 1.0]])
    assert gp.spatial.closest_pair(p) == (1, 3, 0.0)


def test_bad_input():
    with pytest.raises(ValueError):
        gp.spatial.closest_pair(np.zeros((1, 2)))
    with pytest.raises(ValueError):
        gp.spatial.closest_pair(np.zeros((0, 3)))
    with pytest.raises(ValueError):
        gp.spatial.closest_pair(np.zeros((5, 4)))
    with pytest.raises(ValueError):
        gp.spatial.closest_pair(np.zeros(10))
    with pytest.raises(TypeError):
        gp.spatial.closest_pair(np.zeros((5, 2), np.int32))
    with pytest.raises(TypeError):
        gp.spatial.closest_pair(np.array([[object(), object()]] * 3))
    p = np.random.default_rng(0).random((10, 2))
    p[4, 1] = np.nan
    with pytest.raises(ValueError):
        gp.spatial.closest_pair(p)


def test_gpu(xp):
    p = np.random.default_rng(5).random((20000, 2)).astype(np.float32)
    want = gp.spatial.closest_pair(p)
    assert gp.spatial.closest_pair(xp.asarray(p)) == want
    assert gp.spatial.closest_pair(xp.asarray(p), stream=xp.new_stream()) == want
    with pytest.raises(ValueError):
        gp.spatial.closest_pair(xp.asarray(np.zeros((1, 3))))
