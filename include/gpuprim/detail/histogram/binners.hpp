// The histogram's binners (sample -> bin under histogram_even's and
// histogram_range's rules, and a user classifier) and the argument checks
// both backends make.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "gpuprim/core/device_span.hpp"
#include "gpuprim/core/macros.hpp"
#include "gpuprim/histogram_types.hpp"

namespace gpuprim::detail {

// lower + width * b / bins for b < bins, with the division by bins done as
// a multiply by its reciprocal (inverse = 1.0 / bins, rounded) and one
// fused correction: with a correctly rounded reciprocal that gives the
// correctly rounded quotient (Markstein's theorem), the same double as
// width * b / bins, at a few multiplies instead of a division (which on the
// GPU is a subroutine). tests/host/histogram_test.cpp checks it against the
// plain division.
GPUPRIM_HD inline double edge_by_reciprocal(double lower, double width, int bins, double inverse,
                                            int b) {
  const double p = width * b;
  const double q0 = p * inverse;
  return lower + fma(fma(-q0, double(bins), p), inverse, q0);
}

// The same edge on either side: the GPU multiplies by the reciprocal, the
// host divides (a few cycles there, where fma without FMA hardware is a
// library call).
GPUPRIM_HD inline double even_edge(double lower, double width, int bins, double inverse, int b) {
#if defined(__CUDA_ARCH__)
  return edge_by_reciprocal(lower, width, bins, inverse, b);
#else
  (void)inverse;
  return lower + width * b / bins;
#endif
}

// Binners map a sample to its bin in [0, bins), or to -1 (not counted). They
// are small values copied into kernels.
//
// Floating samples: t = (x - lower) * (bins / (upper - lower)) in the
// sample's type estimates the bin. Its error is a few units in the last
// place of t, so when t's fraction is at least `margin` away from an
// integer, floor(t) is the bin of the exact edges and nothing more is done
// (the common case: one subtract, one multiply, two compares). Otherwise x
// is within rounding of an edge (or t is past the last bin), and one
// compare of x with that edge in double moves the bin by at most one.
// margin is twice the bound on t's error and the edges' own rounding, in
// units of bins; when it reaches 1/2 (bin counts near 2^31, or a range far
// from 0 relative to its width) the estimate may be off by more than a
// bin, and every sample searches the edges (bin_from_edges).
template <class T>
struct even_binner {
  using level = histogram_level_t<T>;
  level lower;
  level upper;
  int bins;
  // Floating samples: bins / (upper - lower) in T. Integers: upper - lower.
  std::conditional_t<std::is_floating_point_v<T>, T, std::uint64_t> scale;
  // Floating samples only: the fast path's margin, and for the edges
  // upper - lower, 1 / bins and bins / (upper - lower) in double.
  T margin{};
  T half_minus_margin{};
  double width = 0, inverse_bins = 0, scale_in_double = 0;

  even_binner() = default;
  even_binner(level lo, level hi, int num_bins) : lower(lo), upper(hi), bins(num_bins) {
    if constexpr (std::is_floating_point_v<T>) {
      scale = static_cast<T>(num_bins) / (hi - lo);
      width = double(hi) - double(lo);
      inverse_bins = 1.0 / num_bins;
      scale_in_double = num_bins / width;
      // t's relative error is at most 4 roundings, 2^-22 for float (x -
      // lower, upper - lower, the scale and the product) and 2^-51 for
      // double; an edge is off from the exact one by at most 2^-51 of
      // max(|lower|, |upper|). The margin is twice the larger, in bins.
      const double magnitude = std::fmax(std::fabs(double(lo)), std::fabs(double(hi)));
      const double spread = std::fmax(1.0, magnitude / width);
      const double unit = std::is_same_v<T, float> ? 0x1p-21 : 0x1p-44;
      const double m = double(num_bins) * spread * unit;
      margin = m < 0.5 ? static_cast<T>(m) : T(1);  // 1: no fraction passes, every sample is exact
      half_minus_margin = T(0.5) - margin;
    } else {
      scale = static_cast<std::uint64_t>(hi - lo);
    }
  }

  GPUPRIM_HD int operator()(T x) const {
    if constexpr (std::is_floating_point_v<T>) {
      if (!(x >= lower && x < upper)) return -1;  // NaN fails both
      const T t = (x - lower) * scale;
      const int b = static_cast<int>(t);
      const T fraction = t - static_cast<T>(b);  // exact: b is t's integer part
      // At least margin from both ends of bin b: |fraction - 1/2| <= 1/2 - margin
      // (one compare; t past the last bin has a fraction near 0 and fails it).
      if (std::abs(fraction - T(0.5)) <= half_minus_margin) return b;
      if (margin < T(1)) {
        // t is within margin / 2 < 1/4 bin of the exact position, so one
        // compare with the nearer edge decides (inline and division-free:
        // a call or a loop here cost the kernel 15%).
        if (b >= bins) return bins - 1;
        if (fraction < T(0.5)) return double(x) < edge(b) ? b - 1 : b;
        return b + 1 < bins && double(x) >= edge(b + 1) ? b + 1 : b;
      }
      return bin_from_edges(x);
    } else {
      const auto v = static_cast<std::int64_t>(x);
      if (v < lower || v >= upper) return -1;
      // (v - lower) < 2^33 and bins < 2^31: the product fits in 64 bits.
      return static_cast<int>(static_cast<std::uint64_t>(v - lower) *
                              static_cast<std::uint64_t>(bins) / scale);
    }
  }

  // The lower edge of bin b < bins.
  GPUPRIM_HD double edge(int b) const { return even_edge(lower, width, bins, inverse_bins, b); }

  // The b with edge(b) <= x < edge(b + 1), for lower <= x < upper, when the
  // estimate in the sample's type may be off by more than a bin (bin counts
  // near 2^31, or a range far from 0 for its width): an estimate in double,
  // moved down or up while x is below its lower edge or not below its
  // upper one. Out of line on the GPU.
  GPUPRIM_HD GPUPRIM_NOINLINE int bin_from_edges(T sample) const {
    const double x = sample;
    double estimate = (x - double(lower)) * scale_in_double;
    estimate = estimate < 0 ? 0 : estimate;
    int b = estimate < double(bins - 1) ? static_cast<int>(estimate) : bins - 1;
    while (b > 0 && x < edge(b))
      --b;
    while (b + 1 < bins && x >= edge(b + 1))
      ++b;
    return b;
  }
};

// The bin of v among the ascending edges[0..bins] (bins >= 1): the last lo
// < bins with edges[lo] <= v, for edges[0] <= v (binary search).
template <class E, class V>
GPUPRIM_HD int bin_among_edges(const E* edges, int bins, V v) {
  int lo = 0, hi = bins;  // edges[lo] <= v; v < edges[hi] unless hi == bins
  while (hi - lo > 1) {
    const int mid = lo + (hi - lo) / 2;
    if (edges[mid] <= v) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return lo;
}

// Bins between bins + 1 increasing boundaries (host or device memory, as the
// backend reads it).
template <class T>
struct range_binner {
  using level = histogram_level_t<T>;
  const level* boundaries;
  int bins;

  GPUPRIM_HD int operator()(T x) const {
    const level v = static_cast<level>(x);
    if (!(v >= boundaries[0] && v < boundaries[bins])) return -1;
    return bin_among_edges(boundaries, bins, v);
  }
};

// A user classifier: any integer it returns outside [0, bins) is "not counted".
template <class F>
struct classify_binner {
  F classify;
  int bins;

  template <class T>
  GPUPRIM_HD int operator()(const T& x) const {
    const auto b = classify(x);
    static_assert(std::is_integral_v<decltype(b)>,
                  "gpuprim::histogram: classify must return an "
                  "integer bin index");
    if constexpr (std::is_signed_v<decltype(b)>) {
      if (b < 0) return -1;
    }
    return static_cast<std::uint64_t>(b) < static_cast<std::uint64_t>(bins) ? static_cast<int>(b)
                                                                            : -1;
  }
};

inline std::string histogram_where(const char* algorithm) {
  return std::string("gpuprim::") + algorithm + ": ";
}

// The number of bins is counts.size(): at least 1, less than 2^31.
inline int checked_bins(const char* algorithm, std::size_t bins) {
  if (bins == 0) {
    throw std::invalid_argument(histogram_where(algorithm) +
                                "counts is empty (the number of bins is counts.size(), which "
                                "must be at least 1)");
  }
  if (bins > static_cast<std::size_t>(std::numeric_limits<int>::max())) {
    throw std::invalid_argument(histogram_where(algorithm) + "counts has " + std::to_string(bins) +
                                " bins; at most 2^31 - 1 are supported");
  }
  return static_cast<int>(bins);
}

template <class L>
std::string level_text(L v) {
  if constexpr (std::is_floating_point_v<L>) {
    if (std::isnan(v)) return "nan";
    char text[32];
    std::snprintf(text, sizeof text, "%.9g", static_cast<double>(v));
    return text;
  } else {
    return std::to_string(v);
  }
}

template <class L>
void check_level_is_number(const char* algorithm, const std::string& name, L v) {
  if constexpr (std::is_floating_point_v<L>) {
    if (std::isnan(v)) throw std::invalid_argument(histogram_where(algorithm) + name + " is NaN");
    if (std::isinf(v)) {
      throw std::invalid_argument(histogram_where(algorithm) + name + " is infinite (" +
                                  level_text(v) + "); levels must be finite");
    }
  }
}

template <class T>
even_binner<T> checked_even_binner(const char* algorithm, std::size_t num_bins,
                                   histogram_level_t<T> lower, histogram_level_t<T> upper) {
  const int bins = checked_bins(algorithm, num_bins);
  check_level_is_number(algorithm, "lower", lower);
  check_level_is_number(algorithm, "upper", upper);
  if (!(lower < upper)) {
    throw std::invalid_argument(histogram_where(algorithm) + "lower (" + level_text(lower) +
                                ") must be less than upper (" + level_text(upper) + ")");
  }
  if constexpr (std::is_floating_point_v<T>) {
    if (!std::isfinite(upper - lower)) {
      throw std::invalid_argument(histogram_where(algorithm) + "upper - lower overflows (" +
                                  level_text(lower) + " to " + level_text(upper) + ")");
    }
  } else {
    // Integer samples are at most 32 bits wide: levels beyond +-2^33 only
    // make empty bins, and keep the bin arithmetic within 64 bits.
    constexpr std::int64_t limit = std::int64_t{1} << 33;
    if (lower < -limit || upper > limit) {
      throw std::invalid_argument(histogram_where(algorithm) +
                                  "levels of integer samples must lie "
                                  "in [-2^33, 2^33] (got " +
                                  level_text(lower) + " to " + level_text(upper) + ")");
    }
  }
  return even_binner<T>(lower, upper, bins);
}

// bins + 1 entries, numbers, strictly increasing.
template <class L>
int checked_boundaries(const char* algorithm, std::size_t num_bins, std::span<const L> boundaries) {
  const int bins = checked_bins(algorithm, num_bins);
  if (boundaries.size() != num_bins + 1) {
    throw std::invalid_argument(
        histogram_where(algorithm) + "boundaries has " + std::to_string(boundaries.size()) +
        " entries; " + std::to_string(num_bins) + " bins need " + std::to_string(num_bins + 1));
  }
  for (std::size_t i = 0; i < boundaries.size(); ++i) {
    check_level_is_number(algorithm, "boundaries[" + std::to_string(i) + "]", boundaries[i]);
    if (i > 0 && !(boundaries[i - 1] < boundaries[i])) {
      throw std::invalid_argument(
          histogram_where(algorithm) + "boundaries must increase: boundaries[" +
          std::to_string(i - 1) + "] = " + level_text(boundaries[i - 1]) +
          " is not less than boundaries[" + std::to_string(i) + "] = " + level_text(boundaries[i]));
    }
  }
  return bins;
}

}  // namespace gpuprim::detail
