"""NumPy's argument rules, shared by the package's functions.

The compiled core (``gpuprim._core``) takes typed arguments: an array, a
flag for "along the last axis", an operator enum. What NumPy accepts in
their place (``axis=-2``, ``keepdims``, ``kind='mergesort'``, ...) is turned
into them here and in the family modules beside this one (``_reduction``,
``_scan``, ``_sort``), each function a few readable lines, as CuPy keeps
its argument logic in Python.
"""

import operator
import sys

import numpy as np

try:
    from numpy.exceptions import AxisError
except ImportError:  # NumPy < 1.25
    AxisError = np.AxisError


def framework(x):
    """'numpy', 'cupy' or 'torch' for arrays of those, else None."""
    module = type(x).__module__.split(".")[0]
    return module if module in ("numpy", "cupy", "torch") else None


def ndim_of(x):
    """Dimensions of an array argument (lists and scalars as NumPy reads them)."""
    n = getattr(x, "ndim", None)
    return np.ndim(x) if n is None else int(n)


def normalize_axis(fn, axis, ndim):
    """NumPy's single axis: None, or an integer in [-ndim, ndim) made
    non-negative. A bool is refused (TypeError), as numpy.sum refuses it;
    an axis out of range raises numpy's AxisError (a ValueError)."""
    if axis is None:
        return None
    if isinstance(axis, (bool, np.bool_)):
        raise TypeError(f"{fn}: axis must be None or an integer, not bool")
    try:
        a = operator.index(axis)
    except TypeError:
        raise TypeError(
            f"{fn}: axis must be None or an integer (got {type(axis).__name__})"
        ) from None
    if not -ndim <= a < ndim:
        raise AxisError(f"{fn}: axis {a} is out of bounds for array of dimension {ndim}")
    return a % ndim


def move_axis_last(fn, x, axis):
    """x with `axis` moved to the end, by x's own framework (a view; the core
    makes it contiguous on x's device)."""
    kind = framework(x)
    if kind == "numpy" or kind is None and isinstance(x, (list, tuple, int, float, bool)):
        return np.moveaxis(np.asarray(x), axis, -1)
    if kind == "cupy":
        import cupy

        return cupy.moveaxis(x, axis, -1)
    if kind == "torch":
        return x.movedim(axis, -1)
    raise ValueError(
        f"{fn}: axis={axis} of a {type(x).__name__} is not supported; for arrays other than "
        "NumPy, CuPy and PyTorch gpuprim takes the last axis or axis=None"
    )


def move_last_axis_back(x, axis):
    """The inverse of move_axis_last for a result of the moved shape."""
    kind = framework(x)
    if kind == "cupy":
        import cupy

        return cupy.moveaxis(x, -1, axis)
    if kind == "torch":
        return x.movedim(-1, axis)
    return np.moveaxis(x, -1, axis)


def expand_axis(x, axis):
    """A reduction's result with the reduced axis kept as length 1 (keepdims)."""
    kind = framework(x)
    if kind == "cupy":
        import cupy

        return cupy.expand_dims(x, axis)
    if kind == "torch":
        return x.unsqueeze(axis)
    return np.expand_dims(np.asarray(x), axis)


def refuse_unsupported(fn, name, value, default=None):
    """TypeError naming a NumPy argument gpuprim does not take (yet), when
    it is given a value other than its default."""
    if value is not default:
        raise TypeError(f"{fn}: the argument {name}= is not supported by gpuprim")


def on_device(x):
    """Whether x is a GPU array: a CuPy array, a CUDA PyTorch tensor, or
    another array with __cuda_array_interface__ or a non-CPU
    __dlpack_device__. CuPy and PyTorch are answered from their type and
    ``is_cuda``: a tensor's __cuda_array_interface__ builds its whole dict
    (microseconds on every small call)."""
    kind = framework(x)
    if kind == "numpy":
        return False
    if kind == "cupy":
        return True
    if kind == "torch":
        return bool(getattr(x, "is_cuda", False))
    if hasattr(x, "__cuda_array_interface__"):
        return True
    device = getattr(x, "__dlpack_device__", None)
    try:
        return device is not None and device()[0] != 1  # 1: kDLCPU
    except Exception:
        return False


_TORCH_DTYPES = {}  # torch dtype -> NumPy dtype, filled as met


def dtype_of(x):
    """The NumPy dtype of an array argument (PyTorch's by name)."""
    dt = getattr(x, "dtype", None)
    if dt is None:
        return np.asarray(x).dtype
    if framework(x) == "torch":
        found = _TORCH_DTYPES.get(dt)
        if found is None:
            found = _TORCH_DTYPES[dt] = np.dtype(str(dt).replace("torch.", ""))
        return found
    return np.dtype(dt)


def shape_of(x):
    shape = getattr(x, "shape", None)
    return np.shape(x) if shape is None else tuple(int(s) for s in shape)


def sum_type(dtype):
    """NumPy's sum / cumsum result type: bool and signed integers -> int64,
    unsigned -> uint64, floats as they are."""
    if dtype.kind in "bi":
        return np.dtype(np.int64)
    if dtype.kind == "u":
        return np.dtype(np.uint64)
    return dtype


def _device_of(x):
    kind = framework(x)
    if kind == "cupy":
        return ("cupy", x.device.id)
    if kind == "torch":
        return ("torch", str(x.device))
    if kind == "numpy":
        return ("numpy", None)
    return (type(x).__name__, None)


def check_out(fn, out, x, shape, dtype, casting="unsafe"):
    """NumPy's out=: an array of the result's shape, of x's kind and device,
    whose dtype the result may be cast to under `casting` (NumPy's rule:
    'unsafe' for the reductions and cumulative functions, which compute in
    their own type and cast into out; 'same_kind' for matmul); checked
    before any work (TypeError for the kind or dtype, ValueError for the
    shape)."""
    kind = framework(out)
    if kind is None or _device_of(out) != _device_of(np.asarray(x) if framework(x) is None else x):
        raise TypeError(
            f"{fn}: out must be an array of the input's kind and device "
            f"(got {type(out).__name__})"
        )
    have = dtype_of(out)
    if have != dtype and (have.kind not in "biufc" or not np.can_cast(dtype, have, casting)):
        raise TypeError(
            f"{fn}: out has dtype {have}; the result ({dtype}) cannot be cast to it "
            f"with casting={casting!r}"
        )
    if shape_of(out) != tuple(shape):
        raise ValueError(f"{fn}: out has shape {shape_of(out)}, the result {tuple(shape)}")


def write_out(out, result):
    """Copies a result into out= (by out's framework, on its device, cast to
    out's dtype as check_out allowed) and returns out."""
    kind = framework(out)
    if kind == "torch":
        out.copy_(result)
    elif kind == "cupy":
        out[...] = result
    else:
        np.copyto(out, result, casting="unsafe")
    return out


def as_dtype(fn, x, dtype):
    """x converted to `dtype` by its framework (dtype= of sum, cumsum: NumPy
    casts the elements before it adds them)."""
    try:
        want = np.dtype(dtype)
    except TypeError:
        raise TypeError(f"{fn}: dtype {dtype!r} is not a NumPy dtype") from None
    if want.kind not in "iuf":
        raise TypeError(f"{fn}: dtype {want} is not taken (integers and floats)")
    if dtype_of(x) == want:
        return x, want
    kind = framework(x)
    if kind == "torch":
        import torch

        return x.to(getattr(torch, want.name)), want
    if kind == "cupy":
        return x.astype(want), want
    if kind == "numpy" or kind is None:
        return np.asarray(x).astype(want), want
    raise TypeError(f"{fn}: dtype= takes NumPy, CuPy and PyTorch arrays (got {type(x).__name__})")


def cast_result(x, dtype):
    """A result converted to `dtype` by its framework, wrapping integers as
    NumPy's accumulation in that dtype would (a NumPy scalar stays one)."""
    kind = framework(x)
    if kind == "torch":
        import torch

        return x.to(getattr(torch, dtype.name))
    if kind == "cupy":
        return x.astype(dtype)
    if isinstance(x, np.generic):
        return np.asarray(x).astype(dtype)[()]
    return np.asarray(x).astype(dtype)


def axis_and_dtype(fn, x, axis, dtype):
    """What a reduction or scan with axis= and dtype= starts from: x
    converted to dtype (NumPy computes in dtype), x's number of axes, the
    axis normalized (None: all of them) and the dtype asked for (None when
    not given)."""
    ndim = ndim_of(x)
    ax = normalize_axis(fn, axis, ndim)
    want = None
    if dtype is not None:
        x, want = as_dtype(fn, x, dtype)
    return x, ndim, ax, want


def wrap_to_dtype(result, want):
    """A sum computed in a widened type (sum_type(want)) cast back to the
    dtype asked for, wrapping as NumPy's accumulation in it would."""
    if want is not None and want != sum_type(want):
        return cast_result(result, want)
    return result


# gpuprim._torch_ops (PyTorch custom operators) once loaded; never loaded
# before torch is imported, so that gpuprim does not import torch.
_torch_ops = None


def load_torch_ops():
    """Registers gpuprim's PyTorch custom operators (imports torch)."""
    global _torch_ops
    if _torch_ops is None:
        from . import _torch_ops as ops

        _torch_ops = ops
    return _torch_ops


def compiled_ops(x):
    """gpuprim._torch_ops while torch.compile traces a call on the tensor x,
    else None: the public functions then call their custom operator, which
    the compiler traces through (their own code, which reaches the compiled
    core, it could not). Loads the operators the first time torch is found
    imported; then two type comparisons for a NumPy array (isinstance with
    torch.Tensor, whose metaclass makes it slow, only for other arrays) and
    torch.compiler.is_compiling() for a tensor."""
    ops = _torch_ops
    if ops is None:
        if "torch" not in sys.modules:
            return None
        ops = load_torch_ops()
    tp = type(x)
    if tp is ops.Tensor or (tp is not np.ndarray and isinstance(x, ops.Tensor)):
        return ops if ops.compiling() else None
    return None


def host_results_like(given, *results):
    """NumPy results of a host call as tensors for a PyTorch CPU tensor and
    jax.Array for a JAX CPU array (zero-copy), as every other function
    answers them; NumPy arrays for anything else."""
    module = type(given).__module__.split(".")[0]
    if module == "torch":
        import torch

        return tuple(torch.from_numpy(np.ascontiguousarray(r)) for r in results)
    if module in ("jax", "jaxlib"):
        import jax.dlpack

        return tuple(jax.dlpack.from_dlpack(np.ascontiguousarray(r)) for r in results)
    return results
