"""A pytest plugin that prints, per peer suite (test file), the figures of
issue 46's table: the tests that call gpuprim, how many of them made a
call on device arrays (GPUPRIM_PEER_ARRAYS=cupy), and how they ended
(passed, failed, xfailed, xpassed, skipped after calling gpuprim). A test
that never calls gpuprim (skipped as "does not call gpuprim") is not
counted. The call counts come from the user_properties that _peer.py's
fixture records, so the figures are right under pytest-xdist too (the
controller sums the workers' reports).

Load it with ``-p _peer_report`` (python/tests/peers on PYTHONPATH), as
``scripts/test-python-peers-gpu.sh`` does; with ``GPUPRIM_PEER_REPORT=<file>``
the figures are also written there as JSON.
"""

import json
import os
import pathlib

# The outcome a test keeps when its phases differ: a failure anywhere wins.
_RANK = {"passed": 0, "skipped": 1, "xpassed": 2, "xfailed": 3, "failed": 4}
_COLUMNS = ("passed", "failed", "xfailed", "xpassed", "skipped")


def outcome_of(report):
    """The outcome one phase's report gives the test, or None (a setup or
    teardown that passed says nothing)."""
    if hasattr(report, "wasxfail"):
        return "xfailed" if report.skipped else "xpassed"
    if report.failed:
        return "failed"
    if report.skipped:
        return "skipped"
    if report.when == "call":
        return "passed"
    return None


class Tally:
    """Each test's outcome and gpuprim calls, from its phases' reports."""

    def __init__(self):
        self.tests = {}  # nodeid -> {"outcome", "calls", "device_calls", "arrays"}

    def add(self, report):
        test = self.tests.setdefault(
            report.nodeid, {"outcome": None, "calls": 0, "device_calls": 0, "arrays": None}
        )
        outcome = outcome_of(report)
        if outcome is not None and (
            test["outcome"] is None or _RANK[outcome] > _RANK[test["outcome"]]
        ):
            test["outcome"] = outcome
        for key, value in report.user_properties:
            if key == "gpuprim_calls":
                test["calls"] = value
            elif key == "gpuprim_device_calls":
                test["device_calls"] = value
            elif key == "gpuprim_arrays":
                test["arrays"] = value

    def suites(self):
        """{suite (the test file's name): figures}."""
        out = {}
        for nodeid, test in sorted(self.tests.items()):
            if test["calls"] == 0:
                continue
            suite = pathlib.Path(nodeid.split("::", 1)[0]).stem
            row = out.setdefault(suite, {"calling": 0, "on_device": 0, "arrays": test["arrays"]})
            for column in _COLUMNS:
                row.setdefault(column, 0)
            row["calling"] += 1
            row["on_device"] += test["device_calls"] > 0
            row[test["outcome"] or "passed"] += 1
        for row in out.values():
            row["pass_percent"] = round(100.0 * row["passed"] / row["calling"], 1)
        return out


def table(suites):
    """The figures as a Markdown table."""
    lines = [
        "| suite | arrays | tests calling gpuprim | with a device call | passed | failed "
        "| xfailed | xpassed | skipped | pass % |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for suite, row in suites.items():
        cells = [suite, row["arrays"] or "numpy", row["calling"], row["on_device"]]
        cells += [row[c] for c in _COLUMNS] + [row["pass_percent"]]
        lines.append("| " + " | ".join(str(c) for c in cells) + " |")
    return "\n".join(lines)


_TALLY = Tally()


def pytest_runtest_logreport(report):
    _TALLY.add(report)


def pytest_terminal_summary(terminalreporter, config):
    if hasattr(config, "workerinput"):  # an xdist worker: the controller prints
        return
    suites = _TALLY.suites()
    terminalreporter.section("gpuprim peer suites")
    terminalreporter.write_line(table(suites))
    path = os.environ.get("GPUPRIM_PEER_REPORT")
    if path:
        pathlib.Path(path).write_text(json.dumps(suites, indent=1) + "\n")
