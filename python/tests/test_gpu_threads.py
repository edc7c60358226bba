"""Many Python threads calling gpuprim on the GPU at once (issue 47, point 5):
8 threads x hundreds of calls, each thread on a stream of its own (CuPy's
and PyTorch's current stream, set per thread, or passed as stream=), and
threads sharing the framework's default stream; every answer must be the
one a lone thread got for the same arrays, bit for bit. The bindings
release the GIL around the library's work, so the calls really overlap.
Every test skips without a CUDA device, a CUDA build of gpuprim, or the
framework. The CPU counterpart is test_host_threads.py."""

import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

import gpuprim as gp

THREADS = 8
CALLS = 240  # per thread, spread over the calls of _calls


def _calls(xp, seed):
    """A thread's arrays on the GPU (a small and a large size, so the
    library's workspaces grow while other threads call) and its calls: name
    -> fn(stream) giving a tuple of results."""
    rng = np.random.default_rng(seed)
    out = []
    for n in (1000 + 37 * seed, 700_001 + 4099 * seed):
        f = xp.asarray(rng.standard_normal(n).astype(np.float32))
        i = xp.asarray(rng.integers(-1000, 1000, n).astype(np.int32))
        k = xp.asarray(rng.integers(0, 1 << 30, n).astype(np.uint32))
        off = xp.asarray(np.array([0, n // 3, n // 3, n - 5, n], np.int64))
        rows = n // 10
        per_row = rng.integers(0, 8, rows)
        indptr = np.concatenate([[0], np.cumsum(per_row)]).astype(np.int32)
        indices = rng.integers(0, rows, int(indptr[-1])).astype(np.int32)
        A = (xp.asarray(rng.standard_normal(int(indptr[-1])).astype(np.float32)),
             xp.asarray(indices), xp.asarray(indptr), (rows, rows))
        v = xp.asarray(rng.standard_normal(rows).astype(np.float32))
        out += [
            ("sum", lambda s, f=f: (gp.sum(f, stream=s),)),
            ("cumsum", lambda s, f=f: (gp.cumsum(f, stream=s),)),
            ("sort", lambda s, k=k: (gp.sort(k, stream=s),)),
            ("argsort", lambda s, i=i: (gp.argsort(i, stream=s),)),
            ("histogram", lambda s, f=f: gp.histogram(f, bins=33, range=(-2.0, 2.0), stream=s)),
            ("topk", lambda s, f=f: gp.topk(f, 50, stream=s)),
            ("segmented_sum", lambda s, f=f, off=off: (gp.segmented_sum(f, off, stream=s),)),
            ("spmv", lambda s, A=A, v=v: (gp.sparse.spmv(A, v, stream=s),)),
            ("count_nonzero", lambda s, i=i: (gp.count_nonzero(i, stream=s),)),
        ]
    return out


def _host(xp, results):
    return tuple(np.asarray(r) if np.isscalar(r) else xp.to_numpy(r) for r in results)


def _same(got, want):
    return all(g.dtype == w.dtype and g.shape == w.shape and np.array_equal(g, w)
               for g, w in zip(got, want))


class _Lane:
    """A thread's stream, made its framework's current stream while the
    thread calls (stream=None then means it), or passed as stream=."""

    def __init__(self, xp, shared):
        self.xp = xp
        self.stream = None if shared else xp.new_stream()

    def current(self):
        if self.stream is None:
            return _Nothing()
        if self.xp.name == "cupy":
            return self.stream
        return self.xp.module.cuda.stream(self.stream)

    def synchronize(self):
        if self.stream is not None:
            self.stream.synchronize()
        else:
            self.xp.synchronize()


class _Nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def _hammer(xp, shared):
    cases = [_calls(xp, t) for t in range(THREADS)]
    xp.synchronize()
    # One thread first.
    lone = _Lane(xp, shared)
    want = []
    with lone.current():
        for calls in cases:
            answers = []
            for _, call in calls:
                r = call(None)
                lone.synchronize()
                answers.append(_host(xp, r))
            want.append(answers)
    start = threading.Barrier(THREADS)

    def work(t):
        lane = _Lane(xp, shared)
        calls = cases[t]
        wrong = []
        start.wait()  # all threads call at once
        with lane.current():
            for c in range(CALLS):
                j = (c * 5 + t) % len(calls)
                # Every other call names the stream; the rest take the current one.
                explicit = c % 2 == 1 and lane.stream is not None
                r = calls[j][1](lane.stream if explicit else None)
                lane.synchronize()
                if not _same(_host(xp, r), want[t][j]):
                    wrong.append((t, c, calls[j][0]))
        return wrong

    with ThreadPoolExecutor(THREADS) as pool:
        wrong = [w for ws in pool.map(work, range(THREADS)) for w in ws]
    assert wrong == []


def test_threads_on_their_own_streams_get_the_answers_of_one_thread(xp):
    _hammer(xp, shared=False)


def test_threads_sharing_the_default_stream_get_the_answers_of_one_thread(xp):
    _hammer(xp, shared=True)


def test_scratch_limits_of_threads_never_outlive_their_blocks():
    """Threads entering and leaving scratch_limit blocks in any order (the
    cap is process-wide): once every block is closed no cap is left behind.
    Runs without a GPU too (the blocks' bookkeeping is the package's)."""
    start = threading.Barrier(THREADS)
    x = np.arange(100_000, dtype=np.float32)

    def work(t):
        start.wait()
        for r in range(50):
            with gp.scratch_limit(1 << 40 if (r + t) % 2 else None):
                gp.cumsum(x)
        return True

    with ThreadPoolExecutor(THREADS) as pool:
        assert all(pool.map(work, range(THREADS)))
    # No cap left: _set_scratch_limit's answer is the cap in force.
    assert gp._core._set_scratch_limit(None) is None
