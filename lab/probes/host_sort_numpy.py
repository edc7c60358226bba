"""NumPy's side of probe_host_sort.cpp: np.sort (and ndarray.sort on a copy)
of 10^7 keys, the smallest CPU time of 7 (time.process_time), standard
normal floats and integers with every bit random. Run it with
OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE unset; NPY_DISABLE_CPU_FEATURES=
"X86_V4 AVX512_ICL AVX512_SPR" times NumPy's AVX2 sort instead of its
AVX-512 one."""
import sys
import time

import numpy as np

n = int(sys.argv[1]) if len(sys.argv) > 1 else 10**7
g = np.random.default_rng(42)
bits32 = g.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32)
bits64 = g.integers(0, 2**64, n, dtype=np.uint64, endpoint=False)
data = {
    "float32": g.standard_normal(n).astype(np.float32),
    "int32": bits32.view(np.int32),
    "uint32": bits32,
    "float64": g.standard_normal(n),
    "int64": bits64.view(np.int64),
    "uint64": bits64,
}
print(f"numpy {np.__version__}, n={n}")
print("| keys | np.sort (ms CPU) | ndarray.sort of a copy (ms CPU) | np.sort(kind='stable') (ms CPU) |")
print("| --- | ---: | ---: | ---: |")
for name, a in data.items():
    best = best_inplace = best_stable = float("inf")
    for _ in range(7):
        t = time.process_time()
        np.sort(a)
        best = min(best, time.process_time() - t)
        c = a.copy()
        t = time.process_time()
        c.sort()
        best_inplace = min(best_inplace, time.process_time() - t)
    for _ in range(3):
        t = time.process_time()
        np.sort(a, kind="stable")
        best_stable = min(best_stable, time.process_time() - t)
    print(f"| {name} | {best * 1e3:.1f} | {best_inplace * 1e3:.1f} | {best_stable * 1e3:.1f} |")
