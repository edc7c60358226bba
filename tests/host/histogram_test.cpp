// The histogram family: the cases of the CPU backend alone, against
// sequential references. The cases of both backends are in
// tests/sides/histogram_test.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "gpuprim/histogram.hpp"
#include "support/expect_message.hpp"
#include "support/histogram_cases.hpp"
#include "support/histogram_reference.hpp"
#include "support/test_data.hpp"

namespace gp = gpuprim;
using namespace gpuprim::test;

TEST(host_histogram_edges, samples_at_lower_and_upper) {
  // [0, 4) in 4 bins: 0 -> bin 0, 3.9999 -> bin 3, 4 is left out, -0.0 counts as 0.
  const std::vector<float> x = {
      0.0f, -0.0f, 1.0f, 2.5f, std::nextafter(4.0f, 0.0f), 4.0f, std::nextafter(0.0f, -1.0f)};
  std::vector<std::uint32_t> counts(4, poison);
  EXPECT_EQ(gp::histogram_even(gp::host, x, counts, 0.0f, 4.0f), 2u);
  EXPECT_EQ(counts, (std::vector<std::uint32_t>{2, 1, 1, 1}));
  // Integers: [-3, 5) in 3 bins of width 8/3: [-3, -1/3) | [-1/3, 2 1/3) | [2 1/3, 5).
  const std::vector<std::int32_t> y = {-4, -3, -1, 0, 2, 3, 4, 5};
  counts.assign(3, poison);
  EXPECT_EQ(gp::histogram_even(gp::host, y, counts, -3, 5), 2u);
  EXPECT_EQ(counts, (std::vector<std::uint32_t>{2, 2, 2}));
  // Boundaries are half-open too.
  const std::vector<double> z = {1.0, 2.0, 2.0, 3.0, 10.0, 0.999};
  std::vector<std::uint64_t> c3(3, poison);
  EXPECT_EQ(gp::histogram_range(gp::host, z, c3, std::vector<double>{1.0, 2.0, 3.0, 10.0}), 2u);
  EXPECT_EQ(c3, (std::vector<std::uint64_t>{1, 2, 1}));
}

TEST(host_histogram_edges, nan_and_inf_are_left_out) {
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> x = {nan, inf, -inf, 0.5f, -nan, 0.25f};
  std::vector<std::uint32_t> counts(2, poison);
  EXPECT_EQ(gp::histogram_even(gp::host, x, counts, 0.0f, 1.0f), 4u);
  EXPECT_EQ(counts, (std::vector<std::uint32_t>{1, 1}));
  EXPECT_EQ(gp::histogram_range(gp::host, x, counts, std::vector<float>{0.0f, 0.3f, 1.0f}), 4u);
  EXPECT_EQ(counts, (std::vector<std::uint32_t>{1, 1}));
}

TEST(host_histogram_edges, full_byte_range_and_empty_input) {
  std::vector<std::uint8_t> x(256 * 300);
  for (std::size_t i = 0; i < x.size(); ++i)
    x[i] = static_cast<std::uint8_t>(i * 7);
  std::vector<std::uint32_t> counts(256, poison);
  EXPECT_EQ(gp::histogram_even(gp::host, x, counts, 0, 256), 0u);
  for (auto c : counts)
    EXPECT_EQ(c, 300u);
  const std::vector<std::uint8_t> none;
  EXPECT_EQ(gp::histogram_even(gp::host, none, counts, 0, 256), 0u);
  for (auto c : counts)
    EXPECT_EQ(c, 0u);
}

TEST(host_histogram_edges, classifier_with_negative_and_too_large_bins) {
  auto rng = make_rng(64);
  const auto x = random_samples<std::int32_t>(100003, rng);
  std::vector<std::uint64_t> counts(10, poison);
  // Bin = v mod 13 for non-negative v: bins 10..12 and negatives are left out.
  const auto classify = [](std::int32_t v) { return v < 0 ? -1 : v % 13; };
  const std::uint64_t left = gp::histogram(gp::host, x, counts, classify);
  std::vector<std::uint64_t> want(10, 0);
  std::uint64_t want_left = 0;
  for (auto v : x) {
    const int b = classify(v);
    if (b >= 0 && b < 10) {
      ++want[b];
    } else {
      ++want_left;
    }
  }
  EXPECT_EQ(counts, want);
  EXPECT_EQ(left, want_left);
  // An unsigned classifier: huge values are out of range, not wrapped.
  std::vector<std::uint32_t> c2(3, poison);
  const std::vector<std::uint8_t> bytes = {0, 1, 2, 3, 255};
  // 0 -> 2^64 - 1 and 255 -> 254 are left out; 1, 2, 3 -> bins 0, 1, 2.
  EXPECT_EQ(gp::histogram(gp::host, bytes, c2, [](std::uint8_t v) { return std::uint64_t(v) - 1; }),
            2u);
  EXPECT_EQ(c2, (std::vector<std::uint32_t>{1, 1, 1}));
}

// The refusals of both backends are in tests/sides/histogram_test.cpp.
TEST(host_histogram_errors, a_classifier_with_no_counts_is_refused) {
  const std::vector<float> x = {0.5f, 1.5f};
  std::vector<std::uint32_t> empty;
  expect_invalid_argument([&] { gp::histogram(gp::host, x, empty, [](float) { return 0; }); },
                          "counts is empty");
}

// The GPU's edges divide through a reciprocal and one fused correction
// (detail::edge_by_reciprocal); they must be the doubles that
// lower + (upper - lower) * b / bins gives, as histogram_even_edge is.
TEST(host_histogram_edges, edges_equal_the_plain_division) {
  auto rng = make_rng(67);
  std::uniform_real_distribution<double> value(-1e6, 1e6);
  std::uniform_int_distribution<int> exponent(-40, 40);
  std::uniform_int_distribution<int> bin_count(1, std::numeric_limits<int>::max());
  for (int trial = 0; trial < 2000; ++trial) {
    const double lower = std::ldexp(value(rng), exponent(rng));
    const double upper = lower + std::ldexp(std::abs(value(rng)) + 1, exponent(rng));
    const int bins = trial < 1000 ? 1 + trial : bin_count(rng);
    std::uniform_int_distribution<int> bin(0, bins - 1);
    for (int k = 0; k < 500; ++k) {
      const int b = k < 100 ? std::min(k, bins - 1) : bin(rng);
      const double want = lower + (upper - lower) * b / bins;
      ASSERT_EQ(gp::histogram_even_edge(lower, upper, bins, b), want);
      ASSERT_EQ(gp::detail::edge_by_reciprocal(lower, upper - lower, bins, 1.0 / bins, b), want)
          << "lower " << lower << " upper " << upper << " bins " << bins << " b " << b;
    }
    ASSERT_EQ(gp::histogram_even_edge(lower, upper, bins, bins), upper);
  }
}
