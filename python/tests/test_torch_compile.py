"""torch.compile: gpuprim's functions as PyTorch custom operators
(gpuprim/_torch_ops.py). A function calling gpuprim.sort, argsort, cumsum,
sum, histogram (int bins with a range), topk and searchsorted compiles with
fullgraph=True (no graph break) and gives the eager answer, on CPU tensors
(gpuprim's CPU backend) and CUDA tensors (skipped without a device).
torch.library.opcheck checks each operator's fake (shape) function against
the real one. Skipped without torch."""

import subprocess
import sys

import numpy as np
import pytest

import gpuprim as gp

torch = pytest.importorskip("torch")
gp.register_torch_ops()

DEVICES = ["cpu", "cuda"]


def _device(name):
    if name == "cuda" and not (gp.cuda_available() and torch.cuda.is_available()):
        pytest.skip("no CUDA device (or a CPU-only gpuprim or torch)")
    return torch.device(name)


def _inputs(device, seed=0):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(1000, generator=g, dtype=torch.float64)
    m = torch.randn(12, 70, generator=g, dtype=torch.float32)
    a = torch.sort(torch.randn(500, generator=g, dtype=torch.float64)).values
    v = torch.randn(40, generator=g, dtype=torch.float64)
    i = torch.randint(-50, 50, (300,), generator=g, dtype=torch.int32)
    return [t.to(device) for t in (x, m, a, v, i)]


def _program(x, m, a, v, i):
    """A function of the kind a user compiles: gpuprim calls mixed with
    torch's own operations."""
    s = gp.sort(x)
    order = gp.argsort(m, axis=-1, descending=True)
    c = gp.cumsum(x * 2.0, axis=0)
    ci = gp.cumsum(i)  # int32 -> int64, NumPy's rule
    rows = gp.sum(m, axis=1, keepdims=True)
    total = gp.sum(i)
    h, edges = gp.histogram(x, bins=16, range=(-3.0, 3.0))
    vals, idx = gp.topk(m, 5, dim=1)
    pos = gp.searchsorted(a, v, side="right")
    return s + 1, order, c, ci, rows * 2, total, h, edges, vals, idx, pos


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("backend", ["aot_eager", "inductor"])
def test_compiled_program_equals_eager(device, backend):
    dev = _device(device)
    torch._dynamo.reset()
    args = _inputs(dev)
    eager = _program(*args)
    compiled = torch.compile(_program, fullgraph=True, backend=backend)
    for seed in (0, 1):  # a second call reuses the compiled graph
        args = _inputs(dev, seed)
        want = _program(*args)
        got = compiled(*args)
        assert len(got) == len(want)
        for g, w in zip(got, want):
            assert isinstance(g, torch.Tensor)
            assert g.device.type == dev.type
            assert g.dtype == w.dtype and g.shape == w.shape, (g.dtype, w.dtype, g.shape, w.shape)
            torch.testing.assert_close(g, w, rtol=1e-6, atol=1e-6)
    assert eager[0].shape == (1000,)


@pytest.mark.parametrize("device", DEVICES)
def test_operators_match_numpy(device):
    dev = _device(device)
    x, m, a, v, i = _inputs(dev)
    xn, mn, an, vn, in_ = (t.cpu().numpy() for t in (x, m, a, v, i))
    ops = torch.ops.gpuprim
    np.testing.assert_array_equal(ops.sort(m, 0).cpu().numpy(), np.sort(mn, axis=0))
    np.testing.assert_array_equal(
        ops.argsort(x).cpu().numpy(), np.argsort(xn, kind="stable")
    )
    # float32 partial sums in another order than NumPy's running sum: against
    # the float64 sums, with an absolute bound for the ones near zero.
    np.testing.assert_allclose(
        ops.cumsum(m, 1).cpu().numpy(), np.cumsum(mn.astype(np.float64), axis=1), rtol=1e-5, atol=1e-5
    )
    assert ops.cumsum(i, 0).dtype == torch.int64
    np.testing.assert_array_equal(ops.sum(i).cpu().numpy(), np.sum(in_))
    np.testing.assert_allclose(
        ops.sum(m, 0, True).cpu().numpy(), mn.sum(0, keepdims=True), rtol=1e-5
    )
    counts, edges = ops.histogram(m, 9, -2.0, 2.0)
    wc, we = np.histogram(mn, bins=9, range=(-2.0, 2.0))
    np.testing.assert_array_equal(counts.cpu().numpy(), wc)
    assert edges.dtype == torch.float32
    np.testing.assert_allclose(edges.cpu().numpy(), we, rtol=1e-6)
    vals, idx = ops.topk(x, 4)
    want = np.argsort(-xn, kind="stable")[:4]
    np.testing.assert_array_equal(idx.cpu().numpy(), want)
    np.testing.assert_array_equal(vals.cpu().numpy(), xn[want])
    np.testing.assert_array_equal(
        ops.searchsorted(a, v).cpu().numpy(), np.searchsorted(an, vn)
    )


@pytest.mark.parametrize("device", DEVICES)
def test_opcheck(device):
    dev = _device(device)
    x, m, a, v, i = _inputs(dev)
    ops = torch.ops.gpuprim
    cases = [
        (ops.sort.default, (m,), {"dim": 0, "descending": True}),
        (ops.argsort.default, (x,), {}),
        (ops.cumsum.default, (i, 0), {}),
        (ops.sum.default, (m,), {"dim": -1, "keepdim": False}),
        (ops.sum.default, (x,), {}),
        (ops.histogram.default, (x, 7, -1.0, 1.0), {}),
        (ops.topk.default, (m, 3), {"dim": 0, "largest": False}),
        (ops.searchsorted.default, (a, v), {"right": True}),
    ]
    for op, args, kwargs in cases:
        torch.library.opcheck(op, args, kwargs, test_utils=("test_schema", "test_faketensor"))


def test_importing_gpuprim_does_not_import_torch():
    code = "import sys, gpuprim; assert 'torch' not in sys.modules, 'torch was imported'"
    subprocess.run([sys.executable, "-c", code], check=True)
