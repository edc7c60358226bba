"""CUDA graphs: every GPU function whose output size is fixed by its
arguments is captured (torch.cuda.graph, CuPy's stream capture), replayed
after its inputs are changed in place, and checked against NumPy; the
functions that must wait for the GPU (output sized by the data, checks of
device data on the host) raise RuntimeError under capture, saying why,
before enqueueing anything. Every test skips without a CUDA device, a
CUDA build of gpuprim, or the framework."""

import numpy as np
import pytest

import gpuprim as gp

N, ROWS, COLS, K = 4099, 37, 96, 7
OFFSETS = np.array([0, 0, 5, 1000, 1001, 3000, N], np.int64)


def inputs(seed):
    """The arrays every case reads, as NumPy arrays (new values per seed,
    same shapes and dtypes: what a replay reads from the captured buffers)."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(N)
    x[seed % N] = np.nan if seed else x[0]
    return {
        "x": rng.standard_normal(N),
        "xn": x,  # with a NaN (after the first seed)
        "i": rng.integers(-1000, 1000, N).astype(np.int32),
        "m": rng.standard_normal((ROWS, COLS)),
        "b": rng.standard_normal((COLS, 24)),
        "a": np.sort(rng.standard_normal(N)),
        "v": rng.standard_normal(300),
        "vals": rng.integers(0, 1 << 40, N).astype(np.int64),
        "off": OFFSETS,
        "perm": np.arange(N, dtype=np.int64),
    }


# name -> (gpuprim call on the arrays (device or NumPy), NumPy's answer).
def _ref_exclusive(x):
    return np.concatenate([[0.0], np.cumsum(x)[:-1]])


def _ref_topk(x, k):
    idx = np.argsort(-x, kind="stable")[:k]
    return x[idx], idx


CAPTURABLE = {
    "sum": (lambda g, d: g.sum(d["x"]), lambda d: np.sum(d["x"])),
    "sum_i32": (lambda g, d: g.sum(d["i"]), lambda d: np.sum(d["i"])),
    "sum_axis0": (lambda g, d: g.sum(d["m"], axis=0), lambda d: np.sum(d["m"], axis=0)),
    "sum_rows_keepdims": (
        lambda g, d: g.sum(d["m"], axis=-1, keepdims=True),
        lambda d: np.sum(d["m"], axis=-1, keepdims=True),
    ),
    "nansum": (lambda g, d: g.nansum(d["xn"]), lambda d: np.nansum(d["xn"])),
    "min": (lambda g, d: g.min(d["i"]), lambda d: np.min(d["i"])),
    "max_rows": (lambda g, d: g.max(d["m"], axis=1), lambda d: np.max(d["m"], axis=1)),
    "nanmin": (lambda g, d: g.nanmin(d["xn"]), lambda d: np.nanmin(d["xn"])),
    "nanmax": (lambda g, d: g.nanmax(d["xn"]), lambda d: np.nanmax(d["xn"])),
    "argmin": (lambda g, d: g.argmin(d["x"]), lambda d: np.argmin(d["x"])),
    "argmax_rows": (lambda g, d: g.argmax(d["m"], axis=-1), lambda d: np.argmax(d["m"], axis=-1)),
    "nanargmin": (lambda g, d: g.nanargmin(d["xn"]), lambda d: np.nanargmin(d["xn"])),
    "nanargmax": (lambda g, d: g.nanargmax(d["xn"]), lambda d: np.nanargmax(d["xn"])),
    "cumsum": (lambda g, d: g.cumsum(d["x"]), lambda d: np.cumsum(d["x"])),
    "cumsum_i32": (lambda g, d: g.cumsum(d["i"]), lambda d: np.cumsum(d["i"])),
    "cumsum_axis0": (lambda g, d: g.cumsum(d["m"], axis=0), lambda d: np.cumsum(d["m"], axis=0)),
    "cummax": (lambda g, d: g.cummax(d["x"]), lambda d: np.maximum.accumulate(d["x"])),
    "cummin_rows": (
        lambda g, d: g.cummin(d["m"], axis=1),
        lambda d: np.minimum.accumulate(d["m"], axis=1),
    ),
    "exclusive_scan": (lambda g, d: g.exclusive_scan(d["x"]), lambda d: _ref_exclusive(d["x"])),
    "segmented_sum": (
        lambda g, d: g.segmented_sum(d["x"], d["off"], check=False),
        lambda d: np.add.reduceat(np.append(d["x"], 0), d["off"][:-1])
        * (np.diff(d["off"]) > 0),
    ),
    "segmented_cumsum": (
        lambda g, d: g.segmented_cumsum(d["i"], d["off"], check=False),
        lambda d: np.concatenate(
            [np.cumsum(d["i"][a:b], dtype=np.int64) for a, b in zip(d["off"][:-1], d["off"][1:])]
        ),
    ),
    "sort": (lambda g, d: g.sort(d["x"]), lambda d: np.sort(d["x"])),
    "sort_i32_desc": (
        lambda g, d: g.sort(d["i"], descending=True),
        lambda d: np.sort(d["i"])[::-1],
    ),
    "sort_rows": (lambda g, d: g.sort(d["m"]), lambda d: np.sort(d["m"])),
    "sort_axis0": (lambda g, d: g.sort(d["m"], axis=0), lambda d: np.sort(d["m"], axis=0)),
    "argsort": (lambda g, d: g.argsort(d["x"]), lambda d: np.argsort(d["x"], kind="stable")),
    "argsort_rows": (lambda g, d: g.argsort(d["m"]), lambda d: np.argsort(d["m"], kind="stable")),
    "sort_by_key": (
        lambda g, d: g.sort_by_key(d["x"], d["vals"]),
        lambda d: (np.sort(d["x"]), d["vals"][np.argsort(d["x"], kind="stable")]),
    ),
    "histogram_range": (
        lambda g, d: g.histogram(d["x"], bins=33, range=(-2.5, 3.0)),
        lambda d: np.histogram(d["x"], bins=33, range=(-2.5, 3.0)),
    ),
    "transpose": (lambda g, d: g.transpose(d["m"]), lambda d: np.ascontiguousarray(d["m"].T)),
    "matmul": (lambda g, d: g.matmul(d["m"], d["b"]), lambda d: d["m"] @ d["b"]),
    "topk": (lambda g, d: g.topk(d["x"], K), lambda d: _ref_topk(d["x"], K)),
    "searchsorted": (
        lambda g, d: g.searchsorted(d["a"], d["v"]),
        lambda d: np.searchsorted(d["a"], d["v"]),
    ),
    "searchsorted_right": (
        lambda g, d: g.searchsorted(d["a"], d["v"], side="right"),
        lambda d: np.searchsorted(d["a"], d["v"], side="right"),
    ),
}

# name -> the call that must refuse capture (the reason is in the message).
NOT_CAPTURABLE = {
    "unique": (lambda g, d: g.unique(d["i"]), "depends on the data"),
    "unique_consecutive": (lambda g, d: g.unique_consecutive(d["i"]), "depends on the data"),
    "nonzero": (lambda g, d: g.nonzero(d["i"]), "depends on the data"),
    "flatnonzero": (lambda g, d: g.flatnonzero(d["i"]), "depends on the data"),
    "count_nonzero": (lambda g, d: g.count_nonzero(d["i"]), "depends on the data"),
    "extract": (lambda g, d: g.extract(d["i"] > 0, d["x"]), "depends on the data"),
    "compress": (lambda g, d: g.compress(d["x"] > 0, d["i"]), "depends on the data"),
    "histogram_no_range": (lambda g, d: g.histogram(d["x"], bins=8), "range="),
    "histogram_edges": (lambda g, d: g.histogram(d["x"], bins=d["a"][::500]), "edges"),
    "segmented_sum_checked": (lambda g, d: g.segmented_sum(d["x"], d["off"]), "check=False"),
    "searchsorted_sorter": (
        lambda g, d: g.searchsorted(d["a"], d["v"], sorter=d["perm"]),
        "sorter",
    ),
}


def _as_tuple(r):
    return r if isinstance(r, tuple) else (r,)


def _compare(xp, got, want):
    got, want = _as_tuple(got), _as_tuple(want)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        g = xp.to_numpy(g)
        w = np.asarray(w)
        assert g.shape == w.shape, (g.shape, w.shape)
        if w.dtype.kind == "f":
            np.testing.assert_allclose(g, w, rtol=1e-9, atol=1e-9)
        else:
            np.testing.assert_array_equal(g, w)


def _torch_graph(xp, fn, bufs, warm_up):
    torch = xp.module
    if warm_up:  # kernels loaded, pools and handles made, outside the capture
        side = torch.cuda.Stream()
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):
            fn(gp, bufs)
        torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        out = fn(gp, bufs)

    def replay(new):
        for k, v in new.items():
            bufs[k].copy_(torch.from_numpy(np.ascontiguousarray(v)))
        graph.replay()
        torch.cuda.synchronize()

    return out, replay


def _cupy_graph(xp, fn, bufs, warm_up):
    cupy = xp.module
    stream = cupy.cuda.Stream(non_blocking=True)
    with stream:
        if warm_up:
            fn(gp, bufs)
        stream.synchronize()
        stream.begin_capture()
        try:
            out = fn(gp, bufs)
        finally:
            graph = stream.end_capture()

    def replay(new):
        with stream:
            for k, v in new.items():
                bufs[k].set(np.ascontiguousarray(v), stream=stream)
            graph.launch(stream)
        stream.synchronize()

    return out, replay


def _capture(xp, fn, bufs, warm_up=True):
    """(the captured call's outputs, replay(new inputs)): fn(gp, bufs) run
    once outside (warm_up), then captured on a stream of the framework."""
    return (_torch_graph if xp.name == "torch" else _cupy_graph)(xp, fn, bufs, warm_up)


@pytest.mark.parametrize("name", sorted(CAPTURABLE))
def test_capture_and_replay(xp, name):
    call, ref = CAPTURABLE[name]
    first = inputs(0)
    bufs = {k: xp.asarray(v) for k, v in first.items()}
    xp.synchronize()
    out, replay = _capture(xp, call, bufs)
    for seed in (1, 2):
        new = inputs(seed)
        replay(new)
        _compare(xp, out, ref(new))


@pytest.mark.parametrize("name", sorted(NOT_CAPTURABLE))
def test_data_dependent_calls_refuse_capture(xp, name):
    call, reason = NOT_CAPTURABLE[name]
    bufs = {k: xp.asarray(v) for k, v in inputs(0).items()}
    xp.synchronize()
    call(gp, bufs)  # outside a capture it works
    gp.cumsum(bufs["x"])
    xp.synchronize()

    def attempt(g, d):
        out = g.cumsum(d["x"])
        with pytest.raises(RuntimeError, match="cannot be captured in a CUDA graph") as info:
            call(g, d)
        assert reason in str(info.value)
        return out

    # The capture stays valid: the cumsum before the refusal replays.
    out, replay = _capture(xp, attempt, bufs, warm_up=False)
    new = inputs(4)
    replay({"x": new["x"]})
    _compare(xp, out, np.cumsum(new["x"]))


def test_capture_on_an_explicit_stream(xp):
    """stream= given (not the framework's current stream) is the one checked
    and captured into."""
    first = inputs(0)
    bufs = {k: xp.asarray(v) for k, v in first.items()}
    xp.synchronize()
    if xp.name == "torch":
        torch = xp.module
        s = torch.cuda.Stream()
        graph = torch.cuda.CUDAGraph()
        gp.cumsum(bufs["x"], stream=s)
        torch.cuda.synchronize()
        with torch.cuda.graph(graph, stream=s):
            out = gp.cumsum(bufs["x"], stream=torch.cuda.current_stream())
            with pytest.raises(RuntimeError, match="cannot be captured"):
                gp.unique(bufs["i"], stream=s)
        new = inputs(3)
        bufs["x"].copy_(torch.from_numpy(new["x"]))
        graph.replay()
        torch.cuda.synchronize()
    else:
        cupy = xp.module
        s = cupy.cuda.Stream(non_blocking=True)
        gp.cumsum(bufs["x"], stream=s)
        s.synchronize()
        s.begin_capture()
        try:
            out = gp.cumsum(bufs["x"], stream=s)
            with pytest.raises(RuntimeError, match="cannot be captured"):
                gp.unique(bufs["i"], stream=s)
        finally:
            graph = s.end_capture()
        new = inputs(3)
        bufs["x"].set(new["x"], stream=s)
        graph.launch(s)
        s.synchronize()
    _compare(xp, out, np.cumsum(new["x"]))
