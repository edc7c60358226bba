"""Shared helpers: reference data and the GPU frameworks (CuPy, PyTorch).

GPU tests take the `xp` fixture, which is parametrized over the frameworks
and skips (never passes) when the package has no CUDA backend, the machine
has no CUDA device, or the framework is not installed.
"""

import numpy as np
import pytest

import gpuprim as gp

INT_TYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]
FLOAT_TYPES = [np.float32, np.float64]
ALL_TYPES = [np.bool_] + INT_TYPES + FLOAT_TYPES
SIZES = [0, 1, 2, 31, 32, 33, 1023, 1024, 1025, 100_003]


def every_type_and_size(test):
    """Parametrizes `test` over `dtype` (ALL_TYPES) and `n` (SIZES)."""
    return pytest.mark.parametrize("dtype", ALL_TYPES)(pytest.mark.parametrize("n", SIZES)(test))


def random_array(dtype, n, seed=0, shape=None):
    """Random values of `dtype` (integers over a good part of their range)."""
    rng = np.random.default_rng(seed)
    shape = (n,) if shape is None else shape
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return rng.integers(0, 2, size=shape).astype(np.bool_)
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        lo, hi = max(info.min, -1000), min(info.max, 1000)
        return rng.integers(lo, hi, size=shape, endpoint=True).astype(dtype)
    return (rng.standard_normal(size=shape) * 10).astype(dtype)


class Framework:
    """A GPU array framework: how to move arrays there and back (tests only)."""

    def __init__(self, name, module):
        self.name = name
        self.module = module

    def asarray(self, a):
        a = np.ascontiguousarray(a)
        if self.name == "cupy":
            return self.module.asarray(a)
        return self.module.from_numpy(a).cuda()

    def to_numpy(self, a):
        if self.name == "cupy":
            return self.module.asnumpy(a)
        return a.cpu().numpy()

    def array_type(self):
        return self.module.ndarray if self.name == "cupy" else self.module.Tensor

    def data_ptr(self, a):
        return a.data.ptr if self.name == "cupy" else a.data_ptr()

    def new_stream(self):
        if self.name == "cupy":
            return self.module.cuda.Stream(non_blocking=True)
        return self.module.cuda.Stream()

    def synchronize(self):
        if self.name == "cupy":
            self.module.cuda.runtime.deviceSynchronize()
        else:
            self.module.cuda.synchronize()


def _framework(name):
    if not gp.info()["cuda_built"]:
        pytest.skip("gpuprim was built without the CUDA backend")
    if not gp.cuda_available():
        pytest.skip("no CUDA device")
    try:
        if name == "cupy":
            import cupy as module

            if module.cuda.runtime.getDeviceCount() < 1:
                pytest.skip("CuPy sees no CUDA device")
        else:
            import torch as module

            if not module.cuda.is_available():
                pytest.skip("PyTorch sees no CUDA device")
    except ImportError:
        pytest.skip(f"{name} is not installed")
    return Framework(name, module)


@pytest.fixture(params=["cupy", "torch"])
def xp(request):
    return _framework(request.param)
