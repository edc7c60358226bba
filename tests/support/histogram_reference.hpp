// Sequential references for the histogram family, and the samples and
// levels the host and GPU tests share.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include <gtest/gtest.h>

#include "gpuprim/histogram.hpp"
#include "support/test_data.hpp"

namespace gpuprim::test {

// The counts of `bins` bins and how many samples no bin takes, all zero to
// start.
template <class Counter>
struct reference_histogram {
  explicit reference_histogram(std::size_t bins) : counts(bins, 0) {}
  std::vector<Counter> counts;
  std::uint64_t left_out = 0;
};

// histogram_even by its definition: integers exactly (floor of an exact
// rational); floats by the edges, lower + (upper - lower) * b / bins in
// double with edge(bins) = upper, the bin being the last b whose edge is
// at most the sample (a binary search over the edges, no estimate).
template <class Counter, class T>
reference_histogram<Counter> reference_histogram_even(std::span<const T> x, std::size_t bins,
                                                      histogram_level_t<T> lower,
                                                      histogram_level_t<T> upper) {
  reference_histogram<Counter> r(bins);
  const double lo = static_cast<double>(lower), hi = static_cast<double>(upper);
  const auto edge = [&](std::size_t b) {
    return b == bins ? hi : lo + (hi - lo) * static_cast<double>(b) / static_cast<double>(bins);
  };
  for (const T v : x) {
    std::int64_t b = -1;
    if constexpr (std::is_floating_point_v<T>) {
      const double d = v;
      if (d >= lo && d < hi) {
        std::size_t first = 0, last = bins;  // edge(first) <= d < edge(last)
        while (last - first > 1) {
          const std::size_t mid = first + (last - first) / 2;
          if (edge(mid) <= d) {
            first = mid;
          } else {
            last = mid;
          }
        }
        b = static_cast<std::int64_t>(first);
      }
    } else {
      const auto w = static_cast<std::int64_t>(v);
      if (w >= lower && w < upper) {
        const long double q = static_cast<long double>(w - lower) * static_cast<long double>(bins) /
                              static_cast<long double>(upper - lower);
        b = static_cast<std::int64_t>(q);
        // Exact floor: fix the rounding of the long double quotient.
        const auto num = static_cast<unsigned __int128>(w - lower) * bins;
        const auto den = static_cast<unsigned __int128>(upper - lower);
        while (b > 0 && static_cast<unsigned __int128>(b) * den > num)
          --b;
        while (static_cast<unsigned __int128>(b + 1) * den <= num)
          ++b;
      }
    }
    if (b >= 0) {
      ++r.counts[static_cast<std::size_t>(b)];
    } else {
      ++r.left_out;
    }
  }
  return r;
}

// histogram_range by a linear search.
template <class Counter, class T>
reference_histogram<Counter> reference_histogram_range(
    std::span<const T> x, std::span<const histogram_level_t<T>> boundaries) {
  const std::size_t bins = boundaries.size() - 1;
  reference_histogram<Counter> r(bins);
  for (const T v : x) {
    const auto w = static_cast<histogram_level_t<T>>(v);
    bool counted = false;
    for (std::size_t i = 0; i < bins && !counted; ++i) {
      if (boundaries[i] <= w && w < boundaries[i + 1]) {
        ++r.counts[i];
        counted = true;
      }
    }
    if (!counted) ++r.left_out;
  }
  return r;
}

// Random samples: 8-bit over every value, 32-bit integers in [-1000, 1000]
// (unsigned: [0, 2000]), floats in [-1, 1).
template <class T>
std::vector<T> random_samples(std::size_t n, std::mt19937_64& rng) {
  if constexpr (std::is_floating_point_v<T>) {
    return draw_vector<T>(n, rng, std::uniform_real_distribution<double>(-1.0, 1.0));
  } else if constexpr (sizeof(T) == 1) {
    return draw_vector<T>(n, rng, std::uniform_int_distribution<int>(0, 255));
  } else if constexpr (std::is_signed_v<T>) {
    return draw_vector<T>(n, rng, std::uniform_int_distribution<int>(-1000, 1000));
  } else {
    return draw_vector<T>(n, rng, std::uniform_int_distribution<unsigned>(0, 2000));
  }
}

// A range covering most, not all, of random_samples' values, so some are left out.
template <class T>
std::pair<histogram_level_t<T>, histogram_level_t<T>> partial_range() {
  if constexpr (std::is_floating_point_v<T>) {
    return {static_cast<T>(-0.75), static_cast<T>(0.875)};
  } else if constexpr (sizeof(T) == 1) {
    return {10, 250};
  } else if constexpr (std::is_signed_v<T>) {
    return {-900, 950};
  } else {
    return {50, 1900};
  }
}

// bins + 1 increasing boundaries spread unevenly over partial_range().
template <class T>
std::vector<histogram_level_t<T>> uneven_boundaries(std::size_t bins) {
  using L = histogram_level_t<T>;
  const auto [lo, hi] = partial_range<T>();
  std::vector<L> b(bins + 1);
  for (std::size_t i = 0; i <= bins; ++i) {
    const double f = static_cast<double>(i) / static_cast<double>(bins);
    const double curved = f * f * (3.0 - 2.0 * f);  // denser at both ends
    b[i] = static_cast<L>(static_cast<double>(lo) + curved * static_cast<double>(hi - lo));
  }
  if constexpr (!std::is_floating_point_v<T>) {
    // Integer rounding may repeat a boundary: keep them strictly increasing
    // (fewer bins than asked for when the range is too narrow is the caller's problem).
    for (std::size_t i = 1; i <= bins; ++i)
      b[i] = std::max(b[i], b[i - 1] + 1);
  }
  return b;
}

// A (sample type, counter type) pair for typed tests.
template <class S, class C>
struct sample_and_counter {
  using sample = S;
  using counter = C;
};

// Fills outputs whose bins a histogram must all write.
constexpr std::uint32_t poison = 0xDEADBEEF;

template <class C>
void expect_histogram(const std::vector<C>& got, std::uint64_t got_left_out,
                      const reference_histogram<C>& want, const std::string& where) {
  ASSERT_EQ(got.size(), want.counts.size()) << where;
  std::size_t wrong = 0, first = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (got[i] != want.counts[i] && wrong++ == 0) first = i;
  }
  EXPECT_EQ(wrong, 0u) << where << ": first wrong bin " << first << " has "
                       << (wrong ? got[first] : C{}) << ", expected "
                       << (wrong ? want.counts[first] : C{});
  EXPECT_EQ(got_left_out, want.left_out) << where << ": left-out count";
}

}  // namespace gpuprim::test
