"""The scratch limit: a cap on the temporary device memory the library
draws for a call (its scratch, from CUDA's stream-ordered pool).

A call whose scratch cannot be allocated, because the device is full or
because it would pass the cap, raises ``MemoryError`` naming the bytes
asked for and the bytes free; nothing is left allocated and the next call
works. The cap lets a program (or a test) keep gpuprim's scratch within a
budget, and shows what running out looks like without filling a GPU.
"""

import contextlib
import operator

from . import _core

__all__ = ["scratch_limit"]


@contextlib.contextmanager
def scratch_limit(nbytes):
    """Within the ``with`` block, gpuprim's calls may draw at most ``nbytes``
    of scratch memory at once (counted from the block's start; ``None``: no
    cap); a call that would need more raises ``MemoryError``. The cap is
    process-wide (every thread, every device) and the previous one is put
    back on leaving the block. Results, which the input's framework
    allocates, are not counted."""
    if nbytes is not None:
        nbytes = operator.index(nbytes)
    previous = _core._set_scratch_limit(nbytes)
    try:
        yield
    finally:
        _core._set_scratch_limit(previous)
