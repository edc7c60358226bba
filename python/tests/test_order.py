"""The order family against NumPy: searchsorted (numpy.searchsorted), topk
(torch.topk's contract, checked against a stable NumPy sort), partition and
argpartition (numpy.partition's guarantees), on NumPy arrays; CUDA arrays
are in test_order_gpu.py."""

import numpy as np
import pytest

import gpuprim as gp
from conftest import ALL_TYPES, FLOAT_TYPES, every_type_and_size, random_array


def sorted_table(dtype, n, seed, nans=0):
    x = random_array(dtype, n, seed=seed)
    if n > 4:
        x[: n // 4] = x[n // 4]  # ties
    if nans and n:
        x[:: max(1, n // nans)] = np.nan
    return np.sort(x)


@every_type_and_size
@pytest.mark.parametrize("side", ["left", "right"])
def test_searchsorted_as_numpy(dtype, n, side):
    a = sorted_table(dtype, n, seed=n)
    v = np.concatenate([random_array(dtype, 500, seed=n + 1), a[::7]])
    before = a.copy()
    got = gp.searchsorted(a, v, side=side)
    assert got.dtype == np.intp
    np.testing.assert_array_equal(got, np.searchsorted(a, v, side=side))
    np.testing.assert_array_equal(a, before)


@pytest.mark.parametrize("dtype", FLOAT_TYPES + [np.float16])
@pytest.mark.parametrize("side", ["left", "right"])
def test_searchsorted_nan_last_and_nd_queries(dtype, side):
    a = sorted_table(dtype, 1000, seed=3, nans=20)
    assert np.isnan(a[-1])
    v = random_array(dtype, 60, seed=4).reshape(3, 4, 5)
    v[0, 0, :] = np.nan
    v[1, 1, :] = np.inf
    v[2, 2, :] = -np.inf
    got = gp.searchsorted(a, v, side=side)
    assert got.shape == v.shape
    np.testing.assert_array_equal(got, np.searchsorted(a, v, side=side))


def test_searchsorted_scalars_empty_and_sorter():
    a = np.array([1.0, 2.0, 2.0, 3.0])
    for v in (2, 2.0, np.float32(2.5), np.nan, -np.inf):
        for side in ("left", "right"):
            got = gp.searchsorted(a, v, side=side)
            want = np.searchsorted(a, v, side=side)
            assert type(got) is type(want) and got == want
    assert gp.searchsorted(a, np.array(2.0)).shape == ()
    assert gp.searchsorted(a, []).shape == (0,)
    assert gp.searchsorted(np.array([], dtype=np.int32), [1, 2]).tolist() == [0, 0]
    q2 = [[0, 5], [2, 3]]
    np.testing.assert_array_equal(gp.searchsorted(a, q2), np.searchsorted(a, q2))
    # mixed dtypes as NumPy's common type: int table, float queries
    b = np.array([1, 2, 4, 8], dtype=np.int16)
    qf = [2.5, 4.0, -1e9]
    np.testing.assert_array_equal(gp.searchsorted(b, qf), np.searchsorted(b, qf))
    # sorter
    rng = np.random.default_rng(5)
    x = rng.standard_normal(200)
    s = np.argsort(x)
    q = rng.standard_normal(50)
    for side in ("left", "right"):
        np.testing.assert_array_equal(
            gp.searchsorted(x, q, side, sorter=s), np.searchsorted(x, q, side, sorter=s)
        )


def test_searchsorted_refusals():
    a = np.arange(5.0)
    with pytest.raises(ValueError, match="side="):
        gp.searchsorted(a, 1, side="middle")
    with pytest.raises(ValueError, match="1-D"):
        gp.searchsorted(a.reshape(5, 1), 1)
    with pytest.raises(ValueError, match="sorter.size must equal a.size"):
        gp.searchsorted(a, 1, sorter=[0, 1])
    with pytest.raises(ValueError, match="Sorter index out of range"):
        gp.searchsorted(a, 1, sorter=[0, 1, 2, 3, 5])
    with pytest.raises(TypeError, match="complex128 is not taken"):
        gp.searchsorted(a.astype(complex), 1)
    with pytest.raises(TypeError, match="masked"):
        gp.searchsorted(np.ma.masked_array(a, mask=[0, 1, 0, 0, 0]), 1)


def reference_order(x, largest):
    """Indices along the last axis in top-k's order (NaN largest, ties by index)."""
    if not largest:
        return np.argsort(x, axis=-1, kind="stable")
    n = x.shape[-1]
    return (n - 1 - np.argsort(x[..., ::-1], axis=-1, kind="stable"))[..., ::-1]


def topk_input(dtype, n):
    """n random values, every fifth tied with the second and, for floats,
    every ninth NaN (past n = 8)."""
    x = random_array(dtype, n, seed=n)
    if n > 8:
        x[::5] = x[1]
        if np.dtype(dtype).kind == "f":
            x[::9] = np.nan
    return x


def topk_ks(n):
    """The k asked of an array of n: 1, 2, n // 2, n - 1 and n where in [1, n]."""
    return sorted(k for k in {1, 2, n // 2, n - 1, n} if 1 <= k <= n)


def check_topk(x, order, k, values, indices):
    """values and indices (NumPy arrays) are top-k's answer for x, its
    reference_order `order`."""
    assert values.dtype == x.dtype and indices.dtype == np.int64
    np.testing.assert_array_equal(indices, order[:k])
    np.testing.assert_array_equal(values, x[order[:k]])


@pytest.mark.parametrize("dtype", ALL_TYPES + [np.float16])
@pytest.mark.parametrize("n", [1, 2, 33, 1025, 100_003])
@pytest.mark.parametrize("largest", [True, False])
def test_topk_one_array(dtype, n, largest):
    x = topk_input(dtype, n)
    order = reference_order(x, largest)
    for k in topk_ks(n):
        values, indices = gp.topk(x, k, largest=largest)
        check_topk(x, order, k, values, indices)


@pytest.mark.parametrize("dtype", [np.float32, np.int64, np.uint8])
@pytest.mark.parametrize(
    "shape,axis", [((7, 1), -1), ((300, 33), -1), ((33, 300), 0), ((4, 5, 6), 1), ((2, 3, 4), -3)]
)
def test_topk_rows_and_axes(dtype, shape, axis):
    x = random_array(dtype, 0, seed=sum(shape), shape=shape)
    n = shape[axis]
    moved = np.moveaxis(x, axis, -1)
    for largest in (True, False):
        order = reference_order(moved, largest)
        for k in sorted({1, 3, n} & set(range(1, n + 1))):
            values, indices = gp.topk(x, k, largest=largest, axis=axis)
            want = np.moveaxis(order[..., :k], -1, axis)
            np.testing.assert_array_equal(indices, want)
            np.testing.assert_array_equal(values, np.take_along_axis(x, want, axis=axis))
    values, indices = gp.topk(x, 1, dim=axis)
    want = np.moveaxis(reference_order(moved, True)[..., :1], -1, axis)
    np.testing.assert_array_equal(indices, want)


def test_topk_k_zero_and_refusals():
    x = np.arange(6.0).reshape(2, 3)
    values, indices = gp.topk(x, 0)
    assert values.shape == (2, 0) and indices.shape == (2, 0) and indices.dtype == np.int64
    with pytest.raises(ValueError, match=r"k \(4\) is out of range: the axis has 3 elements"):
        gp.topk(x, 4)
    with pytest.raises(ValueError, match=r"k \(-1\) is out of range"):
        gp.topk(x, -1)
    with pytest.raises(TypeError, match="k must be an integer"):
        gp.topk(x, 1.5)
    with pytest.raises(np.exceptions.AxisError):
        gp.topk(x, 1, axis=2)
    with pytest.raises(ValueError, match="at least one dimension"):
        gp.topk(np.float64(3), 1)


def check_partitioned(part, a, kths, axis):
    """numpy.partition's guarantees along `axis`, NaN sorting last."""
    s = np.sort(a, axis=axis)
    p = np.moveaxis(part, axis, -1)
    s = np.moveaxis(s, axis, -1)
    np.testing.assert_array_equal(np.sort(p, axis=-1), s)  # a permutation of each row
    n = p.shape[-1]
    for k in kths:
        k = k + n if k < 0 else k
        np.testing.assert_array_equal(p[..., k], s[..., k])
        pivot = s[..., k : k + 1]
        if np.dtype(a.dtype).kind == "f":
            before_ok = (p[..., :k] <= pivot) | np.isnan(pivot)
            after_ok = (p[..., k + 1 :] >= pivot) | np.isnan(p[..., k + 1 :])
        else:
            before_ok = p[..., :k] <= pivot
            after_ok = p[..., k + 1 :] >= pivot
        assert before_ok.all() and after_ok.all()


@pytest.mark.parametrize("dtype", [np.bool_, np.int16, np.uint32, np.float32, np.float64])
@pytest.mark.parametrize("kth", [0, 5, -1, [2, 7], (0, 50, 99), -100])
def test_partition_and_argpartition(dtype, kth):
    a = random_array(dtype, 0, seed=9, shape=(6, 100))
    if np.dtype(dtype).kind == "f":
        a[:, ::11] = np.nan
    a[:, 3::4] = a[:, 1:2]  # ties
    before = a.copy()
    kths = list(np.atleast_1d(kth))
    part = gp.partition(a, kth)
    assert part.dtype == a.dtype and part.shape == a.shape
    check_partitioned(part, a, kths, -1)
    idx = gp.argpartition(a, kth)
    assert idx.dtype == np.intp
    np.testing.assert_array_equal(np.take_along_axis(a, idx, axis=-1), part)
    np.testing.assert_array_equal(a, before)
    # along axis 0 and flattened
    check_partitioned(gp.partition(a.T, kth, axis=0), a.T, kths, 0)
    flat = gp.partition(a, kth, axis=None)
    check_partitioned(flat, a.reshape(-1), kths, -1)


def test_partition_refusals():
    a = np.arange(5)
    with pytest.raises(ValueError, match=r"kth\(=5\) out of bounds \(5\)"):
        gp.partition(a, 5)
    with pytest.raises(ValueError, match=r"kth\(=-6\) out of bounds \(5\)"):
        gp.argpartition(a, -6)
    with pytest.raises(ValueError, match="kind must be 'introselect'"):
        gp.partition(a, 1, kind="quicksort")
    with pytest.raises(ValueError):
        gp.partition(a, True)
    with pytest.raises(TypeError):
        gp.partition(a, 1.5)
    with pytest.raises(np.exceptions.AxisError):
        gp.partition(a, 1, axis=1)
    assert gp.partition(np.zeros((0, 3)), 1).shape == (0, 3)


def test_sort_kind_stable_is_taken():
    x = np.array([3, 1, 2, 1], dtype=np.int32)
    np.testing.assert_array_equal(gp.sort(x, kind="stable"), np.sort(x, kind="stable"))
    np.testing.assert_array_equal(gp.argsort(x, kind="stable"), np.argsort(x, kind="stable"))
