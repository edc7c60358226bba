"""Runs a peer's own test file with gpuprim's functions substituted: the
mechanism the NumPy shims beside this file share.

``load`` reads the test file from the installed package (nothing is
fetched), rewrites the calls under test in its syntax tree -- ``np.sort``
becomes the shim's ``sort``, an attribute ``<x>.sort`` becomes the shim's
method for ``<x>`` when ``<x>`` is a NumPy array (and stays ``<x>``'s own
otherwise) -- and runs its module body as a new module. ``expose`` puts the
tests that call the substituted names into the shim's namespace, where
pytest collects them with their own parametrization and marks, each
wrapped so that a run that never reaches gpuprim is skipped as "does not
call gpuprim". The shim's ``XFAIL`` dict (test id -> reason) marks the
remaining failures as strict expected failures: one that starts to pass
fails the run until it is taken off the list (see conftest.py).

Each substituted function counts its calls in ``CALLS`` and, where it
answers, compares its answer with NumPy's own for the same arguments, so a
test that compares two substituted calls (``np.sort(a, kind='quick')``
against ``np.sort(a, kind='heap')``) still checks gpuprim against NumPy.
"""

import ast
import functools
import importlib.util
import inspect
import pathlib

import numpy as np
import pytest

CALLS = [0]


def count():
    CALLS[0] += 1


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


def _calls_any(node, names):
    for n in ast.walk(node):
        if isinstance(n, ast.Name) and (n.id.startswith("_gp_") or n.id in names):
            return True
    return False


def load(path, functions, methods=None, helpers=()):
    """(module, names of its tests that reach a substituted name) for the test
    file at `path`. functions: {numpy name: replacement}; methods: {ndarray
    method name: f(array) -> bound replacement}; helpers: names of the file's
    own functions that call the substituted names (a test calling one of
    them counts as reaching gpuprim)."""
    methods = methods or {}
    path = pathlib.Path(path)
    tree = ast.parse(path.read_text(), str(path))
    tree = ast.fix_missing_locations(_Rewrite(set(functions), set(methods)).visit(tree))
    spec = importlib.util.spec_from_loader(f"gpuprim_peer_{path.stem}", loader=None)
    module = importlib.util.module_from_spec(spec)
    module.__file__ = str(path)

    def method(obj, name):
        if type(obj) is np.ndarray:
            return methods[name](obj)
        return getattr(obj, name)

    module.__dict__.update({_local_name(k): v for k, v in functions.items()})
    module.__dict__["_gp_method"] = method
    exec(compile(tree, str(path), "exec"), module.__dict__)

    reaching = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name.startswith("test"):
            if _calls_any(node, helpers):
                reaching.add(node.name)
        elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            for m in node.body:
                if isinstance(m, ast.FunctionDef) and m.name.startswith("test"):
                    if _calls_any(m, helpers):
                        reaching.add(f"{node.name}::{m.name}")
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


def expose(module, tests, namespace, keep=lambda test_id: True):
    """Puts the tests named in `tests` (``name`` or ``Class::name``, those
    `keep` accepts) into `namespace` for pytest: functions wrapped by
    _counted, classes as subclasses in which only those tests remain."""
    chosen = sorted(t for t in tests if keep(t))
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
