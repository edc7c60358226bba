"""NumPy's own sort / argsort tests (``numpy/_core/tests/test_multiarray.py``
of the installed numpy: nothing is fetched) with gpuprim.sort and
gpuprim.argsort in place of ``np.sort``, ``np.argsort``, ``ndarray.sort``
(in place: the array receives gpuprim's sorted copy) and
``ndarray.argsort``, by the mechanism of _peer.py.

Every test of the file that calls one of them runs here (the sort tests
of TestMethods, the module's test_sort_* / test_argsort_* cases, and the
tests that use a sort as a helper: searchsorted with a sorter, partition,
lexsort); each substituted call is also checked against NumPy's answer
(argsort against NumPy's stable order, which gpuprim gives for every
kind). The remaining failures are in XFAIL: each a dtype gpuprim's sort
refuses by name with TypeError.

Not collected by the default run (its name does not start with ``test_``:
12,333 tests, about a minute of CPU); ``scripts/test-python.sh`` runs it
after the default run, or run it on its own::

    python -m pytest -q python/tests/peers/numpy_sort.py
"""

import pathlib

import numpy as np
import pytest

import gpuprim as gp

import _peer

_peer.use_env_mode()
_FILE = pathlib.Path(np.__file__).parent / "_core" / "tests" / "test_multiarray.py"
numpy_sort, numpy_argsort = np.sort, np.argsort


def sort(a, axis=-1, kind=None, order=None, *, stable=None):
    _peer.count()
    got = _peer.call(gp.sort, a, axis, kind, order, stable=stable, arrays=("a",))
    return _peer.agree(got, numpy_sort, a, axis, kind, order, stable=stable)


def argsort(a, axis=-1, kind=None, order=None, *, stable=None):
    _peer.count()
    got = _peer.call(gp.argsort, a, axis, kind, order, stable=stable, arrays=("a",))
    # NumPy must take these arguments; its unstable kinds may order equal
    # keys otherwise, so the answer is compared with its stable order,
    # which is gpuprim's for every kind.
    _peer.peer_answer(numpy_argsort, a, axis, kind, order, stable=stable)
    return _peer.agree(got, numpy_argsort, a, axis, stable=True)


def sort_method(arr):
    def sort_in_place(axis=-1, kind=None, order=None, *, stable=None):
        arr[...] = sort(arr, axis, kind, order, stable=stable)

    return sort_in_place


def argsort_method(arr):
    return lambda axis=-1, kind=None, order=None, *, stable=None: argsort(
        arr, axis, kind, order, stable=stable
    )


peer, _reaching = _peer.load(
    _FILE,
    {"sort": sort, "argsort": argsort},
    {"sort": sort_method, "argsort": argsort_method},
)

# Each raises gpuprim's TypeError naming the dtype it does not sort.
_COMPLEX = ("complex numbers are not sorted by gpuprim", TypeError)
_LONGDOUBLE = ("longdouble is not sorted by gpuprim", TypeError)
_OBJECT = ("object arrays are not sorted by gpuprim", TypeError)
_STRUCTURED = ("structured (void) arrays are not sorted by gpuprim", TypeError)
_STRINGS = ("strings are not sorted by gpuprim", TypeError)
_TIME = ("datetime64 / timedelta64 are not sorted by gpuprim", TypeError)
XFAIL = {
    # complex first, then strings, object, structured, datetime64 arrays
    "TestMethods::test_argsort": _COMPLEX,
    # the NaN order of complex numbers
    "TestMethods::test_sort": _COMPLEX,
    "TestMethods::test_sort_complex": _COMPLEX,
    "TestMethods::test_sort_complex_byte_swapping": _COMPLEX,
    "TestMethods::test_sort_signed[longdouble]": _LONGDOUBLE,
    "TestMethods::test_sort_unsigned[longdouble]": _LONGDOUBLE,
    "TestMethods::test_sort_string": _STRINGS,
    "TestMethods::test_sort_object": _OBJECT,
    "TestMethods::test_sort_bad_ordering": _OBJECT,
    "TestLexsort::test_object": _OBJECT,
    "TestMethods::test_sort_structured": _STRUCTURED,
    "TestMethods::test_sort_order": _STRUCTURED,
    "TestMethods::test_void_sort": _STRUCTURED,
    "TestMethods::test_partition_cdtype": _STRUCTURED,
    "TestRecord::test_unicode_order": _STRUCTURED,
    "TestMethods::test_sort_time": _TIME,
}

TESTS = _peer.expose(peer, _reaching, globals())
