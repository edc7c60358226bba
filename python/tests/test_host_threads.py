"""The host backend's OpenMP rules, each in a fresh interpreter (the OpenMP
runtime reads its environment once, when the extension loads): the wait
policy is passive unless the user chose one, the team follows
OMP_NUM_THREADS and the process's CPU affinity, and info() names the gemm.
And many Python threads calling at once (the bindings release the GIL
around the compute) get the answers one thread gets (issue 47, point 5)."""

import json
import os
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np

import pytest

import gpuprim as gp

PROBE = (
    "import json, gpuprim as gp, numpy as np\n"
    "i = gp.info()\n"
    "x = np.arange(1 << 20, dtype=np.float32)\n"
    "print(json.dumps({'threads': i['cpu_threads'], 'wait': i['omp_wait_policy'],\n"
    "                  'gemm': i['host_gemm'], 'sum': float(gp.sum(x))}))\n"
)


def probe(env_changes, before=""):
    env = dict(os.environ)
    for k, v in env_changes.items():
        if v is None:
            env.pop(k, None)
        else:
            env[k] = v
    out = subprocess.run([sys.executable, "-c", before + PROBE], env=env, check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def test_wait_policy_is_passive_unless_the_user_chose():
    assert probe({"OMP_WAIT_POLICY": None})["wait"] == "passive"
    assert probe({"OMP_WAIT_POLICY": "active"})["wait"] == "active"


def test_omp_num_threads_is_honoured():
    for n in (1, 3):
        r = probe({"OMP_NUM_THREADS": str(n)})
        assert r["threads"] == n
        assert r["sum"] == float(sum(range(1 << 20)))


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="no sched_setaffinity")
def test_the_team_follows_the_cpu_affinity():
    cpu = sorted(os.sched_getaffinity(0))[0]
    r = probe({"OMP_NUM_THREADS": None}, before=f"import os; os.sched_setaffinity(0, {{{cpu}}})\n")
    assert r["threads"] == 1


def test_info_names_the_host_gemm():
    gemm = probe({})["gemm"]
    assert gemm == "own loop" or gemm.startswith("OpenBLAS ")


THREADS = 8
CALLS = 300  # per thread, spread over the functions below


def _case(seed):
    """One thread's array (sizes from empty to past the parallel thresholds) and
    the calls it makes, each with NumPy's answer."""
    rng = np.random.default_rng(seed)
    n = int(rng.choice([0, 1, 7, 1000, 4099, 70_001]))
    f = (rng.standard_normal(n) * 100).astype(rng.choice([np.float32, np.float64]))
    if n > 3:
        f[rng.integers(0, n, 3)] = np.nan
    i = rng.integers(-1000, 1000, size=n).astype(rng.choice([np.int8, np.int32, np.int64]))
    m = rng.integers(-50, 50, size=(max(n // 97, 1), 97)).astype(np.int32)
    calls = [
        ("sort", lambda: gp.sort(f), np.sort(f)),
        ("argsort", lambda: gp.argsort(i), np.argsort(i, kind="stable")),
        ("cumsum", lambda: gp.cumsum(i), np.cumsum(i)),
        ("cumsum axis", lambda: gp.cumsum(m, axis=0), np.cumsum(m, axis=0)),
        ("sum", lambda: gp.sum(i), np.sum(i)),
        ("sum axis", lambda: gp.sum(m, axis=-1, keepdims=True),
         np.sum(m, axis=-1, keepdims=True)),
        ("histogram", lambda: gp.histogram(i, bins=33), np.histogram(i, bins=33)),
    ]
    if n:  # (an empty nanmax raises, in both)
        calls.append(("nanmax", lambda: gp.nanmax(f), np.nanmax(f)))
    return calls


def _same(got, want):
    if isinstance(want, tuple):
        return all(_same(g, w) for g, w in zip(got, want))
    got, want = np.asarray(got), np.asarray(want)
    return got.dtype == want.dtype and got.shape == want.shape and np.array_equal(
        got, want, equal_nan=want.dtype.kind == "f")


def test_threads_get_the_answers_of_one_thread():
    cases = [_case(seed) for seed in range(THREADS * 3)]
    # One thread first: its answers are NumPy's.
    for calls in cases:
        for name, call, want in calls:
            assert _same(call(), want), name
    start = threading.Barrier(THREADS)

    def work(t):
        start.wait()  # all threads call at once
        wrong = []
        mine = cases[t::THREADS]
        for k in range(CALLS):
            calls = mine[k % len(mine)]
            name, call, want = calls[k % len(calls)]
            if not _same(call(), want):
                wrong.append((t, k, name))
        return wrong

    with ThreadPoolExecutor(THREADS) as pool:
        wrong = [w for ws in pool.map(work, range(THREADS)) for w in ws]
    assert wrong == []
