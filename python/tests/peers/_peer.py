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
    reads xfail marks again when the test is called)."""
    xfail = getattr(request.module, "XFAIL", {})
    test_id = request.node.nodeid.split("::", 1)[1]
    entry = xfail.get(test_id) or xfail.get(test_id.split("[", 1)[0])
    if entry is not None:
        reason, raises = entry
        request.applymarker(pytest.mark.xfail(reason=reason, raises=raises, strict=True))


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
