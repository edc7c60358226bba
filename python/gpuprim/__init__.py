"""gpuprim: fast parallel primitives on NumPy, CuPy and PyTorch arrays.

NumPy arrays (and other buffer-protocol arrays) run on the CPU backend
(OpenMP); arrays on a CUDA device (CuPy, PyTorch, anything offering
``__cuda_array_interface__`` or ``__dlpack__``) run on the GPU, zero-copy,
and results come back as the input's kind of array. Names and semantics
follow NumPy's, so ``import gpuprim as np`` works for the functions here::

    import numpy as np, gpuprim as gp
    x = np.random.rand(1_000_000).astype(np.float32)
    gp.sum(x), gp.cumsum(x), gp.sort(x), gp.histogram(x, bins=64)

GPU calls are ordered on ``stream=`` (an int handle or a stream object) or
the input framework's current stream, and never synchronize: reductions
return 0-d device arrays.
"""

from ._core import __version__, cuda_available, histogram, info, tune
from ._dense import matmul, transpose
from ._reduction import (
    argmax,
    argmin,
    max,
    min,
    nanargmax,
    nanargmin,
    nanmax,
    nanmin,
    nansum,
    sum,
)
from ._scan import cummax, cummin, cumsum, exclusive_scan, segmented_cumsum, segmented_sum
from ._sort import argsort, sort, sort_by_key

__all__ = [
    "__version__",
    "argmax",
    "argmin",
    "argsort",
    "cuda_available",
    "cummax",
    "cummin",
    "cumsum",
    "exclusive_scan",
    "histogram",
    "info",
    "matmul",
    "max",
    "min",
    "nanargmax",
    "nanargmin",
    "nanmax",
    "nanmin",
    "nansum",
    "segmented_cumsum",
    "segmented_sum",
    "sort",
    "sort_by_key",
    "sum",
    "transpose",
    "tune",
]

from . import ndimage, sparse, spatial  # noqa: E402
