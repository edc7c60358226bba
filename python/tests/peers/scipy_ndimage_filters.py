"""SciPy's own ndimage filter tests (``scipy/ndimage/tests/test_filters.py``
of the installed scipy: nothing is fetched) with gpuprim.ndimage's
functions in place of ``ndimage.<name>`` for the names gpuprim has
(correlate, convolve, correlate1d, convolve1d, gaussian_filter,
gaussian_filter1d, uniform_filter, uniform_filter1d, sobel, laplace), by
the mechanism of _peer.py: the test file's ``ndimage`` is a namespace
holding gpuprim's functions and SciPy's others.

Every substituted call is also checked against SciPy's answer for the same
arguments (on copies made before gpuprim ran, so ``output=`` arrays and
in-place calls compare too): same dtype and shape, and the same values bit
for bit. The tests run on NumPy arrays (the ``xp`` fixture of SciPy's
conftest, NumPy only without SCIPY_ARRAY_API): the CPU package.

Every test that calls gpuprim passes (1810 here, NumPy 2.4.6, SciPy
1.17.1); XFAIL is the place for a test that may not (a strict xfail that
must raise the listed type), empty today. The tests of the other filters
(minimum, median, rank, generic, ...) are skipped as not calling gpuprim.

Not collected by the default run (its name does not start with ``test_``);
``scripts/test-python.sh`` runs it after the default run, or run it on its
own::

    python -m pytest -q python/tests/peers/scipy_ndimage_filters.py
"""

import copy
import pathlib
import types

import numpy as np
import pytest

scipy_ndimage = pytest.importorskip("scipy.ndimage")
pytest.importorskip("hypothesis")

import gpuprim as gp  # noqa: E402

import _peer  # noqa: E402

_peer.use_env_mode()

# The fixtures the tests take, from SciPy's conftest: xp (NumPy only without
# SCIPY_ARRAY_API) and num_parallel_threads (1 without pytest-run-parallel).
import scipy.conftest as _scipy_conftest  # noqa: E402

xp = _scipy_conftest.xp
num_parallel_threads = getattr(_scipy_conftest, "num_parallel_threads", None)
if num_parallel_threads is None:  # pytest-run-parallel's own fixture is there

    @pytest.fixture
    def num_parallel_threads():
        return 1


_FILE = pathlib.Path(scipy_ndimage.__file__).parent / "tests" / "test_filters.py"
# Every function gpuprim.ndimage has.
NAMES = tuple(gp.ndimage.__all__)


def _compare(name, got, want):
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype, f"{name}: gpuprim gives {got.dtype}, SciPy {want.dtype}"
    np.testing.assert_array_equal(
        got, want, strict=True, err_msg=f"{name}: gpuprim differs from SciPy"
    )


class _Substitute:
    """gpuprim.ndimage.<name>, counted and checked against SciPy's; it hashes
    and compares as SciPy's function, so the test file's tables keyed by
    SciPy's functions (capabilities, ``f in [ndimage.convolve, ...]``)
    find it."""

    def __init__(self, name):
        self.__name__ = name
        self.ours = getattr(gp.ndimage, name)
        self.theirs = getattr(scipy_ndimage, name)

    def __hash__(self):
        return hash(self.theirs)

    def __eq__(self, other):
        return other is self or other is self.theirs

    def __repr__(self):
        return f"<gpuprim substitute for scipy.ndimage.{self.__name__}>"

    def __call__(self, *args, **kwargs):
        _peer.count()
        # SciPy's arguments: copies made before gpuprim writes any output
        # (deepcopy keeps output=input the same object among the copies).
        peer_args, peer_kwargs = copy.deepcopy((args, kwargs))
        got = _peer.call(self.ours, *args, arrays=_DATA, **kwargs)
        want = _peer.peer_answer(self.theirs, *peer_args, **peer_kwargs)
        _compare(self.__name__, got, want)
        return got


# The parameters that hold data (moved to CuPy in the device mode).
_DATA = ("input", "weights", "output")
SUBSTITUTES = {name: _Substitute(name) for name in NAMES}


def _load():
    """The test file run with ``from scipy import ndimage`` giving a namespace
    of SciPy's functions and gpuprim's substitutes (scipy.ndimage is
    rebound while the module body runs, so the substitutes are also what
    its parametrize lists hold)."""
    import scipy

    proxy = types.ModuleType("ndimage")
    proxy.__dict__.update(vars(scipy_ndimage))
    proxy.__dict__.update(SUBSTITUTES)
    saved = scipy.ndimage
    scipy.ndimage = proxy
    try:
        return _peer.load(_FILE, {}, helpers=("ndimage",), package="scipy.ndimage.tests")
    finally:
        scipy.ndimage = saved


peer, _reaching = _load()

XFAIL = {}

TESTS = _peer.expose(peer, _reaching, globals())
