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

import os as _os
import sys as _sys

# OpenMP threads that wait sleep instead of spinning, unless the user chose:
# on a machine whose other cores are busy a spinning thread takes the core
# its partner needs. The OpenMP runtime reads this once, as it loads, which
# is when the extension below is imported.
_os.environ.setdefault("OMP_WAIT_POLICY", "passive")

# NumPy's argument rules are in the Python modules (_reduction, _scan,
# _sort, _dense, _histograms); _core below them takes typed arguments.
from ._core import __version__, cuda_available, info, tune  # noqa: E402
from ._dense import matmul, transpose  # noqa: E402
from ._memory import scratch_limit  # noqa: E402
from . import _arrays  # noqa: E402
from ._reduction import (  # noqa: E402
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
from ._scan import (  # noqa: E402
    cummax,
    cummin,
    cumsum,
    exclusive_scan,
    segmented_cumsum,
    segmented_sum,
)
from ._sort import argsort, sort, sort_by_key  # noqa: E402

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
    "register_torch_ops",
    "scratch_limit",
    "segmented_cumsum",
    "segmented_sum",
    "sort",
    "sort_by_key",
    "sum",
    "transpose",
    "tune",
]

from ._histograms import histogram  # noqa: E402
from . import ndimage, sparse, spatial  # noqa: E402
from .select import *  # noqa: E402,F401,F403
from .select import __all__ as _select_all  # noqa: E402

__all__ += _select_all
from .order import *  # noqa: E402,F401,F403
from .order import __all__ as _order_all  # noqa: E402

__all__ += _order_all


def register_torch_ops():
    """Registers gpuprim's functions as PyTorch custom operators
    (``torch.ops.gpuprim.sort``, ...: see gpuprim/_torch_ops.py), so that
    ``torch.compile(fullgraph=True)`` traces through sort, argsort, cumsum,
    sum, histogram (int bins with a range), topk and searchsorted. Done by
    itself when torch is imported before gpuprim, or at the first gpuprim
    call after torch is imported; call it when the first call is compiled."""
    return _arrays.load_torch_ops()


if "torch" in _sys.modules:  # registered now; gpuprim never imports torch itself
    register_torch_ops()
