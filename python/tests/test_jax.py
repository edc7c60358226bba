"""JAX arrays in, JAX arrays out: a jax.Array is read zero-copy (through
__dlpack__ on the CPU, __cuda_array_interface__ on the GPU) and the results
come back as jax.Array (jax.dlpack.from_dlpack of gpuprim's result; on the
GPU after the call's stream is waited for). Skipped without jax; the GPU
tests also without a GPU jax and a CUDA device."""

import numpy as np
import pytest

import gpuprim as gp
from conftest import random_array

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")


def _device(kind):
    if kind == "gpu":
        if not gp.cuda_available():
            pytest.skip("no CUDA device or a CPU-only gpuprim")
        try:
            return jax.devices("gpu")[0]
        except RuntimeError:
            pytest.skip("jax has no GPU backend here")
    return jax.devices("cpu")[0]


def _check(got, want, rtol=0.0, atol=0.0):
    assert isinstance(got, jax.Array), type(got)
    got = np.asarray(got)
    # JAX's own types: without jax_enable_x64 a 64-bit result becomes 32-bit.
    want = np.asarray(want)
    want = want.astype(jax.dtypes.canonicalize_dtype(want.dtype))
    assert got.shape == want.shape and got.dtype == want.dtype, (got.dtype, want.dtype)
    if rtol:
        np.testing.assert_allclose(got, want, rtol=rtol, atol=atol)
    else:
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("kind", ["cpu", "gpu"])
def test_jax_in_jax_out(kind):
    dev = _device(kind)
    x = random_array(np.float32, 10_007, seed=1)
    i = random_array(np.int32, 5_003, seed=2)
    m = random_array(np.float32, 0, seed=3, shape=(9, 130))
    jx, ji, jm = (jax.device_put(a, dev) for a in (x, i, m))
    _check(gp.sort(jx), np.sort(x))
    _check(gp.argsort(ji), np.argsort(i, kind="stable"))
    _check(gp.sort(jm), np.sort(m))
    _check(gp.cumsum(ji), np.cumsum(i))
    running = np.cumsum(x.astype(np.float64)).astype(np.float32)
    _check(gp.cumsum(jx), running, rtol=1e-4, atol=1e-2)
    _check(gp.sum(ji), np.sum(i))
    _check(gp.max(jx), np.max(x))
    _check(gp.argmin(jx), np.argmin(x))
    _check(gp.sum(jm, axis=-1), m.sum(axis=-1), rtol=1e-4)
    _check(gp.transpose(jm), np.ascontiguousarray(m.T))
    _check(gp.matmul(jm, jax.device_put(np.ascontiguousarray(m.T), dev)), m @ m.T, rtol=1e-4)
    counts, edges = gp.histogram(jx, bins=12, range=(-20.0, 20.0))
    want_counts, want_edges = np.histogram(x, bins=12, range=(-20.0, 20.0))
    _check(counts, want_counts)
    np.testing.assert_allclose(np.asarray(edges), want_edges, rtol=1e-6)
    u = gp.unique(ji)
    _check(u, np.unique(i))
    _check(gp.flatnonzero(ji), np.flatnonzero(i))
    for r in (gp.sort(jx), gp.cumsum(ji)):
        assert r.devices() == {dev}


def test_jax_input_is_not_written():
    dev = _device("cpu")
    x = random_array(np.float32, 1000, seed=4)
    jx = jax.device_put(x, dev)
    gp.sort(jx)
    gp.cumsum(jx)
    np.testing.assert_array_equal(np.asarray(jx), x)
