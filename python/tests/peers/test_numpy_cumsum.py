"""NumPy's own tests of cumsum and of the running maximum / minimum, with
gpuprim's in place (by the mechanism of _peer.py), read from the installed
numpy (nothing is fetched):

- ``lib/tests/test_function_base.py``: TestCumsum and the tests that use
  ``np.cumsum`` as a helper (diff, gradient);
- ``_core/tests/test_ufunc.py``: the gufunc cumsum tests, whose reference
  is ``np.cumsum`` / ``ndarray.cumsum``;
- ``_core/tests/test_umath.py``: ``np.maximum.accumulate`` /
  ``np.minimum.accumulate`` (gpuprim.cummax / cummin along axis 0, NumPy's
  default axis of accumulate).

``np.cumsum`` and ``ndarray.cumsum`` become gpuprim.cumsum; each call's
answer is also checked against NumPy's. ``np.cumulative_sum`` (a name
gpuprim does not have) stays NumPy's, so the cases that pass it are
skipped as not calling gpuprim. Remaining failures: XFAIL. It runs in the
default pytest run (a few seconds); test_function_base.py imports
hypothesis, so without it the shim is skipped.
"""

import pathlib

import numpy as np
import pytest

import gpuprim as gp

import _peer

pytest.importorskip("hypothesis", reason="numpy's test_function_base.py imports hypothesis")
_peer.use_env_mode()

_numpy_dir = pathlib.Path(np.__file__).parent
numpy_cumsum = np.cumsum
numpy_maximum_accumulate = np.maximum.accumulate
numpy_minimum_accumulate = np.minimum.accumulate


def cumsum(a, axis=None, dtype=None, out=None):
    _peer.count()
    got = _peer.call(gp.cumsum, a, axis, dtype, out, arrays=("a", "out"))
    return _peer.agree(got, numpy_cumsum, a, axis, dtype)


def cumsum_method(arr):
    return lambda axis=None, dtype=None, out=None: cumsum(arr, axis, dtype, out)


def _accumulate(gp_fn, numpy_fn):
    def accumulate(array, axis=0, dtype=None, out=None):
        _peer.count()
        if dtype is not None or out is not None:
            raise TypeError("the shim passes only array and axis to gpuprim")
        got = _peer.call(gp_fn, array, axis=axis, arrays=("a",))
        return _peer.agree(got, numpy_fn, array, axis)

    return accumulate


_FUNCTIONS = {
    "cumsum": cumsum,
    "maximum.accumulate": _accumulate(gp.cummax, numpy_maximum_accumulate),
    "minimum.accumulate": _accumulate(gp.cummin, numpy_minimum_accumulate),
}
_FILES = [
    _numpy_dir / "lib" / "tests" / "test_function_base.py",
    _numpy_dir / "_core" / "tests" / "test_ufunc.py",
    _numpy_dir / "_core" / "tests" / "test_umath.py",
]

XFAIL = {}

TESTS = []
for _file in _FILES:
    _module, _reaching = _peer.load(_file, _FUNCTIONS, {"cumsum": cumsum_method})
    TESTS += _peer.expose(_module, _reaching, globals())
