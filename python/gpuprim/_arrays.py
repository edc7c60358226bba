"""NumPy's argument rules, shared by the package's functions.

The compiled core (``gpuprim._core``) takes typed arguments: an array, a
flag for "along the last axis", an operator enum. What NumPy accepts in
their place (``axis=-2``, ``keepdims``, ``kind='mergesort'``, ...) is turned
into them here and in the family modules beside this one (``_reduction``,
``_scan``, ``_sort``), each function a few readable lines, as CuPy keeps
its argument logic in Python.
"""

import operator

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
