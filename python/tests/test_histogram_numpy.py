"""histogram at the edges of NumPy's rule (issues 41 and 46): numpy's
"Too many bins for data range" where numpy raises it, numpy's answers where
it does not, numpy's exception types for bad arguments, and messages in
numpy's words (no C++ prefix)."""

import warnings

import numpy as np
import pytest

import gpuprim as gp

I64 = np.iinfo(np.int64)

# Each raises ValueError "Too many bins for data range" in numpy 2.4.6.
TOO_MANY = [
    ("overflow", lambda h: h(np.array([-1e308, 1e308]), bins=4)),
    ("wide range", lambda h: h(np.arange(7), range=(-1e308, 1e308))),
    ("float32 all equal and large", lambda h: h(np.full(3, 1e30, np.float32), bins=3)),
    ("int64 min twice", lambda h: h(np.full(2, I64.min))),
    ("one ulp apart", lambda h: h(np.array([1, 1 + 2e-16] * 10), bins=10)),
    ("1e16 and 1e16 + 2", lambda h: h(np.array([1e16, 1e16 + 2]), bins=4)),
    ("a single huge int64", lambda h: h(np.array([2**62]))),
    ("a single int64 max", lambda h: h(np.array([I64.max]))),
    ("float32 near its range", lambda h: h(np.array([-3e38, 3e38], np.float32))),
    ("range of two equal huge values", lambda h: h(np.arange(3), range=(1e308, 1e308))),
    ("uint64 max alone", lambda h: h(np.array([2**64 - 1], np.uint64), bins=3)),
]


@pytest.mark.parametrize("name,call", TOO_MANY, ids=[n for n, _ in TOO_MANY])
def test_too_many_bins_as_numpy(name, call):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # numpy's overflow warnings
        with pytest.raises(ValueError, match="Too many bins for data range"):
            call(np.histogram)
    with pytest.raises(ValueError, match="^Too many bins for data range. Cannot create"):
        call(gp.histogram)


# numpy 2.4.6 answers these; gpuprim's counts and edges are the same.
ANSWERED = [
    ("int64 min and max", lambda h: h(np.array([I64.min, I64.max]), bins=3)),
    ("uint64 0 and max", lambda h: h(np.array([0, 2**64 - 1], np.uint64), bins=3)),
    ("float32 top edge rounds to inf", lambda h: h(np.array([1.0], np.float32), bins=1, range=(0, 1e39))),
    ("float64 up to 1.7e308", lambda h: h(np.array([0, 1.7e308]), bins=3)),
    ("float64 from -1.7e308", lambda h: h(np.array([-1.7e308, 0]), bins=3)),
    ("int8 extremes", lambda h: h(np.array([-128, 127], np.int8), bins=3)),
    ("subnormal range", lambda h: h(np.arange(3), range=(0, 1e-320))),
    ("bins=True", lambda h: h(np.arange(3), bins=True)),
    ("bins=np.int8(3)", lambda h: h(np.arange(3), bins=np.int8(3))),
    ("equal edges in an array", lambda h: h(np.array([0, 1, 1, 2, 2.5, np.nan, -1]), bins=[0, 1, 1, 2])),
]


@pytest.mark.parametrize("name,call", ANSWERED, ids=[n for n, _ in ANSWERED])
def test_answers_as_numpy(name, call):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        want_counts, want_edges = call(np.histogram)
    counts, edges = call(gp.histogram)
    np.testing.assert_array_equal(counts, want_counts)
    np.testing.assert_array_equal(edges, want_edges)
    assert counts.dtype == want_counts.dtype and edges.dtype == want_edges.dtype


def test_bad_bins_raise_numpys_types():
    x = np.arange(5.0)
    with pytest.raises(TypeError, match="`bins` must be an integer, a string, or an array"):
        gp.histogram(x, 2.4)
    with pytest.raises(TypeError):
        gp.histogram(x, bins=np.float64(3))
    for bins in (0, -1):
        with pytest.raises(ValueError, match="`bins` must be positive, when an integer"):
            gp.histogram(x, bins=bins)
    for bins in (2**31, 2**40, 2**63, 2**70):
        with pytest.raises(ValueError, match="too many bins"):
            gp.histogram(x, bins=bins)
    with pytest.raises(ValueError, match="must be 1d"):
        gp.histogram(x, bins=[[1, 2]])
    with pytest.raises(ValueError, match="must increase monotonically"):
        gp.histogram(x, bins=[2, 1])


def test_bad_ranges_in_numpys_words():
    x = np.arange(5.0)
    with pytest.raises(ValueError, match="^max must be larger than min in range parameter"):
        gp.histogram(x, range=(2, 1))
    with pytest.raises(ValueError, match=r"^supplied range of \[nan, 1\] is not finite"):
        gp.histogram(x, range=(np.nan, 1))
    with pytest.raises(ValueError, match=r"^supplied range of \[0, inf\] is not finite"):
        gp.histogram(x, range=(0, np.inf))
    with pytest.raises(ValueError, match=r"^autodetected range of \[nan, nan\] is not finite"):
        gp.histogram(np.array([np.nan, 1.0]))
    with pytest.raises(ValueError):  # numpy: too many values to unpack
        gp.histogram(x, range=(1, 2, 3))


def test_no_error_names_the_cpp_function():
    for call in (
        lambda: gp.histogram(np.array([1e16, 1e16 + 2]), bins=4),
        lambda: gp.histogram(np.arange(3.0), range=(2, 1)),
        lambda: gp.histogram(np.array([np.inf])),
    ):
        with pytest.raises(ValueError) as info:
            call()
        assert "gpuprim::" not in str(info.value)


def test_bool_counts_as_uint8_with_numpys_warning():
    x = np.array([True, False, True, True])
    with pytest.warns(RuntimeWarning, match="Converting input from bool"):
        want_counts, want_edges = np.histogram(x)
    with pytest.warns(RuntimeWarning, match="Converting input from bool"):
        counts, edges = gp.histogram(x)
    np.testing.assert_array_equal(counts, want_counts)
    np.testing.assert_array_equal(edges, want_edges)


def test_unsupported_features_are_refused():
    x = np.arange(5.0)
    with pytest.raises(TypeError, match="weights of dtype <U1"):
        gp.histogram(x, weights=np.array(list("abcde")))
    with pytest.raises(TypeError, match="datetime64"):
        gp.histogram(np.array(["2020-01-01"], dtype="datetime64[D]"))
    with pytest.raises(TypeError, match="longdouble"):
        gp.histogram(x.astype(np.float32), range=np.array([0, 1], np.longdouble))
    with pytest.raises(ValueError, match="weights should have the same shape as a"):
        gp.histogram(x, weights=np.ones(6))
    with pytest.raises(TypeError, match="not supported for weighted data"):
        gp.histogram(x, bins="auto", weights=np.ones(5))


def _same(got, want):
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w, strict=True)


# Weighted sums equal NumPy's, float ones too: over several of NumPy's blocks
# of 65536 samples, for even bins and for an array of edges.
@pytest.mark.parametrize(
    "wtype", [np.float64, np.float32, np.int64, np.int8, np.uint16, np.bool_, np.complex128,
              np.complex64, ">f8"]
)
@pytest.mark.parametrize("n", [0, 1, 1000, 200_003])
def test_weights_as_numpy(wtype, n):
    rng = np.random.default_rng(n)
    x = rng.standard_normal(n)
    w = rng.standard_normal(n) * 100
    if np.dtype(wtype).kind == "c":
        w = w + 1j * rng.standard_normal(n)
    w = w.astype(wtype) if np.dtype(wtype).kind != "b" else w > 0
    x[::97] = np.nan if n else x[::97]
    edges = np.array([-3.0, -1.0, -0.5, -0.5, 0.0, 0.25, 2.0, 3.5])
    calls = [
        dict(bins=10, range=(-2, 2)),
        dict(bins=edges),
        dict(bins=7, range=(-2, 2), density=True),
        dict(bins=edges, density=True),
    ]
    if n and not np.isnan(x).any():
        calls.append(dict(bins=13))
    for kw in calls:
        with np.errstate(all="ignore"):
            if w.dtype == np.bool_ and np.ndim(kw["bins"]) == 1 and n:
                for f in (np.histogram, gp.histogram):  # NumPy's casting error, either way
                    with pytest.raises(TypeError, match="Cannot cast ufunc 'add' output"):
                        f(x, weights=w, **kw)
                continue
            got, want = gp.histogram(x, weights=w, **kw), np.histogram(x, weights=w, **kw)
            if w.dtype == np.complex64 and n > 65536 and np.ndim(kw["bins"]) == 0:
                # NumPy rounds the float32 sums after each block of 65536
                # samples, gpuprim once: a documented difference of rounding.
                assert got[0].dtype == want[0].dtype
                np.testing.assert_allclose(got[0], want[0], rtol=1e-6)
                np.testing.assert_array_equal(got[1], want[1])
                continue
            _same(got, want)


def _same_objects(got, want):
    """Object sums: the same Python values, of the same types, and the same
    edges."""
    assert got[0].dtype == want[0].dtype == object
    assert [type(v) for v in got[0]] == [type(v) for v in want[0]]
    assert list(got[0]) == list(want[0])
    np.testing.assert_array_equal(got[1], want[1], strict=True)


class _Sum:
    """A weight that records how it was added: equal only when the same
    additions and subtractions were made in the same order."""

    def __init__(self, text):
        self.text = text

    def __add__(self, other):
        return _Sum(f"({self.text}+{_text(other)})")

    def __radd__(self, other):
        return _Sum(f"({_text(other)}+{self.text})")

    def __sub__(self, other):
        return _Sum(f"({self.text}-{_text(other)})")

    def __rsub__(self, other):
        return _Sum(f"({_text(other)}-{self.text})")

    def __eq__(self, other):
        return isinstance(other, _Sum) and self.text == other.text

    __hash__ = None


def _text(v):
    return v.text if isinstance(v, _Sum) else repr(v)


# Object weights (issue 46): NumPy adds them in its cumulative form (even
# bins too), so Decimal sums, rounded to 28 digits at each addition, are
# NumPy's only when added in NumPy's order. Distinct samples (so the order
# is NumPy's sorted one), over two of NumPy's blocks, with NaNs and samples
# on both sides of the range.
@pytest.mark.parametrize(
    "kw",
    [dict(bins=10, range=(-2, 2)), dict(bins=[-3.0, -1.0, -0.5, -0.5, 0.0, 0.25, 2.0, 3.5]),
     dict(bins=5), dict(bins=4, range=(np.float32(-1), np.float32(1)))],
    ids=["even", "edges", "data range", "float32 range"],
)
def test_decimal_weights_are_numpys_exactly(kw):
    from decimal import Decimal

    rng = np.random.default_rng(46)
    x = rng.standard_normal(70_001)
    if "range" in kw or np.ndim(kw["bins"]):
        x[::101] = np.nan
    w = np.array([Decimal(int(v)) / Decimal(7) for v in rng.integers(-10**6, 10**6, x.size)])
    _same_objects(gp.histogram(x, weights=w, **kw), np.histogram(x, weights=w, **kw))


def test_object_weights_are_added_in_numpys_order():
    x = np.array([0.5, 2.5, -1.0, 1.5, 0.25, 9.0, 1.75, np.nan, 3.0])
    w = np.array([_Sum(f"w{i}") for i in range(x.size)])
    for kw in (dict(bins=[0, 1, 2, 3]), dict(bins=3, range=(0, 3)), dict(bins=[0, 1, 1, 3])):
        got, want = gp.histogram(x, weights=w, **kw), np.histogram(x, weights=w, **kw)
        assert [v.text for v in got[0]] == [v.text for v in want[0]]
        np.testing.assert_array_equal(got[1], want[1], strict=True)


@pytest.mark.parametrize("dtype", [np.int64, np.uint8, np.float16, np.bool_])
def test_fraction_weights_as_numpy(dtype):
    from fractions import Fraction

    x = np.random.default_rng(7).integers(0, 9, 3000).astype(dtype)
    w = np.array([Fraction(i % 13, 1 + i % 5) for i in range(x.size)], dtype=object)
    for kw in (dict(bins=4), dict(bins=[0, 2, 5, 9]), dict(bins=3, range=(1, 7))):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # bool as uint8
            _same_objects(gp.histogram(x, weights=w, **kw), np.histogram(x, weights=w, **kw))
    empty = np.array([], dtype=object)
    x = x[:0].astype(np.float64)
    _same_objects(gp.histogram(x, weights=empty, bins=3), np.histogram(x, weights=empty, bins=3))


def test_object_weights_keep_numpys_errors():
    from decimal import Decimal

    x = np.array([0.5, 1.5, 2.5])
    w = np.array([Decimal(1), Decimal(2), Decimal(3)])
    for f in (np.histogram, gp.histogram):  # Decimal / float, as NumPy's density
        with pytest.raises(TypeError):
            f(x, bins=3, weights=w, density=True)
        with pytest.raises(ValueError, match="weights should have the same shape"):
            f(x, bins=3, weights=w[:2])
    with pytest.raises(TypeError):  # Decimal + str: Python's error, raised through
        gp.histogram(x, bins=[0, 3], weights=np.array([Decimal(1), "a", Decimal(3)], object))


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.int32, np.uint8])
def test_weights_over_sample_types(dtype):
    x = (np.random.default_rng(4).standard_normal(5000) * 20).astype(dtype)
    w = np.random.default_rng(5).random(5000).astype(np.float32)
    _same(gp.histogram(x, weights=w, bins=33), np.histogram(x, weights=w, bins=33))
    # An array of edges: these samples have ties, which NumPy's unstable sort
    # orders otherwise, so its float32 running sums round otherwise.
    got_sums, got_edges = gp.histogram(x, weights=w, bins=[-5, 0, 1, 2, 100])
    want_sums, want_edges = np.histogram(x, weights=w, bins=[-5, 0, 1, 2, 100])
    assert got_sums.dtype == want_sums.dtype
    np.testing.assert_allclose(got_sums, want_sums, rtol=1e-5)
    np.testing.assert_array_equal(got_edges, want_edges)
    with pytest.warns(RuntimeWarning, match="Converting input from bool"):
        got = gp.histogram(x > 0, weights=w)
    with pytest.warns(RuntimeWarning, match="Converting input from bool"):
        _same(got, np.histogram(x > 0, weights=w))


def test_range_wider_than_the_data_bins_in_numpys_type():
    x = np.array([1.0], np.float32)
    eps = np.finfo(np.float64).eps
    for rng in (np.array([1.0 + eps, 2.0]), np.array([0.0, 1.0 - eps]), (np.float64(0), 2.0)):
        _same(gp.histogram(x, bins=1, range=rng), np.histogram(x, bins=1, range=rng))
        _same(gp.histogram(x.astype(np.float16), bins=3, range=rng),
              np.histogram(x.astype(np.float16), bins=3, range=rng))


@pytest.mark.parametrize("bins", [1, 7, 37, 1000, 5000])
def test_float16_as_numpy(bins):
    x = (np.random.default_rng(16).standard_normal(3001) * 4).astype(np.float16)
    for rng in (None, (-1.0, 1.5), (1000.0, 1018.0)):
        try:
            want_counts, want_edges = np.histogram(x, bins=bins, range=rng)
        except ValueError as numpy_error:
            with pytest.raises(ValueError, match=str(numpy_error)[:40]):
                gp.histogram(x, bins=bins, range=rng)
            continue
        counts, edges = gp.histogram(x, bins=bins, range=rng)
        np.testing.assert_array_equal(counts, want_counts)
        np.testing.assert_array_equal(edges, want_edges)
        assert edges.dtype == np.float16


ESTIMATORS = ["auto", "fd", "doane", "scott", "stone", "rice", "sturges", "sqrt"]


@pytest.mark.parametrize("name", ESTIMATORS)
@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.float32, np.float64])
def test_bin_estimators_as_numpy(name, dtype):
    rng = np.random.default_rng(46)
    x = (rng.standard_normal(5000) * 30).astype(dtype)
    for rng_arg in (None, (-10, 20)):
        want_counts, want_edges = np.histogram(x, bins=name, range=rng_arg)
        counts, edges = gp.histogram(x, bins=name, range=rng_arg)
        np.testing.assert_array_equal(counts, want_counts)
        np.testing.assert_array_equal(edges, want_edges)


def test_density_as_numpy():
    x = np.random.default_rng(3).random(1000)
    for bins in (10, [0, 0.1, 0.5, 1.0]):
        want, want_edges = np.histogram(x, bins=bins, density=True)
        got, edges = gp.histogram(x, bins=bins, density=True)
        np.testing.assert_array_equal(got, want)
        np.testing.assert_array_equal(edges, want_edges)
        assert got.dtype == want.dtype


def test_big_endian_input_as_numpy():
    x = np.arange(20.0).astype(">f8")
    np.testing.assert_array_equal(gp.histogram(x, bins=4)[0], np.histogram(x, bins=4)[0])
    np.testing.assert_array_equal(x, np.arange(20.0))  # the caller's data untouched


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.uint16])
def test_narrow_integers_as_numpy(dtype):
    # The types' extremes, 20000 bins, a range that leaves some out, one value
    # repeated (the GPU's counterpart: test_gpu.py's test_histogram_narrow_integers).
    info = np.iinfo(dtype)
    rng = np.random.default_rng(8)
    x = np.concatenate([rng.integers(max(info.min, -1000), min(info.max, 1000), 50_001, endpoint=True),
                        [info.min, info.max, info.max, 0]]).astype(dtype)
    for bins, r in ((7, None), (20_000, None), (3, (-3.5, 100.25)), (1000, (info.min, 0))):
        counts, edges = gp.histogram(x, bins=bins, range=r)
        want_counts, want_edges = np.histogram(x, bins=bins, range=r)
        np.testing.assert_array_equal(counts, want_counts)
        np.testing.assert_array_equal(edges, want_edges)
        assert edges.dtype == np.float64
    counts, edges = gp.histogram(np.full(33, info.max, dtype), bins=4)
    want_counts, want_edges = np.histogram(np.full(33, info.max, dtype), bins=4)
    np.testing.assert_array_equal(counts, want_counts)
    np.testing.assert_array_equal(edges, want_edges)
    edges = np.array([-100.0, -1.0, 0.0, 2.5, 1000.0, 65535])
    np.testing.assert_array_equal(gp.histogram(x, bins=edges)[0], np.histogram(x, bins=edges)[0])


# NumPy computes a range's edges in np.result_type(lower, upper, 1.0):
# float32 / float16 for NumPy scalars of those types (data.min() and
# data.max() among them), float64 for Python numbers.
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("bounds", [np.float16, np.float32, np.float64, float])
@pytest.mark.parametrize("bins", [3, 7, 100, 1000])
def test_range_of_numpy_scalars_as_numpy(dtype, bounds, bins):
    x = (np.random.default_rng(bins).standard_normal(4001) * 3).astype(dtype)
    for lo, hi in ((x.min(), x.max()), (-1.1, 2.3), (0.7, 0.7)):
        rng = (bounds(lo), bounds(hi))
        try:
            want = np.histogram(x, bins=bins, range=rng)
        except ValueError as numpy_error:
            with pytest.raises(ValueError, match=str(numpy_error)[:30]):
                gp.histogram(x, bins=bins, range=rng)
            continue
        _same(gp.histogram(x, bins=bins, range=rng), want)
        w = np.ones(x.size)
        _same(gp.histogram(x, bins=bins, range=rng, weights=w),
              np.histogram(x, bins=bins, range=rng, weights=w))


@pytest.mark.parametrize(
    "wtype", [np.float64, np.float32, np.int64, np.int16, np.uint8, np.bool_, np.complex128]
)
def test_weighted_sums_by_search_are_numpys(wtype):
    """The GPU's weighted histogram (gpuprim._histograms._sums_by_search, run
    on CuPy there) run with NumPy: each sample's bin found among the edges,
    sums converted to the weights' dtype (narrow integers wrapping)."""
    from gpuprim._histograms import _sums_by_search

    rng = np.random.default_rng(12)
    x = rng.standard_normal(4000) * 5
    x[:4] = [np.nan, -100.0, 100.0, 0.0]
    w = rng.integers(0, 4, 4000).astype(wtype)
    if wtype == np.complex128:
        w = w + 1j * rng.integers(0, 3, 4000)
    for bins, range_ in ((9, (-10, 12)), (np.array([-12.0, -1.0, 0.0, 0.0, 3.5, 12.0]), None)):
        if wtype == np.bool_ and np.ndim(bins):
            continue  # NumPy's cumulative form refuses bool weights
        want, edges = np.histogram(x, bins, range_, weights=w)
        got = _sums_by_search(np, x, edges, w, w.dtype)
        np.testing.assert_array_equal(got, want, strict=True)


@pytest.mark.parametrize("dtype", [np.int64, np.uint64])
def test_wide_integer_samples_as_float64_copies_are_numpys(monkeypatch, dtype):
    """The GPU's int64 / uint64 path (float64 copies with NumPy's outer
    edges, gpuprim._histograms._wide_integers_on_device) run on the host:
    NumPy arrays are taken as device arrays, so the copies go to the host
    library, whose answer must be NumPy's for the integers themselves."""
    import gpuprim._histograms as h

    monkeypatch.setattr(h, "_on_device", lambda x: type(x) is np.ndarray)
    info = np.iinfo(dtype)
    rng = np.random.default_rng(13)
    data = [
        rng.integers(0, 1000, 5000).astype(dtype),
        np.array([info.min + 4, info.max - 4, info.max // 3], dtype),
        np.array([info.max, info.max - 1, info.max - 2049, info.min], dtype),
        np.full(5, 2**60 + 1, dtype),
    ]
    for x in data:
        for bins, range_ in ((2, None), (7, None), (1000, None), (5, (3, 900)), (3, (0.5, 2.0**62))):
            try:
                want = np.histogram(x, bins, range_)
            except ValueError as e:  # too many bins for the data's range
                with pytest.raises(ValueError, match=str(e)[:20]):
                    h.histogram(x, bins, range_)
                continue
            got = h.histogram(x, bins, range_)
            np.testing.assert_array_equal(got[0], want[0], strict=True)
            np.testing.assert_array_equal(got[1], want[1], strict=True)
        for edges in ([0.0, 10.5, 2.0**63], [-5, 0, 10, 500]):
            if isinstance(edges[0], int) and x is not data[0]:
                continue  # integer edges with data beyond 2**53: refused below
            np.testing.assert_array_equal(
                h.histogram(x, edges)[0], np.histogram(x, edges)[0], strict=True
            )
    with pytest.raises(TypeError, match="beyond"):
        h.histogram(data[1], 2, (0, 2**60 + 1))
    with pytest.raises(TypeError, match="beyond"):
        h.histogram(data[1], [0, 2**60 + 1])


def test_float16_samples_on_the_gpu_path(monkeypatch):
    """The GPU's float16 path run on the host (NumPy arrays taken as device
    arrays): an array of edges counts a float32 copy, as NumPy's float64
    comparisons do; a float32 range bins in float32; even bins in float16
    arithmetic are refused by name."""
    import gpuprim._histograms as h

    monkeypatch.setattr(h, "_on_device", lambda x: type(x) is np.ndarray)
    x = (np.random.default_rng(15).standard_normal(500) * 3).astype(np.float16)
    cases = [
        ([-3.0, -0.5, 0.0, 0.25, 1.0, 3.0], None),
        ([-1, 0, 2], None),
        (5, (np.float32(-2.0), np.float32(2.5))),
    ]
    for bins, range_ in cases:
        got, want = h.histogram(x, bins, range_), np.histogram(x, bins, range_)
        np.testing.assert_array_equal(got[0], want[0], strict=True)
        np.testing.assert_array_equal(got[1], want[1], strict=True)
    with pytest.raises(TypeError, match="float16 samples on the GPU"):
        h.histogram(x, 4)
