// The histogram test bodies the host and CUDA suites share, each run on a
// `Side` (support/sides.hpp: host_side, cuda_side), against the sequential
// references of histogram_reference.hpp. Counts start as the poison value,
// so a bin that is never written fails.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "gpuprim/histogram.hpp"
#include "support/histogram_reference.hpp"
#include "support/sides.hpp"
#include "support/test_data.hpp"

namespace gpuprim::test {

template <class Side, class C>
auto poisoned_counts_on(std::size_t bins) {
  return Side::put(std::vector<C>(bins, C(poison)));
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
