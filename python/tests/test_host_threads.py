"""The host backend's OpenMP rules, each in a fresh interpreter (the OpenMP
runtime reads its environment once, when the extension loads): the wait
policy is passive unless the user chose one, the team follows
OMP_NUM_THREADS and the process's CPU affinity, and info() names the gemm."""

import json
import os
import subprocess
import sys

import pytest

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
