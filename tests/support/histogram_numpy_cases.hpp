// histogram_even with gp::numpy_bins against numpy.histogram's own output
// (tests/data/histogram, written by make_numpy_cases.py), shared by the
// host and CUDA suites through a `Side` (support/sides.hpp), and a large
// case against a sequential reference that repeats numpy's arithmetic.
#pragma once

#include <gtest/gtest.h>

#include "support/test_data.hpp"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <span>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "gpuprim/core/low_precision.hpp"
#include "gpuprim/histogram.hpp"
#include "gpuprim/io/npy.hpp"
#include "support/sides.hpp"

namespace gpuprim::test {

struct numpy_case {
  std::string name;
  std::size_t bins = 0;
  bool has_range = false;
  double lo = 0, hi = 0;
  bool error = false;  // numpy raised ValueError
};

inline std::filesystem::path numpy_cases_dir() {
  return gpuprim::test::data_dir() / "histogram";
}

inline std::vector<numpy_case> numpy_cases() {
  std::ifstream in(numpy_cases_dir() / "cases.txt");
  std::vector<numpy_case> cases;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    numpy_case c;
    std::string range, error;
    fields >> c.name >> c.bins >> range >> error;
    if (range != "none") {
      c.has_range = true;
      const auto comma = range.find(',');
      c.lo = std::strtod(range.substr(0, comma).c_str(), nullptr);
      c.hi = std::strtod(range.substr(comma + 1).c_str(), nullptr);
    }
    c.error = error == "error";
    cases.push_back(c);
  }
  return cases;
}

template <class D>
double numpy_case_number(D v) {
  if constexpr (std::is_same_v<D, half>) {
    return static_cast<float>(v);
  } else {
    return static_cast<double>(v);
  }
}

// numpy's bins for data of dtype D: the case's range, else [min, max] of
// the data (NaN when there is one), else (0, 1).
template <class D>
numpy_bins numpy_case_bins(const numpy_case& c, std::span<const D> values) {
  if (c.has_range) return numpy_bins::with_range<D>(c.lo, c.hi);
  if (values.empty()) return numpy_bins::of_empty<D>();
  D lo = values[0], hi = values[0];
  for (const D v : values) {
    const double x = numpy_case_number(v);
    if (x != x) return numpy_bins::of_data<D>(v, v);  // a NaN: numpy's min and max are NaN
    if (x < numpy_case_number(lo)) lo = v;
    if (numpy_case_number(hi) < x) hi = v;
  }
  return numpy_bins::of_data<D>(lo, hi);
}

// One case with data of dtype D binned as samples of type S (as the CLI
// does: 64-bit integers as double, float16 as float).
template <class Side, class S, class D>
void check_numpy_case_as(const numpy_case& c, std::span<const D> values) {
  SCOPED_TRACE(c.name);
  std::vector<S> samples;
  for (const D v : values)
    samples.push_back(static_cast<S>(numpy_case_number(v)));
  const auto on_side = Side::put(samples);
  auto counts = Side::put(std::vector<std::uint64_t>(c.bins, 12345));
  if (c.error) {
    EXPECT_THROW(
        {
          const numpy_bins bins = numpy_case_bins<D>(c, values);
          gpuprim::histogram_even(Side::backend(), on_side, counts, bins);
        },
        std::invalid_argument);
    EXPECT_EQ(Side::get(counts), std::vector<std::uint64_t>(c.bins, 12345));
    return;
  }
  const numpy_bins bins = numpy_case_bins<D>(c, values);
  const auto dir = numpy_cases_dir();
  const io::npy_array expected_edges = io::read_npy(dir / (c.name + ".edges.npy"));
  EXPECT_EQ(io::dtype_name(expected_edges.type), detail::numpy_float_name(bins.edges));
  EXPECT_EQ(numpy_histogram_edges(bins, c.bins), io::values_as<double>(expected_edges));
  const io::npy_array expected_counts = io::read_npy(dir / (c.name + ".counts.npy"));
  const auto want = expected_counts.values<std::int64_t>();
  const std::uint64_t left_out = gpuprim::histogram_even(Side::backend(), on_side, counts, bins);
  const std::vector<std::uint64_t> got = Side::get(counts);
  ASSERT_EQ(got.size(), want.size());
  std::uint64_t counted = 0;
  for (std::size_t b = 0; b < got.size(); ++b) {
    EXPECT_EQ(got[b], static_cast<std::uint64_t>(want[b])) << "bin " << b;
    counted += got[b];
  }
  EXPECT_EQ(left_out, values.size() - counted);
}

template <class Side>
void check_numpy_case(const numpy_case& c) {
  const io::npy_array a = io::read_npy(numpy_cases_dir() / (c.name + ".in.npy"));
  switch (a.type) {
    case io::dtype::bool8: {
      const auto v = a.values<bool>();
      const std::vector<std::uint8_t> bytes(v.begin(), v.end());
      return check_numpy_case_as<Side, std::uint8_t>(c, std::span<const std::uint8_t>(bytes));
    }
    case io::dtype::uint8:
      return check_numpy_case_as<Side, std::uint8_t>(c, a.values<std::uint8_t>());
    case io::dtype::int16:
      return check_numpy_case_as<Side, std::int32_t>(c, a.values<std::int16_t>());
    case io::dtype::int32:
      return check_numpy_case_as<Side, std::int32_t>(c, a.values<std::int32_t>());
    case io::dtype::uint32:
      return check_numpy_case_as<Side, std::uint32_t>(c, a.values<std::uint32_t>());
    case io::dtype::int64:
      return check_numpy_case_as<Side, double>(c, a.values<std::int64_t>());
    case io::dtype::uint64:
      return check_numpy_case_as<Side, double>(c, a.values<std::uint64_t>());
    case io::dtype::float16:
      return check_numpy_case_as<Side, float>(c, a.values<half>());
    case io::dtype::float32:
      return check_numpy_case_as<Side, float>(c, a.values<float>());
    case io::dtype::float64:
      return check_numpy_case_as<Side, double>(c, a.values<double>());
    default:
      FAIL() << c.name << ": no test dispatch for dtype " << io::dtype_name(a.type);
  }
}

template <class Side>
void check_every_numpy_case() {
  const std::vector<numpy_case> cases = numpy_cases();
  ASSERT_GE(cases.size(), 30u) << "tests/data/histogram/cases.txt is missing or short";
  for (const numpy_case& c : cases)
    check_numpy_case<Side>(c);
}

// ---- the large case ---------------------------------------------------------
// 2,000,000 float32 values in [0, 1) into 100,000 bins over range=(0.0, 1.0).

inline std::vector<float> large_numpy_case_samples() {
  std::mt19937_64 rng(30);
  std::vector<float> x(2000000);
  for (float& v : x) {
    // A double in [0, 1) rounded to float32 (below 1: the largest float
    // below 1 where it would round up to 1).
    v = static_cast<float>(static_cast<double>(rng() >> 11) * 0x1p-53);
    if (v >= 1.0f) v = std::nextafter(1.0f, 0.0f);
  }
  return x;
}

// numpy.histogram(x, bins, range=(0.0, 1.0)) for float32 x, step by step as
// numpy 2 computes it (_histograms_impl.py, NEP 50 promotion), written
// independently of the library: the edges np.linspace(0.0, 1.0, bins + 1)
// (in float64: i * (1.0 / bins) + 0.0, the last 1.0) cast to float32; the
// keep mask x >= 0 and x <= 1 in float32; the index
// ((x - 0.0) in float32, promoted to float64, / 1.0 * bins) truncated, bins
// -> bins - 1, then one step down where x < edge[i] and one up where
// x >= edge[i + 1] (not past the last bin), compared in float32.
inline std::vector<std::uint64_t> numpy_reference_unit_range(const std::vector<float>& x,
                                                             int bins) {
  std::vector<float> edges(static_cast<std::size_t>(bins) + 1);
  const double step = (1.0 - 0.0) / bins;
  for (int i = 0; i < bins; ++i) {
    const double y = static_cast<double>(i) * step;  // baseline x86-64: no fused multiply-add
    edges[i] = static_cast<float>(y + 0.0);
  }
  edges[bins] = 1.0f;
  std::vector<std::uint64_t> counts(bins, 0);
  for (const float v : x) {
    if (!(v >= 0.0f && v <= 1.0f)) continue;
    const float shifted = v - 0.0f;
    const double f = static_cast<double>(shifted) / 1.0 * bins;
    long i = static_cast<long>(f);
    if (i == bins) --i;
    if (v < edges[i]) --i;
    if (v >= edges[i + 1] && i != bins - 1) ++i;
    ++counts[i];
  }
  return counts;
}

// The library's NumPy rule gives the reference's counts; the default rule
// (edges in double) puts 3,960 of the values in another bin, so the case
// tells the two rules apart. Checked once with numpy 2.4.6 (the samples
// written to .npy, np.histogram(x, 100000, range=(0.0, 1.0))): numpy's
// counts equal numpy_reference_unit_range's bin for bin, and 3,960 values
// lie in another bin of np.linspace's float64 edges than of numpy's own.
template <class Side>
void check_large_numpy_case() {
  constexpr int bins = 100000;
  const std::vector<float> x = large_numpy_case_samples();
  const std::vector<std::uint64_t> want = numpy_reference_unit_range(x, bins);
  const auto samples = Side::put(x);
  auto counts = Side::put(std::vector<std::uint64_t>(bins, 12345));
  const std::uint64_t left_out = gpuprim::histogram_even(Side::backend(), samples, counts,
                                                         numpy_bins::with_range<float>(0.0, 1.0));
  EXPECT_EQ(left_out, 0u);
  const std::vector<std::uint64_t> got = Side::get(counts);
  std::size_t differing_bins = 0;
  for (int b = 0; b < bins; ++b)
    differing_bins += got[b] != want[b];
  EXPECT_EQ(differing_bins, 0u);

  auto double_edge_counts = Side::put(std::vector<std::uint64_t>(bins, 0));
  gpuprim::histogram_even(Side::backend(), samples, double_edge_counts, 0.0f, 1.0f);
  const std::vector<std::uint64_t> other = Side::get(double_edge_counts);
  std::uint64_t moved = 0;
  for (int b = 0; b < bins; ++b)
    moved += other[b] > want[b] ? other[b] - want[b] : want[b] - other[b];
  EXPECT_GT(moved, 1000u) << "the case no longer separates the NumPy rule from the default";
}

}  // namespace gpuprim::test
