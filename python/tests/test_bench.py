"""python -m gpuprim.bench: runs a tiny configuration (or says it needs a GPU)."""

import importlib.util

import pytest

import gpuprim as gp
from gpuprim import bench


def test_unknown_case():
    with pytest.raises(SystemExit):
        bench.main(["--only", "no-such-case"])


def test_tiny_run(capsys):
    rc = bench.main(["--only", "sum,histogram", "--small", "4", "--large", "12", "--calls", "5",
                     "--runs", "2"])
    have_framework = any(importlib.util.find_spec(m) for m in ("cupy", "torch"))
    if gp.cuda_available() and have_framework:
        assert rc == 0
        out = capsys.readouterr().out
        assert "| sum |" in out and "| histogram |" in out
    else:
        assert rc == 1
