"""Runs a peer's own test file with gpuprim's functions substituted: the
mechanism the NumPy shims beside this file share.

``load`` reads the test file from the installed package (nothing is
fetched), rewrites the calls under test in its syntax tree -- ``np.sort``
becomes the shim's ``sort`` (and a name imported from numpy, such as
``from numpy import histogram``, is bound to the shim's), an attribute
``<x>.sort`` becomes the shim's method for ``<x>`` when ``<x>`` is a NumPy
array (and stays ``<x>``'s own otherwise) -- and runs its module body as a new module. ``expose`` puts the
tests that call the substituted names into the shim's namespace, where
pytest collects them with their own parametrization and marks, each
wrapped so that a run that never reaches gpuprim is skipped as "does not
call gpuprim". The shim's ``XFAIL`` dict (test id ``Class::name`` or
``name``, either with ``[params]`` for one case -> (reason, exception
type)) marks the remaining failures as strict expected failures that must
raise that type: a listed test that passes, or fails another way, fails
the run until the list is corrected.

Each substituted function counts its calls in ``CALLS`` and, where it
answers, compares its answer with NumPy's own for the same arguments, so a
test that compares two substituted calls (``np.sort(a, kind='quick')``
against ``np.sort(a, kind='heap')``) still checks gpuprim against NumPy.

The shims reach gpuprim through ``call(fn, *args, **kwargs)``. By default
that is ``fn(*args, **kwargs)``: the tests' NumPy arrays, the CPU package.
With ``GPUPRIM_PEER_ARRAYS=cupy`` (``use_env_mode()``, which each shim calls
on import; without CuPy or a CUDA device it skips the shim, saying which)
it is the device mode (``DeviceMode``): the call's data arguments (the
parameters the shim names in ``arrays=``: the samples, edges, weights,
outputs, matrices, vectors) are moved to CuPy (``cupy.asarray``; SciPy
sparse matrices to cupyx's of their format), a ``LinearOperator`` or a
function argument (``callback``)
is wrapped so that gpuprim calls it with CuPy arrays while the test's own
code still sees NumPy ones; gpuprim runs on the device, and its answer
comes back with ``.get()``, so the test's assertions and the shim's
comparison with NumPy / SciPy run on NumPy arrays as before. An array
argument written by the call (``output=``, ``out=``) is copied back into
the test's array, and a result that is such an argument's device copy is
answered by the test's array itself (``output=x`` returning ``x``).
Parameters given as arrays (``range=np.array(...)``, ``origin=``) and
lists stay as the test gives them. A call with a data array CuPy cannot
hold (object, strings, structured, datetime64, longdouble, another byte
order than the machine's) runs on the tests' arrays as they are, so
gpuprim's refusals and NumPy's errors are still compared; ``DEVICE_CALLS``
counts the calls that went to the device. A device call that answers
with a NumPy array (a host copy of device data) fails.

``GPUPRIM_PEER_ARRAYS=simulate`` runs the same mechanics on the CPU: the
"device" arrays are NumPy arrays of a class of their own
(``SimulatedDeviceArray``), which gpuprim runs as NumPy arrays, so the
shims' plumbing (which parameters move, write-backs, wrapped operators
and callbacks, answers brought back) is checked through the real suites
without a GPU; only the checks that need a real device library (answers
and operator calls of its own arrays) are off.
"""

import ast
import functools
import importlib.util
import inspect
import os
import pathlib
import types

import numpy as np
import pytest

CALLS = [0]
DEVICE_CALLS = [0]


def count():
    CALLS[0] += 1


# The environment variable that picks the arrays gpuprim is called with.
MODE_VARIABLE = "GPUPRIM_PEER_ARRAYS"


class DeviceMode:
    """How a call's NumPy arguments reach a device array library and back:
    name ('cupy'), array_type (its array class), to_device (NumPy array ->
    device array), to_host (device array -> NumPy array), sparse ({format:
    constructor} taking a SciPy sparse matrix of that format) and strict
    (whether gpuprim must answer, and call operators, with the library's
    arrays: False only for the simulation, whose arrays NumPy's functions
    turn back into plain NumPy arrays)."""

    def __init__(self, name, array_type, to_device, to_host, sparse=None, strict=True):
        self.name = name
        self.array_type = array_type
        self.to_device = to_device
        self.to_host = to_host
        self.sparse = sparse or {}
        self.strict = strict


def cupy_mode():
    """The DeviceMode of CuPy, or pytest.skip (at module level) saying why it
    cannot run: gpuprim without its CUDA backend, CuPy not importable, or
    no CUDA device."""
    import gpuprim

    if not gpuprim.info()["cuda_built"]:
        pytest.skip(
            f"{MODE_VARIABLE}=cupy: gpuprim was built without the CUDA backend",
            allow_module_level=True,
        )
    try:
        import cupy
    except ImportError as e:
        pytest.skip(f"{MODE_VARIABLE}=cupy: CuPy is not importable ({e})", allow_module_level=True)
    try:
        devices = cupy.cuda.runtime.getDeviceCount()
    except Exception as e:  # CUDARuntimeError without a driver or device
        pytest.skip(f"{MODE_VARIABLE}=cupy: no CUDA device ({e})", allow_module_level=True)
    if devices < 1:
        pytest.skip(f"{MODE_VARIABLE}=cupy: no CUDA device", allow_module_level=True)
    sparse = {}
    try:
        import cupyx.scipy.sparse as cupy_sparse

        for fmt in ("csr", "csc", "coo", "dia"):
            sparse[fmt] = getattr(cupy_sparse, f"{fmt}_matrix")
    except ImportError:
        pass
    return DeviceMode("cupy", cupy.ndarray, cupy.asarray, cupy.asnumpy, sparse)


class SimulatedDeviceArray(np.ndarray):
    """The simulation's device array: a NumPy array of a class of its own,
    which gpuprim takes as a NumPy array (the class says it is numpy's) and
    runs on the CPU, so the device mode's moves, write-backs, wrappers and
    answers go through the real suites without a GPU."""


SimulatedDeviceArray.__module__ = "numpy"


def simulated_mode():
    """GPUPRIM_PEER_ARRAYS=simulate: the device mode's mechanics on the CPU
    (SimulatedDeviceArray copies; SciPy CSR matrices as copies)."""
    import scipy.sparse

    return DeviceMode(
        "simulate",
        SimulatedDeviceArray,
        lambda a: np.array(a, copy=True).view(SimulatedDeviceArray),
        lambda d: np.array(d, copy=True).view(np.ndarray),
        {"csr": lambda m: scipy.sparse.csr_matrix(m, copy=True)},
        strict=False,
    )


MODE = None  # None: the tests' NumPy arrays as they are


def use_env_mode(environ=None):
    """Sets MODE from GPUPRIM_PEER_ARRAYS ('' or 'numpy': None; 'cupy': CuPy's
    DeviceMode, or a skip without CuPy or a device; 'simulate': the
    simulation on the CPU) and returns it."""
    global MODE
    value = (os.environ if environ is None else environ).get(MODE_VARIABLE, "").strip().lower()
    if value in ("", "numpy"):
        MODE = None
    elif value == "cupy":
        MODE = cupy_mode()
    elif value == "simulate":
        MODE = simulated_mode()
    else:
        raise ValueError(
            f"{MODE_VARIABLE}={value!r}: the peer suites take 'numpy', 'cupy' or 'simulate'"
        )
    return MODE


def _movable(x):
    """Whether a NumPy array can be held by the device library: bool,
    integers, float16/32/64, complex64/128, in the machine's byte order."""
    dt = x.dtype
    return (
        dt.kind in "biufc"
        and dt.isnative
        and dt.itemsize <= (16 if dt.kind == "c" else 8)
        and not (dt.kind == "f" and dt.itemsize > 8)
    )


def _is_sparse(x):
    return type(x).__module__.startswith("scipy.sparse") and hasattr(x, "format")


def _is_operator(x):
    return hasattr(x, "matvec") and hasattr(x, "shape") and not isinstance(x, np.ndarray)


_FUNCTIONS = (types.FunctionType, types.MethodType, functools.partial)


class _Moved:
    """One device call's arguments: the NumPy arrays moved (by identity, so
    that an array passed twice, output=x, is one device array), written
    back after the call."""

    def __init__(self, mode):
        self.mode = mode
        self.arrays = {}  # id(NumPy array) -> (NumPy array, device array)
        self.any = False  # whether anything went to the device

    def host_only(self, value):
        """Whether the call must run on the host: an array (or a sparse
        matrix's values) that the device library cannot hold."""
        if isinstance(value, (tuple, list)):
            return any(self.host_only(v) for v in value)
        if isinstance(value, dict):
            return any(self.host_only(v) for v in value.values())
        if isinstance(value, np.ndarray):
            return type(value) is not np.ndarray or not _movable(value)
        if _is_sparse(value):
            return value.format not in self.mode.sparse or not _movable(value.data)
        return False

    def device(self, value):
        """value with its NumPy arrays, sparse matrices, operators and
        functions made the device's."""
        mode = self.mode
        if type(value) is np.ndarray:
            self.any = True
            kept = self.arrays.get(id(value))
            if kept is None:
                kept = (value, mode.to_device(value))
                self.arrays[id(value)] = kept
            return kept[1]
        if type(value) is tuple:
            return tuple(self.device(v) for v in value)
        if _is_sparse(value):
            self.any = True
            return mode.sparse[value.format](value)
        return self.wrapped(value)

    def wrapped(self, value):
        """value, or for an operator or a function (whatever the argument)
        its wrapper that takes the device's arrays."""
        if _is_operator(value):
            return HostOperator(value, self.mode)
        if isinstance(value, _FUNCTIONS):
            return host_function(value, self.mode)
        return value

    def write_back(self):
        """Copies each device array the call changed into the test's array."""
        for original, moved in self.arrays.values():
            if not original.flags.writeable:
                continue
            now = self.mode.to_host(moved)
            changed = now.tobytes() != np.ascontiguousarray(original).tobytes()
            if now.shape == original.shape and changed:
                np.copyto(original, now)

    def host(self, result):
        """The call's answer with NumPy arrays for device ones (a moved
        argument's device array answered by the test's array itself)."""
        if isinstance(result, self.mode.array_type):
            for original, moved in self.arrays.values():
                if moved is result:
                    return original
            return self.mode.to_host(result)
        if type(result) is tuple:
            return tuple(self.host(r) for r in result)
        if type(result) is list:
            return [self.host(r) for r in result]
        return result


def _host_arrays(result):
    """The NumPy arrays (not scalars) in a result (tuples and lists opened)."""
    if isinstance(result, np.ndarray):
        return [result]
    if isinstance(result, (tuple, list)):
        return [a for r in result for a in _host_arrays(r)]
    return []


def host_function(fn, mode):
    """fn for gpuprim's side of a device call: called with device arrays, it
    calls fn with their NumPy copies and answers with fn's answer on the
    device (a callback's None stays None)."""

    @functools.wraps(fn)
    def on_host(*args, **kwargs):
        args = [mode.to_host(a) if isinstance(a, mode.array_type) else a for a in args]
        kwargs = {
            k: mode.to_host(v) if isinstance(v, mode.array_type) else v for k, v in kwargs.items()
        }
        result = fn(*args, **kwargs)
        return mode.to_device(result) if isinstance(result, np.ndarray) else result

    return on_host


class HostOperator:
    """A LinearOperator of the test (matvec on NumPy arrays) as gpuprim sees
    it in a device call: its matvec (and psolve, rmatvec, ...) take device
    vectors, which must be the device library's (gpuprim calls an
    operator with the input's kind of array), and answer device vectors."""

    def __init__(self, op, mode):
        self.op = op
        self.mode = mode
        self.shape = op.shape
        self.dtype = getattr(op, "dtype", None)

    def matvec(self, v):
        if self.mode.strict and not isinstance(v, self.mode.array_type):
            raise AssertionError(
                f"gpuprim called matvec with a {type(v).__module__}.{type(v).__name__}; "
                f"with {self.mode.name} inputs it must pass {self.mode.name} arrays"
            )
        return host_function(self.op.matvec, self.mode)(v)

    def __getattr__(self, name):
        attr = getattr(self.op, name)
        return host_function(attr, self.mode) if isinstance(attr, _FUNCTIONS) else attr


def _positional_names(fn, count):
    """The parameter names of fn's first `count` positional arguments (None
    past its named ones, or where fn has no signature)."""
    try:
        params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return [None] * count
    kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    names = [p.name for p in params if p.kind in kinds]
    return [names[i] if i < len(names) else None for i in range(count)]


def call(fn, *args, arrays=None, **kwargs):
    """fn(*args, **kwargs) as MODE says (see the module's help). arrays: the
    names of fn's parameters that hold the call's data (moved to the
    device: ``("a", "bins", "weights")``); other arguments, such as a
    ``range`` or ``origin`` given as a NumPy array, stay as the test gives
    them. None: every array argument is data."""
    mode = MODE
    if mode is None:
        return fn(*args, **kwargs)
    moved = _Moved(mode)
    names = _positional_names(fn, len(args)) + list(kwargs)
    values = list(args) + list(kwargs.values())
    data = [arrays is None or name in arrays for name in names]
    if any(moved.host_only(v) for v, d in zip(values, data) if d):
        return fn(*args, **kwargs)
    values = [moved.device(v) if d else moved.wrapped(v) for v, d in zip(values, data)]
    device_args = values[: len(args)]
    device_kwargs = dict(zip(kwargs, values[len(args) :]))
    if moved.any:
        DEVICE_CALLS[0] += 1
    try:
        result = fn(*device_args, **device_kwargs)
    finally:
        moved.write_back()
    if mode.strict and moved.any and _host_arrays(result):
        raise AssertionError(
            f"{getattr(fn, '__name__', fn)}: a call on {mode.name} arrays answered with a NumPy "
            "array (a host copy of device data)"
        )
    return moved.host(result)


def peer_answer(peer_fn, *args, **kwargs):
    """NumPy's peer_fn(*args, **kwargs), where gpuprim answered: NumPy raising
    is an error of its own."""
    try:
        return peer_fn(*args, **kwargs)
    except Exception as e:
        raise AssertionError(f"gpuprim answered where NumPy raises {type(e).__name__}: {e}")


def agree(got, peer_fn, *args, **kwargs):
    """got, after checking that NumPy's peer_fn(*args, **kwargs) gives the same
    array (values, NaN places, dtype and shape)."""
    want = peer_answer(peer_fn, *args, **kwargs)
    np.testing.assert_array_equal(got, want, strict=True, err_msg="gpuprim differs from NumPy")
    return got


def _numpy_path(node):
    """'sort' for ``np.sort``, 'maximum.accumulate' for ``np.maximum.accumulate``
    (a chain of attributes from the name np or numpy), else None."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name) and node.id in ("np", "numpy") and parts:
        return ".".join(reversed(parts))
    return None


def _local_name(path):
    return "_gp_" + path.replace(".", "_")


class _Rewrite(ast.NodeTransformer):
    def __init__(self, functions, methods):
        self.functions = functions
        self.methods = methods

    def visit_Attribute(self, node):
        if not isinstance(node.ctx, ast.Load):
            return self.generic_visit(node)
        path = _numpy_path(node)
        if path is not None:
            if path in self.functions:
                return ast.copy_location(ast.Name(_local_name(path), ast.Load()), node)
            return node
        self.generic_visit(node)
        if node.attr in self.methods:
            call = ast.Call(
                ast.Name("_gp_method", ast.Load()), [node.value, ast.Constant(node.attr)], []
            )
            return ast.copy_location(call, node)
        return node


def _reaching(nodes, names, self_names=()):
    """The names of the functions among `nodes` whose bodies use a rewritten
    name, a name in `names`, ``self.<m>`` for a method m in `self_names`,
    or one of themselves (to a fixed point)."""
    funcs = {n.name: n for n in nodes if isinstance(n, ast.FunctionDef)}
    reach = set()
    while True:
        grown = set(reach)
        for name, node in funcs.items():
            for n in ast.walk(node):
                if isinstance(n, ast.Name) and (
                    n.id.startswith("_gp_") or n.id in names or n.id in grown
                ):
                    grown.add(name)
                elif (
                    isinstance(n, ast.Attribute)
                    and isinstance(n.value, ast.Name)
                    and n.value.id == "self"
                    and (n.attr in self_names or n.attr in grown)
                ):
                    grown.add(name)
        if grown == reach:
            return reach
        reach = grown


def load(path, functions, methods=None, helpers=(), package=None):
    """(module, names of its tests that reach a substituted name) for the test
    file at `path`. functions: {numpy name: replacement}; methods: {ndarray
    method name: f(array) -> bound replacement}; helpers: other names whose
    use reaches gpuprim. A test reaches gpuprim when its body uses a
    substituted name or a function or method (``self.<m>``) of the file
    that does. package: the package the file's relative imports are from
    (``from . import types``)."""
    methods = methods or {}
    path = pathlib.Path(path)
    tree = ast.parse(path.read_text(), str(path))
    tree = ast.fix_missing_locations(_Rewrite(set(functions), set(methods)).visit(tree))
    spec = importlib.util.spec_from_loader(f"gpuprim_peer_{path.stem}", loader=None)
    module = importlib.util.module_from_spec(spec)
    module.__file__ = str(path)
    if package is not None:
        module.__package__ = package

    def method(obj, name):
        if type(obj) is np.ndarray:
            return methods[name](obj)
        return getattr(obj, name)

    module.__dict__.update({_local_name(k): v for k, v in functions.items()})
    module.__dict__["_gp_method"] = method
    exec(compile(tree, str(path), "exec"), module.__dict__)
    # Names the file imported from numpy (``from numpy import histogram``)
    # are bound to the replacement too.
    for name, replacement in functions.items():
        if name in module.__dict__ and module.__dict__[name] is getattr(np, name, None):
            module.__dict__[name] = replacement
            helpers = (*helpers, name)  # a bare call of it reaches gpuprim

    helpers = set(helpers)
    functions_reaching = _reaching(tree.body, helpers)
    reaching = {name for name in functions_reaching if name.startswith("test")}
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            methods_reaching = _reaching(node.body, helpers | functions_reaching, ())
            reaching |= {f"{node.name}::{m}" for m in methods_reaching if m.startswith("test")}
    return module, reaching


def _counted(fn):
    @functools.wraps(fn)
    def run(*args, **kwargs):
        before = CALLS[0]
        result = fn(*args, **kwargs)
        if CALLS[0] == before:
            pytest.skip("does not call gpuprim")
        return result

    return run


@pytest.fixture(autouse=True)
def _listed_xfail(request):
    """Marks a test listed in its shim's XFAIL as a strict xfail (pytest
    reads xfail marks again when the test is called), and records in the
    test's user_properties how many gpuprim calls it made and how many of
    them went to the device (the figures _peer_report.py sums)."""
    xfail = getattr(request.module, "XFAIL", {})
    test_id = request.node.nodeid.split("::", 1)[1]
    entry = xfail.get(test_id) or xfail.get(test_id.split("[", 1)[0])
    if entry is not None:
        reason, raises = entry
        request.applymarker(pytest.mark.xfail(reason=reason, raises=raises, strict=True))
    calls, device_calls = CALLS[0], DEVICE_CALLS[0]
    yield
    request.node.user_properties.append(("gpuprim_calls", CALLS[0] - calls))
    request.node.user_properties.append(("gpuprim_device_calls", DEVICE_CALLS[0] - device_calls))
    request.node.user_properties.append(("gpuprim_arrays", MODE.name if MODE else "numpy"))


def expose(module, tests, namespace, keep=lambda test_id: True):
    """Puts the tests named in `tests` (``name`` or ``Class::name``, those
    `keep` accepts) into `namespace` for pytest: functions wrapped by
    _counted, classes as subclasses in which only those tests remain."""
    chosen = sorted(t for t in tests if keep(t))
    namespace["_listed_xfail"] = _listed_xfail
    classes = {}
    for test in chosen:
        if "::" in test:
            cls, name = test.split("::")
            classes.setdefault(cls, []).append(name)
        elif test in namespace:
            raise RuntimeError(f"{test} is exposed twice")
        else:
            namespace[test] = _counted(getattr(module, test))
    for cls_name, names in classes.items():
        cls = getattr(module, cls_name)
        if cls_name in namespace:
            raise RuntimeError(f"{cls_name} is exposed twice")
        body = {
            attr: None
            for attr, _ in inspect.getmembers(cls)
            if attr.startswith("test") and attr not in names
        }
        body.update({name: _counted(getattr(cls, name)) for name in names})
        namespace[cls_name] = type(cls_name, (cls,), body)
    return chosen
