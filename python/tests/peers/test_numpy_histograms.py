"""numpy's own histogram tests (numpy/lib/tests/test_histograms.py, from the
installed numpy package: nothing is fetched) with gpuprim.histogram in place
of numpy.histogram.

Each numpy test method runs here as one case, with ``histogram`` of numpy's
test module and ``numpy.histogram`` both replaced by a wrapper that calls
gpuprim.histogram and counts the calls. A case that never calls it (the
histogramdd tests, the bin-edge helpers) is skipped as not calling gpuprim;
the others must pass, except those listed in REFUSED, each a feature
gpuprim.histogram refuses by name (they are expected to fail, strictly: one
that starts to pass fails the run until it is taken off the list).
"""

import importlib
import inspect

import numpy as np
import pytest

import gpuprim as gp

peer = importlib.import_module("numpy.lib.tests.test_histograms")
numpy_histogram = np.histogram

# The cases that fail, by test (numpy 2.4.6's file), with the reason: a
# refused feature (TypeError naming it) or a known difference.
_WEIGHTS = "weights= is not supported"
REFUSED = {
    "TestHistogram::test_arr_weights_mismatch": _WEIGHTS,
    "TestHistogram::test_exotic_weights": _WEIGHTS,
    "TestHistogram::test_outliers": _WEIGHTS,
    "TestHistogram::test_type": _WEIGHTS,
    "TestHistogram::test_weights": _WEIGHTS,
    "TestHistogram::test_datetime": "datetime64 samples are not supported",
    # numpy bins in result_type(range, data): a range of float32 / float64 /
    # longdouble scalars over float16 / float32 data compares in the wider
    # type; gpuprim reads the range as Python floats (edges of the data's
    # type).
    "TestHistogram::test_precision": "a range of NumPy scalars wider than the data",
}


def _cases():
    for cls_name, cls in inspect.getmembers(peer, inspect.isclass):
        if not cls_name.startswith("Test"):
            continue
        for name, method in inspect.getmembers(cls, inspect.isfunction):
            if not name.startswith("test"):
                continue
            all_marks = getattr(method, "pytestmark", [])
            if any(m.name == "skip" for m in all_marks):
                continue  # numpy skips it too
            marks = [m for m in all_marks if m.name == "parametrize"]
            if not marks:
                yield f"{cls_name}::{name}", cls, name, {}
                continue
            argname, values = marks[0].args[0], marks[0].args[1]
            for v in values:
                yield f"{cls_name}::{name}[{v}]", cls, name, {argname: v}


CASES = list(_cases())


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_numpy_histogram_suite(case, monkeypatch):
    case_id, cls, name, kwargs = case
    calls = []

    def substituted(*args, **kw):
        calls.append(1)
        return gp.histogram(*args, **kw)

    monkeypatch.setattr(peer, "histogram", substituted)
    monkeypatch.setattr(np, "histogram", substituted)
    instance = cls()
    if hasattr(instance, "setup_method"):
        instance.setup_method()
    base_id = case_id.split("[")[0]
    try:
        getattr(instance, name)(**kwargs)
    except Exception:
        if base_id in REFUSED or case_id in REFUSED:
            pytest.xfail(REFUSED.get(case_id, REFUSED.get(base_id)))
        raise
    finally:
        if hasattr(instance, "teardown_method"):
            instance.teardown_method()
    if not calls:
        pytest.skip("does not call gpuprim.histogram")
    assert base_id not in REFUSED and case_id not in REFUSED, "listed as refused, but passes"
