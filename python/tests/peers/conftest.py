"""The peer shims' expected failures: a shim module's XFAIL dict maps a
test id (``Class::name``, ``name``, or either with ``[params]`` for one
case) to (reason, exception type). Each is marked a strict xfail that must
raise that type: a listed test that passes, or fails another way, fails
the run."""

import pytest

# Marks of numpy's test files (registered by numpy's own conftest).
_PEER_MARKS = ("slow", "xslow", "thread_unsafe", "leaks_references", "valgrind_error", "slow_pypy")


def pytest_configure(config):
    for mark in _PEER_MARKS:
        config.addinivalue_line("markers", f"{mark}: a mark of numpy's test files")


def pytest_collection_modifyitems(config, items):
    for item in items:
        xfail = getattr(item.module, "XFAIL", None)
        if not xfail:
            continue
        test_id = item.nodeid.split("::", 1)[1]
        entry = xfail.get(test_id) or xfail.get(test_id.split("[", 1)[0])
        if entry is not None:
            reason, raises = entry
            item.add_marker(pytest.mark.xfail(reason=reason, raises=raises, strict=True))
