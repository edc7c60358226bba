"""Sorts against NumPy: sort, argsort (stable), sort_by_key; NaN last."""

import numpy as np
import pytest

import gpuprim as gp
from conftest import ALL_TYPES, every_type_and_size, random_array


@every_type_and_size
def test_sort_1d(dtype, n):
    x = random_array(dtype, n, seed=n)
    before = x.copy()
    np.testing.assert_array_equal(gp.sort(x), np.sort(x), strict=True)
    np.testing.assert_array_equal(gp.argsort(x), np.argsort(x, kind="stable"))
    np.testing.assert_array_equal(x, before)


@pytest.mark.parametrize("dtype", ALL_TYPES)
@pytest.mark.parametrize("shape", [(3, 5), (7, 33), (64, 1), (1, 1000), (0, 4), (4, 0), (2, 3, 17)])
def test_sort_rows(dtype, shape):
    x = random_array(dtype, 0, seed=5, shape=shape)
    np.testing.assert_array_equal(gp.sort(x), np.sort(x, axis=-1))
    np.testing.assert_array_equal(gp.argsort(x), np.argsort(x, axis=-1, kind="stable"))
    np.testing.assert_array_equal(gp.sort(x, axis=None), np.sort(x, axis=None))
    np.testing.assert_array_equal(gp.argsort(x, axis=None), np.argsort(x, axis=None, kind="stable"))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_nan_last(dtype):
    x = np.array([2.0, np.nan, -0.0, 1.0, np.nan, -np.inf, 3.0, np.inf], dtype)
    np.testing.assert_array_equal(gp.sort(x), np.sort(x))
    np.testing.assert_array_equal(gp.argsort(x), np.argsort(x, kind="stable"))
    down = gp.sort(x, descending=True)
    np.testing.assert_array_equal(down[:6], np.sort(x)[:6][::-1])
    assert np.isnan(down[6:]).all()
    rows = np.stack([x, x[::-1]])
    np.testing.assert_array_equal(gp.sort(rows), np.sort(rows, axis=-1))
    np.testing.assert_array_equal(gp.argsort(rows), np.argsort(rows, axis=-1, kind="stable"))


def test_signed_zeros():
    # -0.0 sorts before +0.0 (NumPy keeps them in input order): a documented difference.
    x = np.array([0.0, -0.0, 0.0, -0.0])
    np.testing.assert_array_equal(gp.argsort(x), [1, 3, 0, 2])
    assert list(np.signbit(gp.sort(x))) == [True, True, False, False]


def test_descending_stable():
    x = np.array([1, 3, 1, 3, 2], np.int32)
    np.testing.assert_array_equal(gp.argsort(x, descending=True), [1, 3, 4, 0, 2])
    np.testing.assert_array_equal(gp.sort(x, descending=True), [3, 3, 2, 1, 1])


@pytest.mark.parametrize("vtype", [np.int32, np.float32, np.int64, np.float64, np.uint32])
@pytest.mark.parametrize("ktype", [np.int8, np.uint16, np.int32, np.float32, np.float64])
def test_sort_by_key(ktype, vtype):
    keys = random_array(ktype, 1000, seed=6)
    values = random_array(vtype, 1000, seed=7)
    k, v = gp.sort_by_key(keys, values)
    order = np.argsort(keys, kind="stable")
    np.testing.assert_array_equal(k, keys[order])
    np.testing.assert_array_equal(v, values[order])
    assert k.dtype == keys.dtype and v.dtype == values.dtype


def test_bad_input():
    with pytest.raises(TypeError):
        gp.sort(np.array(["b", "a"]))
    with pytest.raises(ValueError):
        gp.sort(np.ones((2, 3)), axis=2)
    with pytest.raises(ValueError):
        gp.sort(np.ones(3), kind="bogo")
    with pytest.raises(ValueError):
        gp.sort_by_key(np.ones(3), np.ones(4))
    with pytest.raises(TypeError):
        gp.sort_by_key(np.ones(3), np.ones(3, np.int16))  # values of 2 bytes
    with pytest.raises(ValueError):
        gp.sort_by_key(np.ones((3, 1)), np.ones(3))


def test_kind_as_numpy():
    # NumPy reads the first letter of kind (any case, str or bytes).
    x = np.array([3, 1, 2, 1], np.int32)
    for kind in ["q", "Heap", "M", "stable", "sx", b"quick"]:
        np.testing.assert_array_equal(gp.sort(x, kind=kind), np.sort(x, kind=kind))
        np.testing.assert_array_equal(gp.argsort(x, kind=kind), np.argsort(x, kind="stable"))
    with pytest.raises(ValueError, match="sort kind must be one of"):
        gp.sort(x, kind="")
    with pytest.raises(TypeError, match="sort kind must be str, not int"):
        gp.argsort(x, kind=1)
    with pytest.raises(ValueError, match="`kind` and keyword parameters can't be provided"):
        gp.argsort(x, kind="stable", stable=True)
    with pytest.raises(ValueError, match="Cannot specify order when the array has no fields"):
        gp.sort(x, order="a")


@pytest.mark.parametrize(
    "x, feature",
    [
        (np.array([1 + 2j, 1j]), "complex numbers"),
        (np.array([1, "a"], dtype=object), "object arrays"),
        (np.zeros(3, dtype=[("a", "i4"), ("b", "f8")]), "structured"),
        (np.arange(0, 3, dtype="datetime64[D]"), "datetime64"),
        (np.arange(0, 3, dtype="timedelta64[s]"), "timedelta64"),
        (np.array(["b", "a"]), "strings"),
        (np.array([b"b", b"a"]), "byte strings"),
        (np.ones(3, np.longdouble), "longdouble"),
    ],
)
def test_refused_dtypes_named(x, feature):
    if feature == "longdouble" and np.dtype(np.longdouble).itemsize <= 8:
        pytest.skip("longdouble is float64 here")
    for fn in (gp.sort, gp.argsort):
        with pytest.raises(TypeError, match=feature.replace("(", r"\(")):
            fn(x)


@pytest.mark.parametrize("dtype", [">f8", ">i4", ">u2", ">f2", "?"])
def test_byte_order_and_bool(dtype):
    x = random_array(np.dtype(dtype).newbyteorder("="), 0, seed=3, shape=(4, 9)).astype(dtype)
    for axis in (-1, 0, None):
        got = gp.sort(x, axis=axis)
        assert got.dtype == np.sort(x, axis=axis).dtype
        np.testing.assert_array_equal(got, np.sort(x, axis=axis))
        want = np.argsort(x, axis=axis, stable=True)
        np.testing.assert_array_equal(gp.argsort(x, axis=axis), want)
