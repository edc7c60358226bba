"""python -m gpuprim.bench: runs a tiny configuration (or says it needs a GPU)."""

import importlib.util
import json

import numpy as np
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


def test_ndimage_sparse_cases(tmp_path):
    names = {c.name for c in bench.CASES}
    assert {"gaussian_filter", "spmv", "cg", "sort_rows"} <= names
    out = tmp_path / "rows.json"
    have_framework = any(importlib.util.find_spec(m) for m in ("cupy", "torch"))
    if gp.cuda_available() and have_framework:
        pytest.skip("runs the full-size ndimage/sparse rows: use the bench itself on a device")
    rc = bench.main(["--only", "gaussian_filter,spmv,cg", "--json", str(out)])
    assert rc == 1
    assert json.loads(out.read_text())["rows"] == []


def test_poisson_matrix():
    """The bench's 5-point Poisson matrix equals SciPy's Kronecker-sum form."""
    sp = pytest.importorskip("scipy.sparse")
    from gpuprim._bench_ext import _poisson_csr, _poisson_nnz

    m = 7
    data, indices, indptr = _poisson_csr(m)
    got = sp.csr_matrix((data, indices, indptr), shape=(m * m, m * m))
    t = sp.csr_matrix(2 * np.eye(m) - np.eye(m, k=1) - np.eye(m, k=-1))
    want = sp.kronsum(t, t).tocsr()
    np.testing.assert_array_equal(got.toarray(), want.toarray())
    assert got.nnz == _poisson_nnz(m * m) and indices.dtype == np.int32
    assert all((np.diff(indices[indptr[r]:indptr[r + 1]]) > 0).all() for r in range(m * m))


def test_cpu_rows_time_gpuprim_beside_numpy(capsys, tmp_path):
    """--cpu: every row has both times and agrees with its peer (the bench
    raises where gpuprim and NumPy/SciPy differ)."""
    out = tmp_path / "cpu.json"
    rc = bench.main(["--cpu", "--scale", "0.001", "--runs", "3", "--json", str(out)])
    assert rc == 0
    rows = json.loads(out.read_text())["rows"]
    names = {r["case"] for r in rows}
    assert {"sort float32", "sort int16", "sum float32", "matmul float32"} <= names
    for r in rows:
        assert r["peer_ms"] > 0 and r["gpuprim_ms"] > 0
    assert "| sort float32 |" in capsys.readouterr().out
