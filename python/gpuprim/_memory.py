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
import threading

from . import _core

__all__ = ["scratch_limit"]

# The limits of the ``with`` blocks open now, in the order they were
# entered (one list for the process: the cap is process-wide), and the
# limit in force before the first of them. The cap in force is the last
# entry's. Blocks of several threads may open and close in any order; each
# removes its own entry, so none leaves a stale cap behind.
_lock = threading.Lock()
_open = []
_before = [None]


def _apply():
    _core._set_scratch_limit(_open[-1][0] if _open else _before[0])


@contextlib.contextmanager
def scratch_limit(nbytes):
    """Within the ``with`` block, gpuprim's calls may draw at most ``nbytes``
    of scratch memory at once (counted from the block's start; ``None``: no
    cap); a call that would need more raises ``MemoryError``. The cap is
    process-wide (every thread, every device): the most recently entered
    block still open sets it, and when every block is closed the cap in
    force before the first is put back. Results, which the input's
    framework allocates, are not counted."""
    if nbytes is not None:
        nbytes = operator.index(nbytes)
    entry = [nbytes]  # a new object: this block's own, found by identity
    with _lock:
        previous = _core._set_scratch_limit(nbytes)
        if not _open:
            _before[0] = previous
        _open.append(entry)
    try:
        yield
    finally:
        with _lock:
            last = _open[-1] is entry
            _open[:] = [e for e in _open if e is not entry]
            if last:
                _apply()
