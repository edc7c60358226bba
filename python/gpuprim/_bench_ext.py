"""Benchmark rows of gpuprim.ndimage and gpuprim.sparse for ``python -m gpuprim.bench``.

``register_cases(register, Case)`` adds them to the bench's table:
  - gaussian_filter: float32 8192^2 image, sigma 2 (separable, 17 taps),
    against cupyx.scipy.ndimage.gaussian_filter; GB/s counts one read and
    one write of the image.
  - spmv: the 5-point Poisson matrix of a 4096^2 grid (float32, int32
    indices) times a vector, against cupyx (cuSPARSE) and torch's CSR
    product; GB/s is the minimum traffic (values, column indices, row
    offsets, x and y once).
  - cg: CG_ITERATIONS iterations of CG on the same matrix (rtol=0, so the
    count is fixed), against cupyx.scipy.sparse.linalg.cg; the time is for
    all the iterations (divide by CG_ITERATIONS for one); GB/s counts the
    SpMV's minimum traffic of each iteration only.
  - sort_rows: float32 rows of 1024 sorted along the last axis (2^14 rows),
    against cupy.sort(axis=-1) and torch.sort(dim=-1) (which also returns
    indices); GB/s counts one read and one write of every key.
  - searchsorted: 2^24 uniform float32 queries into 2^28 sorted uniform
    float32 keys (the table is SEARCH_TABLE times the queries), against
    cupy.searchsorted and torch.searchsorted; GB/s counts the queries read
    and the int64 answers written.
  - topk_k16, topk_k1024, topk_k65536: the k largest of 2^28 float32 with
    their indices, against torch.topk (CuPy has none); GB/s counts one read.
  - topk_rows: 2^14 float32 rows of 4096, k = 64 along the last axis,
    against torch.topk(dim=-1); GB/s counts one read.
The small sizes (per-call overhead) are a 32^2 image, a 32^2 grid, one
row of 1024 (4096 for topk_rows), 2^10 queries into 2^14 keys, and 2^10
values for top-k (2^17 for k = 65536).
"""

import inspect

import numpy as np

import gpuprim as gp

CG_ITERATIONS = 50


def _poisson_csr(m):
    """(data float32, indices int32, indptr int32) of the 5-point Laplacian of
    an m x m grid: 4 on the diagonal, -1 for each grid neighbour; columns
    ascending in each row."""
    n = m * m
    i = np.arange(n, dtype=np.int64)
    r, c = i // m, i % m
    cols = np.stack([i - m, i - 1, i, i + 1, i + m], axis=1)
    valid = np.stack([r > 0, c > 0, np.ones(n, bool), c < m - 1, r < m - 1], axis=1)
    vals = np.where(cols == i[:, None], np.float32(4), np.float32(-1)).astype(np.float32)
    indptr = np.zeros(n + 1, np.int64)
    np.cumsum(valid.sum(axis=1), out=indptr[1:])
    return vals[valid], cols[valid].astype(np.int32), indptr.astype(np.int32)


def _poisson_nnz(n):
    m = int(round(n**0.5))
    return 5 * m * m - 4 * m


def _spmv_bytes(n):
    return 4.0 * (2 * _poisson_nnz(n) + (n + 1) + 2 * n)


def _matrix(fw, n):
    """The Poisson matrix of a sqrt(n)^2 grid on fw's device: (gpuprim's tuple,
    the framework's own matrix), and a vector of ones."""
    name, mod = fw
    m = int(round(n**0.5))
    data, indices, indptr = _poisson_csr(m)
    if name == "cupy":
        import cupyx.scipy.sparse as csp

        A = csp.csr_matrix(
            (mod.asarray(data), mod.asarray(indices), mod.asarray(indptr)), shape=(n, n)
        )
        parts = (A.data, A.indices, A.indptr, A.shape)
        x = mod.ones(n, dtype=mod.float32)
    else:
        d, ix, ip = (mod.from_numpy(a).cuda() for a in (data, indices, indptr))
        A = mod.sparse_csr_tensor(ip, ix, d, size=(n, n))
        parts = (d, ix, ip, (n, n))
        x = mod.ones(n, dtype=mod.float32, device="cuda")
    return parts, A, x


def uniform(fw, *shape):
    """Uniform float32 values in [0, 1) of `shape`, made on the device by
    the framework itself."""
    name, mod = fw
    if name == "cupy":
        return mod.random.random(shape, dtype=mod.float32)
    return mod.rand(*shape, device="cuda", dtype=mod.float32)


def _image(fw, n):
    side = int(round(n**0.5))
    return (uniform(fw, side, side),)


SORT_ROW = 1024


def _rows(fw, n):
    """n uniform float32 values as rows of SORT_ROW, made on fw's device."""
    return (uniform(fw, n // SORT_ROW, SORT_ROW),)


def _cupy_gaussian(mod, a):
    import cupyx.scipy.ndimage as cnd

    return cnd.gaussian_filter(a[0], 2.0)


def _cupy_cg(mod, a):
    import cupyx.scipy.sparse.linalg as cla

    params = inspect.signature(cla.cg).parameters
    tol = {"rtol": 0.0} if "rtol" in params else {"tol": 0.0}
    return cla.cg(a[1], a[2], maxiter=CG_ITERATIONS, atol=0.0, **tol)


def register_cases(register, Case):
    """Adds the rows through the bench's register(Case(...))."""
    register(
        Case(
            "gaussian_filter",
            _image,
            {
                "gpuprim": lambda mod, a: gp.ndimage.gaussian_filter(a[0], 2.0),
                "cupy": _cupy_gaussian,
                "torch": None,
            },
            lambda n: 8.0 * n,
            note="float32 8192^2, sigma 2 (17 taps a side), mode reflect",
            sizes={"small": 32 * 32, "large": 8192 * 8192},
        )
    )
    register(
        Case(
            "sort_rows",
            _rows,
            {
                "gpuprim": lambda mod, a: gp.sort(a[0], axis=-1),
                "cupy": lambda mod, a: mod.sort(a[0], axis=-1),
                "torch": lambda mod, a: mod.sort(a[0], dim=-1),
            },
            lambda n: 8.0 * n,
            note=f"float32 rows of {SORT_ROW} along the last axis, 2^14 rows; "
            "torch.sort also returns indices",
            sizes={"small": SORT_ROW, "large": (1 << 14) * SORT_ROW},
        )
    )
    register(
        Case(
            "spmv",
            _matrix,
            {
                "gpuprim": lambda mod, a: gp.sparse.spmv(a[0], a[2]),
                "cupy": lambda mod, a: a[1] @ a[2],
                "torch": lambda mod, a: a[1] @ a[2],
            },
            _spmv_bytes,
            note="5-point Poisson 4096^2, float32, int32 indices",
            sizes={"small": 32 * 32, "large": 4096 * 4096},
        )
    )
    register(
        Case(
            "cg",
            _matrix,
            {
                "gpuprim": lambda mod, a: gp.sparse.linalg.cg(
                    a[0], a[2], rtol=0.0, maxiter=CG_ITERATIONS
                ),
                "cupy": _cupy_cg,
                "torch": None,
            },
            lambda n: CG_ITERATIONS * _spmv_bytes(n),
            note=f"{CG_ITERATIONS} iterations (rtol=0), Poisson 4096^2 float32; "
            "GB/s: the SpMV traffic only",
            sizes={"small": 32 * 32, "large": 4096 * 4096},
        )
    )
    register_order_cases(register, Case)


SEARCH_TABLE = 16
TOPK_ROW = 4096


def _table_and_queries(fw, n):
    """SEARCH_TABLE * n sorted uniform float32 keys and n uniform queries."""
    name, mod = fw
    table = mod.sort(uniform(fw, SEARCH_TABLE * n))
    return (table if name == "cupy" else table[0], uniform(fw, n))


def _values(fw, n):
    return (uniform(fw, n),)


def _topk_rows_input(fw, n):
    return (uniform(fw, n // TOPK_ROW, TOPK_ROW),)


def register_order_cases(register, Case):
    """searchsorted, topk and topk_rows (issue 45's Python targets)."""
    register(
        Case(
            "searchsorted",
            _table_and_queries,
            {
                "gpuprim": lambda mod, a: gp.searchsorted(a[0], a[1]),
                "cupy": lambda mod, a: mod.searchsorted(a[0], a[1]),
                "torch": lambda mod, a: mod.searchsorted(a[0], a[1]),
            },
            lambda n: 12.0 * n,
            note=f"float32 queries into {SEARCH_TABLE}x as many sorted keys (2^24 into 2^28); "
            "GB/s: queries read, int64 answers written",
            sizes={"small": 1 << 10, "large": 1 << 24},
        )
    )
    for k in (16, 1024, 65536):
        register(
            Case(
                f"topk_k{k}",
                _values,
                {
                    "gpuprim": lambda mod, a, k=k: gp.topk(a[0], k),
                    "cupy": None,
                    "torch": lambda mod, a, k=k: mod.topk(a[0], k),
                },
                lambda n: 4.0 * n,
                note=f"the {k} largest of 2^28 float32 and their indices",
                sizes={"small": max(1 << 10, 2 * k), "large": 1 << 28},
            )
        )
    register(
        Case(
            "topk_rows",
            _topk_rows_input,
            {
                "gpuprim": lambda mod, a: gp.topk(a[0], 64, axis=-1),
                "cupy": None,
                "torch": lambda mod, a: mod.topk(a[0], 64, dim=-1),
            },
            lambda n: 4.0 * n,
            note=f"k = 64 of each float32 row of {TOPK_ROW}, 2^14 rows",
            sizes={"small": TOPK_ROW, "large": (1 << 14) * TOPK_ROW},
        )
    )
