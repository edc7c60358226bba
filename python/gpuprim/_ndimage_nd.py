"""scipy.ndimage's filters through the library's N-D filters
(gpuprim/convolve_nd.hpp): SciPy's argument rules, errors and passes, with
each pass one call of _core._filter_nd. The same code serves NumPy arrays
(the host backend) and CuPy arrays / PyTorch tensors (the GPU backend for
CUDA ones, on the framework's current stream; results and temporaries are
arrays of the input's framework and device, nothing goes through the
host). Both backends give the same bits.

A separable filter runs as SciPy runs it: one 1-D pass per axis, each pass
writing the output array (so an integer output rounds between passes, as
SciPy's does) and the next pass reading it in place. Every pass sums in
double in SciPy's order and rounds once to the output type, so the answers
are SciPy's bit for bit on the platforms whose C casts the library follows
(x86-64).
"""

import contextlib
import numbers
import operator
import warnings
from collections.abc import Iterable

import numpy as np

try:
    from numpy.lib.array_utils import normalize_axis_index
except ImportError:  # NumPy 1.x
    from numpy.core.multiarray import normalize_axis_index

from . import _core

# Border codes of the library (gpuprim::border): zero (with cval),
# replicate, reflect, mirror, wrap; SciPy's names for filters.
_MODES = {
    "constant": 0,
    "grid-constant": 0,
    "nearest": 1,
    "reflect": 2,
    "grid-mirror": 2,
    "mirror": 3,
    "wrap": 4,
    "grid-wrap": 4,
}


def _mode(mode):
    if isinstance(mode, str) and mode in _MODES:
        return _MODES[mode]
    raise RuntimeError("boundary mode not supported")


# ---- arrays of NumPy, CuPy and PyTorch alike


def framework(a):
    """'cupy', 'torch', or 'numpy' for anything else (read through NumPy)."""
    module = type(a).__module__.split(".")[0]
    return module if module in ("cupy", "torch") else "numpy"


def dtype_of(a):
    """a's dtype as a NumPy dtype (a PyTorch dtype by its name)."""
    if framework(a) == "torch":
        name = str(a.dtype).replace("torch.", "")
        try:
            return np.dtype(name)
        except TypeError:
            raise TypeError(f"dtype {name} is not supported") from None
    return a.dtype


def _torch_dtype(dt):
    import torch

    dt = np.dtype(dt)
    found = getattr(torch, dt.name, None)
    if not isinstance(found, torch.dtype):
        raise TypeError(f"PyTorch has no dtype {dt.name}")
    return found


def new_array(like, shape, dtype):
    """An array of `like`'s framework and device (zeroed for NumPy, as
    SciPy's; uninitialised on a GPU: every caller writes all of it)."""
    kind = framework(like)
    if kind == "cupy":
        import cupy

        with like.device:
            return cupy.empty(shape, dtype=dtype)
    if kind == "torch":
        import torch

        return torch.empty(tuple(shape), dtype=_torch_dtype(dtype), device=like.device)
    return np.zeros(shape, dtype=dtype)


def writable_c_order(a):
    """Whether the binding can write `a` directly."""
    kind = framework(a)
    if kind == "cupy":
        return a.flags.c_contiguous
    if kind == "torch":
        return a.is_contiguous()
    return type(a) is np.ndarray and a.flags.c_contiguous and a.flags.writeable and a.dtype.isnative


def may_share_memory(a, b):
    kind = framework(a)
    if kind != framework(b):
        return False
    if kind == "cupy":
        import cupy

        return cupy.may_share_memory(a, b)
    if kind == "torch":
        return a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()
    return np.may_share_memory(a, b)


def host_weights(weights):
    """Filter weights as a NumPy array (GPU weights are read to the host:
    they travel with the launches)."""
    kind = framework(weights)
    if kind == "cupy":
        return weights.get()
    if kind == "torch":
        return weights.detach().cpu().numpy()
    return np.asarray(weights)


def _stream_handle(stream):
    if isinstance(stream, int):
        return stream
    if hasattr(stream, "__cuda_stream__"):
        return stream.__cuda_stream__()[1]
    if hasattr(stream, "cuda_stream"):
        return stream.cuda_stream
    if hasattr(stream, "ptr"):
        return stream.ptr
    raise TypeError(
        f"stream must be None, an int or a stream object (__cuda_stream__, .cuda_stream or .ptr); "
        f"got {type(stream).__name__}"
    )


@contextlib.contextmanager
def on_stream(input, stream):
    """Runs the block with `stream` as the input framework's current stream
    (None: as it is), so the passes, the temporaries the framework makes
    and its copies stay in one order."""
    kind = framework(input)
    if stream is None or kind == "numpy":
        yield
        return
    handle = _stream_handle(stream)
    if kind == "cupy":
        import cupy

        with cupy.cuda.ExternalStream(handle):
            yield
        return
    import torch

    with torch.cuda.stream(torch.cuda.ExternalStream(handle, device=input.device)):
        yield


def _unsupported(fn, a):
    """SciPy's error for an array its C filters do not take."""
    raise RuntimeError(f"{fn}: array type dtype('{dtype_of(a)}') not supported")


def as_input(fn, input):
    """The input: a CuPy array or PyTorch tensor as it is, anything else as
    a NumPy array in native byte order (a masked array is refused: its data
    would be filtered as if nothing were masked)."""
    if framework(input) != "numpy":
        dtype_of(input)  # an unsupported PyTorch dtype raises here
        return input
    _core._refuse_masked(input, f"{fn}: input")
    a = np.asarray(input)
    if not a.dtype.isnative:
        a = a.astype(a.dtype.newbyteorder("="))
    return a


def _is_complex(a):
    return dtype_of(a).kind == "c"


def get_output(fn, output, input, complex_output=False):
    """SciPy's output rule: None (the input's dtype, or complex), a dtype or
    an array of the input's shape."""
    shape = tuple(input.shape)
    dt = dtype_of(input)
    if output is None:
        if complex_output:
            return new_array(input, shape, np.promote_types(dt, np.complex64))
        return new_array(input, shape, dt.name)
    if isinstance(output, (type, np.dtype)):
        if complex_output and np.dtype(output).kind != "c":
            warnings.warn("promoting specified output dtype to complex", stacklevel=4)
            output = np.promote_types(output, np.complex64)
        return new_array(input, shape, output)
    if isinstance(output, str):
        dt = np.dtype(output)
        if complex_output and dt.kind != "c":
            raise RuntimeError("output must have complex dtype")
        if not issubclass(dt.type, np.number):
            raise RuntimeError("output must have numeric dtype")
        return new_array(input, shape, dt)
    out = output if framework(output) != "numpy" else np.asarray(output)
    if tuple(out.shape) != shape:
        raise RuntimeError("output shape not correct")
    if complex_output and dtype_of(out).kind != "c":
        raise RuntimeError("output must have complex dtype")
    return out


def _via_real_parts(func, fn, input, weights, output, cval, **kwargs):
    """A complex filter as real filters of the parts (SciPy's way): with
    complex weights, re = ri*wr - ii*wi and im = ri*wi + ii*wr, each pass
    writing (or subtracting from, adding to) a part of the output."""
    complex_input = _is_complex(input)
    complex_weights = _is_complex(weights)
    if complex_input and complex_weights:
        func(fn, input.real, weights.real, output=output.real, cval=np.real(cval), **kwargs)
        output.real -= func(fn, input.imag, weights.imag, output=None, cval=np.imag(cval), **kwargs)
        func(fn, input.real, weights.imag, output=output.imag, cval=np.real(cval), **kwargs)
        output.imag += func(fn, input.imag, weights.real, output=None, cval=np.imag(cval), **kwargs)
    elif complex_input:
        func(fn, input.real, weights, output=output.real, cval=np.real(cval), **kwargs)
        func(fn, input.imag, weights, output=output.imag, cval=np.imag(cval), **kwargs)
    else:
        if np.iscomplexobj(cval):
            raise ValueError("Cannot provide a complex-valued cval when the input is real.")
        func(fn, input, weights.real, output=output.real, cval=cval, **kwargs)
        func(fn, input, weights.imag, output=output.imag, cval=cval, **kwargs)
    return output


def check_axes(axes, ndim):
    """SciPy's axes rule: None (every axis), an integer or integers, each in
    range and unique."""
    if axes is None:
        return tuple(range(ndim))
    if np.isscalar(axes):
        axes = (operator.index(axes),)
    elif isinstance(axes, Iterable):
        axes = tuple(operator.index(ax) for ax in axes)
        for ax in axes:
            if ax < -ndim or ax > ndim - 1:
                raise ValueError(f"specified axis: {ax} is out of range")
        axes = tuple(ax % ndim if ax < 0 else ax for ax in axes)
    else:
        raise ValueError("axes must be an integer, iterable of integers, or None")
    if len(set(axes)) != len(axes):
        raise ValueError("axes must be unique")
    return axes


def per_axis(value, rank):
    """SciPy's scalar-or-sequence rule: one value per axis."""
    if not isinstance(value, str) and np.iterable(value):
        values = list(value)
        if len(values) != rank:
            raise RuntimeError("sequence argument must have length equal to input rank")
        return values
    return [value] * rank


def _cval(cval):
    if np.iscomplexobj(cval):
        raise ValueError("Cannot provide a complex-valued cval when the input is real.")
    return float(cval)


def _run_pass(fn, kind, input, output, weights, wshape, axis, size, mode, cval, origins):
    """One pass from input into output (an array of input's shape). The
    binding writes C-contiguous native arrays; another output is filled
    from a temporary."""
    for a in (input, output):
        dt = dtype_of(a)
        if dt.kind not in "biuf" or dt == np.longdouble or dt == np.float16:
            _unsupported(fn, a)
    direct = writable_c_order(output)
    target = (
        output if direct else new_array(input, output.shape, dtype_of(output).newbyteorder("="))
    )
    _core._filter_nd(
        fn, kind, input, target, weights, wshape, axis, size, _mode(mode), _cval(cval), origins
    )
    if not direct:
        output[...] = target
    return output


def correlate1d(fn, input, weights, axis=-1, output=None, mode="reflect", cval=0.0, origin=0):
    input = as_input(fn, input)
    _core._refuse_masked(weights, f"{fn}: weights")
    w = host_weights(weights)
    if _is_complex(input) or _is_complex(w):
        if _is_complex(w):
            w = w.conj().astype(np.complex128, copy=False)
        output = get_output(fn, output, input, complex_output=True)
        return _via_real_parts(
            correlate1d, fn, input, w, output, cval, axis=axis, mode=mode, origin=origin
        )
    output = get_output(fn, output, input)
    w = np.asarray(w, dtype=np.float64)
    if w.ndim != 1 or w.shape[0] < 1:
        raise RuntimeError("no filter weights given")
    axis = normalize_axis_index(axis, input.ndim)
    origin = operator.index(origin)
    if origin < -(len(w) // 2) or origin > (len(w) - 1) // 2:
        raise ValueError(
            "Invalid origin; origin must satisfy -(len(weights) // 2) <= origin <= "
            "(len(weights)-1) // 2"
        )
    _mode(mode)
    return _run_pass(
        fn, "correlate1d", input, output, w.tolist(), [], axis, 0, mode, cval, [origin]
    )


def convolve1d(fn, input, weights, axis, output, mode, cval, origin):
    w = host_weights(weights)[::-1]
    origin = -origin
    if not w.shape[0] & 1:
        origin -= 1
    if _is_complex(w):
        w = w.conj()  # correlate1d conjugates complex weights back
    return correlate1d(fn, input, w, axis, output, mode, cval, origin)


def uniform_filter1d(fn, input, size, axis, output, mode, cval, origin):
    input = as_input(fn, input)
    axis = normalize_axis_index(axis, input.ndim)
    if size < 1:
        raise RuntimeError("incorrect filter size")
    complex_output = _is_complex(input)
    output = get_output(fn, output, input, complex_output=complex_output)
    if (size // 2 + origin < 0) or (size // 2 + origin >= size):
        raise ValueError("invalid origin")
    _mode(mode)
    if complex_output:
        for part, out, c in (
            (input.real, output.real, np.real(cval)),
            (input.imag, output.imag, np.imag(cval)),
        ):
            _run_pass(fn, "uniform1d", part, out, [], [], axis, int(size), mode, c, [int(origin)])
        return output
    return _run_pass(
        fn, "uniform1d", input, output, [], [], axis, int(size), mode, cval, [int(origin)]
    )


def gaussian_kernel1d(sigma, order, radius):
    """Taps of the Gaussian's order-th derivative over [-radius, radius]: the
    Gaussian normalised to sum 1, times the polynomial its derivatives
    bring (q' + q p', p' = -x / sigma^2, applied `order` times)."""
    if order < 0:
        raise ValueError("order must be non-negative")
    sigma2 = sigma * sigma
    x = np.arange(-radius, radius + 1)
    phi = np.exp(-0.5 / sigma2 * x**2)
    phi = phi / phi.sum()
    if order == 0:
        return phi
    powers = np.arange(order + 1)
    q = np.zeros(order + 1)
    q[0] = 1
    step = np.diag(powers[1:], 1) + np.diag(np.ones(order) / -sigma2, -1)
    for _ in range(order):
        q = step.dot(q)
    return (x[:, None] ** powers).dot(q) * phi


def gaussian_filter1d(fn, input, sigma, axis, order, output, mode, cval, truncate, radius):
    sd = float(sigma)
    if radius is None and not np.isfinite(float(truncate) * sd):
        # SciPy raises "cannot convert float NaN to integer" / OverflowError
        raise ValueError(f"{fn}: truncate * sigma must be finite (got {truncate!r} * {sigma!r})")
    lw = int(truncate * sd + 0.5)
    if radius is not None:
        lw = radius
    if not isinstance(lw, numbers.Integral) or lw < 0:
        raise ValueError("Radius must be a nonnegative integer.")
    weights = gaussian_kernel1d(sigma, order, lw)[::-1]
    return correlate1d(fn, input, weights, axis, output, mode, cval, 0)


def gaussian_filter(fn, input, sigma, order, output, mode, cval, truncate, radius, axes):
    input = as_input(fn, input)
    output = get_output(fn, output, input)
    axes = check_axes(axes, input.ndim)
    n = len(axes)
    orders, sigmas = per_axis(order, n), per_axis(sigma, n)
    modes, radii = per_axis(mode, n), per_axis(radius, n)
    passes = [
        (axes[i], sigmas[i], orders[i], modes[i], radii[i]) for i in range(n) if sigmas[i] > 1e-15
    ]
    if not passes:
        output[...] = input[...]
        return output
    for axis, s, o, m, r in passes:
        gaussian_filter1d(fn, input, s, axis, o, output, m, cval, truncate, r)
        input = output
    return output


def uniform_filter(fn, input, size, output, mode, cval, origin, axes):
    input = as_input(fn, input)
    output = get_output(fn, output, input, complex_output=_is_complex(input))
    axes = check_axes(axes, input.ndim)
    n = len(axes)
    sizes, origins, modes = per_axis(size, n), per_axis(origin, n), per_axis(mode, n)
    passes = [(axes[i], sizes[i], origins[i], modes[i]) for i in range(n) if sizes[i] > 1]
    if not passes:
        output[...] = input[...]
        return output
    for axis, k, o, m in passes:
        uniform_filter1d(fn, input, int(k), axis, output, m, cval, o)
        input = output
    return output


def sobel(fn, input, axis, output, mode, cval):
    input = as_input(fn, input)
    axis = normalize_axis_index(axis, input.ndim)
    output = get_output(fn, output, input)
    modes = per_axis(mode, input.ndim)
    correlate1d(fn, input, [-1, 0, 1], axis, output, modes[axis], cval, 0)
    for other in range(input.ndim):
        if other != axis:
            correlate1d(fn, output, [1, 2, 1], other, output, modes[other], cval, 0)
    return output


def _add_into(output, term):
    """output += term, integers wrapping as NumPy's. PyTorch has no
    addition of uint16 / uint32 / uint64 tensors: their bits are added as
    the signed type of their width (the same sum, two's complement)."""
    dt = dtype_of(output)
    if framework(output) == "torch" and dt.kind == "u" and dt.itemsize > 1:
        signed = _torch_dtype(np.dtype(f"int{8 * dt.itemsize}"))
        output.view(signed).add_(term.view(signed))
        return
    output += term


def laplace(fn, input, output, mode, cval, axes):
    input = as_input(fn, input)
    output = get_output(fn, output, input)
    axes = check_axes(axes, input.ndim)
    if not axes:
        output[...] = input[...]
        return output
    modes = per_axis(mode, len(axes))
    correlate1d(fn, input, [1, -2, 1], axes[0], output, modes[0], cval, 0)
    for i in range(1, len(axes)):
        term = correlate1d(fn, input, [1, -2, 1], axes[i], dtype_of(output), modes[i], cval, 0)
        _add_into(output, term)
    return output


def correlate_nd(fn, input, weights, output, mode, cval, origin, convolution, axes):
    input = as_input(fn, input)
    _core._refuse_masked(weights, f"{fn}: weights")
    w = host_weights(weights)
    if _is_complex(input) or _is_complex(w):
        if _is_complex(w) and not convolution:
            w = w.conj()  # as np.correlate: the weights conjugated, not the input
        output = get_output(fn, output, input, complex_output=True)
        return _via_real_parts(
            correlate_nd,
            fn,
            input,
            w,
            output,
            cval,
            mode=mode,
            origin=origin,
            convolution=convolution,
            axes=axes,
        )
    w = np.asarray(w, dtype=np.float64)
    axes = check_axes(axes, input.ndim)
    n = len(axes)
    if n < input.ndim:
        if w.ndim != n:
            raise RuntimeError(f"weights.ndim ({w.ndim}) must match len(axes) ({n})")
        w = np.expand_dims(w, tuple(a for a in range(input.ndim) if a not in axes))
    origins = per_axis(origin, n)
    if n < input.ndim:
        full = [0] * input.ndim
        for o, a in zip(origins, axes):
            full[a] = o
        origins = full
    wshape = [k for k in w.shape if k > 0]
    if len(wshape) != input.ndim:
        raise RuntimeError(f"weights.ndim ({len(wshape)}) must match len(axes) ({n})")
    origins = [operator.index(o) for o in origins]
    if convolution:
        w = w[tuple([slice(None, None, -1)] * w.ndim)]
        for i in range(len(origins)):
            origins[i] = -origins[i]
            if not w.shape[i] & 1:
                origins[i] -= 1
    for o, k in zip(origins, wshape):
        if o < -(k // 2) or o > (k - 1) // 2:
            raise ValueError(
                "Invalid origin; origin must satisfy -(weights.shape[k] // 2) <= origin[k] <= "
                "(weights.shape[k]-1) // 2"
            )
    output = get_output(fn, output, input)
    target = output
    if may_share_memory(input, output):
        target = new_array(input, input.shape, dtype_of(output))
    if not isinstance(mode, str) and isinstance(mode, Iterable):
        raise RuntimeError("A sequence of modes is not supported")
    w = np.ascontiguousarray(w)
    _run_pass(
        fn, "correlate", input, target, w.ravel().tolist(), list(w.shape), 0, 0, mode, cval, origins
    )
    if target is not output:
        output[...] = target
    return output
