"""Reductions against NumPy: values, result types, axis=-1, NaN, bad input."""

import numpy as np
import pytest

import gpuprim as gp
from conftest import FLOAT_TYPES, every_type_and_size, random_array

SUMS = ["sum", "nansum"]
EXTREMES = ["min", "max", "nanmin", "nanmax"]
ARGS = ["argmin", "argmax", "nanargmin", "nanargmax"]


def check_value(got, want, dtype):
    assert type(got) is type(want), (type(got), type(want))
    if np.dtype(dtype) == np.float32 and np.issubdtype(type(want), np.floating):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-3)
    elif np.issubdtype(type(want), np.floating):
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-9)
    else:
        assert got == want


@every_type_and_size
@pytest.mark.parametrize("name", SUMS + EXTREMES + ARGS)
def test_all_elements(name, dtype, n):
    x = random_array(dtype, n, seed=n)
    before = x.copy()
    if n == 0 and name not in SUMS:
        with pytest.raises(ValueError):
            getattr(gp, name)(x)
        return
    want = getattr(np, name)(x)
    got = getattr(gp, name)(x)
    check_value(got, want, dtype)
    np.testing.assert_array_equal(x, before)


@pytest.mark.parametrize("dtype", [np.int32, np.uint8, np.float32, np.float64, np.bool_])
@pytest.mark.parametrize("shape", [(7, 33), (1, 1000), (1000, 3), (0, 5), (3, 4, 5)])
@pytest.mark.parametrize("name", SUMS + EXTREMES + ARGS)
def test_last_axis(name, dtype, shape):
    x = random_array(dtype, 0, seed=1, shape=shape)
    want = getattr(np, name)(x, axis=-1)
    got = getattr(gp, name)(x, axis=-1)
    assert isinstance(got, np.ndarray)
    assert got.dtype == want.dtype and got.shape == want.shape
    if np.dtype(dtype) == np.float32 and name in SUMS:
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-4)
    elif np.dtype(dtype) == np.float64 and name in SUMS:
        np.testing.assert_allclose(got, want, rtol=1e-13, atol=1e-12)
    else:
        np.testing.assert_array_equal(got, want)
    # axis=1 of a 2-D array is the same axis.
    if len(shape) == 2:
        np.testing.assert_array_equal(getattr(gp, name)(x, axis=1), got)


def test_empty_rows():
    assert gp.sum(np.zeros((4, 0), np.float32), axis=-1).tolist() == [0, 0, 0, 0]
    with pytest.raises(ValueError):
        gp.min(np.zeros((4, 0)), axis=-1)
    with pytest.raises(ValueError):
        gp.argmax(np.zeros((4, 0)), axis=-1)


@pytest.mark.parametrize("dtype", FLOAT_TYPES)
def test_nan_rules(dtype):
    x = np.array([3, np.nan, -1, np.nan, 7], dtype)
    for name in SUMS + EXTREMES + ARGS:
        want = getattr(np, name)(x)
        got = getattr(gp, name)(x)
        np.testing.assert_array_equal(got, want, err_msg=name)
    rows = np.array([[1, np.nan, 0], [np.nan, np.nan, 2]], dtype)
    for name in SUMS + EXTREMES + ARGS:
        np.testing.assert_array_equal(
            getattr(gp, name)(rows, axis=-1), getattr(np, name)(rows, axis=-1), err_msg=name
        )


def test_all_nan():
    x = np.full(5, np.nan)
    assert np.isnan(gp.nanmin(x)) and np.isnan(gp.nanmax(x))
    assert gp.nansum(x) == 0
    with pytest.raises(ValueError, match="All-NaN"):
        gp.nanargmin(x)
    with pytest.raises(ValueError, match="All-NaN"):
        gp.nanargmax(np.full((2, 3), np.nan), axis=-1)


def test_integer_sums_widen():
    x = np.full(10, np.iinfo(np.int32).max, np.int32)
    assert gp.sum(x) == 10 * int(np.iinfo(np.int32).max)
    assert gp.sum(np.full(3, 255, np.uint8)) == 765
    assert type(gp.sum(np.ones(3, np.uint16))) is np.uint64
    assert type(gp.sum(np.ones(3, np.bool_))) is np.int64


def test_other_inputs():
    assert gp.sum([1, 2, 3]) == 6
    assert gp.max((1.5, 2.5)) == 2.5
    assert gp.sum(np.arange(12.0).reshape(3, 4).T) == 66  # non-contiguous
    assert gp.sum(memoryview(np.arange(5, dtype=np.int32))) == 10
    assert gp.sum(np.float64(2.0)) == 2.0  # 0-d


class DLPackOnly:
    """An array that offers only the DLPack protocol (as JAX's do)."""

    def __init__(self, values):
        self.values = values

    def __dlpack__(self, **kwargs):
        return self.values.__dlpack__(**kwargs)

    def __dlpack_device__(self):
        return self.values.__dlpack_device__()


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int16, np.uint32, np.int64, np.float32])
def test_dlpack_producers(dtype):
    x = random_array(dtype, 1000, seed=5)
    assert gp.sum(DLPackOnly(x)) == gp.sum(x)  # the same values, read the same way
    assert gp.sum(DLPackOnly(x)) == pytest.approx(np.sum(x, dtype=np.float64), rel=1e-5)
    assert gp.max(DLPackOnly(x)) == np.max(x)


@pytest.mark.parametrize("name", SUMS + EXTREMES + ARGS)
def test_bad_input(name):
    f = getattr(gp, name)
    with pytest.raises(TypeError):
        f(np.array(["a", "b"]))
    with pytest.raises(TypeError):
        f(np.array([object(), 1], dtype=object))
    with pytest.raises(TypeError):
        f(np.ones(3, np.float16))
    with pytest.raises(TypeError):
        f(np.ones(3, np.complex64))
    with pytest.raises(TypeError):
        f("not an array")
    with pytest.raises(ValueError):
        f(np.ones((2, 3)), axis=2)  # numpy's AxisError is a ValueError
    with pytest.raises(TypeError):
        f(np.ones(3), axis="last")
    with pytest.raises(TypeError):
        f(np.ones(3), stream="fast")
