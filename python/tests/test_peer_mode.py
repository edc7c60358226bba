"""The peer suites' device mode (python/tests/peers/_peer.py) on the CPU: a
fake device array library stands for CuPy, so what the mode moves, keeps,
writes back and wraps is checked without a GPU."""

import pathlib
import sys

import numpy as np
import pytest

sys.path.insert(0, str(pathlib.Path(__file__).parent / "peers"))

import _peer  # noqa: E402
import _peer_report  # noqa: E402


class FakeArray:
    """A device array of the fake library: holds a private NumPy copy."""

    def __init__(self, host):
        self.data = np.array(host, copy=True)


def fake_mode():
    return _peer.DeviceMode(
        "fake", FakeArray, FakeArray, lambda d: np.array(d.data, copy=True), {"csr": FakeSparse}
    )


class FakeSparse:
    def __init__(self, matrix):
        self.matrix = matrix


@pytest.fixture
def mode(monkeypatch):
    m = fake_mode()
    monkeypatch.setattr(_peer, "MODE", m)
    return m


def test_arrays_go_to_the_device_and_answers_come_back(mode):
    seen = []

    def fn(a, bins=10, weights=None):
        seen.append((type(a), bins, type(weights)))
        return FakeArray(np.sort(a.data)), FakeArray(weights.data * 2)

    a, w = np.array([3, 1, 2]), np.ones(3)
    before = _peer.DEVICE_CALLS[0]
    counts, doubled = _peer.call(fn, a, 5, weights=w)
    assert seen == [(FakeArray, 5, FakeArray)]
    assert type(counts) is np.ndarray and counts.tolist() == [1, 2, 3]
    assert doubled.tolist() == [2.0, 2.0, 2.0]
    assert _peer.DEVICE_CALLS[0] == before + 1


@pytest.mark.parametrize(
    "held",
    [
        np.array(["a", "b"]),
        np.array([1, None], dtype=object),
        np.array([1.0, 2.0], dtype=np.longdouble),
        np.array([1, 2], dtype=">i4" if sys.byteorder == "little" else "<i4"),
        np.array(["2020-01-01"], dtype="datetime64[D]"),
        np.ma.array([1, 2], mask=[0, 1]),
    ],
)
def test_a_call_with_an_array_the_device_cannot_hold_runs_on_the_host(mode, held):
    seen = []
    before = _peer.DEVICE_CALLS[0]
    other = np.arange(2.0)
    result = _peer.call(lambda *args: seen.append(args) or args[0], held, other)
    assert seen[0][0] is held and seen[0][1] is other  # the test's arrays, untouched
    assert result is held
    assert _peer.DEVICE_CALLS[0] == before


def test_only_the_data_parameters_named_move(mode):
    seen = {}

    def histogram(a, bins=10, range=None, weights=None):
        seen.update(a=type(a), range=type(range), weights=type(weights))
        return FakeArray(a.data)

    a, r = np.arange(4.0), np.array([0.0, 3.0])
    w = np.array([1, None], dtype=object)  # not data here: the call stays on the device
    _peer.call(histogram, a, 3, r, weights=w, arrays=("a", "bins"))
    assert seen == {"a": FakeArray, "range": np.ndarray, "weights": np.ndarray}
    _peer.call(histogram, a, 3, r, weights=w, arrays=("a", "weights"))  # unmovable data
    assert seen["a"] is np.ndarray


def test_an_argument_passed_twice_is_one_device_array_written_back(mode):
    x = np.arange(4.0)

    def in_place(a, output=None):
        assert output is a
        output.data[:] = a.data[::-1]
        return output

    result = _peer.call(in_place, x, output=x)
    assert result is x  # output= answered by the test's own array
    assert x.tolist() == [3.0, 2.0, 1.0, 0.0]


def test_a_read_only_argument_is_not_written_back(mode):
    x = np.arange(3.0)
    x.flags.writeable = False

    def writes_its_input(a):
        a.data[0] = 7.0
        return FakeArray(a.data)

    assert _peer.call(writes_its_input, x).tolist() == [7.0, 1.0, 2.0]
    assert x.tolist() == [0.0, 1.0, 2.0]


def test_a_device_call_answered_with_a_numpy_array_fails(mode):
    with pytest.raises(AssertionError, match="host copy"):
        _peer.call(lambda a: np.asarray(a.data), np.arange(3))
    # scalars and host-side arguments' calls are fine
    assert _peer.call(lambda a: 7, np.arange(3)) == 7
    assert _peer.call(lambda a: np.asarray(a), [1, 2]).tolist() == [1, 2]


def test_callbacks_see_numpy_arrays_and_answer_device_ones(mode):
    got = []

    def callback(x):
        got.append(type(x))
        return x * 2

    def solver(b, callback=None):
        out = callback(b)
        assert isinstance(out, FakeArray)
        return out

    x = _peer.call(solver, np.ones(2), callback=callback)
    assert got == [np.ndarray] and x.tolist() == [2.0, 2.0]


class Operator:
    """A test's LinearOperator: matvec on NumPy arrays, with a psolve."""

    shape = (2, 2)
    dtype = np.dtype(np.float64)

    def __init__(self):
        self.seen = []

    def matvec(self, v):
        self.seen.append(type(v))
        return 2 * v

    def psolve(self, v):
        self.seen.append(type(v))
        return v / 2


def test_operators_take_device_vectors_and_call_the_tests_operator_on_numpy(mode):
    op = Operator()

    def solver(A, b):
        assert A.shape == (2, 2) and A.dtype == np.float64
        return A.psolve(A.matvec(b))

    x = _peer.call(solver, op, np.array([1.0, 3.0]))
    assert x.tolist() == [1.0, 3.0]
    assert op.seen == [np.ndarray, np.ndarray]


def test_an_operator_given_a_numpy_vector_by_gpuprim_fails(mode):
    with pytest.raises(AssertionError, match="matvec with a numpy.ndarray"):
        _peer.call(lambda A, b: A.matvec(np.asarray(b.data)), Operator(), np.ones(2))


def test_sparse_matrices_go_to_the_devices_format_or_keep_the_call_on_the_host(mode):
    sparse = pytest.importorskip("scipy.sparse")
    csr = sparse.csr_array(np.eye(2))
    seen = []
    _peer.call(lambda A, b: seen.append((type(A), type(b))), csr, np.ones(2))
    assert seen[-1] == (FakeSparse, FakeArray)
    csc = sparse.csc_array(np.eye(2))  # no csc in the fake library: the host
    _peer.call(lambda A, b: seen.append((type(A), type(b))), csc, np.ones(2))
    assert seen[-1] == (type(csc), np.ndarray)


def test_the_mode_comes_from_the_environment(monkeypatch):
    monkeypatch.setattr(_peer, "MODE", None)
    assert _peer.use_env_mode({}) is None
    assert _peer.use_env_mode({"GPUPRIM_PEER_ARRAYS": "numpy"}) is None
    with pytest.raises(ValueError, match="'numpy', 'cupy' or 'simulate'"):
        _peer.use_env_mode({"GPUPRIM_PEER_ARRAYS": "torch"})
    pytest.importorskip("scipy")
    simulated = _peer.use_env_mode({"GPUPRIM_PEER_ARRAYS": "simulate"})
    assert simulated.name == "simulate" and not simulated.strict
    import gpuprim

    monkeypatch.setattr(gpuprim, "info", lambda: {"cuda_built": False})
    with pytest.raises(pytest.skip.Exception, match="without the CUDA backend"):
        _peer.use_env_mode({"GPUPRIM_PEER_ARRAYS": "cupy"})
    monkeypatch.setattr(gpuprim, "info", lambda: {"cuda_built": True})
    monkeypatch.setitem(sys.modules, "cupy", None)  # CuPy not importable
    with pytest.raises(pytest.skip.Exception, match="CuPy is not importable"):
        _peer.use_env_mode({"GPUPRIM_PEER_ARRAYS": "cupy"})


def test_without_a_mode_call_is_the_plain_call(monkeypatch):
    monkeypatch.setattr(_peer, "MODE", None)
    a = np.arange(3)
    assert _peer.call(lambda x: x, a) is a


class Report:
    """A pytest TestReport's fields the tally reads."""

    def __init__(self, nodeid, when, outcome, props=(), wasxfail=None):
        self.nodeid, self.when, self.outcome = nodeid, when, outcome
        self.passed = outcome == "passed"
        self.failed = outcome == "failed"
        self.skipped = outcome == "skipped"
        self.user_properties = list(props)
        if wasxfail is not None:
            self.wasxfail = wasxfail


def _phases(nodeid, call_outcome, calls, device_calls, wasxfail=None):
    props = [
        ("gpuprim_calls", calls),
        ("gpuprim_device_calls", device_calls),
        ("gpuprim_arrays", "cupy"),
    ]
    return [
        Report(nodeid, "setup", "passed"),
        Report(nodeid, "call", call_outcome, wasxfail=wasxfail),
        Report(nodeid, "teardown", "passed", props),
    ]


def test_the_report_counts_the_tests_that_call_gpuprim():
    tally = _peer_report.Tally()
    for r in (
        _phases("peers/numpy_sort.py::T::test_a", "passed", 3, 3)
        + _phases("peers/numpy_sort.py::T::test_b", "failed", 1, 0)
        + _phases("peers/numpy_sort.py::T::test_c", "skipped", 2, 2, wasxfail="complex")
        + _phases("peers/numpy_sort.py::T::test_d", "skipped", 0, 0)  # does not call gpuprim
        + _phases("peers/scipy_iterative.py::test_e", "passed", 1, 1)
    ):
        tally.add(r)
    suites = tally.suites()
    assert suites["numpy_sort"] == {
        "calling": 3,
        "on_device": 2,
        "arrays": "cupy",
        "passed": 1,
        "failed": 1,
        "xfailed": 1,
        "xpassed": 0,
        "skipped": 0,
        "pass_percent": 33.3,
    }
    assert suites["scipy_iterative"]["passed"] == 1
    text = _peer_report.table(suites)
    assert "| numpy_sort | cupy | 3 | 2 | 1 | 1 | 1 | 0 | 0 | 33.3 |" in text


def test_the_simulation_moves_to_arrays_gpuprim_runs_on_the_cpu(monkeypatch):
    import gpuprim as gp

    monkeypatch.setattr(_peer, "MODE", _peer.simulated_mode())
    seen = []

    def sort(a, axis=-1):
        seen.append(type(a))
        return gp.sort(a, axis)

    x = np.array([[3.0, 1.0], [2.0, -1.0]])
    got = _peer.call(sort, x, 0)
    assert seen == [_peer.SimulatedDeviceArray]
    assert type(got) is np.ndarray and got.tolist() == [[2.0, -1.0], [3.0, 1.0]]
