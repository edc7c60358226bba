"""Order primitives with NumPy's and PyTorch's names: searchsorted, topk,
partition, argpartition.

NumPy arrays (and whatever ``numpy.asarray`` takes) run on the CPU backend
(OpenMP). ``searchsorted`` and ``topk`` take CUDA arrays too (CuPy, PyTorch;
other __cuda_array_interface__ arrays where no cast or reshape is needed):
they run on the GPU (the library's gp::cuda lower_bound / upper_bound and
topk / topk_rows), zero-copy, results of the input's kind on its device,
enqueued on ``stream=`` or the framework's current stream; only
searchsorted's ``sorter=`` check waits for the GPU. ``partition`` and
``argpartition`` refuse CUDA arrays (TypeError) so far.

Differences from NumPy and PyTorch, on purpose:
  - ``topk`` takes ``axis=`` (``dim=`` is accepted too) and returns NumPy
    arrays ``(values, indices)``; its result is always sorted (torch's
    ``sorted=False`` allows any order, so this is one of those orders);
    equal values come in index order (torch leaves their order open) and
    NaN is the largest value (torch's too);
  - ``partition`` and ``argpartition`` take ``kind='introselect'`` only and
    no ``order``; they place more than NumPy promises: every position from
    0 to the largest kth (or from the smallest kth to the end) holds its
    sorted element;
  - float16 is computed in float32 (exactly: every float16 is a float32);
    complex, object, string and datetime dtypes are not taken.
"""

import numbers
import operator

import numpy as np

from . import _arrays, _core

__all__ = ["searchsorted", "topk", "partition", "argpartition"]

_AxisError = np.exceptions.AxisError if hasattr(np, "exceptions") else np.AxisError


_on_device = _arrays.on_device


def _host_array(fn, x, name):
    """x as a NumPy array; TypeError for masked arrays."""
    _core._refuse_masked(x, f"{fn}: {name}")
    return np.asarray(x)


def _working_dtype(fn, dtype):
    """The dtype the library computes in: float16 as float32, bool as uint8."""
    dtype = np.dtype(dtype)
    if dtype.kind not in "biuf" or dtype.itemsize > 8:
        raise TypeError(
            f"{fn}: dtype {dtype} is not taken (supported: bool, integers, float16, float32, "
            "float64)"
        )
    if dtype == np.float16:
        return np.dtype(np.float32)
    if dtype == np.bool_:
        return np.dtype(np.uint8)
    return dtype.newbyteorder("=")


# ---- CUDA arrays: the steps around the library's calls, made by the array's
# own framework on its device (and on `stream` when one is given).


def _device_dtype(fn, dtype):
    """The dtype the GPU calls take: the library's precompiled 4- and 8-byte
    types; bool and 1- and 2-byte integers are widened to int32 and float16
    to float32 (exactly, order kept)."""
    work = _working_dtype(fn, dtype)
    if work.itemsize < 4:
        return np.dtype(np.int32)
    return work


def _dtype_of(x):
    """The NumPy dtype of a device array (torch's by name; others by their
    dtype or their __cuda_array_interface__ typestr)."""
    kind = _arrays.framework(x)
    if kind == "torch":
        return _arrays.dtype_of(x)
    dt = getattr(x, "dtype", None)
    if dt is not None:
        try:
            return np.dtype(dt)
        except TypeError:
            pass
    return np.dtype(x.__cuda_array_interface__["typestr"])


def _shape_of(x):
    shape = getattr(x, "shape", None)
    if shape is None:
        shape = x.__cuda_array_interface__["shape"]
    return tuple(int(s) for s in shape)


def _not_framework(fn, x, what):
    return TypeError(
        f"{fn}: {what} of a {type(x).__name__} takes CuPy or PyTorch arrays (gpuprim makes "
        "the casts, gathers and reshapes around the GPU call with the array's own framework)"
    )


def _astype(fn, x, dtype):
    """x as `dtype`, by its framework (x itself when it has that dtype)."""
    if _dtype_of(x) == dtype:
        return x
    kind = _arrays.framework(x)
    if kind == "cupy":
        return x.astype(dtype)
    if kind == "torch":
        import torch

        return x.to(getattr(torch, dtype.name))
    raise _not_framework(fn, x, f"a cast to {dtype}")


def _full(fn, like, shape, value, dtype):
    """A new array of `like`'s kind and device holding `value`, made on the
    device (nothing copied from the host)."""
    kind = _arrays.framework(like)
    if kind == "cupy":
        import cupy

        return cupy.full(shape, value, dtype=dtype)
    if kind == "torch":
        import torch

        return torch.full(shape, value, dtype=getattr(torch, dtype.name), device=like.device)
    raise _not_framework(fn, like, "a scalar query")


def _empty(fn, like, shape, dtype):
    return _full(fn, like, shape, 0, dtype)


def _reshape(fn, x, shape):
    if _shape_of(x) == tuple(shape):
        return x
    if _arrays.framework(x) in ("cupy", "torch"):
        return x.reshape(shape)
    raise _not_framework(fn, x, "a reshape")


class _DeviceScope:
    """Makes x's device current and, when a stream is given, that stream the
    framework's current one, so the framework's steps (casts, gathers) and
    the library's calls are ordered on one stream."""

    def __init__(self, x, stream):
        self.scopes = []
        kind = _arrays.framework(x)
        if kind == "cupy":
            import cupy

            if stream is not None or x.device.id != cupy.cuda.runtime.getDevice():
                self.scopes.append(x.device)
            if stream is not None:
                self.scopes.append(
                    stream if isinstance(stream, cupy.cuda.Stream)
                    else cupy.cuda.ExternalStream(_stream_handle(stream))
                )
        elif kind == "torch":
            import torch

            # Entering the device costs microseconds a call: only when it
            # is not already the current one, or a stream is given.
            if stream is not None or x.device.index != torch.cuda.current_device():
                self.scopes.append(torch.cuda.device(x.device))
            if stream is not None:
                if not isinstance(stream, torch.cuda.Stream):
                    stream = torch.cuda.ExternalStream(_stream_handle(stream), device=x.device)
                self.scopes.append(torch.cuda.stream(stream))

    def __enter__(self):
        for s in self.scopes:
            s.__enter__()
        return self

    def __exit__(self, *exc):
        for s in reversed(self.scopes):
            s.__exit__(*exc)
        return False


def _stream_handle(stream):
    """The cudaStream_t of what stream= takes (an int, __cuda_stream__,
    .cuda_stream or .ptr); TypeError otherwise, as the core's message."""
    if isinstance(stream, numbers.Integral) and not isinstance(stream, bool):
        return int(stream)
    if hasattr(stream, "__cuda_stream__"):
        return int(stream.__cuda_stream__()[1])
    for attr in ("cuda_stream", "ptr"):
        if hasattr(stream, attr):
            return int(getattr(stream, attr))
    raise TypeError(
        "stream must be None, an int (a cudaStream_t) or a stream object (with "
        "__cuda_stream__, .cuda_stream or .ptr)"
    )


def _device_checks(fn, arrays):
    """ValueError (the core's messages) unless every array is on a CUDA
    device and the package has the CUDA backend."""
    if not _core.cuda_built:
        raise ValueError(
            f"{fn}: this gpuprim was built without the CUDA backend; it takes host (NumPy) "
            "arrays only"
        )
    if not all(_on_device(x) for x in arrays):
        raise ValueError(
            f"{fn}: the arrays are on the host and on a GPU; gpuprim copies nothing between "
            "them (move them with your framework first)"
        )


def _any_out_of_range(idx, n):
    """Whether an index of the device array idx is outside [0, n): one
    synchronization (the answer comes to the host)."""
    return bool(((idx < 0) | (idx >= n)).any())


def _gather(fn, a, idx):
    """a[idx] for a 1-D device array a and in-range integer indices."""
    kind = _arrays.framework(a)
    if kind == "cupy":
        return a.take(idx)
    if kind == "torch":
        import torch

        return a[idx.to(torch.int64)]
    raise _not_framework(fn, a, "sorter=")


def searchsorted(a, v, side="left", sorter=None, *, stream=None):
    """Indices where the elements of v would be inserted into the sorted 1-D
    array a to keep it sorted, as numpy.searchsorted: side='left' gives the
    first such index, 'right' the last. NaN sorts after every number, as in
    numpy.sort. ``sorter`` (int indices that sort a) reads a as a[sorter].
    Returns int64 (numpy.intp) of v's shape; a NumPy integer for a scalar v.
    On an unsorted a the result is some indices, as NumPy's.

    CUDA arrays (CuPy, PyTorch, other __cuda_array_interface__ arrays): a,
    v and sorter all on one device (v may be a Python or NumPy scalar); the
    result is an int64 array of a's kind on that device (0-d for a scalar
    v), enqueued on ``stream`` (default: the framework's current stream),
    nothing synchronized, except that ``sorter`` is checked to hold indices
    in range, which waits for the GPU once. dtype casts and the gather
    a[sorter] are made by the array's framework (so arrays other than CuPy
    and PyTorch are taken when a and v have one dtype and no sorter is
    given); bool and 1- and 2-byte integers are searched as int32."""
    if side not in ("left", "right"):
        raise ValueError(f"side={side!r} is invalid. Expected one of: 'left', 'right'")
    ops = _arrays.compiled_ops(a)
    if ops is not None and sorter is None and isinstance(v, ops.Tensor):  # torch.compile
        return ops.searchsorted(a, v, side == "right")
    if any(_on_device(x) for x in (a, v, sorter) if x is not None):
        return _searchsorted_device(a, v, side, sorter, stream)
    given = v
    a = _host_array("searchsorted", a, "a")
    if a.ndim != 1:
        raise ValueError(f"searchsorted: a must be 1-D (got {a.ndim}-D)")
    if sorter is not None:
        sorter = _host_array("searchsorted", sorter, "sorter")
        if sorter.dtype.kind not in "iu":
            raise TypeError(f"searchsorted: sorter must hold integers (got {sorter.dtype})")
        if sorter.ndim != 1 or sorter.size != a.size:
            raise ValueError("sorter.size must equal a.size")
        if sorter.size and (sorter.min() < 0 or sorter.max() >= a.size):
            raise ValueError("Sorter index out of range.")
        a = a[sorter]
    scalar = np.ndim(v) == 0 and not isinstance(v, np.ndarray)
    _core._refuse_masked(v, "searchsorted: v")
    common = np.result_type(a, v) if isinstance(v, (numbers.Number, np.generic)) else None
    v = np.asarray(v)
    if common is None:
        common = np.result_type(a, v)
    work = _working_dtype("searchsorted", common)
    a_w = np.ascontiguousarray(a, dtype=work)
    v_w = np.ascontiguousarray(v, dtype=work)
    out = _core._searchsorted(a_w, v_w, side == "right")
    if scalar or v.ndim == 0:
        return np.intp(out.reshape(()))
    return out if isinstance(given, np.ndarray) else _arrays.host_results_like(given, out)[0]


def _searchsorted_device(a, v, side, sorter, stream):
    fn = "searchsorted"
    scalar = isinstance(v, (numbers.Number, np.generic))
    _device_checks(fn, [x for x in (a, sorter) if x is not None] + ([] if scalar else [v]))
    a_shape = _shape_of(a)
    if len(a_shape) != 1:
        raise ValueError(f"searchsorted: a must be 1-D (got {len(a_shape)}-D)")
    with _DeviceScope(a, stream):
        if sorter is not None:
            s_dtype = _dtype_of(sorter)
            if s_dtype.kind not in "iu":
                raise TypeError(f"searchsorted: sorter must hold integers (got {s_dtype})")
            if _shape_of(sorter) != a_shape:
                raise ValueError("sorter.size must equal a.size")
            _core._refuse_capture(
                fn,
                "with sorter= it checks on the host that the indices are in range (one wait); "
                "gather a[sorter] yourself and search that to capture it",
                sorter,
                stream,
            )
            if a_shape[0] and _any_out_of_range(sorter, a_shape[0]):
                raise ValueError("Sorter index out of range.")
            a = _gather(fn, a, sorter) if a_shape[0] else a
        a_dtype = _dtype_of(a)
        common = np.result_type(a_dtype, v) if scalar else np.result_type(a_dtype, _dtype_of(v))
        work = _device_dtype(fn, common)
        a_w = _astype(fn, a, work)
        value = v.item() if isinstance(v, np.generic) else v
        v_w = _full(fn, a, (), value, work) if scalar else _astype(fn, v, work)
        return _core._searchsorted(a_w, v_w, side == "right", stream=stream)


def _index(fn, name, value):
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{fn}: {name} must be an integer (got a bool)")
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError(
            f"{fn}: {name} must be an integer (got {type(value).__name__})"
        ) from None


def _rows_topk(x2, k, largest, stream=None):
    """(values, indices) of the k first of each row of the 2-D x2 (k >= 1),
    x2 a NumPy array or a device array (of the library's device dtypes
    after the cast made here)."""
    if _on_device(x2):
        dtype = _dtype_of(x2)
        x_w = _astype("topk", x2, _device_dtype("topk", dtype))
        values, indices = _core._topk_rows(x_w, k, bool(largest), stream=stream)
        return _astype("topk", values, dtype), indices
    work = _working_dtype("topk", x2.dtype)
    x_w = np.ascontiguousarray(x2, dtype=work)
    values, indices = _core._topk_rows(x_w, k, bool(largest))
    if values.dtype != x2.dtype:
        values = values.astype(x2.dtype)
    return values, indices


def topk(x, k, largest=True, sorted=True, axis=-1, *, dim=None, stream=None):
    """The k largest (smallest when largest=False) elements along `axis`
    and their int64 indices, as torch.topk: (values, indices), each of x's
    shape with k along the axis, sorted from the largest (smallest). NaN is
    the largest value; equal values come in index order. k from 0 to the
    axis' length.

    CUDA arrays (CuPy, PyTorch): through the library's GPU top-k (gp::cuda
    topk for one row, topk_rows for more), results of x's kind on its
    device, enqueued on ``stream`` (default: the framework's current
    stream), nothing synchronized; moving the axis, the casts (bool and 1-
    and 2-byte integers are ranked as int32, float16 as float32) and the
    reshapes are made by the array's framework. Other __cuda_array_interface__
    arrays: 1-D or 2-D along the last axis, of a 4- or 8-byte dtype, k >= 1."""
    if dim is not None:
        axis = dim
    ops = _arrays.compiled_ops(x)
    if ops is not None:  # traced by torch.compile: the custom operator
        return ops.topk(x, k, axis, bool(largest))
    if _on_device(x):
        return _topk_device(x, k, largest, axis, stream)
    given = x
    x = _host_array("topk", x, "x")
    if x.ndim == 0:
        raise ValueError("topk: x must have at least one dimension")
    axis = _index("topk", "axis", axis)
    if not -x.ndim <= axis < x.ndim:
        raise _AxisError(axis, x.ndim)
    k = _index("topk", "k", k)
    n = x.shape[axis]
    if not 0 <= k <= n:
        raise ValueError(f"topk: k ({k}) is out of range: the axis has {n} elements")
    _working_dtype("topk", x.dtype)
    moved = np.moveaxis(x, axis, -1)
    lead = moved.shape[:-1]
    rows = int(np.prod(lead, dtype=np.int64))
    if k == 0 or rows == 0:
        values = np.empty(lead + (k,), dtype=x.dtype)
        indices = np.empty(lead + (k,), dtype=np.int64)
    else:
        values, indices = _rows_topk(moved.reshape(rows, n), k, largest)
        values = values.reshape(lead + (k,))
        indices = indices.reshape(lead + (k,))
    values, indices = np.moveaxis(values, -1, axis), np.moveaxis(indices, -1, axis)
    if isinstance(given, np.ndarray):
        return values, indices
    return _arrays.host_results_like(given, values, indices)


def _device_axis(fn, x, axis):
    """(shape, axis made non-negative) of a device array, with NumPy's checks."""
    _device_checks(fn, [x])
    shape = _shape_of(x)
    if len(shape) == 0:
        raise ValueError(f"{fn}: x must have at least one dimension")
    axis = _index(fn, "axis", axis)
    if not -len(shape) <= axis < len(shape):
        raise _AxisError(axis, len(shape))
    return shape, axis % len(shape)


def _move_last(fn, x, axis, ndim):
    if axis == ndim - 1:
        return x
    if _arrays.framework(x) not in ("cupy", "torch"):
        raise _not_framework(fn, x, f"axis={axis}")
    return _arrays.move_axis_last(fn, x, axis)


def _move_back(x, axis, ndim):
    return x if axis == ndim - 1 else _arrays.move_last_axis_back(x, axis)


def _topk_device(x, k, largest, axis, stream):
    fn = "topk"
    shape, axis = _device_axis(fn, x, axis)
    k = _index(fn, "k", k)
    n = shape[axis]
    if not 0 <= k <= n:
        raise ValueError(f"topk: k ({k}) is out of range: the axis has {n} elements")
    dtype = _dtype_of(x)
    _working_dtype(fn, dtype)
    ndim = len(shape)
    lead = tuple(s for i, s in enumerate(shape) if i != axis)
    rows = int(np.prod(lead, dtype=np.int64))
    with _DeviceScope(x, stream):
        if k == 0 or rows == 0:
            values = _empty(fn, x, lead + (k,), dtype)
            indices = _empty(fn, x, lead + (k,), np.dtype(np.int64))
        else:
            moved = _move_last(fn, x, axis, ndim)
            # The core takes 1-D (one row) and 2-D arrays as they are.
            x2 = moved if ndim <= 2 else _reshape(fn, moved, (rows, n))
            values, indices = _rows_topk(x2, k, largest, stream)
            if ndim > 2:
                values = _reshape(fn, values, lead + (k,))
                indices = _reshape(fn, indices, lead + (k,))
        return _move_back(values, axis, ndim), _move_back(indices, axis, ndim)


def _kths(fn, kth, n):
    """The kth values, made non-negative and checked against n."""
    if isinstance(kth, (bool, np.bool_)) or (
        isinstance(kth, np.ndarray) and kth.dtype == np.bool_
    ):
        raise ValueError(f"{fn}: kth must be an integer or a sequence of integers (got booleans)")
    values = np.atleast_1d(np.asarray(kth))
    if values.dtype.kind not in "iu" or values.ndim != 1:
        raise TypeError(f"{fn}: kth must be an integer or a sequence of integers")
    out = []
    for value in values.tolist():
        k = value + n if value < 0 else value
        if not 0 <= k < n:
            raise ValueError(f"kth(={value}) out of bounds ({n})")
        out.append(k)
    return out


def _argpartition_rows(fn, x2, kths):
    """Indices that partition each row of x2 at every kth."""
    rows, n = x2.shape
    low, high = min(kths), max(kths)
    front = high + 1  # sort the front ...
    back = n - low  # ... or the back
    mask = np.ones((rows, n), dtype=bool)
    if front <= back:
        sel = _rows_topk(x2, front, False)[1]
        np.put_along_axis(mask, sel, False, axis=1)
        rest = np.nonzero(mask)[1].reshape(rows, n - front)
        return np.concatenate([sel, rest], axis=1)
    sel = _rows_topk(x2, back, True)[1][:, ::-1]
    np.put_along_axis(mask, sel, False, axis=1)
    rest = np.nonzero(mask)[1].reshape(rows, n - back)
    return np.concatenate([rest, sel], axis=1)


def argpartition(a, kth, axis=-1, kind="introselect", order=None):
    """The int64 indices that partition a, as numpy.argpartition: along
    `axis` (None: the flattened array), the element at each kth is the one
    a sort would put there, those before it are not greater and those after
    not less. NaN sorts last."""
    return _partition("argpartition", a, kth, axis, kind, order, indices=True)


def partition(a, kth, axis=-1, kind="introselect", order=None):
    """A partitioned copy of a, as numpy.partition (see argpartition)."""
    return _partition("partition", a, kth, axis, kind, order, indices=False)


def _partition(fn, a, kth, axis, kind, order, indices):
    if kind != "introselect":
        raise ValueError(f"{fn}: kind must be 'introselect' (got {kind!r})")
    if order is not None:
        raise ValueError(f"{fn}: order (fields of a structured array) is not taken")
    if _on_device(a):
        raise TypeError(
            f"{fn}: arrays on a CUDA device are not taken yet (searchsorted and topk take "
            "them); pass a NumPy array"
        )
    a = _host_array(fn, a, "a")
    if axis is None:
        a = a.reshape(-1)
        axis = -1
    if a.ndim == 0:
        raise ValueError(f"{fn}: a must have at least one dimension (or use axis=None)")
    axis = _index(fn, "axis", axis)
    if not -a.ndim <= axis < a.ndim:
        raise _AxisError(axis, a.ndim)
    _working_dtype(fn, a.dtype)
    n = a.shape[axis]
    kths = _kths(fn, kth, n)
    moved = np.moveaxis(a, axis, -1)
    lead = moved.shape[:-1]
    rows = int(np.prod(lead, dtype=np.int64))
    x2 = moved.reshape(rows, n)
    if rows == 0 or not kths:
        idx = np.broadcast_to(np.arange(n, dtype=np.int64), (rows, n)).copy()
    else:
        idx = _argpartition_rows(fn, x2, kths)
    if indices:
        return np.moveaxis(idx.reshape(lead + (n,)), -1, axis)
    out = np.take_along_axis(x2, idx, axis=1)
    return np.moveaxis(out.reshape(lead + (n,)), -1, axis)
