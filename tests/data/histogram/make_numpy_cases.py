#!/usr/bin/env python3
"""numpy.histogram's answers for the histogram tests (host, CUDA, CLI).

Writes, next to this script, for each case NAME: NAME.in.npy (the data),
NAME.counts.npy (int64 counts) and NAME.edges.npy (the edges, in numpy's
dtype), NAME.cli.txt (what `gpuprim histogram NAME.in.npy --bins BINS [--range LO
HI]` must print: "b lo hi count" lines with the edges as the shortest text
of their dtype, then "left out: K"), and cases.txt with one line per case:

    NAME BINS RANGE          RANGE: "none" or "LO,HI" (Python float reprs)
    NAME BINS RANGE error    numpy raised ValueError (no counts / edges)

Run with the NumPy the expected files should come from:
    python3 tests/data/histogram/make_numpy_cases.py
"""
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(20261126)
cases = []


def case(name, data, bins, range_=None):
    data = np.asarray(data)
    np.save(os.path.join(HERE, name + ".in.npy"), data)
    text = "none" if range_ is None else "%r,%r" % (float(range_[0]), float(range_[1]))
    try:
        with np.errstate(all="ignore"):
            import warnings
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # bool -> uint8
                counts, edges = np.histogram(data, bins=bins, range=range_)
    except ValueError:
        cases.append("%s %d %s error" % (name, bins, text))
        return
    np.save(os.path.join(HERE, name + ".counts.npy"), counts.astype(np.int64))
    np.save(os.path.join(HERE, name + ".edges.npy"), edges)
    left_out = data.size - int(counts.sum())
    with open(os.path.join(HERE, name + ".cli.txt"), "w") as f:
        for b in range(bins):
            f.write("%d %s %s %d\n" % (b, shortest(edges[b]), shortest(edges[b + 1]), counts[b]))
        f.write("left out: %d\n" % left_out)
    cases.append("%s %d %s" % (name, bins, text))


def shortest(v):
    """std::to_chars's shortest text of a numpy float of its own dtype: the
    fewest digits that read back (numpy's unique digits), in fixed or
    scientific notation, whichever is shorter (fixed on a tie; an integer
    in fixed notation is printed with its exact digits)."""
    if v == 0:
        return "-0" if np.signbit(v) else "0"
    sci = np.format_float_scientific(v, unique=True, trim="-")
    sign = "-" if sci.startswith("-") else ""
    mantissa, exponent = sci.lstrip("-").split("e")
    digits = mantissa.replace(".", "")
    e = int(exponent)
    sci_text = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
    sci_text += "e%s%02d" % ("-" if e < 0 else "+", abs(e))
    if e >= len(digits) - 1:
        fixed = str(abs(int(v)))  # to_chars prints an integer's exact digits
    elif e >= 0:
        whole = digits[: e + 1]
        frac = digits[e + 1:]
        fixed = whole + ("." + frac if frac else "")
    else:
        fixed = "0." + "0" * (-e - 1) + digits
    return sign + (fixed if len(fixed) <= len(sci_text) else sci_text)


unit32 = rng.random(3000, dtype=np.float32)
# float32 in [0, 1): the default range (edges computed in float32) and the
# range (0, 1) (edges computed in float64, then rounded), many bins.
case("f32_unit_default", unit32, 1000)
case("f32_unit_range", unit32, 997, (0.0, 1.0))
case("f32_unit_many_bins", unit32, 4000, (0.0, 1.0))
# A range that is not a float32 value, with values outside it.
wide32 = (rng.random(2000) * 8 - 3).astype(np.float32)
case("f32_odd_range", wide32, 123, (-1.7, 2.9))
case("f32_odd_default", wide32, 77)
# float16: edges in float16 (linspace in float16 for the default range).
h = rng.normal(size=600).astype(np.float16)
case("f16_default", h, 37)
case("f16_range", h, 20, (-1.0, 1.5))
case("f16_too_many_bins", h, 5000, (0.0, 1.0))
# float64.
d = rng.normal(size=1500) * 3 + 1
case("f64_default", d, 64)
case("f64_range", d, 7, (0.1, 0.7))
# Integers: the default range [min, max], float64 edges, the last bin closed.
case("i32_ten_3", np.arange(10, dtype=np.int32), 3)
case("i32_ten_default", np.arange(10, dtype=np.int32), 10)
case("i32_ten_range", np.arange(10, dtype=np.int32), 3, (0.0, 9.0))
case("i16_mixed", rng.integers(-300, 300, size=700).astype(np.int16), 13)
case("u8_default", rng.integers(0, 256, size=1000).astype(np.uint8), 10)
case("u8_bytes", rng.integers(0, 256, size=1000).astype(np.uint8), 256, (0.0, 256.0))
case("u32_default", rng.integers(0, 2**32, size=500, dtype=np.uint32), 19)
case("bool_default", rng.integers(0, 2, size=50).astype(bool), 10)
# 64-bit integers beyond 2^53: numpy bins them as float64.
big = np.int64(2**60)
i64 = big + rng.integers(-5000, 5000, size=400).astype(np.int64)
case("i64_large_default", i64, 5)
case("i64_large_range", i64, 4, (float(2**60), float(2**60 + 4096)))
case("i64_min_max_close", np.array([2**53, 2**53 + 1, 2**53 + 3], dtype=np.int64), 2)
case("u64_large", np.array([2**64 - 1, 2**63, 2**63 + 2**12, 5], dtype=np.uint64), 3)
# lo == hi: widened by 0.5 (in the data's type for floats).
case("f32_all_equal", np.full(9, 5.0, dtype=np.float32), 10)
case("f32_all_equal_odd", np.full(4, 0.1, dtype=np.float32), 3)
case("i32_all_equal", np.full(5, 7, dtype=np.int32), 4)
case("f64_range_equal", np.array([2.5, 3.0, 3.4, 3.5, 3.6]), 2, (3.0, 3.0))
# Values exactly on edges and next to them.
on64 = np.linspace(0, 1, 11)
on64 = np.concatenate([on64, np.nextafter(on64, -1), np.nextafter(on64, 2)])
case("f64_on_edges", on64, 10, (0.0, 1.0))
on32 = np.linspace(0, 1, 11).astype(np.float32)
on32 = np.concatenate([on32, np.nextafter(on32, np.float32(-1)), np.nextafter(on32, np.float32(2))])
case("f32_on_edges", on32, 10, (0.0, 1.0))
case("f32_on_edges_default", on32, 10)
# Bins about one unit in the last place wide: the edges are up to half a
# bin off an even grid (the binner searches the edges).
near = 1024 + np.arange(-3, 120, dtype=np.float32) * np.float32(2.0**-13)
case("f32_bins_of_one_ulp", near, 100, (1024.0, 1024.0 + 110 * 2.0**-13))
near16 = (999 + np.arange(0, 44) * 0.5).astype(np.float16)
case("f16_bins_of_one_ulp", near16, 30, (1000.0, 1018.0))
# NaN and infinities: left out with a range; an error without one.
special = np.array([np.nan, np.inf, -np.inf, 0.5, 1.0, 0.0, 0.25], dtype=np.float32)
case("f32_nan_inf_range", special, 4, (0.0, 1.0))
case("f32_nan_default", special, 4)
case("f64_inf_default", np.array([1.0, np.inf]), 4)
# Empty data: the range (0, 1).
case("f32_empty", np.array([], dtype=np.float32), 10)
case("i32_empty", np.array([], dtype=np.int32), 3)
case("f64_empty_range", np.array([], dtype=np.float64), 2, (-1.0, 3.0))

# float16 edges whose shortest text needs care: 0.015625 prints as 0.01563
# (0.01562 reads back as the half below), 4112 with all its digits.
case("f16_edge_text", np.array([0.015625, 2.0625, 4112], dtype=np.float16), 3)
case("f16_edge_text_ties", np.array([2.0625, 2.4375], dtype=np.float16), 6)

with open(os.path.join(HERE, "cases.txt"), "w") as f:
    f.write("# numpy %s: NAME BINS RANGE [error] (make_numpy_cases.py)\n" % np.__version__)
    f.write("\n".join(cases) + "\n")
