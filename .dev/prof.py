"""Per-call host cost at 2^10 of the small-call functions, with cProfile's
top entries: where the microseconds go (Python argument logic, the core
call, the framework's own ops)."""
import cProfile, pstats, io, time, sys
import numpy as np
import gpuprim as gp
import cupy as cp, torch

def cases(mod):
    n = 1 << 10
    if mod == "cupy":
        x = cp.random.random(n).astype(cp.float32); s = cp.sort(x); q = cp.random.random(256).astype(cp.float32)
        xi = (cp.random.random(n) * 64).astype(cp.int32)
    else:
        x = torch.rand(n, device="cuda"); s = torch.sort(x).values; q = torch.rand(256, device="cuda")
        xi = (torch.rand(n, device="cuda") * 64).to(torch.int32)
    return {
        "sort": lambda: gp.sort(x),
        "searchsorted": lambda: gp.searchsorted(s, q),
        "topk16": lambda: gp.topk(x, 16),
        "unique": lambda: gp.unique(xi),
        "nonzero": lambda: gp.nonzero(xi),
        "histogram": lambda: gp.histogram(x, bins=64, range=(0.0, 1.0)),
        "histogram_auto": lambda: gp.histogram(x, bins=64),
        "cumsum": lambda: gp.cumsum(x),
        "sum": lambda: gp.sum(x),
    }

for mod in ("cupy", "torch"):
    sync = cp.cuda.Device().synchronize if mod == "cupy" else torch.cuda.synchronize
    for name, f in cases(mod).items():
        try:
            for _ in range(50): f()
            sync()
            t = time.perf_counter()
            for _ in range(1000): f()
            per = (time.perf_counter() - t) * 1e3
            sync()
            pr = cProfile.Profile(); pr.enable()
            for _ in range(300): f()
            pr.disable(); sync()
            st = io.StringIO(); pstats.Stats(pr, stream=st).sort_stats("tottime").print_stats(8)
            lines = [l for l in st.getvalue().splitlines() if l.strip()][4:14]
            print(f"== {mod} {name}: {per:.1f} us per queued call")
            print("\n".join(lines))
        except Exception as e:
            print(f"== {mod} {name}: {type(e).__name__}: {e}")
