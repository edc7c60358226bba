"""gpuprim's functions as PyTorch custom operators, for torch.compile.

Loaded only when torch is (``import gpuprim`` never imports torch): by
``gpuprim/__init__.py`` when torch was imported first, by the first gpuprim
call that finds torch imported, or by ``gpuprim.register_torch_ops()``.
Each operator (``torch.ops.gpuprim.<name>``) runs gpuprim's own function on
the real tensors and has a fake (meta) function giving the result's shape
and dtype without running it, so ``torch.compile(fullgraph=True)`` traces
through it without a graph break. While torch.compile traces, gpuprim's
public functions (``gpuprim.sort(t)``, ...) call these operators themselves,
so compiled code calls gpuprim as eager code does.

The operators take CUDA tensors (run on the GPU, on torch's current
stream) and CPU tensors (run on gpuprim's CPU backend); results are
tensors on the input's device. Their dtypes are gpuprim's (NumPy's) rules:
sum and cumsum widen bool and signed integers to int64 and unsigned ones
to uint64 (torch gives int64 for both); histogram's edges are float32 for
float32 samples, else float64.

The operators: sort(x, dim, descending), argsort(x, dim, descending),
cumsum(x, dim), sum(x, dim, keepdim) (dim None: all elements),
histogram(x, bins, lo, hi) (even bins over a given range: the form whose
output size does not depend on the data), topk(x, k, dim, largest),
searchsorted(sorted_sequence, values, right).
"""

from typing import Optional

import numpy as np
import torch

from . import _histograms, _reduction, _scan, _sort, order

_UNSIGNED = {torch.uint8, getattr(torch, "uint16", None), getattr(torch, "uint32", None),
             getattr(torch, "uint64", None)} - {None}


def _sum_dtype(dtype):
    """gpuprim's (NumPy's) sum / cumsum type of a torch dtype."""
    if dtype.is_floating_point:
        return dtype
    if dtype in _UNSIGNED:
        return torch.uint64
    return torch.int64


def _tensor(result, like, dtype=None):
    """A result as a tensor on `like`'s device (gpuprim answers a torch CPU
    input with NumPy arrays or scalars in some functions)."""
    if not isinstance(result, torch.Tensor):
        result = torch.from_numpy(np.array(result, copy=True))
        result = result.to(like.device)
    if dtype is not None and result.dtype != dtype:
        result = result.to(dtype)
    return result.contiguous()


def _dim(dim, ndim):
    if not -max(ndim, 1) <= dim < max(ndim, 1):
        raise IndexError(f"dim {dim} is out of range for a tensor of {ndim} dimensions")
    return dim % max(ndim, 1)


# ---- sort, argsort ---------------------------------------------------------


def _sort_op(name, result_dtype):
    """gpuprim::sort or gpuprim::argsort (the function of _sort of that
    name) along dim; the result has x's shape and result_dtype(x)."""
    call = getattr(_sort, name)

    @torch.library.custom_op(f"gpuprim::{name}", mutates_args=())
    def op(x: torch.Tensor, dim: int = -1, descending: bool = False) -> torch.Tensor:
        return _tensor(call(x, axis=dim, descending=descending), x, result_dtype(x))

    @op.register_fake
    def _(x, dim=-1, descending=False):
        _dim(dim, x.dim())
        return x.new_empty(x.shape, dtype=result_dtype(x))

    return op


sort = _sort_op("sort", lambda x: x.dtype)
argsort = _sort_op("argsort", lambda x: torch.int64)


# ---- cumsum, sum -------------------------------------------------------------


@torch.library.custom_op("gpuprim::cumsum", mutates_args=())
def cumsum(x: torch.Tensor, dim: int) -> torch.Tensor:
    return _tensor(_scan.cumsum(x, axis=dim), x, _sum_dtype(x.dtype))


@cumsum.register_fake
def _(x, dim):
    _dim(dim, x.dim())
    return x.new_empty(x.shape, dtype=_sum_dtype(x.dtype))


@torch.library.custom_op("gpuprim::sum", mutates_args=())
def sum(x: torch.Tensor, dim: Optional[int] = None, keepdim: bool = False) -> torch.Tensor:
    return _tensor(_reduction.sum(x, axis=dim, keepdims=keepdim), x, _sum_dtype(x.dtype))


def _reduced_shape(shape, dim, keepdim):
    if dim is None:
        return [1] * len(shape) if keepdim else []
    d = _dim(dim, len(shape))
    shape = list(shape)
    if keepdim:
        shape[d] = 1
    else:
        del shape[d]
    return shape


@sum.register_fake
def _(x, dim=None, keepdim=False):
    return x.new_empty(_reduced_shape(x.shape, dim, keepdim), dtype=_sum_dtype(x.dtype))


# ---- histogram -----------------------------------------------------------------


def _edge_dtype(dtype):
    return torch.float32 if dtype in (torch.float32, torch.float16) else torch.float64


@torch.library.custom_op("gpuprim::histogram", mutates_args=())
def histogram(
    x: torch.Tensor, bins: int, lo: float, hi: float
) -> tuple[torch.Tensor, torch.Tensor]:
    counts, edges = _histograms.histogram(x, bins=bins, range=(lo, hi))
    return _tensor(counts, x, torch.int64), _tensor(edges, x, _edge_dtype(x.dtype))


@histogram.register_fake
def _(x, bins, lo, hi):
    if bins < 1:
        raise ValueError("`bins` must be positive, when an integer")
    counts = x.new_empty([bins], dtype=torch.int64)
    return counts, x.new_empty([bins + 1], dtype=_edge_dtype(x.dtype))


# ---- topk, searchsorted ---------------------------------------------------------


@torch.library.custom_op("gpuprim::topk", mutates_args=())
def topk(
    x: torch.Tensor, k: int, dim: int = -1, largest: bool = True
) -> tuple[torch.Tensor, torch.Tensor]:
    values, indices = order.topk(x, k, largest=largest, axis=dim)
    return _tensor(values, x, x.dtype), _tensor(indices, x, torch.int64)


@topk.register_fake
def _(x, k, dim=-1, largest=True):
    shape = list(x.shape)
    shape[_dim(dim, x.dim())] = k
    return x.new_empty(shape), x.new_empty(shape, dtype=torch.int64)


@torch.library.custom_op("gpuprim::searchsorted", mutates_args=())
def searchsorted(a: torch.Tensor, v: torch.Tensor, right: bool = False) -> torch.Tensor:
    result = order.searchsorted(a, v, side="right" if right else "left")
    return _tensor(result, v, torch.int64).reshape(v.shape)


@searchsorted.register_fake
def _(a, v, right=False):
    if a.dim() != 1:
        raise ValueError(f"searchsorted: a must be 1-D (got {a.dim()}-D)")
    return v.new_empty(v.shape, dtype=torch.int64)


Tensor = torch.Tensor

# True while torch.compile traces (the public functions then call the
# operators above); torch's own function, which the compiler folds to True.
compiling = torch.compiler.is_compiling
