// histogram_even with gp::numpy_bins on the host: numpy.histogram's counts
// and edges (tests/data/histogram), the rule's arguments and errors.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpuprim/core/low_precision.hpp"
#include "gpuprim/histogram.hpp"
#include "support/histogram_numpy_cases.hpp"

namespace gp = gpuprim;
using namespace gpuprim::test;

TEST(host_histogram_numpy, every_numpy_case) {
  check_every_numpy_case<host_side>();
}

TEST(host_histogram_numpy, two_million_floats_into_100000_bins) {
  check_large_numpy_case<host_side>();
}

// The integers 0..9 in 3 bins: [0, 3), [3, 6), [6, 9], the last closed.
TEST(host_histogram_numpy, last_bin_holds_the_upper_edge) {
  std::vector<int> x = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  std::vector<std::uint32_t> counts(3);
  EXPECT_EQ(gp::histogram_even(gp::host, x, counts, gp::numpy_bins::of_data<int>(0, 9)), 0u);
  EXPECT_EQ(counts, (std::vector<std::uint32_t>{3, 3, 4}));
  // The default rule, half-open, leaves 9 out of [0, 9).
  EXPECT_EQ(gp::histogram_even(gp::host, x, counts, 0, 9), 1u);
  EXPECT_EQ(counts, (std::vector<std::uint32_t>{3, 3, 3}));
}

// Edges of float32 data: the default range computes np.linspace in float32,
// a given range in float64 (then rounded): the two differ here.
TEST(host_histogram_numpy, edges_in_the_arithmetic_numpy_uses) {
  const auto in_float = gp::numpy_histogram_edges(gp::numpy_bins::of_data<float>(0.1f, 0.9f), 7);
  const auto in_double =
      gp::numpy_histogram_edges(gp::numpy_bins::with_range<float>(double(0.1f), double(0.9f)), 7);
  EXPECT_EQ(in_float[1], double(0.2142857015132904f));   // numpy 2.4.6's
  EXPECT_EQ(in_double[1], double(0.2142857164144516f));  // numpy 2.4.6's
  EXPECT_EQ(in_float.back(), double(0.9f));
}

TEST(host_histogram_numpy, equal_min_and_max_widen_by_a_half) {
  const auto b = gp::numpy_bins::of_data<float>(5.0f, 5.0f);
  EXPECT_EQ(b.lower, 4.5);
  EXPECT_EQ(b.upper, 5.5);
  EXPECT_EQ(b.arithmetic, gp::numpy_float::float32);
  const auto i =
      gp::numpy_bins::of_data<std::int64_t>(std::int64_t{1} << 60, std::int64_t{1} << 60);
  EXPECT_EQ(i.lower, 0x1p60 - 0.5);  // rounded in float64, as numpy's int64 - 0.5
  EXPECT_EQ(i.arithmetic, gp::numpy_float::float64);
  const auto r = gp::numpy_bins::with_range<double>(3, 3);
  EXPECT_EQ(r.lower, 2.5);
  EXPECT_EQ(r.upper, 3.5);
}

TEST(host_histogram_numpy, bad_ranges_and_edge_types_throw_before_writing) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_THROW(gp::numpy_bins::with_range<float>(3, 1), std::invalid_argument);
  EXPECT_THROW(gp::numpy_bins::with_range<float>(0, inf), std::invalid_argument);
  EXPECT_THROW(gp::numpy_bins::with_range<float>(nan, 1), std::invalid_argument);
  EXPECT_THROW(gp::numpy_bins::of_data<double>(1.0, inf), std::invalid_argument);
  EXPECT_THROW(gp::numpy_bins::of_data<float>(std::nanf(""), std::nanf("")), std::invalid_argument);
  std::vector<float> x = {0.5f};
  std::vector<std::uint64_t> counts(4, 7);
  // float samples are compared in float: float64 edges cannot be honoured.
  EXPECT_THROW(gp::histogram_even(gp::host, x, counts, gp::numpy_bins::with_range<double>(0, 1)),
               std::invalid_argument);
  std::vector<int> ints = {1};
  EXPECT_THROW(gp::histogram_even(gp::host, ints, counts, gp::numpy_bins::with_range<float>(0, 1)),
               std::invalid_argument);
  // 5000 float16 edges over [0, 1] repeat values: numpy's "too many bins".
  std::vector<std::uint64_t> many(5000, 7);
  EXPECT_THROW(gp::histogram_even(gp::host, x, many, gp::numpy_bins::with_range<gp::half>(0, 1)),
               std::invalid_argument);
  std::vector<std::uint64_t> none;
  EXPECT_THROW(gp::histogram_even(gp::host, x, none, gp::numpy_bins::with_range<float>(0, 1)),
               std::invalid_argument);
  EXPECT_EQ(counts, std::vector<std::uint64_t>(4, 7));
  EXPECT_EQ(many, std::vector<std::uint64_t>(5000, 7));
}

// Bins about one float32 unit wide: edges up to half a bin off the even
// grid, so the binner searches the edges for every sample near one.
TEST(host_histogram_numpy, edges_far_off_the_grid_are_searched) {
  const auto bins = gp::numpy_bins::with_range<float>(1024.0, 1024.0 + 110 * 0x1p-13);
  EXPECT_TRUE(gp::detail::checked_numpy_binner<float>("test", 100, bins).search);
  EXPECT_FALSE(
      gp::detail::checked_numpy_binner<float>("test", 1000, gp::numpy_bins::with_range<float>(0, 1))
          .search);
}

// round_to_half: every half is kept, ties between neighbours go to the even
// one, anything else to the nearer; 65520 and beyond overflow.
TEST(host_histogram_numpy, rounding_to_float16) {
  for (std::uint32_t bits = 0; bits < 0x7C00u; ++bits) {
    const double h = static_cast<float>(gp::half::from_bits(static_cast<std::uint16_t>(bits)));
    ASSERT_EQ(gp::detail::round_to_half(h), h);
    ASSERT_EQ(gp::detail::round_to_half(-h), -h);
    if (bits + 1 == 0x7C00u) break;
    const double next =
        static_cast<float>(gp::half::from_bits(static_cast<std::uint16_t>(bits + 1)));
    const double mid = (h + next) / 2;
    const double even = bits % 2 == 0 ? h : next;
    ASSERT_EQ(gp::detail::round_to_half(mid), even) << bits;
    ASSERT_EQ(gp::detail::round_to_half(std::nextafter(mid, 0.0)), h) << bits;
    ASSERT_EQ(gp::detail::round_to_half(std::nextafter(mid, 1e9)), next) << bits;
  }
  EXPECT_EQ(gp::detail::round_to_half(65519.99), 65504.0);
  EXPECT_TRUE(std::isinf(gp::detail::round_to_half(65520.0)));
  EXPECT_EQ(gp::detail::round_to_half(0x1p-25), 0.0);
  EXPECT_EQ(gp::detail::round_to_half(0x1.0000000000001p-25), 0x1p-24);
}

// float32 data over nearly all of float's range. Its own [min, max] makes
// np.linspace overflow in float32 (numpy: "too many bins"); a given range
// has edges, but x - lo overflows float, so the binner searches the edges
// for every sample (numpy 2.4.6 itself fails there with an IndexError: its
// index estimate overflows).
TEST(host_histogram_numpy, range_wider_than_float) {
  const float big = 3e38f;
  std::vector<float> x = {-big, -1e38f, 0.0f, 1e38f, big, 2e38f};
  std::vector<std::uint64_t> counts(3);
  EXPECT_THROW(gp::histogram_even(gp::host, x, counts, gp::numpy_bins::of_data<float>(-big, big)),
               std::invalid_argument);
  const auto bins = gp::numpy_bins::with_range<float>(-3e38, 3e38);
  EXPECT_TRUE(gp::detail::checked_numpy_binner<float>("test", 3, bins).search);
  EXPECT_EQ(gp::histogram_even(gp::host, x, counts, bins), 0u);
  EXPECT_EQ(gp::numpy_histogram_edges(bins, 3),
            (std::vector<double>{-3e38f, -1e38f, 1e38f, 3e38f}));
  EXPECT_EQ(counts, (std::vector<std::uint64_t>{1, 2, 3}));
}

// numpy_histogram over 64-bit integers and float16 data (the host takes
// every number type; the GPU the precompiled ones): issue 41's int64
// reproducers raise numpy's "Too many bins for data range", the extremes
// of int64 are answered as numpy 2.4.6 answers them.
TEST(host_histogram_numpy, int64_and_float16_samples) {
  constexpr std::int64_t lowest = std::numeric_limits<std::int64_t>::min();
  constexpr std::int64_t highest = std::numeric_limits<std::int64_t>::max();
  std::vector<std::uint64_t> counts(10, 7);
  std::vector<double> edges(11, 9);
  const auto reason = [&](const auto& x) -> std::string {
    try {
      gp::numpy_histogram(gp::host, x, counts, edges);
    } catch (const gp::histogram_argument_error& e) {
      return e.reason();
    }
    return "";
  };
  const std::string too_many = "Too many bins for data range. Cannot create 10 finite-sized bins";
  EXPECT_EQ(reason(std::vector<std::int64_t>{lowest, lowest}).rfind(too_many, 0), 0u);
  EXPECT_EQ(reason(std::vector<std::int64_t>{std::int64_t{1} << 62}).rfind(too_many, 0), 0u);
  EXPECT_EQ(reason(std::vector<std::int64_t>{highest}).rfind(too_many, 0), 0u);
  EXPECT_EQ(reason(std::vector<std::uint64_t>{~std::uint64_t{0}}).rfind(too_many, 0), 0u);
  EXPECT_EQ(counts, std::vector<std::uint64_t>(10, 7));
  EXPECT_EQ(edges, std::vector<double>(11, 9));
  std::vector<std::uint64_t> three(3);
  std::vector<double> four(4);
  EXPECT_EQ(gp::numpy_histogram(gp::host, std::vector<std::int64_t>{lowest, highest}, three, four),
            0u);
  EXPECT_EQ(three, (std::vector<std::uint64_t>{1, 0, 1}));
  EXPECT_EQ(four, (std::vector<double>{-9.223372036854776e18, -3.074457345618259e18,
                                       3.074457345618258e18, 9.223372036854776e18}));
  // float16 [0.5, 1, 2.5, 4] in 3 bins of its own range: float16 linspace,
  // edges 0.5, 1.667, 2.834, 4 (float16 values; numpy 2.4.6's).
  const std::vector<gp::half> h = {gp::half(0.5f), gp::half(1.0f), gp::half(2.5f), gp::half(4.0f)};
  std::vector<float> half_edges(4);
  EXPECT_EQ(gp::numpy_histogram(gp::host, h, three, half_edges), 0u);
  EXPECT_EQ(three, (std::vector<std::uint64_t>{2, 1, 1}));
  EXPECT_EQ(half_edges, (std::vector<float>{0.5f, 1.6669921875f, 2.833984375f, 4.0f}));
}

// numpy.histogram([1, 2, 2, 4], bins=4, weights=[4, 3, 2, 1]) and with the
// edges [0, 2, 4]: the weights' type in and out.
TEST(host_histogram_numpy, weighted_sums_in_the_weights_type) {
  const std::vector<double> x = {1, 2, 2, 4};
  const std::vector<std::int64_t> w = {4, 3, 2, 1};
  std::vector<std::int64_t> sums(4, -1);
  std::vector<double> edges(5);
  gp::numpy_histogram_weighted(gp::host, x, w, sums, edges);
  EXPECT_EQ(sums, (std::vector<std::int64_t>{4, 5, 0, 1}));
  EXPECT_EQ(edges, (std::vector<double>{1, 1.75, 2.5, 3.25, 4}));
  std::vector<std::int64_t> by_edges(2, -1);
  gp::numpy_histogram_of_edges_weighted(gp::host, x, w, by_edges, std::vector<double>{0, 2, 4});
  EXPECT_EQ(by_edges, (std::vector<std::int64_t>{4, 6}));
}

// numpy.histogram(np.arange(9), [0, 1, 3, 6, 10], weights=[2, 1, ...]) and a
// NaN sample, which no bin holds (it sorts last).
TEST(host_histogram_numpy, weighted_edges_leave_nan_and_outliers_out) {
  std::vector<float> x = {0, 1, 2, 3, 4, 5, 6, 7, 8, std::nanf(""), -1, 11};
  std::vector<float> w = {2, 1, 1, 1, 1, 1, 1, 1, 1, 100, 100, 100};
  std::vector<float> sums(4);
  gp::numpy_histogram_of_edges_weighted(gp::host, x, w, sums, std::vector<double>{0, 1, 3, 6, 10});
  EXPECT_EQ(sums, (std::vector<float>{2, 2, 3, 3}));
  std::vector<float> even(2);
  std::vector<float> edges(3);
  gp::numpy_histogram_weighted(gp::host, x, w, even, edges, gp::numpy_range{0, 8});
  EXPECT_EQ(even, (std::vector<float>{5, 5}));  // [0, 4): 2 + 1 + 1 + 1; [4, 8]: 5
}

// Unit weights over several of numpy's blocks of 65536 samples give the
// counts; integer-valued double weights their exact sums.
TEST(host_histogram_numpy, unit_weights_are_the_counts) {
  std::vector<double> x(200003);
  for (std::size_t i = 0; i < x.size(); ++i)
    x[i] = std::sin(0.37 * double(i)) * 10;
  std::vector<std::uint64_t> counts(97);
  std::vector<double> edges(98), weighted_edges(98);
  gp::numpy_histogram(gp::host, x, counts, edges);
  std::vector<double> ones(x.size(), 1.0), sums(97);
  gp::numpy_histogram_weighted(gp::host, x, ones, sums, weighted_edges);
  EXPECT_EQ(weighted_edges, edges);
  for (std::size_t b = 0; b < counts.size(); ++b)
    EXPECT_EQ(sums[b], double(counts[b])) << "bin " << b;
  std::vector<double> of_edges(97);
  gp::numpy_histogram_of_edges_weighted(gp::host, x, ones, of_edges, edges);
  for (std::size_t b = 0; b < counts.size(); ++b)
    EXPECT_EQ(of_edges[b], double(counts[b])) << "bin " << b;
}

// A number-like class type as the weights (numpy's object weights): each
// value records its additions, so the sums show numpy's order: its cumsum of
// the sorted block (the first running sum the first weight itself), each
// edge's total 0 + running sum, a bin the difference of two totals. The
// expected texts are numpy 2.4's for the same object weights.
struct recorded_weight {
  std::string text = "0";
  friend recorded_weight operator+(const recorded_weight& a, const recorded_weight& b) {
    return {"(" + a.text + "+" + b.text + ")"};
  }
  friend recorded_weight operator-(const recorded_weight& a, const recorded_weight& b) {
    return {"(" + a.text + "-" + b.text + ")"};
  }
};

TEST(host_histogram_numpy, object_weights_are_added_in_numpys_order) {
  const std::vector<double> x = {0.5, 2.5, -1.0, 1.5, std::nan(""), 3.0};
  std::vector<recorded_weight> w;
  for (const char* name : {"a", "b", "c", "d", "e", "f"})
    w.push_back({name});
  std::vector<recorded_weight> sums(3);
  gp::numpy_histogram_of_edges_weighted(gp::host, x, w, sums, std::vector<double>{0, 1, 2, 3});
  EXPECT_EQ(sums[0].text, "((0+(c+a))-(0+c))");
  EXPECT_EQ(sums[1].text, "((0+((c+a)+d))-(0+(c+a)))");
  EXPECT_EQ(sums[2].text, "((0+((((c+a)+d)+b)+f))-(0+((c+a)+d)))");
}

TEST(host_histogram_numpy, weights_of_another_size_throw_before_writing) {
  const std::vector<double> x = {1, 2, 3};
  const std::vector<double> w = {1, 2};
  std::vector<double> sums(2, -7), edges(3, -7);
  EXPECT_THROW(gp::numpy_histogram_weighted(gp::host, x, w, sums, edges),
               gp::histogram_argument_error);
  EXPECT_THROW(gp::numpy_histogram_of_edges_weighted(gp::host, x, w, sums,
                                                     std::vector<double>{0, 1, 2}),
               gp::histogram_argument_error);
  EXPECT_EQ(sums, (std::vector<double>{-7, -7}));
  EXPECT_EQ(edges, (std::vector<double>{-7, -7, -7}));
}

// A range of NumPy float32 bounds: np.linspace in float32, so the edges of
// numpy_range{lo, hi, float32} are those of the data's own [min, max] = [lo,
// hi]; equal bounds widen by 0.5 in float32.
TEST(host_histogram_numpy, range_of_float32_scalars_computes_in_float32) {
  const float lo = 0.1f, hi = 0.9f;
  const std::vector<float> x = {0.1f, 0.5f, 0.9f};
  std::vector<std::uint64_t> counts(7);
  std::vector<float> edges(8);
  gp::numpy_histogram(gp::host, x, counts, edges, gp::numpy_range{lo, hi, gp::numpy_float::float32});
  const auto want = gp::numpy_histogram_edges(gp::numpy_bins::of_data<float>(lo, hi), 7);
  for (std::size_t b = 0; b < edges.size(); ++b)
    EXPECT_EQ(double(edges[b]), want[b]) << "edge " << b;
  const auto in_double = gp::numpy_histogram_edges(gp::numpy_bins::with_range<float>(lo, hi), 7);
  EXPECT_NE(in_double, want);  // the float64 arithmetic rounds some edges otherwise
  std::vector<std::uint64_t> one(1);
  std::vector<float> widened(2);
  gp::numpy_histogram(gp::host, x, one, widened, gp::numpy_range{lo, lo, gp::numpy_float::float32});
  EXPECT_EQ(widened[0], static_cast<float>(lo - 0.5f));
  EXPECT_EQ(widened[1], static_cast<float>(lo + 0.5f));
}
