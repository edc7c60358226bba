"""transpose and matmul with NumPy's names."""

from . import _core
from ._arrays import refuse_unsupported


def transpose(a, *, stream=None):
    """The transpose of a 2-D array as a new C-contiguous array, as
    numpy.ascontiguousarray(a.T) (a 1-D array is copied). Any dtype."""
    return _core._transpose(a, stream)


def matmul(a, b, out=None, *, stream=None):
    """a @ b for 2-D float32 or float64 matrices, or 3-D stacks of them (a stack of
    one, or a 2-D operand, broadcasts), as numpy.matmul. Full fp32 (no TF32) on
    the GPU, through cuBLAS. out= is refused (TypeError)."""
    refuse_unsupported("matmul", "out", out)
    return _core._matmul(a, b, stream)
