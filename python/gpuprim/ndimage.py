"""Filters with scipy.ndimage's names, arguments and results.

``correlate``, ``convolve``, ``correlate1d``, ``convolve1d``,
``gaussian_filter``, ``gaussian_filter1d``, ``uniform_filter``,
``uniform_filter1d``, ``sobel`` and ``laplace``.

NumPy arrays (and anything ``numpy.asarray`` takes) run on the CPU through
the library's host N-D filters and take everything SciPy takes for real
data: any number of axes, bool / integer / float32 / float64 inputs,
``output=`` as None, a dtype or an array of any real dtype (the input itself
too), ``axes=``, ``origin=`` (an integer or one per axis), ``mode=`` per
axis for the separable filters, ``gaussian_filter(order=...)`` derivatives
and any ``radius``. Each pass sums in float64 in SciPy's order and rounds
once to the output type (integers truncated toward zero, as SciPy), so the
answers equal SciPy's; SciPy's exceptions are raised for bad arguments
(RuntimeError for a float16 array, as SciPy). Complex input or weights run
as SciPy runs them: real filters of the real and imaginary parts, combined
in a complex output. A numpy.ma.MaskedArray is refused (TypeError).

CuPy arrays and PyTorch tensors take the same arguments with the same
answers, bit for bit: the library's N-D filters have a GPU backend with
the host's arithmetic (each output summed in float64 in SciPy's order,
without FMA contraction, rounded once), and the argument logic above is
shared (results and temporaries are arrays of the input's framework and
device; nothing goes through the host but GPU weights, which travel with
the launches). Other CUDA arrays (``__cuda_array_interface__``, DLPack:
Numba, JAX) have no N-D path: they take the 2-D tiled kernels, for 2-D
float32 / float64 images with one mode, origin 0, no ``axes=`` beyond
the image's two, ``gaussian_filter`` of order 0 and radius up to 31,
filter sides up to 63, ``output`` None, the input's dtype or a C-order
array of it apart from the input (TypeError otherwise); those kernels sum
in the image's precision in their own order (close to SciPy's answers,
not its bits).

Border modes are SciPy's: ``'reflect'`` (the default), ``'constant'``
(with ``cval``), ``'nearest'``, ``'mirror'``, ``'wrap'`` and the aliases
``'grid-mirror'``, ``'grid-constant'``, ``'grid-wrap'``. GPU calls take
``stream=`` (default: the input framework's current stream) and do not
synchronize.
"""

import functools
import numbers

import numpy as np

from . import _core
from . import _ndimage_nd as _h

__all__ = [
    "convolve",
    "convolve1d",
    "correlate",
    "correlate1d",
    "gaussian_filter",
    "gaussian_filter1d",
    "uniform_filter",
    "uniform_filter1d",
    "sobel",
    "laplace",
]

# Border codes of the library (gpuprim::border): zero, replicate, reflect,
# mirror, wrap.
_ZERO, _REPLICATE, _REFLECT, _MIRROR, _WRAP = range(5)
_MODES = {
    "reflect": _REFLECT,
    "grid-mirror": _REFLECT,
    "constant": _ZERO,
    "grid-constant": _ZERO,
    "nearest": _REPLICATE,
    "mirror": _MIRROR,
    "wrap": _WRAP,
    "grid-wrap": _WRAP,
}


def _mode_code(fn, mode):
    if isinstance(mode, str):
        if mode in _MODES:
            return _MODES[mode]
        raise ValueError(
            f"{fn}: unknown mode {mode!r}; use 'reflect', 'constant', 'nearest', 'mirror' or 'wrap'"
        )
    if isinstance(mode, (list, tuple)):
        modes = set(mode)
        if len(modes) == 1:
            return _mode_code(fn, mode[0])
        raise ValueError(f"{fn}: one mode for both axes is supported (got {mode!r})")
    raise TypeError(f"{fn}: mode must be a string (got {type(mode).__name__})")


def _check_origin(fn, origin):
    values = origin if isinstance(origin, (list, tuple)) else [origin]
    for o in values:
        if not isinstance(o, numbers.Integral):
            raise TypeError(f"{fn}: origin must be an integer (got {o!r})")
        if o != 0:
            raise ValueError(f"{fn}: origin other than 0 is not supported (got {origin!r})")


def _dtype_name(x):
    return str(getattr(x, "dtype", "")).replace("torch.", "")


def _is_float_image(x):
    return _dtype_name(x) in ("float32", "float64") and getattr(x, "ndim", 0) == 2


def _framework(x):
    module = type(x).__module__.split(".")[0]
    return module if module in ("numpy", "cupy", "torch") else None


def _pad_constant(fn, x, top, left, bottom, right, cval):
    """x with a border of cval: top/bottom rows, left/right columns."""
    kind = _framework(x)
    if kind == "numpy":
        return np.pad(x, ((top, bottom), (left, right)), constant_values=cval)
    if kind == "cupy":
        import cupy

        return cupy.pad(x, ((top, bottom), (left, right)), constant_values=cval)
    if kind == "torch":
        import torch.nn.functional as F

        return F.pad(x, (left, right, top, bottom), mode="constant", value=float(cval))
    raise ValueError(
        f"{fn}: mode='constant' with cval != 0 takes NumPy, CuPy or PyTorch images "
        f"(got {type(x).__name__})"
    )


def _output_arg(fn, input, output):
    """(array or None) from SciPy's output argument: None, a dtype or an array."""
    if output is None:
        return None
    if isinstance(output, (type, np.dtype, str)):
        want = np.dtype(output)
        if want.name != _dtype_name(input):
            raise TypeError(
                f"{fn}: output dtype {want.name} differs from the input's {_dtype_name(input)}; "
                "gpuprim returns the input's dtype"
            )
        return None
    return output


def _run(fn, input, spec, mode, cval, output, stream):
    """Runs a filter. spec: ('general', weights2d, flip) or ('separable', row, column,
    first) with the row filter along axis 1, the column filter along axis 0, and
    `first` the axis SciPy filters first."""
    code = _mode_code(fn, mode)
    output = _output_arg(fn, input, output)
    cval = float(cval)
    if spec[0] == "separable" and code == _ZERO and cval != 0.0 and _is_float_image(input):
        # SciPy filters one axis after the other, each pass reading cval
        # outside its own input (the first pass's result): two passes here too.
        row, column, first = spec[1], spec[2], spec[3]
        if len(row) > 1 and len(column) > 1:
            one = ("separable", (1.0,), column, 0) if first == 0 else ("separable", row, (1.0,), 1)
            two = ("separable", row, (1.0,), 1) if first == 0 else ("separable", (1.0,), column, 0)
            middle = _run_once(fn, input, one, code, cval, None, stream)
            return _run_once(fn, middle, two, code, cval, output, stream)
    return _run_once(fn, input, spec, code, cval, output, stream)


def _run_once(fn, input, spec, code, cval, output, stream):
    if spec[0] == "general":
        w, flip = spec[1], spec[2]
        kr, kc = w.shape
        call = lambda x, out: _core._filter2d(  # noqa: E731
            fn, x, w.ravel().tolist(), kr, kc, code, flip, out, stream
        )
    else:
        row, column = spec[1], spec[2]
        kr, kc = len(column), len(row)
        call = lambda x, out: _core._filter2d_separable(  # noqa: E731
            fn, x, row, column, code, False, out, stream
        )
    if code != _ZERO or cval == 0.0 or not _is_float_image(input):
        return call(input, output)
    # mode='constant' with cval != 0: the image padded with cval (by the
    # filter's reach on each side), filtered, and its interior taken; every
    # result pixel reads the same values as SciPy's.
    top, left = kr, kc
    padded = _pad_constant(fn, input, top, left, kr, kc, cval)
    rows, cols = input.shape
    result = call(padded, None)[top : top + rows, left : left + cols]
    if output is None:
        kind = _framework(result)
        if kind == "torch":
            return result.contiguous()
        if kind == "cupy":
            import cupy

            return cupy.ascontiguousarray(result)
        return np.ascontiguousarray(result)
    if _dtype_name(output) != _dtype_name(input) or tuple(output.shape) != tuple(input.shape):
        return call(input, output)  # raises the usual message
    output[...] = result
    return output


def _host_weights(fn, weights):
    """The weights as a float64 NumPy array (GPU weights are read back)."""
    _core._refuse_masked(weights, f"{fn}: weights")
    kind = _framework(weights)
    if kind == "cupy":
        weights = weights.get()
    elif kind == "torch":
        weights = weights.detach().cpu().numpy()
    w = np.asarray(weights)
    if w.dtype == object or w.dtype.kind not in "biuf":
        raise TypeError(f"{fn}: weights must be real numbers (got dtype {w.dtype})")
    w = w.astype(np.float64)
    if w.ndim != 2:
        raise ValueError(f"{fn}: weights must be 2-D, as the image (got {w.ndim} dimensions)")
    if w.size == 0:
        raise ValueError(f"{fn}: no filter weights given")
    return w


def _gpu_correlate(fn, input, weights, output, mode, cval, origin, stream, flip):
    """As scipy.ndimage.correlate: sum of weights[i, j] * input[y + i - ci, x + j - cj];
    with flip, scipy.ndimage.convolve (correlate with the flipped weights)."""
    _check_origin(fn, origin)
    w = _host_weights(fn, weights)
    return _run(fn, input, ("general", w, flip), mode, cval, output, stream)


def _axes(fn, axes):
    """The filtered axes of a 2-D image as a set of 0 / 1."""
    if axes is None:
        return (0, 1)
    if isinstance(axes, numbers.Integral):
        axes = (axes,)
    out = []
    for a in axes:
        if not isinstance(a, numbers.Integral) or not -2 <= a <= 1:
            raise ValueError(f"{fn}: axis {a!r} is out of range for a 2-D image")
        a = int(a) % 2
        if a in out:
            raise ValueError(f"{fn}: axes must be unique (got {axes!r})")
        out.append(a)
    return tuple(out)


def _per_axis(fn, name, value, axes):
    """SciPy's scalar-or-sequence argument: one value per filtered axis."""
    if isinstance(value, (list, tuple, np.ndarray)):
        if len(value) != len(axes):
            raise ValueError(
                f"{fn}: {name} has {len(value)} values for {len(axes)} axes; give one per axis"
            )
        return dict(zip(axes, value))
    return {a: value for a in axes}


@functools.lru_cache(maxsize=64)
def _gaussian_weights(sigma, radius):
    x = np.arange(-radius, radius + 1, dtype=np.float64)
    w = np.exp(-0.5 / (sigma * sigma) * x * x)
    return tuple((w / w.sum()).tolist())


def _gpu_gaussian_filter(input, sigma, order, output, mode, cval, truncate, radius, axes, stream):
    """As scipy.ndimage.gaussian_filter (order 0): separable Gaussian weights
    exp(-x^2 / (2 sigma^2)) over radius int(truncate * sigma + 0.5), summing to 1;
    an axis with sigma 0 is left as it is."""
    fn = "gaussian_filter"
    ax = _axes(fn, axes)
    orders = _per_axis(fn, "order", order, ax)
    if any(o != 0 for o in orders.values()):
        raise ValueError(f"{fn}: only order=0 is supported (got {order!r})")
    sigmas = _per_axis(fn, "sigma", sigma, ax)
    radii = _per_axis(fn, "radius", radius, ax)
    try:
        truncate = float(truncate)
    except (TypeError, ValueError):
        raise TypeError(f"{fn}: truncate must be a number (got {truncate!r})") from None
    if not np.isfinite(truncate) or truncate < 0:
        raise ValueError(f"{fn}: truncate must be a finite non-negative number (got {truncate!r})")
    taps = {0: (1.0,), 1: (1.0,)}
    for a in ax:
        s = float(sigmas[a])
        if not np.isfinite(s) or s < 0:
            raise ValueError(f"{fn}: sigma must be a non-negative number (got {sigmas[a]!r})")
        if s <= 1e-15:
            continue
        r = radii[a]
        if r is None:
            r = int(truncate * s + 0.5)
        elif not isinstance(r, numbers.Integral) or r < 0:
            raise ValueError(f"{fn}: radius must be a non-negative integer (got {r!r})")
        if r > 31:
            raise ValueError(
                f"{fn}: sigma {s} with truncate {truncate} needs a radius of {r}; "
                "at most 31 (filter side 63) is supported"
            )
        taps[a] = _gaussian_weights(s, int(r))
    return _run(
        fn, input, ("separable", taps[1], taps[0], ax[0] if ax else 0), mode, cval, output, stream
    )


def _gpu_uniform_filter(input, size, output, mode, cval, origin, axes, stream):
    """As scipy.ndimage.uniform_filter: the mean over size pixels along each axis
    (window [i - size // 2, i + (size - 1) // 2])."""
    fn = "uniform_filter"
    _check_origin(fn, origin)
    ax = _axes(fn, axes)
    sizes = _per_axis(fn, "size", size, ax)
    taps = {0: (1.0,), 1: (1.0,)}
    for a in ax:
        k = sizes[a]
        if not isinstance(k, numbers.Integral) or k < 1:
            raise ValueError(f"{fn}: size must be a positive integer (got {k!r})")
        if k > 63:
            raise ValueError(f"{fn}: size {k} is more than the supported 63")
        taps[a] = (1.0 / int(k),) * int(k)
    return _run(
        fn, input, ("separable", taps[1], taps[0], ax[0] if ax else 0), mode, cval, output, stream
    )


def _gpu_sobel(input, axis, output, mode, cval, stream):
    """As scipy.ndimage.sobel: [-1, 0, 1] along `axis` (a correlation), [1, 2, 1]
    along the other axis."""
    fn = "sobel"
    (a,) = _axes(fn, axis)
    derivative, smooth = (-1.0, 0.0, 1.0), (1.0, 2.0, 1.0)
    row, column = (derivative, smooth) if a == 1 else (smooth, derivative)
    return _run(fn, input, ("separable", row, column, a), mode, cval, output, stream)


def _gpu_laplace(input, output, mode, cval, axes, stream):
    """As scipy.ndimage.laplace: the sum over the axes of [1, -2, 1] along each."""
    fn = "laplace"
    ax = _axes(fn, axes)
    if len(ax) == 2:
        w = np.array([[0.0, 1.0, 0.0], [1.0, -4.0, 1.0], [0.0, 1.0, 0.0]])
        return _run(fn, input, ("general", w, False), mode, cval, output, stream)
    second = (1.0, -2.0, 1.0)
    if not ax:  # no axis: the image itself, as SciPy
        second = (1.0,)
        ax = (0,)
    row, column = (second, (1.0,)) if ax[0] == 1 else ((1.0,), second)
    return _run(fn, input, ("separable", row, column, ax[0]), mode, cval, output, stream)


# ---- public functions: the N-D filters (host or GPU), or the 2-D GPU kernels for their cases


def _on_gpu_path(x):
    """CuPy arrays, PyTorch tensors and other CUDA arrays (Numba, JAX:
    __cuda_array_interface__ or a CUDA __dlpack_device__) take the 2-D path
    (the GPU kernels, or the host's 2-D kernels for a CPU tensor)."""
    if _framework(x) in ("cupy", "torch"):
        return True
    if isinstance(x, np.ndarray):
        return False
    if hasattr(x, "__cuda_array_interface__"):
        return True
    device = getattr(x, "__dlpack_device__", None)
    try:
        return device is not None and device()[0] in (2, 13)  # kDLCUDA, kDLCUDAManaged
    except Exception:
        return False


def _gpu_nd(fn, input, stream, call):
    """The N-D path for a GPU array: CuPy arrays and PyTorch tensors only
    (results are made by their framework)."""
    if _framework(input) is None:
        raise TypeError(
            f"{fn}: this call needs the N-D filters, which take NumPy, CuPy and PyTorch arrays "
            f"(got {type(input).__name__}; its 2-D float images run on the tiled kernels)"
        )
    with _h.on_stream(input, stream):
        return call()


def _zero_origin(origin):
    values = origin if isinstance(origin, (list, tuple, np.ndarray)) else [origin]
    return all(
        isinstance(o, numbers.Integral) and not isinstance(o, bool) and o == 0 for o in values
    )


# CuPy arrays and PyTorch tensors take the N-D filters (SciPy's bits) in
# every call. True sends their 2-D float64 images to the 2-D tiled kernels
# where those compute the call (faster, within a few ulps of SciPy: not its
# bits, which the peer suites' device mode compares); float32 never goes
# there (its float32 sums miss SciPy's own float32 tests).
_TILED_FLOAT64 = False


def _fast_2d(input, output, mode):
    """Whether a call on a GPU array takes the 2-D tiled kernels: the CUDA
    arrays of other frameworks (no N-D path there) and, with _TILED_FLOAT64,
    CuPy / PyTorch float64 images; a 2-D float image, one mode, an output of
    the input's dtype (a C-order array that does not share the input's
    memory)."""
    other = _framework(input) is None  # no N-D path there: float32 too
    if not other and not _TILED_FLOAT64:
        return False
    wanted = ("float32", "float64") if other else ("float64",)
    if _dtype_name(input) not in wanted or getattr(input, "ndim", 0) != 2:
        return False
    if not (isinstance(mode, str) and mode in _MODES):
        return False
    if output is None:
        return True
    if isinstance(output, (type, np.dtype, str)):
        try:
            return np.dtype(output).name == _dtype_name(input)
        except TypeError:
            return False
    same_shape = tuple(getattr(output, "shape", ())) == tuple(input.shape)
    if _dtype_name(output) != _dtype_name(input) or not same_shape:
        return False
    if other:
        return output is not input and _framework(output) is None
    return (
        _framework(output) == _framework(input)
        and _h.writable_c_order(output)
        and not _h.may_share_memory(input, output)
    )


def _fast_axes(axes):
    try:
        return _axes("", axes)
    except (TypeError, ValueError):
        return None


def _fast_weights(weights):
    try:
        w = _h.host_weights(weights)
    except (TypeError, ValueError):
        return False
    return w.ndim == 2 and w.dtype.kind in "biuf" and all(1 <= k <= 63 for k in w.shape)


def _fast_gaussian(sigma, order, truncate, radius, axes):
    ax = _fast_axes(axes)
    if ax is None:
        return False
    try:
        n = len(ax)
        orders, sigmas, radii = (_h.per_axis(v, n) for v in (order, sigma, radius))
        truncate = float(truncate)
        for o, s, r in zip(orders, sigmas, radii):
            s = float(s)
            if o != 0 or not np.isfinite(s) or s < 0 or not np.isfinite(truncate):
                return False
            if s <= 1e-15:
                continue
            r = int(truncate * s + 0.5) if r is None else r
            if not isinstance(r, numbers.Integral) or not 0 <= r <= 31:
                return False
    except (TypeError, ValueError, RuntimeError, OverflowError):
        return False
    return True


def _fast_uniform(size, origin, axes):
    ax = _fast_axes(axes)
    if ax is None or not _zero_origin(origin):
        return False
    try:
        sizes = _h.per_axis(size, len(ax))
    except RuntimeError:
        return False
    return all(isinstance(k, numbers.Integral) and 1 <= k <= 63 for k in sizes)


def _general_filter(fn, flip, doc):
    """correlate (flip False) or convolve: the public function named fn."""

    def call(
        input, weights, output=None, mode="reflect", cval=0.0, origin=0, *, axes=None, stream=None
    ):
        nd = lambda: _h.correlate_nd(  # noqa: E731
            fn, input, weights, output, mode, cval, origin, flip, axes
        )
        if not _on_gpu_path(input):
            return nd()
        if (
            _fast_2d(input, output, mode)
            and axes is None
            and _zero_origin(origin)
            and _fast_weights(weights)
        ):
            return _gpu_correlate(fn, input, weights, output, mode, cval, origin, stream, flip)
        return _gpu_nd(fn, input, stream, nd)

    call.__name__ = call.__qualname__ = fn
    call.__doc__ = doc
    return call


correlate = _general_filter(
    "correlate",
    False,
    "As scipy.ndimage.correlate: sum of w[i, ...] * input[x + i - (k // 2 + origin), ...].",
)
convolve = _general_filter(
    "convolve",
    True,
    "As scipy.ndimage.convolve: correlate with the flipped weights (origins negated).",
)


def correlate1d(
    input, weights, axis=-1, output=None, mode="reflect", cval=0.0, origin=0, *, stream=None
):
    """As scipy.ndimage.correlate1d: a 1-D correlation along `axis`."""
    nd = lambda: _h.correlate1d("correlate1d", input, weights, axis, output, mode, cval, origin)  # noqa: E731
    return _gpu_nd("correlate1d", input, stream, nd) if _on_gpu_path(input) else nd()


def convolve1d(
    input, weights, axis=-1, output=None, mode="reflect", cval=0.0, origin=0, *, stream=None
):
    """As scipy.ndimage.convolve1d: a 1-D convolution along `axis`."""
    nd = lambda: _h.convolve1d("convolve1d", input, weights, axis, output, mode, cval, origin)  # noqa: E731
    return _gpu_nd("convolve1d", input, stream, nd) if _on_gpu_path(input) else nd()


def gaussian_filter1d(
    input,
    sigma,
    axis=-1,
    order=0,
    output=None,
    mode="reflect",
    cval=0.0,
    truncate=4.0,
    *,
    radius=None,
    stream=None,
):
    """As scipy.ndimage.gaussian_filter1d (order >= 0: the Gaussian's derivative)."""
    nd = lambda: _h.gaussian_filter1d(  # noqa: E731
        "gaussian_filter1d", input, sigma, axis, order, output, mode, cval, truncate, radius
    )
    return _gpu_nd("gaussian_filter1d", input, stream, nd) if _on_gpu_path(input) else nd()


def gaussian_filter(
    input,
    sigma,
    order=0,
    output=None,
    mode="reflect",
    cval=0.0,
    truncate=4.0,
    *,
    radius=None,
    axes=None,
    stream=None,
):
    """As scipy.ndimage.gaussian_filter: one gaussian_filter1d pass per axis with
    sigma > 1e-15 (weights exp(-x^2 / (2 sigma^2)) over radius
    int(truncate * sigma + 0.5) summing to 1, times the derivative's polynomial
    for order > 0)."""
    nd = lambda: _h.gaussian_filter(  # noqa: E731
        "gaussian_filter", input, sigma, order, output, mode, cval, truncate, radius, axes
    )
    if not _on_gpu_path(input):
        return nd()
    if _fast_2d(input, output, mode) and _fast_gaussian(sigma, order, truncate, radius, axes):
        return _gpu_gaussian_filter(
            input, sigma, order, output, mode, cval, truncate, radius, axes, stream
        )
    return _gpu_nd("gaussian_filter", input, stream, nd)


def uniform_filter1d(
    input, size, axis=-1, output=None, mode="reflect", cval=0.0, origin=0, *, stream=None
):
    """As scipy.ndimage.uniform_filter1d: the running mean of `size` values along `axis`."""
    nd = lambda: _h.uniform_filter1d(
        "uniform_filter1d", input, size, axis, output, mode, cval, origin
    )  # noqa: E731
    return _gpu_nd("uniform_filter1d", input, stream, nd) if _on_gpu_path(input) else nd()


def uniform_filter(
    input, size=3, output=None, mode="reflect", cval=0.0, origin=0, *, axes=None, stream=None
):
    """As scipy.ndimage.uniform_filter: the mean over `size` values along each axis
    (window [i - size // 2 - origin, i + (size - 1) // 2 - origin])."""
    nd = lambda: _h.uniform_filter(  # noqa: E731
        "uniform_filter", input, size, output, mode, cval, origin, axes
    )
    if not _on_gpu_path(input):
        return nd()
    if _fast_2d(input, output, mode) and _fast_uniform(size, origin, axes):
        return _gpu_uniform_filter(input, size, output, mode, cval, origin, axes, stream)
    return _gpu_nd("uniform_filter", input, stream, nd)


def sobel(input, axis=-1, output=None, mode="reflect", cval=0.0, *, stream=None):
    """As scipy.ndimage.sobel: [-1, 0, 1] along `axis` (a correlation), then
    [1, 2, 1] along every other axis."""
    nd = lambda: _h.sobel("sobel", input, axis, output, mode, cval)  # noqa: E731
    if not _on_gpu_path(input):
        return nd()
    if (
        _fast_2d(input, output, mode)
        and _fast_axes(axis) is not None
        and len(_fast_axes(axis)) == 1
    ):
        return _gpu_sobel(input, axis, output, mode, cval, stream)
    return _gpu_nd("sobel", input, stream, nd)


def laplace(input, output=None, mode="reflect", cval=0.0, *, axes=None, stream=None):
    """As scipy.ndimage.laplace: the sum over the axes of [1, -2, 1] along each."""
    nd = lambda: _h.laplace("laplace", input, output, mode, cval, axes)  # noqa: E731
    if not _on_gpu_path(input):
        return nd()
    if _fast_2d(input, output, mode) and _fast_axes(axes) is not None:
        return _gpu_laplace(input, output, mode, cval, axes, stream)
    return _gpu_nd("laplace", input, stream, nd)
