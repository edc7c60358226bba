"""The CPU rows of ``python -m gpuprim.bench --cpu``: gpuprim's host backend
against NumPy and SciPy on the same NumPy arrays, in one run.

Each repetition times the peer and gpuprim back to back, alternating which
goes first, so that a machine whose other cores are busy slows both alike;
the figures are medians over the repetitions (wall time, time.perf_counter).
The ratio is peer time / gpuprim time: above 1, gpuprim is faster.
"""

from __future__ import annotations

import os
import statistics
import sys
import time

import numpy as np

import gpuprim as gp


def _keys(rng, dtype, n):
    dtype = np.dtype(dtype)
    if dtype.kind == "f":
        return rng.standard_normal(n).astype(dtype)
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max, n, dtype=dtype, endpoint=True)


def _poisson(side):
    """The 5-point Laplacian on a side x side grid, CSR (SciPy)."""
    import scipy.sparse as sp

    one = sp.diags([-1.0, 2.0, -1.0], [-1, 0, 1], shape=(side, side))
    eye = sp.identity(side)
    return (sp.kron(eye, one) + sp.kron(one, eye)).tocsr()


def _cases(rng, scale):
    """(name, size note, peer label, peer fn, gpuprim fn, check) rows."""
    n = int(10**7 * scale)
    rows = []
    for dtype in ("float32", "float64", "int32", "uint32", "int64", "int16", "uint8"):
        x = _keys(rng, dtype, n)
        rows.append((f"sort {dtype}", f"n={n}", "np.sort",
                     lambda x=x: np.sort(x), lambda x=x: gp.sort(x), np.array_equal))
    x = _keys(rng, "float32", n)
    rows.append(("argsort float32 (stable)", f"n={n}", "np.argsort(kind='stable')",
                 lambda x=x: np.argsort(x, kind="stable"), lambda x=x: gp.argsort(x),
                 np.array_equal))
    x = rng.random(int(2**25 * scale), dtype=np.float32)
    rows.append(("sum float32", f"n={x.size}", "np.sum", lambda x=x: np.sum(x),
                 lambda x=x: gp.sum(x), lambda a, b: np.allclose(a, b, rtol=1e-5)))
    try:
        A = _poisson(max(16, int(512 * scale**0.5)))
        v = rng.random(A.shape[1])
        rows.append(("spmv float64, Poisson", f"{A.shape[0]} rows, nnz={A.nnz}", "scipy A @ x",
                     lambda: A @ v, lambda: gp.sparse.spmv(A, v), np.allclose))
    except ImportError:
        print("gpuprim.bench --cpu: no SciPy, no spmv row", file=sys.stderr)
    m = max(64, int(2000 * scale ** (1 / 3)))
    a = rng.random((m, m), dtype=np.float32)
    b = rng.random((m, m), dtype=np.float32)
    rows.append(("matmul float32", f"{m}^3", "np.matmul", lambda: a @ b,
                 lambda: gp.matmul(a, b), lambda p, q: np.allclose(p, q, rtol=1e-3)))
    return rows


def _blas_note():
    """NumPy's BLAS and the kernel it runs (threadpoolctl, when installed)."""
    try:
        import threadpoolctl

        infos = [i for i in threadpoolctl.threadpool_info() if i.get("user_api") == "blas"]
        return ", ".join(f"{i['internal_api']} {i.get('version')} ({i.get('architecture')}, "
                         f"{i['num_threads']} threads)" for i in infos) or "unknown"
    except ImportError:
        return "unknown (no threadpoolctl)"


# Before each timed call: a pause, then one untimed call of the same
# implementation. NumPy's OpenBLAS (a pthreads build) keeps its worker
# threads spinning for about a tenth of a second after a call returns, and
# a call timed right after one of its products runs on cores those threads
# still hold (gpuprim's 2000^3 matmul: 130 ms right after np.matmul, 80 ms
# otherwise); the untimed call then wakes the implementation's own threads
# and caches, so each figure is that implementation's steady state.
_SETTLE_S = 0.25


def run_cpu(only=None, runs=11, scale=1.0, out=None):
    out = sys.stdout if out is None else out
    rng = np.random.default_rng(2026)
    info = gp.info()
    rows = []
    for name, size, peer_label, peer, ours, same in _cases(rng, scale):
        if only and not any(name.startswith(o) for o in only):
            continue
        if not same(peer(), ours()):
            raise AssertionError(f"gpuprim.bench --cpu: {name}: gpuprim and {peer_label} differ")
        peer_t, our_t = [], []
        for r in range(runs):
            order = ((peer, peer_t), (ours, our_t)) if r % 2 == 0 else ((ours, our_t),
                                                                        (peer, peer_t))
            for fn, times in order:
                time.sleep(_SETTLE_S)
                fn()
                start = time.perf_counter()
                fn()
                times.append(time.perf_counter() - start)
        row = {"case": name, "size": size, "peer": peer_label,
               "peer_ms": statistics.median(peer_t) * 1e3,
               "gpuprim_ms": statistics.median(our_t) * 1e3}
        row["ratio"] = row["peer_ms"] / row["gpuprim_ms"]
        rows.append(row)
        print(f"  {name}: done", file=sys.stderr)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"\ngpuprim {gp.__version__} host backend, {info['cpu_threads']} OpenMP threads "
          f"(wait policy {info.get('omp_wait_policy', '?')}), host gemm "
          f"{info.get('host_gemm', '?')}; NumPy {np.__version__} (BLAS {_blas_note()}); "
          f"load average {load:.1f} at the end\n", file=out)
    print("| case | size | peer | peer (ms) | gpuprim (ms) | peer / gpuprim |", file=out)
    print("| --- | --- | --- | ---: | ---: | ---: |", file=out)
    for r in rows:
        print(f"| {r['case']} | {r['size']} | {r['peer']} | {r['peer_ms']:.2f} | "
              f"{r['gpuprim_ms']:.2f} | {r['ratio']:.2f} |", file=out)
    print(f"\nmedians of {runs} runs, peer and gpuprim alternating within each, "
          f"each after {_SETTLE_S} s of rest and an untimed call; above 1: gpuprim is faster.", file=out)
    return rows
