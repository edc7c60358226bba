"""NumPy's own histogram tests (``numpy/lib/tests/test_histograms.py`` of
the installed numpy: nothing is fetched) with gpuprim.histogram in place of
``np.histogram`` and of the file's ``histogram`` (imported from numpy), by
the mechanism of _peer.py. Each call's answer is also checked against
NumPy's for the same arguments (values, dtypes, edges).

The tests that never call it (histogramdd, the bin-edge helpers) are
skipped as not calling gpuprim; the remaining failures are in XFAIL, each
a refusal by name (TypeError). Runs in the default pytest run (seconds).
"""

import pathlib

import numpy as np

import gpuprim as gp

import _peer

_peer.use_env_mode()
_FILE = pathlib.Path(np.__file__).parent / "lib" / "tests" / "test_histograms.py"
numpy_histogram = np.histogram


def histogram(a, bins=10, range=None, density=None, weights=None):
    _peer.count()
    counts, edges = _peer.call(
        gp.histogram, a, bins, range, density, weights, arrays=("a", "bins", "weights")
    )
    with np.errstate(all="ignore"):
        want = _peer.peer_answer(numpy_histogram, a, bins, range, density, weights)
    np.testing.assert_array_equal(counts, want[0], strict=True, err_msg="counts differ from NumPy's")
    np.testing.assert_array_equal(edges, want[1], strict=True, err_msg="edges differ from NumPy's")
    return counts, edges


peer, _reaching = _peer.load(_FILE, {"histogram": histogram})

XFAIL = {
    # numpy compares datetime64 samples and edges as int64; gpuprim's edges
    # are float64, inexact beyond 2**53 (nanosecond dates).
    "TestHistogram::test_datetime": ("datetime64 samples are not supported", TypeError),
    # numpy bins in result_type(range, data): a longdouble range over
    # float16 / float32 / float64 data bins in longdouble, which gpuprim
    # does not take.
    "TestHistogram::test_precision": ("a longdouble range", TypeError),
}

TESTS = _peer.expose(peer, _reaching, globals())
