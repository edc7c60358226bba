"""Out of memory is an exception: a call whose scratch cannot be allocated
raises MemoryError naming the bytes asked for and the bytes free, and the
next call works. gpuprim.scratch_limit caps the scratch to force it.

The CPU tests check the cap and the translation through
_core._scratch_allocate (a draw from the library's scratch resource, the
one the GPU algorithms use; the host algorithms' temporary memory is host
memory, outside the cap). The GPU tests skip without a device."""

import re

import numpy as np
import pytest

import gpuprim as gp
from conftest import random_array

_MESSAGE = r"asked for (\d+) bytes, (\d+) bytes free"


def test_limit_raises_memory_error_naming_the_bytes():
    with gp.scratch_limit(1000):
        with pytest.raises(MemoryError, match=_MESSAGE) as info:
            gp._core._scratch_allocate(4096)
    asked, free = map(int, re.search(_MESSAGE, str(info.value)).groups())
    assert (asked, free) == (4096, 1000)
    assert "scratch_limit" in str(info.value)


def test_limits_nest_and_are_put_back():
    with gp.scratch_limit(100):
        with gp.scratch_limit(50):
            with pytest.raises(MemoryError, match="asked for 60 bytes, 50 bytes free"):
                gp._core._scratch_allocate(60)
        with pytest.raises(MemoryError, match="asked for 200 bytes, 100 bytes free"):
            gp._core._scratch_allocate(200)
        with gp.scratch_limit(None):  # no cap inside: the draw reaches the resource
            if not gp.cuda_available():
                with pytest.raises(RuntimeError):  # a build or machine without CUDA
                    gp._core._scratch_allocate(200)
    # The limit is gone: a draw of any size reaches the resource again.
    assert gp._core._set_scratch_limit(None) is None


def test_limit_is_put_back_when_the_block_raises():
    with pytest.raises(KeyError):
        with gp.scratch_limit(10):
            raise KeyError("x")
    assert gp._core._set_scratch_limit(None) is None


def test_bad_limits():
    with pytest.raises(TypeError):
        with gp.scratch_limit(1.5):
            pass
    with pytest.raises(ValueError, match=">= 0"):
        with gp.scratch_limit(-1):
            pass
    assert gp._core._set_scratch_limit(None) is None


def test_host_calls_do_not_draw_scratch():
    x = random_array(np.float32, 100_003, seed=3)
    with gp.scratch_limit(0):
        np.testing.assert_array_equal(gp.sort(x), np.sort(x))
        np.testing.assert_array_equal(gp.argsort(x), np.argsort(x, kind="stable"))
        x64 = x.astype(np.float64)
        np.testing.assert_allclose(gp.cumsum(x64), np.cumsum(x64), rtol=1e-12, atol=1e-9)
        counts, _ = gp.histogram(x, bins=17)
        np.testing.assert_array_equal(counts, np.histogram(x, bins=17)[0])


def test_gpu_call_past_the_limit_raises_and_the_next_works(xp):
    x = random_array(np.float32, 1 << 20, seed=5)
    d = xp.asarray(x)
    with gp.scratch_limit(1024):
        with pytest.raises(MemoryError, match=_MESSAGE):
            gp.sort(d)
        with pytest.raises(MemoryError, match=_MESSAGE):
            gp.argsort(d)
    xp.synchronize()
    assert np.array_equal(xp.to_numpy(gp.sort(d)), np.sort(x))
    assert np.array_equal(xp.to_numpy(gp.argsort(d)), np.argsort(x, kind="stable"))
    xp.synchronize()


def test_gpu_device_out_of_memory_raises_and_the_next_works(xp):
    # More than any GPU has: the stream-ordered pool refuses it.
    with pytest.raises(MemoryError, match=_MESSAGE) as info:
        gp._core._scratch_allocate(1 << 52)
    assert int(re.search(_MESSAGE, str(info.value)).group(1)) == 1 << 52
    x = random_array(np.int32, 100_003, seed=6)
    d = xp.asarray(x)
    assert np.array_equal(xp.to_numpy(gp.sort(d)), np.sort(x))
    assert int(xp.to_numpy(gp.sum(d))) == int(x.sum(dtype=np.int64))
