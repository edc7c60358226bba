// The histogram test bodies the host and CUDA suites share, each run on a
// `Side` (support/sides.hpp: host_side, cuda_side), against the sequential
// references of histogram_reference.hpp. Counts start as the poison value,
// so a bin that is never written fails.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "gpuprim/histogram.hpp"
#include "support/expect_message.hpp"
#include "support/histogram_reference.hpp"
#include "support/sides.hpp"
#include "support/test_data.hpp"

namespace gpuprim::test {

template <class Side, class C>
auto poisoned_counts_on(std::size_t bins) {
  return Side::put(std::vector<C>(bins, C(poison)));
}

// call() is refused with a message containing `text` and leaves `counts`
// (an array of Side, made by poisoned_counts_on) as they were.
template <class Side, class Counts, class Call>
void expect_refused_leaving(const Counts& counts, Call&& call, const std::string& text) {
  expect_invalid_argument(call, text);
  for (auto c : Side::get(counts))
    ASSERT_EQ(c, poison);
}

// histogram_even over part of the samples' range (some samples left out) at
// every standard size, for each bin count.
template <class Side, class T, class C>
void check_even_bins_at_every_size(const std::vector<std::size_t>& bin_counts,
                                   std::mt19937_64& rng) {
  const auto [lo, hi] = partial_range<T>();
  for (std::size_t n : standard_sizes()) {
    const auto x = random_samples<T>(n, rng);
    const auto samples = Side::put(x);
    for (std::size_t bins : bin_counts) {
      auto counts = poisoned_counts_on<Side, C>(bins);
      const std::uint64_t left = gpuprim::histogram_even(Side::backend(), samples, counts, lo, hi);
      expect_histogram(Side::get(counts), left,
                       reference_histogram_even<C>(std::span<const T>(x), bins, lo, hi),
                       "n=" + std::to_string(n) + " bins=" + std::to_string(bins));
    }
  }
}

// Samples on and next to every edge of histogram_even's bins (a stride of
// them for large bin counts), both ways by nextafter in the sample's type,
// over ranges whose width is not a power of two: each lands in the bin whose
// edges hold it (the reference's binary search over the edges).
template <class Side, class T>
void check_samples_on_and_next_to_edges() {
  // The last range is far from 0 for its width: the binner's estimate can
  // be off by more than a bin there, and every sample searches the edges.
  std::vector<std::pair<double, double>> ranges = {
      {0, 1}, {-1.7, 2.9}, {0.1, 0.7}, {-1000, 300000.3}};
  ranges.push_back(std::is_same_v<T, float> ? std::pair{1e5, 1e5 + 0.3} : std::pair{1e8, 1e8 + 1});
  for (const std::size_t bins :
       {std::size_t{1}, std::size_t{3}, std::size_t{1000}, std::size_t{100000}}) {
    for (const auto& [range_lo, range_hi] : ranges) {
      const T lo = static_cast<T>(range_lo), hi = static_cast<T>(range_hi);
      std::vector<T> x;
      std::vector<std::size_t> edges;  // every edge, or every 97th and the last three
      for (std::size_t b = 0; b <= bins; b += bins <= 1000 ? 1 : 97)
        edges.push_back(b);
      for (std::size_t b = bins - std::min<std::size_t>(bins, 2); b <= bins; ++b)
        edges.push_back(b);
      for (const std::size_t b : edges) {
        const double e = histogram_even_edge(lo, hi, static_cast<int>(bins), static_cast<int>(b));
        const T near = static_cast<T>(e);
        const T inf = std::numeric_limits<T>::infinity();
        for (T v : {near, std::nextafter(near, -inf), std::nextafter(near, inf),
                    std::nextafter(std::nextafter(near, inf), inf)})
          x.push_back(v);
      }
      const auto samples = Side::put(x);
      auto counts = poisoned_counts_on<Side, std::uint32_t>(bins);
      const std::uint64_t left = histogram_even(Side::backend(), samples, counts, lo, hi);
      expect_histogram(Side::get(counts), left,
                       reference_histogram_even<std::uint32_t>(std::span<const T>(x), bins, lo, hi),
                       "bins=" + std::to_string(bins) + " range [" + std::to_string(range_lo) +
                           ", " + std::to_string(range_hi) + ")");
    }
  }
}

// histogram_range with uneven boundaries at every standard size.
template <class Side, class T, class C>
void check_range_bins_at_every_size(const std::vector<std::size_t>& bin_counts,
                                    std::mt19937_64& rng) {
  for (std::size_t n : standard_sizes()) {
    const auto x = random_samples<T>(n, rng);
    const auto samples = Side::put(x);
    for (std::size_t bins : bin_counts) {
      const auto boundaries = uneven_boundaries<T>(bins);
      auto counts = poisoned_counts_on<Side, C>(bins);
      const std::uint64_t left =
          gpuprim::histogram_range(Side::backend(), samples, counts, boundaries);
      expect_histogram(
          Side::get(counts), left,
          reference_histogram_range<C>(std::span<const T>(x),
                                       std::span<const histogram_level_t<T>>(boundaries)),
          "n=" + std::to_string(n) + " bins=" + std::to_string(bins));
    }
  }
}

// n samples all equal to 5: all in bin 5 (for each bin count), none in
// [6, 100), and all in the one bin of [0, 100).
template <class Side, class T, class C>
void check_all_in_one_bin_none_in_range_one_bin(std::size_t n,
                                                const std::vector<std::size_t>& bin_counts) {
  const auto samples = Side::put(std::vector<T>(n, T(5)));
  for (std::size_t bins : bin_counts) {
    auto counts = poisoned_counts_on<Side, C>(bins);
    EXPECT_EQ(gpuprim::histogram_even(Side::backend(), samples, counts, 0,
                                      static_cast<histogram_level_t<T>>(bins)),
              0u);
    const std::vector<C> got = Side::get(counts);
    for (std::size_t b = 0; b < bins; ++b)
      ASSERT_EQ(got[b], b == 5 ? C(n) : C(0)) << "bins=" << bins << " bin " << b;
  }
  auto counts = poisoned_counts_on<Side, C>(16);
  EXPECT_EQ(gpuprim::histogram_even(Side::backend(), samples, counts, 6, 100), n);
  for (C c : Side::get(counts))
    EXPECT_EQ(c, C(0));
  auto one = poisoned_counts_on<Side, C>(1);
  EXPECT_EQ(gpuprim::histogram_even(Side::backend(), samples, one, 0, 100), 0u);
  EXPECT_EQ(Side::get(one)[0], C(n));
}

}  // namespace gpuprim::test
