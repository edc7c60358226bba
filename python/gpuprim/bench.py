"""gpuprim against CuPy and PyTorch on the same device arrays, in one run.

    python -m gpuprim.bench                    # every case, every framework found
    python -m gpuprim.bench --only sum,sort --json results.json
    python -m gpuprim.bench --small 10 --large 24   # sizes as powers of two
    python -m gpuprim.bench --cpu              # the host backend against NumPy / SciPy

Two figures per case and implementation:
  - per call (us): the host time of one queued call at the small size
    (2^10 elements): many calls enqueued back to back, one synchronization
    at the end, wall time / calls. This is the overhead a tiny array pays.
  - time (ms) at the large size (2^28 float32 elements): the median of 20
    timed runs (CUDA events on the current stream) after warm-up; GB/s is
    the bytes the algorithm must move over that time.

Besides CuPy and PyTorch, a case may time other vendors on a framework's
arrays (impls key "cupy/cuda.compute": NVIDIA's cuda.compute, CUB from
Python, when installed).

Cases are rows of CASES; other modules add theirs with `register(...)`
(gaussian_filter, spmv and cg come from _bench_ext.py; they run at their
own sizes, which --small / --large do not change).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

import gpuprim as gp

from ._bench_ext import register_cases, uniform as _uniform


@dataclass
class Case:
    """A benchmark row. `make(fw, n)` returns the arguments (device arrays of
    framework `fw`); `impls` maps a label ("gpuprim", "cupy", "torch") to a
    function (fw_module, args) -> result, or None where a framework has no
    counterpart. `bytes_moved(n)` gives the GB/s column."""

    name: str
    make: Callable
    impls: dict
    bytes_moved: Callable[[int], float]
    note: str = ""
    sizes: dict = field(default_factory=dict)  # optional {"small": n, "large": n}


CASES: list[Case] = []


def register(case: Case) -> None:
    CASES.append(case)


def _sort_cupy(mod, a):
    return mod.sort(a[0])


def _cuda_compute():
    """NVIDIA's cuda.compute (PyPI cuda-cccl: CUB from Python), or None."""
    try:
        import cuda.compute as cc
    except Exception:  # not installed, or its CUDA bindings do not load
        return None
    return cc


def _sort_cuda_compute(mod, a):
    """cuda.compute's radix_sort of CuPy keys into a new array (as gp.sort
    returns one); the temporary storage is cuda.compute's own choice."""
    cc = _cuda_compute()
    if cc is None:
        raise RuntimeError("cuda.compute (PyPI cuda-cccl) is not installed")
    out = mod.empty_like(a[0])
    cc.radix_sort(d_in_keys=a[0], d_out_keys=out, num_items=a[0].size,
                  order=cc.SortOrder.ASCENDING)
    return out


def _few_distinct(fw, n):
    """float32 integers in [0, n/4): runs of mean length 4 once sorted."""
    name, mod = fw
    hi = max(n // 4, 1)
    if name == "cupy":
        return mod.floor(mod.random.random(n, dtype=np.float32) * hi).astype(np.float32)
    return mod.floor(mod.rand(n, device="cuda") * hi)


def _half_zero(fw, n):
    """float32, each element zero with probability 1/2."""
    name, mod = fw
    if name == "cupy":
        x = mod.random.random(n, dtype=np.float32)
        return mod.where(x < 0.5, mod.float32(0), x)
    x = mod.rand(n, device="cuda")
    return mod.where(x < 0.5, mod.zeros_like(x), x)


def _one_name(name):
    """The calls of a case named alike in gpuprim, CuPy and PyTorch."""
    return {fw: (lambda mod, a, f=fw: getattr(gp if f == "gpuprim" else mod, name)(a[0]))
            for fw in ("gpuprim", "cupy", "torch")}


register(Case("sum", lambda fw, n: (_uniform(fw, n),), _one_name("sum"), lambda n: 4.0 * n))
register(Case(
    "cumsum",
    lambda fw, n: (_uniform(fw, n),),
    {
        "gpuprim": lambda mod, a: gp.cumsum(a[0]),
        "cupy": lambda mod, a: mod.cumsum(a[0]),
        "torch": lambda mod, a: mod.cumsum(a[0], 0),
    },
    lambda n: 8.0 * n,
))
register(Case(
    "sort",
    lambda fw, n: (_uniform(fw, n),),
    {
        "gpuprim": lambda mod, a: gp.sort(a[0]),
        "cupy": _sort_cupy,
        "torch": lambda mod, a: mod.sort(a[0]),
        "cupy/cuda.compute": _sort_cuda_compute,
    },
    lambda n: 8.0 * n,
    note="torch.sort also returns indices",
))
register(Case(
    "unique",
    lambda fw, n: (_few_distinct(fw, n),),
    _one_name("unique"),
    lambda n: 8.0 * n,
    note="float32 integers below n/4 (runs of about 4 once sorted); sorted result",
    sizes={"small": 1 << 10, "large": 1 << 26},
))
register(Case(
    "nonzero",
    lambda fw, n: (_half_zero(fw, n),),
    {
        "gpuprim": lambda mod, a: gp.nonzero(a[0]),
        "cupy": lambda mod, a: mod.nonzero(a[0]),
        "torch": lambda mod, a: mod.nonzero(a[0], as_tuple=True),
    },
    lambda n: 4.0 * n + 8.0 * (n // 2),
    note="float32, half zero; GB/s: n read, the indices written",
    sizes={"small": 1 << 10, "large": 1 << 26},
))
register(Case(
    "histogram",
    lambda fw, n: (_uniform(fw, n),),
    {
        "gpuprim": lambda mod, a: gp.histogram(a[0], bins=1024, range=(0.0, 1.0)),
        "cupy": lambda mod, a: mod.histogram(a[0], bins=1024, range=(0.0, 1.0)),
        "torch": lambda mod, a: mod.histc(a[0], bins=1024, min=0.0, max=1.0),
    },
    lambda n: 4.0 * n,
    note="1024 bins over [0, 1]",
))

# gpuprim.ndimage and gpuprim.sparse rows (gaussian_filter, spmv, cg).
register_cases(register, Case)


def _frameworks(wanted):
    found = []
    for name in wanted:
        try:
            if name == "cupy":
                import cupy as mod

                if mod.cuda.runtime.getDeviceCount() < 1:
                    continue
            else:
                import torch as mod

                if not mod.cuda.is_available():
                    continue
        except ImportError:
            continue
        found.append((name, mod))
    return found


def _sync(fw):
    name, mod = fw
    if name == "cupy":
        mod.cuda.get_current_stream().synchronize()
    else:
        mod.cuda.current_stream().synchronize()


def per_call_us(fn, fw, calls):
    for _ in range(50):
        fn()
    _sync(fw)
    start = time.perf_counter()
    for _ in range(calls):
        fn()
    elapsed = time.perf_counter() - start
    _sync(fw)
    return elapsed / calls * 1e6


def device_ms(fn, fw, runs):
    name, mod = fw
    for _ in range(3):
        fn()
    times = []
    for _ in range(runs):
        if name == "cupy":
            begin, end = mod.cuda.Event(), mod.cuda.Event()
            begin.record()
            fn()
            end.record()
            end.synchronize()
            times.append(mod.cuda.get_elapsed_time(begin, end))
        else:
            begin = mod.cuda.Event(enable_timing=True)
            end = mod.cuda.Event(enable_timing=True)
            begin.record()
            fn()
            end.record()
            end.synchronize()
            times.append(begin.elapsed_time(end))
    return statistics.median(times)


def run(only=None, frameworks=("cupy", "torch"), small=10, large=28, calls=2000, runs=20,
        out=None):
    out = sys.stdout if out is None else out
    fws = _frameworks(frameworks)
    if not gp.cuda_available() or not fws:
        print("gpuprim.bench: needs a CUDA device, gpuprim built with CUDA, and CuPy or PyTorch",
              file=sys.stderr)
        return []
    device = gp.info()["devices"][0]["name"]
    versions = {name: mod.__version__ for name, mod in fws}
    rows = []
    for case in CASES:
        if only and case.name not in only:
            continue
        n_small = case.sizes.get("small", 1 << small)
        n_large = case.sizes.get("large", 1 << large)
        for fw in fws:
            fw_name, mod = fw
            small_args = case.make(fw, n_small)
            large_args = case.make(fw, n_large)
            _sync(fw)
            # Other vendors on this framework's arrays: keys "cupy/<name>".
            extra = [k for k in case.impls if k.startswith(fw_name + "/")]
            for key in ("gpuprim", fw_name, *extra):
                impl = case.impls.get(key)
                if impl is None:
                    continue
                label = key.split("/", 1)[-1]
                row = {"case": case.name, "arrays": fw_name, "impl": label,
                       "n_small": n_small, "n_large": n_large}
                try:
                    row["per_call_us"] = per_call_us(lambda: impl(mod, small_args), fw, calls)
                    ms = device_ms(lambda: impl(mod, large_args), fw, runs)
                    row["time_ms"] = ms
                    row["gbs"] = case.bytes_moved(n_large) / (ms * 1e-3) / 1e9
                except Exception as e:  # a framework without the case's dtype, ...
                    row["error"] = f"{type(e).__name__}: {e}"
                rows.append(row)
                print(f"  {case.name} {label} on {fw_name}: done", file=sys.stderr)
            del small_args, large_args
    _print_table(rows, device, versions, out)
    return rows


def _print_table(rows, device, versions, out):
    vs = ", ".join(f"{k} {v}" for k, v in versions.items())
    print(f"\ngpuprim {gp.__version__} on {device} ({vs})\n", file=out)
    print("| case | arrays | impl | per call (us) | time (ms) | GB/s | x gpuprim |", file=out)
    print("| --- | --- | --- | ---: | ---: | ---: | ---: |", file=out)
    ours = {(r["case"], r["arrays"]): r for r in rows if r["impl"] == "gpuprim"}
    for r in rows:
        if "error" in r:
            print(f"| {r['case']} | {r['arrays']} | {r['impl']} | {r['error']} | | | |", file=out)
            continue
        base = ours.get((r["case"], r["arrays"]))
        ratio = r["time_ms"] / base["time_ms"] if base and "time_ms" in base else float("nan")
        print(f"| {r['case']} | {r['arrays']} | {r['impl']} | {r['per_call_us']:.1f} | "
              f"{r['time_ms']:.3f} | {r['gbs']:.0f} | {ratio:.2f} |", file=out)
    print("\nper call: host time of one queued call at the small size; time: median device "
          "time at the large size; x gpuprim: the row's time / gpuprim's on the same arrays "
          "(above 1: gpuprim is faster).", file=out)


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m gpuprim.bench", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--only", help="comma-separated cases (default: all): "
                   + ", ".join(c.name for c in CASES))
    p.add_argument("--frameworks", default="cupy,torch")
    p.add_argument("--small", type=int, default=10, help="log2 of the per-call size")
    p.add_argument("--large", type=int, default=28, help="log2 of the throughput size")
    p.add_argument("--calls", type=int, default=2000)
    p.add_argument("--runs", type=int, default=None, help="timed runs (default 20; --cpu: 11)")
    p.add_argument("--json", help="also write the rows to this JSON file")
    p.add_argument("--cpu", action="store_true",
                   help="the host backend against NumPy and SciPy on NumPy arrays "
                   "(_bench_cpu.py); --only takes case prefixes (sort, spmv, ...)")
    p.add_argument("--scale", type=float, default=1.0,
                   help="--cpu: sizes times this (1: sort 10^7 keys, matmul 2000^3, ...)")
    a = p.parse_args(argv)
    if a.cpu:
        from ._bench_cpu import run_cpu

        rows = run_cpu(a.only.split(",") if a.only else None, a.runs or 11, a.scale)
        if a.json:
            with open(a.json, "w") as f:
                json.dump({"gpuprim": gp.__version__, "info": gp.info(), "rows": rows}, f,
                          indent=1)
        return 0 if rows else 1
    only = set(a.only.split(",")) if a.only else None
    if only and not only <= {c.name for c in CASES}:
        p.error(f"unknown case in --only: {sorted(only - {c.name for c in CASES})}")
    rows = run(only, a.frameworks.split(","), a.small, a.large, a.calls, a.runs or 20)
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"gpuprim": gp.__version__, "info": gp.info(), "rows": rows}, f, indent=1)
    return 0 if rows else 1


if __name__ == "__main__":
    sys.exit(main())
