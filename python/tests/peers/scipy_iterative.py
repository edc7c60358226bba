"""SciPy's own solver tests with gpuprim's cg and bicgstab substituted (issue 46).

Loads ``scipy/sparse/linalg/_isolve/tests/test_iterative.py`` from the
installed SciPy (nothing is fetched), with the solvers under test narrowed to
``bicgstab`` and ``cg`` and those two names bound to
``gpuprim.sparse.linalg``'s, and exposes its tests here. The tests of the
other solvers (test_show: tfqmr; TestQMR, TestGMRES) are left out: they do
not call gpuprim. Each call goes through ``_peer.call`` (CuPy arrays and
cupyx matrices with GPUPRIM_PEER_ARRAYS=cupy, the test's LinearOperators
and callbacks then called by gpuprim with CuPy vectors).

Not collected by the default run (its name does not start with ``test_``);
scripts/test-python.sh runs it after that, or run it on its own::

    python -m pytest -q python/tests/peers/scipy_iterative.py
"""

import functools
import importlib.util
import pathlib
import re

import pytest

scipy_isolve = pytest.importorskip("scipy.sparse.linalg._isolve")

import gpuprim as gp  # noqa: E402

import _peer  # noqa: E402

_peer.use_env_mode()
_TESTS = pathlib.Path(scipy_isolve.__file__).parent / "tests" / "test_iterative.py"


def _substitute(solver):
    """gpuprim's solver as the test file calls it: counted, and through
    _peer.call (CuPy arrays in the device mode)."""

    @functools.wraps(solver)
    def solve(*args, **kwargs):
        _peer.count()
        return _peer.call(solver, *args, arrays=("A", "b", "x0", "M"), **kwargs)

    return solve


cg = _substitute(gp.sparse.linalg.cg)
bicgstab = _substitute(gp.sparse.linalg.bicgstab)


def _load():
    source = _TESTS.read_text()
    narrowed, count = re.subn(
        r"_SOLVERS = \[[^\]]*\]", "_SOLVERS = [bicgstab, cg]", source, count=1
    )
    if count != 1:
        raise RuntimeError(f"{_TESTS}: no _SOLVERS list to narrow")
    spec = importlib.util.spec_from_loader("scipy_test_iterative_on_gpuprim", loader=None)
    module = importlib.util.module_from_spec(spec)
    module.__file__ = str(_TESTS)
    # The test file imports cg and bicgstab from scipy.sparse.linalg._isolve:
    # bind gpuprim's while it runs its module body.
    saved = scipy_isolve.cg, scipy_isolve.bicgstab
    scipy_isolve.cg, scipy_isolve.bicgstab = cg, bicgstab
    try:
        exec(compile(narrowed, str(_TESTS), "exec"), module.__dict__)
    finally:
        scipy_isolve.cg, scipy_isolve.bicgstab = saved
    return module


# The tests that call cg or bicgstab: every test function but test_show
# (tfqmr's), and not the TestQMR / TestGMRES classes.
_module = _load()
globals().update(
    {
        name: value
        for name, value in vars(_module).items()
        if (name.startswith("test_") and name != "test_show") or name in ("solver", "case")
    }
)

# Strict expected failures (test id -> (reason, exception type)), none
# today; the fixture also records each test's gpuprim calls.
XFAIL = {}
_listed_xfail = _peer._listed_xfail
